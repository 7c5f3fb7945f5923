// The type checker (cel-go v0.29.2 checker/checker.go, checker/types.go,
// checker/env.go); the AST validators that run after it are in
// checker_validators.cc.
#include "cel/checker.h"

#include <algorithm>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "absl/strings/str_join.h"
#include "cel/function_registry.h"
#include "cel/checker_validators.h"
#include "cel/kubernetes_libraries.h"
#include "cel/lexer.h"
#include "cel/value.h"
#include "re2/re2.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::cel {
namespace {



// The comparison overloads cel.CrossTypeNumericComparisons(false) filters.
bool IsCrossTypeNumericComparison(std::string_view id) {
  // <op>_<a>_<b> with a != b among int64, uint64 and double.
  for (std::string_view op : {"less_equals_", "greater_equals_", "less_", "greater_"}) {
    if (id.substr(0, op.size()) != op) continue;
    std::string_view rest = id.substr(op.size());
    for (std::string_view a : {"int64", "uint64", "double"}) {
      for (std::string_view b : {"int64", "uint64", "double"}) {
        if (a != b && rest == schedkit::StrCat(a, "_", b)) return true;
      }
    }
  }
  return false;
}

// Type parameter bindings, keyed by the parameter's formatted name
// (cel-go's mapping).
using Mapping = absl::flat_hash_map<std::string, Type>;

const Type* FindSub(const Mapping& m, const Type& t) {
  auto it = m.find(FormatCelType(t));
  return it == m.end() ? nullptr : &it->second;
}

Type Substitute(const Mapping& m, const Type& t, bool type_param_to_dyn) {
  if (const Type* sub = FindSub(m, t)) return Substitute(m, *sub, type_param_to_dyn);
  if (type_param_to_dyn && t.is_type_param()) return Type::Dyn();
  switch (t.kind()) {
    case TypeKind::kOpaque: {
      std::vector<Type> ps;
      ps.reserve(t.params().size());
      for (const Type& p : t.params()) ps.push_back(Substitute(m, p, type_param_to_dyn));
      return Type::Opaque(t.name(), std::move(ps));
    }
    case TypeKind::kList: return Type::List(Substitute(m, t.param(0), type_param_to_dyn));
    case TypeKind::kMap:
      return Type::Map(Substitute(m, t.param(0), type_param_to_dyn), Substitute(m, t.param(1), type_param_to_dyn));
    case TypeKind::kType:
      if (!t.params().empty()) return Type::TypeOf(Substitute(m, t.param(0), type_param_to_dyn));
      return t;
    default: return t;
  }
}

bool IsDyn(const Type& t) { return t.is_dyn_or_any(); }
bool IsDynOrError(const Type& t) { return t.is_dyn_or_any() || t.is_error(); }

// Whether t1 is as general as t2 or more (isEqualOrLessSpecific).
bool IsEqualOrLessSpecific(const Type& t1, const Type& t2) {
  if (IsDyn(t1) || t1.is_type_param()) return true;
  if (IsDyn(t2) || t2.is_type_param()) return false;
  if (t1.kind() != t2.kind()) return false;
  switch (t1.kind()) {
    case TypeKind::kOpaque:
      if (t1.name() != t2.name() || t1.params().size() != t2.params().size()) return false;
      for (size_t i = 0; i < t1.params().size(); ++i) {
        if (!IsEqualOrLessSpecific(t1.param(i), t2.param(i))) return false;
      }
      return true;
    case TypeKind::kList: return IsEqualOrLessSpecific(t1.param(0), t2.param(0));
    case TypeKind::kMap:
      return IsEqualOrLessSpecific(t1.param(0), t2.param(0)) && IsEqualOrLessSpecific(t1.param(1), t2.param(1));
    case TypeKind::kType: return true;
    default: return t1.IsExact(t2);
  }
}

const Type& MostGeneral(const Type& t1, const Type& t2) { return IsEqualOrLessSpecific(t1, t2) ? t1 : t2; }

bool NotReferencedIn(const Mapping& m, const Type& t, const Type& within) {
  if (t.IsExact(within)) return false;
  switch (within.kind()) {
    case TypeKind::kTypeParam: {
      const Type* sub = FindSub(m, within);
      return sub == nullptr || NotReferencedIn(m, t, *sub);
    }
    case TypeKind::kOpaque:
    case TypeKind::kList:
    case TypeKind::kMap:
    case TypeKind::kType:
      for (const Type& p : within.params()) {
        if (!NotReferencedIn(m, t, p)) return false;
      }
      return true;
    default: return true;
  }
}

bool IsLegacyNullable(const Type& t) {
  switch (t.kind()) {
    case TypeKind::kOpaque:
    case TypeKind::kStruct:
    case TypeKind::kAny:
    case TypeKind::kDuration:
    case TypeKind::kTimestamp: return true;
    default: return false;
  }
}

bool InternalIsAssignable(Mapping& m, const Type& t1, const Type& t2);

// Whether t1 can stand for the type parameter t2 (binding it if free);
// second: whether t2 already had a binding.
std::pair<bool, bool> IsValidTypeSubstitution(Mapping& m, const Type& t1, const Type& t2) {
  if (t1.kind() == t2.kind() && t1.IsExact(t2)) return {true, true};
  if (const Type* found = FindSub(m, t2)) {
    Type t2_sub = *found;
    if (t1.kind() == t2_sub.kind() && t1.IsExact(t2_sub)) return {true, true};
    if (InternalIsAssignable(m, t1, t2_sub)) {
      Type t2_new = MostGeneral(t1, t2_sub);
      if (NotReferencedIn(m, t2, t2_new)) m[FormatCelType(t2)] = std::move(t2_new);
      return {true, true};
    }
    return {false, true};
  }
  if (NotReferencedIn(m, t2, t1)) {
    m[FormatCelType(t2)] = t1;
    return {true, false};
  }
  return {false, false};
}

bool InternalIsAssignableList(Mapping& m, std::span<const Type> l1, std::span<const Type> l2) {
  if (l1.size() != l2.size()) return false;
  for (size_t i = 0; i < l1.size(); ++i) {
    if (!InternalIsAssignable(m, l1[i], l2[i])) return false;
  }
  return true;
}

bool InternalIsAssignable(Mapping& m, const Type& t1, const Type& t2) {
  if (t2.is_type_param()) {
    auto [valid, t2_has_sub] = IsValidTypeSubstitution(m, t1, t2);
    if (valid) return true;
    if (t2_has_sub) return false;
  }
  if (t1.is_type_param()) return IsValidTypeSubstitution(m, t2, t1).first;
  if (IsDynOrError(t1) || IsDynOrError(t2)) return true;
  // The legacy checker's nullness rules.
  if (t1.kind() == TypeKind::kNullType) return IsLegacyNullable(t2) || t2.IsAssignableFrom(Type::Null());
  if (t2.kind() == TypeKind::kNullType) return IsLegacyNullable(t1) || t1.IsAssignableFrom(Type::Null());
  switch (t1.kind()) {
    case TypeKind::kBool:
    case TypeKind::kBytes:
    case TypeKind::kDouble:
    case TypeKind::kInt:
    case TypeKind::kString:
    case TypeKind::kUint:
    case TypeKind::kAny:
    case TypeKind::kDuration:
    case TypeKind::kTimestamp:
    case TypeKind::kStruct: return t2.IsAssignableFrom(t1);
    case TypeKind::kType: return t2.kind() == TypeKind::kType;
    case TypeKind::kOpaque:
    case TypeKind::kList:
    case TypeKind::kMap:
      return t1.kind() == t2.kind() && t1.name() == t2.name() && InternalIsAssignableList(m, t1.params(), t2.params());
    default: return false;
  }
}

// The two kinds of well-known names a struct literal may use for a CEL
// type (isWellKnownType / getWellKnownTypeName).
std::optional<std::string> WellKnownMessageName(const Type& t) {
  switch (t.kind()) {
    case TypeKind::kAny: return "google.protobuf.Any";
    case TypeKind::kTimestamp: return "google.protobuf.Timestamp";
    case TypeKind::kDuration: return "google.protobuf.Duration";
    case TypeKind::kDyn: return "google.protobuf.Value";
    case TypeKind::kNullType: return "google.protobuf.NullValue";
    case TypeKind::kBool: return t.nullable() ? std::optional<std::string>("google.protobuf.BoolValue") : std::nullopt;
    case TypeKind::kBytes:
      return t.nullable() ? std::optional<std::string>("google.protobuf.BytesValue") : std::nullopt;
    case TypeKind::kDouble:
      return t.nullable() ? std::optional<std::string>("google.protobuf.DoubleValue") : std::nullopt;
    case TypeKind::kInt: return t.nullable() ? std::optional<std::string>("google.protobuf.Int64Value") : std::nullopt;
    case TypeKind::kString:
      return t.nullable() ? std::optional<std::string>("google.protobuf.StringValue") : std::nullopt;
    case TypeKind::kUint:
      return t.nullable() ? std::optional<std::string>("google.protobuf.UInt64Value") : std::nullopt;
    case TypeKind::kList:
      if (t.param(0).kind() == TypeKind::kDyn) return "google.protobuf.ListValue";
      return std::nullopt;
    case TypeKind::kMap:
      if (t.param(0).kind() == TypeKind::kString && t.param(1).kind() == TypeKind::kDyn) {
        return "google.protobuf.Struct";
      }
      return std::nullopt;
    default: return std::nullopt;
  }
}

// A global or local name resolved (attributeResolution).
struct Resolved {
  Type type;
  std::string name;
  std::optional<int64_t> enum_value;
};

class Checker {
 public:
  Checker(const ParsedExpr& expr, const CheckerEnv& env) : expr_(expr), env_(env), decls_(env.declarations) {
    offsets_.assign(static_cast<size_t>(expr.max_id()) + 1, -1);
    for (const Expr& e : expr.nodes()) {
      SetOffset(e.id, e.offset);
      for (const Entry& en : e.entries) SetOffset(en.id, en.offset);
    }
  }

