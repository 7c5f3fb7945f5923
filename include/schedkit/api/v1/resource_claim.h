// resource.k8s.io/v1 ResourceClaim (the devices a pod asks for and, once allocated, the devices it got): the kind's
// message (v1/resource_claim.proto) and its traits. Code that reads the kind includes this header rather than the
// generated one.
#ifndef SCHEDKIT_API_V1_RESOURCE_CLAIM_H_
#define SCHEDKIT_API_V1_RESOURCE_CLAIM_H_

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/resource_claim.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::ResourceClaim> {
  static constexpr KindName kName = {.group = "resource.k8s.io", .version = "v1", .kind = "ResourceClaim",
                                     .resource = "resourceclaims", .namespaced = true};
  // The API server's defaults: a request's allocationMode ExactCount and then
  // count 1, a toleration's operator Equal.
  static void ApplyDefaults(v1::ResourceClaim& object);
  static absl::Status Validate(const v1::ResourceClaim& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_RESOURCE_CLAIM_H_
