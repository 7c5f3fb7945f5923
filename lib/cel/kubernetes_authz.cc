// Kubernetes' authz and authz-selectors libraries (k8s.io/apiserver
// pkg/cel/library/authz.go, v0.37.2). DRA's environment declares them but
// binds no `authorizer`, so no value of their receiver types exists: every
// call answers "no such overload", at the cost Kubernetes' CallCost charges
// by function name (check: 350,000).
#include "cel/library_support.h"

namespace schedkit::cel {
namespace lib {
namespace {

Value Unsupported(Args) { return NoSuchOverload(); }

uint64_t CostCheck(Args, const Value&) { return 350000; }

// selectorCostEstimate's Max for a selector of the argument's length.
uint64_t CostSelector(Args a, const Value&) {
  if (a.size() < 2) return 1;
  double len = static_cast<double>(ActualSize(a[1]));
  uint64_t parse = CeilCost(len, kStringTraversalCostFactor);
  uint64_t requirements = CeilCost(len, 0.5);
  uint64_t requirement_cost =
      CeilCost(static_cast<double>(requirements), static_cast<double>(kListCreateBaseCost + kStructCreateBaseCost));
  return kListCreateBaseCost + parse + requirement_cost;
}

}  // namespace

void RegisterAuthzLibrary(FunctionRegistry& r) {
  struct Fn {
    const char* name;
    size_t arity;  // with the receiver
    CostFunction cost;
  };
  // CallCost prices these by name, whatever the arguments (an error too).
  auto error_cost = [](const Fn& f) -> uint64_t {
    if (f.cost == &CostCheck) return 350000;
    if (f.cost == &Cost1) return 1;
    return 10;  // a selector whose text is an error: size 1
  };
  const Fn fns[] = {
      {"path", 2, &Cost1},          {"group", 2, &Cost1},         {"serviceAccount", 3, &Cost1},
      {"resource", 2, &Cost1},      {"subresource", 2, &Cost1},   {"namespace", 2, &Cost1},
      {"name", 2, &Cost1},          {"check", 2, &CostCheck},     {"allowed", 1, &Cost1},
      {"reason", 1, &Cost1},        {"error", 1, &Cost1},         {"errored", 1, &Cost1},
      {"fieldSelector", 2, &CostSelector}, {"labelSelector", 2, &CostSelector},
  };
  for (const Fn& f : fns) {
    AddOverload(r, f.name, std::string(f.name) + "_authz", std::vector<ValueKind>(f.arity, K::kAny), &Unsupported,
                f.cost, {}, error_cost(f));
  }
}

}  // namespace lib
}  // namespace schedkit::cel
