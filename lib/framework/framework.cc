#include "schedkit/framework/framework.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstring>
#include <limits>
#include <map>
#include <numeric>
#include <optional>

#include "absl/container/flat_hash_map.h"
#include <condition_variable>
#include <mutex>

#include "absl/base/thread_annotations.h"
#include "absl/time/clock.h"
#include "framework/outcome_memo.h"
#include "framework/records_nothing.h"
#include "framework/vector_clones.h"
#include "schedkit/api/str_cat.h"

namespace schedkit::framework {
namespace {

constexpr int kMinFeasibleNodesToFind = 100;
constexpr int kMinFeasibleNodesPercentageToFind = 5;
constexpr absl::Duration kMaxPermitTimeout = absl::Minutes(15);
// Nodes per task in the filter/score fan-out: enough work per task that
// scheduling it costs little next to running the plugins.
constexpr int kNodesPerTask = 64;

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

// Nodes per chunk of the score tail (weighted sum and host selection): the
// chunks run in parallel, and each keeps its top total and tie count so that
// SelectHost looks at one chunk's nodes only.
constexpr int kNodesPerTotalsChunk = 512;

// Range check by OR: with u = score - kMinNodeScore (unsigned, so scores
// below the range wrap far above it) and M the range's span rounded up to
// 2^k - 1, u | (u + (M - span)) stays within M exactly when u <= span. An OR
// over many scores vectorizes where a running max of 64-bit values does not.
constexpr uint64_t kScoreSpan = static_cast<uint64_t>(kMaxNodeScore - kMinNodeScore);
constexpr uint64_t kScoreSpanMask = std::bit_ceil(kScoreSpan + 1) - 1;
constexpr uint64_t kScoreSpanPad = kScoreSpanMask - kScoreSpan;
constexpr bool ScoresInRange(uint64_t range_bits) { return (range_bits & ~kScoreSpanMask) == 0; }
static_assert(ScoresInRange(kScoreSpan | (kScoreSpan + kScoreSpanPad)));
static_assert(!ScoresInRange((kScoreSpan + 1) | (kScoreSpan + 1 + kScoreSpanPad)));
static_assert(!ScoresInRange(~uint64_t{0} | (~uint64_t{0} + kScoreSpanPad)));

struct TotalsChunk {
  int64_t top = 0;
  int ties = 0;
  // The OR of the chunk's range bits (see ScoresInRange).
  uint64_t range_bits = 0;
};

// Below this many nodes the plugins' NormalizeScore calls run one after another.
constexpr int kNodesToNormalizeInParallel = 1024;

int NumTotalsChunks(int n) { return (n + kNodesPerTotalsChunk - 1) / kNodesPerTotalsChunk; }

// One plugin's scores for this cycle with its weight, for the weighted sums.
struct WeightedScores {
  const int64_t* scores;
  uint64_t weight;
};

// Adds Σ weight × score over `plugins` to totals[begin, end), two plugins per
// pass over the nodes, in unsigned arithmetic so that an out-of-range score
// cannot overflow before the range check rejects it. Returns the OR of the
// scores' range bits (see ScoresInRange).
SCHEDKIT_VECTOR_CLONES uint64_t AddWeightedScores(std::span<const WeightedScores> plugins, int begin, int end,
                                                 int64_t* totals) {
  constexpr uint64_t kLow = static_cast<uint64_t>(kMinNodeScore);
  auto range_bits = [](uint64_t score) { return (score - kLow) | (score - kLow + kScoreSpanPad); };
  uint64_t* __restrict sums = reinterpret_cast<uint64_t*>(totals);
  uint64_t bits = 0;
  size_t a = 0;
  for (; a + 1 < plugins.size(); a += 2) {
    const uint64_t* __restrict first = reinterpret_cast<const uint64_t*>(plugins[a].scores);
    const uint64_t* __restrict second = reinterpret_cast<const uint64_t*>(plugins[a + 1].scores);
    const uint64_t w1 = plugins[a].weight;
    const uint64_t w2 = plugins[a + 1].weight;
    for (int i = begin; i < end; ++i) {
      bits |= range_bits(first[i]) | range_bits(second[i]);
      sums[i] += first[i] * w1 + second[i] * w2;
    }
  }
  if (a < plugins.size()) {
    const uint64_t* __restrict only = reinterpret_cast<const uint64_t*>(plugins[a].scores);
    const uint64_t w = plugins[a].weight;
    for (int i = begin; i < end; ++i) {
      bits |= range_bits(only[i]);
      sums[i] += only[i] * w;
    }
  }
  return bits;
}

// Branch-free passes: with many equal totals, a compare-and-branch per node
// mispredicts often enough to cost more than the scores themselves.
SCHEDKIT_VECTOR_CLONES int64_t TopTotal(const int64_t* totals, int begin, int end) {
  int64_t top = totals[begin];
  for (int i = begin + 1; i < end; ++i) top = std::max(top, totals[i]);
  return top;
}
SCHEDKIT_VECTOR_CLONES int CountTies(const int64_t* totals, int64_t top, int begin, int end) {
  int ties = 0;
  for (int i = begin; i < end; ++i) ties += totals[i] == top ? 1 : 0;
  return ties;
}

// Completes totals for chunk c: the Score pass already summed the plugins
// without NormalizeScore (`direct_range_bits` are their scores'); this adds
// the normalized ones and summarizes the chunk.
TotalsChunk SumWeightedScoresChunk(std::span<const WeightedScores> normalized, uint64_t direct_range_bits, int c,
                                   int n, int64_t* totals) {
  const int begin = c * kNodesPerTotalsChunk;
  const int end = std::min(n, begin + kNodesPerTotalsChunk);
  TotalsChunk chunk;
  chunk.range_bits = direct_range_bits | AddWeightedScores(normalized, begin, end, totals);
  chunk.top = TopTotal(totals, begin, end);
  chunk.ties = CountTies(totals, chunk.top, begin, end);
  return chunk;
}

// Upstream's range check: a score outside [kMinNodeScore, kMaxNodeScore]
// is an error naming the first such plugin (in order) and its first such node.
Status CheckScoreRange(std::span<const std::vector<int64_t>> scores, std::span<const size_t> active,
                       std::span<const Symbol> names, int n, std::span<const TotalsChunk> chunks) {
  if (std::all_of(chunks.begin(), chunks.end(), [](const TotalsChunk& c) { return ScoresInRange(c.range_bits); })) {
    return Status();
  }
  auto out_of_range = [](int64_t s) { return s > kMaxNodeScore || s < kMinNodeScore; };
  for (size_t k = 0; k < active.size(); ++k) {
    const int64_t* begin = scores[k].data();
    const int64_t* bad = std::find_if(begin, begin + n, out_of_range);
    if (bad == begin + n) continue;
    return Status::Error(schedkit::StrCat("applying score defaultWeights on Score plugins: plugin \"",
                                          names[active[k]].str(), "\" returns an invalid score ", *bad,
                                          ", it should in the range of [", kMinNodeScore, ", ", kMaxNodeScore,
                                          "] after normalizing"));
  }
  return Status();
}

// The host among the nodes with the top total: uniform over the ties, as
// upstream's reservoir sampling, with one draw (the k-th tie in node order),
// or the lowest name. `chunks` summarize `totals` chunk by chunk.
Symbol SelectHost(std::span<const NodeInfo* const> nodes, std::span<const int64_t> totals,
                  std::span<const TotalsChunk> chunks, SelectionState& selection) {
  const int n = static_cast<int>(nodes.size());
  int64_t top = chunks[0].top;
  for (const TotalsChunk& c : chunks) top = std::max(top, c.top);
  if (selection.tie_break == TieBreak::kLowestName) {
    const NodeInfo* best = nullptr;
    for (int i = 0; i < n; ++i) {
      if (totals[i] == top && (best == nullptr || nodes[i]->name().str() < best->name().str())) best = nodes[i];
    }
    return best->name();
  }
  int ties = 0;
  for (const TotalsChunk& c : chunks) ties += c.top == top ? c.ties : 0;
  int k = ties == 1 ? 0 : std::uniform_int_distribution<int>(0, ties - 1)(selection.rng);
  for (size_t c = 0;; ++c) {
    if (chunks[c].top != top) continue;
    if (k >= chunks[c].ties) {
      k -= chunks[c].ties;
      continue;
    }
    for (int i = static_cast<int>(c) * kNodesPerTotalsChunk;; ++i) {
      if (totals[i] == top && k-- == 0) return nodes[i]->name();
    }
  }
}

// Whether the nominated-pods pass adds a pod of `nominated` (a node's list,
// null for none) to the node: one of equal or higher priority that is not
// `pod`. Where it does not, the pass equals the plain filter chain.
bool AddsNominatedPods(const NominatedPodsSnapshot::PodList& nominated, const PodInfo& pod) {
  if (nominated == nullptr) return false;
  for (const PodInfoPtr& p : *nominated) {
    if (p->priority() >= pod.priority() && !p->SameUid(pod)) return true;
  }
  return false;
}

// Go's %v of a duration as upstream prints it in the Permit timeout message.
std::string GoDuration(absl::Duration d) {
  if (d == absl::ZeroDuration()) return "0s";
  return absl::FormatDuration(d);
}

}  // namespace

int NumFeasibleNodesToFind(std::optional<int32_t> profile_percentage, int32_t global_percentage,
                           int num_all_nodes) {
  if (num_all_nodes < kMinFeasibleNodesToFind) return num_all_nodes;
  int32_t percentage = profile_percentage ? *profile_percentage : global_percentage;
  if (percentage == 0) {
    percentage = 50 - num_all_nodes / 125;
    if (percentage < kMinFeasibleNodesPercentageToFind) percentage = kMinFeasibleNodesPercentageToFind;
  }
  const int num_nodes = static_cast<int>(static_cast<int64_t>(num_all_nodes) * percentage / 100);
  return num_nodes < kMinFeasibleNodesToFind ? kMinFeasibleNodesToFind : num_nodes;
}

// A pod parked at Permit. Allow/Reject may come from any thread (plugins,
// timers, the host); the binding thread blocks in Wait.
class WaitingPodImpl : public WaitingPod {
 public:
  WaitingPodImpl(PodInfoPtr pod, Symbol node) : pod_(std::move(pod)), node_(node) {}

  const PodInfo& pod() const override { return *pod_; }
  Symbol node() const override { return node_; }

  std::vector<Symbol> pending_plugins() const override {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<Symbol> out;
    for (const auto& [plugin, timer] : pending_) out.push_back(plugin);
    return out;
  }

  void AddPending(Symbol plugin, std::shared_ptr<Timer> timer) {
    std::lock_guard<std::mutex> lock(mu_);
    pending_.emplace_back(plugin, std::move(timer));
  }

