// VolumeBinding: checks that a pod's PersistentVolumeClaims are bound or can
// be bound on a node, binds them before the pod (upstream
// pkg/scheduler/framework/plugins/volumebinding, v1.35).
//
//   auto plugin = NewVolumeBinding(framework::PluginArgs(R"({"bindTimeoutSeconds": 600})"), handle);
//
// Model limits: schedkit's cluster has no PersistentVolumeClaims,
// PersistentVolumes, StorageClasses, CSINodes, CSIDrivers or
// CSIStorageCapacities, and its Pod carries only
// volumes[].persistentVolumeClaim (no generic ephemeral volumes). The plugin
// therefore behaves exactly as upstream does with empty informers:
//  - a pod without PVC volumes: PreFilter records an empty state and returns
//    Skip (so Filter does not run); Reserve marks the pod's volumes all
//    bound; PreBind does nothing;
//  - a pod with a PVC volume: PreFilter returns UnschedulableAndUnresolvable
//    `persistentvolumeclaim "<claim>" not found` for the first one (the PVC
//    lister's NotFound text).
// The StorageCapacityScoring gate is off by default in v1.35, so there is no
// scorer: PreScore always returns Skip and Score returns 0.
//
// Extension points as upstream: PreFilter, Filter, PreScore, Score, Reserve,
// PreBind, EnqueueExtensions (plus PreBindPreFlight, a method here because
// schedkit has no such interface yet). Of the registered events only
// Node/Add|UpdateNodeLabel exists in schedkit's event model; upstream's
// StorageClass, PersistentVolumeClaim, PersistentVolume, CSINode, CSIDriver
// and CSIStorageCapacity events have no EventResource and are not registered
// (no such events can occur here).
//
// Thread-safety: Filter and Score only read the cycle state.
#ifndef SCHEDKIT_LIB_PLUGINS_VOLUMEBINDING_VOLUME_BINDING_H_
#define SCHEDKIT_LIB_PLUGINS_VOLUMEBINDING_VOLUME_BINDING_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

// VolumeBindingArgs (v1): bindTimeoutSeconds (default 600, >= 0) and shape,
// which must be absent while StorageCapacityScoring is off (its v1.35
// default).
struct VolumeBindingArgs {
  int64_t bind_timeout_seconds = 600;
};

absl::StatusOr<VolumeBindingArgs> ParseVolumeBindingArgs(const framework::PluginArgs& args);

class VolumeBinding final : public framework::PreFilterPlugin,
                            public framework::FilterPlugin,
                            public framework::PreScorePlugin,
                            public framework::ScorePlugin,
                            public framework::ReservePlugin,
                            public framework::PreBindPlugin,
                            public framework::EnqueueExtensions {
 public:
  explicit VolumeBinding(const VolumeBindingArgs& args)
      : bind_timeout_(absl::Seconds(args.bind_timeout_seconds)) {}

  std::string_view Name() const override;

  PreFilterPlugin::Result PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                                    std::span<const framework::NodeInfo* const> nodes) override;
  // Error "not found" without PreFilter state; Success otherwise (the state
  // never holds claims here).
  framework::Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override;
  // Always Skip: no scorer without StorageCapacityScoring.
  framework::Status PreScore(framework::CycleState& state, const framework::PodInfo& pod,
                             std::span<const framework::NodeInfo* const> nodes) override;
  framework::Status Score(const framework::CycleState& state, const framework::PodInfo& pod,
                          const framework::NodeInfo& node, int64_t& score) const override;
  framework::Status Reserve(framework::CycleState& state, const framework::PodInfo& pod,
                            Symbol node) override;
  void Unreserve(framework::CycleState& state, const framework::PodInfo& pod, Symbol node) override;
  framework::Status PreBind(framework::CycleState& state, const framework::PodInfo& pod,
                            Symbol node) override;
  // Upstream's PreBindPreFlight: Skip when Reserve found every volume bound,
  // an error when the state is missing or has no volumes for `node`.
  framework::Status PreBindPreFlight(const framework::CycleState& state, const framework::PodInfo& pod,
                                     Symbol node) const;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

  absl::Duration bind_timeout() const { return bind_timeout_; }

 private:
  absl::Duration bind_timeout_;
};

// The per-cycle state, under the key "VolumeBinding" (upstream's stateKey).
// Upstream also keeps the pod's claims and the volumes found per node; with
// no PVC objects those are always empty, so only `all_bound` remains.
struct VolumeBindingState : framework::StateData {
  // Set by Reserve: no volume of the pod needs binding on the chosen node.
  bool all_bound = false;
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<VolumeBindingState>(*this);
  }
};

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewVolumeBinding(const framework::PluginArgs& args,
                                                                    framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_VOLUMEBINDING_VOLUME_BINDING_H_
