#include "cel/parser.h"

#include <algorithm>
#include <array>
#include <utility>

#include "absl/status/status.h"
#include "cel/ast_builder.h"
#include "cel/lexer.h"
#include "cel/literals.h"

namespace schedkit::cel {
namespace {

// Identifiers the grammar lexes as IDENTIFIER but cel-go rejects as names of
// variables and functions (they stay legal as field names).
bool IsReserved(std::string_view id) {
  static constexpr std::string_view kReserved[] = {
      "as",  "break", "const",   "continue",  "else", "false", "for",  "function", "if",   "import", "in",
      "let", "loop",  "package", "namespace", "null", "return", "true", "var",      "void", "while"};
  return std::find(std::begin(kReserved), std::end(kReserved), id) != std::end(kReserved);
}

// Grammar rules whose nesting cel-go's recursion listener counts.
enum Rule { kRuleExpr, kRuleOr, kRuleAnd, kRuleRelation, kRuleCalc, kRuleUnary, kRuleMember, kRulePrimary, kRules };

constexpr std::string_view kExpectingPrimary =
    "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";

class Parser {
 public:
  Parser(std::vector<Token> tokens, const ParserOptions& options, AstBuilder& b, std::vector<ParseIssue>& issues)
      : tokens_(std::move(tokens)), options_(options), b_(b), issues_(issues) {}

  ExprIndex ParseStart() {
    ExprIndex e = ParseExpr();
    if (failed_) return e;
    if (Cur().kind != TokenKind::kEof) {
      SyntaxError(Cur(), "extraneous input '" + Cur().text + "' expecting <EOF>");
    }
    return e;
  }

 private:
  // Counts a rule's nesting for the life of one parse function.
  class RuleScope {
   public:
    RuleScope(Parser* p, Rule r) : p_(p), r_(r) {
      if (++p_->rule_depth_[r_] > p_->options_.max_recursion_depth && !p_->failed_) {
        p_->Report(-1, "expression recursion limit exceeded: " + std::to_string(p_->options_.max_recursion_depth));
        p_->failed_ = true;
      }
    }
    ~RuleScope() { --p_->rule_depth_[r_]; }
    RuleScope(const RuleScope&) = delete;
    RuleScope& operator=(const RuleScope&) = delete;

   private:
    Parser* p_;
    Rule r_;
  };

  const Token& Cur() const { return tokens_[pos_]; }
  const Token& Peek(size_t k) const { return tokens_[std::min(pos_ + k, tokens_.size() - 1)]; }
  const Token& Take() {
    const Token& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }

  void Report(int32_t offset, std::string message) { issues_.push_back({offset, std::move(message)}); }

  void SyntaxError(const Token& at, std::string message) {
    if (!failed_) Report(at.start, "Syntax error: " + message);
    failed_ = true;
  }

  void Mismatched(std::string_view expecting) {
    SyntaxError(Cur(), "mismatched input '" + Cur().text + "' expecting " + std::string(expecting));
  }

  bool Expect(TokenKind kind) {
    if (Cur().kind != kind) {
      Mismatched(TokenDisplayName(kind));
      return false;
    }
    Take();
    return true;
  }

  // A non-syntax error (reserved word, bad literal, macro misuse): cel-go
  // reports it and keeps parsing, leaving an unspecified node in place.
  ExprIndex ReportError(int32_t offset, std::string message) {
    ExprIndex e = b_.NewUnspecified(b_.NextId(offset));
    Report(offset, std::move(message));
    return e;
  }

  // cel-go's visitor nesting: operators, selects, indexes and member calls
  // each add one level above their deepest child.
  void SetDepth(ExprIndex e, bool counts, std::initializer_list<int> child_depths) {
    int d = 0;
    for (int c : child_depths) d = std::max(d, c);
    if (counts) ++d;
    b_.set_visit_depth(e, d);
    if (d > options_.max_recursion_depth && !failed_) {
      Report(-1, "max recursion depth exceeded");
      failed_ = true;
    }
  }
  int Depth(ExprIndex e) const { return b_.visit_depth(e); }
  int MaxDepth(const std::vector<ExprIndex>& es) const {
    int d = 0;
    for (ExprIndex e : es) d = std::max(d, Depth(e));
    return d;
  }

