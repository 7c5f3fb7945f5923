// CEL runtime values as cel-go's common/types: null, bool, int, uint,
// double, string, bytes, list, map, type, duration, timestamp, optional,
// host objects, and errors carried as values (with a kind and cel-go's text).
//
//   Value v = Value::Int(3);
//   Value s = Value::String("gpu");
//   Value l = Value::List({v, s});
//   if (r.is_error()) Log(r.error_kind(), r.error_message());
//
// A Value is 40 bytes: scalars inline, strings/lists/maps/errors behind one
// shared immutable pointer, so copies never copy contents. Values are
// immutable once built and safe to share between threads.
#ifndef SCHEDKIT_CEL_VALUE_H_
#define SCHEDKIT_CEL_VALUE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace schedkit::cel {

enum class ValueKind : uint8_t {
  kNull,
  kBool,
  kInt,
  kUint,
  kDouble,
  kString,
  kBytes,
  kList,
  kMap,
  kType,
  kDuration,
  kTimestamp,
  kOptional,
  kObject,
  kError,
  // Never the kind of a value: in an overload's argument kinds
  // (function_registry.h), a position that accepts any value.
  kAny,
};

// What went wrong, for callers that act on errors; the message is cel-go's.
enum class ErrorKind : uint8_t {
  kNoSuchOverload,      // "no such overload", "no such overload: _<_"
  kNoSuchKey,           // "no such key: x"
  kNoSuchField,         // "no such field 'f'"
  kUnknownReference,    // "no such attribute(s): x" (undeclared variable)
  kDivisionByZero,      // "division by zero"
  kModulusByZero,       // "modulus by zero"
  kOverflow,            // "integer overflow", "unsigned integer overflow", ...
  kInvalidArgument,     // conversions, bad regex, bad time zone, ...
  kRange,               // "index out of bounds: 3", out of range conversions
  kCostLimitExceeded,   // "operation cancelled: actual cost limit exceeded"
  kOther,
};

class Value;

// Shared, immutable payloads of the non-scalar kinds.
class HeapValue {
 public:
  virtual ~HeapValue() = default;
};

// A value the host provides (the DRA device, later Quantity, Semver, IP...).
// Implementations must be immutable and safe to read from several threads.
class ObjectValue : public HeapValue {
 public:
  // The CEL type name, e.g. "kubernetes.DRADevice"; type(x) reports it.
  virtual std::string_view TypeName() const = 0;
  // x.f and x["f"]: the field's value, or nullopt when the object has no
  // such field set (the evaluator reports "no such key: f", as for maps).
  virtual std::optional<Value> GetField(std::string_view name) const;
  // ==: the default is identity.
  virtual bool Equals(const ObjectValue& other) const { return this == &other; }
  // _==_ with this object on the left (cel-go's ref.Val.Equal): the default
  // is Equals for another object and false for anything else; library
  // types answer "no such overload" for other types, as their Go Equal does.
  virtual Value EqualTo(const Value& other) const;
  // cel-go's traits.Sizer (what cost functions read): the size, or -1 when
  // the type has none.
  virtual int64_t Size() const { return -1; }
};

struct ListRep;
struct MapRep;

class Value {
 public:
  Value() : kind_(ValueKind::kNull) { u_.i = 0; }

  static Value Null() { return Value(); }
  static Value Bool(bool b);
  static Value Int(int64_t i);
  static Value Uint(uint64_t u);
  static Value Double(double d);
  static Value String(std::string s);
  static Value Bytes(std::string b);
  static Value List(std::vector<Value> elems);
  // Later entries with a key equal (same kind, same value) to an earlier one
  // replace it, as a Go map literal does.
  static Value Map(std::vector<std::pair<Value, Value>> entries);
  // A map whose lookups (m[k], m.k, has(m.k), m[?k]) of a missing key give
  // `missing` instead of failing, as DRA's attribute and capacity maps do;
  // `in`, size, iteration and equality see only the entries.
  static Value MapWithDefault(std::vector<std::pair<Value, Value>> entries, Value missing);
  // A type value: "int", "list", "google.protobuf.Duration", an object type...
  static Value Type(std::string_view name);
  static Value Duration(int64_t nanos);
  // offset_seconds: the zone the time was written in (east of UTC); it only
  // changes how string() prints it, as Go's time.Time location does.
  static Value Timestamp(int64_t seconds, int32_t nanos, int32_t offset_seconds = 0);
  static Value OptionalOf(Value v);
  static Value OptionalNone();
  static Value Object(std::shared_ptr<const ObjectValue> obj);
  static Value Error(ErrorKind kind, std::string message);

