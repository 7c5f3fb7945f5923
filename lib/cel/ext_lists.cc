// cel-go's ext.Lists at version 3 (ext/lists.go, v0.29.2): distinct, first,
// flatten, last, lists.range, reverse, slice, sort (sortBy's
// @sortByAssociatedKeys is in the standard registry), with the library's
// cost trackers.
#include <algorithm>
#include <vector>

#include "cel/library_support.h"

namespace schedkit::cel {
namespace lib {
namespace {

// ext.Lists' trackAllocatingListCall.
uint64_t AllocatingListCost(double factor, uint64_t size) {
  if (factor < 0) factor = 1;
  return static_cast<uint64_t>(static_cast<double>(size) * factor) + 1 + kListCreateBaseCost;
}
uint64_t CostOutputSize(Args, const Value& result) { return AllocatingListCost(1, ActualSize(result)); }
uint64_t CostFlatten(Args a, const Value&) {
  double depth = a.size() == 2 ? static_cast<double>(a[1].int_value()) : 1.0;
  return AllocatingListCost(depth, ActualSize(a[0]));
}
uint64_t SelfCompareCost(const Value& list) {
  const auto& e = list.list_elements();
  double factor = 2.0;
  if (e.empty()) return AllocatingListCost(factor, 0);
  if (e[0].kind() == ValueKind::kString || e[0].kind() == ValueKind::kBytes) factor += kStringTraversalCostFactor;
  return AllocatingListCost(factor, e.size() * e.size());
}
uint64_t CostSelfCompare(Args a, const Value&) { return SelfCompareCost(a[0]); }

Value Distinct(Args a) {
  const auto& e = a[0].list_elements();
  if (e.empty()) return a[0];
  std::vector<Value> out;
  for (const Value& v : e) {
    bool seen = false;
    for (const Value& u : out) {
      if (ValuesEqual(v, u)) {
        seen = true;
        break;
      }
    }
    if (!seen) out.push_back(v);
  }
  return Value::List(std::move(out));
}

Value First(Args a) {
  const auto& e = a[0].list_elements();
  return e.empty() ? Value::OptionalNone() : Value::OptionalOf(e.front());
}
Value Last(Args a) {
  const auto& e = a[0].list_elements();
  return e.empty() ? Value::OptionalNone() : Value::OptionalOf(e.back());
}

void FlattenInto(const Value& list, int64_t depth, std::vector<Value>& out) {
  for (const Value& v : list.list_elements()) {
    if (v.kind() != ValueKind::kList || depth == 0) {
      out.push_back(v);
    } else {
      FlattenInto(v, depth - 1, out);
    }
  }
}
Value Flatten(Args a) {
  int64_t depth = a.size() == 2 ? a[1].int_value() : 1;
  if (depth < 0) return Err("level must be non-negative");
  std::vector<Value> out;
  FlattenInto(a[0], depth, out);
  return Value::List(std::move(out));
}

// ext.Lists' default ListsMaxRangeSize.
constexpr int64_t kMaxRangeSize = 10000000;

Value Range(Args a) {
  int64_t n = a[0].int_value();
  if (n < 0) return Err("lists.range: size must be non-negative, got " + std::to_string(n));
  if (n > kMaxRangeSize) {
    return Err("lists.range: size " + std::to_string(n) + " exceeds maximum allowed (" +
               std::to_string(kMaxRangeSize) + ")");
  }
  std::vector<Value> out;
  out.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out.push_back(Value::Int(i));
  return Value::List(std::move(out));
}

Value Reverse(Args a) {
  std::vector<Value> out(a[0].list_elements().rbegin(), a[0].list_elements().rend());
  return Value::List(std::move(out));
}

Value Slice(Args a) {
  int64_t n = static_cast<int64_t>(a[0].list_elements().size());
  int64_t start = a[1].int_value(), end = a[2].int_value();
  std::string prefix = "cannot slice(" + std::to_string(start) + ", " + std::to_string(end) + "), ";
  if (start < 0 || end < 0) return Err(prefix + "negative indexes not supported");
  if (start > end) return Err(prefix + "start index must be less than or equal to end index");
  if (n < end) return Err(prefix + "list is length " + std::to_string(n));
  const auto& e = a[0].list_elements();
  return Value::List(std::vector<Value>(e.begin() + start, e.begin() + end));
}

// cel.OptionalTypes' optional.unwrap / unwrapOpt: the values of the
// optionals that have one.
Value Unwrap(Args a) {
  std::vector<Value> out;
  for (const Value& v : a[0].list_elements()) {
    if (v.kind() != ValueKind::kOptional) return NoSuchOverload();
    if (v.optional_has_value()) out.push_back(v.optional_value());
  }
  return Value::List(std::move(out));
}

}  // namespace

void RegisterListsExtension(FunctionRegistry& r) {
  AddOverload(r, "optional.unwrap", "optional_unwrap", {K::kList}, &Unwrap);
  AddOverload(r, "unwrapOpt", "optional_unwrapOpt", {K::kList}, &Unwrap);
  AddOverload(r, "distinct", "list_distinct", {K::kList}, &Distinct, &CostSelfCompare, {}, 0, /*panic_arg=*/0);
  AddOverload(r, "first", "list_first", {K::kList}, &First);
  AddOverload(r, "last", "list_last", {K::kList}, &Last);
  AddOverload(r, "flatten", "list_flatten", {K::kList}, &Flatten, &CostFlatten);
  AddOverload(r, "flatten", "list_flatten_int", {K::kList, K::kInt}, &Flatten, &CostFlatten);
  AddOverload(r, "lists.range", "lists_range", {K::kInt}, &Range, &CostOutputSize);
  AddOverload(r, "reverse", "list_reverse", {K::kList}, &Reverse, &CostOutputSize);
  AddOverload(r, "slice", "list_slice", {K::kList, K::kInt, K::kInt}, &Slice, &CostOutputSize);
}

// sort(): @sortByAssociatedKeys of the list with itself.
namespace {
Value Sort(Args a) {
  const FunctionRegistry& std_fns = StandardFunctions();
  const Function* f = std_fns.Find("@sortByAssociatedKeys");
  Value args[2] = {a[0], a[0]};
  return f->overloads[0].impl(std::span<const Value>(args, 2));
}
}  // namespace

void RegisterListSort(FunctionRegistry& r) { AddOverload(r, "sort", "list_sort", {K::kList}, &Sort, &CostSelfCompare, {}, 0, /*panic_arg=*/0);
}

}  // namespace lib
}  // namespace schedkit::cel
