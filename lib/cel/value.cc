#include "cel/value.h"

#include <cmath>

#include "absl/hash/hash.h"

#include "cel/literals.h"
#include "cel/numeric.h"

namespace schedkit::cel {
namespace {

const std::string& EmptyString() {
  static const std::string* kEmpty = new std::string();
  return *kEmpty;
}

const std::vector<Value>& EmptyList() {
  static const std::vector<Value>* kEmpty = new std::vector<Value>();
  return *kEmpty;
}

// Type values of the built-in types are made once and shared.
std::shared_ptr<const HeapValue> BuiltinTypeRep(std::string_view name) {
  static const auto* kTypes = [] {
    auto* m = new std::vector<std::shared_ptr<const StringRep>>();
    for (const char* n : {"bool", "int", "uint", "double", "string", "bytes", "list", "map", "null_type", "type",
                          "google.protobuf.Duration", "google.protobuf.Timestamp", "optional_type"}) {
      m->push_back(std::make_shared<StringRep>(n));
    }
    return m;
  }();
  for (const auto& t : *kTypes) {
    if (t->value == name) return t;
  }
  return nullptr;
}

constexpr size_t kMapIndexThreshold = 8;

// Consistent with SameKey: equal keys hash alike.
size_t KeyHash(const Value& k) {
  switch (k.kind()) {
    case ValueKind::kBool: return absl::HashOf(1, k.bool_value());
    case ValueKind::kInt:
    case ValueKind::kDuration: return absl::HashOf(2, k.int_value());
    case ValueKind::kUint: return absl::HashOf(3, k.uint_value());
    case ValueKind::kDouble: return absl::HashOf(4, k.double_value() == 0 ? 0.0 : k.double_value());
    case ValueKind::kString:
    case ValueKind::kBytes:
    case ValueKind::kType: return absl::HashOf(5, absl::string_view(k.string_value()));
    case ValueKind::kTimestamp: return absl::HashOf(6, k.timestamp_seconds(), k.timestamp_nanos());
    case ValueKind::kNull: return 7;
    default: return absl::HashOf(8, k.heap().get());
  }
}

}  // namespace

std::optional<Value> ObjectValue::GetField(std::string_view) const { return std::nullopt; }

Value ObjectValue::EqualTo(const Value& other) const {
  return Value::Bool(other.kind() == ValueKind::kObject && Equals(other.object()));
}

Value Value::Bool(bool b) {
  Value v;
  v.kind_ = ValueKind::kBool;
  v.u_.b = b;
  return v;
}

Value Value::Int(int64_t i) {
  Value v;
  v.kind_ = ValueKind::kInt;
  v.u_.i = i;
  return v;
}

Value Value::Uint(uint64_t u) {
  Value v;
  v.kind_ = ValueKind::kUint;
  v.u_.u = u;
  return v;
}

Value Value::Double(double d) {
  Value v;
  v.kind_ = ValueKind::kDouble;
  v.u_.d = d;
  return v;
}

Value Value::String(std::string s) {
  Value v;
  v.kind_ = ValueKind::kString;
  v.heap_ = std::make_shared<StringRep>(std::move(s));
  return v;
}

Value Value::Bytes(std::string b) {
  Value v;
  v.kind_ = ValueKind::kBytes;
  v.heap_ = std::make_shared<StringRep>(std::move(b));
  return v;
}

Value Value::List(std::vector<Value> elems) {
  Value v;
  v.kind_ = ValueKind::kList;
  v.heap_ = std::make_shared<ListRep>(std::move(elems));
  return v;
}

Value Value::Map(std::vector<std::pair<Value, Value>> entries) {
  auto rep = std::make_shared<MapRep>();
  rep->entries.reserve(entries.size());
  if (entries.size() > kMapIndexThreshold) {
    rep->index = std::make_unique<absl::flat_hash_map<size_t, std::vector<uint32_t>>>();
  }
  for (auto& e : entries) {
    if (const Value* existing = rep->FindExact(e.first)) {
      const_cast<Value&>(*existing) = std::move(e.second);
      continue;
    }
    if (rep->index != nullptr) {
      (*rep->index)[KeyHash(e.first)].push_back(static_cast<uint32_t>(rep->entries.size()));
    }
    rep->entries.push_back(std::move(e));
  }
  Value v;
  v.kind_ = ValueKind::kMap;
  v.heap_ = std::move(rep);
  return v;
}

Value Value::Type(std::string_view name) {
  Value v;
  v.kind_ = ValueKind::kType;
  v.heap_ = BuiltinTypeRep(name);
  if (v.heap_ == nullptr) v.heap_ = std::make_shared<StringRep>(std::string(name));
  return v;
}

Value Value::Duration(int64_t nanos) {
  Value v;
  v.kind_ = ValueKind::kDuration;
  v.u_.i = nanos;
  return v;
}

Value Value::Timestamp(int64_t seconds, int32_t nanos, int32_t offset_seconds) {
  Value v;
  v.kind_ = ValueKind::kTimestamp;
  v.u_.ts.seconds = seconds;
  v.u_.ts.nanos = nanos;
  v.u_.ts.offset = offset_seconds;
  return v;
}

Value Value::OptionalOf(Value inner) {
  Value v;
  v.kind_ = ValueKind::kOptional;
  v.heap_ = std::make_shared<OptionalRep>(std::move(inner));
  return v;
}

Value Value::OptionalNone() {
  Value v;
  v.kind_ = ValueKind::kOptional;
  return v;
}

Value Value::Object(std::shared_ptr<const ObjectValue> obj) {
  Value v;
  v.kind_ = ValueKind::kObject;
  v.heap_ = std::make_shared<ObjectHolder>(std::move(obj));
  return v;
}

Value Value::Error(ErrorKind kind, std::string message) {
  Value v;
  v.kind_ = ValueKind::kError;
  v.heap_ = std::make_shared<ErrorRep>(kind, std::move(message));
  return v;
}

const std::string& Value::string_value() const {
  if (heap_ == nullptr) return EmptyString();
  return static_cast<const StringRep&>(*heap_).value;
}

const std::vector<Value>& Value::list_elements() const {
  if (kind_ != ValueKind::kList || heap_ == nullptr) return EmptyList();
  return static_cast<const ListRep&>(*heap_).elements;
}

const MapRep& Value::map() const { return static_cast<const MapRep&>(*heap_); }

bool Value::optional_has_value() const { return kind_ == ValueKind::kOptional && heap_ != nullptr; }

const Value& Value::optional_value() const { return static_cast<const OptionalRep&>(*heap_).value; }

const ObjectValue& Value::object() const { return *static_cast<const ObjectHolder&>(*heap_).object; }

ErrorKind Value::error_kind() const { return static_cast<const ErrorRep&>(*heap_).kind; }

const std::string& Value::error_message() const { return static_cast<const ErrorRep&>(*heap_).message; }

bool SameKey(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case ValueKind::kNull: return true;
    case ValueKind::kBool: return a.bool_value() == b.bool_value();
    case ValueKind::kInt:
    case ValueKind::kDuration: return a.int_value() == b.int_value();
    case ValueKind::kUint: return a.uint_value() == b.uint_value();
    case ValueKind::kDouble: return a.double_value() == b.double_value();
    case ValueKind::kString:
    case ValueKind::kBytes:
    case ValueKind::kType: return a.string_value() == b.string_value();
    case ValueKind::kTimestamp:
      return a.timestamp_seconds() == b.timestamp_seconds() && a.timestamp_nanos() == b.timestamp_nanos();
    default: return a.heap() == b.heap();
  }
}

