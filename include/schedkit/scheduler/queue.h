// SchedulingQueue: upstream v1.37's PriorityQueue — activeQ ordered by the
// profile's QueueSort plugin, backoffQ with per-pod exponential backoff, the
// unschedulable pool (flushed after a timeout), PreEnqueue gating, requeueing
// on cluster events filtered by each plugin's registered events and queueing
// hints (including events that arrive while a pod is being scheduled), and
// the nominator (pods nominated to nodes by preemption).
//
//   SchedulingQueue q(options);
//   q.Add(pod_info);                         // PreEnqueue, then activeQ or gated
//   std::optional<QueuedPodInfo> next = q.Pop();
//   ... scheduling fails ...
//   q.AddUnschedulableIfNotPresent(std::move(*next));
//   q.OnClusterEvent({EventResource::Node(), kActionAdd, "NodeAdd"}, EventObjects::Added(node));
//
// Time comes only from options.clock: FlushBackoffQCompleted and
// FlushUnschedulablePodsLeftover run from the scheduler's timers (every 1 s
// and 30 s upstream), or directly from tests with a FakeClock.
// Thread-safe: every method may be called from any thread. PreEnqueue
// plugins and queueing hints run under the queue's lock, so they must not
// call back into the queue.
#ifndef SCHEDKIT_SCHEDULER_QUEUE_H_
#define SCHEDKIT_SCHEDULER_QUEUE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "schedkit/api/v1/node.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/framework/clock.h"
#include "schedkit/framework/events.h"
#include "schedkit/framework/framework.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/metrics.h"
#include "schedkit/framework/queued_pod_info.h"

namespace schedkit::scheduler {

struct QueueOptions {
  framework::Clock* clock = nullptr;  // required
  // The QueueSort plugin shared by all profiles; required.
  const framework::QueueSortPlugin* less = nullptr;
  // The framework of a pod's profile (by spec.schedulerName), or nullptr when
  // no profile serves it; supplies PreEnqueue plugins and enqueue events.
  std::function<framework::Framework*(const framework::PodInfo&)> framework_for_pod;
  absl::Duration pod_initial_backoff = absl::Seconds(1);
  absl::Duration pod_max_backoff = absl::Seconds(10);
  absl::Duration pod_max_in_unschedulable_pods = absl::Minutes(5);
  framework::MetricsRecorder* metrics = nullptr;  // optional
};

// An event's objects held by shared owners (e.g. PodInfo::pod_ptr()): the
// object before and after the change, of the event's kind.
struct SharedEventObjects {
  // The event's kind; null for an event without objects.
  const api::Kind* kind = nullptr;
  api::AnyObject old_object = nullptr;
  api::AnyObject new_object = nullptr;
  // Pod events, in place of old_object / new_object: the queue makes their
  // pods only when a waiting or in-flight pod may care, as a copy for the
  // event, so the queue never makes an assumed pod (PodInfo::WithNodeName)
  // keep a second one.
  framework::PodInfoPtr old_pod_info = nullptr;
  framework::PodInfoPtr new_pod_info = nullptr;

  template <typename T>
  static SharedEventObjects Of(std::shared_ptr<const T> old_object, std::shared_ptr<const T> new_object) {
    return SharedEventObjects{.kind = &api::KindOf<T>(),
                              .old_object = std::move(old_object),
                              .new_object = std::move(new_object)};
  }
  static SharedEventObjects OfPodInfos(framework::PodInfoPtr old_pod, framework::PodInfoPtr new_pod) {
    return SharedEventObjects{.kind = &api::KindOf<api::v1::Pod>(),
                              .old_pod_info = std::move(old_pod),
                              .new_pod_info = std::move(new_pod)};
  }

  framework::EventObjects view() const {
    if (kind == nullptr) return framework::EventObjects();
    return framework::EventObjects(*kind, ObjectOf(old_object, old_pod_info), ObjectOf(new_object, new_pod_info));
  }

 private:
  static const google::protobuf::Message* ObjectOf(const api::AnyObject& object, const framework::PodInfoPtr& info) {
    if (object != nullptr) return object.get();
    return info != nullptr ? &info->pod() : nullptr;
  }
};

class SchedulingQueue : public framework::PodNominator, public framework::PodActivator {
 public:
  explicit SchedulingQueue(QueueOptions options);
  ~SchedulingQueue() override;

  // A new pending pod: PreEnqueue, then activeQ, or the unschedulable pool
  // marked gated (with the gating plugin) when a PreEnqueue plugin rejects it.
  void Add(framework::PodInfoPtr pod);
  // An update of a pending pod wherever it is (in flight, active, backoff,
  // unschedulable, gated); re-runs PreEnqueue for gated pods and may move an
  // unschedulable pod when the update could make it schedulable.
  void Update(const framework::PodInfoPtr& old_pod, framework::PodInfoPtr new_pod);
  void Delete(const framework::PodInfo& pod);

