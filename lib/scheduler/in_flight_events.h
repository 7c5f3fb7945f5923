// Internal to the scheduling queue: the pods being scheduled ("in flight",
// from Pop until Done) and the cluster events that arrive meanwhile, so that
// a pod coming back unschedulable can replay them through its rejectors'
// hints (upstream's inFlightPods and inFlightEvents).
//
// One list holds, in arrival order, a marker per in-flight pod and each event
// recorded while some pod is in flight; the events after a pod's marker are
// the ones it missed. Events before the oldest marker concern no pod and are
// dropped as soon as they are.
//
//   in_flight.Begin(pod);                 // Pop
//   in_flight.Record(event);              // an event while pods are in flight
//   in_flight.ForEachEventAfter(uid, fn); // the pod came back: replay
//   in_flight.Done(uid);
//
// Not thread-safe: the queue calls it under its lock.
#ifndef SCHEDKIT_LIB_SCHEDULER_IN_FLIGHT_EVENTS_H_
#define SCHEDKIT_LIB_SCHEDULER_IN_FLIGHT_EVENTS_H_

#include <list>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "schedkit/framework/events.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/scheduler/queue.h"

namespace schedkit::scheduler {

// A cluster event kept for in-flight pods, owning its objects (shared with
// the caller, or copies when the caller's pointers live only for the call).
struct RecordedEvent {
  framework::ClusterEvent event;
  SharedEventObjects owned;

  framework::EventObjects objects() const { return owned.view(); }
  // A record holding copies of the objects `objects` points to.
  static std::shared_ptr<const RecordedEvent> Copy(const framework::ClusterEvent& event,
                                                   const framework::EventObjects& objects);
};

class InFlightEvents {
 public:
  bool empty() const { return pods_.empty(); }
  bool Contains(const std::string& uid) const { return pods_.contains(uid); }
  int num_pods() const { return static_cast<int>(pods_.size()); }
  // Events kept for in-flight pods.
  int num_events() const { return num_events_; }

  // The pod is popped: events from now on are its to replay.
  void Begin(framework::PodInfoPtr pod);
  // Keeps `event` for every pod in flight now.
  void Record(std::shared_ptr<const RecordedEvent> event);
  // The pod's attempt is over; no-op for a pod not in flight.
  void Done(const std::string& uid);
  // Forgets every pod and event (the queue is closing).
  void Clear();

  // The in-flight pod with this uid, or null.
  framework::PodInfoPtr Pod(const std::string& uid) const;
  // The in-flight pods, in the order they were popped.
  std::vector<framework::PodInfoPtr> PodsInOrder() const;

  // Calls fn(event) for each event recorded since the pod was popped, in
  // order, until fn returns false. Returns false when the pod is not in flight.
  template <typename Fn>
  bool ForEachEventAfter(const std::string& uid, Fn&& fn) const {
    auto it = pods_.find(uid);
    if (it == pods_.end()) return false;
    for (auto item = std::next(it->second.marker); item != items_.end(); ++item) {
      if (item->event == nullptr) continue;  // another pod's marker
      if (!fn(*item->event)) break;
    }
    return true;
  }

 private:
  // One element of the list: a pod's marker (set when it was popped) or an
  // event.
  struct Item {
    std::string pod_uid;                         // a marker when non-empty
    std::shared_ptr<const RecordedEvent> event;  // an event otherwise
  };
  struct InFlightPod {
    framework::PodInfoPtr pod;
    std::list<Item>::iterator marker;
  };

  absl::flat_hash_map<std::string, InFlightPod> pods_;
  std::list<Item> items_;
  int num_events_ = 0;
};

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_LIB_SCHEDULER_IN_FLIGHT_EVENTS_H_
