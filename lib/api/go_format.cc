#include "api/go_format.h"

#include <cstdint>
#include <cstdio>

#include "absl/strings/str_replace.h"

namespace schedkit {
namespace {

// The length of the valid UTF-8 sequence at s[i] and its rune, or 0 when the
// byte there does not start one (as Go's utf8.DecodeRuneInString reports
// width 1 with RuneError).
int DecodeRune(std::string_view s, size_t i, uint32_t& rune) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  int len = 0;
  uint32_t min = 0;
  if (b0 < 0x80) {
    rune = b0;
    return 1;
  } else if ((b0 & 0xe0) == 0xc0) {
    len = 2;
    min = 0x80;
    rune = b0 & 0x1f;
  } else if ((b0 & 0xf0) == 0xe0) {
    len = 3;
    min = 0x800;
    rune = b0 & 0x0f;
  } else if ((b0 & 0xf8) == 0xf0) {
    len = 4;
    min = 0x10000;
    rune = b0 & 0x07;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (int k = 1; k < len; ++k) {
    const unsigned char b = byte(i + k);
    if ((b & 0xc0) != 0x80) return 0;
    rune = (rune << 6) | (b & 0x3f);
  }
  // Overlong forms, surrogates and runes past U+10FFFF are not valid UTF-8.
  if (rune < min || (rune >= 0xd800 && rune <= 0xdfff) || rune > 0x10ffff) return 0;
  return len;
}

// The two-character escape of an ASCII byte, or null. JSON has no \a or \v.
const char* ShortEscape(char c, bool json) {
  switch (c) {
    case '"':
      return "\\\"";
    case '\\':
      return "\\\\";
    case '\a':
      return json ? nullptr : "\\a";
    case '\b':
      return "\\b";
    case '\f':
      return "\\f";
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    case '\v':
      return json ? nullptr : "\\v";
    default:
      return nullptr;
  }
}

void AppendHex(std::string& out, const char* format, uint32_t value) {
  char buf[12];
  std::snprintf(buf, sizeof(buf), format, value);
  out += buf;
}

}  // namespace

std::string GoQuote(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    uint32_t rune = 0;
    const int len = DecodeRune(s, i, rune);
    if (len == 0) {
      AppendHex(out, "\\x%02x", static_cast<unsigned char>(s[i]));
      ++i;
      continue;
    }
    if (len > 1) {
      const bool unprintable =
          (rune >= 0x80 && rune <= 0x9f) || rune == 0xad || rune == 0x2028 || rune == 0x2029 || rune == 0xfeff;
      if (unprintable) {
        AppendHex(out, "\\u%04x", rune);
      } else {
        out.append(s.substr(i, len));
      }
      i += len;
      continue;
    }
    ++i;
    if (const char* escape = ShortEscape(static_cast<char>(rune), /*json=*/false)) {
      out += escape;
    } else if (rune < 0x20 || rune == 0x7f) {
      AppendHex(out, "\\x%02x", rune);
    } else {
      out += static_cast<char>(rune);
    }
  }
  out += '"';
  return out;
}

std::string JsonQuote(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    uint32_t rune = 0;
    const int len = DecodeRune(s, i, rune);
    if (len == 0) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    if (len > 1) {
      if (rune == 0x2028 || rune == 0x2029) {
        AppendHex(out, "\\u%04x", rune);
      } else {
        out.append(s.substr(i, len));
      }
      i += len;
      continue;
    }
    ++i;
    if (const char* escape = ShortEscape(static_cast<char>(rune), /*json=*/true)) {
      out += escape;
    } else if (rune < 0x20 || rune == '<' || rune == '>' || rune == '&') {
      AppendHex(out, "\\u%04x", rune);
    } else {
      out += static_cast<char>(rune);
    }
  }
  out += '"';
  return out;
}

std::string GoStringList(std::span<const std::string> items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ' ';
    out += items[i];
  }
  out += ']';
  return out;
}

size_t FirstInvalidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    uint32_t rune = 0;
    const int len = DecodeRune(s, i, rune);
    if (len == 0) return i;
    i += static_cast<size_t>(len);
  }
  return std::string_view::npos;
}

bool IsValidUtf8(std::string_view s) { return FirstInvalidUtf8(s) == std::string_view::npos; }

bool ParseGoDuration(std::string_view text, absl::Duration* out) {
  // Go accepts both micro signs for microseconds; Abseil spells them "us".
  const std::string normalized = absl::StrReplaceAll(
      absl::string_view(text.data(), text.size()),
      {{absl::string_view("\xC2\xB5s"), absl::string_view("us")}, {absl::string_view("\xCE\xBCs"), absl::string_view("us")}});
  if (normalized.find("inf") != std::string::npos) return false;
  return absl::ParseDuration(normalized, out);
}

namespace {

// Go's fmtFrac: the fraction of v / 10^prec without trailing zeros (no
// point when it is zero), prepended to `out`; returns v / 10^prec.
uint64_t PrependFraction(std::string& out, uint64_t v, int prec) {
  std::string digits;
  bool printed = false;
  for (int i = 0; i < prec; ++i) {
    const uint64_t digit = v % 10;
    printed = printed || digit != 0;
    if (printed) digits.insert(digits.begin(), static_cast<char>('0' + digit));
    v /= 10;
  }
  if (printed) out.insert(0, "." + digits);
  return v;
}

void PrependInteger(std::string& out, uint64_t v) { out.insert(0, std::to_string(v)); }

}  // namespace

std::string FormatGoDuration(absl::Duration d) {
  const int64_t nanos = absl::ToInt64Nanoseconds(d);
  const bool negative = nanos < 0;
  uint64_t u = negative ? 0 - static_cast<uint64_t>(nanos) : static_cast<uint64_t>(nanos);
  constexpr uint64_t kMicro = 1000, kMilli = 1000 * kMicro, kSecond = 1000 * kMilli;
  std::string out;
  if (u < kSecond) {
    // Below a second Go uses the largest unit under it: 1.2ms, 300µs, 5ns.
    if (u == 0) return "0s";
    int prec = 0;
    if (u < kMicro) {
      out = "ns";
    } else if (u < kMilli) {
      prec = 3;
      out = "\u00b5s";
    } else {
      prec = 6;
      out = "ms";
    }
    u = PrependFraction(out, u, prec);
    PrependInteger(out, u);
  } else {
    out = "s";
    u = PrependFraction(out, u, 9);
    PrependInteger(out, u % 60);
    u /= 60;
    if (u > 0) {
      out.insert(0, "m");
      PrependInteger(out, u % 60);
      u /= 60;
      if (u > 0) {
        out.insert(0, "h");
        PrependInteger(out, u);
      }
    }
  }
  if (negative) out.insert(0, "-");
  return out;
}

}  // namespace schedkit
