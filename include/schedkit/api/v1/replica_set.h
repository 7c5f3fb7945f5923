// apps/v1 ReplicaSet: the kind's message (v1/replica_set.proto) and its traits.
// Code that reads the kind includes this header rather than the generated one.
#ifndef SCHEDKIT_API_V1_REPLICA_SET_H_
#define SCHEDKIT_API_V1_REPLICA_SET_H_

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/replica_set.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::ReplicaSet> {
  static constexpr KindName kName = {.group = "apps", .version = "v1", .kind = "ReplicaSet",
                                     .resource = "replicasets", .namespaced = true};
  static void ApplyDefaults(v1::ReplicaSet& object);
  static absl::Status Validate(const v1::ReplicaSet& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_REPLICA_SET_H_
