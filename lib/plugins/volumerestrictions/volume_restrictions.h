// VolumeRestrictions: rejects nodes where the pod's volumes would conflict
// with volumes already mounted there (GCE PD, AWS EBS, iSCSI, Ceph RBD) and
// pods whose ReadWriteOncePod PersistentVolumeClaims are already in use
// (upstream pkg/scheduler/framework/plugins/volumerestrictions, v1.35).
//
//   auto plugin = NewVolumeRestrictions(framework::PluginArgs(), handle);
//
// Model limits: schedkit's Pod carries only volumes[].persistentVolumeClaim —
// no in-tree disk volume sources — and the cluster has no
// PersistentVolumeClaim objects. So, exactly as upstream with an empty PVC
// informer:
//  - a pod without PVC volumes: PreFilter returns Skip (nothing to check);
//  - a pod with a PVC volume: PreFilter returns UnschedulableAndUnresolvable
//    `persistentvolumeclaim "<claim>" not found` for the first one.
// The disk-conflict check of Filter never finds a conflict (there are no
// disk volumes), and the ReadWriteOncePod state, when present, is kept and
// updated by AddPod/RemovePod as upstream.
//
// Extension points as upstream: PreFilter (with AddPod/RemovePod
// extensions), Filter, EnqueueExtensions: Pod/Delete with
// IsSchedulableAfterPodDeleted and Node/Add. Upstream's
// PersistentVolumeClaim/Add event has no EventResource in schedkit and is not
// registered.
//
// Thread-safety: Filter only reads the cycle state.
#ifndef SCHEDKIT_LIB_PLUGINS_VOLUMERESTRICTIONS_VOLUME_RESTRICTIONS_H_
#define SCHEDKIT_LIB_PLUGINS_VOLUMERESTRICTIONS_VOLUME_RESTRICTIONS_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "schedkit/framework/events.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

class VolumeRestrictions final : public framework::PreFilterPlugin,
                                 public framework::PreFilterExtensions,
                                 public framework::FilterPlugin,
                                 public framework::EnqueueExtensions {
 public:
  // Upstream's ErrReasonDiskConflict and ErrReasonReadWriteOncePodConflict.
  static constexpr std::string_view kErrReasonDiskConflict = "node(s) had no available disk";
  static constexpr std::string_view kErrReasonReadWriteOncePodConflict =
      "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by "
      "another pod";

  std::string_view Name() const override;

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

  // Pod/Delete hint: Queue when the deleted pod (event.old_pod), in the same
  // namespace, used one of the pod's PVCs; QueueSkip otherwise.
  static absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodDeleted(
      const framework::PodInfo& pod, const framework::EventObjects& event);
};

// The PreFilter state, under "PreFilterVolumeRestrictions".
struct VolumeRestrictionsState : framework::StateData {
  // Names of the pod's claims with the ReadWriteOncePod access mode.
  absl::flat_hash_set<std::string> read_write_once_pod_pvcs;
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