  ExprIndex CallOrMacro(ExprId id, std::string function, ExprIndex target, std::vector<ExprIndex> args) {
    const Macro* macro = FindMacro(options_.macros, function, args.size(), target != kNoExpr);
    if (macro != nullptr) {
      b_.BeginMacro(id);
      MacroResult r = macro->expand(b_, target, args);
      if (!r.error.empty()) {
        int32_t offset = r.error_at != kNoExpr ? b_.node(r.error_at).offset : b_.IdOffset(id);
        b_.DeleteId(id);
        return ReportError(offset, r.error);
      }
      if (r.expr != kNoExpr) {
        b_.DeleteId(id);
        return r.expr;
      }
    }
    if (target != kNoExpr) return b_.NewMemberCall(id, std::move(function), target, std::move(args));
    return b_.NewCall(id, std::move(function), std::move(args));
  }

  ExprIndex ParseExpr() {
    RuleScope scope(this, kRuleExpr);
    if (failed_) return kNoExpr;
    ExprIndex cond = ParseConditionalOr();
    if (failed_ || Cur().kind != TokenKind::kQuestion) return cond;
    ExprId id = b_.NextId(Take().start);
    ExprIndex yes = ParseConditionalOr();
    if (failed_ || !Expect(TokenKind::kColon)) return kNoExpr;
    ExprIndex no = ParseExpr();
    if (failed_) return kNoExpr;
    ExprIndex e = CallOrMacro(id, "_?_:_", kNoExpr, {cond, yes, no});
    SetDepth(e, true, {Depth(cond), Depth(yes), Depth(no)});
    return e;
  }

  // a || b || c: cel-go balances the chain into a tree; each operator's id
  // is taken after its right-hand term.
  ExprIndex Balanced(const std::string& fn, const std::vector<ExprIndex>& terms, const std::vector<ExprId>& ops,
                     size_t lo, size_t hi) {
    size_t mid = (lo + hi + 1) / 2;
    ExprIndex left = mid == lo ? terms[mid] : Balanced(fn, terms, ops, lo, mid - 1);
    ExprIndex right = mid == hi ? terms[mid + 1] : Balanced(fn, terms, ops, mid + 1, hi);
    ExprIndex e = b_.NewCall(ops[mid], fn, {left, right});
    SetDepth(e, false, {Depth(left), Depth(right)});
    return e;
  }

  ExprIndex ParseLogic(Rule rule, TokenKind op, const std::string& fn) {
    RuleScope scope(this, rule);
    if (failed_) return kNoExpr;
    auto next = [&]() { return rule == kRuleOr ? ParseConditionalAnd() : ParseRelation(0); };
    std::vector<ExprIndex> terms{next()};
    std::vector<ExprId> ops;
    while (!failed_ && Cur().kind == op) {
      int32_t at = Take().start;
      ExprIndex t = next();
      if (failed_) return kNoExpr;
      ops.push_back(b_.NextId(at));
      terms.push_back(t);
    }
    if (failed_) return kNoExpr;
    if (ops.empty()) return terms[0];
    return Balanced(fn, terms, ops, 0, ops.size() - 1);
  }
  ExprIndex ParseConditionalOr() { return ParseLogic(kRuleOr, TokenKind::kLogicalOr, "_||_"); }
  ExprIndex ParseConditionalAnd() { return ParseLogic(kRuleAnd, TokenKind::kLogicalAnd, "_&&_"); }

  static const char* RelationFunction(TokenKind k) {
    switch (k) {
      case TokenKind::kLess: return "_<_";
      case TokenKind::kLessEquals: return "_<=_";
      case TokenKind::kGreaterEquals: return "_>=_";
      case TokenKind::kGreater: return "_>_";
      case TokenKind::kEquals: return "_==_";
      case TokenKind::kNotEquals: return "_!=_";
      case TokenKind::kIn: return "@in";
      default: return nullptr;
    }
  }

