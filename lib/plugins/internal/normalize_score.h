// Internal: upstream's helper.DefaultNormalizeScore, shared by score plugins.
#ifndef SCHEDKIT_LIB_PLUGINS_INTERNAL_NORMALIZE_SCORE_H_
#define SCHEDKIT_LIB_PLUGINS_INTERNAL_NORMALIZE_SCORE_H_

#include <algorithm>
#include <cstdint>
#include <span>

namespace schedkit::plugins::internal {

// Scales scores to [0, max_priority] by the highest score; `reverse` flips
// them (max_priority − s). All-zero scores stay 0, or become max_priority
// when reversed.
inline void DefaultNormalizeScore(int64_t max_priority, bool reverse, std::span<int64_t> scores) {
  // Often every score is 0 (no taints, no preferred terms, no claims): an
  // OR over the column, which vectorizes, finds that before the running max.
  uint64_t any = 0;
  for (int64_t s : scores) any |= static_cast<uint64_t>(s);
  int64_t max_count = 0;
  if (any != 0) {
    for (int64_t s : scores) max_count = std::max(max_count, s);
  }
  if (max_count == 0) {
    if (reverse) std::fill(scores.begin(), scores.end(), max_priority);
    return;
  }
  for (int64_t& s : scores) {
    s = max_priority * s / max_count;
    if (reverse) s = max_priority - s;
  }
}

}  // namespace schedkit::plugins::internal

#endif  // SCHEDKIT_LIB_PLUGINS_INTERNAL_NORMALIZE_SCORE_H_
