#include "cel/literals.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "cel/lexer.h"

namespace schedkit::cel {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool ValidRune(uint32_t v) { return v <= 0x10FFFF && (v < 0xD800 || v > 0xDFFF); }

// Normalizes \r\n and \r to \n, as cel-go does before unescaping.
std::string NormalizeNewlines(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\r') {
      out.push_back('\n');
      if (i + 1 < s.size() && s[i + 1] == '\n') ++i;
      continue;
    }
    out.push_back(s[i]);
  }
  return out;
}

}  // namespace

std::string UnescapeLiteral(std::string_view token, bool is_bytes, std::string& out) {
  const std::string normalized = NormalizeNewlines(token);
  std::string_view value = normalized;
  out.clear();
  if (value.size() < 2) return "unable to unescape string";
  bool raw = false;
  if (value[0] == 'r' || value[0] == 'R') {
    value.remove_prefix(1);
    raw = true;
  }
  size_t n = value.size();
  if (n < 2 || value[0] != value[n - 1] || (value[0] != '"' && value[0] != '\'')) {
    return "unable to unescape string";
  }
  if (n >= 6 && (value.substr(0, 3) == "'''" || value.substr(0, 3) == "\"\"\"")) {
    if (value.substr(n - 3) != value.substr(0, 3)) return "unable to unescape string";
    value = value.substr(3, n - 6);
  } else {
    value = value.substr(1, n - 2);
  }
  if (raw || value.find('\\') == std::string_view::npos) {
    out.assign(value);
    return "";
  }
  size_t i = 0;
  while (i < value.size()) {
    char c = value[i];
    if (c != '\\') {
      out.push_back(c);
      ++i;
      continue;
    }
    if (i + 1 >= value.size()) return "unable to unescape string, found '\\' as last character";
    char e = value[i + 1];
    i += 2;
    switch (e) {
      case 'a': out.push_back('\a'); continue;
      case 'b': out.push_back('\b'); continue;
      case 'f': out.push_back('\f'); continue;
      case 'n': out.push_back('\n'); continue;
      case 'r': out.push_back('\r'); continue;
      case 't': out.push_back('\t'); continue;
      case 'v': out.push_back('\v'); continue;
      case '\\': out.push_back('\\'); continue;
      case '\'': out.push_back('\''); continue;
      case '"': out.push_back('"'); continue;
      case '`': out.push_back('`'); continue;
      case '?': out.push_back('?'); continue;
      default: break;
    }
    if (e == 'x' || e == 'X' || e == 'u' || e == 'U') {
      size_t digits = (e == 'x' || e == 'X') ? 2 : (e == 'u' ? 4 : 8);
      if (is_bytes && (e == 'u' || e == 'U')) return "unable to unescape string";
      if (i + digits > value.size()) return "unable to unescape string";
      uint32_t v = 0;
      for (size_t k = 0; k < digits; ++k) {
        int h = HexValue(value[i + k]);
        if (h < 0) return "unable to unescape string";
        v = (v << 4) | static_cast<uint32_t>(h);
      }
      i += digits;
      if (!is_bytes && !ValidRune(v)) return "invalid unicode code point";
      if (is_bytes) {
        out.push_back(static_cast<char>(v));
      } else {
        AppendUtf8(static_cast<char32_t>(v), out);
      }
      continue;
    }
    if (e >= '0' && e <= '3') {
      if (i + 2 > value.size()) return "unable to unescape octal sequence in string";
      uint32_t v = static_cast<uint32_t>(e - '0');
      for (size_t k = 0; k < 2; ++k) {
        char d = value[i + k];
        if (d < '0' || d > '7') return "unable to unescape octal sequence in string";
        v = v * 8 + static_cast<uint32_t>(d - '0');
      }
      i += 2;
      if (is_bytes) {
        out.push_back(static_cast<char>(v));
      } else {
        AppendUtf8(static_cast<char32_t>(v), out);
      }
      continue;
    }
    return "unable to unescape string";
  }
  return "";
}

std::optional<int64_t> ParseIntLiteral(std::string_view text, int base) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  uint64_t magnitude = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), magnitude, base);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty()) return std::nullopt;
  if (negative) {
    if (magnitude > static_cast<uint64_t>(INT64_MAX) + 1) return std::nullopt;
    return static_cast<int64_t>(0 - magnitude);
  }
  if (magnitude > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
  return static_cast<int64_t>(magnitude);
}

std::optional<uint64_t> ParseUintLiteral(std::string_view text, int base) {
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v, base);
  if (ec != std::errc() || ptr != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

std::optional<double> ParseDoubleLiteral(std::string_view text) {
  std::string s(text);
  errno = 0;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || s.empty()) return std::nullopt;
  // Go reports overflow to infinity as an error; underflow to zero is fine.
  if (std::isinf(v)) return std::nullopt;
  return v;
}

std::string FormatDoubleGo(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (v == 0) return std::signbit(v) ? "-0" : "0";
  char buf[64];
  // Shortest round-trip digits in scientific form: d.ddddde±XX.
  auto res = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  bool negative = sci[0] == '-';
  if (negative) sci.erase(0, 1);
  size_t epos = sci.find('e');
  std::string mantissa = sci.substr(0, epos);
  int exp = std::atoi(sci.c_str() + epos + 1);
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') digits.push_back(c);
  }
  std::string out = negative ? "-" : "";
  if (exp < -4 || exp >= 6) {
    out += digits.substr(0, 1);
    if (digits.size() > 1) {
      out += ".";
      out += digits.substr(1);
    }
    out += exp < 0 ? "e-" : "e+";
    int a = exp < 0 ? -exp : exp;
    if (a < 10) out += "0";
    out += std::to_string(a);
    return out;
  }
  if (exp < 0) {
    out += "0.";
    out += std::string(static_cast<size_t>(-exp - 1), '0');
    out += digits;
    return out;
  }
  size_t int_digits = static_cast<size_t>(exp) + 1;
  if (digits.size() <= int_digits) {
    out += digits;
    out += std::string(int_digits - digits.size(), '0');
  } else {
    out += digits.substr(0, int_digits);
    out += ".";
    out += digits.substr(int_digits);
  }
  return out;
}

std::string QuoteGo(std::string_view s) {
  static const char* kHex = "0123456789abcdef";
  std::string out = "\"";
  size_t i = 0;
  while (i < s.size()) {
    size_t size = 1;
    char32_t c = DecodeRuneAt(s, i, &size);
    if (c == 0xFFFD && size == 1) {
      unsigned char b = static_cast<unsigned char>(s[i]);
      out += "\\x";
      out.push_back(kHex[b >> 4]);
      out.push_back(kHex[b & 15]);
      ++i;
      continue;
    }
    i += size;
    switch (c) {
      case '\a': out += "\\a"; continue;
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '\v': out += "\\v"; continue;
      case '\\': out += "\\\\"; continue;
      case '"': out += "\\\""; continue;
      default: break;
    }
    if (c < 0x20 || c == 0x7F) {
      out += "\\x";
      out.push_back(kHex[(c >> 4) & 15]);
      out.push_back(kHex[c & 15]);
      continue;
    }
    AppendUtf8(c, out);
  }
  out += "\"";
  return out;
}

}  // namespace schedkit::cel
