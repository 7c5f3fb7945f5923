#include "cel/eval.h"

#include <span>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "cel/numeric.h"
#include "cel/parser.h"
#include "cel/plan.h"
#include "re2/re2.h"

namespace schedkit::cel {
namespace {

// cel-go's common cost constants.
constexpr uint64_t kListCreateBaseCost = 10;
constexpr uint64_t kMapCreateBaseCost = 30;
constexpr uint64_t kStructCreateBaseCost = 40;

// cel-go reports Go type names in some iteration errors.
std::string GoTypeName(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kNull: return "types.Null";
    case ValueKind::kBool: return "types.Bool";
    case ValueKind::kInt: return "types.Int";
    case ValueKind::kUint: return "types.Uint";
    case ValueKind::kDouble: return "types.Double";
    case ValueKind::kString: return "types.String";
    case ValueKind::kBytes: return "types.Bytes";
    case ValueKind::kType: return "*types.Type";
    case ValueKind::kDuration: return "types.Duration";
    case ValueKind::kTimestamp: return "types.Timestamp";
    case ValueKind::kOptional: return "*types.Optional";
    default: return std::string(TypeName(v));
  }
}

Value MissingKey(const Value& key) {
  return Value::Error(ErrorKind::kNoSuchKey, "no such key: " + FormatForMessage(key));
}

class Evaluator {
 public:
  Evaluator(const Program::Plan& plan, const Activation& vars, const EvalOptions& options)
      : plan_(plan),
        vars_(vars),
        limit_(options.cost_limit),
        slots_(static_cast<size_t>(plan.slot_count)),
        initialized_(static_cast<size_t>(plan.slot_count), 0) {}

  Value Run() {
    Value v = Eval(plan_.expr.root_index());
    if (cancelled_) return CancelError();
    return v;
  }
  uint64_t cost() const { return cost_; }

  Value Eval(ExprIndex i);

 private:
  static Value CancelError() {
    return Value::Error(ErrorKind::kCostLimitExceeded, "operation cancelled: actual cost limit exceeded");
  }

  void AddCost(uint64_t c) {
    cost_ += c;
    if (limit_ && cost_ > *limit_) cancelled_ = true;
  }

  const Expr& node(ExprIndex i) const { return plan_.expr.node(i); }
  const PlanNode& plan(ExprIndex i) const { return plan_.nodes[static_cast<size_t>(i)]; }

  Value EvalIdentGlobal(const Expr& e, const PlanNode& p);
  Value EvalLocal(const PlanNode& p);
  Value EvalSelect(ExprIndex i, const Expr& e, const PlanNode& p);
  Value EvalIndex(const Expr& e, const PlanNode& p, bool optional);
  Value EvalCall(ExprIndex i, const Expr& e, const PlanNode& p);
  Value EvalLogic(const Expr& e, bool is_and);
  Value EvalConditional(const Expr& e);
  Value EvalList(const Expr& e);
  Value EvalMap(const Expr& e);
  Value EvalComprehension(const Expr& e, const PlanNode& p);
  Value EvalOptOr(const Expr& e, bool or_value);
  Value CallFunction(const Expr& e, const PlanNode& p, std::span<const Value> args);
  Value ErrorArgument(const PlanNode& p, std::span<const Value> args, const Value& error);

  // A select or index over a value that is not itself an attribute starts
  // a relative attribute, which costs one.
  void AddRelativeAttributeCost(const Expr& e, const PlanNode& p) {
    if (!p.free_root && !IsAttributeOp(plan(e.operand != kNoExpr ? e.operand : e.args[0]).op)) AddCost(1);
  }

