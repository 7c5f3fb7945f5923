// MaximumNormalization: upstream's DefaultNormalizeScore, column by column and
// score by score.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "schedkit/framework/normalize_score.h"

namespace schedkit::framework {
namespace {

// Upstream: pkg/scheduler/framework/plugins/helper/normalize_score_test.go, TestDefaultNormalizeScore.
TEST_CASE("MaximumNormalization: upstream's DefaultNormalizeScore table", "[framework][normalize]") {
  struct Case {
    bool reverse;
    std::vector<int64_t> scores, expected;
  };
  const std::vector<Case> cases = {
      {false, {1, 2, 3, 4}, {25, 50, 75, 100}},
      {true, {1, 2, 3, 4}, {75, 50, 25, 0}},
      {false, {1000, 10, 20, 30}, {100, 1, 2, 3}},
      {true, {1000, 10, 20, 30}, {0, 99, 98, 97}},
      {false, {1, 1, 1, 1}, {100, 100, 100, 100}},
      {false, {1000, 1, 1, 1}, {100, 0, 0, 0}},
      {true, {0, 1, 1, 1}, {100, 0, 0, 0}},
      // All zero: unchanged, or the top score when reversed.
      {false, {0, 0, 0}, {0, 0, 0}},
      {true, {0, 0, 0}, {100, 100, 100}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO("case " << i);
    std::vector<int64_t> scores = cases[i].scores;
    MaximumNormalization{kMaxNodeScore, cases[i].reverse}.Apply(scores);
    CHECK(scores == cases[i].expected);
  }
}

TEST_CASE("MaximumNormalization: one score from the column's maximum equals the column's pass",
          "[framework][normalize]") {
  // What the framework's kept totals rely on, negative scores included
  // (the maximum is never below 0).
  std::mt19937_64 rng(7);
  for (int round = 0; round < 500; ++round) {
    const bool reverse = round % 2 == 1;
    const MaximumNormalization norm{kMaxNodeScore, reverse};
    std::vector<int64_t> raw(1 + rng() % 16);
    const int64_t spread = round % 5 == 0 ? 1 : 1000;
    for (int64_t& s : raw) s = static_cast<int64_t>(rng() % (2 * spread + 1)) - (round % 3 == 0 ? spread : 0);
    std::vector<int64_t> column = raw;
    norm.Apply(column);
    const int64_t column_max = MaximumNormalization::ColumnMaximum(raw);
    CHECK(column_max >= 0);
    for (size_t i = 0; i < raw.size(); ++i) {
      INFO("round " << round << " score " << raw[i] << " max " << column_max);
      CHECK(norm.Apply(raw[i], column_max) == column[i]);
    }
  }
}

}  // namespace
}  // namespace schedkit::framework