  void Allow(Symbol plugin) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (result_) return;
    for (auto it = pending_.begin(); it != pending_.end(); ++it) {
      if (it->first == plugin) {
        if (it->second) it->second->Stop();
        pending_.erase(it);
        break;
      }
    }
    if (pending_.empty()) {
      result_ = Status();
      cv_.notify_all();
    }
  }

  void Reject(Symbol plugin, std::string message) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (result_) return;
    for (auto& [p, timer] : pending_) {
      if (timer) timer->Stop();
    }
    Status s = Status::WithText(Code::kUnschedulable, std::move(message));
    s.WithPlugin(plugin);
    result_ = std::move(s);
    cv_.notify_all();
  }

  Status Wait() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [this] { return result_.has_value(); });
    return *result_;
  }

 private:
  PodInfoPtr pod_;
  Symbol node_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::pair<Symbol, std::shared_ptr<Timer>>> pending_ ABSL_GUARDED_BY(mu_);
  std::optional<Status> result_ ABSL_GUARDED_BY(mu_);
};

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

struct Framework::Impl {
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
  // Parallel to score.plugins: whether the plugin has NormalizeScore, and
  // its ScoreExtensions::NormalizesByMaximum.
  std::vector<uint8_t> score_normalizes;
  std::vector<std::optional<MaximumNormalization>> score_by_maximum;
  // Whether SchedulePod consults the memo: it is enabled, some plugin is
  // per node, and the plugin sets fit its 64-bit masks.
  bool memoizes = false;
  OutcomeMemo memo;
  // This cycle's entry, between PreFilter and the end of SchedulePod.
  OutcomeMemo::Entry* cycle_memo = nullptr;
  std::vector<int32_t> score_positions;  // snapshot positions of the nodes scored
  std::vector<int32_t> untotaled;  // nodes (by index) the memo keeps no total for, this cycle
  std::vector<int64_t> totals_key;
  PluginList<ReservePlugin> reserve;
  PluginList<PermitPlugin> permit;
  PluginList<PreBindPlugin> pre_bind;
  PluginList<BindPlugin> bind;
  PluginList<PostBindPlugin> post_bind;
  absl::flat_hash_map<std::string, int32_t> weight_by_name;

  mutable std::mutex waiting_mu;
  absl::flat_hash_map<std::string, std::shared_ptr<WaitingPodImpl>> waiting ABSL_GUARDED_BY(waiting_mu);

  // Cycle scratch, kept between cycles so the hot loops do not allocate.
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
  std::vector<const NodeInfo*> candidates;
  std::vector<const NodeInfo*> feasible;
  std::vector<const NodeInfo*> one_node;

  bool KeptTotalsApply() const;
  bool ScoreFromKeptTotals(const CycleState& state, const PodInfo& pod, const Snapshot& snap,
                           std::span<const NodeInfo* const> nodes, std::vector<int64_t>& totals);
};

// Whether this cycle's totals can come from the memo: every active score
// plugin is per node and each normalizing one normalizes by maximum, so a
// node's total depends on its own raw scores and the columns' maxima alone.
bool Framework::Impl::KeptTotalsApply() const {
  return std::all_of(active_scores.begin(), active_scores.end(), [&](size_t a) {
    return score_per_node[a] && (!score_normalizes[a] || score_by_maximum[a].has_value());
  });
}

// The score pass from the memo (KeptTotalsApply holds): the nodes unchanged
// since their totals were found keep them, a few changed ones are scored,
// and the normalization needs only the columns' maxima. Returns false, with
// nothing decided, when the full pass must run instead: too many nodes to
// score for one run, a plugin failing, or a score out of range (the full
// pass reports those as upstream does).
bool Framework::Impl::ScoreFromKeptTotals(const CycleState& state, const PodInfo& pod, const Snapshot& snap,
                                          std::span<const NodeInfo* const> nodes, std::vector<int64_t>& totals) {
  OutcomeMemo::Entry& memo = *cycle_memo;
  const std::span<const int64_t> generations = snap.node_generations();
  const int n = static_cast<int>(nodes.size());
  if (n == 0) return false;
  score_positions.resize(n);
  totals.resize(n);
  untotaled.clear();
  std::array<int32_t, kNodesPerTask> to_score;  // indices of the nodes to score
  size_t misses = 0;
  // Mostly the nodes are a stretch of snapshot positions (wrapping at the
  // end): every node passed, as a whole rotation of the snapshot or a run
  // of one. Then the totals are read by stretches.
  const std::span<const NodeInfo* const> all = snap.nodes();
  const int first = snap.PositionOf(*nodes[0]);
  const int before_wrap = std::min(n, static_cast<int>(all.size()) - first);
  const bool stretch = n <= static_cast<int>(all.size()) &&
                       std::equal(nodes.begin(), nodes.begin() + before_wrap, all.begin() + first) &&
                       std::equal(nodes.begin() + before_wrap, nodes.end(), all.begin());
  if (stretch) {
    std::iota(score_positions.begin(), score_positions.begin() + before_wrap, first);
    std::iota(score_positions.begin() + before_wrap, score_positions.end(), 0);
    memo.CopyTotals(first, first + before_wrap, generations, totals.data(), 0, untotaled);
    memo.CopyTotals(0, n - before_wrap, generations, totals.data() + before_wrap, before_wrap, untotaled);
  } else {
    for (int i = 0; i < n; ++i) {
      const int pos = snap.PositionOf(*nodes[i]);
      score_positions[i] = pos;
      if (memo.HasTotal(pos, generations)) {
        totals[i] = memo.Total(pos);
      } else {
        untotaled.push_back(i);
      }
    }
  }
  for (int32_t i : untotaled) {
    if (memo.Scored(score_positions[i], generations)) continue;
    if (misses == to_score.size()) return false;
    to_score[misses++] = i;
  }

  if (misses > 0) {
    std::array<const NodeInfo*, kNodesPerTask> run;
    std::array<int32_t, kNodesPerTask> run_at;  // their positions
    std::array<int64_t, kNodesPerTask> fresh;
    for (size_t k = 0; k < misses; ++k) {
      run[k] = nodes[to_score[k]];
      run_at[k] = score_positions[to_score[k]];
    }
    const std::span<const int32_t> at(run_at.data(), misses);
    for (size_t a : active_scores) {
      const Status s = score.plugins[a]->ScoreNodes(state, pod, std::span<const NodeInfo* const>(run.data(), misses),
                                                    std::span<int64_t>(fresh.data(), misses));
      if (!s.IsSuccess()) return false;
      memo.StoreScores(a, at, std::span<const int64_t>(fresh.data(), misses));
    }
    for (int32_t pos : at) memo.SetScored(pos, generations);
  }

  // Each plugin's column as this cycle sees it, with its weight and, for a
  // normalizing one, the column maximum over these nodes (the totals' key).
  struct Column {
    const int64_t* kept;
    uint64_t weight;
    const MaximumNormalization* normalization;
    int64_t column_max;
  };
  absl::InlinedVector<Column, 16> columns;
  totals_key.clear();
  for (size_t a : active_scores) {
    Column c{memo.Scores(a).data(), static_cast<uint64_t>(score_weights[a]), nullptr, 0};
    if (score_normalizes[a]) {
      c.normalization = &*score_by_maximum[a];
      if (memo.MayHoldNonzeroScore(a)) {
        for (int i = 0; i < n; ++i) c.column_max = std::max(c.column_max, c.kept[score_positions[i]]);
      }
      totals_key.push_back(c.column_max);
    }
    columns.push_back(c);
  }
  const auto find_total = [&](int i) {
    const int pos = score_positions[i];
    uint64_t total = 0;
    for (const Column& c : columns) {
      const int64_t s = c.normalization != nullptr ? c.normalization->Apply(c.kept[pos], c.column_max) : c.kept[pos];
      if (s < kMinNodeScore || s > kMaxNodeScore) return false;
      total += static_cast<uint64_t>(s) * c.weight;
    }
    totals[i] = static_cast<int64_t>(total);
    memo.SetTotal(pos, generations, totals[i]);
    return true;
  };
  if (memo.UseTotalsKey(totals_key)) {
    for (int i = 0; i < n; ++i) {
      if (!find_total(i)) return false;
    }
  } else {
    for (int32_t i : untotaled) {
      if (!find_total(i)) return false;
    }
  }

  totals_chunks.resize(NumTotalsChunks(n));
  for (size_t c = 0; c < totals_chunks.size(); ++c) {
    const int begin = static_cast<int>(c) * kNodesPerTotalsChunk;
    const int end = std::min(n, begin + kNodesPerTotalsChunk);
    totals_chunks[c].top = TopTotal(totals.data(), begin, end);
    totals_chunks[c].ties = CountTies(totals.data(), totals_chunks[c].top, begin, end);
    totals_chunks[c].range_bits = 0;
  }
  return true;
}

namespace {

// The ways a profile names its extension points, and how each is checked.
struct PointSpec {
  const char* type_name;  // for errors, as upstream names plugin interfaces
  const PluginSet* set;
};

template <typename T>
bool Implements(Plugin* p) {
  return dynamic_cast<T*>(p) != nullptr;
}

// Upstream's orderedSet: insertion order, O(1) membership.
class OrderedNames {
 public:
  bool Insert(const std::string& s) {
    if (Has(s)) return false;
    list_.push_back(s);
    return true;
  }
  bool Has(const std::string& s) const { return std::find(list_.begin(), list_.end(), s) != list_.end(); }
  void Erase(const std::string& s) { list_.erase(std::remove(list_.begin(), list_.end(), s), list_.end()); }
  const std::vector<std::string>& list() const { return list_; }

 private:
  std::vector<std::string> list_;
};

}  // namespace

Framework::Framework(FrameworkOptions options) : options_(std::move(options)), impl_(std::make_unique<Impl>()) {
  parallelizer_ = options_.parallelizer ? options_.parallelizer
                                        : std::make_shared<Parallelizer>(options_.parallelism);
  // A recorder that records nothing counts as none, so PointTimer skips the clock.
  if (RecordsNothing(options_.metrics)) {
    noop_metrics_ = std::make_unique<NoopMetricsRecorder>();
    metrics_ = noop_metrics_.get();
  } else {
    metrics_ = options_.metrics;
  }
  if (options_.clock == nullptr) options_.clock = &Clock::Real();
}

Framework::~Framework() = default;

absl::StatusOr<std::unique_ptr<Framework>> Framework::Create(const Registry& registry, const Profile& profile,
                                                             FrameworkOptions options) {
  std::unique_ptr<Framework> f(new Framework(std::move(options)));
  absl::Status s = f->Build(registry, profile);
  if (!s.ok()) {
    return absl::InvalidArgumentError(
        schedkit::StrCat("profile \"", profile.scheduler_name, "\": ", s.message()));
  }
  return f;
}

