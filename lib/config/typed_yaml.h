// Internal: YAML scalars typed the way kube-scheduler reads its configuration
// (sigs.k8s.io/yaml over go-yaml v2): `16` is a number, `true`/`yes`/`on` a
// boolean, `~` null, while quoted scalars stay strings. Plugin args are handed
// on as JSON text, so the difference between `10` and `"10"` must survive.
//
//   api::internal::ParseDocuments(text, "sched.yaml", {ResolvePlainScalar, true});
#ifndef SCHEDKIT_LIB_CONFIG_TYPED_YAML_H_
#define SCHEDKIT_LIB_CONFIG_TYPED_YAML_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace schedkit::config::internal {

// How go-yaml v2 resolves one plain (unquoted) scalar: null, boolean,
// integer (decimal, 0x, 0o, 0b, leading-0 octal, '_' separators), float,
// or else the text itself. An integral float such as `1e3` becomes an
// integer, as it would after a round trip through Go's JSON encoder.
nlohmann::json ResolvePlainScalar(std::string_view text);

}  // namespace schedkit::config::internal

#endif  // SCHEDKIT_LIB_CONFIG_TYPED_YAML_H_
