// The type-checking half of DRA device selector compilation
// (k8s.io/dynamic-resource-allocation/cel v0.37.2 compile.go): the
// StoredExpressions environment's declarations (`device` of object type
// kubernetes.DRADevice, the standard library, the extensions and the
// Kubernetes libraries of the base environment at 1.37) and the output type
// check.
//
//   ParseResult parsed = ParseWithIssues(text, options);  // no issues
//   DraSelectorCheck c = CheckDraSelector(parsed);
//   if (!c.status.ok()) return c.status;  // upstream's CompilationResult.Error detail
//   c.checked.references;  // resolved overloads by expression id
//
// Thread-safe: the environment is built once and only read.
#ifndef SCHEDKIT_CEL_DRA_DECLARATIONS_H_
#define SCHEDKIT_CEL_DRA_DECLARATIONS_H_

#include "absl/status/status.h"
#include "cel/checker.h"
#include "cel/parser.h"

namespace schedkit::cel {

// The checker environment of DRA device selectors, shared, read-only.
// `device` has the fields of the last DRADevice declaration the
// StoredExpressions environment keeps: driver (string),
// allowMultipleAllocations (bool), attributes (map(string, map(string,
// dyn))), capacity (map(string, map(string, kubernetes.Quantity))).
const CheckerEnv& DraSelectorCheckerEnv();

struct DraSelectorCheck {
  // OK, or InvalidArgument with upstream's detail text:
  //   "compilation failed: ERROR: <input>:1:8: undefined field 'foo'\n | device.foo\n | .......^"
  //   "must evaluate to bool or the unknown type, not int"
  absl::Status status;
  CheckResult checked;  // types and references; complete when status is OK
};

// Checks a successful parse (parsed.issues empty) of a selector expression.
DraSelectorCheck CheckDraSelector(const ParseResult& parsed);

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_DRA_DECLARATIONS_H_
