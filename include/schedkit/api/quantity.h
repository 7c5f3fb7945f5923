// Kubernetes resource quantities ("100m", "1.5Gi", "2e3") parsed exactly and
// converted to the integer units the scheduler computes with.
//
//   SCHEDKIT_ASSIGN_OR_RETURN(Quantity q, Quantity::Parse("1.5Gi"));
//   q.Value();       // 1610612736 (bytes)
//   q.MilliValue();  // 1610612736000
//
// Parsing follows k8s.io/apimachinery/pkg/api/resource: a signed decimal number
// followed by an optional suffix (binary SI Ki..Ei, decimal SI n u m "" k M G T P E,
// or a decimal exponent e<N>/E<N>). Invalid text is an error, never zero; like
// upstream, a number with no digits at all ("-", ".", "e3", "Ki") reads as zero.
// Thread-safe: values are immutable.
#ifndef SCHEDKIT_API_QUANTITY_H_
#define SCHEDKIT_API_QUANTITY_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace schedkit::api {

class Quantity {
 public:
  // Parses `text` as upstream's resource.ParseQuantity does. Errors name the text.
  static absl::StatusOr<Quantity> Parse(std::string_view text);

  // The value rounded up to an integer, away from zero (0.1 -> 1, -0.1 -> -1);
  // saturates at the int64 limits as upstream's Value() does for out-of-range
  // quantities.
  int64_t Value() const;
  // The value times 1000, rounded and saturated like Value(); what upstream's
  // MilliValue() returns.
  int64_t MilliValue() const;

  // The value in units of 10^-9 (upstream's finest precision), rounded away
  // from zero and clamped to ±10^36, so sums of quantities stay exact before
  // they are rounded to scheduler units.
  __int128 NanoValue() const;

  bool IsZero() const { return mantissa_is_zero_; }
  bool IsNegative() const { return negative_ && !mantissa_is_zero_; }

 private:
  // The value divided by 10^scale, rounded away from zero and saturated;
  // upstream's ScaledValue(scale).
  int64_t ScaledValue(int scale) const;

  // value = (negative ? -1 : 1) * digits * 10^exp10, digits a decimal string
  // with neither leading nor trailing zeros (empty for zero). A binary suffix
  // is multiplied in at parse time. Kept exact so rounding happens once, at
  // the end; exp10 is 64-bit because an int32 exponent minus the number of
  // fraction digits can leave the int32 range.
  std::string digits_;
  int64_t exp10_ = 0;
  bool negative_ = false;
  bool mantissa_is_zero_ = true;
};

// Converts a quantity of `resource` to scheduler units, as upstream's
// framework.Resource does: "cpu" → millicores (MilliValue), everything else
// (memory, ephemeral-storage, pods, hugepages-*, extended resources) → Value().
absl::StatusOr<int64_t> ParseResourceQuantity(std::string_view resource,
                                              std::string_view text);

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_QUANTITY_H_
