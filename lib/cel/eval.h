// The CEL evaluator: a Program is a parsed expression planned once against a
// function registry; Evaluate runs it with variable bindings, as cel-go's
// interpreter does for an unchecked AST (dynamic dispatch on the argument
// kinds), with cel-go's runtime cost tracking and cost limit.
//
//   absl::StatusOr<ParsedExpr> parsed = Parse("device.driver == 'gpu.example.com'");
//   absl::StatusOr<Program> program = Program::Create(*std::move(parsed));
//   MapActivation vars;
//   vars.Bind("device", device_value);
//   EvalResult r = program->Evaluate(vars, {.cost_limit = 1000000});
//   if (r.value.is_error()) { /* r.value.error_kind(), r.value.error_message() */ }
//
// Program is immutable after Create; Evaluate may run concurrently on many
// threads (each call keeps its own frame). Planning resolves comprehension
// variables to slots and functions to registry entries, so evaluating walks
// the tree with a switch and allocates only for the values it builds.
#ifndef SCHEDKIT_CEL_EVAL_H_
#define SCHEDKIT_CEL_EVAL_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "cel/ast.h"
#include "cel/function_registry.h"
#include "cel/value.h"

namespace schedkit::cel {

// Variable bindings (cel-go's Activation).
class Activation {
 public:
  virtual ~Activation() = default;
  // The value bound to `name`, or nullptr when unbound (the evaluator then
  // tries type names, then reports "no such attribute(s): name"). Called on
  // the evaluating thread; the returned pointer must stay valid during
  // Evaluate.
  virtual const Value* FindVariable(std::string_view name) const = 0;
  // Whether a dotted name ("a.b") may be bound; when false the evaluator
  // skips looking up qualified names for select chains.
  virtual bool MayHaveQualifiedNames() const { return true; }
};

class MapActivation final : public Activation {
 public:
  void Bind(std::string name, Value value);
  const Value* FindVariable(std::string_view name) const override;
  bool MayHaveQualifiedNames() const override { return has_dotted_; }

 private:
  absl::flat_hash_map<std::string, Value> vars_;
  bool has_dotted_ = false;
};

struct ProgramOptions {
  // cel-go's OptOptimize (on in Kubernetes): constant list and map literals
  // and conversions of constants are computed once when planning (and then
  // cost nothing), `in` over a constant list is a set lookup, and constant
  // regex patterns are compiled once.
  bool optimize = true;
  // Kubernetes sets cel-go's PresenceTestHasCost(false): has() is free.
  bool presence_test_has_cost = false;
};

struct EvalOptions {
  // Stop with ErrorKind::kCostLimitExceeded ("operation cancelled: actual
  // cost limit exceeded") once the actual cost passes this limit.
  std::optional<uint64_t> cost_limit;
};

struct EvalResult {
  Value value;
  uint64_t cost = 0;  // cel-go's actual cost of this evaluation
};

class Program {
 public:
  // Plans `expr` against `functions`, which must outlive the Program.
  static absl::StatusOr<Program> Create(ParsedExpr expr, const FunctionRegistry& functions = StandardFunctions(),
                                        const ProgramOptions& options = {});

  EvalResult Evaluate(const Activation& vars, const EvalOptions& options = {}) const;

  const ParsedExpr& expr() const;

  struct Plan;  // per-node planning results, internal

 private:
  explicit Program(std::shared_ptr<const Plan> plan) : plan_(std::move(plan)) {}
  std::shared_ptr<const Plan> plan_;
};

// Parses and plans with the Kubernetes defaults; a convenience for tests.
absl::StatusOr<Program> Compile(std::string_view text);

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_EVAL_H_
