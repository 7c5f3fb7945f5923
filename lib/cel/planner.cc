// Program planning: resolves comprehension variables to frame slots and
// functions to registry entries, marks the cost rules cel-go's plan implies,
// and (with ProgramOptions::optimize, as cel-go's OptOptimize) folds constant
// literals and conversions, turns `in` over constant lists into free lookups
// and compiles constant regexes, reporting what cel-go reports when it builds
// a program.
#include <string>
#include <string_view>
#include <vector>

#include "cel/plan.h"

namespace schedkit::cel {
namespace {

class Planner {
 public:
  explicit Planner(Program::Plan& plan) : plan_(plan) {}

  void Run() {
    plan_.nodes.assign(plan_.expr.nodes().size(), PlanNode());
    PlanExpr(plan_.expr.root_index());
  }

 private:
  struct Scope {
    std::string name;
    int32_t slot;
    bool accu;
  };

  const Expr& node(ExprIndex i) const { return plan_.expr.node(i); }
  PlanNode& plan(ExprIndex i) { return plan_.nodes[static_cast<size_t>(i)]; }

  const Scope* FindLocal(const std::string& name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (!it->name.empty() && it->name == name) return &*it;
    }
    return nullptr;
  }

  // The dotted name of a chain of plain selects over a global identifier,
  // or "" when the chain has anything else in it.
  std::string ChainName(ExprIndex i) const {
    const Expr& e = node(i);
    if (e.kind == ExprKind::kIdent) {
      if (e.name.empty() || e.name[0] == '.' || FindLocal(e.name) != nullptr) return "";
      return e.name;
    }
    if (e.kind == ExprKind::kSelect && !e.test_only) {
      std::string base = ChainName(e.operand);
      if (base.empty()) return "";
      return base + "." + e.name;
    }
    return "";
  }

  bool IsConst(ExprIndex i) { return plan(i).op == Op::kConst; }

  // Marks the node of an attribute chain that pays the chain's attribute
  // cost (its identifier, or the select/index over a plain value).
  void MarkFreeRoot(ExprIndex i) {
    PlanNode& p = plan(i);
    const Expr& e = node(i);
    switch (p.op) {
      case Op::kIdentGlobal:
      case Op::kIdentLocal:
        p.free_root = true;
        return;
      case Op::kConditional:
        MarkFreeRoot(e.args[1]);
        MarkFreeRoot(e.args[2]);
        return;
      case Op::kSelect:
      case Op::kTestOnly:
      case Op::kOptSelect:
      case Op::kIndex:
      case Op::kOptIndex: {
        ExprIndex operand = e.operand != kNoExpr ? e.operand : e.args[0];
        if (IsAttributeOp(plan(operand).op)) {
          MarkFreeRoot(operand);
        } else {
          p.free_root = true;
        }
        return;
      }
      default:
        return;
    }
  }

  void PlanError(const std::string& message) {
    if (plan_.error.empty()) plan_.error = message;
  }

  // Replaces a node by its value when its inputs are constants (OptOptimize).
  void Fold(ExprIndex i) {
    Value v = EvaluateConstant(plan_, i);
    PlanNode& p = plan(i);
    p = PlanNode();
    p.op = Op::kConst;
    p.constant = std::move(v);
  }

