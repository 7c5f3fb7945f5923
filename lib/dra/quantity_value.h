// Internal: exact quantity arithmetic for the DRA allocator (counters,
// consumable capacity), with the format a quantity was written in, so that
// values the allocator computes print as upstream's resource.Quantity prints
// them ("4Gi", "300m", "2").
//
//   SCHEDKIT_ASSIGN_OR_RETURN(QuantityValue q, QuantityValue::Parse("1.5Gi"));
//   q.Add(other);
//   std::string text = q.String();  // canonical, in q's format
//
// Values are held in units of 10^-9 (upstream's finest precision) in a
// 128-bit integer, so sums of API quantities stay exact; api::Quantity does
// the parsing. Thread-safe: a value type.
#ifndef SCHEDKIT_LIB_DRA_QUANTITY_VALUE_H_
#define SCHEDKIT_LIB_DRA_QUANTITY_VALUE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace schedkit::dra {

// How a quantity prints (upstream's resource.Format): the suffix family of
// the text it was parsed from, or the one a computation chose.
enum class QuantityFormat : uint8_t { kDecimalSI, kBinarySI, kDecimalExponent };

class QuantityValue {
 public:
  QuantityValue() = default;  // zero, DecimalSI

  // Parses `text` as resource.ParseQuantity does; the format follows the
  // suffix (Ki.. binary, e<N> exponent, anything else decimal SI).
  static absl::StatusOr<QuantityValue> Parse(std::string_view text);
  static QuantityValue FromInt(int64_t value, QuantityFormat format);    // resource.NewQuantity
  static QuantityValue FromMilli(int64_t milli, QuantityFormat format);  // resource.NewMilliQuantity

  __int128 nano() const { return nano_; }
  QuantityFormat format() const { return format_; }

  // Rounded up, away from zero, and saturated at the int64 limits, as
  // upstream's Value() and MilliValue().
  int64_t Value() const;
  int64_t MilliValue() const;

  int Sign() const { return nano_ < 0 ? -1 : (nano_ > 0 ? 1 : 0); }
  bool IsZero() const { return nano_ == 0; }
  int Cmp(const QuantityValue& other) const { return nano_ < other.nano_ ? -1 : (nano_ > other.nano_ ? 1 : 0); }
  int CmpInt64(int64_t value) const;

  // Arithmetic keeps this value's format, as upstream's Add/Sub do.
  void Add(const QuantityValue& other) { nano_ += other.nano_; }
  void Sub(const QuantityValue& other) { nano_ -= other.nano_; }

  // Upstream's canonical text: "0"; decimal mantissa with an exponent that is
  // a multiple of three (n u m "" k M G T P E, or e<N> for the exponent
  // format); binary Ki..Ei for integers of magnitude 1024 or more that divide
  // evenly. Like upstream, a decimal SI exponent beyond E prints no suffix.
  std::string String() const;

  friend bool operator==(const QuantityValue& a, const QuantityValue& b) { return a.nano_ == b.nano_; }

 private:
  __int128 nano_ = 0;
  QuantityFormat format_ = QuantityFormat::kDecimalSI;
};

}  // namespace schedkit::dra

#endif  // SCHEDKIT_LIB_DRA_QUANTITY_VALUE_H_
