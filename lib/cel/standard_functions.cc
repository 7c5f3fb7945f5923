// The standard library of cel-go (common/stdlib/standard.go) as overloads:
// arithmetic, comparison, size, conversions, string functions, regex,
// the optional library's functions and ext.TwoVarComprehensions' map insert.
// Errors and their texts follow cel-go's: a function whose receiver kind
// supports the operation answers "no such overload" for a bad argument, one
// whose receiver does not answers "no such overload: <function>".
#include <algorithm>
#include <cmath>
#include <span>

#include "cel/function_registry.h"
#include "cel/kubernetes_libraries.h"
#include "cel/literals.h"
#include "cel/lexer.h"
#include "cel/numeric.h"
#include "cel/time_functions.h"
#include "re2/re2.h"

namespace schedkit::cel {

// cel-go's actualSize: the size of strings, bytes, lists and maps, else 1.
uint64_t ActualSize(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kString: {
      uint64_t n = 0;
      for (unsigned char c : v.string_value()) n += (c & 0xC0) != 0x80;
      return n;
    }
    case ValueKind::kBytes: return v.string_value().size();
    case ValueKind::kList: return v.list_elements().size();
    case ValueKind::kMap: return v.map().size();
    case ValueKind::kOptional: return v.optional_has_value() ? ActualSize(v.optional_value()) : 1;
    case ValueKind::kObject: {
      int64_t n = v.object().Size();
      return n >= 0 ? static_cast<uint64_t>(n) : 1;
    }
    default: return 1;
  }
}

namespace {

using K = ValueKind;
using Args = std::span<const Value>;

// cel-go's common.StringTraversalCostFactor and RegexStringLengthCostFactor.
constexpr double kStringTraversalCostFactor = 0.1;
constexpr double kRegexStringLengthCostFactor = 0.25;

Value Overflow() { return Value::Error(ErrorKind::kOverflow, "integer overflow"); }
Value UintOverflow() { return Value::Error(ErrorKind::kOverflow, "unsigned integer overflow"); }
Value Conversion(std::string_view from, std::string_view to) {
  return Value::Error(ErrorKind::kInvalidArgument,
                      "type conversion error from '" + std::string(from) + "' to '" + std::string(to) + "'");
}

uint64_t Traversal(uint64_t size) {
  return static_cast<uint64_t>(std::ceil(static_cast<double>(size) * kStringTraversalCostFactor));
}

uint64_t CostSumTraversal(Args a, const Value&) { return Traversal(ActualSize(a[0]) + ActualSize(a[1])); }
uint64_t CostMinTraversal(Args a, const Value&) { return Traversal(std::min(ActualSize(a[0]), ActualSize(a[1]))); }
uint64_t CostArg0Traversal(Args a, const Value&) { return Traversal(ActualSize(a[0])); }
uint64_t CostArg1Traversal(Args a, const Value&) { return Traversal(ActualSize(a[1])); }
uint64_t CostInList(Args a, const Value&) { return ActualSize(a[1]); }
uint64_t CostProductTraversal(Args a, const Value&) {
  return Traversal(ActualSize(a[0])) * Traversal(ActualSize(a[1]));
}
uint64_t CostMatches(Args a, const Value&) {
  uint64_t str = static_cast<uint64_t>(std::ceil((1.0 + static_cast<double>(ActualSize(a[0]))) *
                                                 kStringTraversalCostFactor));
  uint64_t re = static_cast<uint64_t>(std::ceil(static_cast<double>(ActualSize(a[1])) * kRegexStringLengthCostFactor));
  return str * re;
}

std::string Signature(Args args) {
  std::string sig;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) sig += ", ";
    sig += TypeName(args[i]);
  }
  return sig;
}

// --- arithmetic ---------------------------------------------------------

Value AddInt(Args a) {
  auto r = AddInt64(a[0].int_value(), a[1].int_value());
  return r ? Value::Int(*r) : Overflow();
}
Value AddUint(Args a) {
  auto r = AddUint64(a[0].uint_value(), a[1].uint_value());
  return r ? Value::Uint(*r) : UintOverflow();
}
Value AddDouble(Args a) { return Value::Double(a[0].double_value() + a[1].double_value()); }
Value AddString(Args a) { return Value::String(a[0].string_value() + a[1].string_value()); }
Value AddBytes(Args a) { return Value::Bytes(a[0].string_value() + a[1].string_value()); }
Value AddList(Args a) {
  const auto& x = a[0].list_elements();
  const auto& y = a[1].list_elements();
  if (y.empty()) return a[0];
  if (x.empty()) return a[1];
  std::vector<Value> out;
  out.reserve(x.size() + y.size());
  out.insert(out.end(), x.begin(), x.end());
  out.insert(out.end(), y.begin(), y.end());
  return Value::List(std::move(out));
}
Value AddDurations(Args a) {
  auto r = AddInt64(a[0].duration_nanos(), a[1].duration_nanos());
  return r ? Value::Duration(*r) : Overflow();
}
Value AddTimestampDur(Args a) { return AddTimestampDuration(a[0], a[1].duration_nanos()); }
Value AddDurTimestamp(Args a) { return AddTimestampDuration(a[1], a[0].duration_nanos()); }

