#include "cel/time_functions.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <span>

#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "cel/literals.h"
#include "cel/numeric.h"

namespace schedkit::cel {
namespace {

// Seconds between 0001-01-01T00:00:00Z / 9999-12-31T23:59:59Z and the epoch.
constexpr int64_t kMinUnixTime = -62135596800;
constexpr int64_t kMaxUnixTime = 253402300799;
constexpr int64_t kNanosPerSecond = 1000000000;

Value TimestampOverflow() { return Value::Error(ErrorKind::kOverflow, "timestamp overflow"); }

Value ConversionError(std::string_view from, std::string_view to) {
  return Value::Error(ErrorKind::kInvalidArgument,
                      "type conversion error from '" + std::string(from) + "' to '" + std::string(to) + "'");
}

bool Digits(std::string_view s, size_t pos, size_t n, int* out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = 0; i < n; ++i) {
    char c = s[pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

int DaysIn(int year, int month) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

absl::Time ToAbsl(const Value& ts) {
  return absl::FromUnixSeconds(ts.timestamp_seconds()) + absl::Nanoseconds(ts.timestamp_nanos());
}

// The time zone argument of the getters: an IANA name or "+hh:mm"/"-hh:mm".
bool ResolveZone(const std::string& tz, absl::TimeZone* zone, Value* error) {
  size_t colon = tz.find(':');
  if (colon == std::string::npos) {
    if (tz.empty() || tz == "UTC") {
      *zone = absl::UTCTimeZone();
      return true;
    }
    if (!absl::LoadTimeZone(tz, zone)) {
      *error = Value::Error(ErrorKind::kInvalidArgument, "unknown time zone " + tz);
      return false;
    }
    return true;
  }
  auto hours = ParseIntLiteral(std::string_view(tz).substr(0, colon), 10);
  auto minutes = ParseIntLiteral(std::string_view(tz).substr(colon + 1), 10);
  if (!hours || !minutes) {
    *error = Value::Error(ErrorKind::kInvalidArgument, "invalid time zone offset: " + tz);
    return false;
  }
  if (*minutes < 0 || *minutes > 59) {
    *error = Value::Error(ErrorKind::kInvalidArgument, "invalid time zone offset: " + tz);
    return false;
  }
  int64_t offset = tz[0] == '-' ? *hours * 60 - *minutes : *hours * 60 + *minutes;
  *zone = absl::FixedTimeZone(static_cast<int>(offset * 60));
  return true;
}

enum class Part { kYear, kMonth, kDayOfYear, kDayOfMonth, kDate, kDayOfWeek, kHours, kMinutes, kSeconds, kMillis };

Value TimestampPart(const Value& ts, const absl::TimeZone& zone, Part part) {
  absl::TimeZone::CivilInfo ci = zone.At(ToAbsl(ts));
  const absl::CivilSecond& cs = ci.cs;
  switch (part) {
    case Part::kYear: return Value::Int(cs.year());
    case Part::kMonth: return Value::Int(cs.month() - 1);
    case Part::kDayOfYear: return Value::Int(absl::GetYearDay(absl::CivilDay(cs)) - 1);
    case Part::kDayOfMonth: return Value::Int(cs.day() - 1);
    case Part::kDate: return Value::Int(cs.day());
    case Part::kDayOfWeek: {
      // absl: Monday..Sunday; Go: Sunday = 0.
      int wd = static_cast<int>(absl::GetWeekday(absl::CivilDay(cs)));
      return Value::Int((wd + 1) % 7);
    }
    case Part::kHours: return Value::Int(cs.hour());
    case Part::kMinutes: return Value::Int(cs.minute());
    case Part::kSeconds: return Value::Int(cs.second());
    case Part::kMillis: return Value::Int(ts.timestamp_nanos() / 1000000);
  }
  return NoSuchOverload();
}

template <Part P>
Value TimestampGetter(std::span<const Value> args) {
  absl::TimeZone zone = absl::UTCTimeZone();
  if (args.size() == 2) {
    Value err;
    if (!ResolveZone(args[1].string_value(), &zone, &err)) return err;
  }
  return TimestampPart(args[0], zone, P);
}

Value DurationHours(std::span<const Value> a) { return Value::Int(a[0].duration_nanos() / (3600 * kNanosPerSecond)); }
Value DurationMinutes(std::span<const Value> a) { return Value::Int(a[0].duration_nanos() / (60 * kNanosPerSecond)); }
Value DurationSeconds(std::span<const Value> a) { return Value::Int(a[0].duration_nanos() / kNanosPerSecond); }
Value DurationMillis(std::span<const Value> a) { return Value::Int(a[0].duration_nanos() / 1000000); }

Value GetterFallback(std::span<const Value> args, std::string_view fn) {
  std::string sig;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) sig += ", ";
    sig += TypeName(args[i]);
  }
  return Value::Error(ErrorKind::kNoSuchOverload, "no such overload: " + std::string(fn) + "(" + sig + ")");
}

#define SCHEDKIT_CEL_GETTER_FALLBACK(name) \
  [](std::span<const Value> args) { return GetterFallback(args, name); }

}  // namespace

std::optional<int64_t> ParseGoDuration(std::string_view s) {
  constexpr uint64_t kLimit = uint64_t{1} << 63;
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return 0;
  if (s.empty()) return std::nullopt;
  uint64_t total = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || (s[0] >= '0' && s[0] <= '9'))) return std::nullopt;
    uint64_t v = 0;
    size_t i = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      if (v > kLimit / 10) return std::nullopt;
      v = v * 10 + static_cast<uint64_t>(s[i] - '0');
      if (v > kLimit) return std::nullopt;
      ++i;
    }
    bool pre = i > 0;
    s.remove_prefix(i);
    uint64_t f = 0;
    double scale = 1;
    bool post = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      size_t j = 0;
      bool overflow = false;
      while (j < s.size() && s[j] >= '0' && s[j] <= '9') {
        if (!overflow) {
          if (f > (kLimit - 1) / 10) {
            overflow = true;
          } else {
            uint64_t y = f * 10 + static_cast<uint64_t>(s[j] - '0');
            if (y > kLimit) {
              overflow = true;
            } else {
              f = y;
              scale *= 10;
            }
          }
        }
        ++j;
      }
      post = j > 0;
      s.remove_prefix(j);
    }
    if (!pre && !post) return std::nullopt;
    size_t u = 0;
    while (u < s.size() && s[u] != '.' && !(s[u] >= '0' && s[u] <= '9')) ++u;
    if (u == 0) return std::nullopt;
    std::string_view unit_name = s.substr(0, u);
    s.remove_prefix(u);
    uint64_t unit = 0;
    if (unit_name == "ns") unit = 1;
    else if (unit_name == "us" || unit_name == "\xC2\xB5s" || unit_name == "\xCE\xBCs") unit = 1000;
    else if (unit_name == "ms") unit = 1000000;
    else if (unit_name == "s") unit = 1000000000;
    else if (unit_name == "m") unit = 60ull * 1000000000;
    else if (unit_name == "h") unit = 3600ull * 1000000000;
    else return std::nullopt;
    if (v > kLimit / unit) return std::nullopt;
    v *= unit;
    if (f > 0) {
      v += static_cast<uint64_t>(static_cast<double>(f) * (static_cast<double>(unit) / scale));
      if (v > kLimit) return std::nullopt;
    }
    total += v;
    if (total > kLimit) return std::nullopt;
  }
  if (neg) return static_cast<int64_t>(0 - total);
  if (total > kLimit - 1) return std::nullopt;
  return static_cast<int64_t>(total);
}

