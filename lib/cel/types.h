// CEL types as cel-go v0.29.2's type checker sees them (common/types.Type):
// primitives, list(T), map(K, V), type(T), dyn, any, null_type, error, type
// parameters, opaque types (optional_type(T), net.IP, net.CIDR), object
// (struct) types (kubernetes.DRADevice, kubernetes.Quantity, ...), the
// well-known protobuf types and the nullable wrappers
// (google.protobuf.Int64Value is wrapper(int)).
//
//   Type t = Type::List(Type::Map(Type::String(), Type::Dyn()));
//   FormatCelType(t);  // "list(map(string, dyn))", as checker errors print it
//   t.DebugString();   // "list(map(string, dyn))", as Type.String() prints it
//   absl::StatusOr<Type> p = ParseTypeSpec("map(<K>, optional_type(<V>))");
//
// Types are small immutable values (a kind, a name and parameters), cheap
// enough to copy: the checker runs once per compiled expression.
// Thread-safe: no shared mutable state.
#ifndef SCHEDKIT_CEL_TYPES_H_
#define SCHEDKIT_CEL_TYPES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace schedkit::cel {

// cel-go's types.Kind.
enum class TypeKind : uint8_t {
  kUnspecified,
  kAny,
  kBool,
  kBytes,
  kDouble,
  kDuration,
  kDyn,
  kError,
  kInt,
  kList,
  kMap,
  kNullType,
  kOpaque,
  kString,
  kStruct,
  kTimestamp,
  kType,
  kTypeParam,
  kUint,
};

class Type {
 public:
  Type() = default;  // unspecified

  static Type Any();
  static Type Bool();
  static Type Bytes();
  static Type Double();
  static Type Duration();
  static Type Dyn();
  static Type Error();
  static Type Int();
  static Type Null();
  static Type String();
  static Type Timestamp();
  static Type Uint();
  // `type` without a parameter (the type of type values).
  static Type TypeOfTypes();
  static Type TypeOf(Type param);  // type(T)
  static Type List(Type elem);
  static Type Map(Type key, Type value);
  static Type Optional(Type param);  // optional_type(T), an opaque type
  static Type Opaque(std::string name, std::vector<Type> params = {});
  // An object type; the well-known protobuf names map to their CEL types
  // (google.protobuf.Int64Value is wrapper(int), google.protobuf.Struct is
  // map(string, dyn), ...), as cel-go's NewObjectType.
  static Type Object(std::string_view name);
  static Type Param(std::string name);  // a type parameter such as <A>
  // wrapper(T): a primitive that also accepts null.
  static Type Nullable(Type primitive);

  TypeKind kind() const { return kind_; }
  // The runtime type name ("int", "list", "google.protobuf.Duration",
  // "optional_type", the object or parameter name).
  const std::string& name() const { return name_; }
  const std::vector<Type>& params() const { return params_; }
  const Type& param(size_t i) const { return params_[i]; }
  bool nullable() const { return nullable_; }

  bool is_dyn_or_any() const { return kind_ == TypeKind::kDyn || kind_ == TypeKind::kAny; }
  bool is_error() const { return kind_ == TypeKind::kError; }
  bool is_optional() const { return kind_ == TypeKind::kOpaque && name_ == "optional_type"; }
  bool is_type_param() const { return kind_ == TypeKind::kTypeParam; }

  // Same kind, name and parameters, recursively (IsExactType).
  bool IsExact(const Type& other) const;
  // As IsExact, but type parameters match whatever their names
  // (IsEquivalentType).
  bool IsEquivalent(const Type& other) const;
  // Whether a value of `from` may be used where this type is expected,
  // without type-parameter inference (Type.IsAssignableType).
  bool IsAssignableFrom(const Type& from) const;

  // "wrapper(int)" for nullable primitives, else name() (DeclaredTypeName).
  std::string DeclaredName() const;
  // cel-go's Type.String(): "list(int)", "google.protobuf.Duration", "<A>".
  std::string DebugString() const;

 private:
  Type(TypeKind kind, std::string name, std::vector<Type> params = {})
      : kind_(kind), name_(std::move(name)), params_(std::move(params)) {}

  TypeKind kind_ = TypeKind::kUnspecified;
  std::string name_;
  std::vector<Type> params_;
  bool nullable_ = false;
};

// The checker's rendering of a type in its messages (checker.FormatCELType):
// "int", "list(string)", "duration", "timestamp", "null", "!error!", type
// parameters by their bare names ("_var0", "A"), "wrapper(int)".
std::string FormatCelType(const Type& t);

// A function signature as the checker prints it: "(int, string)" or, for
// a member call, "string.(int)"; with " -> result" when result is set.
std::string FormatFunctionType(const Type* result, const std::vector<Type>& args, bool is_member);

// Parses the notation of Type::DebugString() as cel-go prints declarations:
// "int", "list(<T>)", "map(string, dyn)", "optional_type(<V>)", "type(<A>)",
// "google.protobuf.Duration", "net.IP", "kubernetes.Quantity". Opaque names
// (net.IP, net.CIDR, optional_type) and object names are told apart by the
// list kOpaqueTypeNames.
absl::StatusOr<Type> ParseTypeSpec(std::string_view spec);
// A comma-separated list of ParseTypeSpec types ("" is the empty list).
absl::StatusOr<std::vector<Type>> ParseTypeSpecList(std::string_view specs);

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_TYPES_H_