  // relation: calc | relation op relation, left-associative, one level.
  ExprIndex ParseRelation(int precedence) {
    RuleScope scope(this, kRuleRelation);
    if (failed_) return kNoExpr;
    ExprIndex lhs = ParseCalc(0);
    while (!failed_ && precedence <= 1) {
      const char* fn = RelationFunction(Cur().kind);
      if (fn == nullptr) break;
      ExprId id = b_.NextId(Take().start);
      ExprIndex rhs = ParseRelation(2);
      if (failed_) return kNoExpr;
      ExprIndex e = CallOrMacro(id, fn, kNoExpr, {lhs, rhs});
      SetDepth(e, true, {Depth(lhs), Depth(rhs)});
      lhs = e;
    }
    return lhs;
  }

  // calc: '*' '/' '%' bind tighter than '+' '-'; both left-associative.
  ExprIndex ParseCalc(int precedence) {
    RuleScope scope(this, kRuleCalc);
    if (failed_) return kNoExpr;
    ExprIndex lhs = ParseUnary();
    while (!failed_) {
      TokenKind k = Cur().kind;
      const char* fn = nullptr;
      int next = 0;
      if ((k == TokenKind::kStar || k == TokenKind::kSlash || k == TokenKind::kPercent) && precedence <= 2) {
        fn = k == TokenKind::kStar ? "_*_" : (k == TokenKind::kSlash ? "_/_" : "_%_");
        next = 3;
      } else if ((k == TokenKind::kPlus || k == TokenKind::kMinus) && precedence <= 1) {
        fn = k == TokenKind::kPlus ? "_+_" : "_-_";
        next = 2;
      } else {
        break;
      }
      ExprId id = b_.NextId(Take().start);
      ExprIndex rhs = ParseCalc(next);
      if (failed_) return kNoExpr;
      ExprIndex e = CallOrMacro(id, fn, kNoExpr, {lhs, rhs});
      SetDepth(e, true, {Depth(lhs), Depth(rhs)});
      lhs = e;
    }
    return lhs;
  }

  // unary: member | '!'+ member | '-'+ member. A single '-' before a number
  // is the number's sign (ANTLR prefers the literal); a run of operators of
  // even length cancels out.
  ExprIndex ParseUnary() {
    RuleScope scope(this, kRuleUnary);
    if (failed_) return kNoExpr;
    TokenKind k = Cur().kind;
    bool negative_literal =
        k == TokenKind::kMinus && (Peek(1).kind == TokenKind::kNumInt || Peek(1).kind == TokenKind::kNumFloat);
    if ((k != TokenKind::kExclam && k != TokenKind::kMinus) || negative_literal) return ParseMember();
    int32_t first = Cur().start;
    int count = 0;
    while (Cur().kind == k) {
      Take();
      ++count;
    }
    if (count % 2 == 0) return ParseMember();
    ExprId id = b_.NextId(first);
    ExprIndex operand = ParseMember();
    if (failed_) return kNoExpr;
    ExprIndex e = CallOrMacro(id, k == TokenKind::kExclam ? "!_" : "-_", kNoExpr, {operand});
    SetDepth(e, false, {Depth(operand)});
    return e;
  }

  bool FieldName(const Token& t, std::string* name) {
    if (t.kind == TokenKind::kIdentifier) {
      *name = t.text;
      return true;
    }
    if (!options_.enable_ident_escape_syntax) {
      Report(t.start, "unsupported syntax: '`'");
      *name = t.text;
      return true;
    }
    *name = t.text.size() > 2 ? t.text.substr(1, t.text.size() - 2) : "";
    return true;
  }

