// Numeric helpers with cel-go's rules (common/types/overflow.go, compare.go):
// checked int/uint arithmetic, lossless and range-checked conversions, and
// ordering across int, uint and double.
//
// Pure functions; safe to call concurrently.
#ifndef SCHEDKIT_CEL_NUMERIC_H_
#define SCHEDKIT_CEL_NUMERIC_H_

#include <cstdint>
#include <optional>

#include "cel/value.h"

namespace schedkit::cel {

inline bool IsNumeric(const Value& v) {
  return v.kind() == ValueKind::kInt || v.kind() == ValueKind::kUint || v.kind() == ValueKind::kDouble;
}

// -1, 0 or 1; kUnordered when either side is NaN.
inline constexpr int kUnordered = 2;
int CompareNumeric(const Value& a, const Value& b);

std::optional<int64_t> AddInt64(int64_t a, int64_t b);
std::optional<int64_t> SubInt64(int64_t a, int64_t b);
std::optional<int64_t> MulInt64(int64_t a, int64_t b);
std::optional<int64_t> NegInt64(int64_t a);
std::optional<uint64_t> AddUint64(uint64_t a, uint64_t b);
std::optional<uint64_t> SubUint64(uint64_t a, uint64_t b);
std::optional<uint64_t> MulUint64(uint64_t a, uint64_t b);

// Go's float64 -> int64 conversion guarded as cel-go does (range checks,
// truncation toward zero); nullopt when out of range or NaN.
std::optional<int64_t> DoubleToInt64Checked(double d);
std::optional<uint64_t> DoubleToUint64Checked(double d);
// Exact conversions only (the value survives the round trip).
std::optional<int64_t> DoubleToInt64Lossless(double d);
std::optional<uint64_t> DoubleToUint64Lossless(double d);

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_NUMERIC_H_
