// Internal: an API object as the scheduler takes it, from the API's JSON:
// decoded, defaulted and checked as objects from files are.
#ifndef SCHEDKIT_LIB_KUBE_DECODE_OBJECT_H_
#define SCHEDKIT_LIB_KUBE_DECODE_OBJECT_H_

#include <memory>
#include <utility>

#include "absl/status/statusor.h"
#include "api/proto_json.h"
#include "api/validate.h"
#include "nlohmann/json.hpp"
#include "schedkit/api/status_macros.h"

namespace schedkit::kube::internal {

template <typename T>
absl::StatusOr<std::shared_ptr<const T>> DecodeObject(const nlohmann::json& object,
                                                      absl::Status (*validate)(const T&)) {
  auto message = std::make_shared<T>();
  SCHEDKIT_RETURN_IF_ERROR(api::internal::JsonToMessage(object, *message));
  if constexpr (requires { api::internal::ApplyDefaults(*message); }) api::internal::ApplyDefaults(*message);
  SCHEDKIT_RETURN_IF_ERROR(validate(*message));
  return std::shared_ptr<const T>(std::move(message));
}

}  // namespace schedkit::kube::internal

#endif  // SCHEDKIT_LIB_KUBE_DECODE_OBJECT_H_
