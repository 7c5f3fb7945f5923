// The CEL type checker: accepts and rejects what cel-go v0.29.2's checker
// (checker/checker.go) and the AST validators of the Kubernetes base
// environment do, with cel-go's messages and positions, and records for
// every node its type and for identifiers and calls what they resolved to
// (the overload ids the planner may dispatch on).
//
//   ParseResult parsed = ParseWithIssues(text);
//   CheckResult checked = Check(parsed.expr, DraSelectorCheckerEnv());
//   if (!checked.ok()) return FormatCheckIssues(checked, parsed);
//   //   "ERROR: <input>:1:3: found no matching overload for '_==_' applied
//   //    to '(string, int)'\n | 'a' == 1\n | ..^"
//   checked.output_type;                       // bool
//   checked.references.at(root_id).overload_ids;  // {"equals"}
//
// What it implements: type inference with type parameters and unification,
// overload resolution (several overloads may match dyn arguments: the result
// is then dyn unless they agree), cross-type numeric comparisons (no
// overload filtered), heterogeneous equality (_==_ over <A>, <A>), select and
// has() on maps and objects, qualified names (net.IP, format.uuid(),
// google.protobuf.NullValue.NULL_VALUE), comprehension scopes (two-variable
// comprehensions, cel.bind), optional types with .? and [?], homogeneous
// aggregate literals, and the validators: duration, timestamp and regex
// literals, homogeneous literals (exempt inside format calls) and literal
// string.format calls.
//
// Check is a pure function of its inputs; a CheckerEnv is read-only once
// built and may be shared between threads.
#ifndef SCHEDKIT_CEL_CHECKER_H_
#define SCHEDKIT_CEL_CHECKER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "cel/ast.h"
#include "cel/declarations.h"
#include "cel/parser.h"
#include "cel/types.h"

namespace schedkit::cel {

// Defaults are the Kubernetes base environment's (k8s.io/apiserver
// pkg/cel/environment/base.go at 1.37).
struct CheckerOptions {
  // The checker's own homogeneous aggregate literal mode: list and map
  // literal elements must unify (else "expected type 'int' but found
  // 'string'"); when false they join to dyn. cel.HomogeneousAggregateLiterals()
  // no longer sets it in cel-go v0.29.2 (it adds the validator below), so
  // the Kubernetes environment runs with false.
  bool homogeneous_aggregate_literals = false;
  // cel.CrossTypeNumericComparisons(true): 1 < 1u and 1.0 <= 2 check. When
  // false, the mixed-type comparison overloads are filtered out.
  bool cross_type_numeric_comparisons = true;
  // cel.ValidateDurationLiterals, ValidateTimestampLiterals,
  // ValidateRegexLiterals, ValidateHomogeneousAggregateLiterals (element
  // types of one literal must be equivalent, dyn included, checked on the
  // final types).
  bool validate_duration_literals = true;
  bool validate_timestamp_literals = true;
  bool validate_regex_literals = true;
  bool validate_homogeneous_literals = true;
  // ext.Strings' validator of "<literal>".format([<list literal>]); it also
  // exempts everything under a format call from the homogeneous check.
  bool validate_string_format = true;
};

struct CheckerEnv {
  CheckerDeclarations declarations;
  CheckerOptions options;
};

struct CheckIssue {
  ExprId id = 0;
  int32_t offset = -1;  // code point offset, as ParseIssue
  std::string message;  // "found no matching overload for ..."
};

// What an identifier, a select resolved as a qualified name, a call or a
// struct literal resolved to (cel-go's ReferenceInfo).
struct Reference {
  // Identifiers: the variable, type or constant name; calls: the function
  // (a namespaced call such as format.uuid() is the global function
  // "format.uuid", its receiver is not an argument); struct literals: the
  // message type name.
  std::string name;
  // Calls: the overloads that matched, in declaration order. One id: the
  // call is statically resolved; several: dispatch at run time among them.
  std::vector<std::string> overload_ids;
  // Enum constants (google.protobuf.NullValue.NULL_VALUE).
  std::optional<int64_t> enum_value;
};

struct CheckResult {
  // Empty when the expression is well-typed; else cel-go's issues in its
  // display order (by position), at most 100.
  std::vector<CheckIssue> issues;
  // Every checked node's type by expression id, type parameters replaced
  // by their bindings or dyn. Nodes folded into a qualified name (the `net`
  // of net.IP) have none.
  absl::flat_hash_map<ExprId, Type> types;
  absl::flat_hash_map<ExprId, Reference> references;
  Type output_type;  // the root's type; meaningful when ok()
  // How many issues were reported, those past the first 100 included.
  int total_issues = 0;

  bool ok() const { return issues.empty(); }
};

// Type-checks a parsed expression, then (when it type-checks) runs the
// validators the options enable.
CheckResult Check(const ParsedExpr& expr, const CheckerEnv& env);

// The issues as cel-go prints them, source line and caret included:
// "ERROR: <input>:1:3: message\n | source\n | ..^", joined by newlines.
// `parsed` is the parse the checked expression came from (for the text).
std::string FormatCheckIssues(const CheckResult& result, const ParseResult& parsed);

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_CHECKER_H_
