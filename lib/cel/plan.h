// Internal to lib/cel: what Program::Create computes for each AST node (the
// operation to run, resolved functions and comprehension slots, folded
// constants) and the split between planning (planner.cc) and evaluation
// (eval.cc). Built once per Program; read-only while evaluating.
#ifndef SCHEDKIT_CEL_PLAN_H_
#define SCHEDKIT_CEL_PLAN_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cel/ast.h"
#include "cel/eval.h"
#include "cel/function_registry.h"
#include "cel/value.h"
#include "re2/re2.h"

namespace schedkit::cel {

enum class Op : uint8_t {
  kConst,
  kIdentGlobal,
  kIdentLocal,
  kSelect,
  kTestOnly,
  kOptSelect,
  kIndex,
  kOptIndex,
  kCall,
  kAnd,
  kOr,
  kConditional,
  kNotStrictlyFalse,
  kOptOr,       // opt.or(other): other is evaluated only when opt is none
  kOptOrValue,  // opt.orValue(v)
  kList,
  kMap,
  kStruct,
  kComprehension,
  kUnspecified,
};

// Operations cel-go plans as attributes (variables, selections, indexes,
// conditionals): a select or index over anything else starts a relative
// attribute, which costs one.
inline bool IsAttributeOp(Op op) {
  return op == Op::kIdentGlobal || op == Op::kIdentLocal || op == Op::kSelect || op == Op::kTestOnly ||
         op == Op::kIndex || op == Op::kOptSelect || op == Op::kOptIndex || op == Op::kConditional;
}

struct PlanNode {
  Op op = Op::kUnspecified;
  Value constant;           // kConst
  int32_t slot = -1;        // kIdentLocal; kComprehension: first of its three slots
  bool accu_slot = false;   // kIdentLocal: the slot is a lazily initialized accumulator
  const Function* function = nullptr;
  // kIdentGlobal: the name to look up, and the name a missing variable is
  // reported under (the longest select chain it roots). kSelect: the dotted
  // name to try in the activation first, when the chain is all selects.
  std::string name;
  std::string error_name;
  bool set_membership = false;  // `in` over a constant list: free, as cel-go's
  bool skip_target = false;     // a namespaced function: the target is its name
  bool allow_type_name = false; // kIdentGlobal: an unbound name may be a type
  bool accumulator_append = false;  // _+_ whose left side is an accumulator
  // The root of an attribute chain that is a branch of c ? t : f: cel-go
  // resolves it without its attribute cost.
  bool free_root = false;
  std::shared_ptr<const RE2> regex;  // matches() with a constant pattern
  std::string regex_error;
};

struct Program::Plan {
  ParsedExpr expr;
  const FunctionRegistry* functions = nullptr;
  ProgramOptions options;
  std::vector<PlanNode> nodes;
  int32_t slot_count = 0;
  // By slot: the accumulator's init expression (for lazy initialization).
  std::vector<ExprIndex> accu_init;
  // What cel-go reports when building the program (constant regexes that do
  // not compile, constant index keys of unusable kinds, folded conversions
  // that fail); empty when planning succeeded.
  std::string error;
};


// Fills plan.nodes (and slot_count, accu_init, error) for plan.expr.
void PlanProgram(Program::Plan& plan);

// Evaluates one planned subtree with no variables; the planner folds
// constants with it.
Value EvaluateConstant(const Program::Plan& plan, ExprIndex i);

// cel-go builds index qualifiers from strings, ints, uints, bools and
// doubles only: an error value for any other key, else a null value.
Value InvalidQualifier(const Value& key);

bool IsTypeName(std::string_view name);

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_PLAN_H_
