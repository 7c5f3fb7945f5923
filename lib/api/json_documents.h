// Internal: turns JSON or YAML text into nlohmann::json documents, the one
// place where nlohmann and yaml-cpp exceptions are caught. Used by the object
// decoder and by configuration loading.
#ifndef SCHEDKIT_LIB_API_JSON_DOCUMENTS_H_
#define SCHEDKIT_LIB_API_JSON_DOCUMENTS_H_

#include <functional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace schedkit::api::internal {

// How YAML scalars become JSON values.
struct YamlScalars {
  // Resolves a plain (unquoted) scalar, or one tagged !!null/!!bool/!!int/
  // !!float. Unset: the scalar's exact text as a JSON string (so "1.0" stays
  // "1.0"), with `~`, `null` and empty becoming null — consumers then accept
  // numeric and boolean text where numbers or booleans are expected.
  std::function<nlohmann::json(std::string_view)> plain;
  // Reject a mapping key that appears twice (strict decoding).
  bool reject_duplicate_keys = false;
};

// JSON when the first non-blank character is '{' or '[', YAML otherwise.
// Quoted YAML scalars are always strings. Empty YAML documents are dropped.
// Errors give line and column.
absl::StatusOr<std::vector<nlohmann::json>> ParseDocuments(std::string_view text, std::string_view source,
                                                           const YamlScalars& yaml = {});

// Short description of a JSON value's type for error messages ("an object").
const char* DescribeType(const nlohmann::json& value);

}  // namespace schedkit::api::internal

#endif  // SCHEDKIT_LIB_API_JSON_DOCUMENTS_H_
