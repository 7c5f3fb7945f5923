// core/v1 Pod: the kind's message (v1/pod.proto) and its traits.
// Code that reads the kind includes this header rather than the generated one.
#ifndef SCHEDKIT_API_V1_POD_H_
#define SCHEDKIT_API_V1_POD_H_

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/pod.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::Pod> {
  static constexpr KindName kName = {.group = "", .version = "v1", .kind = "Pod",
                                     .resource = "pods", .namespaced = true};
  static void ApplyDefaults(v1::Pod& object);
  static absl::Status Validate(const v1::Pod& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_POD_H_
