// VolumeZone: rejects nodes whose zone/region labels do not match the
// topology labels of the PersistentVolumes bound to the pod's claims
// (upstream pkg/scheduler/framework/plugins/volumezone, v1.35).
//
//   auto plugin = NewVolumeZone(framework::PluginArgs(), handle);
//
// Model limits: schedkit's cluster has no PersistentVolumeClaims,
// PersistentVolumes or StorageClasses. So, exactly as upstream with empty
// informers:
//  - a pod without PVC volumes: PreFilter returns Skip; Filter (which the
//    framework then does not call) succeeds;
//  - a pod with PVC volumes: PreFilter returns UnschedulableAndUnresolvable
//    for the first one — "PersistentVolumeClaim had no name" for an empty
//    claim name, else `persistentvolumeclaim "<claim>" not found`. Filter
//    without PreFilter state recomputes the same verdict, as upstream.
// With no PersistentVolumes there are never topology constraints, so the
// PreFilter state upstream writes (only when some bound PV has topology
// labels) never exists here.
//
// Extension points as upstream: PreFilter, Filter, EnqueueExtensions:
// Node/Add|UpdateNodeLabel. Upstream's StorageClass/Add,
// PersistentVolumeClaim/Add|Update and PersistentVolume/Add|Update events
// have no EventResource in schedkit and are not registered.
//
// Stateless; Filter may run concurrently.
#ifndef SCHEDKIT_LIB_PLUGINS_VOLUMEZONE_VOLUME_ZONE_H_
#define SCHEDKIT_LIB_PLUGINS_VOLUMEZONE_VOLUME_ZONE_H_

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

class VolumeZone final : public framework::PreFilterPlugin,
                         public framework::FilterPlugin,
                         public framework::EnqueueExtensions {
 public:
  // Upstream's ErrReasonConflict (unreachable without PersistentVolumes).
  static constexpr std::string_view kErrReasonConflict = "node(s) had no available volume zone";

  std::string_view Name() const override;
  PreFilterPlugin::Result PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                                    std::span<const framework::NodeInfo* const> nodes) override;
  framework::Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;
};

// VolumeZone has no args type upstream; pluginConfig args are ignored.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewVolumeZone(const framework::PluginArgs& args,
                                                                 framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_VOLUMEZONE_VOLUME_ZONE_H_
