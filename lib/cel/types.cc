// CEL types for the checker (cel-go v0.29.2 common/types/types.go and
// checker/format.go).
#include "cel/types.h"

#include <string>
#include <type_traits>
#include <utility>

#include "absl/strings/str_join.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::cel {
namespace {


// Opaque (abstract) type names of the DRA environment; every other dotted
// name in a declaration is an object type.
constexpr std::string_view kOpaqueTypeNames[] = {"optional_type", "net.IP", "net.CIDR", "function"};

bool IsOpaqueName(std::string_view name) {
  for (std::string_view n : kOpaqueTypeNames) {
    if (n == name) return true;
  }
  return false;
}

bool SameShape(const Type& a, const Type& b, bool check_param_names) {
  if (a.kind() != b.kind() || a.params().size() != b.params().size()) return false;
  if ((check_param_names || a.kind() != TypeKind::kTypeParam) && a.name() != b.name()) return false;
  for (size_t i = 0; i < a.params().size(); ++i) {
    if (!SameShape(a.param(i), b.param(i), check_param_names)) return false;
  }
  return true;
}

}  // namespace

Type Type::Any() { return Type(TypeKind::kAny, "google.protobuf.Any"); }
Type Type::Bool() { return Type(TypeKind::kBool, "bool"); }
Type Type::Bytes() { return Type(TypeKind::kBytes, "bytes"); }
Type Type::Double() { return Type(TypeKind::kDouble, "double"); }
Type Type::Duration() { return Type(TypeKind::kDuration, "google.protobuf.Duration"); }
Type Type::Dyn() { return Type(TypeKind::kDyn, "dyn"); }
Type Type::Error() { return Type(TypeKind::kError, "error"); }
Type Type::Int() { return Type(TypeKind::kInt, "int"); }
Type Type::Null() { return Type(TypeKind::kNullType, "null_type"); }
Type Type::String() { return Type(TypeKind::kString, "string"); }
Type Type::Timestamp() { return Type(TypeKind::kTimestamp, "google.protobuf.Timestamp"); }
Type Type::Uint() { return Type(TypeKind::kUint, "uint"); }
Type Type::TypeOfTypes() { return Type(TypeKind::kType, "type"); }
Type Type::TypeOf(Type param) { return Type(TypeKind::kType, "type", {std::move(param)}); }
Type Type::List(Type elem) { return Type(TypeKind::kList, "list", {std::move(elem)}); }
Type Type::Map(Type key, Type value) { return Type(TypeKind::kMap, "map", {std::move(key), std::move(value)}); }
Type Type::Optional(Type param) { return Opaque("optional_type", {std::move(param)}); }
Type Type::Opaque(std::string name, std::vector<Type> params) {
  return Type(TypeKind::kOpaque, std::move(name), std::move(params));
}
Type Type::Param(std::string name) { return Type(TypeKind::kTypeParam, std::move(name)); }

Type Type::Nullable(Type primitive) {
  primitive.nullable_ = true;
  return primitive;
}

Type Type::Object(std::string_view name) {
  // cel-go sanitizes the well-known protobuf messages into CEL types.
  if (name == "google.protobuf.BoolValue") return Nullable(Bool());
  if (name == "google.protobuf.BytesValue") return Nullable(Bytes());
  if (name == "google.protobuf.DoubleValue" || name == "google.protobuf.FloatValue") return Nullable(Double());
  if (name == "google.protobuf.Int64Value" || name == "google.protobuf.Int32Value") return Nullable(Int());
  if (name == "google.protobuf.UInt64Value" || name == "google.protobuf.UInt32Value") return Nullable(Uint());
  if (name == "google.protobuf.StringValue") return Nullable(String());
  if (name == "google.protobuf.Any") return Any();
  if (name == "google.protobuf.Duration") return Duration();
  if (name == "google.protobuf.Timestamp") return Timestamp();
  if (name == "google.protobuf.ListValue") return List(Dyn());
  if (name == "google.protobuf.NullValue") return Null();
  if (name == "google.protobuf.Struct") return Map(String(), Dyn());
  if (name == "google.protobuf.Value") return Dyn();
  return Type(TypeKind::kStruct, std::string(name));
}

bool Type::IsExact(const Type& other) const { return SameShape(*this, other, true); }
bool Type::IsEquivalent(const Type& other) const { return SameShape(*this, other, false); }

bool Type::IsAssignableFrom(const Type& from) const {
  if (nullable_) {
    Type plain = *this;
    plain.nullable_ = false;
    return Null().IsAssignableFrom(from) || plain.IsAssignableFrom(from);
  }
  if (kind_ == TypeKind::kDyn || kind_ == TypeKind::kAny || kind_ == TypeKind::kTypeParam) return true;
  if (kind_ != from.kind_ || name_ != from.name_ || params_.size() != from.params_.size()) return false;
  for (size_t i = 0; i < params_.size(); ++i) {
    if (!params_[i].IsAssignableFrom(from.params_[i])) return false;
  }
  return true;
}

std::string Type::DeclaredName() const {
  // A primitive that accepts null is a wrapper; null and dyn accept it
  // trivially and are not.
  if (nullable_ && kind_ != TypeKind::kNullType && kind_ != TypeKind::kDyn && kind_ != TypeKind::kAny) {
    return schedkit::StrCat("wrapper(", name_, ")");
  }
  return name_;
}

std::string Type::DebugString() const {
  if (kind_ == TypeKind::kTypeParam) return schedkit::StrCat("<", DeclaredName(), ">");
  if (params_.empty()) return DeclaredName();
  std::vector<std::string> ps;
  ps.reserve(params_.size());
  for (const Type& p : params_) ps.push_back(p.DebugString());
  return schedkit::StrCat(DeclaredName(), "(", absl::StrJoin(ps, ", "), ")");
}