  const Program::Plan& plan_;
  const Activation& vars_;
  std::optional<uint64_t> limit_;
  uint64_t cost_ = 0;
  bool cancelled_ = false;
  std::vector<Value> slots_;
  std::vector<uint8_t> initialized_;
};

Value OptSelectField(const Value& v, const std::string& field);

// Selection on a value, as cel-go's attribute qualification: maps by key,
// objects by field, optionals inside-out; anything else has no such key.
Value SelectField(const Value& v, const std::string& field) {
  switch (v.kind()) {
    case ValueKind::kMap: {
      const Value* found = v.map().LookupString(field);
      if (found == nullptr) return MissingKey(Value::String(field));
      return *found;
    }
    case ValueKind::kObject: {
      std::optional<Value> f = v.object().GetField(field);
      if (!f) return MissingKey(Value::String(field));
      return *std::move(f);
    }
    case ValueKind::kOptional:
      // Selecting through an optional keeps the chain optional (cel-go's
      // optional attribute qualification): a missing field is none.
      if (!v.optional_has_value()) return v;
      return OptSelectField(v.optional_value(), field);
    case ValueKind::kList:
      return Value::Error(ErrorKind::kInvalidArgument, "unsupported index type 'string' in list");
    case ValueKind::kError:
      return v;
    default:
      return MissingKey(Value::String(field));
  }
}

// a.?f: optional.of(a.f) when present, else optional.none().
Value OptSelectField(const Value& v, const std::string& field) {
  switch (v.kind()) {
    case ValueKind::kMap: {
      const Value* found = v.map().LookupString(field);
      return found ? Value::OptionalOf(*found) : Value::OptionalNone();
    }
    case ValueKind::kObject: {
      std::optional<Value> f = v.object().GetField(field);
      return f ? Value::OptionalOf(*std::move(f)) : Value::OptionalNone();
    }
    case ValueKind::kOptional:
      if (!v.optional_has_value()) return v;
      return OptSelectField(v.optional_value(), field);
    case ValueKind::kError:
      return v;
    default:
      return Value::OptionalNone();
  }
}

bool ListIndex(const Value& key, int64_t* out, Value* err) {
  switch (key.kind()) {
    case ValueKind::kInt:
      *out = key.int_value();
      return true;
    case ValueKind::kUint:
      if (key.uint_value() > static_cast<uint64_t>(INT64_MAX)) break;
      *out = static_cast<int64_t>(key.uint_value());
      return true;
    case ValueKind::kDouble:
      if (auto i = DoubleToInt64Lossless(key.double_value())) {
        *out = *i;
        return true;
      }
      break;
    default:
      *err = Value::Error(ErrorKind::kInvalidArgument,
                          "unsupported index type '" + std::string(TypeName(key)) + "' in list");
      return false;
  }
  *err = Value::Error(ErrorKind::kInvalidArgument, "unsupported index value " + FormatForMessage(key) + " in list");
  return false;
}

Value IndexValue(const Value& v, const Value& key, bool optional) {
  if (v.kind() != ValueKind::kError) {
    Value bad = InvalidQualifier(key);
    if (bad.is_error()) return bad;
  }
  switch (v.kind()) {
    case ValueKind::kMap: {
      const Value* found = v.map().Lookup(key);
      if (found != nullptr) return optional ? Value::OptionalOf(*found) : *found;
      return optional ? Value::OptionalNone() : MissingKey(key);
    }
    case ValueKind::kList: {
      int64_t idx = 0;
      Value err;
      if (!ListIndex(key, &idx, &err)) return err;
      const auto& elems = v.list_elements();
      if (idx >= 0 && static_cast<uint64_t>(idx) < elems.size()) {
        return optional ? Value::OptionalOf(elems[static_cast<size_t>(idx)]) : elems[static_cast<size_t>(idx)];
      }
      if (optional) return Value::OptionalNone();
      return Value::Error(ErrorKind::kRange, "index out of bounds: " + FormatForMessage(key));
    }
    case ValueKind::kObject: {
      if (key.kind() == ValueKind::kString) {
        std::optional<Value> f = v.object().GetField(key.string_value());
        if (f) return optional ? Value::OptionalOf(*std::move(f)) : *std::move(f);
      }
      return optional ? Value::OptionalNone() : MissingKey(key);
    }
    case ValueKind::kOptional:
      if (!v.optional_has_value()) return v;
      return IndexValue(v.optional_value(), key, /*optional=*/true);
    case ValueKind::kError:
      return v;
    default:
      return optional ? Value::OptionalNone() : MissingKey(key);
  }
}

Value Evaluator::Eval(ExprIndex i) {
  if (cancelled_) return CancelError();
  const Expr& e = node(i);
  const PlanNode& p = plan(i);
  switch (p.op) {
    case Op::kConst:
      return p.constant;
    case Op::kIdentGlobal:
      return EvalIdentGlobal(e, p);
    case Op::kIdentLocal:
      if (!p.free_root) AddCost(1);
      return EvalLocal(p);
    case Op::kSelect:
    case Op::kTestOnly:
    case Op::kOptSelect:
      return EvalSelect(i, e, p);
    case Op::kIndex:
    case Op::kOptIndex:
      return EvalIndex(e, p, p.op == Op::kOptIndex);
    case Op::kCall:
      return EvalCall(i, e, p);
    case Op::kAnd:
      return EvalLogic(e, true);
    case Op::kOr:
      return EvalLogic(e, false);
    case Op::kConditional:
      return EvalConditional(e);
    case Op::kNotStrictlyFalse: {
      Value v = Eval(e.args[0]);
      AddCost(1);
      if (v.is_bool()) return v;
      return Value::Bool(true);
    }
    case Op::kOptOr:
      return EvalOptOr(e, false);
    case Op::kOptOrValue:
      return EvalOptOr(e, true);
    case Op::kList:
      return EvalList(e);
    case Op::kMap:
      return EvalMap(e);
    case Op::kStruct:
      AddCost(kStructCreateBaseCost);
      return Value::Error(ErrorKind::kInvalidArgument, "unknown type: " + e.name);
    case Op::kComprehension:
      return EvalComprehension(e, p);
    case Op::kUnspecified:
      break;
  }
  return Value::Error(ErrorKind::kOther, "unsupported expression");
}

Value Evaluator::EvalIdentGlobal(const Expr&, const PlanNode& p) {
  if (const Value* v = vars_.FindVariable(p.name)) {
    if (!p.free_root) AddCost(1);
    return *v;
  }
  // A type name is a constant once type-checked, and free.
  if (p.allow_type_name && IsTypeName(p.name)) return Value::Type(p.name);
  if (!p.free_root) AddCost(1);
  return Value::Error(ErrorKind::kUnknownReference, "no such attribute(s): " + p.error_name);
}

Value Evaluator::EvalLocal(const PlanNode& p) {
  size_t s = static_cast<size_t>(p.slot);
  if (p.accu_slot && !initialized_[s]) {
    initialized_[s] = 1;
    slots_[s] = Eval(plan_.accu_init[s]);
  }
  return slots_[s];
}

Value Evaluator::EvalSelect(ExprIndex, const Expr& e, const PlanNode& p) {
  // A qualified type name (google.protobuf.Duration) is a constant once
  // type-checked, and free, unless its first name is a variable.
  if (p.op == Op::kSelect && !p.name.empty() && IsTypeName(p.name) &&
      vars_.FindVariable(std::string_view(p.name).substr(0, p.name.find('.'))) == nullptr) {
    return Value::Type(p.name);
  }
  if (p.op == Op::kSelect && !p.name.empty() && vars_.MayHaveQualifiedNames()) {
    if (const Value* v = vars_.FindVariable(p.name)) {
      AddCost(1);
      return *v;
    }
  }
  if (p.op == Op::kOptSelect) {
    // _?._(operand, "field")
    Value operand = Eval(e.args[0]);
    AddRelativeAttributeCost(e, p);
    if (operand.is_error()) return operand;
    Value r = OptSelectField(operand, node(e.args[1]).constant.string_value);
    // cel-go counts an optional qualifier only when it finds something.
    if (r.optional_has_value()) AddCost(1);
    return r;
  }
  Value operand = Eval(e.operand);
  AddRelativeAttributeCost(e, p);
  if (p.op == Op::kTestOnly) {
    if (plan_.options.presence_test_has_cost) AddCost(1);
    if (operand.is_error()) return operand;
    // cel-go takes back the chain's attribute cost for a free presence test
    // unless the test's qualifier counted one; over optional.none() it
    // does not.
    if (!plan_.options.presence_test_has_cost && operand.kind() == ValueKind::kOptional &&
        !operand.optional_has_value() && cost_ > 0) {
      --cost_;
    }
    switch (operand.kind()) {
      case ValueKind::kMap:
        return Value::Bool(operand.map().LookupString(e.name) != nullptr);
      case ValueKind::kObject:
        return Value::Bool(operand.object().GetField(e.name).has_value());
      case ValueKind::kOptional:
        if (!operand.optional_has_value()) return Value::Bool(false);
        if (operand.optional_value().kind() == ValueKind::kMap) {
          return Value::Bool(operand.optional_value().map().LookupString(e.name) != nullptr);
        }
        return Value::Bool(false);
      default:
        return Value::Bool(false);
    }
  }
  if (operand.is_error()) {
    AddCost(1);
    return operand;
  }
  Value r = SelectField(operand, e.name);
  // Through an optional, a qualifier counts only when it finds something.
  if (operand.kind() != ValueKind::kOptional || r.optional_has_value()) AddCost(1);
  return r;
}

Value Evaluator::EvalIndex(const Expr& e, const PlanNode& p, bool optional) {
  Value operand = Eval(e.args[0]);
  Value key = Eval(e.args[1]);
  AddRelativeAttributeCost(e, p);
  bool through_optional = optional || operand.kind() == ValueKind::kOptional;
  if (!through_optional) AddCost(1);
  if (operand.is_error()) return operand;
  if (key.is_error()) return key;
  Value r = IndexValue(operand, key, optional);
  if (through_optional && r.optional_has_value()) AddCost(1);
  return r;
}

Value Evaluator::EvalLogic(const Expr& e, bool is_and) {
  // cel-go's evalAnd/evalOr: a deciding term wins over errors on either
  // side; otherwise the first error (or "no such overload" for a non-bool).
  Value lhs = Eval(e.args[0]);
  if (lhs.is_bool() && lhs.bool_value() != is_and) return lhs;
  Value rhs = Eval(e.args[1]);
  if (cancelled_) return CancelError();
  if (rhs.is_bool() && rhs.bool_value() != is_and) return rhs;
  for (const Value* v : {&lhs, &rhs}) {
    if (v->is_error()) return *v;
    if (!v->is_bool()) return NoSuchOverload();
  }
  return Value::Bool(is_and);
}

Value Evaluator::EvalConditional(const Expr& e) {
  Value cond = Eval(e.args[0]);
  if (cond.is_error()) return cond;
  if (!cond.is_bool()) return NoSuchOverload();
  return Eval(cond.bool_value() ? e.args[1] : e.args[2]);
}

Value Evaluator::EvalOptOr(const Expr& e, bool or_value) {
  Value target = Eval(e.operand);
  if (target.is_error()) return target;
  if (target.kind() != ValueKind::kOptional) {
    Value arg = Eval(e.args[0]);
    AddCost(1);
    if (arg.is_error()) return arg;
    return Value::Error(ErrorKind::kNoSuchOverload, std::string("no such overload: ") +
                                                        (or_value ? "orValue" : "or") + "(" +
                                                        std::string(TypeName(target)) + ", " +
                                                        std::string(TypeName(arg)) + ")");
  }
  if (target.optional_has_value()) return or_value ? target.optional_value() : target;
  Value arg = Eval(e.args[0]);
  if (arg.is_error()) return arg;
  if (!or_value && arg.kind() != ValueKind::kOptional) {
    return Value::Error(ErrorKind::kNoSuchOverload,
                        "no such overload: or(optional_type, " + std::string(TypeName(arg)) + ")");
  }
  return arg;
}

Value Evaluator::EvalList(const Expr& e) {
  std::vector<Value> elems;
  elems.reserve(e.args.size());
  size_t next_opt = 0;
  Value result;
  bool failed = false;
  for (size_t k = 0; k < e.args.size(); ++k) {
    Value v = Eval(e.args[k]);
    if (v.is_error()) {
      result = std::move(v);
      failed = true;
      break;
    }
    bool optional = next_opt < e.optional_indices.size() && e.optional_indices[next_opt] == static_cast<int32_t>(k);
    if (optional) {
      ++next_opt;
      if (v.kind() != ValueKind::kOptional) {
        result = Value::Error(ErrorKind::kInvalidArgument,
                              "cannot initialize optional list element from non-optional value " + FormatForMessage(v));
        failed = true;
        break;
      }
      if (!v.optional_has_value()) continue;
      elems.push_back(v.optional_value());
      continue;
    }
    elems.push_back(std::move(v));
  }
  AddCost(kListCreateBaseCost);
  if (failed) return result;
  return Value::List(std::move(elems));
}

Value Evaluator::EvalMap(const Expr& e) {
  std::vector<std::pair<Value, Value>> entries;
  entries.reserve(e.entries.size());
  Value result;
  bool failed = false;
  for (const Entry& en : e.entries) {
    Value k = Eval(en.key);
    if (k.is_error()) {
      result = std::move(k);
      failed = true;
      break;
    }
    Value v = Eval(en.value);
    if (v.is_error()) {
      result = std::move(v);
      failed = true;
      break;
    }
    if (en.optional) {
      if (v.kind() != ValueKind::kOptional) {
        result = Value::Error(ErrorKind::kInvalidArgument, "cannot initialize optional entry '" + FormatForMessage(k) +
                                                               "' from non-optional value " + FormatForMessage(v));
        failed = true;
        break;
      }
      if (!v.optional_has_value()) {
        for (size_t j = 0; j < entries.size(); ++j) {
          if (SameKey(entries[j].first, k)) {
            entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(j));
            break;
          }
        }
        continue;
      }
      v = v.optional_value();
    }
    entries.emplace_back(std::move(k), std::move(v));
  }
  AddCost(kMapCreateBaseCost);
  if (failed) return result;
  return Value::Map(std::move(entries));
}

