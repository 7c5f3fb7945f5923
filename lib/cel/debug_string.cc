#include "cel/debug_string.h"

#include "cel/literals.h"

namespace schedkit::cel {
namespace {

class DebugWriter {
 public:
  DebugWriter(const ParsedExpr& expr, DebugAdorner adorner) : expr_(expr), adorner_(adorner) {}

  void Buffer(ExprIndex i) {
    if (i == kNoExpr) return;
    const Expr& e = expr_.node(i);
    switch (e.kind) {
      case ExprKind::kConstant:
        Append(FormatConstant(e.constant));
        break;
      case ExprKind::kIdent:
        Append(e.name);
        break;
      case ExprKind::kSelect:
        Buffer(e.operand);
        Append(".");
        Append(e.name);
        if (e.test_only) Append("~test-only~");
        break;
      case ExprKind::kCall:
        AppendCall(e);
        break;
      case ExprKind::kList:
        AppendList(e);
        break;
      case ExprKind::kMap:
      case ExprKind::kStruct:
        AppendEntries(e);
        break;
      case ExprKind::kComprehension:
        AppendComprehension(e);
        break;
      case ExprKind::kUnspecified:
        break;
    }
    Adorn(e);
  }

  std::string Take() { return std::move(out_); }

 private:
  static std::string FormatConstant(const Constant& c) {
    switch (c.kind) {
      case ConstantKind::kNull: return "null";
      case ConstantKind::kBool: return c.bool_value ? "true" : "false";
      case ConstantKind::kInt: return std::to_string(c.int_value);
      case ConstantKind::kUint: return std::to_string(c.uint_value) + "u";
      case ConstantKind::kDouble: return FormatDoubleGo(c.double_value);
      case ConstantKind::kString: return QuoteGo(c.string_value);
      case ConstantKind::kBytes: return "b" + QuoteGo(c.string_value);
    }
    return "";
  }

  static const char* KindName(const Expr& e) {
    switch (e.kind) {
      case ExprKind::kCall: return "*expr.Expr_CallExpr";
      case ExprKind::kComprehension: return "*expr.Expr_ComprehensionExpr";
      case ExprKind::kIdent: return "*expr.Expr_IdentExpr";
      case ExprKind::kList: return "*expr.Expr_ListExpr";
      case ExprKind::kMap:
      case ExprKind::kStruct: return "*expr.Expr_StructExpr";
      case ExprKind::kSelect: return "*expr.Expr_SelectExpr";
      case ExprKind::kConstant:
        switch (e.constant.kind) {
          case ConstantKind::kBool: return "*expr.Constant_BoolValue";
          case ConstantKind::kBytes: return "*expr.Constant_BytesValue";
          case ConstantKind::kDouble: return "*expr.Constant_DoubleValue";
          case ConstantKind::kInt: return "*expr.Constant_Int64Value";
          case ConstantKind::kNull: return "*expr.Constant_NullValue";
          case ConstantKind::kString: return "*expr.Constant_StringValue";
          case ConstantKind::kUint: return "*expr.Constant_Uint64Value";
        }
        return "";
      case ExprKind::kUnspecified: return "";
    }
    return "";
  }

  void Adorn(const Expr& e) {
    if (adorner_ == DebugAdorner::kKindAndId) {
      Append("^#" + std::to_string(e.id) + ":" + KindName(e) + "#");
    }
  }
  void AdornEntry(const Entry& en) {
    if (adorner_ == DebugAdorner::kKindAndId) {
      Append("^#" + std::to_string(en.id) + ":*expr.Expr_CreateStruct_Entry#");
    }
  }

  void AppendCall(const Expr& e) {
    if (e.operand != kNoExpr) {
      Buffer(e.operand);
      Append(".");
    }
    Append(e.name);
    Append("(");
    if (!e.args.empty()) {
      ++indent_;
      Newline();
      for (size_t i = 0; i < e.args.size(); ++i) {
        if (i > 0) {
          Append(",");
          Newline();
        }
        Buffer(e.args[i]);
      }
      --indent_;
      Newline();
    }
    Append(")");
  }

  void AppendList(const Expr& e) {
    Append("[");
    if (!e.args.empty()) {
      Newline();
      ++indent_;
      for (size_t i = 0; i < e.args.size(); ++i) {
        if (i > 0) {
          Append(",");
          Newline();
        }
        Buffer(e.args[i]);
      }
      --indent_;
      Newline();
    }
    Append("]");
  }

  void AppendEntries(const Expr& e) {
    if (e.kind == ExprKind::kStruct) Append(e.name);
    Append("{");
    if (!e.entries.empty()) {
      Newline();
      ++indent_;
      for (size_t i = 0; i < e.entries.size(); ++i) {
        const Entry& en = e.entries[i];
        if (i > 0) {
          Append(",");
          Newline();
        }
        if (en.optional) Append("?");
        if (e.kind == ExprKind::kStruct) {
          Append(en.field);
        } else {
          Buffer(en.key);
        }
        Append(":");
        Buffer(en.value);
        AdornEntry(en);
      }
      --indent_;
      Newline();
    }
    Append("}");
  }

  void AppendComprehension(const Expr& e) {
    Append("__comprehension__(");
    ++indent_;
    Newline();
    Append("// Variable");
    Newline();
    Append(e.iter_var);
    Append(",");
    Newline();
    if (!e.iter_var2.empty()) {
      Append(e.iter_var2);
      Append(",");
      Newline();
    }
    Section("// Target", e.iter_range, true);
    Append("// Accumulator");
    Newline();
    Append(e.accu_var);
    Append(",");
    Newline();
    Section("// Init", e.accu_init, true);
    Section("// LoopCondition", e.loop_condition, true);
    Section("// LoopStep", e.loop_step, true);
    Section("// Result", e.result, false);
    Append(")");
    --indent_;
  }

  void Section(const char* title, ExprIndex child, bool comma) {
    Append(title);
    Newline();
    Buffer(child);
    if (comma) {
      Append(",");
      Newline();
    }
  }

  void Append(const std::string& s) {
    if (line_start_) {
      line_start_ = false;
      out_.append(static_cast<size_t>(indent_) * 2, ' ');
    }
    out_ += s;
  }
  void Newline() {
    out_ += "\n";
    line_start_ = true;
  }

  const ParsedExpr& expr_;
  DebugAdorner adorner_;
  std::string out_;
  int indent_ = 0;
  bool line_start_ = true;
};

}  // namespace

std::string ToDebugString(const ParsedExpr& expr, DebugAdorner adorner) {
  DebugWriter w(expr, adorner);
  w.Buffer(expr.root_index());
  return w.Take();
}

}  // namespace schedkit::cel