  // error_name: the name a missing root variable is reported under;
  // qualified: the node is the operand of a select or index, where cel-go
  // does not resolve type names (int[0] is an unknown variable).
  void PlanExpr(ExprIndex i, const std::string& error_name = "", bool qualified = false) {
    const Expr& e = node(i);
    switch (e.kind) {
      case ExprKind::kConstant: {
        PlanNode& p = plan(i);
        p.op = Op::kConst;
        const Constant& c = e.constant;
        switch (c.kind) {
          case ConstantKind::kNull: p.constant = Value::Null(); break;
          case ConstantKind::kBool: p.constant = Value::Bool(c.bool_value); break;
          case ConstantKind::kInt: p.constant = Value::Int(c.int_value); break;
          case ConstantKind::kUint: p.constant = Value::Uint(c.uint_value); break;
          case ConstantKind::kDouble: p.constant = Value::Double(c.double_value); break;
          case ConstantKind::kString: p.constant = Value::String(c.string_value); break;
          case ConstantKind::kBytes: p.constant = Value::Bytes(c.string_value); break;
        }
        return;
      }
      case ExprKind::kIdent: {
        PlanNode& p = plan(i);
        if (!e.name.empty() && e.name[0] == '.') {
          p.op = Op::kIdentGlobal;
          p.name = e.name.substr(1);
          p.error_name = error_name.empty() ? p.name : error_name;
          p.allow_type_name = !qualified;
          return;
        }
        if (const Scope* s = FindLocal(e.name)) {
          p.op = Op::kIdentLocal;
          p.slot = s->slot;
          p.accu_slot = s->accu;
          return;
        }
        p.op = Op::kIdentGlobal;
        p.name = e.name;
        p.error_name = error_name.empty() ? e.name : error_name;
        p.allow_type_name = !qualified;
        return;
      }
      case ExprKind::kSelect: {
        std::string chain = e.test_only ? "" : ChainName(i);
        // The root identifier of a select chain reports the whole chain.
        std::string root_error = error_name;
        if (!e.test_only && root_error.empty()) root_error = chain;
        if (e.test_only) {
          std::string base = ChainName(e.operand);
          root_error = base.empty() ? "" : base + "." + e.name;
        }
        PlanExpr(e.operand, root_error, true);
        PlanNode& p = plan(i);
        p.op = e.test_only ? Op::kTestOnly : Op::kSelect;
        if (!e.test_only && node(e.operand).kind == ExprKind::kSelect) p.name = chain;
        if (!e.test_only && node(e.operand).kind == ExprKind::kIdent) p.name = chain;
        return;
      }
      case ExprKind::kCall:
        PlanCall(i, error_name);
        return;
      case ExprKind::kList: {
        bool all_const = true;
        for (ExprIndex a : e.args) {
          PlanExpr(a);
          all_const = all_const && IsConst(a);
        }
        plan(i).op = Op::kList;
        if (plan_.options.optimize && all_const) Fold(i);
        return;
      }
      case ExprKind::kMap: {
        bool all_const = true;
        for (const Entry& en : e.entries) {
          PlanExpr(en.key);
          PlanExpr(en.value);
          all_const = all_const && IsConst(en.key) && IsConst(en.value);
        }
        plan(i).op = Op::kMap;
        if (plan_.options.optimize && all_const) Fold(i);
        return;
      }
      case ExprKind::kStruct:
        for (const Entry& en : e.entries) PlanExpr(en.value);
        plan(i).op = Op::kStruct;
        return;
      case ExprKind::kComprehension: {
        PlanExpr(e.iter_range);
        PlanExpr(e.accu_init);
        int32_t base = plan_.slot_count;
        plan_.slot_count += 3;
        plan_.accu_init.resize(static_cast<size_t>(plan_.slot_count), kNoExpr);
        plan_.accu_init[static_cast<size_t>(base)] = e.accu_init;
        size_t mark = scopes_.size();
        scopes_.push_back({e.accu_var, base, true});
        scopes_.push_back({e.iter_var, base + 1, false});
        scopes_.push_back({e.iter_var2, base + 2, false});
        PlanExpr(e.loop_condition);
        PlanExpr(e.loop_step);
        // The result sees the accumulator but not the iteration variables.
        scopes_[mark + 1].name.clear();
        scopes_[mark + 2].name.clear();
        PlanExpr(e.result);
        scopes_.resize(mark);
        PlanNode& p = plan(i);
        p.op = Op::kComprehension;
        p.slot = base;
        return;
      }
      case ExprKind::kUnspecified:
        plan(i).op = Op::kUnspecified;
        return;
    }
  }