Value Evaluator::EvalCall(ExprIndex, const Expr& e, const PlanNode& p) {
  absl::InlinedVector<Value, 4> args;
  args.reserve(e.args.size() + 1);
  if (e.operand != kNoExpr && !p.skip_target) args.push_back(Eval(e.operand));
  for (ExprIndex a : e.args) args.push_back(Eval(a));
  if (cancelled_) return CancelError();
  for (const Value& a : args) {
    if (a.is_error()) return ErrorArgument(p, std::span<const Value>(args.data(), args.size()), a);
  }
  // cel-go appends to an accumulator list nobody else holds in place
  // (its mutable comprehension lists); without this, map() and filter()
  // would copy the list on every step.
  if (p.accumulator_append && args[0].kind() == ValueKind::kList &&
      args[1].kind() == ValueKind::kList) {
    const PlanNode& lhs = plan(e.args[0]);
    if (lhs.op == Op::kIdentLocal && lhs.accu_slot) {
      Value& slot = slots_[static_cast<size_t>(lhs.slot)];
      if (slot.heap() == args[0].heap() && args[0].heap().use_count() == 2) {
        slot = Value();
        auto* rep = const_cast<ListRep*>(static_cast<const ListRep*>(args[0].heap().get()));
        const auto& extra = args[1].list_elements();
        rep->elements.insert(rep->elements.end(), extra.begin(), extra.end());
        AddCost(1);
        return std::move(args[0]);
      }
    }
  }
  return CallFunction(e, p, std::span<const Value>(args.data(), args.size()));
}

