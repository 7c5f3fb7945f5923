// Opportunistic batching as upstream v1.37 runs it (framework/runtime/
// batch.go and the calls in schedule_one.go): a signed pod whose cycle
// follows the previous one's directly, with the same signature, within
// kMaxBatchAge, is offered the best node of the previous cycle's ranking as
// a hint, after the node chosen last is filtered again and, if it still
// fits, re-scored and put back into the ranking.
#include <algorithm>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "framework/framework_impl.h"
#include "framework/opportunistic_batch.h"
#include "schedkit/framework/framework.h"

namespace schedkit::framework {
namespace {

// container/heap's down: sifts heap[i] down within heap[0, n).
void GoHeapDown(std::vector<RankedNode>& heap, size_t i, size_t n) {
  for (;;) {
    const size_t left = 2 * i + 1;
    if (left >= n) return;
    size_t j = left;
    if (const size_t right = left + 1; right < n && RanksBefore(heap[right], heap[left])) j = right;
    if (!RanksBefore(heap[j], heap[i])) return;
    std::swap(heap[i], heap[j]);
    i = j;
  }
}

}  // namespace

void GoHeapInit(std::vector<RankedNode>& heap) {
  const size_t n = heap.size();
  for (size_t i = n / 2; i-- > 0;) GoHeapDown(heap, i, n);
}

void GoHeapPush(std::vector<RankedNode>& heap, const RankedNode& node) {
  heap.push_back(node);
  // container/heap's up.
  for (size_t i = heap.size() - 1; i > 0;) {
    const size_t parent = (i - 1) / 2;
    if (!RanksBefore(heap[i], heap[parent])) return;
    std::swap(heap[i], heap[parent]);
    i = parent;
  }
}

RankedNode GoHeapPop(std::vector<RankedNode>& heap) {
  const size_t n = heap.size() - 1;
  std::swap(heap[0], heap[n]);
  GoHeapDown(heap, 0, n);
  RankedNode top = heap.back();
  heap.pop_back();
  return top;
}

const std::string* Framework::Impl::SignPod(const PodInfo& pod) {
  // Alike pods come in runs (a Job's, a Deployment's): the previous pod's
  // answer holds for a pod with its namespace, labels and spec
  // (SignPlugin's contract). A bound pod has no spec signature to compare.
  const std::shared_ptr<const PodSignature>& spec = pod.signature();
  if (spec != nullptr && last_signed.spec != nullptr &&
      (spec == last_signed.spec || *spec == *last_signed.spec) && pod.labels() == last_signed.labels) {
    return last_signed.signature ? &*last_signed.signature : nullptr;
  }
  last_signed.spec = spec;
  last_signed.labels = pod.labels();
  last_signed.signature.reset();
  sign_builder.Clear();
  for (size_t i = 0; i < signers.size(); ++i) {
    const Status s = signers[i]->SignPod(pod, sign_builder);
    if (s.IsSuccess()) continue;
    // Most often the next pod is declined by the same plugin, which is then
    // the only one asked (the default profile's PodTopologySpread declines
    // every pod).
    std::rotate(signers.begin(), signers.begin() + static_cast<long>(i), signers.begin() + static_cast<long>(i) + 1);
    return nullptr;
  }
  sign_builder.Add(kSchedulerNameSigner, pod.scheduler_name().str());
  last_signed.signature = sign_builder.Finish();
  return &*last_signed.signature;
}

Symbol Framework::Impl::GetNodeHint(CycleState& state, const PodInfo& pod, const std::string* signature,
                                    int64_t cycle) {
  // Whether the kept ranking applies to this pod (upstream's
  // batchStateCompatible): the previous cycle stored it, the pod was not
  // nominated by a preemption, and it signs as the ranking's pod did.
  if (batch.Empty() || cycle != batch.last_cycle + 1 || !pod.nominated_node_name().empty() ||
      signature == nullptr || *signature != batch.signature ||
      options.batch_clock->Now() > batch.created + kMaxBatchAge) {
    return Symbol();
  }
  const NodeInfo* last = snapshot->Get(batch.last_chosen);
  if (last == nullptr) return Symbol();
  // The node chosen last: when the pod fits there too, it competes again with
  // fresh scores; when it no longer fits (one pod per node, the usual case
  // of a batch) the ranking's next node is the hint.
  const Status fits = self->RunFilterPlugins(state, pod, *last);
  if (fits.IsSuccess()) {
    if (!RescoreLastChosen(state, pod, *last)) return Symbol();
  } else if (!fits.IsRejected()) {
    return Symbol();
  }
  const RankedNode top = GoHeapPop(batch.heap);
  batch.last_row = top.row;
  return top.name;
}

bool Framework::Impl::RescoreLastChosen(CycleState& state, const PodInfo& pod, const NodeInfo& last) {
  // Every candidate, in the heap's order, then the last chosen node.
  std::vector<const NodeInfo*>& nodes = batch_nodes;
  nodes.clear();
  const std::span<const NodeInfo* const> all = snapshot->nodes();
  const bool same_layout = batch.layout_id == snapshot->layout_id();
  for (const RankedNode& r : batch.heap) {
    // The same layout keeps every position's node (Snapshot::layout_id).
    const NodeInfo* n = same_layout && r.position >= 0 && static_cast<size_t>(r.position) < all.size()
                            ? all[r.position]
                            : snapshot->Get(r.name);
    if (n == nullptr) return false;
    nodes.push_back(n);
  }
  nodes.push_back(&last);
  // PreScore sees the whole candidate set; its writes stay in the copy.
  std::unique_ptr<CycleState> rescore_state = state.Clone();
  if (!self->RunPreScorePlugins(*rescore_state, pod, nodes).IsSuccess()) return false;

  RankedNode again{last.name(), 0, 0, batch.AddRow(), snapshot->PositionOf(last)};
  std::vector<size_t>& active = batch_active;
  ActiveScorePlugins(*rescore_state, active);
  // The last normalization still holds when it covered these nodes with
  // the same active plugins, and every normalizing column scales by its
  // maximum alone and gets the node's earlier raw score again: every other
  // node keeps its total, and this one keeps its normalized part.
  bool unchanged = batch.normalized_count == nodes.size() && batch.active == active && batch.last_row >= 0;
  int64_t plain_total = 0;
  const NodeInfo* one[] = {&last};
  for (size_t a : active) {
    int64_t s = 0;
    if (!score.plugins[a]->ScoreNodes(*rescore_state, pod, one, std::span<int64_t>(&s, 1)).IsSuccess()) return false;
    batch.Row(again.row)[a] = s;
    if (!score_normalizes[a]) {
      plain_total += s * score_weights[a];
    } else if (unchanged) {
      unchanged = score_by_maximum[a].has_value() && batch.Row(batch.last_row)[a] == s;
    }
    if (!score_normalizes[a] && (s < kMinNodeScore || s > kMaxNodeScore)) return false;
  }
  if (!same_layout) {
    for (size_t i = 0; i < batch.heap.size(); ++i) batch.heap[i].position = snapshot->PositionOf(*nodes[i]);
    batch.layout_id = snapshot->layout_id();
  }
  if (unchanged) {
    batch.normalized_part[again.row] = batch.normalized_part[batch.last_row];
    again.total = plain_total + batch.normalized_part[again.row];
    GoHeapPush(batch.heap, again);
    return true;
  }
  batch.heap.push_back(again);
  return NormalizeRanking(*rescore_state, pod, nodes, active);
}

bool Framework::Impl::NormalizeRanking(const CycleState& state, const PodInfo& pod,
                                       std::span<const NodeInfo* const> nodes, std::span<const size_t> active) {
  // Every candidate's total again, each plugin normalizing over all of
  // them. The rows lie in ranking order, scattered: one pass gathers the
  // active columns, each then contiguous for its NormalizeScore.
  const size_t n = batch.heap.size();
  const size_t k = active.size();
  std::vector<int64_t>& columns = batch_columns;
  columns.resize(n * k);
  for (size_t i = 0; i < n; ++i) {
    const std::span<const int64_t> row = batch.Row(batch.heap[i].row);
    for (size_t c = 0; c < k; ++c) columns[c * n + i] = row[active[c]];
  }
  std::vector<int64_t>& totals = batch_totals;
  totals.assign(n, 0);
  std::vector<int64_t>& normalized = batch_normalized;
  normalized.assign(n, 0);
  for (size_t c = 0; c < k; ++c) {
    const size_t a = active[c];
    const std::span<int64_t> column(columns.data() + c * n, n);
    if (score_normalizes[a] &&
        !score.plugins[a]->GetScoreExtensions()->NormalizeScore(state, pod, nodes, column).IsSuccess()) {
      return false;
    }
    const int64_t weight = score_weights[a];
    bool in_range = true;
    for (size_t i = 0; i < n; ++i) {
      in_range &= column[i] >= kMinNodeScore && column[i] <= kMaxNodeScore;
      totals[i] += column[i] * weight;
    }
    if (!in_range) return false;
    if (score_normalizes[a]) {
      for (size_t i = 0; i < n; ++i) normalized[i] += column[i] * weight;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    batch.heap[i].total = totals[i];
    batch.normalized_part[batch.heap[i].row] = normalized[i];
  }
  batch.active.assign(active.begin(), active.end());
  batch.normalized_count = n;
  GoHeapInit(batch.heap);
  return true;
}

Symbol Framework::Impl::RankFeasible(std::span<const NodeInfo* const> feasible, std::span<const int64_t> totals,
                                     SelectionState& selection, bool with_raw_scores) {
  const size_t n = feasible.size();
  ranking.resize(n);
  // Ties go to the lowest name, or at random, as SelectHost breaks them;
  // upstream's re-scored node has randomizer 0, below every other.
  std::vector<int32_t> by_name;
  if (selection.tie_break == TieBreak::kLowestName) {
    by_name.resize(n);
    std::iota(by_name.begin(), by_name.end(), 0);
    std::sort(by_name.begin(), by_name.end(),
              [&](int32_t a, int32_t b) { return feasible[a]->name().str() < feasible[b]->name().str(); });
  }
  for (size_t i = 0; i < n; ++i) {
    ranking[i] = RankedNode{feasible[i]->name(), totals[i], 0, static_cast<int32_t>(i),
                            static_cast<int32_t>(snapshot->PositionOf(*feasible[i]))};
    if (by_name.empty()) ranking[i].randomizer = static_cast<int64_t>(selection.rng() >> 1) + 1;
  }
  for (size_t k = 0; k < by_name.size(); ++k) ranking[by_name[k]].randomizer = static_cast<int64_t>(n - k);
  // The raw scores by node, one column per Score plugin of the profile.
  const size_t columns = score.size();
  ranking_raw.assign(n * columns, 0);
  if (with_raw_scores) {
    for (size_t a = 0; a < active_scores.size(); ++a) {
      for (size_t i = 0; i < n; ++i) ranking_raw[i * columns + active_scores[a]] = raw_scores[a][i];
    }
  }
  // What the normalizing columns gave each total, for RescoreLastChosen.
  ranking_normalized_part.clear();
  if (with_raw_scores) {
    ranking_normalized_part.assign(totals.begin(), totals.end());
    for (size_t a : active_scores) {
      if (score_normalizes[a]) continue;
      for (size_t i = 0; i < n; ++i) ranking_normalized_part[i] -= ranking_raw[i * columns + a] * score_weights[a];
    }
  }
  GoHeapInit(ranking);
  const RankedNode top = GoHeapPop(ranking);
  ranking_top_row = top.row;
  return top.name;
}

void Framework::Impl::StoreScheduleResults(const std::string* signature, Symbol hinted, Symbol chosen, bool ranked,
                                           int64_t cycle) {
  batch.last_cycle = cycle;
  batch.last_chosen = chosen;
  if (!hinted.empty() && hinted == chosen) {
    // The ranking served: keep it for the next pod.
    ++batch.batched_pods;
    return;
  }
  if (signature == nullptr || !ranked || ranking.empty()) {
    batch.Clear();
    return;
  }
  batch.signature = *signature;
  const bool normalized_known = !ranking_normalized_part.empty();
  batch.heap.swap(ranking);
  batch.raw.swap(ranking_raw);
  batch.columns = score.size();
  batch.last_row = ranking_top_row;
  batch.normalized_part.swap(ranking_normalized_part);
  batch.normalized_part.resize(batch.heap.size() + 1, 0);
  batch.active = active_scores;
  batch.normalized_count = normalized_known ? batch.heap.size() + 1 : 0;
  batch.layout_id = snapshot->layout_id();
  batch.created = options.batch_clock->Now();
}

}  // namespace schedkit::framework
