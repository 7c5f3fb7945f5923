#include "api/object_json.h"

#include <memory>
#include <utility>

#include "api/proto_json.h"
#include "schedkit/base/status_macros.h"

namespace schedkit::api::internal {

absl::StatusOr<AnyObject> DecodeObjectJson(const Kind& kind, const nlohmann::json& object) {
  std::unique_ptr<google::protobuf::Message> message = kind.New();
  SCHEDKIT_RETURN_IF_ERROR(JsonToMessage(object, *message));
  kind.ApplyDefaults(*message);
  SCHEDKIT_RETURN_IF_ERROR(kind.Validate(*message));
  return AnyObject(std::move(message));
}

nlohmann::json EncodeObjectJson(const Kind& kind, const google::protobuf::Message& object) {
  nlohmann::json item = MessageToJson(object);
  if (!item.contains("apiVersion")) item["apiVersion"] = kind.api_version();
  if (!item.contains("kind")) item["kind"] = kind.kind();
  return item;
}

}  // namespace schedkit::api::internal
