// The registry of the Kubernetes environment and what the library files
// share (library_support.h).
#include "cel/kubernetes_libraries.h"

#include "cel/library_support.h"

namespace schedkit::cel {
namespace lib {

Value Err(std::string message) { return Value::Error(ErrorKind::kInvalidArgument, std::move(message)); }

uint64_t Cost1(Args, const Value&) { return 1; }

uint64_t CostArg0Traversal(Args a, const Value&) { return StringTraversal(a[0]); }

uint64_t KubernetesTraversalCost(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kString:
    case ValueKind::kBytes:
      return static_cast<uint64_t>(static_cast<double>(v.string_value().size()) * kStringTraversalCostFactor);
    case ValueKind::kList: {
      uint64_t cost = 0;
      for (const Value& e : v.list_elements()) cost += KubernetesTraversalCost(e);
      return cost;
    }
    case ValueKind::kMap: {
      uint64_t cost = 0;
      for (const auto& [k, e] : v.map().entries) cost += KubernetesTraversalCost(k) + KubernetesTraversalCost(e);
      return cost;
    }
    default:
      return 1;
  }
}

}  // namespace lib

Value NoMatchingOverload(std::string_view function, std::span<const Value> args) {
  std::string sig;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) sig += ", ";
    sig += TypeName(args[i]);
  }
  return Value::Error(ErrorKind::kNoSuchOverload, "no such overload: " + std::string(function) + "(" + sig + ")");
}

void RegisterKubernetesLibraries(FunctionRegistry& registry) {
  lib::RegisterStringsExtension(registry);
  lib::RegisterSetsExtension(registry);
  lib::RegisterListsExtension(registry);
  lib::RegisterURLLibrary(registry);
  lib::RegisterRegexLibrary(registry);
  lib::RegisterKubernetesListsLibrary(registry);
  lib::RegisterAuthzLibrary(registry);
  lib::RegisterQuantityLibrary(registry);
  lib::RegisterIPLibrary(registry);
  lib::RegisterCIDRLibrary(registry);
  lib::RegisterFormatLibrary(registry);
  lib::RegisterSemverLibrary(registry);
}

const FunctionRegistry& KubernetesFunctions() {
  static const FunctionRegistry* kRegistry = [] {
    auto* r = new FunctionRegistry();
    RegisterStandardFunctions(*r);
    RegisterKubernetesLibraries(*r);
    return r;
  }();
  return *kRegistry;
}

}  // namespace schedkit::cel
