// Internal to the framework: a Framework's private state, shared by the files
// that implement it — building a profile (framework_build.cc), running the
// extension points (extension_points.cc, filter_plugins.cc), the waiting pods
// (waiting_pods.cc), the filter pass (filter_pass.cc), the score pass
// (score_pass.cc) and one pod's algorithm (schedule_pod.cc).
//
// Set once by Build, then read: the plugin lists per extension point, their
// names, weights and what each plugin declared. Written by the scheduling
// thread during a cycle only: the memo's cycle entry and the cycle scratch.
#ifndef SCHEDKIT_LIB_FRAMEWORK_FRAMEWORK_IMPL_H_
#define SCHEDKIT_LIB_FRAMEWORK_FRAMEWORK_IMPL_H_

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/time/clock.h"
#include "framework/opportunistic_batch.h"
#include "framework/outcome_memo.h"
#include "framework/score_totals.h"
#include "framework/waiting_pods.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/framework/framework.h"

namespace schedkit::framework {

// Nodes per task in the filter/score fan-out: enough work per task that
// scheduling it costs little next to running the plugins.
inline constexpr int kNodesPerTask = 64;

// Times one extension point for the host's recorder. When the host gave none
// (the no-op recorder) the clock is never read: two reads per point came to
// about 8% of a SchedulingBasic cycle.
class PointTimer {
 public:
  PointTimer(MetricsRecorder* metrics, const MetricsRecorder* noop, ExtensionPoint point,
             std::string_view profile)
      : metrics_(metrics == noop ? nullptr : metrics),
        point_(point),
        profile_(profile),
        start_(metrics_ != nullptr ? absl::Now() : absl::Time()) {}

  void Done(Code status) const {
    if (metrics_ != nullptr) metrics_->ObserveExtensionPoint(point_, status, profile_, absl::Now() - start_);
  }