absl::Status Framework::Build(const Registry& registry, const Profile& profile) {
  profile_name_ = profile.scheduler_name;
  percentage_of_nodes_to_score_ = profile.percentage_of_nodes_to_score;
  Impl& im = *impl_;
  const ProfilePlugins& pp = profile.plugins;

  // Instantiate every plugin the profile names, once, in order of first mention.
  std::vector<const PluginSet*> sets = {&pp.pre_enqueue, &pp.queue_sort, &pp.pre_filter, &pp.filter,
                                        &pp.post_filter, &pp.pre_score,  &pp.score,      &pp.reserve,
                                        &pp.permit,      &pp.pre_bind,   &pp.bind,       &pp.post_bind,
                                        &pp.multi_point};
  for (const PluginSet* set : sets) {
    for (const PluginRef& ref : set->enabled) {
      if (im.by_name.contains(ref.name)) continue;
      const PluginFactory* factory = registry.Find(ref.name);
      if (factory == nullptr) continue;  // reported below with the extension point
      auto args_it = profile.plugin_args.find(ref.name);
      PluginArgs args(args_it == profile.plugin_args.end() ? "" : args_it->second);
      auto plugin = (*factory)(args, *this);
      if (!plugin.ok()) {
        return absl::InvalidArgumentError(
            schedkit::StrCat("initializing plugin \"", ref.name, "\": ", plugin.status().message()));
      }
      if (*plugin == nullptr) {
        return absl::InvalidArgumentError(schedkit::StrCat("initializing plugin \"", ref.name, "\": factory returned null"));
      }
      im.by_name[ref.name] = plugin->get();
      im.owned.push_back(*std::move(plugin));
    }
  }

  // Per extension point: the explicitly configured plugins, then multiPoint
  // expansion (upstream updatePluginList + expandMultiPointPlugins).
  auto build_point = [&](auto& list, const PluginSet& set, const char* type_name) -> absl::Status {
    using T = std::remove_pointer_t<typename std::decay_t<decltype(list.plugins)>::value_type>;
    OrderedNames enabled;
    for (const PluginRef& ref : set.enabled) {
      auto it = im.by_name.find(ref.name);
      if (it == im.by_name.end()) {
        return absl::InvalidArgumentError(schedkit::StrCat(type_name, " \"", ref.name, "\" does not exist"));
      }
      if (!Implements<T>(it->second)) {
        return absl::InvalidArgumentError(
            schedkit::StrCat("plugin \"", ref.name, "\" does not extend ", type_name, " plugin"));
      }
      if (!enabled.Insert(ref.name)) {
        return absl::InvalidArgumentError(
            schedkit::StrCat("plugin \"", ref.name, "\" already registered as \"", type_name, "\""));
      }
    }
    const bool all_disabled =
        std::find(set.disabled.begin(), set.disabled.end(), "*") != set.disabled.end();
    OrderedNames multi, overrides;
    if (!all_disabled) {
      for (const PluginRef& ref : pp.multi_point.enabled) {
        auto it = im.by_name.find(ref.name);
        if (it == im.by_name.end()) {
          return absl::InvalidArgumentError(schedkit::StrCat(type_name, " \"", ref.name, "\" does not exist"));
        }
        if (!Implements<T>(it->second)) continue;
        if (std::find(set.disabled.begin(), set.disabled.end(), ref.name) != set.disabled.end()) continue;
        if (enabled.Has(ref.name)) {
          overrides.Insert(ref.name);
          continue;
        }
        if (!multi.Insert(ref.name)) {
          return absl::InvalidArgumentError(
              schedkit::StrCat("plugin \"", ref.name, "\" already registered as \"", type_name, "\""));
        }
      }
    }
    // Overrides keep their explicit order, then multiPoint, then the rest.
    std::vector<std::string> order;
    for (const std::string& n : enabled.list()) {
      if (overrides.Has(n)) order.push_back(n);
    }
    for (const std::string& n : multi.list()) order.push_back(n);
    for (const std::string& n : enabled.list()) {
      if (!overrides.Has(n)) order.push_back(n);
    }
    for (const std::string& n : order) list.Add(dynamic_cast<T*>(im.by_name[n]));
    return absl::OkStatus();
  };
  absl::Status s;
  if (!(s = build_point(im.pre_enqueue, pp.pre_enqueue, "PreEnqueuePlugin")).ok()) return s;
  if (!(s = build_point(im.queue_sort, pp.queue_sort, "QueueSortPlugin")).ok()) return s;
  if (!(s = build_point(im.pre_filter, pp.pre_filter, "PreFilterPlugin")).ok()) return s;
  for (size_t i = 0; i < im.pre_filter.size(); ++i) {
    if (im.pre_filter.plugins[i]->GetPreFilterExtensions() != nullptr) {
      im.pre_filter_extension_names.push_back(im.pre_filter.names[i]);
    }
  }
  if (!(s = build_point(im.filter, pp.filter, "FilterPlugin")).ok()) return s;
  if (!(s = build_point(im.post_filter, pp.post_filter, "PostFilterPlugin")).ok()) return s;
  if (!(s = build_point(im.pre_score, pp.pre_score, "PreScorePlugin")).ok()) return s;
  if (!(s = build_point(im.score, pp.score, "ScorePlugin")).ok()) return s;
  if (!(s = build_point(im.reserve, pp.reserve, "ReservePlugin")).ok()) return s;
  if (!(s = build_point(im.permit, pp.permit, "PermitPlugin")).ok()) return s;
  if (!(s = build_point(im.pre_bind, pp.pre_bind, "PreBindPlugin")).ok()) return s;
  if (!(s = build_point(im.bind, pp.bind, "BindPlugin")).ok()) return s;
  if (!(s = build_point(im.post_bind, pp.post_bind, "PostBindPlugin")).ok()) return s;

  if (im.queue_sort.size() != 1) {
    return absl::InvalidArgumentError(schedkit::StrCat(
        "only one queue sort plugin required for profile with scheduler name \"", profile_name_, "\", but got ",
        im.queue_sort.size()));
  }
  if (im.bind.size() == 0) {
    return absl::InvalidArgumentError(schedkit::StrCat(
        "at least one bind plugin is needed for profile with scheduler name \"", profile_name_, "\""));
  }

  // Score weights: the explicit Score entry wins over multiPoint; 0 means 1.
  int64_t total = 0;
  std::vector<PluginRef> weighted = pp.score.enabled;
  weighted.insert(weighted.end(), pp.multi_point.enabled.begin(), pp.multi_point.enabled.end());
  for (const PluginRef& ref : weighted) {
    auto it = im.by_name.find(ref.name);
    if (it == im.by_name.end() || !Implements<ScorePlugin>(it->second)) continue;
    if (im.weight_by_name.contains(ref.name)) continue;
    const int32_t w = ref.weight == 0 ? 1 : ref.weight;
    im.weight_by_name[ref.name] = w;
    if (static_cast<int64_t>(w) * kMaxNodeScore > std::numeric_limits<int64_t>::max() - total) {
      return absl::InvalidArgumentError("total score of Score plugins could overflow");
    }
    total += static_cast<int64_t>(w) * kMaxNodeScore;
  }
  for (ScorePlugin* p : im.score.plugins) {
    auto it = im.weight_by_name.find(std::string(p->Name()));
    if (it == im.weight_by_name.end() || it->second == 0) {
      return absl::InvalidArgumentError(
          schedkit::StrCat("score plugin \"", p->Name(), "\" is not configured with weight"));
    }
    im.score_weights.push_back(it->second);
  }

  for (FilterPlugin* p : im.filter.plugins) im.filter_per_node.push_back(p->OutcomesArePerNode());
  for (ScorePlugin* p : im.score.plugins) {
    im.score_per_node.push_back(p->OutcomesArePerNode());
    const ScoreExtensions* ext = p->GetScoreExtensions();
    im.score_normalizes.push_back(ext != nullptr);
    im.score_by_maximum.push_back(ext != nullptr ? ext->NormalizesByMaximum() : std::nullopt);
  }
  const auto any = [](const std::vector<uint8_t>& v) { return std::find(v.begin(), v.end(), 1) != v.end(); };
  im.memoizes = options_.memoize_per_node_outcomes && im.filter.size() <= 64 && im.score.size() <= 64 &&
                (any(im.filter_per_node) || any(im.score_per_node));

  // Queueing registrations of the plugins that can reject a pod.
  for (const auto& owned : im.owned) {
    Plugin* p = owned.get();
    const bool can_reject = Implements<PreEnqueuePlugin>(p) || Implements<PreFilterPlugin>(p) ||
                            Implements<FilterPlugin>(p) || Implements<ReservePlugin>(p) ||
                            Implements<PermitPlugin>(p);
    if (!can_reject) continue;
    PluginEvents pe;
    pe.plugin = Symbol::Intern(p->Name());
    if (auto* ext = dynamic_cast<EnqueueExtensions*>(p)) {
      pe.events = ext->EventsToRegister();
    } else {
      pe.events.push_back(ClusterEventWithHint{ClusterEvent{EventResource::kWildcard, kActionAll, "*"}, {}});
    }
    enqueue_events_.push_back(std::move(pe));
  }
  return absl::OkStatus();
}

std::vector<std::string> Framework::PluginNames(ExtensionPoint point) const {
  const Impl& im = *impl_;
  auto names = [](const std::vector<Symbol>& syms) {
    std::vector<std::string> out;
    for (Symbol s : syms) out.emplace_back(s.str());
    return out;
  };
  switch (point) {
    case ExtensionPoint::kPreEnqueue: return names(im.pre_enqueue.names);
    case ExtensionPoint::kPreFilter:
    case ExtensionPoint::kPreFilterExtensionAddPod:
    case ExtensionPoint::kPreFilterExtensionRemovePod: return names(im.pre_filter.names);
    case ExtensionPoint::kFilter: return names(im.filter.names);
    case ExtensionPoint::kPostFilter: return names(im.post_filter.names);
    case ExtensionPoint::kPreScore: return names(im.pre_score.names);
    case ExtensionPoint::kScore:
    case ExtensionPoint::kScoreExtensionNormalize: return names(im.score.names);
    case ExtensionPoint::kReserve:
    case ExtensionPoint::kUnreserve: return names(im.reserve.names);
    case ExtensionPoint::kPermit: return names(im.permit.names);
    case ExtensionPoint::kPreBind: return names(im.pre_bind.names);
    case ExtensionPoint::kBind: return names(im.bind.names);
    case ExtensionPoint::kPostBind: return names(im.post_bind.names);
  }
  return {};
}

int32_t Framework::ScoreWeight(std::string_view plugin) const {
  for (size_t i = 0; i < impl_->score.size(); ++i) {
    if (impl_->score.names[i].str() == plugin) return impl_->score_weights[i];
  }
  return 0;
}

