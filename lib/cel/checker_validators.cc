#include "cel/checker_validators.h"

#include <algorithm>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "absl/strings/str_join.h"
#include "cel/function_registry.h"
#include "cel/kubernetes_libraries.h"
#include "cel/lexer.h"
#include "cel/value.h"
#include "re2/re2.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::cel {
namespace {

// A literal as a runtime value, for the literal validators.
Value ConstantValue(const Constant& c) {
  switch (c.kind) {
    case ConstantKind::kNull: return Value::Null();
    case ConstantKind::kBool: return Value::Bool(c.bool_value);
    case ConstantKind::kInt: return Value::Int(c.int_value);
    case ConstantKind::kUint: return Value::Uint(c.uint_value);
    case ConstantKind::kDouble: return Value::Double(c.double_value);
    case ConstantKind::kString: return Value::String(c.string_value);
    case ConstantKind::kBytes: return Value::Bytes(c.string_value);
  }
  return Value::Null();
}

class Validators {
 public:
  Validators(const ParsedExpr& expr, const CheckerEnv& env, CheckResult& result)
      : expr_(expr), env_(env), result_(result) {
    offsets_.assign(static_cast<size_t>(expr.max_id()) + 1, -1);
    for (const Expr& e : expr.nodes()) {
      if (e.id >= 0 && static_cast<size_t>(e.id) < offsets_.size()) offsets_[static_cast<size_t>(e.id)] = e.offset;
    }
    exempt_.assign(expr.nodes().size(), false);
  }

  void Run() {
    if (expr_.root_index() == kNoExpr) return;
    Walk(expr_.root_index(), 0);
    const CheckerOptions& o = env_.options;
    if (o.validate_duration_literals) EvalLiteralCalls("duration");
    if (o.validate_timestamp_literals) EvalLiteralCalls("timestamp");
    if (o.validate_regex_literals) RegexLiterals();
    if (o.validate_homogeneous_literals) HomogeneousLiterals();
    if (o.validate_string_format) StringFormats();
  }

 private:
  const Expr& N(ExprIndex i) const { return expr_.node(i); }
  void Report(ExprId id, std::string message) {
    ++result_.total_issues;
    if (result_.total_issues > kMaxIssues) return;
    int32_t off = id >= 0 && static_cast<size_t>(id) < offsets_.size() ? offsets_[static_cast<size_t>(id)] : -1;
    result_.issues.push_back({.id = id, .offset = off, .message = std::move(message)});
  }
  const Type* TypeOf(ExprIndex i) const {
    auto it = result_.types.find(N(i).id);
    return it == result_.types.end() ? nullptr : &it->second;
  }

  // Preorder, with the number of enclosing calls named "format" (the
  // homogeneous check's exemption).
  void Walk(ExprIndex i, int format_depth) {
    if (i == kNoExpr) return;
    const Expr& e = N(i);
    preorder_.push_back(i);
    exempt_[static_cast<size_t>(i)] = format_depth > 0;
    int inner = format_depth + (e.kind == ExprKind::kCall && e.name == "format" ? 1 : 0);
    switch (e.kind) {
      case ExprKind::kSelect: Walk(e.operand, inner); break;
      case ExprKind::kCall:
        Walk(e.operand, inner);
        for (ExprIndex a : e.args) Walk(a, inner);
        break;
      case ExprKind::kList:
        for (ExprIndex a : e.args) Walk(a, inner);
        break;
      case ExprKind::kMap:
        for (const Entry& en : e.entries) {
          Walk(en.key, inner);
          Walk(en.value, inner);
        }
        break;
      case ExprKind::kStruct:
        for (const Entry& en : e.entries) Walk(en.value, inner);
        break;
      case ExprKind::kComprehension:
        Walk(e.iter_range, inner);
        Walk(e.accu_init, inner);
        Walk(e.loop_condition, inner);
        Walk(e.loop_step, inner);
        Walk(e.result, inner);
        break;
      default: break;
    }
  }

