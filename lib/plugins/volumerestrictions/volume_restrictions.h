// VolumeRestrictions: rejects nodes where the pod's volumes would conflict
// with volumes already mounted there (GCE PD, AWS EBS, iSCSI, Ceph RBD) and
// pods whose ReadWriteOncePod PersistentVolumeClaims are already in use
// (upstream pkg/scheduler/framework/plugins/volumerestrictions, v1.37).
//
//   auto plugin = NewVolumeRestrictions(framework::PluginArgs(), handle);
//
// PreFilter looks every PVC volume's claim up through the Handle's
// ClusterClient (a missing claim: UnschedulableAndUnresolvable
// `persistentvolumeclaim "<claim>" not found`), keeps the names of those
// with the ReadWriteOncePod access mode and counts how many of them pods on
// any node use; it returns Skip when the pod has no disk volume and no such
// claim is in use. AddPod/RemovePod keep the count as preemption adds and
// removes pods. Filter: Unschedulable "node(s) had no available disk" on a
// disk conflict with a pod on the node, Unschedulable ReadWriteOncePod
// conflict when the count is positive.
//
// Extension points as upstream: PreFilter (with AddPod/RemovePod
// extensions), Filter, EnqueueExtensions: Pod/Delete, Node/Add and
// PersistentVolumeClaim/Add, with upstream's hints.
//
// Thread-safety: Filter only reads the cycle state and the node.
#ifndef SCHEDKIT_LIB_PLUGINS_VOLUMERESTRICTIONS_VOLUME_RESTRICTIONS_H_
#define SCHEDKIT_LIB_PLUGINS_VOLUMERESTRICTIONS_VOLUME_RESTRICTIONS_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "schedkit/api/v1/persistent_volume_claim.h"
#include "schedkit/framework/events.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

class VolumeRestrictions final : public framework::PreFilterPlugin,
                                 public framework::PreFilterExtensions,
                                 public framework::FilterPlugin,
                                 public framework::EnqueueExtensions,
                                 public framework::SignPlugin {
 public:
  // Upstream's ErrReasonDiskConflict and ErrReasonReadWriteOncePodConflict.
  static constexpr std::string_view kErrReasonDiskConflict = "node(s) had no available disk";
  static constexpr std::string_view kErrReasonReadWriteOncePodConflict =
      "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by "
      "another pod";

  std::string_view Name() const override;
  // Adds the fields of the pod its filtering and scoring read (upstream's SignPod).
  framework::Status SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const override;

  PreFilterPlugin::Result PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                                    std::span<const framework::NodeInfo* const> nodes) override;
  const framework::PreFilterExtensions* GetPreFilterExtensions() const override { return this; }
  framework::Status AddPod(framework::CycleState& state, const framework::PodInfo& pod_to_schedule,
                           const framework::PodInfo& pod_to_add,
                           const framework::NodeInfo& node) const override;
  framework::Status RemovePod(framework::CycleState& state, const framework::PodInfo& pod_to_schedule,
                              const framework::PodInfo& pod_to_remove,
                              const framework::NodeInfo& node) const override;
  // Unschedulable (ReadWriteOncePod conflict) when the PreFilter state counts
  // a scheduled pod using one of the pod's ReadWriteOncePod claims; an error
  // without PreFilter state.
  framework::Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

  // Pod/Delete hint: Queue when the deleted pod (event.Old<api::v1::Pod>()), in the same
  // namespace, had a disk the pod conflicts with or used one of the pod's
  // PVCs; QueueSkip otherwise.
  static absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodDeleted(
      const framework::PodInfo& pod, const framework::EventObjects& event);
  // PersistentVolumeClaim/Add hint: Queue when the new claim is one the pod
  // names, in its namespace.
  static absl::StatusOr<framework::QueueingHint> IsSchedulableAfterClaimAdded(
      const framework::PodInfo& pod, const framework::EventObjects& event);

  explicit VolumeRestrictions(framework::Handle& handle) : handle_(handle) {}

 private:
  framework::Handle& handle_;
};

// Whether `volume` (a disk source) conflicts with one of `existing`'s
// volumes: the same GCE PD or iSCSI IQN unless both are read-only, the same
// AWS EBS volume, or the same RBD pool and image with a shared monitor
// unless both are read-only (upstream's isVolumeConflict).
bool DiskConflicts(const api::v1::Volume& volume, const api::v1::Pod& existing);

// The PreFilter state, under "PreFilterVolumeRestrictions".
struct VolumeRestrictionsState : framework::StateData {
  // Names of the pod's claims with the ReadWriteOncePod access mode.
  absl::flat_hash_set<std::string> read_write_once_pod_pvcs;
  // Whether the pod has a disk volume to compare with the node's pods.
  bool check_disks = false;
  // How many scheduled pods reference those claims.
  int conflicting_pvc_ref_count = 0;

  // Number of `pod`'s PVC volumes naming one of the ReadWriteOncePod claims.
  int ConflictingRefsOf(const framework::PodInfo& pod) const;
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<VolumeRestrictionsState>(*this);
  }
};

// VolumeRestrictions has no args type upstream; pluginConfig args are ignored.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewVolumeRestrictions(const framework::PluginArgs& args,
                                                                         framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_VOLUMERESTRICTIONS_VOLUME_RESTRICTIONS_H_
