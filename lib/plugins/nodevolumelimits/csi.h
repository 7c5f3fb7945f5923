// NodeVolumeLimits (upstream's CSILimits): rejects nodes where the pod's CSI
// volumes would exceed the per-driver attach limits the node's CSINode
// reports (upstream pkg/scheduler/framework/plugins/nodevolumelimits, v1.35).
//
//   auto plugin = NewNodeVolumeLimits(framework::PluginArgs(), handle);
//
// A volume counts for a driver when its claim is bound to a CSI
// PersistentVolume (driver and volume handle), or when the claim is unbound
// (or its volume missing) and its StorageClass names a provisioner: then the
// claim itself stands for a volume of that driver. On each node Filter counts
// the distinct volumes of the node's pods and those its VolumeAttachments
// hold, adds the pod's new ones, and fails Unschedulable "node(s) exceed max
// volume count" when a driver's CSINode allocatable count would be passed.
// A node without a CSINode or without counts has no limits. The pod's own
// claims must exist: a missing one is UnschedulableAndUnresolvable `looking up
// PVC <ns>/<claim>: persistentvolumeclaim "<claim>" not found`, an empty
// claim name an Error, an ephemeral claim the pod does not own
// UnschedulableAndUnresolvable.
//
// On a node with a CSINode, upstream migrates in-tree disks to CSI: inline
// GCE PD and AWS EBS volumes count as pd.csi.storage.gke.io and
// ebs.csi.aws.com volumes. Not yet here (issue 27, next step): in-tree
// PersistentVolumes and classes with an in-tree provisioner, migrated alike.
// The VolumeLimitScaling gate is off in v1.35, so no CSIDriver check runs.
//
// Cost: PreFilter resolves the pod's own volumes once; Filter looks the
// node's CSINode up and, only when it has limits for one of the pod's
// drivers, resolves the volumes of the node's pods (claim and volume
// lookups), as upstream does per node.
//
// Extension points as upstream: PreFilter, Filter, EnqueueExtensions:
// CSINode/Add, CSINode/Update, Pod/Delete, PersistentVolumeClaim/Add and
// VolumeAttachment/Delete with upstream's hints.
#ifndef SCHEDKIT_LIB_PLUGINS_NODEVOLUMELIMITS_CSI_H_
#define SCHEDKIT_LIB_PLUGINS_NODEVOLUMELIMITS_CSI_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
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
  // Upstream's ErrReasonMaxVolumeCountExceeded.
  static constexpr std::string_view kErrReasonMaxVolumeCountExceeded = "node(s) exceed max volume count";

  explicit NodeVolumeLimits(framework::Handle& handle) : handle_(handle) {}

  std::string_view Name() const override;
  // Skip unless the pod has a claim or an in-tree disk volume; then records
  // the pod's own volumes (or the error resolving them).
  PreFilterPlugin::Result PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                                    std::span<const framework::NodeInfo* const> nodes) override;
  framework::Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

  // Pod/Delete hint: QueueSkip when the deleted pod (event.old_pod) had no
  // volumes or was neither bound nor nominated; Queue when it had a claim
  // (or an ephemeral volume); QueueSkip otherwise.
  static absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodDeleted(
      const framework::PodInfo& pod, const framework::EventObjects& event);

  // A pod's attachable volumes: unique name ("<driver>/<handle>") → driver.
  using Volumes = absl::flat_hash_map<std::string, std::string>;
  // Upstream's filterAttachableVolumes: a new pod's claims must resolve
  // (errors are returned); an existing pod's unresolvable ones are skipped.
  // Inline GCE PD and AWS EBS disks go to `inline_out` (when given) as the
  // CSI volumes they migrate to.
  framework::Status AttachableVolumes(const api::v1::Pod& pod, bool new_pod, Volumes& out,
                                      Volumes* inline_out) const;

 private:
  framework::Handle& handle_;
};

// NodeVolumeLimits has no args type upstream; pluginConfig args are ignored.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeVolumeLimits(const framework::PluginArgs& args,
                                                                       framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_NODEVOLUMELIMITS_CSI_H_
