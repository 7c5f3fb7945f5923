// NodeVolumeLimits (upstream's CSILimits): rejects nodes where the pod's CSI
// volumes would exceed the per-driver attach limits the node's CSINode
// reports (upstream pkg/scheduler/framework/plugins/nodevolumelimits, v1.35).
//
//   auto plugin = NewNodeVolumeLimits(framework::PluginArgs(), handle);
//
// Model limits: schedkit's cluster has no CSINodes, PersistentVolumeClaims,
// PersistentVolumes, StorageClasses, VolumeAttachments or CSIDrivers, and its
// Pod carries only volumes[].persistentVolumeClaim (no generic ephemeral or
// in-tree migratable volumes). So, exactly as upstream with empty informers:
//  - a pod without PVC volumes: PreFilter returns Skip;
//  - a pod with PVC volumes: PreFilter succeeds and Filter, on every node,
//    fails the first PVC volume's lookup: UnschedulableAndUnresolvable
//    `looking up PVC <ns>/<claim>: persistentvolumeclaim "<claim>" not found`,
//    or Error "PersistentVolumeClaim had no name" for an empty claim name.
// That verdict depends only on the pod, so PreFilter computes it once and
// Filter returns a copy (no per-node allocation); without PreFilter state,
// Filter computes it itself (upstream's Filter reads no state).
// The VolumeLimitScaling gate is off in v1.35, so no CSIDriver check runs.
//
// Extension points as upstream: PreFilter, Filter, EnqueueExtensions:
// Pod/Delete with IsSchedulableAfterPodDeleted. Upstream's CSINode/Add,
// CSINode/Update, PersistentVolumeClaim/Add and VolumeAttachment/Delete
// events have no EventResource in schedkit and are not registered.
//
// Thread-safety: Filter only reads the cycle state.
#ifndef SCHEDKIT_LIB_PLUGINS_NODEVOLUMELIMITS_CSI_H_
#define SCHEDKIT_LIB_PLUGINS_NODEVOLUMELIMITS_CSI_H_

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/framework/events.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

class NodeVolumeLimits final : public framework::PreFilterPlugin,
                               public framework::FilterPlugin,
                               public framework::EnqueueExtensions {
 public:
  // Upstream's ErrReasonMaxVolumeCountExceeded (unreachable without CSINode
  // limits; kept for reference).
  static constexpr std::string_view kErrReasonMaxVolumeCountExceeded = "node(s) exceed max volume count";

  std::string_view Name() const override;
  // Skip unless the pod has a PVC volume; then records the Filter verdict.
  PreFilterPlugin::Result PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                                    std::span<const framework::NodeInfo* const> nodes) override;
  framework::Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

  // Pod/Delete hint: QueueSkip when the deleted pod (event.old_pod) had no
  // volumes or was neither bound nor nominated; Queue when it had a PVC
  // volume; QueueSkip otherwise.
  static absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodDeleted(
      const framework::PodInfo& pod, const framework::EventObjects& event);

  // Upstream Filter's verdict for `pod` on any node of this model.
  static framework::Status FilterVerdict(const framework::PodInfo& pod);
};

// NodeVolumeLimits has no args type upstream; pluginConfig args are ignored.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeVolumeLimits(const framework::PluginArgs& args,
                                                                       framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_NODEVOLUMELIMITS_CSI_H_