  ExprIndex ParseMember() {
    RuleScope scope(this, kRuleMember);
    if (failed_) return kNoExpr;
    ExprIndex e = ParsePrimary();
    while (!failed_) {
      if (Cur().kind == TokenKind::kDot) {
        const Token& dot = Take();
        int32_t dot_at = dot.start;
        bool optional = false;
        if (Cur().kind == TokenKind::kQuestion) {
          Take();
          optional = true;
        }
        const Token& name_tok = Cur();
        if (name_tok.kind != TokenKind::kIdentifier && name_tok.kind != TokenKind::kEscIdentifier) {
          Mismatched(optional ? "{IDENTIFIER, ESC_IDENTIFIER}" : "IDENTIFIER");
          return kNoExpr;
        }
        if (!optional && name_tok.kind == TokenKind::kIdentifier && Peek(1).kind == TokenKind::kLParen) {
          std::string fn = Take().text;
          ExprId id = b_.NextId(Take().start);
          std::vector<ExprIndex> args;
          if (!ParseArgs(&args)) return kNoExpr;
          int depth = std::max(Depth(e), MaxDepth(args));
          ExprIndex call = CallOrMacro(id, std::move(fn), e, std::move(args));
          SetDepth(call, true, {depth});
          e = call;
          continue;
        }
        int32_t name_at = name_tok.start;
        std::string field;
        FieldName(Take(), &field);
        int depth = Depth(e);
        if (optional) {
          if (!options_.enable_optional_syntax) {
            e = ReportError(dot_at, "unsupported syntax '.?'");
          } else {
            ExprIndex lit = b_.NewString(b_.NextId(name_at), field);
            e = b_.NewCall(b_.NextId(dot_at), "_?._", {e, lit});
          }
        } else {
          e = b_.NewSelect(b_.NextId(dot_at), e, field);
        }
        SetDepth(e, true, {depth});
        continue;
      }
      if (Cur().kind == TokenKind::kLBracket) {
        int32_t open = Take().start;
        bool optional = false;
        if (Cur().kind == TokenKind::kQuestion) {
          Take();
          optional = true;
        }
        ExprId id = b_.NextId(open);
        ExprIndex index = ParseExpr();
        if (failed_ || !Expect(TokenKind::kRBracket)) return kNoExpr;
        int depth = std::max(Depth(e), Depth(index));
        if (optional && !options_.enable_optional_syntax) {
          e = ReportError(open, "unsupported syntax '[?'");
        } else {
          e = CallOrMacro(id, optional ? "_[?_]" : "_[_]", kNoExpr, {e, index});
        }
        SetDepth(e, true, {depth});
        continue;
      }
      break;
    }
    return e;
  }

  // '(' exprList? ')' with the '(' already taken.
  bool ParseArgs(std::vector<ExprIndex>* args) {
    if (Cur().kind == TokenKind::kRParen) {
      Take();
      return true;
    }
    while (true) {
      ExprIndex a = ParseExpr();
      if (failed_) return false;
      args->push_back(a);
      if (Cur().kind == TokenKind::kComma) {
        Take();
        continue;
      }
      return Expect(TokenKind::kRParen);
    }
  }

  // Whether the tokens at pos_ read ('.')? IDENT ('.' IDENT)* '{'.
  bool AtMessageLiteral() const {
    size_t j = 0;
    if (Peek(j).kind == TokenKind::kDot) ++j;
    if (Peek(j).kind != TokenKind::kIdentifier) return false;
    ++j;
    while (Peek(j).kind == TokenKind::kDot && Peek(j + 1).kind == TokenKind::kIdentifier) j += 2;
    return Peek(j).kind == TokenKind::kLBrace;
  }

  ExprIndex ParsePrimary() {
    RuleScope scope(this, kRulePrimary);
    if (failed_) return kNoExpr;
    const Token& t = Cur();
    switch (t.kind) {
      case TokenKind::kDot:
      case TokenKind::kIdentifier:
        if (AtMessageLiteral()) return ParseMessage();
        return ParseIdentOrCall();
      case TokenKind::kLParen: {
        Take();
        ExprIndex e = ParseExpr();
        if (failed_ || !Expect(TokenKind::kRParen)) return kNoExpr;
        return e;
      }
      case TokenKind::kLBracket:
        return ParseList();
      case TokenKind::kLBrace:
        return ParseMap();
      case TokenKind::kMinus:
      case TokenKind::kNumInt:
      case TokenKind::kNumUint:
      case TokenKind::kNumFloat:
      case TokenKind::kString:
      case TokenKind::kBytes:
      case TokenKind::kTrue:
      case TokenKind::kFalse:
      case TokenKind::kNull:
        return ParseLiteral();
      default:
        Mismatched(kExpectingPrimary);
        return kNoExpr;
    }
  }