std::string FormatDuration(int64_t nanos) {
  // Go: strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s", where Seconds()
  // splits whole seconds and nanoseconds before converting.
  int64_t sec = nanos / kNanosPerSecond;
  int64_t nsec = nanos % kNanosPerSecond;
  double seconds = static_cast<double>(sec) + static_cast<double>(nsec) / 1e9;
  char buf[400];
  // Shortest round-trip digits in fixed notation, as Go's 'f' with -1.
  auto res = std::to_chars(buf, buf + sizeof(buf), seconds, std::chars_format::fixed);
  std::string s(buf, res.ptr);
  return s + "s";
}

Value ParseTimestamp(std::string_view s) {
  int year, month, day, hour, minute, second;
  auto fail = [] { return ConversionError("string", "google.protobuf.Timestamp"); };
  if (!Digits(s, 0, 4, &year) || s.size() < 20 || s[4] != '-' || !Digits(s, 5, 2, &month) || s[7] != '-' ||
      !Digits(s, 8, 2, &day) || s[10] != 'T' || !Digits(s, 11, 2, &hour) || s[13] != ':' ||
      !Digits(s, 14, 2, &minute) || s[16] != ':' || !Digits(s, 17, 2, &second)) {
    return fail();
  }
  size_t pos = 19;
  int64_t nanos = 0;
  if (pos < s.size() && s[pos] == '.') {
    size_t start = ++pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
    size_t n = pos - start;
    if (n == 0 || n > 9) return fail();
    int frac = 0;
    Digits(s, start, n, &frac);
    nanos = frac;
    for (size_t k = n; k < 9; ++k) nanos *= 10;
  }
  int64_t offset_seconds = 0;
  if (pos < s.size() && s[pos] == 'Z') {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int oh, om;
    if (!Digits(s, pos + 1, 2, &oh) || pos + 3 >= s.size() || s[pos + 3] != ':' || !Digits(s, pos + 4, 2, &om) ||
        oh > 23 || om > 59) {
      return fail();
    }
    offset_seconds = (oh * 3600 + om * 60) * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return fail();
  }
  if (pos != s.size()) return fail();
  if (month < 1 || month > 12 || day < 1 || day > DaysIn(year, month) || hour > 23 || minute > 59 || second > 59) {
    return fail();
  }
  absl::Time t = absl::FromCivil(absl::CivilSecond(year, month, day, hour, minute, second), absl::UTCTimeZone());
  int64_t unix = absl::ToUnixSeconds(t) - offset_seconds;
  if (unix < kMinUnixTime || unix > kMaxUnixTime) return TimestampOverflow();
  return Value::Timestamp(unix, static_cast<int32_t>(nanos), static_cast<int32_t>(offset_seconds));
}