 private:
  MetricsRecorder* metrics_;
  ExtensionPoint point_;
  std::string_view profile_;
  absl::Time start_;
};

// The plugins of one extension point, in the profile's order, with their names.
template <typename T>
struct PluginList {
  std::vector<T*> plugins;
  std::vector<Symbol> names;
  void Add(T* p) {
    plugins.push_back(p);
    names.push_back(Symbol::Intern(p->Name()));
  }
  size_t size() const { return plugins.size(); }
};

// Derived after PreFilter and kept in the CycleState; valid for the framework
// that derived it while the state's skip set is unchanged.
struct ActiveFilterChain {
  const Framework* owner = nullptr;
  SymbolSet skips;
  absl::InlinedVector<FilterPlugin*, 16> plugins;
  absl::InlinedVector<Symbol, 16> names;
  // Parallel to plugins: the plugin's outcomes are per node (the outcome
  // memo may answer for it).
  absl::InlinedVector<uint8_t, 16> per_node;
  // The per-node plugins as a mask over the framework's filter plugins (0
  // when the framework keeps no memo), and whether every plugin is one.
  uint64_t per_node_mask = 0;
  bool all_per_node = false;
  // Index in plugins of the last per-node plugin (-1 without one): a node
  // rejected after it passed every per-node plugin.
  int last_per_node = -1;
  // HasActivePreFilterExtensions for the same skips: dry runs ask per node.
  bool pre_filter_extensions = false;
};

// The plugins' names sorted, each once, as upstream lists the plugins that
// narrowed the nodes in its messages.
template <typename Symbols>
std::vector<std::string> SortedDistinctNames(const Symbols& plugins) {
  std::vector<std::string> out;
  for (Symbol p : plugins) out.emplace_back(p.str());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

struct Framework::Impl {
  Impl(Framework& framework, FrameworkOptions opts) : self(&framework), options(std::move(opts)) {}

  Framework* const self;
  FrameworkOptions options;
  std::string profile_name;
  std::optional<int32_t> percentage_of_nodes_to_score;
  std::shared_ptr<Parallelizer> parallelizer;
  std::unique_ptr<NoopMetricsRecorder> noop_metrics;
  MetricsRecorder* metrics = nullptr;
  const Snapshot* snapshot = nullptr;
  std::vector<PluginEvents> enqueue_events;

  // ---- the profile, as Build made it
  std::vector<std::unique_ptr<Plugin>> owned;
  std::map<std::string, Plugin*, std::less<>> by_name;
  PluginList<PreEnqueuePlugin> pre_enqueue;
  PluginList<QueueSortPlugin> queue_sort;
  PluginList<PreFilterPlugin> pre_filter;
  // The PreFilter plugins with extensions (a plugin's answer is fixed, as
  // upstream's PreFilterExtensions return a constant), for the per-cycle
  // check of whether any is active.
  std::vector<Symbol> pre_filter_extension_names;
  PluginList<FilterPlugin> filter;
  PluginList<PostFilterPlugin> post_filter;
  PluginList<PreScorePlugin> pre_score;
  PluginList<ScorePlugin> score;
  std::vector<int32_t> score_weights;  // parallel to score.plugins
  // Parallel to filter.plugins and score.plugins: Plugin::OutcomesArePerNode.
  std::vector<uint8_t> filter_per_node, score_per_node;
  // score_per_node for this cycle: also the plugins that promise per-node
  // outcomes for this pod alone (Plugin::OutcomesArePerNodeFor).
  std::vector<uint8_t> cycle_score_per_node;
  // Parallel to score.plugins: whether the plugin has NormalizeScore, and
  // its ScoreExtensions::NormalizesByMaximum.
  std::vector<uint8_t> score_normalizes;
  std::vector<std::optional<MaximumNormalization>> score_by_maximum;
  PluginList<ReservePlugin> reserve;
  PluginList<PermitPlugin> permit;
  PluginList<PreBindPlugin> pre_bind;
  PluginList<BindPlugin> bind;
  PluginList<PostBindPlugin> post_bind;
  absl::flat_hash_map<std::string, int32_t> weight_by_name;

  // ---- the outcome memo
  // Whether SchedulePod consults the memo: it is enabled, some plugin is
  // per node, and the plugin sets fit its 64-bit masks.
  bool memoizes = false;
  OutcomeMemo memo;
  // This cycle's entry, between PreFilter and the end of SchedulePod.
  OutcomeMemo::Entry* cycle_memo = nullptr;

  WaitingPodMap waiting;

  // ---- opportunistic batching (opportunistic_batch.cc)
  // Whether SchedulePod batches: the OpportunisticBatching gate is on and
  // every PreFilter, Filter, PreScore and Score plugin signs pods.
  bool batching = false;
  // Those plugins, each once; the last to decline is asked first next time,
  // so a run of unsignable pods costs one call each.
  std::vector<const SignPlugin*> signers;
  OpportunisticBatch batch;
  // This cycle's ranking of the feasible nodes (with the score pass's raw
  // scores, one row per node), for StoreScheduleResults.
  std::vector<RankedNode> ranking;
  std::vector<int64_t> ranking_raw;
  // By row, what the normalizing columns gave each node's total (empty
  // without raw scores); the row of the node that came off the top.
  std::vector<int64_t> ranking_normalized_part;
  int32_t ranking_top_row = -1;
  // Set by SchedulePod for the score pass: keep the raw scores in raw_scores.
  bool keep_raw_scores = false;

  // ---- cycle scratch, kept between cycles so the hot loops do not allocate
  std::vector<Status> node_status;
  std::vector<uint8_t> node_passed;
  // Per run of the filter pass, at the run's first position (other entries
  // are stale): its length and how many of its nodes passed. The sequential
  // scans step a run at a time and copy all-passing runs whole.
  std::vector<int32_t> run_length;
  std::vector<int32_t> run_passed;
  std::vector<int32_t> run_misses;  // memo misses per run, where the round counted them
  std::vector<std::vector<int64_t>> scores;  // per active score plugin, per node
  std::vector<std::vector<int64_t>> raw_scores;
  std::vector<int64_t> totals;
  std::vector<TotalsChunk> totals_chunks;  // summaries of totals, for SelectHost
  std::vector<size_t> active_scores;  // indices into score, this cycle
  std::vector<size_t> normalizing_scores;  // positions in active_scores
  std::vector<WeightedScores> direct_weighted, normalized_weighted;
  std::vector<Status> score_errors;   // parallel to active_scores
  std::vector<int32_t> score_positions;  // snapshot positions of the nodes scored
  std::vector<int32_t> untotaled;  // nodes (by index) the memo keeps no total for, this cycle
  std::vector<int64_t> totals_key;
  std::vector<const NodeInfo*> candidates;
  std::vector<const NodeInfo*> feasible;
  std::vector<const NodeInfo*> one_node;

  // Builds the profile's plugins (framework_build.cc).
  absl::Status Build(const Registry& registry, const Profile& profile);

  // ---- the filter pass (filter_pass.cc)
  // Filters `nodes` starting at the rotating index; fills feasible nodes and
  // the diagnosis. Returns an error status when a filter errs.
  Status FindNodesThatPassFilters(const CycleState& state, const PodInfo& pod,
                                  std::span<const NodeInfo* const> nodes, int start, Diagnosis& diagnosis,
                                  std::vector<const NodeInfo*>& feasible, int& processed, CycleTrace* trace);
  // After the filter pass: the feasible nodes among positions [0, last) of
  // the rotated order into `feasible`, the others' statuses into `diagnosis`.
  void CollectFilterResults(std::span<const NodeInfo* const> nodes, int start, int last, int found,
                            bool runs_counted, Diagnosis& diagnosis, std::vector<const NodeInfo*>& feasible,
                            CycleTrace* trace);

  // ---- FrameworkOptions::check_per_node_outcomes (outcome_check.cc): on
  // the nodes the memo answers for, the per-node filters (which must pass)
  // and raw scores (which must equal the kept ones) computed again; the
  // first difference is reported.
  void CheckKeptFilterPasses(const CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                             const ActiveFilterChain& chain) const;
  void CheckKeptScores(const CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                       std::span<const size_t> active) const;

  // ---- the filter chain (filter_plugins.cc)
  static Status RunActiveFilters(std::span<FilterPlugin* const> plugins, std::span<const Symbol> names,
                                 const CycleState& state, const PodInfo& pod, const NodeInfo& node);
  std::shared_ptr<const ActiveFilterChain> DeriveFilterChain(const CycleState& state) const;
  // The chain kept in `state` when this framework derived it from the
  // state's current skip set; nullptr otherwise.
  const ActiveFilterChain* KeptFilterChain(const CycleState& state) const;
  // The kept chain, or one derived now and held by `derived`.
  const ActiveFilterChain& FilterChainFor(const CycleState& state,
                                          std::shared_ptr<const ActiveFilterChain>& derived) const;
  // HasActivePreFilterExtensions without a kept chain to answer it.
  bool ScanPreFilterExtensions(const CycleState& state) const;

  // Opportunistic batching (opportunistic_batch.cc). The pod's signature,
  // or null when a signer declines; valid until the next call.
  const std::string* SignPod(const PodInfo& pod);
  // The pod signed last (its spec signature, labels and answer), and the
  // builder SignPod reuses.
  struct SignedPod {
    std::shared_ptr<const PodSignature> spec;
    api::LabelSet labels;
    std::optional<std::string> signature;
  } last_signed;
  BatchSignatureBuilder sign_builder;
  // A node to try alone before the filter pass, from the kept ranking, or
  // an empty symbol; `state` is the cycle's after PreFilter.
  Symbol GetNodeHint(CycleState& state, const PodInfo& pod, const std::string* signature, int64_t cycle);
  // The kept ranking with the last chosen node re-scored for `pod` and put
  // back; false when that cannot be done (the ranking is then unusable).
  bool RescoreLastChosen(CycleState& state, const PodInfo& pod, const NodeInfo& last);
  // Every node of the kept ranking (`nodes`, in heap order) normalized and
  // totalled again over the `active` Score plugins, and the heap rebuilt.
  bool NormalizeRanking(const CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                        std::span<const size_t> active);
  // Their scratch, kept to spare allocations.
  std::vector<const NodeInfo*> batch_nodes;
  std::vector<size_t> batch_active;
  std::vector<int64_t> batch_columns, batch_totals, batch_normalized;
  // After the score pass: `ranking` from the feasible nodes, their totals
  // and the raw scores kept in raw_scores (none without Score plugins);
  // pops and returns the best node.
  Symbol RankFeasible(std::span<const NodeInfo* const> feasible, std::span<const int64_t> totals,
                      SelectionState& selection, bool with_raw_scores);
  // Upstream's StoreScheduleResults: `ranked` says whether `ranking` holds
  // the rest of this cycle's nodes.
  void StoreScheduleResults(const std::string* signature, Symbol hinted, Symbol chosen, bool ranked,
                            int64_t cycle);

  // The Score plugins `state` does not skip, as indices into `score` (score_pass.cc).
  void ActiveScorePlugins(const CycleState& state, std::vector<size_t>& active) const;

  // Score pass from kept totals (score_pass.cc).
  bool KeptTotalsApply() const;
  bool ScoreFromKeptTotals(const CycleState& state, const PodInfo& pod, const Snapshot& snap,
                           std::span<const NodeInfo* const> nodes, std::vector<int64_t>& totals);
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_LIB_FRAMEWORK_FRAMEWORK_IMPL_H_
