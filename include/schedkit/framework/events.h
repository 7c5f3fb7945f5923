// Cluster events and queueing hints: how a plugin tells the scheduling queue
// which changes may make a pod it rejected schedulable (EnqueueExtensions).
//
//   ClusterEventWithHint{{EventResource::Node(), kActionAdd | kActionUpdateNodeLabel},
//                        [](const PodInfo& pod, const EventObjects& e) {
//                          const api::v1::Node* node = e.New<api::v1::Node>();   // null unless a Node event
//                          return QueueingHint::kQueue;
//                        }}
//
// Semantics follow upstream v1.37: an event matches a registration when the
// resources match (Pod() covers assigned and unscheduled pods, Wildcard()
// everything) and the action bit sets intersect. A missing hint means Queue.
// A kind's events name the resource its traits give (EventResource::Of<T>()),
// so a plugin registers for an out-of-tree kind as for a built-in one; as
// upstream, the scheduler raises a kind's events only when some plugin of
// its profiles registers for that kind.
#ifndef SCHEDKIT_FRAMEWORK_EVENTS_H_
#define SCHEDKIT_FRAMEWORK_EVENTS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/statusor.h"
#include "google/protobuf/message.h"
#include "schedkit/api/kind.h"
#include "schedkit/base/symbol.h"

namespace schedkit::framework {

class PodInfo;

// The resource of a cluster event, by upstream's name for it ("Node",
// "PersistentVolume", "storage.k8s.io/CSINode", ...). Compared as an
// interned id. Thread-safe; the named ones are made once and kept.
class EventResource {
 public:
  // The wildcard: every resource.
  constexpr EventResource() = default;
  static EventResource Wildcard() { return EventResource(); }
  // Registrations: any pod (AssignedPod, UnscheduledPod and TargetPod).
  static EventResource Pod() {
    static const EventResource resource = Named("Pod");
    return resource;
  }
  // Events and registrations: a pod bound to a node; one not yet bound; and
  // (v1.37) the pending pod itself, whose own update a plugin judges without
  // asking whose it is. The queue sends a pending pod's updates as TargetPod
  // events, so a plugin that registers TargetPod sees them as they reach the
  // pod itself, or any pod waiting in flight when they happened (as
  // upstream's shared in-flight list replays them).
  static EventResource AssignedPod() {
    static const EventResource resource = Named("AssignedPod");
    return resource;
  }
  static EventResource UnscheduledPod() {
    static const EventResource resource = Named("UnschedulablePod");
    return resource;
  }
  static EventResource TargetPod() {
    static const EventResource resource = Named("TargetPod");
    return resource;
  }
  static EventResource Node() {
    static const EventResource resource = Named("Node");
    return resource;
  }
  // The resource of `kind`'s events (Kind::event_resource()).
  static EventResource Of(const api::Kind& kind) { return Named(kind.event_resource()); }
  template <typename T>
  static EventResource Of() {
    static const EventResource resource = Of(api::KindOf<T>());
    return resource;
  }
  // Interns `name`: keep the result rather than asking per event.
  static EventResource Named(std::string_view name) { return EventResource(Symbol::Intern(name)); }

  bool IsWildcard() const { return name_.empty(); }
  std::string_view name() const { return IsWildcard() ? std::string_view("*") : name_.str(); }
  friend bool operator==(EventResource a, EventResource b) { return a.name_ == b.name_; }
  template <typename H>
  friend H AbslHashValue(H h, EventResource r) {
    return H::combine(std::move(h), r.name_);
  }

