// cel-go's debug rendering of an AST (common/debug): the format of the P:
// strings in cel-go's parser_test.go, so that upstream's parser table can be
// compared with ours as text.
//
//   std::string s = ToDebugString(parsed, DebugAdorner::kKindAndId);
//   // "_+_(\n  a^#1:*expr.Expr_IdentExpr#,\n ..."
//
// Pure function; safe to call concurrently.
#ifndef SCHEDKIT_CEL_DEBUG_STRING_H_
#define SCHEDKIT_CEL_DEBUG_STRING_H_

#include <string>

#include "cel/ast.h"

namespace schedkit::cel {

enum class DebugAdorner {
  kNone,
  kKindAndId,  // ^#<id>:<cel-go expression kind># after every node and entry
};

std::string ToDebugString(const ParsedExpr& expr, DebugAdorner adorner = DebugAdorner::kNone);

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_DEBUG_STRING_H_
