// Internal: turns JSON or YAML text into nlohmann::json documents, the one
// place where nlohmann and yaml-cpp exceptions are caught. Used by the object
// decoder and by configuration loading.
#ifndef SCHEDKIT_LIB_API_JSON_DOCUMENTS_H_
#define SCHEDKIT_LIB_API_JSON_DOCUMENTS_H_

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace schedkit::api::internal {

// JSON when the first non-blank character is '{' or '[', YAML otherwise.
// YAML plain scalars become JSON strings holding their exact text (so "1.0"
// stays "1.0"); `~`, `null` and empty plain scalars become null. Consumers
// therefore accept numeric and boolean text where numbers or booleans are
// expected. Empty YAML documents are dropped. Errors give line and column.
absl::StatusOr<std::vector<nlohmann::json>> ParseDocuments(std::string_view text,
                                                           std::string_view source);

// Short description of a JSON value's type for error messages ("an object").
const char* DescribeType(const nlohmann::json& value);

}  // namespace schedkit::api::internal

#endif  // SCHEDKIT_LIB_API_JSON_DOCUMENTS_H_