 private:
  explicit EventResource(Symbol name) : name_(name) {}
  Symbol name_;  // empty: the wildcard
};

using ActionType = uint32_t;
inline constexpr ActionType kActionAdd = 1u << 0;
inline constexpr ActionType kActionDelete = 1u << 1;
inline constexpr ActionType kActionUpdateNodeAllocatable = 1u << 2;
inline constexpr ActionType kActionUpdateNodeLabel = 1u << 3;
inline constexpr ActionType kActionUpdateNodeTaint = 1u << 4;
inline constexpr ActionType kActionUpdateNodeCondition = 1u << 5;
inline constexpr ActionType kActionUpdateNodeAnnotation = 1u << 6;
inline constexpr ActionType kActionUpdatePodLabel = 1u << 7;
inline constexpr ActionType kActionUpdatePodScaleDown = 1u << 8;
inline constexpr ActionType kActionUpdatePodToleration = 1u << 9;
inline constexpr ActionType kActionUpdatePodSchedulingGatesEliminated = 1u << 10;
inline constexpr ActionType kActionUpdatePodGeneratedResourceClaim = 1u << 11;
inline constexpr ActionType kActionUpdateNodeDeclaredFeature = 1u << 12;
inline constexpr ActionType kActionUpdatePodScaleUp = 1u << 13;
inline constexpr ActionType kActionUpdate = ((1u << 14) - 1) & ~(kActionAdd | kActionDelete);
inline constexpr ActionType kActionAll = (1u << 14) - 1;

struct ClusterEvent {
  EventResource resource;
  ActionType action = kActionAll;
  // For logs and metrics ("NodeAdd", "AssignedPodDelete", "UnschedulableTimeout").
  std::string label;

  bool IsWildcard() const { return resource.IsWildcard() && action == kActionAll; }
  // Whether this registration matches an incoming event.
  bool Matches(const ClusterEvent& incoming) const;
};

// The objects an event carries: the object before the change (null on an
// add) and after it (null on a delete), of the event's kind. Read them with
// the kind's type: Old<T>()/New<T>() are null when the event is of another
// kind. Valid for the duration of the hint call.
class EventObjects {
 public:
  EventObjects() = default;
  EventObjects(const api::Kind& kind, const google::protobuf::Message* old_object,
               const google::protobuf::Message* new_object)
      : kind_(&kind), old_(old_object), new_(new_object) {}
  template <typename T>
  static EventObjects Of(const T* old_object, const T* new_object) {
    return EventObjects(api::KindOf<T>(), old_object, new_object);
  }
  template <typename T>
  static EventObjects Added(const T& object) {
    return Of<T>(nullptr, &object);
  }
  template <typename T>
  static EventObjects Updated(const T& old_object, const T& new_object) {
    return Of<T>(&old_object, &new_object);
  }
  template <typename T>
  static EventObjects Deleted(const T& object) {
    return Of<T>(&object, nullptr);
  }

  // Sets the object before (after) the change, making the event one of T's
  // kind; an object of another kind set before is dropped.
  template <typename T>
  EventObjects& SetOld(const T* object) {
    Become(api::KindOf<T>());
    old_ = object;
    return *this;
  }
  template <typename T>
  EventObjects& SetNew(const T* object) {
    Become(api::KindOf<T>());
    new_ = object;
    return *this;
  }

  // The event's kind; null for an event without objects (a wildcard move).
  const api::Kind* kind() const { return kind_; }
  template <typename T>
  bool Is() const {
    return kind_ == &api::KindOf<T>();
  }
  template <typename T>
  const T* Old() const {
    return Is<T>() ? static_cast<const T*>(old_) : nullptr;
  }
  template <typename T>
  const T* New() const {
    return Is<T>() ? static_cast<const T*>(new_) : nullptr;
  }
  const google::protobuf::Message* old_object() const { return old_; }
  const google::protobuf::Message* new_object() const { return new_; }

 private:
  void Become(const api::Kind& kind) {
    if (kind_ != &kind) old_ = new_ = nullptr;
    kind_ = &kind;
  }

  const api::Kind* kind_ = nullptr;
  const google::protobuf::Message* old_ = nullptr;
  const google::protobuf::Message* new_ = nullptr;
};

enum class QueueingHint : uint8_t { kSkip, kQueue };

// Decides whether `pod`, rejected by the registering plugin, may now fit. An
// error counts as Queue. Called from the queue, never concurrently for one pod.
using QueueingHintFn = std::function<absl::StatusOr<QueueingHint>(const PodInfo& pod, const EventObjects& event)>;

struct ClusterEventWithHint {
  ClusterEvent event;
  QueueingHintFn hint;  // empty: always Queue
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_EVENTS_H_