Value SubInt(Args a) {
  auto r = SubInt64(a[0].int_value(), a[1].int_value());
  return r ? Value::Int(*r) : Overflow();
}
Value SubUint(Args a) {
  auto r = SubUint64(a[0].uint_value(), a[1].uint_value());
  return r ? Value::Uint(*r) : UintOverflow();
}
Value SubDouble(Args a) { return Value::Double(a[0].double_value() - a[1].double_value()); }
Value SubDurations(Args a) {
  auto r = SubInt64(a[0].duration_nanos(), a[1].duration_nanos());
  return r ? Value::Duration(*r) : Overflow();
}
Value SubTimestampDur(Args a) {
  auto neg = NegInt64(a[1].duration_nanos());
  if (!neg) return Overflow();
  return AddTimestampDuration(a[0], *neg);
}
Value SubTimestamps(Args a) { return SubtractTimestamps(a[0], a[1]); }

Value MulInt(Args a) {
  auto r = MulInt64(a[0].int_value(), a[1].int_value());
  return r ? Value::Int(*r) : Overflow();
}
Value MulUint(Args a) {
  auto r = MulUint64(a[0].uint_value(), a[1].uint_value());
  return r ? Value::Uint(*r) : UintOverflow();
}
Value MulDouble(Args a) { return Value::Double(a[0].double_value() * a[1].double_value()); }

Value DivInt(Args a) {
  int64_t x = a[0].int_value(), y = a[1].int_value();
  if (y == 0) return Value::Error(ErrorKind::kDivisionByZero, "division by zero");
  if (x == INT64_MIN && y == -1) return Overflow();
  return Value::Int(x / y);
}
Value DivUint(Args a) {
  if (a[1].uint_value() == 0) return Value::Error(ErrorKind::kDivisionByZero, "division by zero");
  return Value::Uint(a[0].uint_value() / a[1].uint_value());
}
Value DivDouble(Args a) { return Value::Double(a[0].double_value() / a[1].double_value()); }

Value ModInt(Args a) {
  int64_t x = a[0].int_value(), y = a[1].int_value();
  if (y == 0) return Value::Error(ErrorKind::kModulusByZero, "modulus by zero");
  if (x == INT64_MIN && y == -1) return Overflow();
  return Value::Int(x % y);
}
Value ModUint(Args a) {
  if (a[1].uint_value() == 0) return Value::Error(ErrorKind::kModulusByZero, "modulus by zero");
  return Value::Uint(a[0].uint_value() % a[1].uint_value());
}

Value NegInt(Args a) {
  auto r = NegInt64(a[0].int_value());
  return r ? Value::Int(*r) : Overflow();
}
Value NegDouble(Args a) { return Value::Double(-a[0].double_value()); }
Value NegDuration(Args a) {
  auto r = NegInt64(a[0].duration_nanos());
  return r ? Value::Duration(*r) : Overflow();
}

Value LogicalNot(Args a) {
  if (a[0].kind() != ValueKind::kBool) return NoSuchOverload();
  return Value::Bool(!a[0].bool_value());
}

// Trait-style fallbacks: the receiver kinds that support an operation.
template <ValueKind... kinds>
bool KindIn(const Value& v) {
  return ((v.kind() == kinds) || ...);
}

// Kinds that take member calls in cel-go (traits.ReceiverType): for them a
// missing operator overload is plain "no such overload".
bool IsReceiver(const Value& v) {
  using VK = ValueKind;
  return KindIn<VK::kString, VK::kDuration, VK::kTimestamp, VK::kObject>(v);
}

Value AddFallback(Args a) {
  using VK = ValueKind;
  if (IsReceiver(a[0]) || KindIn<VK::kInt, VK::kUint, VK::kDouble, VK::kBytes, VK::kList>(a[0])) {
    return NoSuchOverload();
  }
  return NoSuchOverload("_+_");
}
Value SubFallback(Args a) {
  using VK = ValueKind;
  if (IsReceiver(a[0]) || KindIn<VK::kInt, VK::kUint, VK::kDouble>(a[0])) return NoSuchOverload();
  return NoSuchOverload("_-_");
}
Value MulFallback(Args a) {
  using VK = ValueKind;
  if (IsReceiver(a[0]) || KindIn<VK::kInt, VK::kUint, VK::kDouble>(a[0])) return NoSuchOverload();
  return NoSuchOverload("_*_");
}
Value DivFallback(Args a) {
  using VK = ValueKind;
  if (IsReceiver(a[0]) || KindIn<VK::kInt, VK::kUint, VK::kDouble>(a[0])) return NoSuchOverload();
  return NoSuchOverload("_/_");
}
Value ModFallback(Args a) {
  using VK = ValueKind;
  if (IsReceiver(a[0]) || KindIn<VK::kInt, VK::kUint>(a[0])) return NoSuchOverload();
  return NoSuchOverload("_%_");
}
Value NegFallback(Args a) {
  using VK = ValueKind;
  if (IsReceiver(a[0]) || KindIn<VK::kBool, VK::kInt, VK::kDouble>(a[0])) return NoSuchOverload();
  return NoSuchOverload("-_");
}