std::string FormatTimestamp(int64_t seconds, int32_t nanos, int32_t offset_seconds) {
  absl::CivilSecond cs = absl::ToCivilSecond(absl::FromUnixSeconds(seconds + offset_seconds), absl::UTCTimeZone());
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d", static_cast<int>(cs.year()), cs.month(),
                cs.day(), cs.hour(), cs.minute(), cs.second());
  std::string out = buf;
  if (nanos != 0) {
    std::snprintf(buf, sizeof(buf), "%09d", nanos);
    std::string frac = buf;
    while (!frac.empty() && frac.back() == '0') frac.pop_back();
    out += "." + frac;
  }
  if (offset_seconds == 0) return out + "Z";
  int32_t minutes = (offset_seconds < 0 ? -offset_seconds : offset_seconds) / 60;
  std::snprintf(buf, sizeof(buf), "%c%02d:%02d", offset_seconds < 0 ? '-' : '+', minutes / 60, minutes % 60);
  return out + buf;
}

Value TimestampFromUnix(int64_t seconds) {
  if (seconds < kMinUnixTime || seconds > kMaxUnixTime) return TimestampOverflow();
  return Value::Timestamp(seconds, 0);
}

Value AddTimestampDuration(const Value& ts, int64_t nanos) {
  auto sec = AddInt64(ts.timestamp_seconds(), nanos / kNanosPerSecond);
  if (!sec) return Value::Error(ErrorKind::kOverflow, "integer overflow");
  int64_t nsec = ts.timestamp_nanos() + nanos % kNanosPerSecond;
  if (nsec < 0 || nsec >= kNanosPerSecond) {
    sec = AddInt64(*sec, nsec / kNanosPerSecond);
    if (!sec) return Value::Error(ErrorKind::kOverflow, "integer overflow");
    nsec -= (nsec / kNanosPerSecond) * kNanosPerSecond;
    if (nsec < 0) {
      sec = AddInt64(*sec, -1);
      if (!sec) return Value::Error(ErrorKind::kOverflow, "integer overflow");
      nsec += kNanosPerSecond;
    }
  }
  if (*sec < kMinUnixTime || *sec > kMaxUnixTime) return TimestampOverflow();
  return Value::Timestamp(*sec, static_cast<int32_t>(nsec), ts.timestamp_offset());
}