bool Framework::HasFilterPlugins() const { return impl_->filter.size() > 0; }
bool Framework::HasScorePlugins() const { return impl_->score.size() > 0; }
bool Framework::HasPostFilterPlugins() const { return impl_->post_filter.size() > 0; }
const QueueSortPlugin& Framework::queue_sort() const { return *impl_->queue_sort.plugins[0]; }

Plugin* Framework::GetPlugin(std::string_view name) const {
  auto it = impl_->by_name.find(name);
  return it == impl_->by_name.end() ? nullptr : it->second;
}

const Snapshot& Framework::snapshot() const {
  static const Snapshot* empty = new Snapshot();
  return snapshot_ != nullptr ? *snapshot_ : *empty;
}

// ---------------------------------------------------------------- extension points

Status Framework::RunPreEnqueuePlugins(const PodInfo& pod) {
  const Impl& im = *impl_;
  const PointTimer timer(metrics_, noop_metrics_.get(), ExtensionPoint::kPreEnqueue, profile_name_);
  Status result;
  for (size_t i = 0; i < im.pre_enqueue.size(); ++i) {
    Status s = im.pre_enqueue.plugins[i]->PreEnqueue(pod);
    if (s.IsSuccess()) continue;
    s.WithPlugin(im.pre_enqueue.names[i]);
    if (!s.IsRejected()) {
      result = Status::Error(schedkit::StrCat("running PreEnqueue plugin \"", im.pre_enqueue.names[i].str(),
                                              "\": ", s.Message()));
      result.WithPlugin(im.pre_enqueue.names[i]);
    } else {
      result = std::move(s);
    }
    break;
  }
  timer.Done(result.code());
  return result;
}

PreFilterPlugin::Result Framework::RunPreFilterPlugins(CycleState& state, const PodInfo& pod,
                                                       absl::flat_hash_set<Symbol>* plugins_with_nodes) {
  const Impl& im = *impl_;
  const PointTimer timer(metrics_, noop_metrics_.get(), ExtensionPoint::kPreFilter, profile_name_);
  std::span<const NodeInfo* const> nodes = snapshot().nodes();
  auto& skip = state.skip_filter_plugins();
  skip.clear();
  PreFilterPlugin::Result out;
  std::optional<Status> rejection;
  std::vector<Symbol> narrowing;  // plugins whose result restricted the nodes
  for (size_t i = 0; i < im.pre_filter.size(); ++i) {
    const Symbol name = im.pre_filter.names[i];
    PreFilterPlugin::Result r = im.pre_filter.plugins[i]->PreFilter(state, pod, nodes);
    if (r.status.IsSkip()) {
      skip.insert(name);
      continue;
    }
    if (!r.status.IsSuccess()) {
      r.status.WithPlugin(name);
      if (r.status.code() == Code::kUnschedulableAndUnresolvable) {
        out.status = std::move(r.status);
        out.result = PreFilterResult();
        rejection.reset();
        narrowing.clear();
        break;
      }
      if (r.status.code() == Code::kUnschedulable) {
        // Later PreFilters still run: preemption needs their state.
        if (!rejection) rejection = std::move(r.status);
        continue;
      }
      out.status = Status::Error(
          schedkit::StrCat("running PreFilter plugin \"", name.str(), "\": ", r.status.Message()));
      out.status.WithPlugin(name);
      out.result = PreFilterResult();
      rejection.reset();
      narrowing.clear();
      break;
    }
    if (!r.result.AllNodes()) narrowing.push_back(name);
    out.result = out.result.Merge(r.result);
    if (!out.result.AllNodes() && out.result.node_names->empty()) {
      std::vector<std::string> sorted;
      for (Symbol n : narrowing) sorted.emplace_back(n.str());
      std::sort(sorted.begin(), sorted.end());
      sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
      std::string msg;
      if (sorted.size() == 1) {
        msg = schedkit::StrCat("node(s) didn't satisfy plugin ", sorted[0]);
      } else {
        msg = "node(s) didn't satisfy plugin(s) [";
        for (size_t k = 0; k < sorted.size(); ++k) schedkit::StrAppend(&msg, k ? " " : "", sorted[k]);
        msg += "] simultaneously";
      }
      out.status = Status::WithText(Code::kUnschedulableAndUnresolvable, std::move(msg));
      break;
    }
  }
  if (out.status.IsSuccess() && rejection) out.status = std::move(*rejection);
  state.set_active_filter_chain(DeriveFilterChain(state));
  if (plugins_with_nodes != nullptr) {
    plugins_with_nodes->clear();
    plugins_with_nodes->insert(narrowing.begin(), narrowing.end());
  }
  timer.Done(out.status.code());
  return out;
}

std::shared_ptr<const ActiveFilterChain> Framework::DeriveFilterChain(const CycleState& state) const {
  const Impl& im = *impl_;
  auto chain = std::make_shared<ActiveFilterChain>();
  chain->owner = this;
  chain->skips = state.skip_filter_plugins();
  chain->all_per_node = true;
  for (size_t i = 0; i < im.filter.size(); ++i) {
    if (chain->skips.contains(im.filter.names[i])) continue;
    chain->plugins.push_back(im.filter.plugins[i]);
    chain->names.push_back(im.filter.names[i]);
    const bool per_node = im.memoizes && im.filter_per_node[i];
    chain->per_node.push_back(per_node);
    if (per_node) {
      chain->per_node_mask |= uint64_t{1} << i;
      chain->last_per_node = static_cast<int>(chain->plugins.size()) - 1;
    }
    chain->all_per_node &= per_node;
  }
  chain->pre_filter_extensions = ScanPreFilterExtensions(state);
  return chain;
}

const ActiveFilterChain* Framework::KeptFilterChain(const CycleState& state) const {
  const ActiveFilterChain* chain = state.active_filter_chain().get();
  if (chain == nullptr || chain->owner != this || !(chain->skips == state.skip_filter_plugins())) return nullptr;
  return chain;
}

Status Framework::RunFilterPlugins(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  const Impl& im = *impl_;
  const auto& skip = state.skip_filter_plugins();
  if (skip.empty()) return RunActiveFilters(im.filter.plugins, im.filter.names, state, pod, node);
  if (const ActiveFilterChain* chain = KeptFilterChain(state)) {
    return RunActiveFilters(chain->plugins, chain->names, state, pod, node);
  }
  const std::shared_ptr<const ActiveFilterChain> chain = DeriveFilterChain(state);
  return RunActiveFilters(chain->plugins, chain->names, state, pod, node);
}

// The filter chain over plugins already cleared of this cycle's skips.
Status Framework::RunActiveFilters(std::span<FilterPlugin* const> plugins, std::span<const Symbol> names,
                                   const CycleState& state, const PodInfo& pod, const NodeInfo& node) {
  for (size_t i = 0; i < plugins.size(); ++i) {
    Status s = plugins[i]->Filter(state, pod, node);
    if (s.IsSuccess()) continue;
    if (!s.IsRejected()) {
      s = Status::Error(schedkit::StrCat("running \"", names[i].str(), "\" filter plugin: ", s.Message()));
    }
    s.WithPlugin(names[i]);
    return s;
  }
  return Status();
}

Status Framework::RunPreFilterExtensionAddPod(CycleState& state, const PodInfo& pod, const PodInfo& to_add,
                                              const NodeInfo& node) const {
  const Impl& im = *impl_;
  for (size_t i = 0; i < im.pre_filter.size(); ++i) {
    const PreFilterExtensions* ext = im.pre_filter.plugins[i]->GetPreFilterExtensions();
    if (ext == nullptr || state.skip_filter_plugins().contains(im.pre_filter.names[i])) continue;
    Status s = ext->AddPod(state, pod, to_add, node);
    if (!s.IsSuccess()) {
      return Status::Error(schedkit::StrCat("running AddPod on PreFilter plugin \"", im.pre_filter.names[i].str(),
                                            "\": ", s.Message()));
    }
  }
  return Status();
}

Status Framework::RunPreFilterExtensionRemovePod(CycleState& state, const PodInfo& pod, const PodInfo& to_remove,
                                                 const NodeInfo& node) const {
  const Impl& im = *impl_;
  for (size_t i = 0; i < im.pre_filter.size(); ++i) {
    const PreFilterExtensions* ext = im.pre_filter.plugins[i]->GetPreFilterExtensions();
    if (ext == nullptr || state.skip_filter_plugins().contains(im.pre_filter.names[i])) continue;
    Status s = ext->RemovePod(state, pod, to_remove, node);
    if (!s.IsSuccess()) {
      return Status::Error(schedkit::StrCat("running RemovePod on PreFilter plugin \"",
                                            im.pre_filter.names[i].str(), "\": ", s.Message()));
    }
  }
  return Status();
}

bool Framework::HasActivePreFilterExtensions(const CycleState& state) const {
  if (const ActiveFilterChain* chain = KeptFilterChain(state)) return chain->pre_filter_extensions;
  return ScanPreFilterExtensions(state);
}

std::optional<uint64_t> Framework::PerNodeFilterChain(const CycleState& state) const {
  if (!impl_->memoizes) return std::nullopt;
  std::shared_ptr<const ActiveFilterChain> derived;
  const ActiveFilterChain* chain = KeptFilterChain(state);
  if (chain == nullptr) {
    derived = DeriveFilterChain(state);
    chain = derived.get();
  }
  if (!chain->all_per_node || chain->pre_filter_extensions) return std::nullopt;
  return chain->per_node_mask;
}

bool Framework::ScanPreFilterExtensions(const CycleState& state) const {
  for (Symbol name : impl_->pre_filter_extension_names) {
    if (!state.skip_filter_plugins().contains(name)) return true;
  }
  return false;
}

Status Framework::RunFilterPluginsWithNominatedPods(const CycleState& state, const PodInfo& pod,
                                                    const NodeInfo& node) const {
  // Pass 1 with the nominated pods of equal or higher priority added; pass 2
  // without them, because those pods may never land (e.g. pod affinity could
  // pass only because of them).
  std::span<const PodInfoPtr> nominated;
  std::vector<PodInfoPtr> asked;  // when the cycle has no snapshot
  if (const NominatedPodsSnapshot* snapshot = state.nominated_pods()) {
    nominated = snapshot->ForNode(node.name());
  } else if (options_.nominator != nullptr) {
    asked = options_.nominator->NominatedPodsForNode(node.name());
    nominated = asked;
  }
  if (nominated.empty()) return RunFilterPlugins(state, pod, node);

  // The state is copied only when an extension will change it.
  std::unique_ptr<CycleState> state_copy;
  std::optional<ScratchSimulation> sim;
  for (const PodInfoPtr& p : nominated) {
    if (p->priority() < pod.priority() || p->SameUid(pod)) continue;
    if (!sim) {
      sim.emplace(node);
      if (HasActivePreFilterExtensions(state)) state_copy = state.Clone();
    }
    sim->node().AddPod(ScratchSimulation::Borrow(p));  // the list outlives the copy
    if (state_copy) {
      Status s = RunPreFilterExtensionAddPod(*state_copy, pod, *p, sim->node());
      if (!s.IsSuccess()) return s;
    }
  }
  if (!sim) return RunFilterPlugins(state, pod, node);
  Status first = RunFilterPlugins(state_copy ? *state_copy : state, pod, sim->node());
  if (!first.IsSuccess()) return first;
  return RunFilterPlugins(state, pod, node);
}