  CheckResult Run() {
    if (expr_.root_index() != kNoExpr) CheckNode(expr_.root_index());
    for (auto& [id, t] : result_.types) t = Substitute(mapping_, t, true);
    if (expr_.root_index() != kNoExpr) {
      auto it = result_.types.find(expr_.root().id);
      if (it != result_.types.end()) result_.output_type = it->second;
    }
    return std::move(result_);
  }

 private:
  // ---- bookkeeping -------------------------------------------------------

  void SetOffset(ExprId id, int32_t offset) {
    if (id >= 0 && static_cast<size_t>(id) < offsets_.size()) offsets_[static_cast<size_t>(id)] = offset;
  }
  int32_t OffsetOf(ExprId id) const {
    return id >= 0 && static_cast<size_t>(id) < offsets_.size() ? offsets_[static_cast<size_t>(id)] : -1;
  }
  void Report(ExprId id, std::string message) {
    ++result_.total_issues;
    if (result_.total_issues > kMaxIssues) return;
    result_.issues.push_back({.id = id, .offset = OffsetOf(id), .message = std::move(message)});
  }
  const Expr& N(ExprIndex i) const { return expr_.node(i); }
  void SetType(ExprIndex i, Type t) { result_.types[N(i).id] = std::move(t); }
  Type TypeOf(ExprIndex i) const {
    auto it = result_.types.find(N(i).id);
    return it == result_.types.end() ? Type() : it->second;
  }
  void SetReference(ExprId id, Reference r) { result_.references[id] = std::move(r); }