Value SubtractTimestamps(const Value& a, const Value& b) {
  auto sec = SubInt64(a.timestamp_seconds(), b.timestamp_seconds());
  if (!sec) return Value::Error(ErrorKind::kOverflow, "integer overflow");
  int64_t nsec = a.timestamp_nanos() - b.timestamp_nanos();
  auto scaled = MulInt64(*sec, kNanosPerSecond);
  if (!scaled) return Value::Error(ErrorKind::kOverflow, "integer overflow");
  auto total = AddInt64(*scaled, nsec);
  if (!total) return Value::Error(ErrorKind::kOverflow, "integer overflow");
  return Value::Duration(*total);
}

void RegisterTimeFunctions(FunctionRegistry& reg) {
  using K = ValueKind;
  struct Getter {
    const char* name;
    const char* ts_id;
    FunctionImpl ts;
    const char* dur_id;
    FunctionImpl dur;
  };
  const Getter getters[] = {
      {"getFullYear", "timestamp_to_year", &TimestampGetter<Part::kYear>, nullptr, nullptr},
      {"getMonth", "timestamp_to_month", &TimestampGetter<Part::kMonth>, nullptr, nullptr},
      {"getDayOfYear", "timestamp_to_day_of_year", &TimestampGetter<Part::kDayOfYear>, nullptr, nullptr},
      {"getDayOfMonth", "timestamp_to_day_of_month", &TimestampGetter<Part::kDayOfMonth>, nullptr, nullptr},
      {"getDate", "timestamp_to_day_of_month_1_based", &TimestampGetter<Part::kDate>, nullptr, nullptr},
      {"getDayOfWeek", "timestamp_to_day_of_week", &TimestampGetter<Part::kDayOfWeek>, nullptr, nullptr},
      {"getHours", "timestamp_to_hours", &TimestampGetter<Part::kHours>, "duration_to_hours", &DurationHours},
      {"getMinutes", "timestamp_to_minutes", &TimestampGetter<Part::kMinutes>, "duration_to_minutes",
       &DurationMinutes},
      {"getSeconds", "timestamp_to_seconds", &TimestampGetter<Part::kSeconds>, "duration_to_seconds",
       &DurationSeconds},
      {"getMilliseconds", "timestamp_to_milliseconds", &TimestampGetter<Part::kMillis>, "duration_to_milliseconds",
       &DurationMillis},
  };
  for (const Getter& g : getters) {
    (void)reg.Add(g.name, {.id = g.ts_id, .arg_kinds = {K::kTimestamp}, .impl = g.ts, .cost = nullptr, .object_types = {}});
    (void)reg.Add(g.name, {.id = std::string(g.ts_id) + "_with_tz",
                           .arg_kinds = {K::kTimestamp, K::kString},
                           .impl = g.ts,
                           .cost = nullptr, .object_types = {}});
    if (g.dur != nullptr) {
      (void)reg.Add(g.name, {.id = g.dur_id, .arg_kinds = {K::kDuration}, .impl = g.dur, .cost = nullptr, .object_types = {}});
    }
  }
  reg.SetFallback("getFullYear", SCHEDKIT_CEL_GETTER_FALLBACK("getFullYear"));
  reg.SetFallback("getMonth", SCHEDKIT_CEL_GETTER_FALLBACK("getMonth"));
  reg.SetFallback("getDayOfYear", SCHEDKIT_CEL_GETTER_FALLBACK("getDayOfYear"));
  reg.SetFallback("getDayOfMonth", SCHEDKIT_CEL_GETTER_FALLBACK("getDayOfMonth"));
  reg.SetFallback("getDate", SCHEDKIT_CEL_GETTER_FALLBACK("getDate"));
  reg.SetFallback("getDayOfWeek", SCHEDKIT_CEL_GETTER_FALLBACK("getDayOfWeek"));
  reg.SetFallback("getHours", SCHEDKIT_CEL_GETTER_FALLBACK("getHours"));
  reg.SetFallback("getMinutes", SCHEDKIT_CEL_GETTER_FALLBACK("getMinutes"));
  reg.SetFallback("getSeconds", SCHEDKIT_CEL_GETTER_FALLBACK("getSeconds"));
  reg.SetFallback("getMilliseconds", SCHEDKIT_CEL_GETTER_FALLBACK("getMilliseconds"));
}

}  // namespace schedkit::cel
