// NodeVolumeLimits (upstream's CSILimits): rejects nodes where the pod's CSI
// volumes would exceed the per-driver attach limits the node's CSINode
// reports (upstream pkg/scheduler/framework/plugins/nodevolumelimits, v1.37).
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
// claim name an Error, an ephemeral claim the pod does not own an Error.
//
// Before counting (VolumeLimitScaling, beta and on since v1.37), each driver
// of the pod's volumes on the node whose CSIDriver sets
// preventPodSchedulingIfMissing must be listed in the node's CSINode, or the
// node fails Unschedulable "<driver> CSI driver is not installed on the node"
// (drivers checked by name; upstream's order is its map's). A driver without
// a CSIDriver object, or one that does not ask, is taken as installed. With
// the gate off no driver is checked.
//
// CSI migration, as upstream decides it per node (v1.37): on a node
// with a CSINode, in-tree GCE PD and AWS EBS disks — inline in the pod or as
// the source of a bound PersistentVolume — count as the pd.csi.storage.gke.io
// and ebs.csi.aws.com volumes csi-translation-lib makes of them (a PV's GCE
// handle is zonal, regional or unspecified by its zone labels); a claim whose
// class's provisioner is kubernetes.io/gce-pd, aws-ebs, azure-disk or cinder
// counts for that plugin's CSI driver, and so does kubernetes.io/portworx-volume
// for pxd.portworx.com (v1.35 required the CSINode's migrated-plugins
// annotation to list it). Elsewhere none of these count, and neither do claims of
// kubernetes.io/azure-file or vsphere-volume classes (migration never on) nor
// PVs of other in-tree sources (rbd, iscsi). A PV that does not translate (an
// EBS ID that is no "vol-" one, GCE zones naming no single region) is not
// counted; an inline EBS disk that does not translate is an Error on nodes
// with a CSINode. VolumeAttachment/Delete queues a pod whose inline disk
// migrates to the attachment's driver.
//
// Not modelled: in-tree sources schedkit's API lacks (Azure Disk, Cinder,
// Portworx, Azure File, vSphere inline or as PVs); VolumeAttachments of
// in-tree PVs, which upstream does not count either (their PV has no CSI
// source); an aws:// EBS ID whose host is in brackets is not checked to be
// a valid IPv6 address, as Go's net/url would.
//
// Cost: PreFilter resolves the pod's own volumes once, split by the nodes
// they count on, so Filter for a pod with nothing to count returns at once.
// Otherwise Filter looks the node's CSINode up and, only when it has limits,
// resolves the volumes of the node's pods (claim and volume lookups), as
// upstream does per node.
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
#include "schedkit/api/v1/csi_driver.h"
#include "schedkit/api/v1/csi_node.h"
#include "schedkit/api/v1/persistent_volume.h"
#include "schedkit/api/v1/persistent_volume_claim.h"
#include "schedkit/api/v1/storage_class.h"
#include "schedkit/api/v1/volume_attachment.h"
#include "schedkit/framework/events.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

class NodeVolumeLimits final : public framework::PreFilterPlugin,
                               public framework::FilterPlugin,
                               public framework::EnqueueExtensions,
                               public framework::SignPlugin {
 public:
  // Upstream's ErrReasonMaxVolumeCountExceeded.
  static constexpr std::string_view kErrReasonMaxVolumeCountExceeded = "node(s) exceed max volume count";

  // `require_installed`: VolumeLimitScaling, which the factory reads from
  // the profile's feature gates.
  explicit NodeVolumeLimits(framework::Handle& handle, bool require_installed = true)
      : handle_(handle), require_installed_(require_installed) {}

  std::string_view Name() const override;
  // Adds the fields of the pod its filtering and scoring read (upstream's SignPod).
  framework::Status SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const override;
  // Skip unless the pod has a claim or an in-tree disk volume; then records
  // the pod's own volumes (or the error resolving them).
  PreFilterPlugin::Result PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                                    std::span<const framework::NodeInfo* const> nodes) override;
  framework::Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

  // Pod/Delete hint: QueueSkip when the deleted pod (event.Old<api::v1::Pod>()) had no
  // volumes or was neither bound nor nominated; Queue when it had a claim
  // (or an ephemeral volume); QueueSkip otherwise.
  static absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodDeleted(
      const framework::PodInfo& pod, const framework::EventObjects& event);

  // VolumeAttachment/Delete hint: Queue when the pod has a
  // persistentVolumeClaim volume or an inline disk that migrates to the
  // deleted attachment's (event.Old<api::v1::VolumeAttachment>()) driver; an inline EBS disk
  // that does not translate is an error (which queues).
  static absl::StatusOr<framework::QueueingHint> IsSchedulableAfterVolumeAttachmentDeleted(
      const framework::PodInfo& pod, const framework::EventObjects& event);

  // Attachable volumes: unique name ("<driver>/<handle>") → driver.
  using Volumes = absl::flat_hash_map<std::string, std::string>;
  // A pod's attachable volumes, by the nodes they count on: what upstream's
  // filterAttachableVolumes gives on each kind of node. Limits come only from
  // a CSINode, so volumes migrated only where one exists count like CSI ones.
  struct PodVolumes {
    // CSI volumes and claims of CSI provisioners: on every node.
    Volumes volumes;
    // In-tree disks and claims of in-tree provisioners, migrated to their CSI
    // drivers: only on nodes with a CSINode.
    Volumes migrated;
    // The first error on every node (scanning stops there), and the first
    // inline disk that fails to translate before it, which only nodes with a
    // CSINode see.
    framework::Status error;
    framework::Status migration_error;
    // The drivers of `volumes` and of `migrated` whose CSIDriver sets
    // preventPodSchedulingIfMissing, each once, by name (RequireInstalled).
    std::vector<std::string> required, required_migrated;

    bool Empty() const { return volumes.empty() && migrated.empty(); }
    const framework::Status& ErrorOn(bool has_csi_node) const {
      return has_csi_node && !migration_error.IsSuccess() ? migration_error : error;
    }
  };
  // Adds `pod`'s volumes to `out`, recording the errors there. A new pod's
  // claims must resolve; an existing pod's unresolvable ones are skipped.
  void AttachableVolumes(const api::v1::Pod& pod, bool new_pod, PodVolumes& out) const;
  // Fills `own.required` and `own.required_migrated` from the CSIDrivers;
  // nothing with VolumeLimitScaling off.
  void RequireInstalled(PodVolumes& own) const;

 private:
  framework::Handle& handle_;
  bool require_installed_;
};

// NodeVolumeLimits has no args type upstream; pluginConfig args are ignored.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeVolumeLimits(const framework::PluginArgs& args,
                                                                       framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_NODEVOLUMELIMITS_CSI_H_