  Type NewTypeVar() { return Type::Param(schedkit::StrCat("_var", free_type_var_counter_++)); }

  bool IsAssignable(const Type& t1, const Type& t2) {
    Mapping copy = mapping_;
    if (!InternalIsAssignable(copy, t1, t2)) return false;
    mapping_ = std::move(copy);
    return true;
  }
  bool IsAssignableList(std::span<const Type> l1, std::span<const Type> l2) {
    Mapping copy = mapping_;
    if (!InternalIsAssignableList(copy, l1, l2)) return false;
    mapping_ = std::move(copy);
    return true;
  }

  void TypeMismatch(ExprId id, const Type& expected, const Type& actual) {
    Report(id, schedkit::StrCat("expected type '", FormatCelType(expected), "' but found '", FormatCelType(actual), "'"));
  }
  void UndeclaredReference(ExprId id, std::string_view name) {
    Report(id, schedkit::StrCat("undeclared reference to '", name, "' (in container '')"));
  }

  // ---- scopes and names --------------------------------------------------

  const Type* LookupLocal(std::string_view name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      auto f = it->find(std::string(name));
      if (f != it->end()) return &f->second;
    }
    return nullptr;
  }

  std::optional<Resolved> LookupGlobal(std::string_view name) const {
    if (const Type* v = decls_.FindVariable(name)) return Resolved{*v, std::string(name), std::nullopt};
    if (const Type* t = decls_.FindTypeIdent(name)) return Resolved{Type::TypeOf(*t), std::string(name), std::nullopt};
    if (decls_.HasObjectType(name)) return Resolved{Type::TypeOf(Type::Object(name)), std::string(name), std::nullopt};
    if (std::optional<int64_t> e = decls_.FindEnumConstant(name)) return Resolved{Type::Int(), std::string(name), e};
    return std::nullopt;
  }

