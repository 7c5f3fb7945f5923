// MaximumNormalization: upstream's helper.DefaultNormalizeScore, the
// NormalizeScore most score plugins use, as a value a plugin can name
// (ScoreExtensions::NormalizesByMaximum) so that the framework knows a
// node's normalized score from its raw score and the column's maximum.
#ifndef SCHEDKIT_FRAMEWORK_NORMALIZE_SCORE_H_
#define SCHEDKIT_FRAMEWORK_NORMALIZE_SCORE_H_

#include <algorithm>
#include <cstdint>
#include <span>

#include "schedkit/framework/status.h"

namespace schedkit::framework {

// Scales scores to [0, max_priority] by the column's highest score;
// `reverse` flips them (max_priority − s). All-zero columns stay 0, or
// become max_priority when reversed.
struct MaximumNormalization {
  int64_t max_priority = kMaxNodeScore;
  bool reverse = false;

  // The maximum the scaling divides by: the column's, but at least 0.
  static int64_t ColumnMaximum(std::span<const int64_t> scores) {
    // Often every score is 0 (no taints, no preferred terms, no claims): an
    // OR over the column, which vectorizes, finds that before the running max.
    uint64_t any = 0;
    for (int64_t s : scores) any |= static_cast<uint64_t>(s);
    int64_t column_max = 0;
    if (any != 0) {
      for (int64_t s : scores) column_max = std::max(column_max, s);
    }
    return column_max;
  }

  // One score of a column whose ColumnMaximum is `column_max`.
  int64_t Apply(int64_t score, int64_t column_max) const {
    if (column_max == 0) return reverse ? max_priority : score;
    const int64_t scaled = max_priority * score / column_max;
    return reverse ? max_priority - scaled : scaled;
  }

  // The whole column in place: what a NormalizeScore of this kind does.
  void Apply(std::span<int64_t> scores) const {
    const int64_t column_max = ColumnMaximum(scores);
    if (column_max == 0) {
      if (reverse) std::fill(scores.begin(), scores.end(), max_priority);
      return;
    }
    for (int64_t& s : scores) s = Apply(s, column_max);
  }
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_NORMALIZE_SCORE_H_