// --- comparison ---------------------------------------------------------

bool IsComparer(const Value& v) {
  using VK = ValueKind;
  return IsReceiver(v) ||
         KindIn<VK::kBool, VK::kInt, VK::kUint, VK::kDouble, VK::kString, VK::kBytes, VK::kDuration, VK::kTimestamp>(v);
}

// -1/0/1, or an error value in *err.
int Compare(const Value& a, const Value& b, Value* err) {
  if (IsNumeric(a)) {
    if (a.kind() == ValueKind::kDouble && std::isnan(a.double_value())) {
      *err = Value::Error(ErrorKind::kInvalidArgument, "NaN values cannot be ordered");
      return 0;
    }
    if (!IsNumeric(b)) {
      *err = NoSuchOverload();
      return 0;
    }
    int c = CompareNumeric(a, b);
    if (c == kUnordered) {
      *err = Value::Error(ErrorKind::kInvalidArgument, "NaN values cannot be ordered");
      return 0;
    }
    return c;
  }
  if (a.kind() != b.kind()) {
    *err = NoSuchOverload();
    return 0;
  }
  switch (a.kind()) {
    case ValueKind::kBool: return a.bool_value() == b.bool_value() ? 0 : (a.bool_value() ? 1 : -1);
    case ValueKind::kString:
    case ValueKind::kBytes: {
      int c = a.string_value().compare(b.string_value());
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case ValueKind::kDuration:
      return a.duration_nanos() < b.duration_nanos() ? -1 : (a.duration_nanos() > b.duration_nanos() ? 1 : 0);
    case ValueKind::kTimestamp:
      if (a.timestamp_seconds() != b.timestamp_seconds()) return a.timestamp_seconds() < b.timestamp_seconds() ? -1 : 1;
      return a.timestamp_nanos() < b.timestamp_nanos() ? -1 : (a.timestamp_nanos() > b.timestamp_nanos() ? 1 : 0);
    default:
      *err = NoSuchOverload();
      return 0;
  }
}

enum class Rel { kLess, kLessEq, kGreater, kGreaterEq };

template <Rel R>
Value Relation(Args a) {
  static constexpr const char* kNames[] = {"_<_", "_<=_", "_>_", "_>=_"};
  if (!IsComparer(a[0])) return NoSuchOverload(kNames[static_cast<int>(R)]);
  Value err;
  int c = Compare(a[0], a[1], &err);
  if (err.is_error()) return err;
  switch (R) {
    case Rel::kLess: return Value::Bool(c < 0);
    case Rel::kLessEq: return Value::Bool(c <= 0);
    case Rel::kGreater: return Value::Bool(c > 0);
    case Rel::kGreaterEq: return Value::Bool(c >= 0);
  }
  return NoSuchOverload();
}

// --- equality, membership, size ----------------------------------------

// cel-go's types.Equal: null equals only null, else the left side decides.
Value Equals(Args a) {
  if (a[0].kind() == ValueKind::kObject && a[1].kind() != ValueKind::kNull) return a[0].object().EqualTo(a[1]);
  return Value::Bool(ValuesEqual(a[0], a[1]));
}
// cel-go's evalNe: anything but a true Equal (an error too) is unequal.
Value NotEquals(Args a) {
  Value eq = Equals(a);
  return Value::Bool(!(eq.is_bool() && eq.bool_value()));
}

Value InList(Args a) {
  for (const Value& e : a[1].list_elements()) {
    if (ValuesEqual(a[0], e)) return Value::Bool(true);
  }
  return Value::Bool(false);
}
Value InMap(Args a) { return Value::Bool(a[1].map().Find(a[0]) != nullptr); }
Value InFallback(Args) { return NoSuchOverload(); }

Value SizeString(Args a) { return Value::Int(static_cast<int64_t>(ActualSize(a[0]))); }
Value SizeBytes(Args a) { return Value::Int(static_cast<int64_t>(a[0].string_value().size())); }
Value SizeList(Args a) { return Value::Int(static_cast<int64_t>(a[0].list_elements().size())); }
Value SizeMap(Args a) { return Value::Int(static_cast<int64_t>(a[0].map().size())); }
Value SizeFallback(Args a) { return IsReceiver(a[0]) ? NoSuchOverload() : NoSuchOverload("size"); }

// --- conversions --------------------------------------------------------

Value Identity(Args a) { return a[0]; }

Value ToInt(Args a) {
  const Value& v = a[0];
  switch (v.kind()) {
    case ValueKind::kUint:
      if (v.uint_value() > static_cast<uint64_t>(INT64_MAX)) return Overflow();
      return Value::Int(static_cast<int64_t>(v.uint_value()));
    case ValueKind::kDouble: {
      auto i = DoubleToInt64Checked(v.double_value());
      return i ? Value::Int(*i) : Overflow();
    }
    case ValueKind::kString: {
      auto i = ParseIntLiteral(v.string_value(), 10);
      return i ? Value::Int(*i) : Conversion("string", "int");
    }
    case ValueKind::kTimestamp: return Value::Int(v.timestamp_seconds());
    case ValueKind::kDuration: return Value::Int(v.duration_nanos());
    default: return v;
  }
}

Value ToUint(Args a) {
  const Value& v = a[0];
  switch (v.kind()) {
    case ValueKind::kInt:
      if (v.int_value() < 0) return UintOverflow();
      return Value::Uint(static_cast<uint64_t>(v.int_value()));
    case ValueKind::kDouble: {
      auto u = DoubleToUint64Checked(v.double_value());
      return u ? Value::Uint(*u) : UintOverflow();
    }
    case ValueKind::kString: {
      std::string_view s = v.string_value();
      if (!s.empty() && s[0] == '+') s.remove_prefix(1);
      auto u = ParseUintLiteral(s, 10);
      return u ? Value::Uint(*u) : Conversion("string", "uint");
    }
    default: return v;
  }
}

std::optional<double> ParseGoFloat(std::string_view s) {
  if (s.empty() || s.front() == ' ' || s.front() == '\t' || s.front() == '\n') return std::nullopt;
  std::string lower;
  for (char c : s) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  std::string_view body = lower;
  bool neg = false;
  if (!body.empty() && (body[0] == '+' || body[0] == '-')) {
    neg = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body == "inf" || body == "infinity") return neg ? -INFINITY : INFINITY;
  if (body == "nan") return NAN;
  if (body.find("nan") != std::string_view::npos || body.find("inf") != std::string_view::npos) return std::nullopt;
  // Go accepts underscores between digits.
  std::string copy;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '_') {
      bool ok = i > 0 && i + 1 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i - 1])) &&
                std::isxdigit(static_cast<unsigned char>(s[i + 1]));
      if (!ok) return std::nullopt;
      continue;
    }
    copy.push_back(s[i]);
  }
  char* end = nullptr;
  double d = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size()) return std::nullopt;
  if (std::isinf(d)) return std::nullopt;  // Go reports overflow as an error
  return d;
}

