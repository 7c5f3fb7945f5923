// Quantity parsing and integer conversion, matching
// k8s.io/apimachinery/pkg/api/resource (quantity.go, suffix.go, amount.go,
// scale_int.go). Upstream keeps an int64 fast path and an inf.Dec slow path;
// both describe the same exact value, so one exact decimal form replaces them
// here. The paths show through only where upstream's choice between them
// decides what is accepted: numbers with no digits (see Quantity::Parse).
#include "schedkit/api/quantity.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/escaping.h"
#include "absl/strings/string_view.h"

namespace schedkit::api {
namespace {

// Upstream's three parse errors, worded as upstream words them so a message
// can be matched against what the API server reports for the same text.
constexpr char kErrFormatWrong[] =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr char kErrNumeric[] = "unable to parse numeric part of quantity";
constexpr char kErrSuffix[] = "unable to parse quantity's suffix";

// Upstream stores a decimal exponent as an int32 scale that it later negates,
// so it accepts [-MaxInt32, MaxInt32] and rejects the rest (kubernetes#141203).
constexpr int64_t kMaxExponent = std::numeric_limits<int32_t>::max();

// Parsing caps a binary-suffixed quantity at this magnitude, silently.
constexpr uint64_t kMaxBinaryMagnitude = std::numeric_limits<int64_t>::max();
constexpr std::string_view kMaxBinaryDigits = "9223372036854775807";

absl::Status InvalidQuantity(std::string_view text, std::string_view why) {
  // Escaped, so a stray control character or quote in the text stays visible.
  std::string message = "invalid quantity \"";
  message += absl::CEscape(absl::string_view(text.data(), text.size()));
  message += "\": ";
  message.append(why);
  return absl::InvalidArgumentError(message);
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsSuffixLetter(char c) {
  return std::string_view("eEinumkKMGTP").find(c) != std::string_view::npos;
}

// A number split the way upstream's parseQuantityString splits it.
struct Scanned {
  bool negative = false;
  std::string_view whole;     // digits before the point
  std::string_view fraction;  // digits after the point
  std::string_view suffix;    // suffix letters, then an optional sign and digits
};

// The shape check: [+-]? digits* (. digits*)? letters* [+-]? digits*, with
// nothing left over. Which suffixes exist is decided later, by InterpretSuffix.
std::optional<Scanned> Scan(std::string_view text) {
  Scanned out;
  size_t pos = 0;
  auto skip_digits = [&] {
    const size_t start = pos;
    while (pos < text.size() && IsDigit(text[pos])) ++pos;
    return text.substr(start, pos - start);
  };
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    out.negative = text[pos] == '-';
    ++pos;
  }
  out.whole = skip_digits();
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    out.fraction = skip_digits();
  }
  const size_t suffix_start = pos;
  while (pos < text.size() && IsSuffixLetter(text[pos])) ++pos;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) ++pos;
  skip_digits();
  if (pos != text.size()) return std::nullopt;
  out.suffix = text.substr(suffix_start);
  return out;
}

// What a suffix multiplies the number by: 2^exponent or 10^exponent.
struct Multiplier {
  bool binary = false;
  int64_t exponent = 0;
};

struct NamedSuffix {
  std::string_view name;
  Multiplier multiplier;
};

constexpr NamedSuffix kSuffixes[] = {
    {"", {false, 0}},   {"n", {false, -9}}, {"u", {false, -6}}, {"m", {false, -3}},
    {"k", {false, 3}},  {"M", {false, 6}},  {"G", {false, 9}},  {"T", {false, 12}},
    {"P", {false, 15}}, {"E", {false, 18}}, {"Ki", {true, 10}}, {"Mi", {true, 20}},
    {"Gi", {true, 30}}, {"Ti", {true, 40}}, {"Pi", {true, 50}}, {"Ei", {true, 60}},
};