  void PlanCall(ExprIndex i, const std::string& error_name) {
    const Expr& e = node(i);
    const std::string& fn = e.name;
    auto plan_children = [&]() {
      if (e.operand != kNoExpr) PlanExpr(e.operand);
      for (ExprIndex a : e.args) PlanExpr(a);
    };
    if (e.operand == kNoExpr) {
      if (fn == "_&&_" && e.args.size() == 2) {
        plan_children();
        plan(i).op = Op::kAnd;
        return;
      }
      if (fn == "_||_" && e.args.size() == 2) {
        plan_children();
        plan(i).op = Op::kOr;
        return;
      }
      if (fn == "_?_:_" && e.args.size() == 3) {
        plan_children();
        plan(i).op = Op::kConditional;
        MarkFreeRoot(e.args[1]);
        MarkFreeRoot(e.args[2]);
        return;
      }
      if ((fn == "@not_strictly_false" || fn == "__not_strictly_false__") && e.args.size() == 1) {
        plan_children();
        plan(i).op = Op::kNotStrictlyFalse;
        return;
      }
      if ((fn == "_[_]" || fn == "_[?_]") && e.args.size() == 2) {
        PlanExpr(e.args[0], error_name, true);
        PlanExpr(e.args[1]);
        plan(i).op = fn == "_[_]" ? Op::kIndex : Op::kOptIndex;
        if (IsConst(e.args[1])) {
          Value bad = InvalidQualifier(plan(e.args[1]).constant);
          if (bad.is_error()) PlanError(bad.error_message());
        }
        return;
      }
      if (fn == "_?._" && e.args.size() == 2 && node(e.args[1]).kind == ExprKind::kConstant &&
          node(e.args[1]).constant.kind == ConstantKind::kString) {
        PlanExpr(e.args[0], error_name, true);
        PlanExpr(e.args[1]);
        plan(i).op = Op::kOptSelect;
        return;
      }
    } else if ((fn == "or" || fn == "orValue") && e.args.size() == 1) {
      plan_children();
      plan(i).op = fn == "or" ? Op::kOptOr : Op::kOptOrValue;
      return;
    }
    // A member call on a dotted name may name a namespaced function, as
    // optional.of(x) does: then it is a global call of "optional.of".
    const Function* namespaced = nullptr;
    if (e.operand != kNoExpr) {
      std::string ns = ChainName(e.operand);
      if (!ns.empty()) namespaced = plan_.functions->Find(ns + "." + fn);
    }
    if (namespaced != nullptr) {
      for (ExprIndex a : e.args) PlanExpr(a);
      PlanNode& p = plan(i);
      p.op = Op::kCall;
      p.function = namespaced;
      p.skip_target = true;
      return;
    }
    plan_children();
    PlanNode& p = plan(i);
    p.op = Op::kCall;
    p.function = plan_.functions->Find(fn);
    p.accumulator_append = fn == "_+_" && e.operand == kNoExpr && e.args.size() == 2 &&
                           plan(e.args[0]).op == Op::kIdentLocal && plan(e.args[0]).accu_slot;
    if (p.function == nullptr || !plan_.options.optimize) return;
    // OptOptimize: conversions of constants are computed once.
    static constexpr std::string_view kConversions[] = {"bool", "bytes", "double", "duration", "dyn", "int",
                                                        "string", "timestamp", "type", "uint"};
    bool conversion = false;
    for (std::string_view c : kConversions) conversion = conversion || c == fn;
    if (conversion && e.operand == kNoExpr && e.args.size() == 1 && IsConst(e.args[0])) {
      Fold(i);
      if (plan(i).constant.is_error()) PlanError(plan(i).constant.error_message());
      return;
    }
    if (fn == "@in" && e.args.size() == 2 && IsConst(e.args[1])) {
      const Value& list = plan(e.args[1]).constant;
      if (list.kind() == ValueKind::kList) {
        bool primitive = true;
        for (const Value& v : list.list_elements()) {
          ValueKind k = v.kind();
          primitive = primitive && (k == ValueKind::kBool || k == ValueKind::kInt || k == ValueKind::kUint ||
                                    k == ValueKind::kDouble || k == ValueKind::kString);
        }
        plan(i).set_membership = primitive;
      }
    }
    if (fn == "matches") {
      ExprIndex pattern = e.operand != kNoExpr ? e.args.empty() ? kNoExpr : e.args[0]
                                               : (e.args.size() == 2 ? e.args[1] : kNoExpr);
      if (pattern != kNoExpr && IsConst(pattern) && plan(pattern).constant.kind() == ValueKind::kString) {
        RE2::Options opts;
        opts.set_log_errors(false);
        auto re = std::make_shared<RE2>(plan(pattern).constant.string_value(), opts);
        PlanNode& mp = plan(i);
        if (re->ok()) {
          mp.regex = std::move(re);
        } else {
          mp.regex_error = RegexError(*re);
          PlanError(mp.regex_error);
        }
      }
    }
  }

  Program::Plan& plan_;
  std::vector<Scope> scopes_;
};

}  // namespace

void PlanProgram(Program::Plan& plan) { Planner(plan).Run(); }

}  // namespace schedkit::cel