// A call with an error argument returns the error; its cost is what the
// function's overloads of that arity agree on (see Overload::error_cost).
Value Evaluator::ErrorArgument(const PlanNode& p, std::span<const Value> args, const Value& error) {
  uint64_t cost = 1;
  int panic_arg = -1;
  if (p.function != nullptr) {
    bool first = true;
    for (const Overload& o : p.function->overloads) {
      if (o.arg_kinds.size() != args.size()) continue;
      uint64_t c = o.error_cost == 0 ? 1 : o.error_cost;
      if (first) {
        cost = c;
        panic_arg = o.panic_arg;
        first = false;
      } else if (c != cost || o.panic_arg != panic_arg) {
        cost = 1;
        panic_arg = -1;
        break;
      }
    }
  }
  AddCost(cost);
  if (panic_arg >= 0 && static_cast<size_t>(panic_arg) < args.size() && args[static_cast<size_t>(panic_arg)].is_error()) {
    return Value::Error(ErrorKind::kOther,
                        "internal error: interface conversion: *types.Err is not traits.Lister: missing method Add");
  }
  return error;
}

Value Evaluator::CallFunction(const Expr& e, const PlanNode& p, std::span<const Value> args) {
  if (p.function == nullptr) {
    AddCost(1);
    if (e.operand != kNoExpr && !p.skip_target) return NoSuchOverload();
    return NoSuchOverload(e.name);
  }
  if (p.regex != nullptr || !p.regex_error.empty()) {
    if (!p.regex_error.empty()) {
      AddCost(1);
      return Value::Error(ErrorKind::kInvalidArgument, p.regex_error);
    }
    if (args[0].kind() == ValueKind::kString) {
      Value r = Value::Bool(RE2::PartialMatch(args[0].string_value(), *p.regex));
      const Overload* o = p.function->Resolve(args);
      AddCost(o != nullptr && o->cost != nullptr ? o->cost(args, r) : 1);
      return r;
    }
  }
  const Overload* o = p.function->Resolve(args);
  Value r;
  if (o != nullptr) {
    r = o->impl(args);
  } else if (p.function->fallback != nullptr) {
    r = p.function->fallback(args);
  } else {
    std::string sig;
    for (size_t k = 0; k < args.size(); ++k) {
      if (k > 0) sig += ", ";
      sig += TypeName(args[k]);
    }
    r = Value::Error(ErrorKind::kNoSuchOverload, "no such overload: " + e.name + "(" + sig + ")");
  }
  if (p.set_membership) return r;
  AddCost(o != nullptr && o->cost != nullptr ? o->cost(args, r) : 1);
  return r;
}