PostFilterPlugin::Result Framework::RunPostFilterPlugins(CycleState& state, const PodInfo& pod,
                                                         const NodeToStatus& statuses) {
  const Impl& im = *impl_;
  const PointTimer timer(metrics_, noop_metrics_.get(), ExtensionPoint::kPostFilter, profile_name_);
  PostFilterPlugin::Result out;
  std::vector<Symbol> reason_syms;
  std::vector<std::string> reasons;
  Symbol rejector;
  bool done = false;
  for (size_t i = 0; i < im.post_filter.size() && !done; ++i) {
    const Symbol name = im.post_filter.names[i];
    PostFilterPlugin::Result r = im.post_filter.plugins[i]->PostFilter(state, pod, statuses);
    if (r.status.IsSuccess()) {
      out = std::move(r);
      done = true;
    } else if (r.status.code() == Code::kUnschedulableAndUnresolvable) {
      r.status.WithPlugin(name);
      out = std::move(r);
      done = true;
    } else if (!r.status.IsRejected()) {
      out.nominating_info = NominatingInfo();
      out.status = Status::WithText(Code::kError, r.status.Message());
      out.status.WithPlugin(name);
      done = true;
    } else {
      if (r.nominating_info.mode != NominatingInfo::Mode::kNoop) out.nominating_info = r.nominating_info;
      for (std::string& reason : r.status.Reasons()) reasons.push_back(std::move(reason));
      if (rejector.empty()) rejector = name;
    }
  }
  if (!done) {
    // Every plugin declined: Unschedulable with all their reasons.
    std::string joined;
    for (size_t k = 0; k < reasons.size(); ++k) schedkit::StrAppend(&joined, k ? ", " : "", reasons[k]);
    out.status = reasons.empty() ? Status::WithReasons(Code::kUnschedulable, {})
                                 : Status::WithText(Code::kUnschedulable, std::move(joined));
    out.status.WithPlugin(rejector);
  }
  timer.Done(out.status.code());
  return out;
}

Status Framework::RunPreScorePlugins(CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes) {
  const Impl& im = *impl_;
  const PointTimer timer(metrics_, noop_metrics_.get(), ExtensionPoint::kPreScore, profile_name_);
  auto& skip = state.skip_score_plugins();
  skip.clear();
  Status result;
  for (size_t i = 0; i < im.pre_score.size(); ++i) {
    Status s = im.pre_score.plugins[i]->PreScore(state, pod, nodes);
    if (s.IsSkip()) {
      skip.insert(im.pre_score.names[i]);
      continue;
    }
    if (!s.IsSuccess()) {
      result = Status::Error(
          schedkit::StrCat("running PreScore plugin \"", im.pre_score.names[i].str(), "\": ", s.Message()));
      break;
    }
  }
  timer.Done(result.code());
  return result;
}

Status Framework::RunScorePlugins(const CycleState& state, const PodInfo& pod,
                                  std::span<const NodeInfo* const> nodes, std::vector<int64_t>& totals,
                                  CycleTrace* trace) {
  Impl& im = *impl_;
  const PointTimer timer(metrics_, noop_metrics_.get(), ExtensionPoint::kScore, profile_name_);
  const int n = static_cast<int>(nodes.size());
  // Active plugins this cycle (PreScore may have skipped some).
  std::vector<size_t>& active = im.active_scores;
  active.clear();
  for (size_t i = 0; i < im.score.size(); ++i) {
    if (!state.skip_score_plugins().contains(im.score.names[i])) active.push_back(i);
  }
  if (im.scores.size() < active.size()) im.scores.resize(active.size());
  // Every ScoreNodes writes every entry of its run, so no zeroing here.
  for (size_t a = 0; a < active.size(); ++a) im.scores[a].resize(n);
  // Plugins without NormalizeScore have their final scores once the run is
  // scored: their weighted sum is taken there, while the scores are in the
  // scoring thread's cache, rather than by a later pass on this thread.
  std::vector<size_t>& normalizing = im.normalizing_scores;
  normalizing.clear();
  im.direct_weighted.clear();
  im.normalized_weighted.clear();
  for (size_t a = 0; a < active.size(); ++a) {
    const WeightedScores w{im.scores[a].data(), static_cast<uint64_t>(im.score_weights[active[a]])};
    if (im.score_normalizes[active[a]]) {
      normalizing.push_back(a);
      im.normalized_weighted.push_back(w);
    } else {
      im.direct_weighted.push_back(w);
    }
  }
  totals.resize(n);
  std::atomic<uint64_t> direct_range_bits{0};

  // The memo answers for the per-node plugins on nodes scored unchanged;
  // the other plugins score every node.
  OutcomeMemo::Entry* memo = im.cycle_memo;
  uint64_t per_node_mask = 0;
  bool all_per_node = true;
  for (size_t a = 0; memo != nullptr && a < active.size(); ++a) {
    if (im.score_per_node[active[a]]) {
      per_node_mask |= uint64_t{1} << active[a];
    } else {
      all_per_node = false;
    }
  }
  if (per_node_mask == 0) memo = nullptr;
  const std::span<const int64_t> generations = snapshot_->node_generations();
  const bool memo_decides = memo != nullptr && all_per_node;
  int grain = kNodesPerTask;
  if (memo != nullptr) {
    memo->BeginScores(per_node_mask, im.score.size());
    if (memo_decides && im.KeptTotalsApply() && im.ScoreFromKeptTotals(state, pod, *snapshot_, nodes, totals)) {
      timer.Done(Code::kSuccess);
      return Status();
    }
    im.score_positions.resize(n);
    int misses = 0;
    for (int i = 0; i < n; ++i) {
      im.score_positions[i] = snapshot_->PositionOf(*nodes[i]);
      // Counted only where it can decide the hand-off.
      if (memo_decides) misses += !memo->Scored(im.score_positions[i], generations);
    }
    // As in the filter pass: a few nodes to score are not worth a hand-off.
    if (memo_decides && misses <= kNodesPerTask) grain = n;
  }
  const std::span<const int32_t> positions(im.score_positions.data(), memo != nullptr ? static_cast<size_t>(n) : 0);

  // Score: each task takes a run of nodes and hands it to every active plugin.
  std::atomic<bool> failed{false};
  std::vector<Status>& errors = im.score_errors;
  errors.assign(active.size(), Status());
  parallelizer_->ForRanges(n, grain, [&](int begin, int end) {
    std::array<const NodeInfo*, kNodesPerTask> to_score;  // the run's nodes the memo lacks
    std::array<int32_t, kNodesPerTask> to_score_at;       // and their positions
    std::array<int64_t, kNodesPerTask> fresh;
    // Runs small enough that the plugins after the first find the nodes in
    // the first-level cache (one thread gets the whole range at once).
    for (int rb = begin; rb < end; rb += kNodesPerTask) {
      const int re = std::min(end, rb + kNodesPerTask);
      if (!memo_decides) {
        for (int k = re; k < std::min(end, re + kNodesPerTask); ++k) nodes[k]->Prefetch();
      }
      const std::span<const NodeInfo* const> run = nodes.subspan(rb, re - rb);
      size_t misses = run.size();
      if (memo != nullptr) {
        misses = 0;
        for (size_t k = 0; k < run.size(); ++k) {
          if (memo->Scored(positions[rb + k], generations)) continue;
          to_score[misses] = run[k];
          to_score_at[misses++] = positions[rb + k];
        }
      }
      const std::span<const int32_t> misses_at(to_score_at.data(), memo != nullptr ? misses : 0);
      for (size_t a = 0; a < active.size(); ++a) {
        if (failed.load(std::memory_order_relaxed)) return;
        const ScorePlugin* plugin = im.score.plugins[active[a]];
        const std::span<int64_t> out(im.scores[a].data() + rb, run.size());
        Status s;
        if (memo == nullptr || !im.score_per_node[active[a]]) {
          s = plugin->ScoreNodes(state, pod, run, out);
        } else if (misses == run.size()) {
          s = plugin->ScoreNodes(state, pod, run, out);
          memo->StoreScores(active[a], misses_at, out);
        } else {
          if (misses > 0) {
            s = plugin->ScoreNodes(state, pod, std::span<const NodeInfo* const>(to_score.data(), misses),
                                   std::span<int64_t>(fresh.data(), misses));
            memo->StoreScores(active[a], misses_at, std::span<const int64_t>(fresh.data(), misses));
          }
          const std::span<const int64_t> kept = memo->Scores(active[a]);
          for (size_t k = 0; k < run.size(); ++k) out[k] = kept[positions[rb + k]];
        }
        if (!s.IsSuccess()) {
          if (!failed.exchange(true)) errors[a] = std::move(s);
          return;
        }
      }
      for (int32_t pos : misses_at) memo->SetScored(pos, generations);
      std::fill(totals.begin() + rb, totals.begin() + re, 0);
      const uint64_t bits = AddWeightedScores(im.direct_weighted, rb, re, totals.data());
      if (!ScoresInRange(bits)) direct_range_bits.fetch_or(bits, std::memory_order_relaxed);
    }
  });
  Status result;
  for (size_t a = 0; a < active.size() && failed.load(); ++a) {
    if (errors[a].code() != Code::kSuccess) {
      result = Status::Error(schedkit::StrCat("running Score plugins: plugin \"", im.score.names[active[a]].str(),
                                              "\" failed with: ", errors[a].Message()));
      break;
    }
  }
  if (trace != nullptr && result.IsSuccess()) {
    im.raw_scores.assign(im.scores.begin(), im.scores.begin() + static_cast<long>(active.size()));
  }
  // NormalizeScore: each plugin's call covers all nodes; the plugins run in
  // parallel, as upstream's, and the first failure in plugin order is reported.
  if (result.IsSuccess()) {
    errors.assign(active.size(), Status());
    auto normalize = [&](int k) {
      const size_t a = normalizing[k];
      errors[a] = im.score.plugins[active[a]]->GetScoreExtensions()->NormalizeScore(
          state, pod, nodes, std::span<int64_t>(im.scores[a].data(), n));
    };
    // Spreading a few short passes over threads would cost more than it saves.
    if (n >= kNodesToNormalizeInParallel) {
      parallelizer_->ForEach(static_cast<int>(normalizing.size()), normalize);
    } else {
      for (size_t k = 0; k < normalizing.size(); ++k) normalize(static_cast<int>(k));
    }
    for (size_t a = 0; a < active.size(); ++a) {
      if (errors[a].IsSuccess()) continue;
      result = Status::Error(schedkit::StrCat("running Normalize on Score plugins: plugin \"",
                                              im.score.names[active[a]].str(), "\" failed with: ",
                                              errors[a].Message()));
      break;
    }
  }
  // The normalized plugins' weights and totals, chunk by chunk in parallel,
  // with upstream's range check.
  if (result.IsSuccess()) {
    im.totals_chunks.resize(NumTotalsChunks(n));
    const uint64_t direct_bits = direct_range_bits.load(std::memory_order_relaxed);
    parallelizer_->ForEach(static_cast<int>(im.totals_chunks.size()), [&](int c) {
      im.totals_chunks[c] = SumWeightedScoresChunk(im.normalized_weighted, direct_bits, c, n, totals.data());
    });
    result = CheckScoreRange(im.scores, active, im.score.names, n, im.totals_chunks);
  }
  if (trace != nullptr && result.IsSuccess()) {
    trace->scores.clear();
    for (int i = 0; i < n; ++i) {
      CycleTrace::NodeScore ns;
      ns.node = nodes[i]->name();
      ns.total = totals[i];
      for (size_t a = 0; a < active.size(); ++a) {
        ns.plugins.push_back(CycleTrace::PluginScore{im.score.names[active[a]], im.raw_scores[a][i],
                                                     im.scores[a][i], im.score_weights[active[a]]});
      }
      trace->scores.push_back(std::move(ns));
    }
  }
  timer.Done(result.code());
  return result;
}

