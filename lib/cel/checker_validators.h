// Internal: the Kubernetes base environment's AST validators (cel-go
// v0.29.2 cel/validator.go, ext/formatting.go), run by Check on an
// expression the type checker accepted: literal calls that must evaluate
// (duration, timestamp, regexes, format strings) and the other checks
// CheckerOptions turns on. They add their issues to `result`.
#ifndef SCHEDKIT_LIB_CEL_CHECKER_VALIDATORS_H_
#define SCHEDKIT_LIB_CEL_CHECKER_VALIDATORS_H_

#include "cel/checker.h"

namespace schedkit::cel {

// Issues recorded before the rest are only counted (cel-go's
// maxErrorsToReport), shared by the checker and the validators.
inline constexpr int kMaxIssues = 100;

void RunValidators(const ParsedExpr& expr, const CheckerEnv& env, CheckResult& result);

}  // namespace schedkit::cel

#endif  // SCHEDKIT_LIB_CEL_CHECKER_VALIDATORS_H_
