#include "cel/numeric.h"

#include <cmath>
#include <limits>

namespace schedkit::cel {
namespace {

constexpr double kTwoTo63 = 9223372036854775808.0;
constexpr double kTwoTo64 = 18446744073709551616.0;

int CompareDoubles(double a, double b) {
  if (a < b) return -1;
  if (a > b) return 1;
  return 0;  // also for NaN, as cel-go's compareDouble
}

// As cel-go: a double beyond the int64 range is compared by range alone,
// otherwise the int is converted to double.
int CompareDoubleInt(double d, int64_t i) {
  if (d < -kTwoTo63) return -1;
  if (d > kTwoTo63) return 1;
  return CompareDoubles(d, static_cast<double>(i));
}

int CompareDoubleUint(double d, uint64_t u) {
  if (d < 0) return -1;
  if (d > kTwoTo64) return 1;
  return CompareDoubles(d, static_cast<double>(u));
}

int CompareIntUint(int64_t i, uint64_t u) {
  if (i < 0 || u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return -1;
  int64_t c = i - static_cast<int64_t>(u);
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

}  // namespace

int CompareNumeric(const Value& a, const Value& b) {
  bool a_nan = a.kind() == ValueKind::kDouble && std::isnan(a.double_value());
  bool b_nan = b.kind() == ValueKind::kDouble && std::isnan(b.double_value());
  if (a_nan || b_nan) return kUnordered;
  switch (a.kind()) {
    case ValueKind::kInt:
      switch (b.kind()) {
        case ValueKind::kInt:
          return a.int_value() < b.int_value() ? -1 : (a.int_value() > b.int_value() ? 1 : 0);
        case ValueKind::kUint: return CompareIntUint(a.int_value(), b.uint_value());
        default: return -CompareDoubleInt(b.double_value(), a.int_value());
      }
    case ValueKind::kUint:
      switch (b.kind()) {
        case ValueKind::kInt: return -CompareIntUint(b.int_value(), a.uint_value());
        case ValueKind::kUint:
          return a.uint_value() < b.uint_value() ? -1 : (a.uint_value() > b.uint_value() ? 1 : 0);
        default: return -CompareDoubleUint(b.double_value(), a.uint_value());
      }
    default:
      switch (b.kind()) {
        case ValueKind::kInt: return CompareDoubleInt(a.double_value(), b.int_value());
        case ValueKind::kUint: return CompareDoubleUint(a.double_value(), b.uint_value());
        default: return CompareDoubles(a.double_value(), b.double_value());
      }
  }
}

std::optional<int64_t> AddInt64(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}
std::optional<int64_t> SubInt64(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
  return r;
}
std::optional<int64_t> MulInt64(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}
std::optional<int64_t> NegInt64(int64_t a) {
  if (a == std::numeric_limits<int64_t>::min()) return std::nullopt;
  return -a;
}
std::optional<uint64_t> AddUint64(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}
std::optional<uint64_t> SubUint64(uint64_t a, uint64_t b) {
  if (b > a) return std::nullopt;
  return a - b;
}
std::optional<uint64_t> MulUint64(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::optional<int64_t> DoubleToInt64Checked(double d) {
  if (std::isinf(d) || std::isnan(d) || d <= -kTwoTo63 || d >= kTwoTo63) return std::nullopt;
  return static_cast<int64_t>(d);
}

std::optional<uint64_t> DoubleToUint64Checked(double d) {
  if (std::isinf(d) || std::isnan(d) || d < 0 || d >= kTwoTo64) return std::nullopt;
  return static_cast<uint64_t>(d);
}

std::optional<int64_t> DoubleToInt64Lossless(double d) {
  auto i = DoubleToInt64Checked(d);
  if (!i || static_cast<double>(*i) != d) return std::nullopt;
  return i;
}

std::optional<uint64_t> DoubleToUint64Lossless(double d) {
  auto u = DoubleToUint64Checked(d);
  if (!u || static_cast<double>(*u) != d) return std::nullopt;
  return u;
}

}  // namespace schedkit::cel