Status Framework::RunReservePluginsReserve(CycleState& state, const PodInfo& pod, Symbol node) {
  const Impl& im = *impl_;
  const PointTimer timer(metrics_, noop_metrics_.get(), ExtensionPoint::kReserve, profile_name_);
  Status result;
  for (size_t i = 0; i < im.reserve.size(); ++i) {
    Status s = im.reserve.plugins[i]->Reserve(state, pod, node);
    if (s.IsSuccess()) continue;
    if (s.IsRejected()) {
      result = std::move(s);
    } else {
      result = Status::Error(
          schedkit::StrCat("running Reserve plugin \"", im.reserve.names[i].str(), "\": ", s.Message()));
    }
    result.WithPlugin(im.reserve.names[i]);
    break;
  }
  timer.Done(result.code());
  return result;
}

void Framework::RunReservePluginsUnreserve(CycleState& state, const PodInfo& pod, Symbol node) {
  const Impl& im = *impl_;
  const PointTimer timer(metrics_, noop_metrics_.get(), ExtensionPoint::kUnreserve, profile_name_);
  for (size_t i = im.reserve.size(); i-- > 0;) im.reserve.plugins[i]->Unreserve(state, pod, node);
  timer.Done(Code::kSuccess);
}

Status Framework::RunPermitPlugins(CycleState& state, const PodInfoPtr& pod_ptr, Symbol node) {
  const Impl& im = *impl_;
  const PodInfo& pod = *pod_ptr;
  const PointTimer timer(metrics_, noop_metrics_.get(), ExtensionPoint::kPermit, profile_name_);
  std::vector<std::pair<Symbol, absl::Duration>> waits;
  Status result;
  for (size_t i = 0; i < im.permit.size(); ++i) {
    const Symbol name = im.permit.names[i];
    PermitPlugin::Result r = im.permit.plugins[i]->Permit(state, pod, node);
    if (r.status.IsSuccess()) continue;
    if (r.status.IsRejected()) {
      result = std::move(r.status);
      result.WithPlugin(name);
      waits.clear();
      break;
    }
    if (r.status.IsWait()) {
      waits.emplace_back(name, std::min(r.timeout, kMaxPermitTimeout));
      continue;
    }
    result = Status::Error(schedkit::StrCat("running Permit plugin \"", name.str(), "\": ", r.status.Message()));
    result.WithPlugin(name);
    waits.clear();
    break;
  }
  if (result.IsSuccess() && !waits.empty()) {
    // Park the pod: one timer per waiting plugin rejects it on expiry.
    auto wp = std::make_shared<WaitingPodImpl>(pod_ptr, node);
    std::weak_ptr<WaitingPodImpl> weak = wp;
    for (const auto& [plugin, timeout] : waits) {
      auto timer = options_.clock->AfterFunc(timeout, [weak, plugin = plugin, timeout = timeout] {
        if (auto p = weak.lock()) {
          p->Reject(plugin, schedkit::StrCat("rejected due to timeout after waiting ", GoDuration(timeout),
                                             " at plugin ", plugin.str()));
        }
      });
      wp->AddPending(plugin, std::move(timer));
    }
    {
      std::lock_guard<std::mutex> lock(impl_->waiting_mu);
      impl_->waiting[pod.uid()] = wp;
    }
    result = Status::WithText(Code::kWait, schedkit::StrCat("one or more plugins asked to wait and no plugin "
                                                            "rejected pod \"", pod.name().str(), "\""));
  }
  timer.Done(result.code());
  return result;
}

Status Framework::WaitOnPermit(const PodInfo& pod) {
  std::shared_ptr<WaitingPodImpl> wp;
  {
    std::lock_guard<std::mutex> lock(impl_->waiting_mu);
    auto it = impl_->waiting.find(pod.uid());
    if (it == impl_->waiting.end()) return Status();
    wp = it->second;
  }
  const absl::Time start = options_.clock->Now();
  Status s = wp->Wait();
  {
    std::lock_guard<std::mutex> lock(impl_->waiting_mu);
    impl_->waiting.erase(pod.uid());
  }
  metrics_->ObservePermitWait(CodeName(s.code()), options_.clock->Now() - start);
  if (s.IsSuccess()) return s;
  if (s.IsRejected()) return s;
  Status err = Status::Error(schedkit::StrCat("waiting on permit for pod: ", s.Message()));
  err.WithPlugin(s.plugin());
  return err;
}

void Framework::IterateOverWaitingPods(const std::function<void(WaitingPod&)>& fn) {
  std::vector<std::shared_ptr<WaitingPodImpl>> pods;
  {
    std::lock_guard<std::mutex> lock(impl_->waiting_mu);
    for (auto& [uid, wp] : impl_->waiting) pods.push_back(wp);
  }
  for (auto& wp : pods) fn(*wp);
}

bool Framework::HasWaitingPod(std::string_view uid) const {
  std::lock_guard<std::mutex> lock(impl_->waiting_mu);
  return impl_->waiting.contains(std::string(uid));
}

bool Framework::AllowWaitingPod(std::string_view uid, Symbol plugin) {
  std::shared_ptr<WaitingPodImpl> wp;
  {
    std::lock_guard<std::mutex> lock(impl_->waiting_mu);
    auto it = impl_->waiting.find(std::string(uid));
    if (it == impl_->waiting.end()) return false;
    wp = it->second;
  }
  wp->Allow(plugin);
  return true;
}

bool Framework::RejectWaitingPod(std::string_view uid, std::string message) {
  std::shared_ptr<WaitingPodImpl> wp;
  {
    std::lock_guard<std::mutex> lock(impl_->waiting_mu);
    auto it = impl_->waiting.find(std::string(uid));
    if (it == impl_->waiting.end()) return false;
    wp = it->second;
  }
  wp->Reject(Symbol(), std::move(message));
  return true;
}

Status Framework::RunPreBindPlugins(CycleState& state, const PodInfo& pod, Symbol node) {
  const Impl& im = *impl_;
  const PointTimer timer(metrics_, noop_metrics_.get(), ExtensionPoint::kPreBind, profile_name_);
  Status result;
  for (size_t i = 0; i < im.pre_bind.size(); ++i) {
    Status s = im.pre_bind.plugins[i]->PreBind(state, pod, node);
    if (s.IsSuccess() || s.IsSkip()) continue;
    if (s.IsRejected()) {
      result = std::move(s);
    } else {
      result = Status::Error(
          schedkit::StrCat("running PreBind plugin \"", im.pre_bind.names[i].str(), "\": ", s.Message()));
    }
    result.WithPlugin(im.pre_bind.names[i]);
    break;
  }
  timer.Done(result.code());
  return result;
}

Status Framework::RunBindPlugins(CycleState& state, const PodInfo& pod, Symbol node) {
  const Impl& im = *impl_;
  const PointTimer timer(metrics_, noop_metrics_.get(), ExtensionPoint::kBind, profile_name_);
  Status result = Status::Skip();
  for (size_t i = 0; i < im.bind.size(); ++i) {
    Status s = im.bind.plugins[i]->Bind(state, pod, node);
    if (s.IsSkip()) continue;
    if (s.IsSuccess()) {
      result = Status();
    } else if (s.IsRejected()) {
      result = std::move(s);
      result.WithPlugin(im.bind.names[i]);
    } else {
      result = Status::Error(
          schedkit::StrCat("running Bind plugin \"", im.bind.names[i].str(), "\": ", s.Message()));
      result.WithPlugin(im.bind.names[i]);
    }
    break;
  }
  timer.Done(result.code());
  return result;
}

void Framework::RunPostBindPlugins(CycleState& state, const PodInfo& pod, Symbol node) {
  const Impl& im = *impl_;
  const PointTimer timer(metrics_, noop_metrics_.get(), ExtensionPoint::kPostBind, profile_name_);
  for (PostBindPlugin* p : im.post_bind.plugins) p->PostBind(state, pod, node);
  timer.Done(Code::kSuccess);
}

// ---------------------------------------------------------------- the algorithm