  // cel.ValidateDurationLiterals / ValidateTimestampLiterals: a call with a
  // literal first argument is evaluated; an error makes the literal invalid.
  void EvalLiteralCalls(std::string_view fn) {
    const Function* f = KubernetesFunctions().Find(fn);
    for (ExprIndex i : preorder_) {
      const Expr& e = N(i);
      if (e.kind != ExprKind::kCall || e.name != fn || e.args.empty()) continue;
      if (N(e.args[0]).kind != ExprKind::kConstant) continue;
      // Only a call whose every argument is a literal can be evaluated
      // without variables; cel-go would fail on the others too.
      std::vector<Value> args;
      bool constant = true;
      if (e.is_member_call()) {
        if (N(e.operand).kind != ExprKind::kConstant) constant = false;
        if (constant) args.push_back(ConstantValue(N(e.operand).constant));
      }
      for (ExprIndex a : e.args) {
        if (N(a).kind != ExprKind::kConstant) {
          constant = false;
          break;
        }
        args.push_back(ConstantValue(N(a).constant));
      }
      bool invalid = !constant;
      if (constant && f != nullptr) {
        const Overload* o = f->Resolve(args);
        Value v = o != nullptr ? o->impl(args) : f->fallback != nullptr ? f->fallback(args) : Value::Null();
        invalid = o == nullptr && f->fallback == nullptr ? true : v.is_error();
      }
      if (invalid) Report(N(e.args[0]).id, schedkit::StrCat("invalid ", fn, " argument"));
    }
  }

  // cel.ValidateRegexLiterals: the first argument of every matches call
  // (the pattern of a member call; the subject of the global form, as
  // upstream) must compile when it is a literal.
  void RegexLiterals() {
    for (ExprIndex i : preorder_) {
      const Expr& e = N(i);
      if (e.kind != ExprKind::kCall || e.name != "matches" || e.args.empty()) continue;
      const Expr& lit = N(e.args[0]);
      if (lit.kind != ExprKind::kConstant || lit.constant.kind != ConstantKind::kString) continue;
      RE2::Options opts;
      opts.set_log_errors(false);
      RE2 re(lit.constant.string_value, opts);
      if (!re.ok()) Report(lit.id, "invalid matches argument");
    }
  }

  // cel.ValidateHomogeneousAggregateLiterals: element (key, value) types of
  // one literal must be equivalent, dyn included.
  void HomogeneousLiterals() {
    for (ExprIndex i : preorder_) {
      const Expr& e = N(i);
      if (exempt_[static_cast<size_t>(i)]) continue;
      if (e.kind == ExprKind::kList) {
        std::optional<Type> elem;
        for (size_t k = 0; k < e.args.size(); ++k) {
          const Type* t = TypeOf(e.args[k]);
          if (t == nullptr) continue;
          Type et = *t;
          if (std::find(e.optional_indices.begin(), e.optional_indices.end(), static_cast<int32_t>(k)) !=
              e.optional_indices.end()) {
            if (et.params().empty()) {
              // cel-go indexes the missing parameter of a dyn optional
              // element and panics; report it rather than crash.
              Report(N(e.args[k]).id, "internal error: optional list element of type '" + FormatCelType(et) + "'");
              break;
            }
            et = Type(et.param(0));
          }
          if (!elem.has_value()) {
            elem = et;
            continue;
          }
          if (!elem->IsEquivalent(et)) {
            Report(N(e.args[k]).id, Mismatch(*elem, et));
            break;
          }
        }
      } else if (e.kind == ExprKind::kMap) {
        std::optional<Type> key_type;
        std::optional<Type> value_type;
        for (const Entry& en : e.entries) {
          const Type* kt = TypeOf(en.key);
          const Type* vt = TypeOf(en.value);
          if (kt == nullptr || vt == nullptr) continue;
          Type v = *vt;
          if (en.optional) {
            if (v.params().empty()) {
              Report(N(en.value).id, "internal error: optional map value of type '" + FormatCelType(v) + "'");
              continue;
            }
            v = Type(v.param(0));
          }
          if (!key_type.has_value()) {
            key_type = *kt;
            value_type = v;
            continue;
          }
          if (!key_type->IsEquivalent(*kt)) Report(N(en.key).id, Mismatch(*key_type, *kt));
          if (!value_type->IsEquivalent(v)) Report(N(en.value).id, Mismatch(*value_type, v));
        }
      }
    }
  }

