#include "config/typed_yaml.h"

#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <optional>
#include <regex>
#include <string>

#include "absl/status/status.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::config::internal {
namespace {

std::optional<bool> ResolveBool(std::string_view s) {
  // go-yaml v2 follows YAML 1.1 here, so y/yes/on count as true.
  for (std::string_view t : {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"}) {
    if (s == t) return true;
  }
  for (std::string_view f : {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"}) {
    if (s == f) return false;
  }
  return std::nullopt;
}

int DigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

// Go's strconv.ParseUint(s, 0, 64) on an unsigned magnitude: base from the
// prefix (0x, 0o, 0b, or a leading 0 for octal), else decimal.
std::optional<uint64_t> ParseMagnitude(std::string_view s) {
  int base = 10;
  if (s.size() >= 2 && s[0] == '0') {
    const char p = s[1];
    if (p == 'x' || p == 'X') {
      base = 16;
      s.remove_prefix(2);
    } else if (p == 'o' || p == 'O') {
      base = 8;
      s.remove_prefix(2);
    } else if (p == 'b' || p == 'B') {
      base = 2;
      s.remove_prefix(2);
    } else {
      base = 8;
      s.remove_prefix(1);
    }
  }
  if (s.empty()) return std::nullopt;
  uint64_t value = 0;
  for (char c : s) {
    const int d = DigitValue(c);
    if (d >= base) return std::nullopt;
    if (value > (std::numeric_limits<uint64_t>::max() - d) / base) return std::nullopt;
    value = value * base + d;
  }
  return value;
}

std::optional<nlohmann::json> ResolveInteger(std::string_view s) {
  bool negative = false;
  bool signed_text = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    signed_text = true;
    s.remove_prefix(1);
  }
  std::optional<uint64_t> magnitude = ParseMagnitude(s);
  if (!magnitude) return std::nullopt;
  constexpr uint64_t kMaxInt64 = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (negative) {
    if (*magnitude > kMaxInt64 + 1) return std::nullopt;
    if (*magnitude == kMaxInt64 + 1) return nlohmann::json(std::numeric_limits<int64_t>::min());
    return nlohmann::json(-static_cast<int64_t>(*magnitude));
  }
  if (*magnitude <= kMaxInt64) return nlohmann::json(static_cast<int64_t>(*magnitude));
  // Only Go's ParseUint fallback takes values above int64, and it takes no sign.
  if (signed_text) return std::nullopt;
  return nlohmann::json(*magnitude);
}

std::optional<nlohmann::json> ResolveFloat(const std::string& s) {
  static const std::regex kYamlFloat(R"(^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$)");
  if (!std::regex_match(s, kYamlFloat)) return std::nullopt;
  double v = 0;
  try {
    v = std::stod(s);
  } catch (const std::exception&) {
    return std::nullopt;  // out of range; go-yaml keeps such text as a string too
  }
  // Go's JSON encoder prints integral floats below 1e21 without a fraction,
  // so kube-scheduler reads `1e3` where an integer is expected as 1000.
  if (v == std::trunc(v) && std::fabs(v) < 1e21) {
    if (v >= -9.2e18 && v <= 9.2e18) return nlohmann::json(static_cast<int64_t>(v));
    if (v > 0 && v < 1.8e19) return nlohmann::json(static_cast<uint64_t>(v));
  }
  return nlohmann::json(v);
}

}  // namespace

nlohmann::json ResolvePlainScalar(std::string_view text) {
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") {
    return nlohmann::json(nullptr);
  }
  if (std::optional<bool> b = ResolveBool(text)) return nlohmann::json(*b);
  const char first = text[0];
  const bool numeric_start = (first >= '0' && first <= '9') || first == '+' || first == '-' || first == '.';
  if (numeric_start) {
    std::string plain;
    for (char c : text) {
      if (c != '_') plain.push_back(c);
    }
    if (std::optional<nlohmann::json> i = ResolveInteger(plain)) return *i;
    if (std::optional<nlohmann::json> f = ResolveFloat(plain)) return *f;
  }
  return nlohmann::json(std::string(text));
}

}  // namespace schedkit::config::internal
