// The abstract syntax tree of a parsed CEL expression, shaped as cel-go's
// common/ast: constants, identifiers, selects (with has()'s test-only flag),
// calls (operators are calls to cel-go's function names such as "_+_",
// "_[_]", "_?._"), list/map/struct literals (with optional entries) and
// comprehensions (with an optional second iteration variable).
//
//   absl::StatusOr<ParsedExpr> parsed = Parse("device.driver == 'x'");
//   const Expr& root = parsed->root();
//
// Nodes live in one vector owned by ParsedExpr and refer to each other by
// index, so walking a tree allocates nothing and a ParsedExpr moves cheaply.
// Every node keeps cel-go's expression id (the ids the parser hands out in
// cel-go's order, so debug strings compare with upstream's) and the code
// point offset of its start in the source, for error positions.
// A ParsedExpr is immutable once built; concurrent readers are safe.
#ifndef SCHEDKIT_CEL_AST_H_
#define SCHEDKIT_CEL_AST_H_

#include <cstdint>
#include <string>
#include <vector>

namespace schedkit::cel {

// cel-go's expression id: unique within one ParsedExpr, starting at 1.
using ExprId = int64_t;
// Position of a node in ParsedExpr::nodes().
using ExprIndex = int32_t;
inline constexpr ExprIndex kNoExpr = -1;

enum class ConstantKind : uint8_t { kNull, kBool, kInt, kUint, kDouble, kString, kBytes };

struct Constant {
  ConstantKind kind = ConstantKind::kNull;
  bool bool_value = false;
  int64_t int_value = 0;
  uint64_t uint_value = 0;
  double double_value = 0;
  std::string string_value;  // kString (UTF-8) and kBytes (raw bytes)
};

enum class ExprKind : uint8_t {
  kUnspecified,  // placeholder left where a syntax error was reported
  kConstant,
  kIdent,
  kSelect,
  kCall,
  kList,
  kMap,
  kStruct,
  kComprehension,
};

// One entry of a map literal ({k: v}) or a struct literal (T{f: v}).
struct Entry {
  ExprId id = 0;
  int32_t offset = -1;
  ExprIndex key = kNoExpr;  // map entries
  std::string field;        // struct entries
  ExprIndex value = kNoExpr;
  bool optional = false;  // {?k: v}: the entry is set only when v has a value
};

struct Expr {
  ExprId id = 0;
  int32_t offset = -1;  // code point offset of the node in the source
  ExprKind kind = ExprKind::kUnspecified;

  // kSelect: has(a.b) turns a select into a presence test.
  bool test_only = false;
  Constant constant;  // kConstant
  // kIdent: the name (may start with '.'); kSelect: the field; kCall: the
  // function; kStruct: the message type name.
  std::string name;
  // kSelect: the operand; kCall: the receiver of a member call, or kNoExpr.
  ExprIndex operand = kNoExpr;
  // kCall: the arguments; kList: the elements.
  std::vector<ExprIndex> args;
  // kList: indices into args of [?x] elements, ascending.
  std::vector<int32_t> optional_indices;
  // kMap and kStruct.
  std::vector<Entry> entries;

  // kComprehension, as cel-go's: iterate iter_range binding iter_var (and
  // iter_var2 for two-variable comprehensions), starting the accumulator
  // accu_var at accu_init, stepping while loop_condition holds, then result.
  std::string iter_var;
  std::string iter_var2;  // empty for one-variable comprehensions
  std::string accu_var;
  ExprIndex iter_range = kNoExpr;
  ExprIndex accu_init = kNoExpr;
  ExprIndex loop_condition = kNoExpr;
  ExprIndex loop_step = kNoExpr;
  ExprIndex result = kNoExpr;

  bool is_member_call() const { return kind == ExprKind::kCall && operand != kNoExpr; }
};

// Maps code point offsets to 1-based lines and 0-based columns, as cel-go's
// SourceInfo does.
class SourceInfo {
 public:
  SourceInfo() = default;
  // line_starts: code point offset of the start of each line; the first is 0.
  explicit SourceInfo(std::vector<int32_t> line_starts) : line_starts_(std::move(line_starts)) {}

  // Line (1-based) and column (0-based) of an offset; {-1, -1} when unknown.
  std::pair<int, int> Location(int32_t offset) const;

 private:
  std::vector<int32_t> line_starts_{0};
};

class ParsedExpr {
 public:
  ParsedExpr() = default;
  ParsedExpr(std::vector<Expr> nodes, ExprIndex root, SourceInfo source_info, ExprId max_id)
      : nodes_(std::move(nodes)), root_(root), source_info_(std::move(source_info)), max_id_(max_id) {}

  const std::vector<Expr>& nodes() const { return nodes_; }
  const Expr& node(ExprIndex i) const { return nodes_[static_cast<size_t>(i)]; }
  ExprIndex root_index() const { return root_; }
  const Expr& root() const { return node(root_); }
  const SourceInfo& source_info() const { return source_info_; }
  // The largest expression id handed out; a checker sizes per-id tables by it.
  ExprId max_id() const { return max_id_; }

 private:
  std::vector<Expr> nodes_;
  ExprIndex root_ = kNoExpr;
  SourceInfo source_info_;
  ExprId max_id_ = 0;
};

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_AST_H_
