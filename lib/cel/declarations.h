// Internal to lib/cel: the declarations the type checker resolves names
// against (cel-go v0.29.2 common/decls): functions with their overloads
// (cel-go's overload ids and signatures), variables, and the object types
// with their fields (the type provider).
//
//   CheckerDeclarations decls;
//   decls.AddOverloads(StandardLibraryOverloads());
//   decls.AddVariable("device", Type::Object("kubernetes.DRADevice"));
//   const FunctionDecl* plus = decls.FindFunction("_+_");
//
// Filled once, then only read: concurrent reads are safe.
#ifndef SCHEDKIT_CEL_DECLARATIONS_H_
#define SCHEDKIT_CEL_DECLARATIONS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "cel/types.h"

namespace schedkit::cel {

// One overload as the tables below write it. `args` and `result` use
// ParseTypeSpec's notation; a member overload's first argument is the
// receiver.
struct OverloadSpec {
  std::string_view function;
  std::string_view id;
  bool member = false;
  std::string_view args;
  std::string_view result;
};

// cel-go's standard library, optional library and cel.@mapInsert
// (declarations_standard.cc).
std::span<const OverloadSpec> StandardLibraryOverloads();
// ext.Strings v2, ext.Lists v3, ext.Sets (declarations_extensions.cc).
std::span<const OverloadSpec> ExtensionLibraryOverloads();
// The Kubernetes libraries of the base environment at 1.37
// (declarations_kubernetes.cc).
std::span<const OverloadSpec> KubernetesLibraryOverloads();

struct OverloadDecl {
  std::string id;
  bool member = false;
  std::vector<Type> args;  // receiver first for member overloads
  Type result;
  // The type parameters of the signature, in order of first appearance
  // (result first), to be instantiated fresh at every call.
  std::vector<std::string> type_params;
};

struct FunctionDecl {
  std::string name;
  std::vector<OverloadDecl> overloads;  // declaration order
};

struct FieldDecl {
  std::string name;
  Type type;
};

class CheckerDeclarations {
 public:
  // Appends the overloads to their functions (creating them in order);
  // rejects a spec that does not parse or a duplicate overload id within a
  // function.
  absl::Status AddOverloads(std::span<const OverloadSpec> specs);
  void AddVariable(std::string name, Type type);
  // An object type the provider knows, with its fields (FindStructType,
  // FindStructFieldType). Adding a name again replaces it, as Kubernetes'
  // DeclTypeProvider keeps the last declaration.
  void AddObjectType(std::string name, std::vector<FieldDecl> fields);
  // A name that resolves to a type value (the registry's FindIdent), e.g.
  // "int" -> int, "net.IP" -> net.IP.
  void AddTypeIdent(std::string name, Type type);
  // An enum constant (google.protobuf.NullValue.NULL_VALUE), of type int.
  void AddEnumConstant(std::string name, int64_t value);

  const FunctionDecl* FindFunction(std::string_view name) const;
  const Type* FindVariable(std::string_view name) const;
  const Type* FindTypeIdent(std::string_view name) const;
  bool HasObjectType(std::string_view name) const;
  // nullopt when the type or the field is unknown.
  std::optional<Type> FindFieldType(std::string_view type_name, std::string_view field) const;
  std::optional<int64_t> FindEnumConstant(std::string_view name) const;

  const std::vector<std::unique_ptr<FunctionDecl>>& functions() const { return functions_; }

 private:
  std::vector<std::unique_ptr<FunctionDecl>> functions_;  // first-declared order
  absl::flat_hash_map<std::string, FunctionDecl*> function_index_;
  absl::flat_hash_map<std::string, Type> variables_;
  absl::flat_hash_map<std::string, std::vector<FieldDecl>> object_types_;
  absl::flat_hash_map<std::string, Type> type_idents_;
  absl::flat_hash_map<std::string, int64_t> enum_constants_;
};

// The names every cel-go environment with the protobuf registry knows:
// the type identifiers (int, list, google.protobuf.Duration, ...,
// optional_type), the well-known protobuf messages and their fields
// (google.protobuf.Int64Value{value: 1}) and NullValue's constant.
void AddStandardTypes(CheckerDeclarations& decls);

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_DECLARATIONS_H_