Status Framework::FindNodesThatPassFilters(const CycleState& state, const PodInfo& pod,
                                           std::span<const NodeInfo* const> nodes, int start,
                                           Diagnosis& diagnosis, std::vector<const NodeInfo*>& feasible,
                                           int& processed, CycleTrace* trace) {
  Impl& im = *impl_;
  const int n = static_cast<int>(nodes.size());
  feasible.clear();
  processed = 0;
  if (n == 0) return Status();
  int to_find = NumFeasibleNodesToFind(percentage_of_nodes_to_score_, options_.percentage_of_nodes_to_score, n);
  if (!HasScorePlugins()) to_find = 1;

  if (!HasFilterPlugins()) {
    for (int i = 0; i < to_find; ++i) feasible.push_back(nodes[(start + i) % n]);
    processed = to_find;
    if (trace != nullptr) {
      for (const NodeInfo* node : feasible) trace->filter.push_back({node->name(), Status()});
    }
    return Status();
  }

  // Filter in rounds over the rotated order. Each round evaluates a batch in
  // parallel (results by position); a sequential scan then stops at the
  // to_find-th feasible node, so the outcome equals a one-by-one scan.
  im.node_status.resize(n);
  im.node_passed.resize(n);
  im.run_length.resize(n);
  im.run_passed.resize(n);
  im.run_misses.resize(n);
  const bool with_nominated = state.nominated_pods() != nullptr
                                  ? !state.nominated_pods()->empty()
                                  : options_.nominator != nullptr && options_.nominator->HasNominatedPods();
  // This cycle's filter chain, skips removed once rather than per node.
  std::shared_ptr<const ActiveFilterChain> derived;
  const ActiveFilterChain* chain = KeptFilterChain(state);
  if (chain == nullptr) {
    derived = DeriveFilterChain(state);
    chain = derived.get();
  }
  const std::span<FilterPlugin* const> active = chain->plugins;
  const std::span<const Symbol> active_names = chain->names;
  // The memo answers for the per-node plugins on nodes that passed them
  // unchanged; the other plugins run everywhere.
  OutcomeMemo::Entry* memo = chain->per_node_mask != 0 ? im.cycle_memo : nullptr;
  if (memo != nullptr) memo->BeginFilters(chain->per_node_mask);
  const std::span<const int64_t> generations = snapshot_->node_generations();
  const bool memo_decides = memo != nullptr && chain->all_per_node;
  // The snapshot's own node list (not one PreFilter narrowed): a node's
  // index in it is its snapshot position, so the memo is read by stretches.
  const bool by_position = nodes.data() == snapshot_->nodes().data();
  // Where every active filter is per node and no PreFilter state takes the
  // added pods, the nominated-pods pass depends only on the node and its
  // nominations: the memo keeps its verdict for as long as both stay.
  const NominatedPodsSnapshot* nominations = state.nominated_pods();
  const bool memo_keeps_nominated =
      with_nominated && memo_decides && nominations != nullptr && !chain->pre_filter_extensions;
  if (memo_keeps_nominated) memo->PrepareNominatedVerdicts();
  const bool pod_may_be_nominee = memo_keeps_nominated && nominations->MayList(pod);
  // The pass on a node where it adds nominated pods (from `list`, the
  // node's), read from the memo when memo_keeps_nominated.
  auto kept_nominated_pass = [&](const NodeInfo& node, int position,
                                 const NominatedPodsSnapshot::PodList& list) -> Status {
    // The pod's own nomination is left out of its pass: then the verdict is
    // this pod's alone.
    const auto is_pod = [&](const PodInfoPtr& p) { return p->SameUid(pod); };
    if (pod_may_be_nominee && std::any_of(list->begin(), list->end(), is_pod)) {
      return RunFilterPluginsWithNominatedPods(state, pod, node);
    }
    if (const Status* kept = memo->NominatedVerdict(position, generations, list)) return *kept;
    Status s = RunFilterPluginsWithNominatedPods(state, pod, node);
    if (!s.IsError()) memo->SetNominatedVerdict(position, generations, list, s);
    return s;
  };
  int done = 0;
  int found = 0;
  int batch = std::max(to_find, kNodesPerTask);
  int stop_at = -1;  // position of the to_find-th feasible node
  bool runs_counted = true;  // every run of every round has its counts
  while (done < n && stop_at < 0) {
    const int end = std::min(n, done + batch);
    // A node a task did not reach (after an error) counts as not passing.
    std::fill(im.node_passed.begin() + done, im.node_passed.begin() + end, 0);
    std::atomic<bool> errored{false};
    // When the memo decides nearly every node, handing the round to the
    // other threads costs more than the few nodes left to filter.
    int grain = kNodesPerTask;
    if (memo_decides) {
      int misses = 0;
      if (by_position) {
        // Run by run, each at most two stretches of positions; the runs'
        // counts serve the pass below when one task takes the whole round.
        for (int rb = done; rb < end; rb += kNodesPerTask) {
          const int count = std::min(kNodesPerTask, end - rb);
          const int first = (start + rb) % n;
          const int before_wrap = std::min(count, n - first);
          im.run_misses[rb] = memo->UnpassedIn(first, first + before_wrap, generations) +
                              memo->UnpassedIn(0, count - before_wrap, generations);
          misses += im.run_misses[rb];
        }
      } else {
        for (int pos = done, at = (start + done) % n; pos < end; ++pos, at = at + 1 == n ? 0 : at + 1) {
          misses += !memo->Passed(snapshot_->PositionOf(*nodes[at]), generations);
        }
      }
      if (misses <= kNodesPerTask) grain = end - done;
    }
    // One task runs the round's runs as counted above.
    const bool run_misses_counted = memo_decides && by_position && grain == end - done;
    parallelizer_->ForRanges(end - done, grain, [&](int b, int e) {
      int at = start + done + b;  // index into nodes, wrapped by hand: no division per node
      if (at >= n) at -= n;
      // Each plugin takes a run of nodes at a time, in chain order; a node
      // leaves the run at its first rejection, as in a per-node chain.
      std::array<const NodeInfo*, kNodesPerTask> wrapped;
      // Passing flags, zero past the run so that whole words compare.
      alignas(8) std::array<uint8_t, kNodesPerTask> passing;
      alignas(8) std::array<uint8_t, kNodesPerTask> before;
      // Nodes the nominated-pods pass decides one by one: those where it
      // adds a pod. Elsewhere it equals the plain chain, so they join the run.
      std::array<uint8_t, kNodesPerTask> one_by_one;
      // Each node's nominations list (null without a snapshot).
      std::array<const NominatedPodsSnapshot::PodList*, kNodesPerTask> lists;
      // Nodes the memo passes through the per-node plugins, and every node's
      // snapshot position. Past a short run it may still hold a longer
      // run's flags; they only ever meet passing flags of zero there.
      alignas(8) std::array<uint8_t, kNodesPerTask> hit{};
      std::array<int32_t, kNodesPerTask> position;
      for (int rb = b; rb < e; rb += kNodesPerTask) {
        if (errored.load(std::memory_order_relaxed)) return;
        const int re = std::min(e, rb + kNodesPerTask);
        const size_t count = static_cast<size_t>(re - rb);
        // A run is a stretch of `nodes`, unless it wraps past the end.
        std::span<const NodeInfo* const> run;
        if (at + static_cast<int>(count) <= n) {
          run = nodes.subspan(static_cast<size_t>(at), count);
          // Where the memo passes the whole stretch, nothing else is to do.
          if (memo_decides && by_position && !with_nominated &&
              (run_misses_counted ? im.run_misses[done + rb]
                                  : memo->UnpassedIn(at, at + static_cast<int>(count), generations)) == 0) {
            std::fill_n(im.node_passed.begin() + done + rb, count, 1);
            im.run_length[done + rb] = static_cast<int32_t>(count);
            im.run_passed[done + rb] = static_cast<int32_t>(count);
            at += static_cast<int>(count);
            if (at == n) at = 0;
            continue;
          }
          at += static_cast<int>(count);
          if (at == n) at = 0;
        } else {
          for (size_t k = 0; k < count; ++k, at = at + 1 == n ? 0 : at + 1) wrapped[k] = nodes[at];
          run = std::span<const NodeInfo* const>(wrapped.data(), count);
        }
        // The next run's nodes load while this one is filtered; where the
        // memo decides, few of them are read at all.
        const int next_count = memo_decides ? 0 : std::min(kNodesPerTask, e - re);
        for (int k = 0, ahead = at; k < next_count; ++k, ahead = ahead + 1 == n ? 0 : ahead + 1) {
          nodes[ahead]->Prefetch();
        }
        const std::span<Status> statuses(im.node_status.data() + done + rb, count);
        std::fill(passing.begin(), passing.begin() + count, 1);
        std::fill(passing.begin() + count, passing.end(), 0);
        const size_t words = (count + 7) / 8;
        size_t alive = count;
        bool any_one_by_one = false;
        if (with_nominated) {
          for (size_t k = 0; k < count; ++k) {
            // Without a snapshot the nominator is asked per node, so every
            // node counts.
            lists[k] = nominations != nullptr ? &nominations->ListFor(run[k]->name()) : nullptr;
            one_by_one[k] = lists[k] == nullptr || AddsNominatedPods(*lists[k], pod);
            if (!one_by_one[k]) continue;
            passing[k] = 0;
            --alive;
            any_one_by_one = true;
          }
        }
        size_t alive_misses = alive;  // passing nodes the memo does not pass
        if (memo != nullptr) {
          for (size_t k = 0; k < count; ++k) {
            position[k] = snapshot_->PositionOf(*run[k]);
            hit[k] = passing[k] & static_cast<uint8_t>(memo->Passed(position[k], generations));
            alive_misses -= hit[k];
          }
        }
        for (size_t i = 0; i < active.size() && alive > 0; ++i) {
          // A per-node plugin sees only the nodes the memo does not pass.
          const bool memoized = memo != nullptr && chain->per_node[i];
          if (memoized && alive_misses == 0) continue;
          before = passing;
          if (memoized) {
            for (size_t w = 0; w < words; ++w) {
              uint64_t p = 0;
              uint64_t h = 0;
              std::memcpy(&p, passing.data() + 8 * w, 8);
              std::memcpy(&h, hit.data() + 8 * w, 8);
              p &= ~h;
              std::memcpy(passing.data() + 8 * w, &p, 8);
            }
          }
          active[i]->FilterNodes(state, pod, run,
                                 std::span<uint8_t>(passing.data(), count), statuses);
          // Most runs lose no node to a plugin: compare eight flags at once.
          for (size_t w = 0; w < words; ++w) {
            uint64_t was = 0;
            uint64_t is = 0;
            uint64_t h = 0;
            std::memcpy(&was, before.data() + 8 * w, 8);
            std::memcpy(&is, passing.data() + 8 * w, 8);
            std::memcpy(&h, hit.data() + 8 * w, 8);
            if (memoized) {
              // The hits still alive pass this plugin, as they did before.
              is |= was & h;
              std::memcpy(passing.data() + 8 * w, &is, 8);
            }
            for (uint64_t lost = was & ~is; lost != 0; lost &= lost - 1) {
              const size_t k = 8 * w + static_cast<size_t>(std::countr_zero(lost)) / 8;
              --alive;
              if (!hit[k]) {
                --alive_misses;
                if (memo != nullptr && static_cast<int>(i) > chain->last_per_node) {
                  memo->SetPassed(position[k], generations);
                }
              }
              Status& st = statuses[k];
              if (!st.IsRejected()) {
                st = Status::Error(schedkit::StrCat("running \"", active_names[i].str(),
                                                    "\" filter plugin: ", st.Message()));
                errored.store(true, std::memory_order_relaxed);
              }
              st.WithPlugin(active_names[i]);
            }
          }
        }
        std::copy(passing.begin(), passing.begin() + count, im.node_passed.begin() + done + rb);
        if (memo != nullptr && alive_misses > 0) {
          for (size_t k = 0; k < count; ++k) {
            if (passing[k] && !hit[k]) memo->SetPassed(position[k], generations);
          }
        }
        for (size_t k = 0; any_one_by_one && k < count; ++k) {
          if (!one_by_one[k]) continue;
          if (errored.load(std::memory_order_relaxed)) return;
          Status s = memo_keeps_nominated ? kept_nominated_pass(*run[k], position[k], *lists[k])
                                          : RunFilterPluginsWithNominatedPods(state, pod, *run[k]);
          if (s.IsSuccess()) {
            im.node_passed[done + rb + k] = 1;
          } else {
            if (s.IsError()) errored.store(true, std::memory_order_relaxed);
            statuses[k] = std::move(s);
          }
        }
        int32_t passed = 0;
        for (size_t k = 0; k < count; ++k) passed += im.node_passed[done + rb + k];
        im.run_length[done + rb] = static_cast<int32_t>(count);
        im.run_passed[done + rb] = passed;
      }
    });
    // Without an error in the round, only the passing flags need reading:
    // the statuses of a failing pass over thousands of nodes stay untouched.
    const bool round_errored = errored.load();
    if (round_errored) {
      // A task stopped early: its runs have no counts, so node by node.
      runs_counted = false;
      for (int pos = done; pos < end; ++pos) {
        if (im.node_passed[pos]) {
          if (++found == to_find) {
            stop_at = pos;
            break;
          }
        } else if (im.node_status[pos].IsError()) {
          processed = pos + 1;
          return im.node_status[pos];
        }
      }
    } else {
      for (int pos = done; pos < end; pos += im.run_length[pos]) {
        if (found + im.run_passed[pos] < to_find) {
          found += im.run_passed[pos];
          continue;
        }
        for (int k = pos;; ++k) {
          if (im.node_passed[k] && ++found == to_find) {
            stop_at = k;
            break;
          }
        }
        break;
      }
    }
    done = end;
    batch *= 2;
  }
  const int last = stop_at >= 0 ? stop_at + 1 : n;
  processed = last;
  // Each node of the pass is distinct: into a diagnosis without explicit
  // statuses they go unindexed (NodeToStatus::SetNew).
  const bool fresh_statuses = diagnosis.node_to_status.size() == 0;
  diagnosis.node_to_status.Reserve(diagnosis.node_to_status.size() + static_cast<size_t>(last - found));
  // Rejections mostly come from one plugin in a row: insert it once per row.
  std::optional<Symbol> last_rejector;
  auto collect = [&](int pos, int at) {
    const NodeInfo* node = nodes[at];
    if (im.node_passed[pos]) {
      feasible.push_back(node);
      if (trace != nullptr) trace->filter.push_back({node->name(), Status()});
      return;
    }
    Status& s = im.node_status[pos];
    if (s.code() == Code::kPending) {
      diagnosis.pending_plugins.insert(s.plugin());
    } else if (last_rejector != s.plugin()) {
      diagnosis.unschedulable_plugins.insert(s.plugin());
      last_rejector = s.plugin();
    }
    if (trace != nullptr) trace->filter.push_back({node->name(), s});
    if (fresh_statuses) {
      diagnosis.node_to_status.SetNew(node->name(), std::move(s));
    } else {
      diagnosis.node_to_status.Set(node->name(), std::move(s));
    }
  };
  if (!runs_counted || trace != nullptr) {
    for (int pos = 0, at = start; pos < last; ++pos, at = at + 1 == n ? 0 : at + 1) collect(pos, at);
    return Status();
  }
  // A run whose nodes all passed is a stretch of `nodes` (wrapping at the
  // end): copied whole, without a look at each node.
  for (int pos = 0, at = start; pos < last;) {
    const int len = std::min(im.run_length[pos], last - pos);
    if (im.run_passed[pos] == im.run_length[pos]) {
      const int before_wrap = std::min(len, n - at);
      feasible.insert(feasible.end(), nodes.begin() + at, nodes.begin() + at + before_wrap);
      feasible.insert(feasible.end(), nodes.begin(), nodes.begin() + (len - before_wrap));
      pos += len;
      at = before_wrap == len ? at + len : len - before_wrap;
      if (at == n) at = 0;
    } else {
      for (const int run_end = pos + len; pos < run_end; ++pos, at = at + 1 == n ? 0 : at + 1) collect(pos, at);
    }
  }
  return Status();
}