  static std::string Mismatch(const Type& expected, const Type& actual) {
    return schedkit::StrCat("expected type '", FormatCelType(expected), "' but found '", FormatCelType(actual), "'");
  }

  // ext.Strings' validator: "<literal>".format([<elements>]) clauses
  // against the element types.
  void StringFormats() {
    for (ExprIndex i : preorder_) {
      const Expr& e = N(i);
      if (e.kind != ExprKind::kCall || !e.is_member_call() || e.name != "format") continue;
      auto ref = result_.references.find(e.id);
      if (ref != result_.references.end() && !ref->second.overload_ids.empty() &&
          std::find(ref->second.overload_ids.begin(), ref->second.overload_ids.end(), "string_format") ==
              ref->second.overload_ids.end()) {
        continue;
      }
      const Expr& target = N(e.operand);
      if (target.kind != ExprKind::kConstant || target.constant.kind != ConstantKind::kString) continue;
      if (e.args.size() != 1 || N(e.args[0]).kind != ExprKind::kList) continue;
      CheckFormat(e, target.constant.string_value, N(e.args[0]).args);
    }
  }

  struct FormatError {
    ExprId id;  // the argument at fault, or the call
    std::string message;
  };

  // Mirrors the formatter's parse with a checker in place of the values.
  void CheckFormat(const Expr& call, std::string_view fmt, const std::vector<ExprIndex>& args) {
    size_t i = 0;
    int64_t arg_index = 0;
    int64_t requested = 0;
    while (i < fmt.size()) {
      if (fmt[i] != '%') {
        ++i;
        continue;
      }
      if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
        i += 2;
        continue;
      }
      ++requested;
      int64_t current = arg_index;
      if (i + 1 >= fmt.size()) return Report(call.id, "unexpected end of string");
      if (arg_index >= static_cast<int64_t>(args.size())) {
        return Report(call.id, schedkit::StrCat("index ", arg_index, " out of range"));
      }
      // The clause: an optional precision, then the verb.
      size_t j = i + 1;
      if (fmt[j] == '.') {
        ++j;
        size_t digits_start = j;
        for (;;) {
          if (j >= fmt.size()) {
            return Report(call.id,
                          "could not parse formatting clause: error while parsing precision: could not find end of "
                          "precision specifier");
          }
          if (fmt[j] < '0' || fmt[j] > '9') break;
          ++j;
        }
        std::string_view digits = fmt.substr(digits_start, j - digits_start);
        if (digits.empty() || digits.size() > 18) {
          std::string why = digits.empty() ? "invalid syntax" : "value out of range";
          return Report(call.id, schedkit::StrCat("could not parse formatting clause: error while parsing precision: "
                                              "error while converting precision to integer: strconv.Atoi: parsing ",
                                              GoQuote(digits), ": ", why));
        }
      }
      char verb = fmt[j];
      ++j;
      std::optional<FormatError> err = CheckClause(verb, args[static_cast<size_t>(current)]);
      if (err.has_value()) {
        if (err->id == 0) {
          return Report(call.id, schedkit::StrCat("could not parse formatting clause: ", err->message));
        }
        return Report(err->id, schedkit::StrCat("error during formatting: ", err->message));
      }
      i = j;
      ++arg_index;
    }
    if (static_cast<int64_t>(args.size()) > requested) {
      Report(call.id, schedkit::StrCat("too many arguments supplied to string.format (expected ", requested, ", got ",
                                   args.size(), ")"));
    }
  }

  static std::string GoQuote(std::string_view s) { return schedkit::StrCat("\"", s, "\""); }

