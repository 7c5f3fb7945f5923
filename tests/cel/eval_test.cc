// Evaluator behaviour: a table of expressions with the results cel-go
// v0.29.2 gives (eval_probe_test_cases.inc), then the contracts that tables
// cannot show: bindings through an activation, host objects (the DRA device),
// error kinds, the cost limit, qualified names, and that a comprehension
// builds its list in place.
#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include <catch2/catch.hpp>

#include "cel/eval.h"
#include "cel/parser.h"
#include "cel/value_text.h"

namespace schedkit::cel {
namespace {

struct ProbeCase {
  std::string_view expr;
  std::string_view want;  // value text, error:<message>, or parse_error
};

const ProbeCase kProbes[] = {
#include "cel/eval_probe_test_cases.inc"
};

std::string EvalText(std::string_view expr, const Activation& vars = MapActivation()) {
  ParserOptions o;
  o.macros.bindings = true;
  absl::StatusOr<ParsedExpr> parsed = Parse(expr, o);
  if (!parsed.ok()) return "parse_error";
  absl::StatusOr<Program> p = Program::Create(*std::move(parsed));
  if (!p.ok()) return "error:" + std::string(p.status().message());
  return ValueText(p->Evaluate(vars).value);
}

Value Eval(std::string_view expr, const Activation& vars = MapActivation(), EvalOptions options = {},
           uint64_t* cost = nullptr) {
  absl::StatusOr<Program> p = Compile(expr);
  REQUIRE(p.ok());
  EvalResult r = p->Evaluate(vars, options);
  if (cost != nullptr) *cost = r.cost;
  return r.value;
}

TEST_CASE("evaluation results as cel-go's", "[cel][eval]") {
  for (const ProbeCase& c : kProbes) {
    INFO("expr: " << c.expr);
    CHECK(EvalText(c.expr) == c.want);
  }
}

TEST_CASE("variables come from the activation; locals shadow them", "[cel][eval]") {
  MapActivation vars;
  vars.Bind("x", Value::Int(5));
  vars.Bind("names", Value::List({Value::String("a"), Value::String("b")}));
  CHECK(ValueText(Eval("x * 2", vars)) == "int:10");
  CHECK(ValueText(Eval("names.exists(x, x == 'b') && x == 5", vars)) == "bool:true");
  CHECK(ValueText(Eval("names.map(x, x + 'z')", vars)) == "[string:\"az\", string:\"bz\"]");
  Value missing = Eval("y + 1", vars);
  REQUIRE(missing.is_error());
  CHECK(missing.error_kind() == ErrorKind::kUnknownReference);
  CHECK(missing.error_message() == "no such attribute(s): y");
}

TEST_CASE("dotted variable names resolve before field selection", "[cel][eval]") {
  MapActivation vars;
  vars.Bind("a.b", Value::Int(1));
  vars.Bind("a", Value::Map({{Value::String("b"), Value::Int(2)}}));
  CHECK(ValueText(Eval("a.b", vars)) == "int:1");
  CHECK(ValueText(Eval("a['b']", vars)) == "int:2");
  Value missing = Eval("x.y.z");
  REQUIRE(missing.is_error());
  CHECK(missing.error_message() == "no such attribute(s): x.y.z");
}

// The DRA device as a host object: fields driver, attributes, capacity,
// allowMultipleAllocations.
class FakeDevice final : public ObjectValue {
 public:
  std::string_view TypeName() const override { return "kubernetes.DRADevice"; }
  std::optional<Value> GetField(std::string_view name) const override {
    if (name == "driver") return Value::String("gpu.example.com");
    if (name == "allowMultipleAllocations") return Value::Bool(false);
    if (name == "attributes") {
      return Value::Map({{Value::String("gpu.example.com"),
                          Value::Map({{Value::String("model"), Value::String("a100")},
                                      {Value::String("cores"), Value::Int(108)}})}});
    }
    if (name == "capacity") return Value::Map({});
    return std::nullopt;
  }
};

TEST_CASE("host objects: field access, has(), missing fields", "[cel][eval]") {
  MapActivation vars;
  vars.Bind("device", Value::Object(std::make_shared<FakeDevice>()));
  CHECK(ValueText(Eval("device.driver == 'gpu.example.com'", vars)) == "bool:true");
  CHECK(ValueText(Eval("device.attributes['gpu.example.com'].model", vars)) == "string:\"a100\"");
  CHECK(ValueText(Eval("device.attributes['gpu.example.com'].cores > 100u", vars)) == "bool:true");
  CHECK(ValueText(Eval("has(device.attributes.x)", vars)) == "bool:false");
  CHECK(ValueText(Eval("has(device.driver)", vars)) == "bool:true");
  CHECK(ValueText(Eval("device.?missing.orValue('none')", vars)) == "string:\"none\"");
  CHECK(ValueText(Eval("type(device) == type(device)", vars)) == "bool:true");
  Value missing = Eval("device.attributes['other.com'].model", vars);
  REQUIRE(missing.is_error());
  CHECK(missing.error_kind() == ErrorKind::kNoSuchKey);
  CHECK(missing.error_message() == "no such key: other.com");
  Value bad = Eval("device.driver + 1", vars);
  REQUIRE(bad.is_error());
  CHECK(bad.error_kind() == ErrorKind::kNoSuchOverload);
}

TEST_CASE("error kinds", "[cel][eval]") {
  CHECK(Eval("1 / 0").error_kind() == ErrorKind::kDivisionByZero);
  CHECK(Eval("1 % 0").error_kind() == ErrorKind::kModulusByZero);
  CHECK(Eval("9223372036854775807 + 1").error_kind() == ErrorKind::kOverflow);
  CHECK(Eval("0u - 1u").error_kind() == ErrorKind::kOverflow);
  CHECK(Eval("[1][5]").error_kind() == ErrorKind::kRange);
  CHECK(Eval("{'a': 1}['b']").error_kind() == ErrorKind::kNoSuchKey);
  CHECK(Eval("int('x' + '')").error_kind() == ErrorKind::kInvalidArgument);
  CHECK(Eval("1 + 'a'").error_kind() == ErrorKind::kNoSuchOverload);
  CHECK(Eval("nope").error_kind() == ErrorKind::kUnknownReference);
}

TEST_CASE("errors are absorbed by && and || from either side", "[cel][eval]") {
  CHECK(ValueText(Eval("false && 1/0 == 0")) == "bool:false");
  CHECK(ValueText(Eval("1/0 == 0 && false")) == "bool:false");
  CHECK(ValueText(Eval("true || 1/0 == 0")) == "bool:true");
  CHECK(ValueText(Eval("1/0 == 0 || true")) == "bool:true");
  CHECK(Eval("1/0 == 0 && true").error_kind() == ErrorKind::kDivisionByZero);
}

TEST_CASE("actual cost and the cost limit", "[cel][eval][cost]") {
  uint64_t cost = 0;
  Eval("'abc' + 'def'", MapActivation(), {}, &cost);
  CHECK(cost == 1);  // ceil((3 + 3) * 0.1)
  MapActivation vars;
  vars.Bind("l", Value::List({Value::Int(1), Value::Int(2), Value::Int(3)}));
  Eval("l.map(x, x * 2)", vars, {}, &cost);
  // l (1); per element: accumulator (1), [x * 2] (list 10, x 1, * 1), + (1);
  // result (1).
  CHECK(cost == 1 + 3 * 14 + 1);
  Value stopped = Eval("l.map(x, x * 2)", vars, {.cost_limit = 5});
  REQUIRE(stopped.is_error());
  CHECK(stopped.error_kind() == ErrorKind::kCostLimitExceeded);
  CHECK(stopped.error_message() == "operation cancelled: actual cost limit exceeded");
  // The cancellation is not absorbed by a logical operator.
  Value absorbed = Eval("l.map(x, x * 2).size() > 0 || true", vars, {.cost_limit = 5});
  REQUIRE(absorbed.is_error());
  CHECK(absorbed.error_kind() == ErrorKind::kCostLimitExceeded);
}

TEST_CASE("map() over a long list appends in place", "[cel][eval]") {
  std::vector<Value> elems;
  for (int i = 0; i < 100000; ++i) elems.push_back(Value::Int(i));
  MapActivation vars;
  vars.Bind("l", Value::List(std::move(elems)));
  auto start = std::chrono::steady_clock::now();
  Value r = Eval("l.map(x, x + 1).size()", vars);
  auto elapsed = std::chrono::steady_clock::now() - start;
  CHECK(ValueText(r) == "int:100000");
  // Copying the accumulator each step would take minutes.
  CHECK(elapsed < std::chrono::seconds(5));
  // The input list itself is untouched.
  CHECK(ValueText(Eval("l.size()", vars)) == "int:100000");
}

TEST_CASE("a program is reusable and its bindings are per call", "[cel][eval]") {
  absl::StatusOr<Program> p = Compile("x.filter(v, v > 1)");
  REQUIRE(p.ok());
  MapActivation a;
  a.Bind("x", Value::List({Value::Int(1), Value::Int(2)}));
  MapActivation b;
  b.Bind("x", Value::List({Value::Int(3)}));
  CHECK(ValueText(p->Evaluate(a).value) == "[int:2]");
  CHECK(ValueText(p->Evaluate(b).value) == "[int:3]");
  CHECK(ValueText(p->Evaluate(a).value) == "[int:2]");
}

TEST_CASE("program creation rejects what cel-go rejects when planning", "[cel][eval]") {
  auto plan = [](std::string_view expr) {
    absl::StatusOr<ParsedExpr> parsed = Parse(expr);
    REQUIRE(parsed.ok());
    return Program::Create(*std::move(parsed)).status();
  };
  CHECK(plan("'a'.matches('(')").message() == "error parsing regexp: missing closing ): `(`");
  CHECK(plan("{'a': 1}[null]").message() == "invalid qualifier type: types.Null");
  CHECK(plan("int('x') == 1").message() == "type conversion error from 'string' to 'int'");
  CHECK(plan("x.matches('a+')").ok());
}

}  // namespace
}  // namespace schedkit::cel
