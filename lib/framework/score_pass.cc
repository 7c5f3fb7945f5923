// The score pass of one cycle: every active Score plugin on runs of the
// feasible nodes in parallel (the outcome memo answering for per-node
// plugins on unchanged nodes), NormalizeScore, and the weighted totals with
// upstream's range check (score_totals.h). Where every active plugin is per
// node, the totals themselves may come from the memo (ScoreFromKeptTotals).
#include <algorithm>
#include <array>
#include <atomic>
#include <numeric>
#include <span>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "framework/framework_impl.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/framework/framework.h"
#include "framework/cycle_bookkeeping.h"
#include "framework/node_info_internals.h"

namespace schedkit::framework {
namespace {

// Below this many nodes the plugins' NormalizeScore calls run one after another.
constexpr int kNodesToNormalizeInParallel = 1024;

}  // namespace

// Whether this cycle's totals can come from the memo: every active score
// plugin is per node and each normalizing one normalizes by maximum, so a
// node's total depends on its own raw scores and the columns' maxima alone.
bool Framework::Impl::KeptTotalsApply() const {
  return std::all_of(active_scores.begin(), active_scores.end(), [&](size_t a) {
    return cycle_score_per_node[a] && (!score_normalizes[a] || score_by_maximum[a].has_value());
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

  SummarizeTotals(totals, totals_chunks);
  return true;
}

void Framework::Impl::ActiveScorePlugins(const CycleState& state, std::vector<size_t>& active) const {
  active.clear();
  for (size_t i = 0; i < score.size(); ++i) {
    if (!CycleBookkeeping::SkipScore(state).contains(score.names[i])) active.push_back(i);
  }
}

Status Framework::RunScorePlugins(const CycleState& state, const PodInfo& pod,
                                  std::span<const NodeInfo* const> nodes, std::vector<int64_t>& totals,
                                  CycleTrace* trace) {
  Impl& im = *impl_;
  const PointTimer timer(impl_->metrics, impl_->noop_metrics.get(), ExtensionPoint::kScore, impl_->profile_name);
  const int n = static_cast<int>(nodes.size());
  // Active plugins this cycle (PreScore may have skipped some).
  std::vector<size_t>& active = im.active_scores;
  im.ActiveScorePlugins(state, active);
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
  im.cycle_score_per_node = im.score_per_node;
  for (size_t a = 0; memo != nullptr && a < active.size(); ++a) {
    const size_t p = active[a];
    if (!im.score_per_node[p] && im.score.plugins[p]->OutcomesArePerNodeFor(pod)) im.cycle_score_per_node[p] = 1;
    if (im.cycle_score_per_node[p]) {
      per_node_mask |= uint64_t{1} << active[a];
    } else {
      all_per_node = false;
    }
  }
  if (per_node_mask == 0) memo = nullptr;
  const std::span<const int64_t> generations = impl_->snapshot->node_generations();
  const bool memo_decides = memo != nullptr && all_per_node;
  int grain = kNodesPerTask;
  if (memo != nullptr) {
    memo->BeginScores(per_node_mask, im.score.size());
    if (im.options.check_per_node_outcomes) im.CheckKeptScores(state, pod, nodes, active);
    // The kept totals carry no raw scores, which a batch's ranking keeps.
    if (memo_decides && !im.keep_raw_scores && im.KeptTotalsApply() &&
        im.ScoreFromKeptTotals(state, pod, *impl_->snapshot, nodes, totals)) {
      timer.Done(Code::kSuccess);
      return Status();
    }
    im.score_positions.resize(n);
    int misses = 0;
    for (int i = 0; i < n; ++i) {
      im.score_positions[i] = impl_->snapshot->PositionOf(*nodes[i]);
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
  impl_->parallelizer->ForRanges(n, grain, [&](int begin, int end) {
    std::array<const NodeInfo*, kNodesPerTask> to_score;  // the run's nodes the memo lacks
    std::array<int32_t, kNodesPerTask> to_score_at;       // and their positions
    std::array<int64_t, kNodesPerTask> fresh;
    // Runs small enough that the plugins after the first find the nodes in
    // the first-level cache (one thread gets the whole range at once).
    for (int rb = begin; rb < end; rb += kNodesPerTask) {
      const int re = std::min(end, rb + kNodesPerTask);
      if (!memo_decides) {
        for (int k = re; k < std::min(end, re + kNodesPerTask); ++k) PrefetchHotLines(*nodes[k]);
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
        if (memo == nullptr || !im.cycle_score_per_node[active[a]]) {
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
  if ((trace != nullptr || im.keep_raw_scores) && result.IsSuccess()) {
    im.raw_scores.resize(active.size());
    for (size_t a = 0; a < active.size(); ++a) im.raw_scores[a].assign(im.scores[a].begin(), im.scores[a].begin() + n);
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
      impl_->parallelizer->ForEach(static_cast<int>(normalizing.size()), normalize);
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
    impl_->parallelizer->ForEach(static_cast<int>(im.totals_chunks.size()), [&](int c) {
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

}  // namespace schedkit::framework