Value ToDouble(Args a) {
  const Value& v = a[0];
  switch (v.kind()) {
    case ValueKind::kInt: return Value::Double(static_cast<double>(v.int_value()));
    case ValueKind::kUint: return Value::Double(static_cast<double>(v.uint_value()));
    case ValueKind::kString: {
      auto d = ParseGoFloat(v.string_value());
      return d ? Value::Double(*d) : Conversion("string", "double");
    }
    default: return v;
  }
}

bool ValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    size_t size = 1;
    char32_t c = DecodeRuneAt(s, i, &size);
    if (c == 0xFFFD && size == 1) return false;
    i += size;
  }
  return true;
}

Value ToString(Args a) {
  const Value& v = a[0];
  switch (v.kind()) {
    case ValueKind::kBool: return Value::String(v.bool_value() ? "true" : "false");
    case ValueKind::kInt: return Value::String(std::to_string(v.int_value()));
    case ValueKind::kUint: return Value::String(std::to_string(v.uint_value()));
    case ValueKind::kDouble: return Value::String(FormatDoubleGo(v.double_value()));
    case ValueKind::kBytes:
      if (!ValidUtf8(v.string_value())) {
        return Value::Error(ErrorKind::kInvalidArgument, "invalid UTF-8 in bytes, cannot convert to string");
      }
      return Value::String(v.string_value());
    case ValueKind::kDuration: return Value::String(FormatDuration(v.duration_nanos()));
    case ValueKind::kTimestamp:
      return Value::String(FormatTimestamp(v.timestamp_seconds(), v.timestamp_nanos(), v.timestamp_offset()));
    default: return v;
  }
}

Value ToBytes(Args a) {
  if (a[0].kind() == ValueKind::kString) return Value::Bytes(a[0].string_value());
  return a[0];
}

Value ToBool(Args a) {
  if (a[0].kind() != ValueKind::kString) return a[0];
  const std::string& s = a[0].string_value();
  if (s == "1" || s == "t" || s == "T" || s == "TRUE" || s == "true" || s == "True") return Value::Bool(true);
  if (s == "0" || s == "f" || s == "F" || s == "FALSE" || s == "false" || s == "False") return Value::Bool(false);
  return Conversion("string", "bool");
}

Value ToType(Args a) { return Value::Type(TypeName(a[0])); }

Value ToDuration(Args a) {
  if (a[0].kind() != ValueKind::kString) return a[0];
  auto d = ParseGoDuration(a[0].string_value());
  return d ? Value::Duration(*d) : Conversion("string", "google.protobuf.Duration");
}

Value ToTimestamp(Args a) {
  switch (a[0].kind()) {
    case ValueKind::kString: return ParseTimestamp(a[0].string_value());
    case ValueKind::kInt: return TimestampFromUnix(a[0].int_value());
    default: return a[0];
  }
}