  // The candidate names of the empty container: the name without its
  // leading dot.
  static std::string_view Candidate(std::string_view name) {
    return !name.empty() && name[0] == '.' ? name.substr(1) : name;
  }

  std::optional<Resolved> ResolveSimpleIdent(std::string_view name) const {
    const Type* local = LookupLocal(name);
    if (local != nullptr && name[0] != '.') return Resolved{*local, std::string(name), std::nullopt};
    std::optional<Resolved> r = LookupGlobal(Candidate(name));
    if (r.has_value() && local != nullptr) r->name = schedkit::StrCat(".", r->name);
    return r;
  }

  std::optional<Resolved> ResolveQualifiedIdent(const std::vector<std::string>& qualifiers) const {
    if (qualifiers.size() == 1) return ResolveSimpleIdent(qualifiers[0]);
    const Type* local = LookupLocal(qualifiers[0]);
    if (local != nullptr && qualifiers[0][0] != '.') return std::nullopt;
    std::string joined = absl::StrJoin(qualifiers, ".");
    std::optional<Resolved> r = LookupGlobal(Candidate(joined));
    if (r.has_value() && local != nullptr) r->name = schedkit::StrCat(".", r->name);
    return r;
  }

  std::optional<Type> ResolveTypeIdent(std::string_view name) const {
    std::string_view c = Candidate(name);
    if (const Type* t = decls_.FindTypeIdent(c)) return Type::TypeOf(*t);
    if (decls_.HasObjectType(c)) return Type::TypeOf(Type::Object(c));
    return std::nullopt;
  }

  const FunctionDecl* LookupFunction(std::string_view name) const { return decls_.FindFunction(Candidate(name)); }

  // a.b.c as "a.b.c" when the chain is made of identifiers and selects
  // (containers.ToQualifiedName).
  std::optional<std::string> ToQualifiedName(ExprIndex i) const {
    const Expr& e = N(i);
    if (e.kind == ExprKind::kIdent) return e.name;
    if (e.kind == ExprKind::kSelect && !e.test_only) {
      std::optional<std::string> q = ToQualifiedName(e.operand);
      if (q.has_value()) return schedkit::StrCat(*q, ".", e.name);
    }
    return std::nullopt;
  }

  // ---- the walk ----------------------------------------------------------

  void CheckNode(ExprIndex i) {
    if (i == kNoExpr) return;
    const Expr& e = N(i);
    switch (e.kind) {
      case ExprKind::kConstant: SetType(i, ConstantType(e.constant)); return;
      case ExprKind::kIdent: CheckIdent(i); return;
      case ExprKind::kSelect: CheckSelect(i); return;
      case ExprKind::kCall: CheckCall(i); return;
      case ExprKind::kList: CheckList(i); return;
      case ExprKind::kMap: CheckMap(i); return;
      case ExprKind::kStruct: CheckStruct(i); return;
      case ExprKind::kComprehension: CheckComprehension(i); return;
      case ExprKind::kUnspecified: Report(e.id, "unexpected unspecified type: "); return;
    }
  }