// Returns the multiplier, or the reason the suffix is not one. Suffix names are
// case-sensitive: "1ki" and "1mi" are errors, as upstream never folds case.
absl::StatusOr<Multiplier> InterpretSuffix(std::string_view suffix) {
  for (const NamedSuffix& s : kSuffixes) {
    if (s.name == suffix) return s.multiplier;
  }
  // A bare "e" is not an exponent (and "E" is exa, found above).
  if (suffix.size() < 2 || (suffix[0] != 'e' && suffix[0] != 'E')) {
    return absl::InvalidArgumentError(kErrSuffix);
  }
  std::string_view rest = suffix.substr(1);
  bool negative = false;
  if (rest[0] == '+' || rest[0] == '-') {
    negative = rest[0] == '-';
    rest.remove_prefix(1);
  }
  if (rest.empty()) return absl::InvalidArgumentError(kErrSuffix);
  int64_t exponent = 0;
  for (char c : rest) {
    if (!IsDigit(c)) return absl::InvalidArgumentError(kErrSuffix);
    // Stop growing once past the bound, so no digit count can overflow.
    if (exponent <= kMaxExponent) exponent = exponent * 10 + (c - '0');
  }
  if (exponent > kMaxExponent) {
    return absl::InvalidArgumentError(
        std::string(kErrSuffix) + ": the exponent must be within -2147483647..2147483647");
  }
  return Multiplier{false, negative ? -exponent : exponent};
}

// Multiplies a decimal digit string by a small factor in place.
void MultiplyDigits(std::string& digits, uint32_t factor) {
  uint32_t carry = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    const uint32_t product = static_cast<uint32_t>(*it - '0') * factor + carry;
    *it = static_cast<char>('0' + product % 10);
    carry = product / 10;
  }
  std::string head;
  for (; carry != 0; carry /= 10) head.insert(head.begin(), static_cast<char>('0' + carry % 10));
  digits.insert(0, head);
}

// ceil(digits * 10^exp10) for digits without leading or trailing zeros, or
// nullopt when that is at least 10^19 (and so beyond any int64 magnitude).
// With no trailing zeros, a negative exp10 always leaves a non-zero fraction.
std::optional<uint64_t> CeilMagnitude(std::string_view digits, int64_t exp10) {
  constexpr int64_t kMaxDigits = 19;
  const int64_t whole_digits = static_cast<int64_t>(digits.size()) + exp10;
  if (whole_digits > kMaxDigits) return std::nullopt;
  uint64_t magnitude = 0;
  for (int64_t i = 0; i < whole_digits; ++i) {
    const char c = i < static_cast<int64_t>(digits.size()) ? digits[i] : '0';
    magnitude = magnitude * 10 + static_cast<uint64_t>(c - '0');
  }
  // At most 10^19 - 1 before the increment, so this cannot wrap a uint64.
  if (exp10 < 0) ++magnitude;
  return magnitude;
}

}  // namespace