template <const char* kName>
Value ConversionFallback(Args a) {
  return Value::Error(ErrorKind::kNoSuchOverload, "no such overload: " + std::string(kName) + "(" + Signature(a) + ")");
}
constexpr char kIntName[] = "int";
constexpr char kUintName[] = "uint";
constexpr char kDoubleName[] = "double";
constexpr char kStringName[] = "string";
constexpr char kBytesName[] = "bytes";
constexpr char kBoolName[] = "bool";
constexpr char kDurationName[] = "duration";
constexpr char kTimestampName[] = "timestamp";
constexpr char kHasValueName[] = "hasValue";
constexpr char kValueName[] = "value";
constexpr char kMapInsertName[] = "cel.@mapInsert";

// --- strings ------------------------------------------------------------

}  // namespace

std::string RegexError(const RE2& re) {
  // Go's regexp/syntax error texts for RE2's error codes.
  const char* code = "regexp/syntax: internal error";
  switch (re.error_code()) {
    case RE2::ErrorBadEscape: code = "invalid escape sequence"; break;
    case RE2::ErrorBadCharClass: code = "invalid character class"; break;
    case RE2::ErrorBadCharRange: code = "invalid character class range"; break;
    case RE2::ErrorMissingBracket: code = "missing closing ]"; break;
    case RE2::ErrorMissingParen: code = "missing closing )"; break;
    case RE2::ErrorUnexpectedParen: code = "unexpected )"; break;
    case RE2::ErrorTrailingBackslash: code = "trailing backslash at end of expression"; break;
    case RE2::ErrorRepeatArgument: code = "missing argument to repetition operator"; break;
    case RE2::ErrorRepeatSize: code = "invalid repeat count"; break;
    case RE2::ErrorRepeatOp: code = "invalid nested repetition operator"; break;
    case RE2::ErrorBadPerlOp: code = "invalid or unsupported Perl syntax"; break;
    case RE2::ErrorBadUTF8: code = "invalid UTF-8"; break;
    case RE2::ErrorBadNamedCapture: code = "invalid named capture"; break;
    case RE2::ErrorPatternTooLarge: code = "expression too large"; break;
    default: break;
  }
  return std::string("error parsing regexp: ") + code + ": `" + re.error_arg() + "`";
}

namespace {

Value Contains(Args a) { return Value::Bool(a[0].string_value().find(a[1].string_value()) != std::string::npos); }
Value StartsWith(Args a) { return Value::Bool(a[0].string_value().rfind(a[1].string_value(), 0) == 0); }
Value EndsWith(Args a) {
  const std::string& s = a[0].string_value();
  const std::string& t = a[1].string_value();
  return Value::Bool(s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0);
}
Value StringFallback(Args) { return NoSuchOverload(); }

Value Matches(Args a) {
  RE2::Options opts;
  opts.set_log_errors(false);
  RE2 re(a[1].string_value(), opts);
  if (!re.ok()) return Value::Error(ErrorKind::kInvalidArgument, RegexError(re));
  return Value::Bool(RE2::PartialMatch(a[0].string_value(), re));
}

// --- optionals ----------------------------------------------------------

Value OptionalOf(Args a) { return Value::OptionalOf(a[0]); }
Value OptionalNone(Args) { return Value::OptionalNone(); }

bool IsZeroValue(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kNull: return true;
    case ValueKind::kBool: return !v.bool_value();
    case ValueKind::kInt: return v.int_value() == 0;
    case ValueKind::kUint: return v.uint_value() == 0;
    case ValueKind::kDouble: return v.double_value() == 0;
    case ValueKind::kString:
    case ValueKind::kBytes: return v.string_value().empty();
    case ValueKind::kList: return v.list_elements().empty();
    case ValueKind::kMap: return v.map().size() == 0;
    case ValueKind::kDuration: return v.duration_nanos() == 0;
    case ValueKind::kTimestamp: return v.timestamp_seconds() == 0 && v.timestamp_nanos() == 0;
    case ValueKind::kOptional: return !v.optional_has_value();
    default: return false;
  }
}
Value OptionalOfNonZero(Args a) { return IsZeroValue(a[0]) ? Value::OptionalNone() : Value::OptionalOf(a[0]); }
Value OptionalHasValue(Args a) { return Value::Bool(a[0].optional_has_value()); }
Value OptionalValue(Args a) {
  if (!a[0].optional_has_value()) return Value::Error(ErrorKind::kInvalidArgument, "optional.none() dereference");
  return a[0].optional_value();
}

// ext.Lists' trackListSelfCompare on the keys: sorting costs 2 (2.1 for
// strings and bytes) per pair of elements, plus the call and the new list.
uint64_t CostSortByKeys(Args a, const Value&) {
  const auto& keys = a[1].list_elements();
  double factor = 2.0;
  if (!keys.empty() && (keys[0].kind() == ValueKind::kString || keys[0].kind() == ValueKind::kBytes)) {
    factor += kStringTraversalCostFactor;
  }
  uint64_t n = keys.size();
  return static_cast<uint64_t>(static_cast<double>(n * n) * factor) + 1 + 10;
}

