// VolumeBinding: checks that a pod's PersistentVolumeClaims are bound or can
// be bound on a node, binds them before the pod (upstream
// pkg/scheduler/framework/plugins/volumebinding, v1.37).
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
// Unbound claims of a WaitForFirstConsumer class are bound on the node the
// pod goes to, as upstream: PreFilter prepares them (pod_volumes.h), Filter
// runs upstream's FindPodVolumes per node (existing volumes matched by
// class, size, access modes, selector and node affinity; dynamic
// provisioning checked against allowedTopologies and CSIStorageCapacity),
// Reserve assumes the chosen volumes so that later pods see them taken
// (assume_cache.h), and PreBind writes them through the host
// (Host::UpdatePersistentVolume / UpdatePersistentVolumeClaim) and waits up
// to bindTimeoutSeconds for the claims to be bound (bind_volumes.h).
// Unreserve drops the assumptions.
//
// Differences from upstream: in-tree PersistentVolumes are not translated
// to CSI topology (upstream does so only on nodes whose CSINode lists the
// plugin as migrated); PreBind's wait checks the node labels Reserve saw and
// does not stop early when the pod is deleted; Reserve recomputes the chosen
// node's volumes from PreFilter's inputs instead of keeping every node's
// from Filter, which stays read-only.
//
// Score (StorageCapacityScoring, beta and on since v1.36; the args' shape
// defaults to [{0 10} {100 0}]): on a node where some claims bind to existing
// volumes, their requests against those volumes' capacities, per class of
// the volume; otherwise the claims to provision against the capacity of the
// CSIStorageCapacity that admitted them, per class of the claim. Each class
// scores shape(requested * 100 / capacity) (shape(100) when over or without
// capacity), scaled to 0..100; the node scores their rounded mean, 0 with no
// class. With the gate off there is no scorer: PreScore Skips, Score is 0.
// With the gate on PreScore never skips: pods without claims score 0.
//
// Extension points as upstream: PreFilter, Filter, PreScore, Score, Reserve,
// PreBind, EnqueueExtensions (StorageClass, PersistentVolumeClaim,
// PersistentVolume, Node, CSINode, CSIDriver and CSIStorageCapacity events
// with upstream's hints), plus PreBindPreFlight.
//
// Thread-safety: Filter and Score only read the cycle state; the assumed
// volumes are shared by every cycle, under their own lock.
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
#include "plugins/internal/broken_linear.h"
#include "plugins/volumebinding/assume_cache.h"
#include "plugins/volumebinding/pod_volumes.h"
#include "schedkit/api/selector.h"
#include "schedkit/api/v1/csi_driver.h"
#include "schedkit/api/v1/csi_node.h"
#include "schedkit/api/v1/csi_storage_capacity.h"
#include "schedkit/api/v1/persistent_volume.h"
#include "schedkit/api/v1/persistent_volume_claim.h"
#include "schedkit/api/v1/storage_class.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

// A point of VolumeBinding's capacity scoring: at `utilization` percent of
// a node's storage capacity, `score` (0..10).
struct UtilizationShapePoint {
  int32_t utilization = 0;
  int32_t score = 0;
};

// VolumeBindingArgs (v1): bindTimeoutSeconds (default 600, >= 0) and shape.
// The shape depends on StorageCapacityScoring (on by default since v1.36):
// off, a shape given is refused; on, it defaults to [{0 10} {100 0}] and is
// validated.
struct VolumeBindingArgs {
  int64_t bind_timeout_seconds = 600;
  std::optional<std::vector<UtilizationShapePoint>> shape;
};

// The args' declaration: upstream's fields, v1 defaults and validation.
const framework::ArgsSpec<VolumeBindingArgs>& VolumeBindingArgsSpec();
absl::StatusOr<VolumeBindingArgs> ParseVolumeBindingArgs(const framework::PluginArgs& args);

class VolumeBinding final : public framework::PreFilterPlugin,
                            public framework::FilterPlugin,
                            public framework::PreScorePlugin,
                            public framework::ScorePlugin,
                            public framework::ReservePlugin,
                            public framework::PreBindPlugin,
                            public framework::EnqueueExtensions,
                            public framework::SignPlugin {
 public:
  VolumeBinding(const VolumeBindingArgs& args, framework::Handle& handle);

  std::string_view Name() const override;
  // Adds the fields of the pod its filtering and scoring read (upstream's SignPod).
  framework::Status SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const override;

  PreFilterPlugin::Result PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                                    std::span<const framework::NodeInfo* const> nodes) override;
  // Error "not found" without PreFilter state; FindPodVolumes otherwise.
  framework::Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override;
  // Skip without a scorer (StorageCapacityScoring off); Error "not found"
  // without PreFilter state; Success otherwise.
  framework::Status PreScore(framework::CycleState& state, const framework::PodInfo& pod,
                             std::span<const framework::NodeInfo* const> nodes) override;
  // The capacity score above; 0 without a scorer or claims.
  framework::Status Score(const framework::CycleState& state, const framework::PodInfo& pod,
                          const framework::NodeInfo& node, int64_t& score) const override;
  // A pod without claims scores 0 on every node whatever the volumes do.
  bool OutcomesArePerNodeFor(const framework::PodInfo& pod) const override;
  // Score over a run; a pod without claims (most pods) gets 0 everywhere
  // from one look at the state.
  framework::Status ScoreNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                               std::span<const framework::NodeInfo* const> nodes,
                               std::span<int64_t> scores) const override;
  framework::Status Reserve(framework::CycleState& state, const framework::PodInfo& pod,
                            Symbol node) override;
  void Unreserve(framework::CycleState& state, const framework::PodInfo& pod, Symbol node) override;
  framework::Status PreBind(framework::CycleState& state, const framework::PodInfo& pod,
                            Symbol node) override;
  // Upstream's PreBindPreFlight: Skip when Reserve found every volume bound,
  // an error when the state is missing or has no volumes for `node`.
  framework::Status PreBindPreFlight(const framework::CycleState& state, const framework::PodInfo& pod,
                                     Symbol node) const override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

  absl::Duration bind_timeout() const { return bind_timeout_; }

 private:
  // One class's score: shape(utilization percent).
  int64_t ClassScore(int64_t requested, int64_t capacity) const;

  absl::Duration bind_timeout_;
  // Set when StorageCapacityScoring is on: the shape, scores scaled to 0..100.
  std::optional<internal::BrokenLinearFunction> scorer_;
  framework::Handle& handle_;
  volumebinding::AssumeCache cache_;
};

// The per-cycle state, under the key "VolumeBinding" (upstream's stateKey).
struct VolumeBindingState : framework::StateData {
  // PreFilter's: the pod's claims as FindPodVolumes needs them; null when
  // the pod has none (PreFilter skipped).
  std::shared_ptr<const volumebinding::PodVolumeClaims> claims;
  // Set by Reserve: no volume of the pod needs binding on the chosen node.
  bool all_bound = false;
  // Set by Reserve otherwise: the node, its labels, and the assumed volumes.
  std::optional<Symbol> reserved_node;
  api::LabelSet node_labels;
  volumebinding::PodVolumes volumes;
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<VolumeBindingState>(*this);
  }
};

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewVolumeBinding(const framework::PluginArgs& args,
                                                                    framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_VOLUMEBINDING_VOLUME_BINDING_H_