  ExprIndex ParseIdentOrCall() {
    bool leading_dot = false;
    int32_t start = Cur().start;
    if (Cur().kind == TokenKind::kDot) {
      Take();
      leading_dot = true;
      if (Cur().kind != TokenKind::kIdentifier) {
        Mismatched("IDENTIFIER");
        return kNoExpr;
      }
    }
    const Token& id_tok = Take();
    std::string name = id_tok.text;
    int32_t name_at = id_tok.start;
    if (Cur().kind == TokenKind::kLParen) {
      int32_t open = Take().start;
      if (IsReserved(name)) {
        std::vector<ExprIndex> ignored;
        if (!ParseArgs(&ignored)) return kNoExpr;
        return ReportError(start, "reserved identifier: " + name);
      }
      ExprId id = b_.NextId(open);
      std::vector<ExprIndex> args;
      if (!ParseArgs(&args)) return kNoExpr;
      int depth = MaxDepth(args);
      ExprIndex e = CallOrMacro(id, (leading_dot ? "." : "") + name, kNoExpr, std::move(args));
      SetDepth(e, false, {depth});
      return e;
    }
    if (IsReserved(name)) return ReportError(start, "reserved identifier: " + name);
    return b_.NewIdent(b_.NextId(name_at), (leading_dot ? "." : "") + name);
  }

  ExprIndex ParseMessage() {
    std::string type_name;
    if (Cur().kind == TokenKind::kDot) {
      Take();
      type_name = ".";
    }
    type_name += Take().text;
    while (Cur().kind == TokenKind::kDot) {
      Take();
      type_name += "." + Take().text;
    }
    ExprId id = b_.NextId(Take().start);  // '{'
    std::vector<Entry> fields;
    int depth = 0;
    if (Cur().kind == TokenKind::kComma) {
      Take();
    } else {
      while (Cur().kind != TokenKind::kRBrace) {
        bool optional = false;
        int32_t opt_at = Cur().start;
        if (Cur().kind == TokenKind::kQuestion) {
          Take();
          optional = true;
        }
        if (Cur().kind != TokenKind::kIdentifier && Cur().kind != TokenKind::kEscIdentifier) {
          if (optional) {
            // cel-go's recovery reports this at the '?'.
            Report(opt_at, "unsupported ident kind");
            failed_ = true;
          } else {
            Mismatched("{IDENTIFIER, ESC_IDENTIFIER}");
          }
          return kNoExpr;
        }
        std::string field;
        FieldName(Take(), &field);
        if (Cur().kind != TokenKind::kColon) {
          Mismatched("':'");
          return kNoExpr;
        }
        ExprId entry_id = b_.NextId(Take().start);
        if (optional && !options_.enable_optional_syntax) Report(opt_at, "unsupported syntax '?'");
        ExprIndex value = ParseExpr();
        if (failed_) return kNoExpr;
        depth = std::max(depth, Depth(value));
        Entry en;
        en.id = entry_id;
        en.offset = b_.IdOffset(entry_id);
        en.field = std::move(field);
        en.value = value;
        en.optional = optional;
        fields.push_back(std::move(en));
        if (Cur().kind != TokenKind::kComma) break;
        Take();
      }
    }
    if (!Expect(TokenKind::kRBrace)) return kNoExpr;
    ExprIndex e = b_.NewStruct(id, std::move(type_name), std::move(fields));
    SetDepth(e, false, {depth});
    return e;
  }

