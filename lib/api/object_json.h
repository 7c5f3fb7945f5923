// Internal: one API object of a known kind from its JSON (as files, dumps and
// the API server give it) and back: decoded, defaulted and checked as the
// kind's traits say, so every way in takes objects alike.
#ifndef SCHEDKIT_LIB_API_OBJECT_JSON_H_
#define SCHEDKIT_LIB_API_OBJECT_JSON_H_

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "schedkit/api/kind.h"
#include "schedkit/api/object_set.h"

namespace schedkit::api::internal {

// Errors read "<field.path>: <problem>", the path relative to the object.
absl::StatusOr<AnyObject> DecodeObjectJson(const Kind& kind, const nlohmann::json& object);

// The object's set fields, with apiVersion and kind filled in when unset.
nlohmann::json EncodeObjectJson(const Kind& kind, const google::protobuf::Message& object);

}  // namespace schedkit::api::internal

#endif  // SCHEDKIT_LIB_API_OBJECT_JSON_H_