Value Evaluator::EvalComprehension(const Expr& e, const PlanNode& p) {
  Value range = Eval(e.iter_range);
  if (range.is_error()) return range;
  const size_t accu = static_cast<size_t>(p.slot);
  const size_t it1 = accu + 1;
  const size_t it2 = accu + 2;
  // A comprehension nested in a loop body starts fresh each time.
  initialized_[accu] = 0;
  slots_[accu] = Value();
  bool two = !e.iter_var2.empty();
  auto step = [&]() -> bool {
    Value cond = Eval(e.loop_condition);
    if (cancelled_) return false;
    if (cond.is_bool() && !cond.bool_value()) return false;
    Value next = Eval(e.loop_step);
    slots_[accu] = std::move(next);
    initialized_[accu] = 1;
    return !cancelled_;
  };
  if (range.kind() == ValueKind::kList) {
    const auto& elems = range.list_elements();
    for (size_t k = 0; k < elems.size(); ++k) {
      if (two) {
        slots_[it1] = Value::Int(static_cast<int64_t>(k));
        slots_[it2] = elems[k];
      } else {
        slots_[it1] = elems[k];
      }
      if (!step()) break;
    }
  } else if (range.kind() == ValueKind::kMap) {
    for (const auto& [k, v] : range.map().entries) {
      slots_[it1] = k;
      if (two) slots_[it2] = v;
      if (!step()) break;
    }
  } else if (two) {
    return Value::Error(ErrorKind::kInvalidArgument, "unsupported comprehension range type: " + GoTypeName(range));
  } else {
    return Value::Error(ErrorKind::kInvalidArgument, "got '" + GoTypeName(range) + "', expected iterable type");
  }
  if (cancelled_) return CancelError();
  slots_[it1] = Value();
  slots_[it2] = Value();
  return Eval(e.result);
}

}  // namespace