  ExprIndex ParseList() {
    ExprId id = b_.NextId(Take().start);
    std::vector<ExprIndex> elems;
    std::vector<int32_t> optionals;
    if (Cur().kind == TokenKind::kComma) {
      Take();
    } else {
      while (Cur().kind != TokenKind::kRBracket) {
        bool optional = false;
        int32_t opt_at = Cur().start;
        if (Cur().kind == TokenKind::kQuestion) {
          Take();
          optional = true;
        }
        ExprIndex e = ParseExpr();
        if (failed_) return kNoExpr;
        if (optional) {
          if (!options_.enable_optional_syntax) {
            Report(opt_at, "unsupported syntax '?'");
          } else {
            optionals.push_back(static_cast<int32_t>(elems.size()));
          }
        }
        elems.push_back(e);
        if (Cur().kind != TokenKind::kComma) break;
        Take();
      }
    }
    if (!Expect(TokenKind::kRBracket)) return kNoExpr;
    int depth = MaxDepth(elems);
    ExprIndex e = b_.NewList(id, std::move(elems), std::move(optionals));
    SetDepth(e, false, {depth});
    return e;
  }

  ExprIndex ParseMap() {
    ExprId id = b_.NextId(Take().start);
    std::vector<Entry> entries;
    int depth = 0;
    if (Cur().kind == TokenKind::kComma) {
      Take();
    } else {
      while (Cur().kind != TokenKind::kRBrace) {
        bool optional = false;
        int32_t opt_at = Cur().start;
        if (Cur().kind == TokenKind::kQuestion) {
          Take();
          optional = true;
        }
        // cel-go numbers the entry (at its ':') before visiting its key.
        ExprId entry_id = b_.NextId(-1);
        ExprIndex key = ParseExpr();
        if (failed_) return kNoExpr;
        if (Cur().kind != TokenKind::kColon) {
          Mismatched("':'");
          return kNoExpr;
        }
        b_.SetIdOffset(entry_id, Take().start);
        if (optional && !options_.enable_optional_syntax) Report(opt_at, "unsupported syntax '?'");
        ExprIndex value = ParseExpr();
        if (failed_) return kNoExpr;
        depth = std::max({depth, Depth(key), Depth(value)});
        Entry en;
        en.id = entry_id;
        en.offset = b_.IdOffset(entry_id);
        en.key = key;
        en.value = value;
        en.optional = optional;
        entries.push_back(std::move(en));
        if (Cur().kind != TokenKind::kComma) break;
        Take();
      }
    }
    if (!Expect(TokenKind::kRBrace)) return kNoExpr;
    ExprIndex e = b_.NewMap(id, std::move(entries));
    SetDepth(e, false, {depth});
    return e;
  }

