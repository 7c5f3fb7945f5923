// Internal to lib/cel: what the library files (kubernetes_*.cc, ext_*.cc)
// share: registering an overload in one line, cel-go's cost arithmetic, the
// "no such overload" forms, and access to the library object types.
#ifndef SCHEDKIT_CEL_LIBRARY_SUPPORT_H_
#define SCHEDKIT_CEL_LIBRARY_SUPPORT_H_

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cel/function_registry.h"
#include "cel/kubernetes_libraries.h"
#include "cel/value.h"

namespace schedkit::cel::lib {

using Args = std::span<const Value>;
using K = ValueKind;

// cel-go's common cost factors.
inline constexpr double kStringTraversalCostFactor = 0.1;
inline constexpr double kRegexStringLengthCostFactor = 0.25;
inline constexpr uint64_t kListCreateBaseCost = 10;
inline constexpr uint64_t kStructCreateBaseCost = 40;

// The object type names, as cel-go reports them.
inline constexpr std::string_view kQuantityType = "kubernetes.Quantity";
inline constexpr std::string_view kSemverType = "kubernetes.Semver";
inline constexpr std::string_view kIPType = "net.IP";
inline constexpr std::string_view kCIDRType = "net.CIDR";
inline constexpr std::string_view kURLType = "kubernetes.URL";
inline constexpr std::string_view kFormatType = "kubernetes.NamedFormat";

// ceil(size * factor), as cel-go's cost functions compute it.
inline uint64_t CeilCost(double size, double factor) { return static_cast<uint64_t>(std::ceil(size * factor)); }
inline uint64_t StringTraversal(const Value& v) {
  return CeilCost(static_cast<double>(ActualSize(v)), kStringTraversalCostFactor);
}

// Adds an overload; object_types name the object type of kObject positions.
inline void AddOverload(FunctionRegistry& r, std::string_view fn, std::string id, std::vector<ValueKind> kinds,
                        FunctionImpl impl, CostFunction cost = nullptr,
                        std::vector<std::string_view> object_types = {}, uint64_t error_cost = 0,
                        int panic_arg = -1) {
  (void)r.Add(fn, Overload{.id = std::move(id),
                           .arg_kinds = std::move(kinds),
                           .impl = impl,
                           .cost = cost,
                           .object_types = std::move(object_types),
                           .error_cost = error_cost,
                           .panic_arg = panic_arg});
}

// Whether v is an object of the given type.
inline bool IsObject(const Value& v, std::string_view type) {
  return v.kind() == ValueKind::kObject && v.object().TypeName() == type;
}

// The object behind v, as its concrete class (the caller checked IsObject).
template <typename T>
const T& As(const Value& v) {
  return static_cast<const T&>(v.object());
}

Value Err(std::string message);

}  // namespace schedkit::cel::lib
namespace schedkit::cel {
// cel-go's traits.Comparer and Compare (standard_functions.cc): -1/0/1, or
// an error value in *err ("no such overload", NaN).
bool IsComparable(const Value& v);
int CompareValues(const Value& a, const Value& b, Value* err);
}  // namespace schedkit::cel
namespace schedkit::cel::lib {  // an error of ErrorKind::kInvalidArgument

uint64_t Cost1(Args, const Value&);                   // 1
uint64_t CostArg0Traversal(Args a, const Value&);     // ceil(size(a0) * 0.1)
// Kubernetes' traversalCost (truncating, strings by bytes, lists summed).
uint64_t KubernetesTraversalCost(const Value& v);

// Registration of each library file.
void RegisterQuantityLibrary(FunctionRegistry& r);
void RegisterSemverLibrary(FunctionRegistry& r);
void RegisterIPLibrary(FunctionRegistry& r);
void RegisterCIDRLibrary(FunctionRegistry& r);
void RegisterURLLibrary(FunctionRegistry& r);
void RegisterRegexLibrary(FunctionRegistry& r);
void RegisterKubernetesListsLibrary(FunctionRegistry& r);
void RegisterFormatLibrary(FunctionRegistry& r);
void RegisterAuthzLibrary(FunctionRegistry& r);
void RegisterStringsExtension(FunctionRegistry& r);
void RegisterListsExtension(FunctionRegistry& r);
void RegisterSetsExtension(FunctionRegistry& r);

// The IP value, shared by the IP and CIDR libraries: netip.Addr without
// zone (4 or 16 bytes).
struct IPAddr {
  bool is4 = false;
  uint8_t bytes[16] = {};
  int BitLen() const { return is4 ? 32 : 128; }
  bool operator==(const IPAddr& o) const;
};
// netip.ParseAddr plus Kubernetes' checks (no zone, no IPv4-mapped IPv6), with
// upstream's error texts.
bool ParseIPAddr(std::string_view s, IPAddr* out, std::string* error);
std::string IPAddrString(const IPAddr& a);
Value IPValue(const IPAddr& a);
const IPAddr& IPOf(const Value& v);  // v is a net.IP

}  // namespace schedkit::cel::lib

#endif  // SCHEDKIT_CEL_LIBRARY_SUPPORT_H_