  // The next pod to schedule, highest first. When activeQ is empty it takes
  // backoffQ's head even before its backoff ends (upstream's
  // SchedulerPopFromBackoffQ, on in v1.37), but never a pod whose last
  // attempt ended in an error; nullopt when there is none or after Close().
  // The pod is then "in flight" until Done(uid).
  std::optional<framework::QueuedPodInfo> Pop();
  // Blocks until a pod is available, `deadline` passes or Close() is called.
  std::optional<framework::QueuedPodInfo> PopWait(absl::Time deadline);
  void Done(const std::string& uid);

  // The failure path: a pod whose attempt failed comes back. Events that
  // arrived while it was in flight and could make it schedulable (per its
  // rejector plugins' hints) send it to backoffQ/activeQ right away;
  // otherwise it waits in the unschedulable pool. A pod with no rejector
  // plugins (an error) goes to backoffQ. Counts the failure
  // (unschedulable_count or consecutive_errors), stamps timestamp and
  // last_failure, and ends the pod's in-flight state (calls Done).
  void AddUnschedulableIfNotPresent(framework::QueuedPodInfo info);

  // A cluster event: pods in the unschedulable pool whose rejector plugins
  // registered for it (and whose hints say Queue) move to backoffQ/activeQ,
  // Pending-plugin pods without backoff. Gated pods re-run PreEnqueue when
  // their gating plugin registered for it.
  // `pre_check`, when set, limits the candidates (upstream's PreEnqueueCheck).
  void OnClusterEvent(const framework::ClusterEvent& event, const framework::EventObjects& objects,
                      const std::function<bool(const framework::PodInfo&)>& pre_check = nullptr);
  // The same, for a caller that shares ownership of the event's objects: the
  // queue keeps them for in-flight pods instead of copying them.
  void OnClusterEventShared(const framework::ClusterEvent& event, const SharedEventObjects& objects,
                            const std::function<bool(const framework::PodInfo&)>& pre_check = nullptr);
  // Moves the named pods (by uid) from unschedulable/backoff to activeQ.
  void Activate(const std::vector<std::string>& uids) override;

  // Moves pods whose backoff has expired to activeQ (upstream: every 1 s).
  void FlushBackoffQCompleted();
  // Moves pods that stayed longer than pod_max_in_unschedulable_pods out of
  // the unschedulable pool (upstream: every 30 s).
  void FlushUnschedulablePodsLeftover();
  // The earliest time at which FlushBackoffQCompleted would move a backoffQ
  // pod, or InfiniteFuture when backoffQ is empty. Expiries are aligned to
  // upstream's 1 s ordering window and a pod stays backing off during its
  // expiry's window, so this is the earliest expiry plus 1 s.
  absl::Time NextBackoffExpiry() const;
  // Backoff duration for a pod with this history (upstream calculateBackoffDuration).
  absl::Duration BackoffDuration(const framework::QueuedPodInfo& info) const;

  struct Counts {
    int active = 0;
    int backoff = 0;
    int unschedulable = 0;  // excludes gated
    int gated = 0;
    int in_flight = 0;
    // Cluster events recorded while pods were in flight, kept until no pod
    // popped before them is still in flight.
    int in_flight_events = 0;
  };
  Counts counts() const;
  // Every pending pod known to the queue (any sub-queue or in flight).
  std::vector<framework::PodInfoPtr> PendingPods() const;

  // Wakes PopWait callers; later Pops return nullopt.
  void Close();

  // --- For tests and debugging (upstream's GetPod, PodsInActiveQ, ...) ---
  enum class SubQueue : uint8_t { kActive, kBackoff, kUnschedulable, kGated, kInFlight };
  // Where the pod with this uid is; nullopt when the queue does not hold it.
  std::optional<SubQueue> Locate(const std::string& uid) const;
  // A copy of a held pod's bookkeeping; nullopt for unknown and in-flight pods.
  std::optional<framework::QueuedPodInfo> GetPod(const std::string& uid) const;
  // The pods of one sub-queue. kActive is in pop order; kBackoff lists the
  // unschedulable-backoff heap in order, then the error-backoff heap in order.
  std::vector<framework::PodInfoPtr> PodsIn(SubQueue q) const;

  // --- PodNominator ---
  // Pods nominated to `node`, each in its latest version the queue holds.
  std::vector<framework::PodInfoPtr> NominatedPodsForNode(Symbol node) const override;
  bool HasNominatedPods() const override;
  // All of the above at once; rebuilt only after a nomination, or the queue's
  // copy of a nominated pod, changed.
  std::shared_ptr<const framework::NominatedPodsSnapshot> Snapshot() const override;
  // Nominates `pod` to `node` (upstream ModeOverride), replacing an earlier
  // nomination; an empty `node` re-reads the pod's status.nominatedNodeName
  // (upstream ModeNoop), which may be empty and then only clears. A pod
  // already bound (spec.nodeName set) is not nominated.
  void AddNominatedPod(framework::PodInfoPtr pod, Symbol node) override;
  void DeleteNominatedPodIfExists(const framework::PodInfo& pod) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_SCHEDULER_QUEUE_H_