  ValueKind kind() const { return kind_; }
  bool is_error() const { return kind_ == ValueKind::kError; }
  bool is_bool() const { return kind_ == ValueKind::kBool; }

  bool bool_value() const { return u_.b; }
  int64_t int_value() const { return u_.i; }
  uint64_t uint_value() const { return u_.u; }
  double double_value() const { return u_.d; }
  int64_t duration_nanos() const { return u_.i; }
  int64_t timestamp_seconds() const { return u_.ts.seconds; }
  int32_t timestamp_nanos() const { return u_.ts.nanos; }
  int32_t timestamp_offset() const { return u_.ts.offset; }
  // kString, kBytes and kType (the type's name).
  const std::string& string_value() const;
  const std::vector<Value>& list_elements() const;
  const MapRep& map() const;
  // kOptional: whether it holds a value, and the value.
  bool optional_has_value() const;
  const Value& optional_value() const;
  const ObjectValue& object() const;
  ErrorKind error_kind() const;
  const std::string& error_message() const;

  // The payload, for the evaluator's in-place append on a list nobody else
  // holds (cel-go's mutable accumulator lists).
  const std::shared_ptr<const HeapValue>& heap() const { return heap_; }

 private:
  struct TimestampRep {
    int64_t seconds;
    int32_t nanos;
    int32_t offset;
  };
  union Scalar {
    bool b;
    int64_t i;
    uint64_t u;
    double d;
    TimestampRep ts;
  };

  ValueKind kind_;
  Scalar u_;
  std::shared_ptr<const HeapValue> heap_;
};

struct StringRep : HeapValue {
  explicit StringRep(std::string v) : value(std::move(v)) {}
  std::string value;
};

struct ListRep : HeapValue {
  explicit ListRep(std::vector<Value> v) : elements(std::move(v)) {}
  std::vector<Value> elements;
};

struct ErrorRep : HeapValue {
  ErrorRep(ErrorKind k, std::string m) : kind(k), message(std::move(m)) {}
  ErrorKind kind;
  std::string message;
};

struct OptionalRep : HeapValue {
  explicit OptionalRep(Value v) : value(std::move(v)) {}
  Value value;
};

struct ObjectHolder : HeapValue {
  explicit ObjectHolder(std::shared_ptr<const ObjectValue> o) : object(std::move(o)) {}
  std::shared_ptr<const ObjectValue> object;
};

// Map entries in insertion order. Lookups follow cel-go: an exact key match,
// else an int/uint/double key finds the numerically equal int or uint key.
// Maps past a few entries keep a hash index from key to entry.
struct MapRep : HeapValue {
  std::vector<std::pair<Value, Value>> entries;
  std::unique_ptr<absl::flat_hash_map<size_t, std::vector<uint32_t>>> index;  // key hash -> entries

  // The value read for `key` when the map has a default (missing), else
  // nullptr when absent.
  std::unique_ptr<Value> missing;

  const Value* Find(const Value& key) const;
  const Value* FindExact(const Value& key) const;
  // Find for a string key, without building a Value.
  const Value* FindString(std::string_view key) const;
  // Find and FindString, falling back to `missing` (attribute lookups).
  const Value* Lookup(const Value& key) const {
    const Value* v = Find(key);
    return v != nullptr ? v : missing.get();
  }
  const Value* LookupString(std::string_view key) const {
    const Value* v = FindString(key);
    return v != nullptr ? v : missing.get();
  }
  size_t size() const { return entries.size(); }
};

// cel-go's types.Equal: heterogeneous numbers compare by value, lists and
// maps element-wise, values of different kinds are unequal (never an error).
bool ValuesEqual(const Value& a, const Value& b);

// The same key as cel-go's Go map would use (kind and value; lists, maps and
// objects by identity).
bool SameKey(const Value& a, const Value& b);

// cel-go's type name of a value: "int", "list", "google.protobuf.Timestamp"...
std::string_view TypeName(const Value& v);

// The value as cel-go prints it with %v inside error messages.
std::string FormatForMessage(const Value& v);

// Shorthands for the common errors.
Value NoSuchOverload();                     // "no such overload"
Value NoSuchOverload(std::string_view fn);  // "no such overload: fn"

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_VALUE_H_