  static Type ConstantType(const Constant& c) {
    switch (c.kind) {
      case ConstantKind::kNull: return Type::Null();
      case ConstantKind::kBool: return Type::Bool();
      case ConstantKind::kInt: return Type::Int();
      case ConstantKind::kUint: return Type::Uint();
      case ConstantKind::kDouble: return Type::Double();
      case ConstantKind::kString: return Type::String();
      case ConstantKind::kBytes: return Type::Bytes();
    }
    return Type::Error();
  }

  void CheckIdent(ExprIndex i) {
    const Expr& e = N(i);
    if (std::optional<Resolved> r = ResolveSimpleIdent(e.name)) {
      SetType(i, r->type);
      SetReference(e.id, {.name = r->name, .overload_ids = {}, .enum_value = r->enum_value});
      return;
    }
    SetType(i, Type::Error());
    UndeclaredReference(e.id, e.name);
  }

  void CheckSelect(ExprIndex i) {
    const Expr& e = N(i);
    // Before descending, try the chain as a qualified name.
    std::vector<std::string> qualifiers;
    ExprIndex cur = i;
    bool found = false;
    while (N(cur).kind == ExprKind::kSelect) {
      if (N(cur).test_only) break;
      qualifiers.push_back(N(cur).name);
      cur = N(cur).operand;
      if (N(cur).kind == ExprKind::kIdent) {
        qualifiers.push_back(N(cur).name);
        std::reverse(qualifiers.begin(), qualifiers.end());
        found = true;
        break;
      }
    }
    if (found) {
      if (std::optional<Resolved> r = ResolveQualifiedIdent(qualifiers)) {
        SetType(i, r->type);
        SetReference(e.id, {.name = r->name, .overload_ids = {}, .enum_value = r->enum_value});
        return;
      }
    }
    Type result = CheckSelectField(e.id, e.operand, e.name, false);
    if (e.test_only) result = Type::Bool();
    SetType(i, Substitute(mapping_, result, false));
  }

  Type CheckSelectField(ExprId id, ExprIndex operand, std::string_view field, bool optional) {
    CheckNode(operand);
    Type operand_type = Substitute(mapping_, TypeOf(operand), false);
    bool is_opt = operand_type.is_optional();
    Type target = is_opt ? operand_type.param(0) : operand_type;
    Type result = Type::Error();
    switch (target.kind()) {
      case TypeKind::kMap: result = target.param(1); break;
      case TypeKind::kStruct:
        if (std::optional<Type> ft = LookupFieldType(id, target.name(), field)) result = *ft;
        break;
      case TypeKind::kTypeParam:
        IsAssignable(Type::Dyn(), target);
        result = Type::Dyn();
        break;
      default:
        if (!IsDynOrError(target)) {
          Report(id, schedkit::StrCat("type '", FormatCelType(target), "' does not support field selection"));
        }
        result = Type::Dyn();
    }
    if (is_opt || optional) return Type::Optional(std::move(result));
    return result;
  }

  std::optional<Type> LookupFieldType(ExprId id, std::string_view type_name, std::string_view field) {
    if (!decls_.HasObjectType(type_name)) {
      Report(id, schedkit::StrCat("unexpected failed resolution of '", type_name, "'"));
      return std::nullopt;
    }
    if (std::optional<Type> t = decls_.FindFieldType(type_name, field)) return t;
    Report(id, schedkit::StrCat("undefined field '", field, "'"));
    return std::nullopt;
  }

  void CheckOptSelect(ExprIndex i) {
    const Expr& e = N(i);
    if (e.args.size() != 2 || e.is_member_call()) {
      Report(e.id, schedkit::StrCat("unsupported optional field selection: incorrect signature.",
                                e.is_member_call() ? " member call with" : "", " argument count: ", e.args.size()));
      return;
    }
    const Expr& field = N(e.args[1]);
    if (field.kind != ExprKind::kConstant || field.constant.kind != ConstantKind::kString) {
      Report(field.id, "unsupported optional field selection");
      return;
    }
    Type result = CheckSelectField(e.id, e.args[0], field.constant.string_value, true);
    SetType(i, Substitute(mapping_, result, false));
    SetReference(e.id, {.name = "_?._", .overload_ids = {"select_optional_field"}, .enum_value = std::nullopt});
  }

