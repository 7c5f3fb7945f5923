// Kubernetes' lists library at version 1 (k8s.io/apiserver pkg/cel/library/
// lists.go, v0.37.2): isSorted, sum, min, max, indexOf, lastIndexOf,
// includes. Comparisons that fail (mixed types, NaN) are ignored, as
// upstream ignores a Compare that is not 1 or -1. Kubernetes' CallCost
// charges one traversal of the list.
#include "cel/library_support.h"
#include "cel/numeric.h"

namespace schedkit::cel {
namespace lib {
namespace {

int Cmp(const Value& a, const Value& b, bool* ok) {
  Value err;
  int c = CompareValues(a, b, &err);
  *ok = !err.is_error();
  return c;
}

Value IsSorted(Args a) {
  const auto& e = a[0].list_elements();
  for (size_t i = 0; i < e.size(); ++i) {
    if (!IsComparable(e[i])) return NoSuchOverload();
    bool ok;
    if (i > 0 && Cmp(e[i - 1], e[i], &ok) == 1 && ok) return Value::Bool(false);
  }
  return Value::Bool(true);
}

template <bool kMin>
Value Extreme(Args a) {
  const auto& e = a[0].list_elements();
  const Value* result = nullptr;
  for (const Value& v : e) {
    if (!IsComparable(v)) return NoSuchOverload();
    if (result == nullptr) {
      result = &v;
      continue;
    }
    bool ok;
    int c = Cmp(*result, v, &ok);
    if (ok && c == (kMin ? 1 : -1)) result = &v;
  }
  if (result == nullptr) return Err(std::string(kMin ? "min" : "max") + " called on empty list");
  return *result;
}

// The sum's start is the zero of the element type (the checker picks the
// overload; here the first element tells).
Value Sum(Args a) {
  const auto& e = a[0].list_elements();
  Value acc = Value::Int(0);
  if (!e.empty()) {
    switch (e[0].kind()) {
      case ValueKind::kUint: acc = Value::Uint(0); break;
      case ValueKind::kDouble: acc = Value::Double(0); break;
      case ValueKind::kDuration: acc = Value::Duration(0); break;
      default: break;
    }
  }
  const Function* add = StandardFunctions().Find("_+_");
  for (const Value& v : e) {
    Value args[2] = {acc, v};
    std::span<const Value> s(args, 2);
    const Overload* o = add->Resolve(s);
    if (o == nullptr) return NoSuchOverload();
    acc = o->impl(s);
    if (acc.is_error()) return acc;
  }
  return acc;
}

Value IndexOf(Args a) {
  const auto& e = a[0].list_elements();
  for (size_t i = 0; i < e.size(); ++i) {
    if (ValuesEqual(e[i], a[1])) return Value::Int(static_cast<int64_t>(i));
  }
  return Value::Int(-1);
}
Value LastIndexOf(Args a) {
  const auto& e = a[0].list_elements();
  for (size_t i = e.size(); i > 0; --i) {
    if (ValuesEqual(e[i - 1], a[1])) return Value::Int(static_cast<int64_t>(i - 1));
  }
  return Value::Int(-1);
}
Value Includes(Args a) {
  if (a[0].kind() == ValueKind::kList) {
    for (const Value& v : a[0].list_elements()) {
      if (ValuesEqual(v, a[1])) return Value::Bool(true);
    }
    return Value::Bool(false);
  }
  return Value::Bool(ValuesEqual(a[0], a[1]));
}

uint64_t CostTraversal(Args a, const Value&) { return KubernetesTraversalCost(a[0]); }

}  // namespace

void RegisterListSort(FunctionRegistry& r);

void RegisterKubernetesListsLibrary(FunctionRegistry& r) {
  AddOverload(r, "isSorted", "list_is_sorted_bool", {K::kList}, &IsSorted, &CostTraversal);
  AddOverload(r, "sum", "list_sum", {K::kList}, &Sum, &CostTraversal);
  AddOverload(r, "min", "list_min", {K::kList}, &Extreme<true>, &CostTraversal);
  AddOverload(r, "max", "list_max", {K::kList}, &Extreme<false>, &CostTraversal);
  AddOverload(r, "indexOf", "list_a_index_of_int", {K::kList, K::kAny}, &IndexOf, &CostTraversal);
  AddOverload(r, "lastIndexOf", "list_a_last_index_of_int", {K::kList, K::kAny}, &LastIndexOf, &CostTraversal);
  AddOverload(r, "includes", "list_includes_dyn_dyn", {K::kAny, K::kAny}, &Includes, &CostTraversal);
  RegisterListSort(r);
}

}  // namespace lib
}  // namespace schedkit::cel
