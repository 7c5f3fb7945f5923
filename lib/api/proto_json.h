// Internal: fills a protobuf message from a nlohmann::json value by field JSON
// name (and back), with errors that carry the field path. Unknown fields are ignored and
// null means "unset", as in protobuf's JSON mapping; unlike it, scalars given
// as text (YAML) are accepted where numbers or booleans are expected, and
// numbers are accepted for string fields (Kubernetes IntOrString).
#ifndef SCHEDKIT_LIB_API_PROTO_JSON_H_
#define SCHEDKIT_LIB_API_PROTO_JSON_H_

#include <string>

#include "absl/status/status.h"
#include "google/protobuf/message.h"
#include "nlohmann/json.hpp"

namespace schedkit::api::internal {

// On error, the message is "<path>: <problem>", path relative to `json`.
// With `reject_unknown_fields`, a key that is not a field's JSON name is
// "<path>: unknown field" (strict decoding, as of plugin args).
absl::Status JsonToMessage(const nlohmann::json& json, google::protobuf::Message& message,
                           bool reject_unknown_fields = false);

// The inverse, by field JSON name: set fields only, int64 as JSON numbers
// (as Kubernetes writes them, unlike protobuf's JSON mapping), so that
// JsonToMessage(MessageToJson(m)) gives back m.
nlohmann::json MessageToJson(const google::protobuf::Message& message);

}  // namespace schedkit::api::internal

#endif  // SCHEDKIT_LIB_API_PROTO_JSON_H_