  ExprIndex ParseLiteral() {
    int32_t start = Cur().start;
    std::string sign;
    if (Cur().kind == TokenKind::kMinus) {
      Take();
      sign = "-";
    }
    const Token& t = Take();
    Constant c;
    switch (t.kind) {
      case TokenKind::kNumInt: {
        std::string_view text = t.text;
        int base = 10;
        if (text.substr(0, 2) == "0x") {
          base = 16;
          text.remove_prefix(2);
        }
        auto v = ParseIntLiteral(sign + std::string(text), base);
        if (!v) return ReportError(start, "invalid int literal");
        c.kind = ConstantKind::kInt;
        c.int_value = *v;
        break;
      }
      case TokenKind::kNumUint: {
        std::string_view text = std::string_view(t.text).substr(0, t.text.size() - 1);
        int base = 10;
        if (text.substr(0, 2) == "0x") {
          base = 16;
          text.remove_prefix(2);
        }
        auto v = ParseUintLiteral(text, base);
        if (!v) return ReportError(start, "invalid uint literal");
        c.kind = ConstantKind::kUint;
        c.uint_value = *v;
        break;
      }
      case TokenKind::kNumFloat: {
        auto v = ParseDoubleLiteral(sign + t.text);
        if (!v) return ReportError(start, "invalid double literal");
        c.kind = ConstantKind::kDouble;
        c.double_value = *v;
        break;
      }
      case TokenKind::kString:
      case TokenKind::kBytes: {
        bool bytes = t.kind == TokenKind::kBytes;
        std::string err = UnescapeLiteral(bytes ? std::string_view(t.text).substr(1) : t.text, bytes, c.string_value);
        if (!err.empty()) return ReportError(start, err);
        c.kind = bytes ? ConstantKind::kBytes : ConstantKind::kString;
        break;
      }
      case TokenKind::kTrue:
      case TokenKind::kFalse:
        c.kind = ConstantKind::kBool;
        c.bool_value = t.kind == TokenKind::kTrue;
        break;
      case TokenKind::kNull:
        c.kind = ConstantKind::kNull;
        break;
      default:
        SyntaxError(t, "mismatched input '" + t.text + "' expecting " + std::string(kExpectingPrimary));
        return kNoExpr;
    }
    return b_.NewConstant(b_.NextId(start), std::move(c));
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  const ParserOptions& options_;
  AstBuilder& b_;
  std::vector<ParseIssue>& issues_;
  bool failed_ = false;
  std::array<int, kRules> rule_depth_{};
};

std::vector<int32_t> LineStarts(const std::u32string& text) {
  std::vector<int32_t> starts{0};
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts.push_back(static_cast<int32_t>(i + 1));
  }
  return starts;
}

}  // namespace

ParseResult ParseWithIssues(std::string_view text, const ParserOptions& options) {
  ParseResult out;
  out.text = DecodeUtf8(text);
  out.source_info = SourceInfo(LineStarts(out.text));
  if (static_cast<int64_t>(out.text.size()) > options.expression_size_code_point_limit) {
    out.issues.push_back({-1, "expression code point size exceeds limit: size: " + std::to_string(out.text.size()) +
                                  ", limit " + std::to_string(options.expression_size_code_point_limit)});
    return out;
  }
  LexResult lexed = Lex(out.text);
  if (!lexed.errors.empty()) {
    for (const LexError& e : lexed.errors) out.issues.push_back({e.offset, "Syntax error: " + e.message});
    return out;
  }
  AstBuilder builder(options.enable_hidden_accumulator_name ? "@result" : "__result__");
  Parser parser(std::move(lexed.tokens), options, builder, out.issues);
  ExprIndex root = parser.ParseStart();
  if (!out.issues.empty() || root == kNoExpr) {
    if (out.issues.empty()) out.issues.push_back({-1, "parse failed"});
    return out;
  }
  ExprId max_id = builder.max_id();
  out.expr = ParsedExpr(builder.TakeNodes(), root, out.source_info, max_id);
  return out;
}

absl::StatusOr<ParsedExpr> Parse(std::string_view text, const ParserOptions& options) {
  ParseResult r = ParseWithIssues(text, options);
  if (!r.issues.empty()) return absl::InvalidArgumentError(FormatIssues(r));
  return std::move(r.expr);
}

std::string FormatIssues(const ParseResult& result) {
  std::string out;
  for (const ParseIssue& issue : result.issues) {
    if (!out.empty()) out += "\n";
    auto [line, col] = result.source_info.Location(issue.offset);
    out += "ERROR: <input>:" + std::to_string(line) + ":" + std::to_string(col < 0 ? 0 : col + 1) + ": " +
           issue.message;
    if (line < 1) continue;
    // The source line and a caret under the column, as cel-go prints them.
    size_t start = 0;
    int current = 1;
    for (size_t i = 0; i < result.text.size() && current < line; ++i) {
      if (result.text[i] == '\n') {
        ++current;
        start = i + 1;
      }
    }
    size_t end = result.text.find(U'\n', start);
    if (end == std::u32string::npos) end = result.text.size();
    out += "\n | " + EncodeUtf8(std::u32string_view(result.text).substr(start, end - start));
    out += "\n | " + std::string(static_cast<size_t>(col), '.') + "^";
  }
  return out;
}

}  // namespace schedkit::cel
