// core/v1 Service: the kind's message (v1/service.proto) and its traits.
// Code that reads the kind includes this header rather than the generated one.
#ifndef SCHEDKIT_API_V1_SERVICE_H_
#define SCHEDKIT_API_V1_SERVICE_H_

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/service.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::Service> {
  static constexpr KindName kName = {.group = "", .version = "v1", .kind = "Service",
                                     .resource = "services", .namespaced = true};
  static absl::Status Validate(const v1::Service& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_SERVICE_H_