absl::StatusOr<Quantity> Quantity::Parse(std::string_view text) {
  if (text.empty()) return InvalidQuantity(text, kErrFormatWrong);
  const std::optional<Scanned> scanned = Scan(text);
  if (!scanned) return InvalidQuantity(text, kErrFormatWrong);
  const absl::StatusOr<Multiplier> multiplier = InterpretSuffix(scanned->suffix);
  if (!multiplier.ok()) {
    const absl::string_view why = multiplier.status().message();
    return InvalidQuantity(text, std::string_view(why.data(), why.size()));
  }

  if (scanned->whole.empty() && scanned->fraction.empty()) {
    // Upstream's scanner reads a number with no digits ("-", ".", "e3", "Ki") as
    // zero, and the int64 fast path keeps it. Where upstream takes its inf.Dec
    // path instead it re-reads the number text, finds no digits and fails: for
    // a decimal exponent below nano, and for Pi and Ei, whose precision
    // estimate (15 - 1 - exponent*3/10 - 1) goes negative.
    if ((!multiplier->binary && multiplier->exponent < -9) ||
        (multiplier->binary && multiplier->exponent >= 50)) {
      return InvalidQuantity(text, kErrNumeric);
    }
    return Quantity();
  }

  Quantity q;
  q.negative_ = scanned->negative;
  q.digits_.reserve(scanned->whole.size() + scanned->fraction.size());
  q.digits_.append(scanned->whole).append(scanned->fraction);
  const size_t first = q.digits_.find_first_not_of('0');
  if (first == std::string::npos) return Quantity();  // all zeros, whatever the sign
  q.digits_.erase(0, first);

  q.exp10_ = -static_cast<int64_t>(scanned->fraction.size());
  if (multiplier->binary) {
    for (int64_t e = 0; e < multiplier->exponent; e += 10) MultiplyDigits(q.digits_, 1024);
  } else {
    q.exp10_ += multiplier->exponent;
  }
  const size_t last = q.digits_.find_last_not_of('0');
  q.exp10_ += static_cast<int64_t>(q.digits_.size() - (last + 1));
  q.digits_.resize(last + 1);
  q.mantissa_is_zero_ = false;

  // Upstream caps a binary-suffixed magnitude at 2^63-1 ("8Ei" and "-8Ei" read
  // as +-(2^63-1)); decimal quantities keep their value, however large.
  // |v| > 2^63-1 exactly when ceil(|v|) > 2^63-1, as the bound is an integer.
  if (multiplier->binary) {
    const std::optional<uint64_t> magnitude = CeilMagnitude(q.digits_, q.exp10_);
    if (!magnitude || *magnitude > kMaxBinaryMagnitude) {
      q.digits_ = kMaxBinaryDigits;
      q.exp10_ = 0;
    }
  }
  // Upstream also rounds a non-zero value finer than 1n away from zero to the
  // next nano multiple. That step is not stored: every accessor here rounds
  // away from zero to 10^-3 or coarser, and rounding up to nano first never
  // changes where such a coarser round-up lands, nor whether the value is zero.
  return q;
}

int64_t Quantity::ScaledValue(int scale) const {
  if (mantissa_is_zero_) return 0;
  const std::optional<uint64_t> magnitude = CeilMagnitude(digits_, exp10_ - scale);
  // |INT64_MIN|: the one magnitude only the negative side can hold.
  constexpr uint64_t kMinMagnitude = uint64_t{1} << 63;
  if (!negative_) {
    if (!magnitude || *magnitude >= kMinMagnitude) return std::numeric_limits<int64_t>::max();
    return static_cast<int64_t>(*magnitude);
  }
  if (!magnitude || *magnitude >= kMinMagnitude) return std::numeric_limits<int64_t>::min();
  return -static_cast<int64_t>(*magnitude);
}

__int128 Quantity::NanoValue() const {
  if (mantissa_is_zero_) return 0;
  constexpr int kMaxDigits = 36;
  __int128 clamp = 1;
  for (int i = 0; i < kMaxDigits; ++i) clamp *= 10;
  const int64_t exp = exp10_ + 9;  // value = digits × 10^exp nano
  const int64_t int_digits = static_cast<int64_t>(digits_.size()) + exp;
  __int128 magnitude = 0;
  if (int_digits > kMaxDigits) {
    magnitude = clamp;
  } else {
    bool fraction = false;
    for (int64_t i = 0; i < static_cast<int64_t>(digits_.size()); ++i) {
      if (i < int_digits) {
        magnitude = magnitude * 10 + (digits_[i] - '0');
      } else if (digits_[i] != '0') {
        fraction = true;
      }
    }
    for (int64_t i = static_cast<int64_t>(digits_.size()); i < int_digits; ++i) magnitude *= 10;
    if (fraction) magnitude += 1;
  }
  return negative_ ? -magnitude : magnitude;
}

int64_t Quantity::Value() const { return ScaledValue(0); }

int64_t Quantity::MilliValue() const { return ScaledValue(-3); }

absl::StatusOr<int64_t> ParseResourceQuantity(std::string_view resource,
                                              std::string_view text) {
  absl::StatusOr<Quantity> q = Quantity::Parse(text);
  if (!q.ok()) return q.status();
  return resource == "cpu" ? q->MilliValue() : q->Value();
}

}  // namespace schedkit::api
