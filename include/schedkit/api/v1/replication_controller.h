// core/v1 ReplicationController: the kind's message (v1/replication_controller.proto) and its traits.
// Code that reads the kind includes this header rather than the generated one.
#ifndef SCHEDKIT_API_V1_REPLICATION_CONTROLLER_H_
#define SCHEDKIT_API_V1_REPLICATION_CONTROLLER_H_

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/replication_controller.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::ReplicationController> {
  static constexpr KindName kName = {.group = "", .version = "v1", .kind = "ReplicationController",
                                     .resource = "replicationcontrollers", .namespaced = true};
  static void ApplyDefaults(v1::ReplicationController& object);
  static absl::Status Validate(const v1::ReplicationController& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_REPLICATION_CONTROLLER_H_