bool IsTypeName(std::string_view n) {
  static constexpr std::string_view kTypes[] = {"bool", "int", "uint", "double", "string", "bytes", "list", "map",
                                                "null_type", "type", "google.protobuf.Duration",
                                                "google.protobuf.Timestamp", "optional_type"};
  for (std::string_view t : kTypes) {
    if (t == n) return true;
  }
  return false;
}

// cel-go builds index qualifiers from strings, ints, uints, bools and
// doubles only.
Value InvalidQualifier(const Value& key) {
  std::string go;
  switch (key.kind()) {
    case ValueKind::kString:
    case ValueKind::kInt:
    case ValueKind::kUint:
    case ValueKind::kBool:
    case ValueKind::kDouble:
      return Value();
    case ValueKind::kList: go = "*types.baseList"; break;
    case ValueKind::kMap: go = "*types.baseMap"; break;
    default: go = GoTypeName(key); break;
  }
  return Value::Error(ErrorKind::kInvalidArgument, "invalid qualifier type: " + go);
}

Value EvaluateConstant(const Program::Plan& plan, ExprIndex i) {
  MapActivation empty;
  Evaluator ev(plan, empty, {});
  return ev.Eval(i);
}

void MapActivation::Bind(std::string name, Value value) {
  if (name.find('.') != std::string::npos) has_dotted_ = true;
  vars_[std::move(name)] = std::move(value);
}

const Value* MapActivation::FindVariable(std::string_view name) const {
  auto it = vars_.find(absl::string_view(name.data(), name.size()));
  return it == vars_.end() ? nullptr : &it->second;
}

absl::StatusOr<Program> Program::Create(ParsedExpr expr, const FunctionRegistry& functions,
                                        const ProgramOptions& options) {
  if (expr.root_index() == kNoExpr) return absl::InvalidArgumentError("empty expression");
  auto plan = std::make_shared<Plan>();
  plan->expr = std::move(expr);
  plan->functions = &functions;
  plan->options = options;
  PlanProgram(*plan);
  if (!plan->error.empty()) return absl::InvalidArgumentError(plan->error);
  return Program(std::move(plan));
}

EvalResult Program::Evaluate(const Activation& vars, const EvalOptions& options) const {
  Evaluator ev(*plan_, vars, options);
  EvalResult r;
  r.value = ev.Run();
  r.cost = ev.cost();
  return r;
}

const ParsedExpr& Program::expr() const { return plan_->expr; }

absl::StatusOr<Program> Compile(std::string_view text) {
  absl::StatusOr<ParsedExpr> parsed = Parse(text);
  if (!parsed.ok()) return parsed.status();
  return Program::Create(*std::move(parsed));
}

}  // namespace schedkit::cel
