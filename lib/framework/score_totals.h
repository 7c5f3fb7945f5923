// Internal to the framework: the tail of the score pass. The active plugins'
// columns are summed with their weights into one total per node, upstream's
// range check runs over them, and the host is chosen among the top totals.
// Totals are summarized in chunks of kNodesPerTotalsChunk nodes (top total,
// its ties, the OR of the range bits), so the sums run chunk by chunk in
// parallel and SelectHost reads one chunk's nodes only.
//
//   TotalsChunk c = SumWeightedScoresChunk(normalized, direct_bits, chunk, n, totals);
//   if (Status s = CheckScoreRange(scores, active, names, n, chunks); !s.IsSuccess()) ...
//   Symbol host = SelectHost(nodes, totals, chunks, selection);
//
// Pure functions of their arguments; any thread.
#ifndef SCHEDKIT_LIB_FRAMEWORK_SCORE_TOTALS_H_
#define SCHEDKIT_LIB_FRAMEWORK_SCORE_TOTALS_H_

#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "schedkit/base/symbol.h"
#include "schedkit/framework/framework.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/status.h"

namespace schedkit::framework {

// Nodes per chunk of totals.
inline constexpr int kNodesPerTotalsChunk = 512;

inline constexpr int NumTotalsChunks(int n) { return (n + kNodesPerTotalsChunk - 1) / kNodesPerTotalsChunk; }

// Range check by OR: with u = score - kMinNodeScore (unsigned, so scores
// below the range wrap far above it) and M the range's span rounded up to
// 2^k - 1, u | (u + (M - span)) stays within M exactly when u <= span. An OR
// over many scores vectorizes where a running max of 64-bit values does not.
inline constexpr uint64_t kScoreSpan = static_cast<uint64_t>(kMaxNodeScore - kMinNodeScore);
inline constexpr uint64_t kScoreSpanMask = std::bit_ceil(kScoreSpan + 1) - 1;
inline constexpr uint64_t kScoreSpanPad = kScoreSpanMask - kScoreSpan;
inline constexpr bool ScoresInRange(uint64_t range_bits) { return (range_bits & ~kScoreSpanMask) == 0; }
static_assert(ScoresInRange(kScoreSpan | (kScoreSpan + kScoreSpanPad)));
static_assert(!ScoresInRange((kScoreSpan + 1) | (kScoreSpan + 1 + kScoreSpanPad)));
static_assert(!ScoresInRange(~uint64_t{0} | (~uint64_t{0} + kScoreSpanPad)));

struct TotalsChunk {
  int64_t top = 0;
  int ties = 0;
  // The OR of the chunk's range bits (see ScoresInRange).
  uint64_t range_bits = 0;
};

// One plugin's scores for this cycle with its weight, for the weighted sums.
struct WeightedScores {
  const int64_t* scores;
  uint64_t weight;
};

// Adds Σ weight × score over `plugins` to totals[begin, end), two plugins per
// pass over the nodes, in unsigned arithmetic so that an out-of-range score
// cannot overflow before the range check rejects it. Returns the OR of the
// scores' range bits (see ScoresInRange).
uint64_t AddWeightedScores(std::span<const WeightedScores> plugins, int begin, int end, int64_t* totals);

// Completes totals for chunk c: the Score pass already summed the plugins
// without NormalizeScore (`direct_range_bits` are their scores'); this adds
// the normalized ones and summarizes the chunk.
TotalsChunk SumWeightedScoresChunk(std::span<const WeightedScores> normalized, uint64_t direct_range_bits, int c,
                                   int n, int64_t* totals);

// Summarizes finished totals (top and ties per chunk, no range bits) into
// `chunks`, resized to fit.
void SummarizeTotals(std::span<const int64_t> totals, std::vector<TotalsChunk>& chunks);

// Upstream's range check: a score outside [kMinNodeScore, kMaxNodeScore]
// is an error naming the first such plugin (in order) and its first such
// node. `scores[k]` is the column of plugin names[active[k]].
Status CheckScoreRange(std::span<const std::vector<int64_t>> scores, std::span<const size_t> active,
                       std::span<const Symbol> names, int n, std::span<const TotalsChunk> chunks);

// The host among the nodes with the top total: uniform over the ties, as
// upstream's reservoir sampling, with one draw (the k-th tie in node order),
// or the lowest name. `chunks` summarize `totals` chunk by chunk.
Symbol SelectHost(std::span<const NodeInfo* const> nodes, std::span<const int64_t> totals,
                  std::span<const TotalsChunk> chunks, SelectionState& selection);

}  // namespace schedkit::framework

#endif  // SCHEDKIT_LIB_FRAMEWORK_SCORE_TOTALS_H_