Value Value::MapWithDefault(std::vector<std::pair<Value, Value>> entries, Value missing) {
  Value v = Map(std::move(entries));
  // The rep was made just above and is not shared yet.
  auto* rep = const_cast<MapRep*>(static_cast<const MapRep*>(v.heap_.get()));
  rep->missing = std::make_unique<Value>(std::move(missing));
  return v;
}

const Value* MapRep::FindExact(const Value& key) const {
  if (index != nullptr) {
    auto it = index->find(KeyHash(key));
    if (it == index->end()) return nullptr;
    for (uint32_t i : it->second) {
      if (SameKey(entries[i].first, key)) return &entries[i].second;
    }
    return nullptr;
  }
  for (const auto& e : entries) {
    if (SameKey(e.first, key)) return &e.second;
  }
  return nullptr;
}

const Value* MapRep::FindString(std::string_view key) const {
  auto matches = [&](const Value& k) { return k.kind() == ValueKind::kString && k.string_value() == key; };
  if (index != nullptr) {
    auto it = index->find(absl::HashOf(5, absl::string_view(key.data(), key.size())));
    if (it == index->end()) return nullptr;
    for (uint32_t i : it->second) {
      if (matches(entries[i].first)) return &entries[i].second;
    }
    return nullptr;
  }
  for (const auto& e : entries) {
    if (matches(e.first)) return &e.second;
  }
  return nullptr;
}