  void CheckCall(ExprIndex i) {
    const Expr& e = N(i);
    if (e.name == "_?._") {
      CheckOptSelect(i);
      return;
    }
    for (ExprIndex a : e.args) CheckNode(a);
    if (!e.is_member_call()) {
      const FunctionDecl* fn = LookupFunction(e.name);
      if (fn == nullptr) {
        UndeclaredReference(e.id, e.name);
        SetType(i, Type::Error());
        return;
      }
      ResolveOverloadOrError(i, *fn, kNoExpr);
      return;
    }
    // a.b.f(): either the namespaced function a.b.f or f with receiver a.b.
    if (std::optional<std::string> q = ToQualifiedName(e.operand)) {
      if (const FunctionDecl* fn = LookupFunction(schedkit::StrCat(*q, ".", e.name))) {
        ResolveOverloadOrError(i, *fn, kNoExpr);
        return;
      }
    }
    CheckNode(e.operand);
    if (const FunctionDecl* fn = LookupFunction(e.name)) {
      ResolveOverloadOrError(i, *fn, e.operand);
      return;
    }
    SetType(i, Type::Error());
    UndeclaredReference(e.id, e.name);
  }

  void ResolveOverloadOrError(ExprIndex i, const FunctionDecl& fn, ExprIndex target) {
    Reference ref;
    std::optional<Type> t = ResolveOverload(i, fn, target, ref);
    if (!t.has_value()) {
      SetType(i, Type::Error());
      return;
    }
    SetType(i, *std::move(t));
    ref.name = fn.name;
    SetReference(N(i).id, std::move(ref));
  }

  std::optional<Type> ResolveOverload(ExprIndex i, const FunctionDecl& fn, ExprIndex target, Reference& ref) {
    const Expr& call = N(i);
    std::vector<Type> arg_types;
    if (target != kNoExpr) arg_types.push_back(TypeOf(target));
    for (ExprIndex a : call.args) arg_types.push_back(TypeOf(a));

    std::optional<Type> result;
    for (const OverloadDecl& o : fn.overloads) {
      if (!env_.options.cross_type_numeric_comparisons && IsCrossTypeNumericComparison(o.id)) continue;
      if ((target == kNoExpr && o.member) || (target != kNoExpr && !o.member)) continue;

      // The logical operators check their (possibly many) arguments as bools.
      if (fn.name == "_&&_" || fn.name == "_||_") {
        ref.overload_ids = {o.id};
        bool failed = false;
        for (size_t k = 0; k < arg_types.size(); ++k) {
          if (!IsAssignable(arg_types[k], Type::Bool())) {
            TypeMismatch(N(call.args[k]).id, Type::Bool(), arg_types[k]);
            failed = true;
          }
        }
        if (failed) return std::nullopt;
        return Type::Bool();
      }

      // Instantiate the signature with fresh type variables.
      Mapping fresh;
      for (const std::string& p : o.type_params) fresh[p] = NewTypeVar();
      std::vector<Type> params;
      params.reserve(o.args.size());
      for (const Type& a : o.args) params.push_back(o.type_params.empty() ? a : Substitute(fresh, a, false));
      Type overload_result = o.type_params.empty() ? o.result : Substitute(fresh, o.result, false);

      if (IsAssignableList(arg_types, params)) {
        ref.overload_ids.push_back(o.id);
        Type fn_result = Substitute(mapping_, overload_result, false);
        if (!result.has_value()) {
          result = std::move(fn_result);
        } else if (!IsDyn(*result) && !fn_result.IsExact(*result)) {
          result = Type::Dyn();
        }
      }
    }
    if (!result.has_value()) {
      for (Type& t : arg_types) t = Substitute(mapping_, t, true);
      Report(call.id, schedkit::StrCat("found no matching overload for '", fn.name, "' applied to '",
                                   FormatFunctionType(nullptr, arg_types, target != kNoExpr), "'"));
      return std::nullopt;
    }
    return result;
  }

  bool IsOptionalIndex(const Expr& list, size_t k) const {
    return std::find(list.optional_indices.begin(), list.optional_indices.end(), static_cast<int32_t>(k)) !=
           list.optional_indices.end();
  }

