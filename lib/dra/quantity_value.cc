#include "dra/quantity_value.h"

#include <algorithm>
#include <limits>

#include "schedkit/api/quantity.h"

namespace schedkit::dra {
namespace {

constexpr __int128 kNanoPerUnit = 1000000000;
constexpr __int128 kNanoPerMilli = 1000000;

// Rounds nano / divisor away from zero and saturates to int64, matching
// upstream's ScaledValue for positive and negative values.
int64_t DivideAwayFromZero(__int128 nano, __int128 divisor) {
  __int128 q = nano / divisor;
  if (nano % divisor != 0) q += nano > 0 ? 1 : -1;
  if (q > std::numeric_limits<int64_t>::max()) return std::numeric_limits<int64_t>::max();
  if (q < std::numeric_limits<int64_t>::min()) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(q);
}

std::string Int128ToString(__int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string out;
  while (u != 0) {
    out.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (negative) out.push_back('-');
  std::reverse(out.begin(), out.end());
  return out;
}

QuantityFormat FormatOfText(std::string_view text) {
  // The suffix starts after the sign, digits and decimal point.
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) ++i;
  std::string_view suffix = text.substr(i);
  if (!suffix.empty() && suffix.back() == 'i') return QuantityFormat::kBinarySI;
  if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E')) return QuantityFormat::kDecimalExponent;
  return QuantityFormat::kDecimalSI;
}

std::string_view DecimalSuffix(int exponent) {
  switch (exponent) {
    case -9: return "n";
    case -6: return "u";
    case -3: return "m";
    case 0: return "";
    case 3: return "k";
    case 6: return "M";
    case 9: return "G";
    case 12: return "T";
    case 15: return "P";
    case 18: return "E";
    default: return {};
  }
}

}  // namespace

absl::StatusOr<QuantityValue> QuantityValue::Parse(std::string_view text) {
  absl::StatusOr<api::Quantity> parsed = api::Quantity::Parse(text);
  if (!parsed.ok()) return parsed.status();
  QuantityValue v;
  v.nano_ = parsed->NanoValue();
  v.format_ = FormatOfText(text);
  return v;
}

QuantityValue QuantityValue::FromInt(int64_t value, QuantityFormat format) {
  QuantityValue v;
  v.nano_ = static_cast<__int128>(value) * kNanoPerUnit;
  v.format_ = format;
  return v;
}

QuantityValue QuantityValue::FromMilli(int64_t milli, QuantityFormat format) {
  QuantityValue v;
  v.nano_ = static_cast<__int128>(milli) * kNanoPerMilli;
  v.format_ = format;
  return v;
}

int64_t QuantityValue::Value() const { return DivideAwayFromZero(nano_, kNanoPerUnit); }
int64_t QuantityValue::MilliValue() const { return DivideAwayFromZero(nano_, kNanoPerMilli); }

int QuantityValue::CmpInt64(int64_t value) const {
  const __int128 other = static_cast<__int128>(value) * kNanoPerUnit;
  return nano_ < other ? -1 : (nano_ > other ? 1 : 0);
}

std::string QuantityValue::String() const {
  if (nano_ == 0) return "0";
  QuantityFormat format = format_;
  if (format == QuantityFormat::kBinarySI) {
    // Small or fractional binary values print as decimal SI, as upstream
    // does to avoid rounding.
    if ((nano_ > -1024 * kNanoPerUnit && nano_ < 1024 * kNanoPerUnit) || nano_ % kNanoPerUnit != 0) {
      format = QuantityFormat::kDecimalSI;
    }
  }
  if (format == QuantityFormat::kBinarySI) {
    __int128 amount = nano_ / kNanoPerUnit;
    int exponent = 0;
    while (exponent < 6 && amount % 1024 == 0) {
      amount /= 1024;
      ++exponent;
    }
    static constexpr std::string_view kBinary[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    return Int128ToString(amount) + std::string(kBinary[exponent]);
  }
  // Decimal: strip trailing zeros, then lower the exponent to a multiple of 3.
  __int128 amount = nano_;
  int exponent = -9;
  while (amount % 10 == 0) {
    amount /= 10;
    ++exponent;
  }
  while (exponent % 3 != 0) {
    amount *= 10;
    --exponent;
  }
  std::string number = Int128ToString(amount);
  // Upstream prints a decimal SI exponent without a suffix letter (above E)
  // as no suffix at all, so 1e21 prints as "1"; written the same here, since
  // that text is what lands in a claim's status.
  if (format == QuantityFormat::kDecimalSI) return number + std::string(DecimalSuffix(exponent));
  if (exponent == 0) return number;
  return number + "e" + std::to_string(exponent);
}

}  // namespace schedkit::dra
