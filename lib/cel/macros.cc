#include "cel/macros.h"

#include <utility>

#include "cel/ast_builder.h"

namespace schedkit::cel {
namespace {

// cel-go's traditional accumulator name; an iteration variable may not use
// it even when the hidden name (@result) is on.
constexpr std::string_view kLegacyAccumulator = "__result__";
constexpr std::string_view kUnusedIterVar = "#unused";

// Each helper makes one node with the next macro id. Arguments are built by
// the caller in separate statements first: cel-go's ids follow Go's
// left-to-right argument evaluation, which C++ does not promise.
ExprIndex Accu(AstBuilder& b) { return b.NewIdent(b.NextMacroId(), b.accu_name()); }
ExprIndex Lit(AstBuilder& b, bool v) { return b.NewBool(b.NextMacroId(), v); }
ExprIndex LitInt(AstBuilder& b, int64_t v) { return b.NewInt(b.NextMacroId(), v); }
ExprIndex Call(AstBuilder& b, std::string fn, std::vector<ExprIndex> args) {
  return b.NewCall(b.NextMacroId(), std::move(fn), std::move(args));
}
ExprIndex List(AstBuilder& b, std::vector<ExprIndex> elems = {}) { return b.NewList(b.NextMacroId(), std::move(elems)); }
ExprIndex Comprehension(AstBuilder& b, ExprIndex range, std::string v1, std::string v2, std::string accu,
                        ExprIndex init, ExprIndex cond, ExprIndex step, ExprIndex result) {
  return b.NewComprehension(b.NextMacroId(), range, std::move(v1), std::move(v2), std::move(accu), init, cond,
                            step, result);
}

MacroResult Fail(ExprIndex at, std::string message) {
  MacroResult r;
  r.error = std::move(message);
  r.error_at = at;
  return r;
}
MacroResult Ok(ExprIndex e) {
  MacroResult r;
  r.expr = e;
  return r;
}

bool IdentName(const AstBuilder& b, ExprIndex e, std::string* name) {
  if (e == kNoExpr || b.node(e).kind != ExprKind::kIdent) return false;
  *name = b.node(e).name;
  return true;
}

bool IsAccumulatorName(const AstBuilder& b, const std::string& v) {
  return v == b.accu_name() || v == kLegacyAccumulator;
}

MacroResult ExpandHas(AstBuilder& b, ExprIndex, const std::vector<ExprIndex>& args) {
  const Expr& arg = b.node(args[0]);
  if (arg.kind != ExprKind::kSelect) return Fail(args[0], "invalid argument to has() macro");
  ExprIndex operand = arg.operand;
  std::string field = arg.name;
  return Ok(b.NewSelect(b.NextMacroId(), operand, std::move(field), /*test_only=*/true));
}

enum class Quantifier { kAll, kExists, kExistsOne };

// The comprehension body of all/exists/existsOne, for one or two variables.
ExprIndex QuantifierBody(AstBuilder& b, Quantifier kind, ExprIndex target, std::string v1, std::string v2,
                         ExprIndex predicate) {
  ExprIndex init, cond, step, result;
  switch (kind) {
    case Quantifier::kAll: {
      init = Lit(b, true);
      ExprIndex a1 = Accu(b);
      cond = Call(b, "@not_strictly_false", {a1});
      ExprIndex a2 = Accu(b);
      step = Call(b, "_&&_", {a2, predicate});
      result = Accu(b);
      break;
    }
    case Quantifier::kExists: {
      init = Lit(b, false);
      ExprIndex a1 = Accu(b);
      ExprIndex no = Call(b, "!_", {a1});
      cond = Call(b, "@not_strictly_false", {no});
      ExprIndex a2 = Accu(b);
      step = Call(b, "_||_", {a2, predicate});
      result = Accu(b);
      break;
    }
    case Quantifier::kExistsOne: {
      init = LitInt(b, 0);
      cond = Lit(b, true);
      ExprIndex a1 = Accu(b);
      ExprIndex one = LitInt(b, 1);
      ExprIndex plus = Call(b, "_+_", {a1, one});
      ExprIndex a2 = Accu(b);
      step = Call(b, "_?_:_", {predicate, plus, a2});
      ExprIndex a3 = Accu(b);
      ExprIndex one2 = LitInt(b, 1);
      result = Call(b, "_==_", {a3, one2});
      break;
    }
  }
  return Comprehension(b, target, std::move(v1), std::move(v2), b.accu_name(), init, cond, step, result);
}

MacroResult ExpandQuantifier(AstBuilder& b, Quantifier kind, ExprIndex target,
                             const std::vector<ExprIndex>& args) {
  std::string v;
  if (!IdentName(b, args[0], &v)) return Fail(args[0], "argument must be a simple name");
  if (IsAccumulatorName(b, v)) return Fail(args[0], "iteration variable overwrites accumulator variable");
  return Ok(QuantifierBody(b, kind, target, v, "", args[1]));
}

MacroResult ExpandAll(AstBuilder& b, ExprIndex t, const std::vector<ExprIndex>& a) {
  return ExpandQuantifier(b, Quantifier::kAll, t, a);
}
MacroResult ExpandExists(AstBuilder& b, ExprIndex t, const std::vector<ExprIndex>& a) {
  return ExpandQuantifier(b, Quantifier::kExists, t, a);
}
MacroResult ExpandExistsOne(AstBuilder& b, ExprIndex t, const std::vector<ExprIndex>& a) {
  return ExpandQuantifier(b, Quantifier::kExistsOne, t, a);
}

// map(x, fn) and map(x, filter, fn).
MacroResult ExpandMap(AstBuilder& b, ExprIndex target, const std::vector<ExprIndex>& args) {
  std::string v;
  if (!IdentName(b, args[0], &v)) return Fail(args[0], "argument is not an identifier");
  if (IsAccumulatorName(b, v)) return Fail(args[0], "iteration variable overwrites accumulator variable");
  ExprIndex filter = args.size() == 3 ? args[1] : kNoExpr;
  ExprIndex fn = args.size() == 3 ? args[2] : args[1];
  ExprIndex init = List(b);
  ExprIndex cond = Lit(b, true);
  ExprIndex a1 = Accu(b);
  ExprIndex wrapped = List(b, {fn});
  ExprIndex step = Call(b, "_+_", {a1, wrapped});
  if (filter != kNoExpr) {
    ExprIndex a2 = Accu(b);
    step = Call(b, "_?_:_", {filter, step, a2});
  }
  ExprIndex result = Accu(b);
  return Ok(Comprehension(b, target, v, "", b.accu_name(), init, cond, step, result));
}

MacroResult ExpandFilter(AstBuilder& b, ExprIndex target, const std::vector<ExprIndex>& args) {
  std::string v;
  if (!IdentName(b, args[0], &v)) return Fail(args[0], "argument is not an identifier");
  if (IsAccumulatorName(b, v)) return Fail(args[0], "iteration variable overwrites accumulator variable");
  ExprIndex init = List(b);
  ExprIndex cond = Lit(b, true);
  ExprIndex a1 = Accu(b);
  ExprIndex wrapped = List(b, {args[0]});
  ExprIndex step = Call(b, "_+_", {a1, wrapped});
  ExprIndex a2 = Accu(b);
  step = Call(b, "_?_:_", {args[1], step, a2});
  ExprIndex result = Accu(b);
  return Ok(Comprehension(b, target, v, "", b.accu_name(), init, cond, step, result));
}

// ext.TwoVarComprehensions' variable checks.
bool IterVars(AstBuilder& b, const std::vector<ExprIndex>& args, std::string* v1, std::string* v2,
              MacroResult* err) {
  if (!IdentName(b, args[0], v1)) {
    *err = Fail(args[0], "argument must be a simple name");
    return false;
  }
  if (!IdentName(b, args[1], v2)) {
    *err = Fail(args[1], "argument must be a simple name");
    return false;
  }
  if (*v1 == *v2) {
    *err = Fail(args[1], "duplicate variable name: " + *v1);
    return false;
  }
  if (IsAccumulatorName(b, *v1)) {
    *err = Fail(args[0], "iteration variable overwrites accumulator variable");
    return false;
  }
  if (IsAccumulatorName(b, *v2)) {
    *err = Fail(args[1], "iteration variable overwrites accumulator variable");
    return false;
  }
  return true;
}

MacroResult ExpandQuantifier2(AstBuilder& b, Quantifier kind, ExprIndex target,
                              const std::vector<ExprIndex>& args) {
  std::string v1, v2;
  MacroResult err;
  if (!IterVars(b, args, &v1, &v2, &err)) return err;
  return Ok(QuantifierBody(b, kind, target, v1, v2, args[2]));
}
MacroResult ExpandAll2(AstBuilder& b, ExprIndex t, const std::vector<ExprIndex>& a) {
  return ExpandQuantifier2(b, Quantifier::kAll, t, a);
}
MacroResult ExpandExists2(AstBuilder& b, ExprIndex t, const std::vector<ExprIndex>& a) {
  return ExpandQuantifier2(b, Quantifier::kExists, t, a);
}
MacroResult ExpandExistsOne2(AstBuilder& b, ExprIndex t, const std::vector<ExprIndex>& a) {
  return ExpandQuantifier2(b, Quantifier::kExistsOne, t, a);
}

enum class Transform { kList, kMap, kMapEntry };

MacroResult ExpandTransform(AstBuilder& b, Transform kind, ExprIndex target, const std::vector<ExprIndex>& args) {
  std::string v1, v2;
  MacroResult err;
  if (!IterVars(b, args, &v1, &v2, &err)) return err;
  ExprIndex filter = args.size() == 4 ? args[2] : kNoExpr;
  ExprIndex transform = args.size() == 4 ? args[3] : args[2];
  ExprIndex step = kNoExpr;
  switch (kind) {
    case Transform::kList: {
      ExprIndex a = Accu(b);
      ExprIndex wrapped = List(b, {transform});
      step = Call(b, "_+_", {a, wrapped});
      break;
    }
    case Transform::kMap: {
      ExprIndex a = Accu(b);
      ExprIndex key = b.NewIdent(b.NextMacroId(), v1);
      step = Call(b, "cel.@mapInsert", {a, key, transform});
      break;
    }
    case Transform::kMapEntry: {
      ExprIndex a = Accu(b);
      step = Call(b, "cel.@mapInsert", {a, transform});
      break;
    }
  }
  if (filter != kNoExpr) {
    ExprIndex a = Accu(b);
    step = Call(b, "_?_:_", {filter, step, a});
  }
  ExprIndex init = kind == Transform::kList ? List(b) : b.NewMap(b.NextMacroId(), {});
  ExprIndex cond = Lit(b, true);
  ExprIndex result = Accu(b);
  return Ok(Comprehension(b, target, v1, v2, b.accu_name(), init, cond, step, result));
}
MacroResult ExpandTransformList(AstBuilder& b, ExprIndex t, const std::vector<ExprIndex>& a) {
  return ExpandTransform(b, Transform::kList, t, a);
}
MacroResult ExpandTransformMap(AstBuilder& b, ExprIndex t, const std::vector<ExprIndex>& a) {
  return ExpandTransform(b, Transform::kMap, t, a);
}
MacroResult ExpandTransformMapEntry(AstBuilder& b, ExprIndex t, const std::vector<ExprIndex>& a) {
  return ExpandTransform(b, Transform::kMapEntry, t, a);
}

// cel.bind(var, init, result): a comprehension over an empty list whose
// accumulator is the bound variable.
MacroResult ExpandBind(AstBuilder& b, ExprIndex target, const std::vector<ExprIndex>& args) {
  std::string ns;
  if (!IdentName(b, target, &ns) || ns != "cel") return MacroResult{};
  std::string v;
  if (!IdentName(b, args[0], &v)) return Fail(args[0], "cel.bind() variable names must be simple identifiers");
  ExprIndex range = List(b);
  ExprIndex cond = Lit(b, false);
  ExprIndex step = b.NewIdent(b.NextMacroId(), v);
  return Ok(Comprehension(b, range, std::string(kUnusedIterVar), "", v, args[1], cond, step, args[2]));
}

MacroResult ExpandOptMap(AstBuilder& b, ExprIndex target, const std::vector<ExprIndex>& args, bool flat) {
  std::string v;
  if (!IdentName(b, args[0], &v)) {
    return Fail(args[0], flat ? "optFlatMap() variable name must be a simple identifier"
                              : "optMap() variable name must be a simple identifier");
  }
  ExprIndex has_value = b.NewMemberCall(b.NextMacroId(), "hasValue", target, {});
  ExprIndex range = List(b);
  ExprIndex copy = b.Copy(target);
  ExprIndex value = b.NewMemberCall(b.NextMacroId(), "value", copy, {});
  ExprIndex cond = Lit(b, false);
  ExprIndex step = b.NewIdent(b.NextMacroId(), v);
  ExprIndex compr = Comprehension(b, range, std::string(kUnusedIterVar), "", v, value, cond, step, args[1]);
  if (!flat) compr = Call(b, "optional.of", {compr});
  ExprIndex none = Call(b, "optional.none", {});
  return Ok(Call(b, "_?_:_", {has_value, compr, none}));
}
MacroResult ExpandOptMap1(AstBuilder& b, ExprIndex t, const std::vector<ExprIndex>& a) {
  return ExpandOptMap(b, t, a, false);
}
MacroResult ExpandOptFlatMap(AstBuilder& b, ExprIndex t, const std::vector<ExprIndex>& a) {
  return ExpandOptMap(b, t, a, true);
}

// list.sortBy(x, key): binds the list, maps it to keys, sorts by them.
MacroResult ExpandSortBy(AstBuilder& b, ExprIndex target, const std::vector<ExprIndex>& args) {
  ExprIndex var = b.NewIdent(b.NextMacroId(), "@__sortBy_input__");
  std::string var_name = b.node(var).name;
  ExprKind k = b.node(target).kind;
  if (k != ExprKind::kList && k != ExprKind::kSelect && k != ExprKind::kIdent && k != ExprKind::kComprehension &&
      k != ExprKind::kCall) {
    return Fail(target, "sortBy can only be applied to a list, identifier, comprehension, call or select expression");
  }
  ExprIndex range_copy = b.Copy(var);
  MacroResult mapped = ExpandMap(b, range_copy, args);
  if (!mapped.error.empty()) return mapped;
  ExprIndex recv = b.Copy(var);
  ExprIndex call = b.NewMemberCall(b.NextMacroId(), "@sortByAssociatedKeys", recv, {mapped.expr});
  ExprIndex range = List(b);
  ExprIndex cond = Lit(b, false);
  return Ok(Comprehension(b, range, std::string(kUnusedIterVar), "", var_name, target, cond, var, call));
}

enum Family { kStandard, kExistsOneCamel, kOptional, kTwoVar, kSortBy, kBindings };

struct MacroEntry {
  Family family;
  Macro macro;
};

const MacroEntry kMacros[] = {
    {kStandard, {"has", 1, false, ExpandHas}},
    {kStandard, {"all", 2, true, ExpandAll}},
    {kStandard, {"exists", 2, true, ExpandExists}},
    {kStandard, {"exists_one", 2, true, ExpandExistsOne}},
    {kExistsOneCamel, {"existsOne", 2, true, ExpandExistsOne}},
    {kStandard, {"map", 2, true, ExpandMap}},
    {kStandard, {"map", 3, true, ExpandMap}},
    {kStandard, {"filter", 2, true, ExpandFilter}},
    {kOptional, {"optMap", 2, true, ExpandOptMap1}},
    {kOptional, {"optFlatMap", 2, true, ExpandOptFlatMap}},
    {kTwoVar, {"all", 3, true, ExpandAll2}},
    {kTwoVar, {"exists", 3, true, ExpandExists2}},
    {kTwoVar, {"existsOne", 3, true, ExpandExistsOne2}},
    {kTwoVar, {"exists_one", 3, true, ExpandExistsOne2}},
    {kTwoVar, {"transformList", 3, true, ExpandTransformList}},
    {kTwoVar, {"transformList", 4, true, ExpandTransformList}},
    {kTwoVar, {"transformMap", 3, true, ExpandTransformMap}},
    {kTwoVar, {"transformMap", 4, true, ExpandTransformMap}},
    {kTwoVar, {"transformMapEntry", 3, true, ExpandTransformMapEntry}},
    {kTwoVar, {"transformMapEntry", 4, true, ExpandTransformMapEntry}},
    {kSortBy, {"sortBy", 2, true, ExpandSortBy}},
    {kBindings, {"bind", 3, true, ExpandBind}},
};

bool Enabled(const MacroSet& set, Family f) {
  switch (f) {
    case kStandard: return set.standard;
    case kExistsOneCamel: return set.exists_one_camel;
    case kOptional: return set.optional;
    case kTwoVar: return set.two_var;
    case kSortBy: return set.sort_by;
    case kBindings: return set.bindings;
  }
  return false;
}

}  // namespace

const Macro* FindMacro(const MacroSet& set, std::string_view function, size_t arg_count, bool receiver) {
  for (const MacroEntry& e : kMacros) {
    if (e.macro.function == function && static_cast<size_t>(e.macro.arg_count) == arg_count &&
        e.macro.receiver == receiver && Enabled(set, e.family)) {
      return &e.macro;
    }
  }
  return nullptr;
}

}  // namespace schedkit::cel