  void CheckList(ExprIndex i) {
    const Expr& e = N(i);
    std::optional<Type> elems;
    for (size_t k = 0; k < e.args.size(); ++k) {
      ExprIndex el = e.args[k];
      CheckNode(el);
      Type t = TypeOf(el);
      if (IsOptionalIndex(e, k)) {
        bool is_opt = t.is_optional();
        if (is_opt) t = Type(t.param(0));
        if (!is_opt && !IsDyn(t)) TypeMismatch(N(el).id, Type::Optional(t), t);
      }
      elems = JoinTypes(N(el).id, elems, t);
    }
    SetType(i, Type::List(elems.has_value() ? *elems : NewTypeVar()));
  }

  void CheckMap(ExprIndex i) {
    const Expr& e = N(i);
    std::optional<Type> key_type;
    std::optional<Type> value_type;
    for (const Entry& en : e.entries) {
      CheckNode(en.key);
      key_type = JoinTypes(N(en.key).id, key_type, TypeOf(en.key));
      CheckNode(en.value);
      Type vt = TypeOf(en.value);
      if (en.optional) {
        bool is_opt = vt.is_optional();
        if (is_opt) vt = Type(vt.param(0));
        if (!is_opt && !IsDyn(vt)) TypeMismatch(N(en.value).id, Type::Optional(vt), vt);
      }
      value_type = JoinTypes(N(en.value).id, value_type, vt);
    }
    if (!key_type.has_value()) {
      key_type = NewTypeVar();
      value_type = NewTypeVar();
    }
    SetType(i, Type::Map(*std::move(key_type), *std::move(value_type)));
  }

  std::optional<Type> JoinTypes(ExprId id, const std::optional<Type>& previous, const Type& current) {
    if (!previous.has_value()) return current;
    if (IsAssignable(*previous, current)) return MostGeneral(*previous, current);
    if (!env_.options.homogeneous_aggregate_literals) return Type::Dyn();
    TypeMismatch(id, *previous, current);
    return Type::Error();
  }

  void CheckStruct(ExprIndex i) {
    const Expr& e = N(i);
    std::optional<Type> ident = ResolveTypeIdent(e.name);
    if (!ident.has_value()) {
      UndeclaredReference(e.id, e.name);
      SetType(i, Type::Error());
      return;
    }
    std::string type_name(Candidate(e.name));
    SetReference(e.id, {.name = type_name, .overload_ids = {}, .enum_value = std::nullopt});
    Type result = ident->param(0);
    if (std::optional<std::string> wkt = WellKnownMessageName(result)) {
      type_name = *wkt;
    } else if (result.kind() == TypeKind::kStruct) {
      type_name = result.name();
    } else {
      Report(e.id, schedkit::StrCat("'", result.DeclaredName(), "' is not a message type"));
      result = Type::Error();
    }
    SetType(i, result);
    for (const Entry& en : e.entries) {
      CheckNode(en.value);
      Type field_type = Type::Error();
      if (std::optional<Type> ft = LookupFieldType(en.id, type_name, en.field)) field_type = *ft;
      Type vt = TypeOf(en.value);
      if (en.optional) {
        bool is_opt = vt.is_optional();
        if (is_opt) vt = Type(vt.param(0));
        if (!is_opt && !IsDyn(vt)) TypeMismatch(N(en.value).id, Type::Optional(vt), vt);
      }
      if (!IsAssignable(field_type, vt)) {
        Report(en.id, schedkit::StrCat("expected type of field '", en.field, "' is '", FormatCelType(field_type),
                                   "' but provided type is '", FormatCelType(vt), "'"));
      }
    }
  }

