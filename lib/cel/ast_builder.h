// AstBuilder: how the parser and the macro expanders make nodes. It hands out
// expression ids in the order cel-go's parser helper does (ids are what
// upstream's debug strings show), remembers each id's source offset, and
// deep-copies subtrees for macros that repeat an argument (optMap, sortBy).
//
// Internal to lib/cel; one builder per parse, not shared between threads.
#ifndef SCHEDKIT_CEL_AST_BUILDER_H_
#define SCHEDKIT_CEL_AST_BUILDER_H_

#include <string>
#include <string_view>
#include <vector>

#include "cel/ast.h"

namespace schedkit::cel {

class AstBuilder {
 public:
  explicit AstBuilder(std::string accu_name) : accu_name_(std::move(accu_name)) {}

  // A fresh id located at a code point offset (-1: unknown for now).
  ExprId NextId(int32_t offset);
  void SetIdOffset(ExprId id, int32_t offset);
  int32_t IdOffset(ExprId id) const;
  // Forgets an id; reuses it when it was the last one handed out, as cel-go.
  void DeleteId(ExprId id);
  ExprId max_id() const { return next_id_ - 1; }

  ExprIndex NewUnspecified(ExprId id);
  ExprIndex NewConstant(ExprId id, Constant c);
  ExprIndex NewBool(ExprId id, bool v);
  ExprIndex NewInt(ExprId id, int64_t v);
  ExprIndex NewString(ExprId id, std::string v);
  ExprIndex NewIdent(ExprId id, std::string name);
  ExprIndex NewSelect(ExprId id, ExprIndex operand, std::string field, bool test_only = false);
  ExprIndex NewCall(ExprId id, std::string function, std::vector<ExprIndex> args);
  ExprIndex NewMemberCall(ExprId id, std::string function, ExprIndex target, std::vector<ExprIndex> args);
  ExprIndex NewList(ExprId id, std::vector<ExprIndex> elements, std::vector<int32_t> optional_indices = {});
  ExprIndex NewMap(ExprId id, std::vector<Entry> entries);
  ExprIndex NewStruct(ExprId id, std::string type_name, std::vector<Entry> fields);
  ExprIndex NewComprehension(ExprId id, ExprIndex iter_range, std::string iter_var, std::string iter_var2,
                             std::string accu_var, ExprIndex accu_init, ExprIndex condition, ExprIndex step,
                             ExprIndex result);

  // Macro expansion: ids of new nodes are located where the macro call was.
  void BeginMacro(ExprId call_id) { macro_call_id_ = call_id; }
  ExprId NextMacroId() { return NextId(IdOffset(macro_call_id_)); }
  ExprIndex Copy(ExprIndex e);
  const std::string& accu_name() const { return accu_name_; }

  Expr& node(ExprIndex i) { return nodes_[static_cast<size_t>(i)]; }
  const Expr& node(ExprIndex i) const { return nodes_[static_cast<size_t>(i)]; }

  // The parser's count of nested visits (cel-go's "max recursion depth").
  int visit_depth(ExprIndex i) const { return i < 0 ? 0 : visit_depth_[static_cast<size_t>(i)]; }
  void set_visit_depth(ExprIndex i, int d) {
    if (i >= 0) visit_depth_[static_cast<size_t>(i)] = d;
  }

  std::vector<Expr> TakeNodes() { return std::move(nodes_); }

 private:
  ExprIndex Add(ExprId id, ExprKind kind);

  std::string accu_name_;
  std::vector<Expr> nodes_;
  std::vector<int> visit_depth_;
  std::vector<int32_t> id_offsets_{-1};  // by id; id 0 is never used
  ExprId next_id_ = 1;
  ExprId macro_call_id_ = 0;
};

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_AST_BUILDER_H_