std::string FormatCelType(const Type& t) {
  switch (t.kind()) {
    case TypeKind::kAny: return "any";
    case TypeKind::kDuration: return "duration";
    case TypeKind::kError: return "!error!";
    case TypeKind::kNullType: return "null";
    case TypeKind::kTimestamp: return "timestamp";
    case TypeKind::kTypeParam: return t.name();
    case TypeKind::kUnspecified: return "";
    case TypeKind::kOpaque:
      if (t.name() == "function") {
        std::vector<Type> args(t.params().begin() + 1, t.params().end());
        return FormatFunctionType(&t.param(0), args, false);
      }
      break;
    default: break;
  }
  if (t.params().empty()) return t.DeclaredName();
  std::vector<std::string> ps;
  ps.reserve(t.params().size());
  for (const Type& p : t.params()) ps.push_back(FormatCelType(p));
  return schedkit::StrCat(t.name(), "(", absl::StrJoin(ps, ", "), ")");
}

std::string FormatFunctionType(const Type* result, const std::vector<Type>& args, bool is_member) {
  std::string out;
  size_t first = 0;
  if (is_member && !args.empty()) {
    out = FormatCelType(args[0]) + ".";
    first = 1;
  }
  out += "(";
  for (size_t i = first; i < args.size(); ++i) {
    if (i > first) out += ", ";
    out += FormatCelType(args[i]);
  }
  out += ")";
  if (result != nullptr) {
    std::string r = FormatCelType(*result);
    if (!r.empty()) out += schedkit::StrCat(" -> ", r);
  }
  return out;
}

namespace {

// Recursive descent over "name", "name(p, ...)" and "<P>".
class SpecParser {
 public:
  explicit SpecParser(std::string_view s) : s_(s) {}

  absl::StatusOr<Type> ParseOne() {
    SkipSpaces();
    if (pos_ < s_.size() && s_[pos_] == '<') {
      size_t end = s_.find('>', pos_);
      if (end == std::string_view::npos) return Fail("unterminated type parameter");
      Type t = Type::Param(std::string(s_.substr(pos_ + 1, end - pos_ - 1)));
      pos_ = end + 1;
      return t;
    }
    size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] != '(' && s_[pos_] != ')' && s_[pos_] != ',' && s_[pos_] != ' ') ++pos_;
    std::string_view name = s_.substr(start, pos_ - start);
    if (name.empty()) return Fail("missing type name");
    std::vector<Type> params;
    if (pos_ < s_.size() && s_[pos_] == '(') {
      ++pos_;
      for (;;) {
        absl::StatusOr<Type> p = ParseOne();
        if (!p.ok()) return p.status();
        params.push_back(*std::move(p));
        SkipSpaces();
        if (pos_ < s_.size() && s_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (pos_ < s_.size() && s_[pos_] == ')') {
          ++pos_;
          break;
        }
        return Fail("expected ',' or ')'");
      }
    }
    return Build(name, std::move(params));
  }

  absl::StatusOr<std::vector<Type>> ParseList() {
    std::vector<Type> out;
    SkipSpaces();
    if (pos_ == s_.size()) return out;
    for (;;) {
      absl::StatusOr<Type> t = ParseOne();
      if (!t.ok()) return t.status();
      out.push_back(*std::move(t));
      SkipSpaces();
      if (pos_ == s_.size()) return out;
      if (s_[pos_] != ',') return Fail("expected ','");
      ++pos_;
    }
  }

  bool AtEnd() {
    SkipSpaces();
    return pos_ == s_.size();
  }

 private:
  absl::StatusOr<Type> Build(std::string_view name, std::vector<Type> params) {
    auto arity = [&](size_t n) { return params.size() == n; };
    if (name == "list" && arity(1)) return Type::List(std::move(params[0]));
    if (name == "map" && arity(2)) return Type::Map(std::move(params[0]), std::move(params[1]));
    if (name == "type" && arity(1)) return Type::TypeOf(std::move(params[0]));
    if (name == "type" && arity(0)) return Type::TypeOfTypes();
    if (!params.empty() && !IsOpaqueName(name)) return Fail(schedkit::StrCat("unexpected parameters for ", name));
    if (IsOpaqueName(name)) return Type::Opaque(std::string(name), std::move(params));
    if (name == "bool") return Type::Bool();
    if (name == "bytes") return Type::Bytes();
    if (name == "double") return Type::Double();
    if (name == "dyn") return Type::Dyn();
    if (name == "error") return Type::Error();
    if (name == "int") return Type::Int();
    if (name == "null_type") return Type::Null();
    if (name == "string") return Type::String();
    if (name == "uint") return Type::Uint();
    if (name.find('.') == std::string_view::npos) return Fail(schedkit::StrCat("unknown type ", name));
    return Type::Object(name);
  }

  absl::Status Fail(std::string_view why) const {
    return absl::InvalidArgumentError(schedkit::StrCat("type spec \"", s_, "\": ", why));
  }
  void SkipSpaces() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

absl::StatusOr<Type> ParseTypeSpec(std::string_view spec) {
  SpecParser p(spec);
  absl::StatusOr<Type> t = p.ParseOne();
  if (t.ok() && !p.AtEnd()) return absl::InvalidArgumentError(schedkit::StrCat("type spec \"", spec, "\": trailing text"));
  return t;
}

absl::StatusOr<std::vector<Type>> ParseTypeSpecList(std::string_view specs) { return SpecParser(specs).ParseList(); }

}  // namespace schedkit::cel
