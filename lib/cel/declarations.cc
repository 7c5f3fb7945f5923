// The checker's declaration store and the names every cel-go environment
// with the protobuf registry resolves (cel-go v0.29.2 common/types/provider.go,
// checker/env.go).
#include "cel/declarations.h"

#include <string>
#include <type_traits>
#include <utility>
#include "schedkit/base/str_cat.h"


namespace schedkit::cel {
namespace {


void CollectTypeParams(const Type& t, std::vector<std::string>& out) {
  if (t.is_type_param()) {
    for (const std::string& n : out) {
      if (n == t.name()) return;
    }
    out.push_back(t.name());
    return;
  }
  for (const Type& p : t.params()) CollectTypeParams(p, out);
}

}  // namespace

absl::Status CheckerDeclarations::AddOverloads(std::span<const OverloadSpec> specs) {
  for (const OverloadSpec& spec : specs) {
    absl::StatusOr<std::vector<Type>> args = ParseTypeSpecList(spec.args);
    if (!args.ok()) return args.status();
    absl::StatusOr<Type> result = ParseTypeSpec(spec.result);
    if (!result.ok()) return result.status();
    OverloadDecl o{.id = std::string(spec.id), .member = spec.member, .args = *std::move(args),
                   .result = *std::move(result), .type_params = {}};
    CollectTypeParams(o.result, o.type_params);
    for (const Type& a : o.args) CollectTypeParams(a, o.type_params);

    FunctionDecl*& fn = function_index_[std::string(spec.function)];
    if (fn == nullptr) {
      functions_.push_back(std::make_unique<FunctionDecl>());
      fn = functions_.back().get();
      fn->name = std::string(spec.function);
    }
    for (const OverloadDecl& existing : fn->overloads) {
      if (existing.id == o.id) {
        return absl::AlreadyExistsError(schedkit::StrCat("overload ", o.id, " of ", spec.function, " declared twice"));
      }
    }
    fn->overloads.push_back(std::move(o));
  }
  return absl::OkStatus();
}

void CheckerDeclarations::AddVariable(std::string name, Type type) { variables_[std::move(name)] = std::move(type); }

void CheckerDeclarations::AddObjectType(std::string name, std::vector<FieldDecl> fields) {
  object_types_[std::move(name)] = std::move(fields);
}

void CheckerDeclarations::AddTypeIdent(std::string name, Type type) { type_idents_[std::move(name)] = std::move(type); }

void CheckerDeclarations::AddEnumConstant(std::string name, int64_t value) { enum_constants_[std::move(name)] = value; }

const FunctionDecl* CheckerDeclarations::FindFunction(std::string_view name) const {
  auto it = function_index_.find(std::string(name));
  return it == function_index_.end() ? nullptr : it->second;
}

const Type* CheckerDeclarations::FindVariable(std::string_view name) const {
  auto it = variables_.find(std::string(name));
  return it == variables_.end() ? nullptr : &it->second;
}

const Type* CheckerDeclarations::FindTypeIdent(std::string_view name) const {
  auto it = type_idents_.find(std::string(name));
  return it == type_idents_.end() ? nullptr : &it->second;
}

bool CheckerDeclarations::HasObjectType(std::string_view name) const { return object_types_.contains(std::string(name)); }

std::optional<Type> CheckerDeclarations::FindFieldType(std::string_view type_name, std::string_view field) const {
  auto it = object_types_.find(std::string(type_name));
  if (it == object_types_.end()) return std::nullopt;
  for (const FieldDecl& f : it->second) {
    if (f.name == field) return f.type;
  }
  return std::nullopt;
}

std::optional<int64_t> CheckerDeclarations::FindEnumConstant(std::string_view name) const {
  auto it = enum_constants_.find(std::string(name));
  if (it == enum_constants_.end()) return std::nullopt;
  return it->second;
}

void AddStandardTypes(CheckerDeclarations& decls) {
  // The registry's type identifiers (the types it registers at creation,
  // plus optional_type from cel.OptionalTypes).
  decls.AddTypeIdent("bool", Type::Bool());
  decls.AddTypeIdent("bytes", Type::Bytes());
  decls.AddTypeIdent("double", Type::Double());
  decls.AddTypeIdent("google.protobuf.Duration", Type::Duration());
  decls.AddTypeIdent("int", Type::Int());
  decls.AddTypeIdent("list", Type::List(Type::Dyn()));
  decls.AddTypeIdent("map", Type::Map(Type::Dyn(), Type::Dyn()));
  decls.AddTypeIdent("null_type", Type::Null());
  decls.AddTypeIdent("string", Type::String());
  decls.AddTypeIdent("google.protobuf.Timestamp", Type::Timestamp());
  decls.AddTypeIdent("type", Type::TypeOfTypes());
  decls.AddTypeIdent("uint", Type::Uint());
  decls.AddTypeIdent("optional_type", Type::Optional(Type::Dyn()));

  // The well-known messages of the protobuf registry and their fields
  // (google.protobuf.FieldMask is not among them).
  const Type kInt = Type::Int();
  for (const char* name : {"google.protobuf.Duration", "google.protobuf.Timestamp"}) {
    decls.AddObjectType(name, {{"seconds", kInt}, {"nanos", kInt}});
  }
  decls.AddObjectType("google.protobuf.Any", {{"type_url", Type::String()}, {"value", Type::Bytes()}});
  decls.AddObjectType("google.protobuf.Empty", {});
  decls.AddObjectType("google.protobuf.Struct", {{"fields", Type::Map(Type::String(), Type::Dyn())}});
  decls.AddObjectType("google.protobuf.Value", {{"null_value", kInt},  // an enum field
                                                {"number_value", Type::Double()},
                                                {"string_value", Type::String()},
                                                {"bool_value", Type::Bool()},
                                                {"struct_value", Type::Map(Type::String(), Type::Dyn())},
                                                {"list_value", Type::List(Type::Dyn())}});
  decls.AddObjectType("google.protobuf.ListValue", {{"values", Type::List(Type::Dyn())}});
  decls.AddObjectType("google.protobuf.BoolValue", {{"value", Type::Bool()}});
  decls.AddObjectType("google.protobuf.BytesValue", {{"value", Type::Bytes()}});
  decls.AddObjectType("google.protobuf.DoubleValue", {{"value", Type::Double()}});
  decls.AddObjectType("google.protobuf.FloatValue", {{"value", Type::Double()}});
  decls.AddObjectType("google.protobuf.Int32Value", {{"value", kInt}});
  decls.AddObjectType("google.protobuf.Int64Value", {{"value", kInt}});
  decls.AddObjectType("google.protobuf.StringValue", {{"value", Type::String()}});
  decls.AddObjectType("google.protobuf.UInt32Value", {{"value", Type::Uint()}});
  decls.AddObjectType("google.protobuf.UInt64Value", {{"value", Type::Uint()}});
  decls.AddEnumConstant("google.protobuf.NullValue.NULL_VALUE", 0);
}

}  // namespace schedkit::cel