// --- @sortByAssociatedKeys (ext.Lists' sortBy macro) ---------------------

Value SortByAssociatedKeys(Args a) {
  const auto& list = a[0].list_elements();
  const auto& keys = a[1].list_elements();
  if (list.size() != keys.size()) {
    return Value::Error(ErrorKind::kInvalidArgument,
                        "@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but "
                        "got " + std::to_string(list.size()) + " and " + std::to_string(keys.size()) +
                            " elements respectively");
  }
  if (list.empty()) return a[0];
  if (!IsComparer(keys[0])) return Value::Error(ErrorKind::kInvalidArgument, "list elements must be comparable");
  std::vector<size_t> order(list.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  bool mixed = false;
  // Go's sort.Slice is stable for the short lists selectors sort (insertion
  // sort below 13 elements); ties in longer lists may order differently.
  std::stable_sort(order.begin(), order.end(), [&](size_t i, size_t j) {
    if (keys[i].kind() != keys[0].kind() || keys[j].kind() != keys[0].kind()) {
      mixed = true;
      return false;
    }
    Value err;
    return Compare(keys[i], keys[j], &err) < 0;
  });
  if (mixed) return Value::Error(ErrorKind::kInvalidArgument, "list elements must have the same type");
  std::vector<Value> sorted;
  sorted.reserve(list.size());
  for (size_t i : order) sorted.push_back(list[i]);
  return Value::List(std::move(sorted));
}

// --- cel.@mapInsert (transformMap, transformMapEntry) --------------------

Value MapInsert(Args a) {
  const MapRep& m = a[0].map();
  std::vector<std::pair<Value, Value>> entries = m.entries;
  auto insert = [&](const Value& k, const Value& v) -> bool {
    if (m.Find(k) != nullptr) return false;
    entries.emplace_back(k, v);
    return true;
  };
  if (a.size() == 3) {
    if (!insert(a[1], a[2])) {
      return Value::Error(ErrorKind::kInvalidArgument, "insert failed: key " + FormatForMessage(a[1]) + " already exists");
    }
  } else {
    for (const auto& [k, v] : a[1].map().entries) {
      if (!insert(k, v)) {
        return Value::Error(ErrorKind::kInvalidArgument, "insert failed: key " + FormatForMessage(k) + " already exists");
      }
    }
  }
  return Value::Map(std::move(entries));
}

void Add(FunctionRegistry& r, std::string_view fn, std::string id, std::vector<ValueKind> kinds, FunctionImpl impl,
         CostFunction cost = nullptr) {
  (void)r.Add(fn, Overload{.id = std::move(id), .arg_kinds = std::move(kinds), .impl = impl, .cost = cost});
}

void RegisterRelation(FunctionRegistry& r, std::string_view fn, std::string_view prefix, FunctionImpl impl) {
  const std::string p(prefix);
  Add(r, fn, p + "_bool", {K::kBool, K::kBool}, impl);
  Add(r, fn, p + "_int64", {K::kInt, K::kInt}, impl);
  Add(r, fn, p + "_int64_uint64", {K::kInt, K::kUint}, impl);
  Add(r, fn, p + "_int64_double", {K::kInt, K::kDouble}, impl);
  Add(r, fn, p + "_uint64", {K::kUint, K::kUint}, impl);
  Add(r, fn, p + "_uint64_int64", {K::kUint, K::kInt}, impl);
  Add(r, fn, p + "_uint64_double", {K::kUint, K::kDouble}, impl);
  Add(r, fn, p + "_double", {K::kDouble, K::kDouble}, impl);
  Add(r, fn, p + "_double_int64", {K::kDouble, K::kInt}, impl);
  Add(r, fn, p + "_double_uint64", {K::kDouble, K::kUint}, impl);
  Add(r, fn, p + "_string", {K::kString, K::kString}, impl, &CostMinTraversal);
  Add(r, fn, p + "_bytes", {K::kBytes, K::kBytes}, impl, &CostMinTraversal);
  Add(r, fn, p + "_timestamp", {K::kTimestamp, K::kTimestamp}, impl);
  Add(r, fn, p + "_duration", {K::kDuration, K::kDuration}, impl);
  r.SetFallback(fn, impl);
}

}  // namespace

