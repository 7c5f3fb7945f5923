// core/v1 Namespace: the kind's message (v1/namespace.proto) and its traits.
// Code that reads the kind includes this header rather than the generated one.
#ifndef SCHEDKIT_API_V1_NAMESPACE_H_
#define SCHEDKIT_API_V1_NAMESPACE_H_

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/namespace.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::Namespace> {
  static constexpr KindName kName = {.group = "", .version = "v1", .kind = "Namespace",
                                     .resource = "namespaces", .namespaced = false};
  static absl::Status Validate(const v1::Namespace& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_NAMESPACE_H_
