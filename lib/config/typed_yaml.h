// Internal: a YAML configuration document as JSON with its plain scalars
// typed the way kube-scheduler reads YAML (sigs.k8s.io/yaml over go-yaml v2):
// `16` is a number, `true`/`yes`/`on` a boolean, `~` null, while quoted
// scalars stay strings. api::internal::ParseDocuments keeps every scalar as
// text, which loses the difference between `10` and `"10"`; plugin args are
// handed on as JSON text, so that difference has to survive here.
//
//   SCHEDKIT_ASSIGN_OR_RETURN(nlohmann::json doc, TypedYamlDocument(text, "sched.yaml"));
#ifndef SCHEDKIT_LIB_CONFIG_TYPED_YAML_H_
#define SCHEDKIT_LIB_CONFIG_TYPED_YAML_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace schedkit::config::internal {

// The first non-empty document of `text` (null when there is none). Expects
// text that api::internal::ParseDocuments has already accepted, which reports
// syntax errors; this adds an error for a repeated mapping key. Errors start
// with `source`.
absl::StatusOr<nlohmann::json> TypedYamlDocument(std::string_view text, std::string_view source);

// How go-yaml v2 resolves one plain (unquoted) scalar: null, boolean,
// integer (decimal, 0x, 0o, 0b, leading-0 octal, '_' separators), float,
// or else the text itself. An integral float such as `1e3` becomes an
// integer, as it would after a round trip through Go's JSON encoder.
nlohmann::json ResolvePlainScalar(std::string_view text);

}  // namespace schedkit::config::internal

#endif  // SCHEDKIT_LIB_CONFIG_TYPED_YAML_H_
