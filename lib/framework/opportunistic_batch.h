// Internal to the framework: what opportunistic batching keeps between two
// cycles of one profile (upstream's OpportunisticBatch, framework/runtime/
// batch.go, v1.37): the ranking of the nodes a signed pod's cycle scored, less
// the node it chose, and which cycle chose which node. The framework's
// GetNodeHint and StoreScheduleResults (opportunistic_batch.cc) drive it.
//
// The ranking is a max-heap laid out exactly as Go's container/heap lays out
// upstream's sortedNodeScores: nodes with equal totals and randomizers (the
// re-scored node always has randomizer 0) then pop in the same order as
// upstream's.
#ifndef SCHEDKIT_LIB_FRAMEWORK_OPPORTUNISTIC_BATCH_H_
#define SCHEDKIT_LIB_FRAMEWORK_OPPORTUNISTIC_BATCH_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "schedkit/base/symbol.h"

namespace schedkit::framework {

// One scored node of a ranking; its raw scores are row `row` of the
// ranking's table (one column per Score plugin of the profile, 0 where the
// plugin did not score it).
struct RankedNode {
  Symbol name;
  int64_t total = 0;
  int64_t randomizer = 0;
  int32_t row = 0;
  // The node's place in the snapshot's nodes() when the ranking was made
  // (OpportunisticBatch::layout_id), so a re-score finds it without a lookup.
  int32_t position = -1;
};

// Upstream's order: higher total first, then higher randomizer.
inline bool RanksBefore(const RankedNode& a, const RankedNode& b) {
  return a.total > b.total || (a.total == b.total && a.randomizer > b.randomizer);
}

// container/heap's Init, Push and Pop over `heap`, with RanksBefore as Less.
// RanksBefore is a strict weak order, so Init over a heap with one node
// appended lays it out as Push does: a re-score that changes no other
// node's total may push instead of rebuilding.
void GoHeapInit(std::vector<RankedNode>& heap);
void GoHeapPush(std::vector<RankedNode>& heap, const RankedNode& node);
RankedNode GoHeapPop(std::vector<RankedNode>& heap);

// Upstream keeps a ranking at most this long.
inline constexpr absl::Duration kMaxBatchAge = absl::Milliseconds(500);

struct OpportunisticBatch {
  // The ranking, valid while `heap` is non-empty.
  std::string signature;
  std::vector<RankedNode> heap;
  std::vector<int64_t> raw;  // row-major, `columns` per row
  size_t columns = 0;
  // The snapshot layout the heap's positions refer to.
  int64_t layout_id = -1;
  absl::Time created;

  // The last cycle that stored results, and the node it chose; `last_row`
  // is that node's row (the ranking's top when it came off).
  int64_t last_cycle = -1;
  Symbol last_chosen;
  int32_t last_row = -1;

  // What the last normalization over the ranking's nodes left, so that a
  // re-score which changes no normalized column skips the pass over every
  // node: by row, the weighted sum of the normalized scores of the
  // normalizing `active` columns; how many nodes it normalized over (0 when
  // unknown, as after a ranking made without raw scores).
  std::vector<int64_t> normalized_part;
  std::vector<size_t> active;
  size_t normalized_count = 0;

  // Pods that took their hint: upstream's batchedPods, for tests and benches.
  int64_t batched_pods = 0;

  bool Empty() const { return heap.empty(); }
  void Clear() {
    signature.clear();
    heap.clear();
    raw.clear();
    normalized_part.clear();
    normalized_count = 0;
    last_row = -1;
  }
  std::span<int64_t> Row(int32_t row) { return std::span<int64_t>(raw.data() + row * columns, columns); }
  // Appends a zeroed row and returns its index.
  int32_t AddRow() {
    if (columns == 0) return 0;
    raw.resize(raw.size() + columns, 0);
    normalized_part.resize(raw.size() / columns, 0);
    return static_cast<int32_t>(raw.size() / columns) - 1;
  }
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_LIB_FRAMEWORK_OPPORTUNISTIC_BATCH_H_
