// PodTopologySpread: upstream's plugin of the same name (v1.37). It keeps
// pods matching a constraint's selector spread over topology domains (the
// values of a node label such as zone or hostname):
//   - Filter, for whenUnsatisfiable DoNotSchedule constraints: a node fails
//     when placing the pod there would make its domain exceed the global
//     minimum by more than maxSkew;
//   - Score, for ScheduleAnyway constraints: nodes in domains with fewer
//     matching pods score higher.
// A pod without constraints of its own gets the args' default constraints
// (the "System" defaults hostname/3 and zone/5 unless defaultingType is
// List), with a selector derived from the Services, ReplicationControllers,
// ReplicaSets and StatefulSets that own the pod.
//
//   auto plugin = NewPodTopologySpread(framework::PluginArgs(R"({"defaultingType":"List"})"), handle);
//
// Per-pod work (constraints, per-domain counts over all nodes) happens once
// in PreFilter/PreScore and is kept in CycleState. The per-domain counts
// themselves are kept across cycles per query (domain_counts.h), so a cycle
// recounts only the nodes that changed since the query was last asked. Per node, Filter is a
// label lookup and a hash lookup per constraint; Score the same, plus (as
// upstream) a pass over the node's pods for a hostname constraint. Neither
// allocates.
// Thread-safety: Filter and Score may run concurrently; the other methods
// are called sequentially, as the framework does.
#ifndef SCHEDKIT_LIB_PLUGINS_PODTOPOLOGYSPREAD_POD_TOPOLOGY_SPREAD_H_
#define SCHEDKIT_LIB_PLUGINS_PODTOPOLOGYSPREAD_POD_TOPOLOGY_SPREAD_H_

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "schedkit/api/selector.h"
#include "schedkit/base/symbol.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

namespace podtopologyspread_internal {
class DomainCountsCache;
}  // namespace podtopologyspread_internal

// PodTopologySpreadArgs after v1 defaulting and validation.
struct PodTopologySpreadArgs {
  // Constraints for pods that have none; labelSelector is never set here.
  std::vector<framework::SpreadConstraint> default_constraints;
  // defaultingType "System" (the default): the built-in hostname/zone
  // constraints replace `default_constraints`, which must then be empty.
  bool system_defaulting = true;
};

// Parses and validates pluginConfig args: fields defaultConstraints and
// defaultingType, upstream's defaults and validation; errors name the field.
absl::StatusOr<PodTopologySpreadArgs> ParsePodTopologySpreadArgs(const framework::PluginArgs& args);
// The args as written, defaulted (framework::DefaultedArgs): the plugin's
// ArgsDefaulter in the in-tree registry.
absl::StatusOr<std::string> DefaultedPodTopologySpreadArgs(const framework::PluginArgs& args);

// What upstream reads from feature gates and informers. The defaults are
// v1.37's: NodeInclusionPolicyInPodTopologySpread is GA (locked on) and
// MatchLabelKeysInPodTopologySpread is beta and on by default.
struct PodTopologySpreadOptions {
  bool enable_node_inclusion_policy = true;
  bool enable_match_label_keys = true;
  // The selector upstream's helper.DefaultSelector derives from the pod's
  // Services, ReplicationControllers, ReplicaSets and StatefulSets.
  // NewPodTopologySpread reads them through the Handle's ClusterClient
  // (internal/default_selector.h); unset, the selector is empty, what
  // upstream returns when its listers hold nothing, and default constraints
  // then never apply. Tests set it to reproduce upstream cases.
  std::function<api::LabelSelector(const framework::PodInfo& pod)> default_selector;
  // Keep per-domain counts across cycles and recount only changed nodes
  // (domain_counts.h). Off recounts every node every cycle, as upstream;
  // the results are the same, which tests check.
  bool keep_counts_across_cycles = true;
};