  void CheckComprehension(ExprIndex i) {
    const Expr& e = N(i);
    CheckNode(e.iter_range);
    CheckNode(e.accu_init);
    Type range = Substitute(mapping_, TypeOf(e.iter_range), false);
    Type accu = TypeOf(e.accu_init);
    scopes_.emplace_back();
    scopes_.back()[e.accu_var] = accu;

    bool two = !e.iter_var2.empty();
    Type var_type;
    Type var2_type;
    switch (range.kind()) {
      case TypeKind::kList:
        var_type = range.param(0);
        if (two) {
          var2_type = var_type;
          var_type = Type::Int();
        }
        break;
      case TypeKind::kMap:
        var_type = range.param(0);
        if (two) var2_type = range.param(1);
        break;
      case TypeKind::kDyn:
      case TypeKind::kError:
      case TypeKind::kTypeParam:
        IsAssignable(Type::Dyn(), range);
        var_type = Type::Dyn();
        if (two) var2_type = Type::Dyn();
        break;
      default:
        Report(N(e.iter_range).id,
               schedkit::StrCat("expression of type '", FormatCelType(range),
                            "' cannot be range of a comprehension (must be list, map, or dynamic)"));
        var_type = Type::Error();
        if (two) var2_type = Type::Error();
    }
    scopes_.emplace_back();
    scopes_.back()[e.iter_var] = var_type;
    if (two) scopes_.back()[e.iter_var2] = var2_type;
    CheckNode(e.loop_condition);
    AssertType(e.loop_condition, Type::Bool());
    CheckNode(e.loop_step);
    AssertType(e.loop_step, accu);
    scopes_.pop_back();
    CheckNode(e.result);
    scopes_.pop_back();
    SetType(i, Substitute(mapping_, TypeOf(e.result), false));
  }

  void AssertType(ExprIndex i, const Type& t) {
    Type actual = TypeOf(i);
    if (!IsAssignable(t, actual)) TypeMismatch(N(i).id, t, actual);
  }

  const ParsedExpr& expr_;
  const CheckerEnv& env_;
  const CheckerDeclarations& decls_;
  std::vector<int32_t> offsets_;  // by expression id
  std::vector<absl::flat_hash_map<std::string, Type>> scopes_;
  Mapping mapping_;
  int free_type_var_counter_ = 0;
  CheckResult result_;
};

}  // namespace

CheckResult Check(const ParsedExpr& expr, const CheckerEnv& env) {
  CheckResult result = Checker(expr, env).Run();
  if (result.ok()) RunValidators(expr, env, result);
  // cel-go displays issues by position, keeping report order on ties.
  std::stable_sort(result.issues.begin(), result.issues.end(),
                   [&](const CheckIssue& a, const CheckIssue& b) {
                     auto la = expr.source_info().Location(a.offset);
                     auto lb = expr.source_info().Location(b.offset);
                     return la < lb;
                   });
  return result;
}

std::string FormatCheckIssues(const CheckResult& result, const ParseResult& parsed) {
  // cel-go's Error.ToDisplayString: the source line (tabs as spaces, when
  // under 16384 bytes) and a caret line, where a multi-byte character
  // before the column shows as a wide dot and one at the column as a wide
  // caret.
  constexpr size_t kMaxSnippetBytes = 16384;
  std::string out;
  for (const CheckIssue& issue : result.issues) {
    if (!out.empty()) out += "\n";
    auto [line, col] = parsed.source_info.Location(issue.offset);
    out += schedkit::StrCat("ERROR: <input>:", line, ":", col < 0 ? 0 : col + 1, ": ", issue.message);
    if (line < 1 || parsed.text.empty()) continue;
    size_t start = 0;
    int current = 1;
    for (size_t i = 0; i < parsed.text.size() && current < line; ++i) {
      if (parsed.text[i] == U'\n') {
        ++current;
        start = i + 1;
      }
    }
    size_t end = parsed.text.find(U'\n', start);
    if (end == std::u32string::npos) end = parsed.text.size();
    std::u32string snippet = parsed.text.substr(start, end - start);
    for (char32_t& c : snippet) {
      if (c == U'\t') c = U' ';
    }
    std::string snippet_utf8 = EncodeUtf8(snippet);
    if (snippet_utf8.size() > kMaxSnippetBytes) continue;
    out += "\n | " + snippet_utf8 + "\n | ";
    size_t column = col < 0 ? 0 : static_cast<size_t>(col);
    for (size_t i = 0; i < column && i < snippet.size(); ++i) out += snippet[i] >= 0x80 ? "\uff0e" : ".";
    out += column < snippet.size() && snippet[column] >= 0x80 ? "\uff3e" : "^";
  }
  if (result.total_issues > kMaxIssues) out += schedkit::StrCat("\n", result.total_issues - kMaxIssues, " more errors were truncated");
  return out;
}

}  // namespace schedkit::cel