  // nullopt when the clause fits its argument; an error with id 0 for an
  // unknown verb.
  std::optional<FormatError> CheckClause(char verb, ExprIndex arg) {
    const ExprId id = N(arg).id;
    auto kind_name = [&](ExprId bad) {
      auto it = result_.types.find(bad);
      return it == result_.types.end() ? std::string() : it->second.name();
    };
    auto one_of = [&](std::initializer_list<TypeKind> kinds) {
      const Type* t = TypeOf(arg);
      if (t == nullptr || t->kind() == TypeKind::kDyn) return true;
      return std::find(kinds.begin(), kinds.end(), t->kind()) != kinds.end();
    };
    switch (verb) {
      case 's': {
        ExprId bad = 0;
        if (!VerifyString(arg, bad)) {
          return FormatError{bad, schedkit::StrCat("string clause can only be used on strings, bools, bytes, ints, "
                                               "doubles, maps, lists, types, durations, and timestamps, was given ",
                                               kind_name(bad))};
        }
        return std::nullopt;
      }
      case 'd':
        if (!one_of({TypeKind::kInt, TypeKind::kUint})) {
          return FormatError{id, "decimal clause can only be used on integers, was given " + kind_name(id)};
        }
        return std::nullopt;
      case 'f':
        if (!one_of({TypeKind::kDouble, TypeKind::kString})) {
          return FormatError{id, "fixed-point clause can only be used on doubles, was given " + kind_name(id)};
        }
        return std::nullopt;
      case 'e':
        if (!one_of({TypeKind::kDouble, TypeKind::kString})) {
          return FormatError{id, "scientific clause can only be used on doubles, was given " + kind_name(id)};
        }
        return std::nullopt;
      case 'b':
        if (!one_of({TypeKind::kInt, TypeKind::kUint, TypeKind::kBool})) {
          return FormatError{id, "only integers and bools can be formatted as binary, was given " + kind_name(id)};
        }
        return std::nullopt;
      case 'x':
      case 'X':
        if (!one_of({TypeKind::kInt, TypeKind::kUint, TypeKind::kString, TypeKind::kBytes})) {
          return FormatError{
              id, "only integers, byte buffers, and strings can be formatted as hex, was given " + kind_name(id)};
        }
        return std::nullopt;
      case 'o':
        if (!one_of({TypeKind::kInt, TypeKind::kUint})) {
          return FormatError{id, "octal clause can only be used on integers, was given " + kind_name(id)};
        }
        return std::nullopt;
      default: {
        // Go's %c of the byte as a rune.
        std::string r;
        unsigned char c = static_cast<unsigned char>(verb);
        if (c < 0x80) {
          r.push_back(static_cast<char>(c));
        } else {
          r.push_back(static_cast<char>(0xC0 | (c >> 6)));
          r.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        }
        return FormatError{0, schedkit::StrCat("unrecognized formatting clause \"", r, "\"")};
      }
    }
  }

  bool VerifyString(ExprIndex sub, ExprId& bad) {
    const Type* t = TypeOf(sub);
    bool ok = t == nullptr || t->kind() == TypeKind::kDyn;
    if (!ok) {
      switch (t->kind()) {
        case TypeKind::kList:
        case TypeKind::kMap:
        case TypeKind::kInt:
        case TypeKind::kUint:
        case TypeKind::kDouble:
        case TypeKind::kBool:
        case TypeKind::kString:
        case TypeKind::kTimestamp:
        case TypeKind::kBytes:
        case TypeKind::kDuration:
        case TypeKind::kType:
        case TypeKind::kNullType: ok = true; break;
        default: break;
      }
    }
    if (!ok) {
      bad = N(sub).id;
      return false;
    }
    const Expr& e = N(sub);
    if (e.kind == ExprKind::kList) {
      for (ExprIndex el : e.args) {
        if (!VerifyString(el, bad)) return false;
      }
    } else if (e.kind == ExprKind::kMap) {
      for (const Entry& en : e.entries) {
        if (!VerifyString(en.key, bad) || !VerifyString(en.value, bad)) return false;
      }
    }
    return true;
  }

  const ParsedExpr& expr_;
  const CheckerEnv& env_;
  CheckResult& result_;
  std::vector<int32_t> offsets_;
  std::vector<ExprIndex> preorder_;
  std::vector<bool> exempt_;
};

}  // namespace

void RunValidators(const ParsedExpr& expr, const CheckerEnv& env, CheckResult& result) {
  Validators(expr, env, result).Run();
}

}  // namespace schedkit::cel
