// cel-go's string.format, version-1 formatter (ext/formatting.go, v0.29.2).
// %f and %e print as golang.org/x/text's en_US printer does (digit grouping
// in %f's integer part).
#include "cel/string_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "cel/literals.h"
#include "cel/time_functions.h"

namespace schedkit::cel {
namespace {

Value FormatErr(std::string m) { return Value::Error(ErrorKind::kInvalidArgument, std::move(m)); }

std::optional<std::string> ScalarString(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kBool: return v.bool_value() ? "true" : "false";
    case ValueKind::kInt: return std::to_string(v.int_value());
    case ValueKind::kUint: return std::to_string(v.uint_value());
    case ValueKind::kDouble: return FormatDoubleGo(v.double_value());
    case ValueKind::kString: return v.string_value();
    case ValueKind::kBytes: return v.string_value();
    case ValueKind::kType: return v.string_value();
    case ValueKind::kDuration: return FormatDuration(v.duration_nanos());
    case ValueKind::kTimestamp: return FormatTimestamp(v.timestamp_seconds(), v.timestamp_nanos(), v.timestamp_offset());
    case ValueKind::kNull: return "null";
    default: return std::nullopt;
  }
}

bool StringOf(const Value& v, std::string* out, std::string* err);

std::string QuoteForCel(const Value& v, const std::string& s) {
  if (v.kind() == ValueKind::kString) return QuoteGo(s);
  if (v.kind() == ValueKind::kBytes) return "b" + QuoteGo(s);
  if (v.kind() == ValueKind::kDouble) {
    if (std::isnan(v.double_value()) || std::isinf(v.double_value())) return "\"" + s + "\"";
  }
  return s;
}

bool StringOf(const Value& v, std::string* out, std::string* err) {
  if (v.kind() == ValueKind::kList) {
    std::string s = "[";
    const auto& e = v.list_elements();
    for (size_t i = 0; i < e.size(); ++i) {
      std::string m;
      if (!StringOf(e[i], &m, err)) return false;
      s += QuoteForCel(e[i], m);
      if (i + 1 < e.size()) s += ", ";
    }
    *out = s + "]";
    return true;
  }
  if (v.kind() == ValueKind::kMap) {
    std::vector<std::pair<std::string, std::string>> pairs;
    for (const auto& [k, val] : v.map().entries) {
      if (k.kind() != ValueKind::kString && k.kind() != ValueKind::kBool && k.kind() != ValueKind::kInt &&
          k.kind() != ValueKind::kUint) {
        *err = "no formatting function for map key of type " + std::string(TypeName(k));
        return false;
      }
      std::string ks = QuoteForCel(k, *ScalarString(k)), vs;
      if (!StringOf(val, &vs, err)) return false;
      pairs.emplace_back(ks, QuoteForCel(val, vs));
    }
    std::stable_sort(pairs.begin(), pairs.end(), [](auto& a, auto& b) { return a.first < b.first; });
    std::string s = "{";
    for (size_t i = 0; i < pairs.size(); ++i) {
      s += pairs[i].first + ":" + pairs[i].second;
      if (i + 1 < pairs.size()) s += ", ";
    }
    *out = s + "}";
    return true;
  }
  if (auto s = ScalarString(v)) {
    *out = *s;
    return true;
  }
  *err = "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, "
         "and timestamps, was given " + std::string(TypeName(v));
  return false;
}

std::string Group(const std::string& digits) {
  std::string out;
  int n = static_cast<int>(digits.size());
  for (int i = 0; i < n; ++i) {
    out.push_back(digits[static_cast<size_t>(i)]);
    if ((n - 1 - i) % 3 == 0 && i != n - 1) out.push_back(',');
  }
  return out;
}

std::string Based(uint64_t v, int base, bool upper) {
  if (v == 0) return "0";
  const char* d = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string s;
  while (v > 0) {
    s.push_back(d[v % static_cast<uint64_t>(base)]);
    v /= static_cast<uint64_t>(base);
  }
  return std::string(s.rbegin(), s.rend());
}

std::string SignedBased(const Value& v, int base, bool upper) {
  if (v.kind() == ValueKind::kUint) return Based(v.uint_value(), base, upper);
  int64_t i = v.int_value();
  uint64_t mag = i < 0 ? 0 - static_cast<uint64_t>(i) : static_cast<uint64_t>(i);
  return (i < 0 ? "-" : "") + Based(mag, base, upper);
}

// One clause; false with *err on failure.
bool Clause(char c, std::optional<int> precision, const Value& v, std::string* out, std::string* err) {
  auto is_int = v.kind() == ValueKind::kInt || v.kind() == ValueKind::kUint;
  std::string type(TypeName(v));
  switch (c) {
    case 's': return StringOf(v, out, err);
    case 'd':
      if (!is_int) return *err = "decimal clause can only be used on integers, was given " + type, false;
      *out = SignedBased(v, 10, false);
      return true;
    case 'b':
      if (v.kind() == ValueKind::kBool) return *out = v.bool_value() ? "1" : "0", true;
      if (!is_int) return *err = "only integers and bools can be formatted as binary, was given " + type, false;
      *out = SignedBased(v, 2, false);
      return true;
    case 'o':
      if (!is_int) return *err = "octal clause can only be used on integers, was given " + type, false;
      *out = SignedBased(v, 8, false);
      return true;
    case 'x':
    case 'X': {
      bool upper = c == 'X';
      if (is_int) return *out = SignedBased(v, 16, upper), true;
      if (v.kind() == ValueKind::kString || v.kind() == ValueKind::kBytes) {
        std::string s;
        for (unsigned char ch : v.string_value()) s += (upper ? "0123456789ABCDEF" : "0123456789abcdef")[ch >> 4],
                                                    s += (upper ? "0123456789ABCDEF" : "0123456789abcdef")[ch & 15];
        *out = s;
        return true;
      }
      *err = "only integers, byte buffers, and strings can be formatted as hex, was given " + type;
      return false;
    }
    case 'f':
    case 'e': {
      double d;
      if (v.kind() == ValueKind::kDouble) {
        d = v.double_value();
      } else if (v.kind() == ValueKind::kString &&
                 (v.string_value() == "NaN" || v.string_value() == "Infinity" || v.string_value() == "-Infinity")) {
        d = v.string_value() == "NaN" ? NAN : (v.string_value()[0] == '-' ? -INFINITY : INFINITY);
      } else {
        *err = std::string(c == 'f' ? "fixed-point" : "scientific") +
               " clause can only be used on doubles, was given " + type;
        return false;
      }
      int p = precision.value_or(6);
      if (std::isnan(d)) return *out = "NaN", true;
      if (std::isinf(d)) return *out = d > 0 ? "+Inf" : "-Inf", true;
      std::vector<char> buf(static_cast<size_t>(p) + 400);
      std::snprintf(buf.data(), buf.size(), c == 'f' ? "%.*f" : "%.*e", p, d);
      std::string s(buf.data());
      if (c == 'f') {
        bool neg = s[0] == '-';
        std::string body = neg ? s.substr(1) : s;
        size_t dot = body.find('.');
        std::string ip = dot == std::string::npos ? body : body.substr(0, dot);
        *out = (neg ? "-" : "") + Group(ip) + (dot == std::string::npos ? "" : body.substr(dot));
      } else {
        *out = s;
      }
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

Value FormatString(std::string_view f, const Value& args) {
  const auto& list = args.list_elements();
  std::string out;
  size_t i = 0;
  size_t arg = 0;
  while (i < f.size()) {
    if (f[i] != '%') {
      out.push_back(f[i++]);
      continue;
    }
    if (i + 1 < f.size() && f[i + 1] == '%') {
      out.push_back('%');
      i += 2;
      continue;
    }
    if (arg >= list.size()) return FormatErr("index " + std::to_string(arg) + " out of range");
    if (i + 1 >= f.size()) return FormatErr("unexpected end of string");
    size_t j = i + 1;
    std::optional<int> precision;
    if (f[j] == '.') {
      ++j;
      size_t start = j;
      while (j < f.size() && f[j] >= '0' && f[j] <= '9') ++j;
      if (j >= f.size()) {
        return FormatErr("could not parse formatting clause: error while parsing precision: could not find end of "
                         "precision specifier");
      }
      precision = std::atoi(std::string(f.substr(start, j - start)).c_str());
    }
    char c = f[j];
    if (std::string_view("sdfebxXo").find(c) == std::string_view::npos) {
      return FormatErr(std::string("could not parse formatting clause: unrecognized formatting clause \"") + c + "\"");
    }
    std::string s, err;
    if (!Clause(c, precision, list[arg], &s, &err)) return FormatErr("error during formatting: " + err);
    out += s;
    i = j + 1;
    ++arg;
  }
  return Value::String(std::move(out));
}

}  // namespace schedkit::cel
