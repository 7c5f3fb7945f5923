// VolumeBinding: checks that a pod's PersistentVolumeClaims are bound or can
// be bound on a node, binds them before the pod (upstream
// pkg/scheduler/framework/plugins/volumebinding, v1.35).
//
//   auto plugin = NewVolumeBinding(framework::PluginArgs(R"({"bindTimeoutSeconds": 600})"), handle);
//
// PreFilter reads the pod's claims (persistentVolumeClaim volumes and the
// `<pod>-<volume>` claims of generic ephemeral volumes) through the Handle's
// ClusterClient, with upstream's UnschedulableAndUnresolvable texts for a
// missing claim ("waiting for ephemeral volume controller to create the
// persistentvolumeclaim ..." for an ephemeral one), a lost one, one being
// deleted, and an ephemeral claim the pod does not own. A claim is bound
// when it names its volume and carries pv.kubernetes.io/bind-completed; an
// unbound claim whose class is not WaitForFirstConsumer makes the pod
// UnschedulableAndUnresolvable "pod has unbound immediate
// PersistentVolumeClaims". No claims: Skip.
//
// Filter checks each bound claim's PersistentVolume against the node: its
// node affinity ("node(s) didn't match PersistentVolume's node affinity") or
// its absence ("node(s) unavailable due to one or more pvc(s) bound to
// non-existent pv(s)"), both UnschedulableAndUnresolvable.
//
// Not yet here (issue 27, next step): claims of a WaitForFirstConsumer class
// still unbound, which upstream binds to a matching PersistentVolume or
// provisions on the chosen node. PreFilter fails such a pod with an Error
// that says so, so it waits in the queue rather than being placed wrongly.
// In-tree PersistentVolumes are not translated to CSI topology (upstream
// does so only on nodes whose CSINode lists the plugin as migrated).
//
// The StorageCapacityScoring gate is off by default in v1.35, so there is no
// scorer: PreScore always returns Skip and Score returns 0. Reserve marks the
// pod's volumes all bound; PreBind then has nothing to do.
//
// Extension points as upstream: PreFilter, Filter, PreScore, Score, Reserve,
// PreBind, EnqueueExtensions (StorageClass, PersistentVolumeClaim,
// PersistentVolume, Node, CSINode, CSIDriver and CSIStorageCapacity events
// with upstream's hints), plus PreBindPreFlight.
//
// Thread-safety: Filter and Score only read the cycle state.
#ifndef SCHEDKIT_LIB_PLUGINS_VOLUMEBINDING_VOLUME_BINDING_H_
#define SCHEDKIT_LIB_PLUGINS_VOLUMEBINDING_VOLUME_BINDING_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "schedkit/api/selector.h"
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
  VolumeBinding(const VolumeBindingArgs& args, framework::Handle& handle)
      : bind_timeout_(absl::Seconds(args.bind_timeout_seconds)), handle_(handle) {}

  std::string_view Name() const override;

  PreFilterPlugin::Result PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                                    std::span<const framework::NodeInfo* const> nodes) override;
  // Error "not found" without PreFilter state; the bound claims' volumes
  // checked against the node otherwise.
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
  framework::Handle& handle_;
};

// The per-cycle state, under the key "VolumeBinding" (upstream's stateKey).
struct VolumeBindingState : framework::StateData {
  // The volumes of the pod's bound claims, in the pod's order: the node
  // affinity each requires (absent: any node), or missing.
  struct BoundVolume {
    bool missing = false;
    std::optional<api::NodeSelector> node_affinity;
  };
  std::vector<BoundVolume> bound;
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
