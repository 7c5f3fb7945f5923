// The CEL parser: source text to a ParsedExpr, accepting and rejecting what
// cel-go v0.29.2's parser does (grammar parser/gen/CEL.g4, reserved words,
// literal rules, macros, recursion and size limits), with cel-go's node ids.
//
//   absl::StatusOr<ParsedExpr> parsed = Parse("device.driver == 'gpu.example.com'");
//   if (!parsed.ok()) { /* parsed.status().message(): "ERROR: <input>:1:3: ..." */ }
//
// Any byte string is acceptable input: a failed parse returns an error, never
// crashes, and runs in time linear in the input (recursion is bounded by
// max_recursion_depth). Stateless; safe to call concurrently.
#ifndef SCHEDKIT_CEL_PARSER_H_
#define SCHEDKIT_CEL_PARSER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "cel/ast.h"
#include "cel/macros.h"

namespace schedkit::cel {

// Defaults are the Kubernetes CEL base environment's (k8s.io/apiserver
// pkg/cel/environment/base.go at 1.37: optional syntax and the extension
// macros on, cel-go's default parser limits).
struct ParserOptions {
  // cel-go's MaxRecursionDepth: both the grammar-rule nesting and the
  // visitor's nesting of operators, selects, indexes and member calls.
  int max_recursion_depth = 250;
  // Expressions longer than this many code points are rejected.
  int expression_size_code_point_limit = 100000;
  bool enable_optional_syntax = true;  // a.?b, a[?b], [?x], {?k: v}
  bool enable_ident_escape_syntax = true;  // a.`b-c`
  // Comprehension accumulators are named @result (else __result__).
  bool enable_hidden_accumulator_name = true;
  MacroSet macros = MacroSet::Kubernetes();
};

struct ParseIssue {
  int32_t offset = -1;  // code point offset; -1 when the error has no location
  std::string message;
};

struct ParseResult {
  ParsedExpr expr;                 // meaningful only when issues is empty
  std::vector<ParseIssue> issues;  // empty on success
  SourceInfo source_info;
  std::u32string text;
};

ParseResult ParseWithIssues(std::string_view text, const ParserOptions& options = {});

// Returns InvalidArgument with the issues formatted as cel-go prints them.
absl::StatusOr<ParsedExpr> Parse(std::string_view text, const ParserOptions& options = {});

// "ERROR: <input>:1:3: message\n | source line\n | ..^", one block per issue.
std::string FormatIssues(const ParseResult& result);

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_PARSER_H_
