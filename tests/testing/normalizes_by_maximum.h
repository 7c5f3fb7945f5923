// Test helper: what a ScoreExtensions that NormalizesByMaximum promises. Each
// normalized score follows from its raw score and the column's maximum,
// which is what the framework's kept totals rely on.
#ifndef SCHEDKIT_TESTS_TESTING_NORMALIZES_BY_MAXIMUM_H_
#define SCHEDKIT_TESTS_TESTING_NORMALIZES_BY_MAXIMUM_H_

#include <catch2/catch.hpp>
#include <cstdint>
#include <optional>
#include <span>

#include "schedkit/framework/plugin.h"

namespace schedkit::testing {

// `normalized` is what NormalizeScore made of `raw`.
inline void CheckNormalizesByMaximum(const framework::ScoreExtensions& ext, std::span<const int64_t> raw,
                                     std::span<const int64_t> normalized) {
  const std::optional<framework::MaximumNormalization> by_maximum = ext.NormalizesByMaximum();
  REQUIRE(by_maximum.has_value());
  REQUIRE(raw.size() == normalized.size());
  const int64_t column_max = framework::MaximumNormalization::ColumnMaximum(raw);
  for (size_t i = 0; i < raw.size(); ++i) CHECK(by_maximum->Apply(raw[i], column_max) == normalized[i]);
}

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTS_TESTING_NORMALIZES_BY_MAXIMUM_H_
