#include "cel/ast_builder.h"

#include <utility>

namespace schedkit::cel {

std::pair<int, int> SourceInfo::Location(int32_t offset) const {
  if (offset < 0) return {-1, -1};
  // The last line start at or before offset.
  size_t lo = 0;
  size_t hi = line_starts_.size();
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (line_starts_[mid] <= offset) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return {static_cast<int>(lo) + 1, static_cast<int>(offset - line_starts_[lo])};
}

ExprId AstBuilder::NextId(int32_t offset) {
  ExprId id = next_id_++;
  if (id_offsets_.size() <= static_cast<size_t>(id)) id_offsets_.resize(static_cast<size_t>(id) + 1, -1);
  id_offsets_[static_cast<size_t>(id)] = offset;
  return id;
}

void AstBuilder::SetIdOffset(ExprId id, int32_t offset) {
  if (id > 0 && static_cast<size_t>(id) < id_offsets_.size()) id_offsets_[static_cast<size_t>(id)] = offset;
}

int32_t AstBuilder::IdOffset(ExprId id) const {
  if (id <= 0 || static_cast<size_t>(id) >= id_offsets_.size()) return -1;
  return id_offsets_[static_cast<size_t>(id)];
}

void AstBuilder::DeleteId(ExprId id) {
  if (id == next_id_ - 1) --next_id_;
}

ExprIndex AstBuilder::Add(ExprId id, ExprKind kind) {
  Expr e;
  e.id = id;
  e.offset = IdOffset(id);
  e.kind = kind;
  nodes_.push_back(std::move(e));
  visit_depth_.push_back(0);
  return static_cast<ExprIndex>(nodes_.size() - 1);
}

ExprIndex AstBuilder::NewUnspecified(ExprId id) { return Add(id, ExprKind::kUnspecified); }

ExprIndex AstBuilder::NewConstant(ExprId id, Constant c) {
  ExprIndex i = Add(id, ExprKind::kConstant);
  node(i).constant = std::move(c);
  return i;
}

ExprIndex AstBuilder::NewBool(ExprId id, bool v) {
  Constant c;
  c.kind = ConstantKind::kBool;
  c.bool_value = v;
  return NewConstant(id, std::move(c));
}

ExprIndex AstBuilder::NewInt(ExprId id, int64_t v) {
  Constant c;
  c.kind = ConstantKind::kInt;
  c.int_value = v;
  return NewConstant(id, std::move(c));
}

ExprIndex AstBuilder::NewString(ExprId id, std::string v) {
  Constant c;
  c.kind = ConstantKind::kString;
  c.string_value = std::move(v);
  return NewConstant(id, std::move(c));
}

ExprIndex AstBuilder::NewIdent(ExprId id, std::string name) {
  ExprIndex i = Add(id, ExprKind::kIdent);
  node(i).name = std::move(name);
  return i;
}

ExprIndex AstBuilder::NewSelect(ExprId id, ExprIndex operand, std::string field, bool test_only) {
  ExprIndex i = Add(id, ExprKind::kSelect);
  Expr& e = node(i);
  e.operand = operand;
  e.name = std::move(field);
  e.test_only = test_only;
  return i;
}

ExprIndex AstBuilder::NewCall(ExprId id, std::string function, std::vector<ExprIndex> args) {
  ExprIndex i = Add(id, ExprKind::kCall);
  Expr& e = node(i);
  e.name = std::move(function);
  e.args = std::move(args);
  return i;
}

ExprIndex AstBuilder::NewMemberCall(ExprId id, std::string function, ExprIndex target,
                                    std::vector<ExprIndex> args) {
  ExprIndex i = NewCall(id, std::move(function), std::move(args));
  node(i).operand = target;
  return i;
}

ExprIndex AstBuilder::NewList(ExprId id, std::vector<ExprIndex> elements, std::vector<int32_t> optional_indices) {
  ExprIndex i = Add(id, ExprKind::kList);
  Expr& e = node(i);
  e.args = std::move(elements);
  e.optional_indices = std::move(optional_indices);
  return i;
}

ExprIndex AstBuilder::NewMap(ExprId id, std::vector<Entry> entries) {
  ExprIndex i = Add(id, ExprKind::kMap);
  node(i).entries = std::move(entries);
  return i;
}

ExprIndex AstBuilder::NewStruct(ExprId id, std::string type_name, std::vector<Entry> fields) {
  ExprIndex i = Add(id, ExprKind::kStruct);
  Expr& e = node(i);
  e.name = std::move(type_name);
  e.entries = std::move(fields);
  return i;
}

ExprIndex AstBuilder::NewComprehension(ExprId id, ExprIndex iter_range, std::string iter_var,
                                       std::string iter_var2, std::string accu_var, ExprIndex accu_init,
                                       ExprIndex condition, ExprIndex step, ExprIndex result) {
  ExprIndex i = Add(id, ExprKind::kComprehension);
  Expr& e = node(i);
  e.iter_range = iter_range;
  e.iter_var = std::move(iter_var);
  e.iter_var2 = std::move(iter_var2);
  e.accu_var = std::move(accu_var);
  e.accu_init = accu_init;
  e.loop_condition = condition;
  e.loop_step = step;
  e.result = result;
  return i;
}

// Pre-order ids, as cel-go's exprHelper.Copy: the copy's id first, then its
// children's; map and struct entries take macro ids.
ExprIndex AstBuilder::Copy(ExprIndex src) {
  if (src == kNoExpr) return kNoExpr;
  ExprId id = NextId(IdOffset(node(src).id));
  Expr copy = node(src);  // copies names and constants; children fixed below
  switch (copy.kind) {
    case ExprKind::kSelect:
      copy.operand = Copy(copy.operand);
      break;
    case ExprKind::kCall: {
      std::vector<ExprIndex> args;
      for (ExprIndex a : copy.args) args.push_back(Copy(a));
      copy.args = std::move(args);
      if (copy.operand != kNoExpr) copy.operand = Copy(copy.operand);
      break;
    }
    case ExprKind::kList: {
      std::vector<ExprIndex> args;
      for (ExprIndex a : copy.args) args.push_back(Copy(a));
      copy.args = std::move(args);
      break;
    }
    case ExprKind::kMap:
    case ExprKind::kStruct:
      for (Entry& en : copy.entries) {
        en.id = NextMacroId();
        en.offset = IdOffset(en.id);
        if (copy.kind == ExprKind::kMap) en.key = Copy(en.key);
        en.value = Copy(en.value);
      }
      break;
    case ExprKind::kComprehension:
      copy.iter_range = Copy(copy.iter_range);
      copy.accu_init = Copy(copy.accu_init);
      copy.loop_condition = Copy(copy.loop_condition);
      copy.loop_step = Copy(copy.loop_step);
      copy.result = Copy(copy.result);
      break;
    default:
      break;
  }
  copy.id = id;
  copy.offset = IdOffset(id);
  nodes_.push_back(std::move(copy));
  visit_depth_.push_back(0);
  return static_cast<ExprIndex>(nodes_.size() - 1);
}

}  // namespace schedkit::cel
