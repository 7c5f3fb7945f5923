// apps/v1 StatefulSet: the kind's message (v1/stateful_set.proto) and its traits.
// Code that reads the kind includes this header rather than the generated one.
#ifndef SCHEDKIT_API_V1_STATEFUL_SET_H_
#define SCHEDKIT_API_V1_STATEFUL_SET_H_

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/stateful_set.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::StatefulSet> {
  static constexpr KindName kName = {.group = "apps", .version = "v1", .kind = "StatefulSet",
                                     .resource = "statefulsets", .namespaced = true};
  static void ApplyDefaults(v1::StatefulSet& object);
  static absl::Status Validate(const v1::StatefulSet& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_STATEFUL_SET_H_
