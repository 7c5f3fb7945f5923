#include "framework/score_totals.h"

#include <algorithm>
#include <random>

#include "framework/vector_clones.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::framework {
namespace {

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

}  // namespace

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

void SummarizeTotals(std::span<const int64_t> totals, std::vector<TotalsChunk>& chunks) {
  const int n = static_cast<int>(totals.size());
  chunks.resize(NumTotalsChunks(n));
  for (size_t c = 0; c < chunks.size(); ++c) {
    const int begin = static_cast<int>(c) * kNodesPerTotalsChunk;
    const int end = std::min(n, begin + kNodesPerTotalsChunk);
    chunks[c].top = TopTotal(totals.data(), begin, end);
    chunks[c].ties = CountTies(totals.data(), chunks[c].top, begin, end);
    chunks[c].range_bits = 0;
  }
}

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

}  // namespace schedkit::framework
