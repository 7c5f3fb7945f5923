// DRA's device selector environment for the checker
// (k8s.io/dynamic-resource-allocation/cel v0.37.2 compile.go, newCompiler and
// validateOutputType).
#include "cel/dra_declarations.h"

#include <cstdlib>
#include <string>
#include <type_traits>
#include "schedkit/base/str_cat.h"


namespace schedkit::cel {
namespace {


CheckerEnv* NewDraSelectorCheckerEnv() {
  auto* env = new CheckerEnv();
  CheckerDeclarations& d = env->declarations;
  for (auto specs : {StandardLibraryOverloads(), ExtensionLibraryOverloads(), KubernetesLibraryOverloads()}) {
    absl::Status s = d.AddOverloads(specs);
    if (!s.ok()) std::abort();  // the tables are fixed; a test loads them
  }
  AddStandardTypes(d);
  // The libraries' opaque types resolve as type names; their object types
  // (kubernetes.Quantity, kubernetes.URL, ...) are unknown to the provider.
  d.AddTypeIdent("net.IP", Type::Opaque("net.IP"));
  d.AddTypeIdent("net.CIDR", Type::Opaque("net.CIDR"));
  // All four DRADevice declarations are registered; the type provider keeps
  // the last (allowMultipleAllocations and dyn attribute values).
  d.AddObjectType("kubernetes.DRADevice",
                  {
                      {"allowMultipleAllocations", Type::Bool()},
                      {"driver", Type::String()},
                      {"attributes", Type::Map(Type::String(), Type::Map(Type::String(), Type::Dyn()))},
                      {"capacity",
                       Type::Map(Type::String(), Type::Map(Type::String(), Type::Object("kubernetes.Quantity")))},
                  });
  d.AddVariable("device", Type::Object("kubernetes.DRADevice"));
  return env;
}

}  // namespace

const CheckerEnv& DraSelectorCheckerEnv() {
  static const CheckerEnv* env = NewDraSelectorCheckerEnv();
  return *env;
}

DraSelectorCheck CheckDraSelector(const ParseResult& parsed) {
  DraSelectorCheck out;
  out.checked = Check(parsed.expr, DraSelectorCheckerEnv());
  if (!out.checked.ok()) {
    out.status = absl::InvalidArgumentError("compilation failed: " + FormatCheckIssues(out.checked, parsed));
    return out;
  }
  // The result must be a bool, or exactly the attribute value type (dyn).
  const Type& t = out.checked.output_type;
  if (!t.IsExact(Type::Bool()) && !t.IsExact(Type::Dyn())) {
    out.status =
        absl::InvalidArgumentError(schedkit::StrCat("must evaluate to bool or the unknown type, not ", t.DebugString()));
  }
  return out;
}

}  // namespace schedkit::cel
