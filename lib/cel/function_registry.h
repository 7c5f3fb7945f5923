// The function registry: CEL functions by name, each a list of overloads
// chosen at run time by the kinds of the arguments (the receiver of a member
// call is the first argument), with a cost hook per overload.
//
//   FunctionRegistry reg = StandardFunctions();
//   reg.Add("quantity", {.id = "string_to_quantity", .arg_kinds = {ValueKind::kString},
//                        .impl = &ParseQuantity, .cost = nullptr});
//
// Libraries (the Kubernetes quantity, semver, ip, cidr, url, lists, sets and
// strings libraries) plug in as more Add calls. A registry is filled before
// programs are built and only read afterwards; reads are thread-safe.
#ifndef SCHEDKIT_CEL_FUNCTION_REGISTRY_H_
#define SCHEDKIT_CEL_FUNCTION_REGISTRY_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "cel/value.h"

namespace re2 {
class RE2;
}  // namespace re2

namespace schedkit::cel {

// Whether `v` fits an overload's argument kind (ValueKind::kAny: anything).
inline bool ArgKindMatches(ValueKind k, const Value& v) { return k == ValueKind::kAny || v.kind() == k; }

using FunctionImpl = Value (*)(std::span<const Value> args);
// Actual cost of one call, given its arguments and result (cel-go's
// CallCost). nullptr: the default of 1.
using CostFunction = uint64_t (*)(std::span<const Value> args, const Value& result);

struct Overload {
  std::string id;  // cel-go's overload id, e.g. "add_string"
  std::vector<ValueKind> arg_kinds;  // ValueKind::kAny: any value
  FunctionImpl impl = nullptr;
  CostFunction cost = nullptr;
  // For kObject positions: the object's type name ("kubernetes.Quantity"),
  // by position; a missing or empty entry accepts any object.
  std::vector<std::string_view> object_types;
  // When an argument is an error the call is not made, but cel-go's cost
  // tracker still prices it: error_cost (0: the default 1), and an
  // extension's tracker that casts argument `panic_arg` panics when that
  // argument is an error (Go recovers it as "internal error: ...").
  uint64_t error_cost = 0;
  int panic_arg = -1;
};

struct Function {
  std::string name;
  std::vector<Overload> overloads;
  // When set, it handles every call the overloads do not, with cel-go's
  // errors for the function (standard operators answer "no such overload").
  FunctionImpl fallback = nullptr;

  // The first overload whose argument kinds match, or nullptr.
  const Overload* Resolve(std::span<const Value> args) const;
};

class FunctionRegistry {
 public:
  // Adds an overload to the function `name`; rejects a duplicate id.
  absl::Status Add(std::string_view name, Overload overload);
  // Sets the function's fallback (see Function::fallback).
  void SetFallback(std::string_view name, FunctionImpl fallback);
  const Function* Find(std::string_view name) const;

 private:
  absl::flat_hash_map<std::string, std::unique_ptr<Function>> functions_;
};

// The standard CEL functions and operators of cel-go's stdlib, the optional
// library (optional.of, value, ...) and ext.TwoVarComprehensions' internal
// cel.@mapInsert. Register them into a registry that libraries then extend,
// or use the shared read-only StandardFunctions().
void RegisterStandardFunctions(FunctionRegistry& registry);

// Go's "error parsing regexp: <reason>: `<fragment>`" for a pattern RE2
// rejects.
std::string RegexError(const re2::RE2& re);
const FunctionRegistry& StandardFunctions();

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_FUNCTION_REGISTRY_H_