ScheduleOutcome Framework::SchedulePod(CycleState& state, const PodInfoPtr& pod_ptr, const Snapshot& snap,
                                       SelectionState& selection, CycleTrace* trace) {
  Impl& im = *impl_;
  const PodInfo& pod = *pod_ptr;
  SetSnapshot(&snap);
  // One look at the nominator per cycle; the filter pass and preemption
  // then read nominations per node without its lock.
  if (options_.nominator != nullptr) state.set_nominated_pods(options_.nominator->Snapshot());
  ScheduleOutcome out;
  if (snap.NumNodes() == 0) {
    out.status = Status::WithText(Code::kUnschedulableAndUnresolvable, "no nodes available to schedule pods");
    return out;
  }
  auto fit_error = std::make_unique<FitError>();
  fit_error->pod = pod_ptr;
  fit_error->num_all_nodes = snap.NumNodes();
  Diagnosis& diagnosis = fit_error->diagnosis;

  absl::flat_hash_set<Symbol> narrowing;
  PreFilterPlugin::Result pre = RunPreFilterPlugins(state, pod, &narrowing);
  diagnosis.unschedulable_plugins = narrowing;
  if (!pre.status.IsSuccess()) {
    if (!pre.status.IsRejected()) {
      out.status = pre.status;
      return out;
    }
    diagnosis.pre_filter_msg = pre.status.Message();
    if (pre.status.code() == Code::kPending) {
      diagnosis.pending_plugins.insert(pre.status.plugin());
    } else if (!pre.status.plugin().empty()) {
      diagnosis.unschedulable_plugins.insert(pre.status.plugin());
    }
    if (trace != nullptr) {
      for (const NodeInfo* node : snap.nodes()) trace->filter.push_back({node->name(), pre.status});
    }
    diagnosis.node_to_status.SetAbsentNodesStatus(std::move(pre.status));
    out.status = Status(Code::kUnschedulable, std::initializer_list<Symbol>{});
    out.fit_error = std::move(fit_error);
    return out;
  }

  // The memo serves this cycle's passes only (RunScorePlugins called on its
  // own scores without it). A traced cycle runs every plugin, so that what
  // it records was computed in it.
  struct MemoScope {
    OutcomeMemo::Entry*& entry;
    ~MemoScope() { entry = nullptr; }
  } memo_scope{im.cycle_memo};
  if (im.memoizes && trace == nullptr) im.cycle_memo = &im.memo.For(pod, snap);

  // A node nominated by an earlier preemption is tried alone first.
  const Symbol nominated = pod.nominated_node_name();
  if (!nominated.empty()) {
    if (const NodeInfo* n = snap.Get(nominated)) {
      im.one_node.assign(1, n);
      Diagnosis scratch;
      std::vector<const NodeInfo*> feasible;
      int processed = 0;
      Status s = FindNodesThatPassFilters(state, pod, im.one_node, 0, scratch, feasible, processed, nullptr);
      if (s.IsSuccess() && !feasible.empty()) {
        if (trace != nullptr) trace->filter.push_back({n->name(), Status()});
        out.result = ScheduleResult{n->name(), 1, 1};
        return out;
      }
    }
  }

  std::span<const NodeInfo* const> candidates = snap.nodes();
  if (!pre.result.AllNodes()) {
    // Look up the named nodes (names the snapshot lacks are dropped, as
    // upstream does) and keep them in snapshot order for determinism.
    std::vector<int> positions;
    positions.reserve(pre.result.node_names->size());
    for (Symbol name : *pre.result.node_names) {
      if (const int pos = snap.IndexOf(name); pos >= 0) positions.push_back(pos);
    }
    std::sort(positions.begin(), positions.end());
    im.candidates.clear();
    for (int pos : positions) im.candidates.push_back(snap.nodes()[pos]);
    candidates = im.candidates;
    std::vector<std::string> sorted;
    for (Symbol s : narrowing) sorted.emplace_back(s.str());
    std::sort(sorted.begin(), sorted.end());
    std::string msg = "node(s) didn't satisfy plugin(s) [";
    for (size_t k = 0; k < sorted.size(); ++k) schedkit::StrAppend(&msg, k ? " " : "", sorted[k]);
    msg += "]";
    diagnosis.node_to_status.SetAbsentNodesStatus(Status::WithText(Code::kUnschedulableAndUnresolvable, msg));
    if (trace != nullptr) {
      for (const NodeInfo* n : snap.nodes()) {
        if (!pre.result.node_names->contains(n->name())) {
          trace->filter.push_back({n->name(), diagnosis.node_to_status.absent_status()});
        }
      }
    }
  }

  const PointTimer filter_timer(metrics_, noop_metrics_.get(), ExtensionPoint::kFilter, profile_name_);
  int processed = 0;
  const int start = candidates.empty() ? 0 : selection.next_start_node_index % static_cast<int>(candidates.size());
  Status fs = FindNodesThatPassFilters(state, pod, candidates, start, diagnosis, im.feasible, processed, trace);
  filter_timer.Done(fs.code());
  selection.next_start_node_index = (selection.next_start_node_index + processed) % snap.NumNodes();
  if (!fs.IsSuccess()) {
    out.status = fs;
    return out;
  }
  if (im.feasible.empty()) {
    out.status = Status(Code::kUnschedulable, std::initializer_list<Symbol>{});
    out.fit_error = std::move(fit_error);
    return out;
  }
  if (im.feasible.size() == 1) {
    out.result = ScheduleResult{im.feasible[0]->name(),
                                1 + static_cast<int>(diagnosis.node_to_status.size()), 1};
    return out;
  }

  if (!HasScorePlugins()) {
    im.totals.assign(im.feasible.size(), 1);
    im.totals_chunks.assign(NumTotalsChunks(static_cast<int>(im.feasible.size())), TotalsChunk{1, 0, 0});
    for (size_t c = 0; c < im.totals_chunks.size(); ++c) {
      im.totals_chunks[c].ties =
          std::min<int>(kNodesPerTotalsChunk, static_cast<int>(im.feasible.size() - c * kNodesPerTotalsChunk));
    }
  } else {
    Status s = RunPreScorePlugins(state, pod, im.feasible);
    if (s.IsSuccess()) s = RunScorePlugins(state, pod, im.feasible, im.totals, trace);
    if (!s.IsSuccess()) {
      out.status = s;
      return out;
    }
  }
  out.result = ScheduleResult{SelectHost(im.feasible, im.totals, im.totals_chunks, selection),
                              static_cast<int>(im.feasible.size() + diagnosis.node_to_status.size()),
                              static_cast<int>(im.feasible.size())};
  return out;
}

}  // namespace schedkit::framework
