// Durations and timestamps as cel-go: Go's time.ParseDuration, RFC 3339
// parsing and RFC3339Nano printing, the supported timestamp range
// (years 0001 to 9999), checked arithmetic, and the getters
// (getFullYear, getMonth, ..., getMilliseconds) with optional time zones.
//
// Registered into the standard registry by RegisterTimeFunctions; the
// parsing helpers are shared with conversions. Pure functions.
#ifndef SCHEDKIT_CEL_TIME_FUNCTIONS_H_
#define SCHEDKIT_CEL_TIME_FUNCTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cel/function_registry.h"
#include "cel/value.h"

namespace schedkit::cel {

// Go's time.ParseDuration, in nanoseconds.
std::optional<int64_t> ParseGoDuration(std::string_view s);
// cel-go's string(duration): seconds with 's', e.g. "1.5s".
std::string FormatDuration(int64_t nanos);
// timestamp(string): a Timestamp, "timestamp overflow" or a conversion error.
Value ParseTimestamp(std::string_view s);
// string(timestamp): RFC 3339 with nanoseconds, in the zone offset it was
// written with ("Z" for UTC).
std::string FormatTimestamp(int64_t seconds, int32_t nanos, int32_t offset_seconds = 0);
// timestamp(int): seconds since the epoch, range-checked.
Value TimestampFromUnix(int64_t seconds);

Value AddTimestampDuration(const Value& ts, int64_t nanos);
Value SubtractTimestamps(const Value& a, const Value& b);

void RegisterTimeFunctions(FunctionRegistry& reg);

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_TIME_FUNCTIONS_H_
