// InterPodAffinity: upstream v1.37's pod affinity and anti-affinity plugin.
// Filter: the incoming pod's required affinity and anti-affinity terms, and
// the required anti-affinity terms of pods already running. Score: preferred
// terms of both sides, plus existing pods' required affinity terms weighted
// by hardPodAffinityWeight.
//
//   auto plugin = NewInterPodAffinity(framework::PluginArgs(R"({"hardPodAffinityWeight": 5})"), handle);
//
// All matching of pods against terms happens once per cycle, in PreFilter and
// PreScore, and ends up as counts per (topology key, value) pair, keyed by the
// two interned ids packed into 64 bits. Filter and Score per node are then a
// few label look-ups and hash probes; they neither allocate nor lock. The
// counts are kept across cycles per query (hit_sums.h): a cycle re-matches
// only the pods of nodes that changed since the query was last asked.
//
// Differences of mechanism, not of result: upstream unrolls an incoming term's
// namespaceSelector into its namespace set by listing namespaces; here the
// selector is evaluated against the snapshot's namespace labels for each
// candidate pod's namespace (an unknown namespace never matches), which
// selects the same pods.
//
// Thread-safety: Filter and Score may run concurrently; every other method is
// called sequentially by the framework.
#ifndef SCHEDKIT_LIB_PLUGINS_INTERPODAFFINITY_INTER_POD_AFFINITY_H_
#define SCHEDKIT_LIB_PLUGINS_INTERPODAFFINITY_INTER_POD_AFFINITY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "schedkit/api/selector.h"
#include "schedkit/base/symbol.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/events.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/registry.h"
#include "schedkit/framework/status.h"

namespace schedkit::plugins {

// InterPodAffinityArgs (kubescheduler.config.k8s.io/v1), defaulted.
struct InterPodAffinityArgs {
  // hardPodAffinityWeight: score weight of an existing pod's required affinity
  // term that the incoming pod satisfies. Default 1, valid [0, 100].
  int32_t hard_pod_affinity_weight = 1;
  // ignorePreferredTermsOfExistingPods: skip scoring when the incoming pod has
  // no preferred terms of its own. Default false.
  bool ignore_preferred_terms_of_existing_pods = false;
};

// The args' declaration: upstream's fields, v1 defaults and validation.
const framework::ArgsSpec<InterPodAffinityArgs>& InterPodAffinityArgsSpec();
// Decodes, defaults and validates the args; errors name the field.
absl::StatusOr<InterPodAffinityArgs> ParseInterPodAffinityArgs(const framework::PluginArgs& args);

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewInterPodAffinity(const framework::PluginArgs& args,
                                                                       framework::Handle& handle);

namespace interpodaffinity {

// A number per (topology key, value) pair, as upstream's
// topologyToMatchedTermCount. Probing is one hash look-up on the packed ids.
// Copies share the table until one of them changes it (copy on write), so a
// cycle's state can take the counts a cache keeps across cycles for free.
class TopologyCounts {
 public:
  static uint64_t Pack(Symbol key, Symbol value) {
    return (static_cast<uint64_t>(key.id()) << 32) | value.id();
  }

  int64_t Get(Symbol key, Symbol value) const {
    if (table_ == nullptr || !table_->MayHold(value)) return 0;
    auto it = table_->counts.find(Pack(key, value));
    return it == table_->counts.end() ? 0 : it->second.count;
  }
  // Adds `delta`, keeping the entry even when the sum is zero.
  void Add(Symbol key, Symbol value, int64_t delta);
  // Adds `delta` and drops the entry when the sum reaches zero (what the
  // PreFilter extensions do when pods come and go).
  void Update(Symbol key, Symbol value, int64_t delta);

  bool empty() const { return size() == 0; }
  size_t size() const { return table_ == nullptr ? 0 : table_->counts.size(); }
  // Every topology key that ever had an entry (a superset of the current
  // keys), so Filter can probe by key instead of walking all node labels.
  const absl::InlinedVector<Symbol, 4>& keys() const;

  // The counts by (key text, value text); for tests and debugging.
  std::map<std::pair<std::string, std::string>, int64_t> ToMap() const;
  // Same pairs with the same counts (keys() is not compared).
  friend bool operator==(const TopologyCounts& a, const TopologyCounts& b);

 private:
  struct Entry {
    Symbol key;
    Symbol value;
    int64_t count = 0;
  };
  struct Table {
    absl::flat_hash_map<uint64_t, Entry> counts;
    absl::InlinedVector<Symbol, 4> keys;
    // A bit per topology value (by symbol id) that ever had an entry. Filter
    // asks about every node, and most nodes' values have none: the bit
    // answers that without hashing.
    std::vector<uint64_t> values;