class PodTopologySpread final : public framework::PreFilterPlugin,
                                public framework::FilterPlugin,
                                public framework::PreFilterExtensions,
                                public framework::PreScorePlugin,
                                public framework::ScorePlugin,
                                public framework::ScoreExtensions,
                                public framework::EnqueueExtensions,
                                public framework::SignPlugin {
 public:
  // One constraint as the plugin applies it to one pod (upstream's
  // topologySpreadConstraint): selector merged with matchLabelKeys, policies
  // resolved to their defaults.
  struct Constraint {
    int32_t max_skew = 1;
    Symbol topology_key;
    api::LabelSelector selector;
    int32_t min_domains = 1;
    bool honor_node_affinity = true;  // nodeAffinityPolicy, default Honor
    bool honor_node_taints = false;   // nodeTaintsPolicy, default Ignore
    // Upstream counts no existing pods for a selector without requirements
    // ({} matches everything, yet countPodsMatchSelector returns 0 for it).
    bool counts_pods = false;
    bool is_hostname = false;  // topology_key is kubernetes.io/hostname
    bool is_zone = false;      // topology_key is topology.kubernetes.io/zone
    // Whether the incoming pod matches `selector` (Filter's self-match).
    bool pod_matches = false;
  };

  // Upstream's criticalPaths: the two domains with the fewest matching pods,
  // [0] always the minimum; [1] is not guaranteed to be the second minimum
  // after AddPod/RemovePod, exactly as upstream.
  struct CriticalPath {
    Symbol topology_value;
    int64_t match_num = std::numeric_limits<int32_t>::max();
  };
  struct CriticalPaths {
    std::array<CriticalPath, 2> paths;
    void Update(Symbol topology_value, int64_t match_num);
  };

  // Written by PreFilter, read by Filter, edited by AddPod/RemovePod.
  class PreFilterState : public framework::StateData {
   public:
    std::unique_ptr<framework::StateData> Clone() const override;
    // The global minimum for constraint `i`, 0 while fewer than minDomains
    // domains are eligible.
    int64_t MinMatchNum(size_t i) const;
    // Whether a node whose constraint-i topology value is `value` keeps the
    // skew within maxSkew.
    bool WithinMaxSkew(size_t i, Symbol value) const;

    // Shared between clones: never changes after PreFilter.
    std::shared_ptr<const std::vector<Constraint>> constraints;
    // Indexed by constraint.
    std::vector<CriticalPaths> critical_paths;
    std::vector<absl::flat_hash_map<Symbol, int64_t>> tp_value_to_match_num;
  };

  // Written by PreScore, read by Score and NormalizeScore; immutable.
  class PreScoreState : public framework::StateData {
   public:
    struct Data {
      std::vector<Constraint> constraints;
      // Candidate nodes missing one of the topology keys: scored 0.
      absl::flat_hash_set<Symbol> ignored_nodes;
      // Indexed by constraint; empty for hostname constraints, which Score
      // counts on the node itself.
      std::vector<absl::flat_hash_map<Symbol, int64_t>> topology_value_to_pod_counts;
      std::vector<double> topology_normalizing_weight;
    };
    explicit PreScoreState(std::shared_ptr<const Data> data) : data_(std::move(data)) {}
    std::unique_ptr<framework::StateData> Clone() const override;
    const Data& data() const { return *data_; }

   private:
    std::shared_ptr<const Data> data_;
  };

  static Symbol PreFilterStateKey();
  static Symbol PreScoreStateKey();

  PodTopologySpread(PodTopologySpreadArgs args, PodTopologySpreadOptions options, framework::Handle& handle);
  ~PodTopologySpread() override;

  std::string_view Name() const override;
  // Adds the fields of the pod its filtering and scoring read (upstream's SignPod).
  framework::Status SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const override;

  Result PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                   std::span<const framework::NodeInfo* const> nodes) override;
  const framework::PreFilterExtensions* GetPreFilterExtensions() const override { return this; }
  framework::Status AddPod(framework::CycleState& state, const framework::PodInfo& pod_to_schedule,
                           const framework::PodInfo& pod_to_add,
                           const framework::NodeInfo& node) const override;
  framework::Status RemovePod(framework::CycleState& state, const framework::PodInfo& pod_to_schedule,
                              const framework::PodInfo& pod_to_remove,
                              const framework::NodeInfo& node) const override;
  framework::Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override;
  // Filter's outcomes, with the state read once per run and each topology
  // value's verdict worked out once per run (nodes share a few zones).
  void FilterNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                   std::span<const framework::NodeInfo* const> nodes, std::span<uint8_t> passing,
                   std::span<framework::Status> statuses) const override;

  framework::Status PreScore(framework::CycleState& state, const framework::PodInfo& pod,
                             std::span<const framework::NodeInfo* const> nodes) override;
  framework::Status Score(const framework::CycleState& state, const framework::PodInfo& pod,
                          const framework::NodeInfo& node, int64_t& score) const override;
  const framework::ScoreExtensions* GetScoreExtensions() const override { return this; }
  framework::Status NormalizeScore(const framework::CycleState& state, const framework::PodInfo& pod,
                                   std::span<const framework::NodeInfo* const> nodes,
                                   std::span<int64_t> scores) const override;

  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

  // Queueing hints (public for tests). An assigned pod added, relabelled or
  // deleted (AssignedPod events); the pending pod's own label or toleration
  // update (TargetPod events).
  absl::StatusOr<framework::QueueingHint> IsSchedulableAfterAssignedPodChange(const framework::PodInfo& pod,
                                                                              const api::v1::Pod* old_pod,
                                                                              const api::v1::Pod* new_pod) const;
  absl::StatusOr<framework::QueueingHint> IsSchedulableAfterTargetPodChange(const framework::PodInfo& pod,
                                                                            const api::v1::Pod& old_pod,
                                                                            const api::v1::Pod& new_pod) const;
  // For tables written against one pod hint: the target's hint for an update
  // of the pod itself (same uid), the assigned pods' hint otherwise.
  absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodChange(const framework::PodInfo& pod,
                                                                      const api::v1::Pod* old_pod,
                                                                      const api::v1::Pod* new_pod) const;
  absl::StatusOr<framework::QueueingHint> IsSchedulableAfterNodeChange(const framework::PodInfo& pod,
                                                                       const api::v1::Node* old_node,
                                                                       const api::v1::Node* new_node) const;

  // The constraints of `pod` with the given whenUnsatisfiable (its own, or
  // the defaults when it has none), upstream's getConstraints and
  // initPreScoreState's selection.
  std::vector<Constraint> GetConstraints(const framework::PodInfo& pod, bool do_not_schedule) const;

 private:
  std::vector<Constraint> FilterConstraints(const std::vector<framework::SpreadConstraint>& constraints,
                                            const api::LabelSet& pod_labels, bool do_not_schedule) const;
  std::vector<Constraint> BuildDefaultConstraints(const framework::PodInfo& pod, bool do_not_schedule) const;
  framework::Status UpdateWithPod(framework::CycleState& state, const framework::PodInfo& updated_pod,
                                  const framework::PodInfo& preemptor, const framework::NodeInfo& node,
                                  int64_t delta) const;
  // Whether the per-domain counts for `pod` over all nodes may come from
  // domain_counts_: which nodes count must not depend on the pod itself.
  bool CanUseDomainCounts(const framework::PodInfo& pod, const std::vector<Constraint>& constraints) const;

  framework::Handle& handle_;
  std::unique_ptr<podtopologyspread_internal::DomainCountsCache> domain_counts_;
  PodTopologySpreadOptions options_;
  std::vector<framework::SpreadConstraint> default_constraints_;
  bool system_defaulted_ = false;
};

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewPodTopologySpread(const framework::PluginArgs& args,
                                                                        framework::Handle& handle);
// As NewPodTopologySpread, with feature switches and the default-selector
// source set explicitly (tests, and hosts that know pod owners).
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewPodTopologySpreadWithOptions(
    const framework::PluginArgs& args, framework::Handle& handle, PodTopologySpreadOptions options);

namespace podtopologyspread_internal {

// Go's math.Log on amd64, bit for bit (glibc's log differs in the last bit
// for some integers, which could flip a rounded score).
double GoLog(double x);
// Upstream's topologyNormalizingWeight: ln(size + 2).
double TopologyNormalizingWeight(int64_t size);

}  // namespace podtopologyspread_internal

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_PODTOPOLOGYSPREAD_POD_TOPOLOGY_SPREAD_H_