const Value* MapRep::Find(const Value& key) const {
  if (const Value* v = FindExact(key)) return v;
  // cel-go converts a numeric key to the int or uint key of equal value.
  std::optional<Value> alt;
  std::optional<Value> alt2;
  switch (key.kind()) {
    case ValueKind::kDouble: {
      double d = key.double_value();
      if (auto i = DoubleToInt64Lossless(d)) alt = Value::Int(*i);
      if (auto u = DoubleToUint64Lossless(d)) alt2 = Value::Uint(*u);
      break;
    }
    case ValueKind::kInt:
      if (key.int_value() >= 0) alt = Value::Uint(static_cast<uint64_t>(key.int_value()));
      break;
    case ValueKind::kUint:
      if (key.uint_value() <= static_cast<uint64_t>(INT64_MAX)) alt = Value::Int(static_cast<int64_t>(key.uint_value()));
      break;
    default:
      return nullptr;
  }
  for (const std::optional<Value>* k : {&alt, &alt2}) {
    if (!k->has_value()) continue;
    if (const Value* v = FindExact(**k)) return v;
  }
  return nullptr;
}

bool ValuesEqual(const Value& a, const Value& b) {
  if (IsNumeric(a) && IsNumeric(b)) return CompareNumeric(a, b) == 0;
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case ValueKind::kList: {
      const auto& x = a.list_elements();
      const auto& y = b.list_elements();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i) {
        if (!ValuesEqual(x[i], y[i])) return false;
      }
      return true;
    }
    case ValueKind::kMap: {
      const MapRep& x = a.map();
      const MapRep& y = b.map();
      if (x.size() != y.size()) return false;
      for (const auto& [k, v] : x.entries) {
        const Value* other = y.Find(k);
        if (other == nullptr || !ValuesEqual(v, *other)) return false;
      }
      return true;
    }
    case ValueKind::kOptional:
      if (a.optional_has_value() != b.optional_has_value()) return false;
      return !a.optional_has_value() || ValuesEqual(a.optional_value(), b.optional_value());
    case ValueKind::kObject:
      return a.object().Equals(b.object());
    case ValueKind::kError:
      return false;
    default:
      return SameKey(a, b);
  }
}

std::string_view TypeName(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kNull: return "null_type";
    case ValueKind::kBool: return "bool";
    case ValueKind::kInt: return "int";
    case ValueKind::kUint: return "uint";
    case ValueKind::kDouble: return "double";
    case ValueKind::kString: return "string";
    case ValueKind::kBytes: return "bytes";
    case ValueKind::kList: return "list";
    case ValueKind::kMap: return "map";
    case ValueKind::kType: return "type";
    case ValueKind::kDuration: return "google.protobuf.Duration";
    case ValueKind::kTimestamp: return "google.protobuf.Timestamp";
    case ValueKind::kOptional: return "optional_type";
    case ValueKind::kObject: return v.object().TypeName();
    case ValueKind::kError: return "error";
    case ValueKind::kAny: return "dyn";
  }
  return "";
}

std::string FormatForMessage(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kNull: return "NULL_VALUE";
    case ValueKind::kBool: return v.bool_value() ? "true" : "false";
    case ValueKind::kInt: return std::to_string(v.int_value());
    case ValueKind::kUint: return std::to_string(v.uint_value());
    case ValueKind::kDouble: return FormatDoubleGo(v.double_value());
    case ValueKind::kString:
    case ValueKind::kType: return v.string_value();
    case ValueKind::kBytes: {
      std::string out = "[";
      for (size_t i = 0; i < v.string_value().size(); ++i) {
        if (i > 0) out += " ";
        out += std::to_string(static_cast<unsigned char>(v.string_value()[i]));
      }
      return out + "]";
    }
    case ValueKind::kList: {
      std::string out = "[";
      const auto& elems = v.list_elements();
      for (size_t i = 0; i < elems.size(); ++i) {
        if (i > 0) out += ", ";
        out += FormatForMessage(elems[i]);
      }
      return out + "]";
    }
    case ValueKind::kMap: {
      std::string out = "{";
      bool first = true;
      for (const auto& [k, val] : v.map().entries) {
        if (!first) out += ", ";
        first = false;
        out += FormatForMessage(k) + ": " + FormatForMessage(val);
      }
      return out + "}";
    }
    case ValueKind::kOptional:
      return v.optional_has_value() ? "optional(" + FormatForMessage(v.optional_value()) + ")" : "optional.none()";
    case ValueKind::kError: return v.error_message();
    default: return std::string(TypeName(v));
  }
}

Value NoSuchOverload() { return Value::Error(ErrorKind::kNoSuchOverload, "no such overload"); }

Value NoSuchOverload(std::string_view fn) {
  return Value::Error(ErrorKind::kNoSuchOverload, "no such overload: " + std::string(fn));
}

}  // namespace schedkit::cel