    bool MayHold(Symbol value) const {
      const size_t word = value.id() / 64;
      return word < values.size() && ((values[word] >> (value.id() % 64)) & 1) != 0;
    }
  };
  // The table, unshared: copied first if another TopologyCounts holds it.
  Table& Mutable();

  std::shared_ptr<Table> table_;
};

// What PreFilter computes for Filter; AddPod/RemovePod edit a clone of it.
struct PreFilterState final : framework::StateData {
  // Existing pods whose required anti-affinity terms select the incoming pod,
  // counted at the topology of their node.
  TopologyCounts existing_anti_affinity;
  // Existing pods that match all of the incoming pod's required affinity
  // terms, counted once per term at the term's topology of their node.
  TopologyCounts affinity;
  // Existing pods matched by the incoming pod's required anti-affinity terms.
  TopologyCounts anti_affinity;
  // The incoming pod matches all of its own required affinity terms (the
  // first pod of a group that wants to be together may go anywhere).
  bool matches_own_affinity = false;
  // Labels of the incoming pod's namespace (empty if the namespace is unknown).
  api::LabelSet namespace_labels;

  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
  // Its counts share tables with the plugin's caches (hit_sums.h).
  bool SchedulingCycleOnly() const override { return true; }
};

// What PreScore computes for Score and NormalizeScore: a score per
// (topology key, value), shared read-only between clones.
struct ScoreTable {
  absl::flat_hash_map<uint64_t, int64_t> scores;  // TopologyCounts::Pack(key, value) → sum of weights
  absl::InlinedVector<Symbol, 4> keys;            // distinct topology keys in `scores`
};

struct PreScoreState final : framework::StateData {
  std::shared_ptr<const ScoreTable> table;

  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
};

}  // namespace interpodaffinity

class InterPodAffinity final : public framework::PreFilterPlugin,
                               public framework::FilterPlugin,
                               public framework::PreFilterExtensions,
                               public framework::PreScorePlugin,
                               public framework::ScorePlugin,
                               public framework::ScoreExtensions,
                               public framework::EnqueueExtensions,
                               public framework::SignPlugin {
 public:
  InterPodAffinity(InterPodAffinityArgs args, framework::Handle& handle);
  ~InterPodAffinity() override;

  std::string_view Name() const override;
  // Adds the fields of the pod its filtering and scoring read (upstream's SignPod).
  framework::Status SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const override;
  const InterPodAffinityArgs& args() const { return args_; }

  // Filter side (filtering.cc).
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
  // Filter's outcomes, with the state read once per run.
  void FilterNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                   std::span<const framework::NodeInfo* const> nodes, std::span<uint8_t> passing,
                   std::span<framework::Status> statuses) const override;

  // Score side (scoring.cc).
  framework::Status PreScore(framework::CycleState& state, const framework::PodInfo& pod,
                             std::span<const framework::NodeInfo* const> nodes) override;
  framework::Status Score(const framework::CycleState& state, const framework::PodInfo& pod,
                          const framework::NodeInfo& node, int64_t& score) const override;
  const framework::ScoreExtensions* GetScoreExtensions() const override { return this; }
  framework::Status NormalizeScore(const framework::CycleState& state, const framework::PodInfo& pod,
                                   std::span<const framework::NodeInfo* const> nodes,
                                   std::span<int64_t> scores) const override;

  // Queueing (inter_pod_affinity.cc).
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;
  // The hints, as upstream's isSchedulableAfterPodChange / ...NodeChange.
  static absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodChange(
      const framework::PodInfo& pod, const framework::EventObjects& event);
  static absl::StatusOr<framework::QueueingHint> IsSchedulableAfterNodeChange(
      const framework::PodInfo& pod, const framework::EventObjects& event);

  // Existing pods on `nodes` matching the incoming pod's required affinity
  // terms (first) and anti-affinity terms (second); upstream's
  // getIncomingAffinityAntiAffinityCounts. Exposed for tests.
  std::pair<interpodaffinity::TopologyCounts, interpodaffinity::TopologyCounts> IncomingAffinityCounts(
      const framework::PodInfo& pod, std::span<const framework::NodeInfo* const> nodes) const;

 private:
  void UpdateWithPod(interpodaffinity::PreFilterState& state, const framework::PodInfo& pod_to_schedule,
                     const framework::PodInfo& pod, const framework::NodeInfo& node,
                     int64_t multiplier) const;

  // Per-node results kept across cycles (hit_sums.h).
  struct Caches;

  InterPodAffinityArgs args_;
  framework::Handle& handle_;
  std::unique_ptr<Caches> caches_;
};

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_INTERPODAFFINITY_INTER_POD_AFFINITY_H_
