// Cluster events and queueing hints: how a plugin tells the scheduling queue
// which changes may make a pod it rejected schedulable (EnqueueExtensions).
//
//   ClusterEventWithHint{{EventResource::kNode, kActionAdd | kActionUpdateNodeLabel},
//                        [](const PodInfo& pod, const EventObjects& e) { return QueueingHint::kQueue; }}
//
// Semantics follow upstream v1.35: an event matches a registration when the
// resources match (kPod covers assigned and unscheduled pods, kWildcard
// everything) and the action bit sets intersect. A missing hint means Queue.
#ifndef SCHEDKIT_FRAMEWORK_EVENTS_H_
#define SCHEDKIT_FRAMEWORK_EVENTS_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "schedkit/api/v1/cluster.pb.h"

namespace schedkit::framework {

class PodInfo;

enum class EventResource : uint8_t {
  kWildcard,
  kPod,             // registrations: any pod
  kAssignedPod,     // events: a pod bound to a node
  kUnscheduledPod,  // events: a pod not yet bound
  kNode,
  kPodDisruptionBudget,
  kNamespace,
  kPersistentVolume,
  kPersistentVolumeClaim,
  kStorageClass,
  kCSINode,
  kCSIDriver,
  kCSIStorageCapacity,
  kVolumeAttachment,
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
inline constexpr ActionType kActionUpdate = ((1u << 12) - 1) & ~(kActionAdd | kActionDelete);
inline constexpr ActionType kActionAll = (1u << 12) - 1;

struct ClusterEvent {
  EventResource resource = EventResource::kWildcard;
  ActionType action = kActionAll;
  // For logs and metrics ("NodeAdd", "AssignedPodDelete", "UnschedulableTimeout").
  std::string label;

  bool IsWildcard() const { return resource == EventResource::kWildcard && action == kActionAll; }
  // Whether this registration matches an incoming event.
  bool Matches(const ClusterEvent& incoming) const;
};

// The objects an event carries; unset pointers do not apply to the event.
struct EventObjects {
  const api::v1::Node* old_node = nullptr;
  const api::v1::Node* new_node = nullptr;
  const api::v1::Pod* old_pod = nullptr;
  const api::v1::Pod* new_pod = nullptr;
  // Storage events: the object before (null on add) and after (null on delete).
  const api::v1::PersistentVolume* old_pv = nullptr;
  const api::v1::PersistentVolume* new_pv = nullptr;
  const api::v1::PersistentVolumeClaim* old_pvc = nullptr;
  const api::v1::PersistentVolumeClaim* new_pvc = nullptr;
  const api::v1::StorageClass* old_storage_class = nullptr;
  const api::v1::StorageClass* new_storage_class = nullptr;
  const api::v1::CSINode* old_csi_node = nullptr;
  const api::v1::CSINode* new_csi_node = nullptr;
  const api::v1::CSIDriver* old_csi_driver = nullptr;
  const api::v1::CSIDriver* new_csi_driver = nullptr;
  const api::v1::CSIStorageCapacity* old_capacity = nullptr;
  const api::v1::CSIStorageCapacity* new_capacity = nullptr;
  const api::v1::VolumeAttachment* old_attachment = nullptr;
  const api::v1::VolumeAttachment* new_attachment = nullptr;
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
