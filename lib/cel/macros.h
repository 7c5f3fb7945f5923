// Parse-time macros, expanded into comprehensions exactly as cel-go's
// (parser/macro.go; ext/comprehensions.go, ext/bindings.go, ext/lists.go;
// cel/library.go for optMap/optFlatMap): same node shapes, same id order,
// same error messages ("argument must be a simple name", ...).
//
//   MacroSet macros = MacroSet::Kubernetes();
//   const Macro* m = FindMacro(macros, "all", /*arg_count=*/2, /*receiver=*/true);
//
// Immutable tables; safe to use concurrently.
#ifndef SCHEDKIT_CEL_MACROS_H_
#define SCHEDKIT_CEL_MACROS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "cel/ast.h"

namespace schedkit::cel {

class AstBuilder;

// Which macro families the parser expands.
struct MacroSet {
  bool standard = true;          // has, all, exists, exists_one, map, filter (cel.StandardMacros)
  bool exists_one_camel = false; // existsOne(x, p): in parser.AllMacros, not in cel environments
  bool optional = true;          // optMap, optFlatMap (cel.OptionalTypes)
  bool two_var = true;           // ext.TwoVarComprehensions
  bool sort_by = true;           // ext.Lists version >= 2
  bool bindings = false;         // cel.bind (ext.Bindings; not in the Kubernetes base env)

  // cel-go's parser.AllMacros alone (what parser_test.go uses).
  static MacroSet Standard() { return {true, true, false, false, false, false}; }
  // The Kubernetes base environment at compatibility version 1.37.
  static MacroSet Kubernetes() { return {}; }
  static MacroSet All() { return {true, true, true, true, true, true}; }
};

struct MacroResult {
  // The expansion; kNoExpr with an empty error means "not this macro" (as
  // cel.bind on a target other than `cel`): the call stays a call.
  ExprIndex expr = kNoExpr;
  std::string error;
  ExprIndex error_at = kNoExpr;  // the argument the error is about
};

using MacroExpander = MacroResult (*)(AstBuilder& b, ExprIndex target, const std::vector<ExprIndex>& args);

struct Macro {
  std::string_view function;
  int arg_count;
  bool receiver;
  MacroExpander expand;
};

const Macro* FindMacro(const MacroSet& set, std::string_view function, size_t arg_count, bool receiver);

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_MACROS_H_
