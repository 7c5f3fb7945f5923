// cel-go's ext.Sets (ext/sets.go, v0.29.2): sets.contains, sets.equivalent,
// sets.intersects over lists, with the library's cost trackers.
#include "cel/library_support.h"

namespace schedkit::cel {
namespace lib {
namespace {

// cel-go's baseList.Contains: equal by types.Equal; an error from an element
// comparison is reported only when nothing matched.
bool ListContains(const Value& list, const Value& v) {
  for (const Value& e : list.list_elements()) {
    if (ValuesEqual(e, v)) return true;
  }
  return false;
}

bool SetsContains(const Value& list, const Value& sub) {
  for (const Value& v : sub.list_elements()) {
    if (!ListContains(list, v)) return false;
  }
  return true;
}

Value Contains(Args a) { return Value::Bool(SetsContains(a[0], a[1])); }
Value Equivalent(Args a) { return Value::Bool(SetsContains(a[0], a[1]) && SetsContains(a[1], a[0])); }
Value Intersects(Args a) {
  for (const Value& v : a[0].list_elements()) {
    if (ListContains(a[1], v)) return Value::Bool(true);
  }
  return Value::Bool(false);
}

template <int kFactor>
uint64_t SetsCost(Args a, const Value&) {
  return 1 + static_cast<uint64_t>(static_cast<double>(ActualSize(a[0]) * ActualSize(a[1])) * kFactor);
}

}  // namespace

void RegisterSetsExtension(FunctionRegistry& r) {
  AddOverload(r, "sets.contains", "list_sets_contains_list", {K::kList, K::kList}, &Contains, &SetsCost<1>);
  AddOverload(r, "sets.equivalent", "list_sets_equivalent_list", {K::kList, K::kList}, &Equivalent, &SetsCost<2>);
  AddOverload(r, "sets.intersects", "list_sets_intersects_list", {K::kList, K::kList}, &Intersects, &SetsCost<1>);
}

}  // namespace lib
}  // namespace schedkit::cel