void RegisterStandardFunctions(FunctionRegistry& registry) {
  FunctionRegistry* r = &registry;
  Add(*r, "_+_", "add_int64", {K::kInt, K::kInt}, &AddInt);
  Add(*r, "_+_", "add_uint64", {K::kUint, K::kUint}, &AddUint);
  Add(*r, "_+_", "add_double", {K::kDouble, K::kDouble}, &AddDouble);
  Add(*r, "_+_", "add_string", {K::kString, K::kString}, &AddString, &CostSumTraversal);
  Add(*r, "_+_", "add_bytes", {K::kBytes, K::kBytes}, &AddBytes, &CostSumTraversal);
  Add(*r, "_+_", "add_list", {K::kList, K::kList}, &AddList);
  Add(*r, "_+_", "add_duration_duration", {K::kDuration, K::kDuration}, &AddDurations);
  Add(*r, "_+_", "add_timestamp_duration", {K::kTimestamp, K::kDuration}, &AddTimestampDur);
  Add(*r, "_+_", "add_duration_timestamp", {K::kDuration, K::kTimestamp}, &AddDurTimestamp);
  r->SetFallback("_+_", &AddFallback);

  Add(*r, "_-_", "subtract_int64", {K::kInt, K::kInt}, &SubInt);
  Add(*r, "_-_", "subtract_uint64", {K::kUint, K::kUint}, &SubUint);
  Add(*r, "_-_", "subtract_double", {K::kDouble, K::kDouble}, &SubDouble);
  Add(*r, "_-_", "subtract_duration_duration", {K::kDuration, K::kDuration}, &SubDurations);
  Add(*r, "_-_", "subtract_timestamp_duration", {K::kTimestamp, K::kDuration}, &SubTimestampDur);
  Add(*r, "_-_", "subtract_timestamp_timestamp", {K::kTimestamp, K::kTimestamp}, &SubTimestamps);
  r->SetFallback("_-_", &SubFallback);

  Add(*r, "_*_", "multiply_int64", {K::kInt, K::kInt}, &MulInt);
  Add(*r, "_*_", "multiply_uint64", {K::kUint, K::kUint}, &MulUint);
  Add(*r, "_*_", "multiply_double", {K::kDouble, K::kDouble}, &MulDouble);
  r->SetFallback("_*_", &MulFallback);

  Add(*r, "_/_", "divide_int64", {K::kInt, K::kInt}, &DivInt);
  Add(*r, "_/_", "divide_uint64", {K::kUint, K::kUint}, &DivUint);
  Add(*r, "_/_", "divide_double", {K::kDouble, K::kDouble}, &DivDouble);
  r->SetFallback("_/_", &DivFallback);

  Add(*r, "_%_", "modulo_int64", {K::kInt, K::kInt}, &ModInt);
  Add(*r, "_%_", "modulo_uint64", {K::kUint, K::kUint}, &ModUint);
  r->SetFallback("_%_", &ModFallback);

  Add(*r, "-_", "negate_int64", {K::kInt}, &NegInt);
  Add(*r, "-_", "negate_double", {K::kDouble}, &NegDouble);
  Add(*r, "-_", "negate_duration", {K::kDuration}, &NegDuration);
  r->SetFallback("-_", &NegFallback);

  Add(*r, "!_", "logical_not", {K::kBool}, &LogicalNot);
  r->SetFallback("!_", &LogicalNot);

  RegisterRelation(*r, "_<_", "less", &Relation<Rel::kLess>);
  RegisterRelation(*r, "_<=_", "less_equals", &Relation<Rel::kLessEq>);
  RegisterRelation(*r, "_>_", "greater", &Relation<Rel::kGreater>);
  RegisterRelation(*r, "_>=_", "greater_equals", &Relation<Rel::kGreaterEq>);

  Add(*r, "_==_", "equals", {K::kAny, K::kAny}, &Equals, &CostMinTraversal);
  Add(*r, "_!=_", "not_equals", {K::kAny, K::kAny}, &NotEquals, &CostMinTraversal);

  Add(*r, "@in", "in_list", {K::kAny, K::kList}, &InList, &CostInList);
  Add(*r, "@in", "in_map", {K::kAny, K::kMap}, &InMap);
  r->SetFallback("@in", &InFallback);

  Add(*r, "size", "size_string", {K::kString}, &SizeString);
  Add(*r, "size", "size_bytes", {K::kBytes}, &SizeBytes);
  Add(*r, "size", "size_list", {K::kList}, &SizeList);
  Add(*r, "size", "size_map", {K::kMap}, &SizeMap);
  r->SetFallback("size", &SizeFallback);

  Add(*r, "int", "int64_to_int64", {K::kInt}, &Identity);
  Add(*r, "int", "uint64_to_int64", {K::kUint}, &ToInt);
  Add(*r, "int", "double_to_int64", {K::kDouble}, &ToInt);
  Add(*r, "int", "string_to_int64", {K::kString}, &ToInt);
  Add(*r, "int", "timestamp_to_int64", {K::kTimestamp}, &ToInt);
  Add(*r, "int", "duration_to_int64", {K::kDuration}, &ToInt);
  r->SetFallback("int", &ConversionFallback<kIntName>);

  Add(*r, "uint", "uint64_to_uint64", {K::kUint}, &Identity);
  Add(*r, "uint", "int64_to_uint64", {K::kInt}, &ToUint);
  Add(*r, "uint", "double_to_uint64", {K::kDouble}, &ToUint);
  Add(*r, "uint", "string_to_uint64", {K::kString}, &ToUint);
  r->SetFallback("uint", &ConversionFallback<kUintName>);

  Add(*r, "double", "double_to_double", {K::kDouble}, &Identity);
  Add(*r, "double", "int64_to_double", {K::kInt}, &ToDouble);
  Add(*r, "double", "uint64_to_double", {K::kUint}, &ToDouble);
  Add(*r, "double", "string_to_double", {K::kString}, &ToDouble);
  r->SetFallback("double", &ConversionFallback<kDoubleName>);

  Add(*r, "string", "string_to_string", {K::kString}, &Identity);
  Add(*r, "string", "bool_to_string", {K::kBool}, &ToString);
  Add(*r, "string", "bytes_to_string", {K::kBytes}, &ToString, &CostArg0Traversal);
  Add(*r, "string", "double_to_string", {K::kDouble}, &ToString);
  Add(*r, "string", "duration_to_string", {K::kDuration}, &ToString);
  Add(*r, "string", "int64_to_string", {K::kInt}, &ToString);
  Add(*r, "string", "timestamp_to_string", {K::kTimestamp}, &ToString);
  Add(*r, "string", "uint64_to_string", {K::kUint}, &ToString);
  r->SetFallback("string", &ConversionFallback<kStringName>);

  Add(*r, "bytes", "bytes_to_bytes", {K::kBytes}, &Identity);
  Add(*r, "bytes", "string_to_bytes", {K::kString}, &ToBytes, &CostArg0Traversal);
  r->SetFallback("bytes", &ConversionFallback<kBytesName>);

  Add(*r, "bool", "bool_to_bool", {K::kBool}, &Identity);
  Add(*r, "bool", "string_to_bool", {K::kString}, &ToBool);
  r->SetFallback("bool", &ConversionFallback<kBoolName>);

  Add(*r, "type", "type", {K::kAny}, &ToType);
  Add(*r, "dyn", "to_dyn", {K::kAny}, &Identity);

  Add(*r, "duration", "duration_to_duration", {K::kDuration}, &Identity);
  Add(*r, "duration", "string_to_duration", {K::kString}, &ToDuration);
  r->SetFallback("duration", &ConversionFallback<kDurationName>);

  Add(*r, "timestamp", "timestamp_to_timestamp", {K::kTimestamp}, &Identity);
  Add(*r, "timestamp", "int64_to_timestamp", {K::kInt}, &ToTimestamp);
  Add(*r, "timestamp", "string_to_timestamp", {K::kString}, &ToTimestamp);
  r->SetFallback("timestamp", &ConversionFallback<kTimestampName>);

  Add(*r, "contains", "contains_string", {K::kString, K::kString}, &Contains, &CostProductTraversal);
  r->SetFallback("contains", &StringFallback);
  Add(*r, "startsWith", "starts_with_string", {K::kString, K::kString}, &StartsWith, &CostArg1Traversal);
  r->SetFallback("startsWith", &StringFallback);
  Add(*r, "endsWith", "ends_with_string", {K::kString, K::kString}, &EndsWith, &CostArg1Traversal);
  r->SetFallback("endsWith", &StringFallback);
  Add(*r, "matches", "matches_string", {K::kString, K::kString}, &Matches, &CostMatches);
  r->SetFallback("matches", &StringFallback);

  RegisterTimeFunctions(*r);

  Add(*r, "optional.of", "optional_of", {K::kAny}, &OptionalOf);
  Add(*r, "optional.ofNonZeroValue", "optional_ofNonZeroValue", {K::kAny}, &OptionalOfNonZero);
  Add(*r, "optional.none", "optional_none", {}, &OptionalNone);
  Add(*r, "hasValue", "optional_hasValue", {K::kOptional}, &OptionalHasValue);
  r->SetFallback("hasValue", &ConversionFallback<kHasValueName>);
  Add(*r, "value", "optional_value", {K::kOptional}, &OptionalValue);
  r->SetFallback("value", &ConversionFallback<kValueName>);

  // ext.Lists' tracker casts the keys to a list: an error there panics.
  (void)r->Add("@sortByAssociatedKeys", Overload{.id = "list_sortByAssociatedKeys",
                                                 .arg_kinds = {K::kList, K::kList},
                                                 .impl = &SortByAssociatedKeys,
                                                 .cost = &CostSortByKeys,
                                                 .object_types = {},
                                                 .error_cost = 0,
                                                 .panic_arg = 1});

  Add(*r, "cel.@mapInsert", "@mapInsert_map_key_value", {K::kMap, K::kAny, K::kAny}, &MapInsert);
  Add(*r, "cel.@mapInsert", "@mapInsert_map_map", {K::kMap, K::kMap}, &MapInsert);
  r->SetFallback("cel.@mapInsert", &ConversionFallback<kMapInsertName>);
}

bool IsComparable(const Value& v) { return IsComparer(v); }
int CompareValues(const Value& a, const Value& b, Value* err) { return Compare(a, b, err); }

const FunctionRegistry& StandardFunctions() {
  static const FunctionRegistry* kRegistry = [] {
    auto* r = new FunctionRegistry();
    RegisterStandardFunctions(*r);
    return r;
  }();
  return *kRegistry;
}

}  // namespace schedkit::cel
