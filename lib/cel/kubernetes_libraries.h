// The Kubernetes CEL libraries at run time, as k8s.io/apiserver v0.37.2's base
// environment enables them at compatibility version 1.37 (pkg/cel/environment/
// base.go), with the cel-go v0.29.2 extensions it enables (ext.Strings v2,
// ext.Sets, ext.Lists v3; ext.TwoVarComprehensions' function is in the
// standard registry). One file per library:
//
//   kubernetes_quantity.cc  quantity(), isQuantity, sign, compareTo, add, ...
//   kubernetes_semver.cc    semver(), isSemver (with normalize), major, ...
//   kubernetes_ip.cc        ip(), isIP, ip.isCanonical, family, isLoopback, ...
//   kubernetes_cidr.cc      cidr(), isCIDR, containsIP, containsCIDR, masked, ...
//   kubernetes_url.cc       url(), isURL, getScheme, getHost, getQuery, ...
//   kubernetes_regex.cc     find, findAll
//   kubernetes_lists.cc     isSorted, sum, min, max, indexOf, lastIndexOf (list)
//   kubernetes_format.cc    format.named, format.dns1123Label, ..., validate
//   kubernetes_authz.cc     the authorizer functions (no receiver value exists
//                           in DRA's environment: they answer no such overload)
//   ext_strings.cc          charAt, indexOf, lastIndexOf, lowerAscii, replace,
//                           split, substring, trim, upperAscii, join,
//                           strings.quote, format
//   ext_lists.cc            distinct, first, flatten, last, lists.range,
//                           reverse, slice, sort, @sortByAssociatedKeys
//   ext_sets.cc             sets.contains, sets.equivalent, sets.intersects
//
// Runtime costs are what cel-go's CostTracker charges with Kubernetes'
// library.CostEstimator installed: an extension's overload tracker first,
// then Kubernetes' CallCost by function name, then cel-go's defaults.
//
//   FunctionRegistry reg;
//   RegisterStandardFunctions(reg);
//   RegisterKubernetesLibraries(reg);
//
// Values of the library types are immutable host objects, safe to share
// between threads.
#ifndef SCHEDKIT_CEL_KUBERNETES_LIBRARIES_H_
#define SCHEDKIT_CEL_KUBERNETES_LIBRARIES_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "cel/function_registry.h"
#include "cel/value.h"

namespace schedkit::cel {

// Registers every library above into `registry` (which should already hold
// the standard functions).
void RegisterKubernetesLibraries(FunctionRegistry& registry);

// The standard functions plus the Kubernetes libraries, shared, read-only.
const FunctionRegistry& KubernetesFunctions();

// resource.ParseQuantity: a kubernetes.Quantity value, or upstream's error
// text ("quantities must match the regular expression ...").
absl::StatusOr<Value> ParseQuantity(std::string_view text);

// blang/semver's strict Parse: a kubernetes.Semver value, or its error text
// ("No Major.Minor.Patch elements found", ...).
absl::StatusOr<Value> ParseSemver(std::string_view text);

// cel-go's "no such overload: <function>(<arg types>)" for calls whose
// arguments match no overload of a library function.
Value NoMatchingOverload(std::string_view function, std::span<const Value> args);

// cel-go's actual size of a value (traits.Sizer: strings in code points,
// bytes, lists, maps), 1 for anything else.
uint64_t ActualSize(const Value& v);

}  // namespace schedkit::cel

#endif  // SCHEDKIT_CEL_KUBERNETES_LIBRARIES_H_
