// resource.k8s.io/v1 ResourceClaimTemplate (what the resource-claim controller makes one claim per pod from): the kind's
// message (v1/resource_claim_template.proto) and its traits. Code that reads the kind includes this header rather than the
// generated one.
#ifndef SCHEDKIT_API_V1_RESOURCE_CLAIM_TEMPLATE_H_
#define SCHEDKIT_API_V1_RESOURCE_CLAIM_TEMPLATE_H_

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/resource_claim_template.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::ResourceClaimTemplate> {
  static constexpr KindName kName = {.group = "resource.k8s.io", .version = "v1", .kind = "ResourceClaimTemplate",
                                     .resource = "resourceclaimtemplates", .namespaced = true};
  // The API server's defaults: a request's allocationMode ExactCount and then
  // count 1, a toleration's operator Equal.
  static void ApplyDefaults(v1::ResourceClaimTemplate& object);
  // kube-controller-manager's resource-claim controller reads templates, not
  // the scheduler: files carry them for the simulator, which plays that
  // controller; schedkit-kube does not watch them.
  static constexpr bool kSchedulerReads = false;
  static absl::Status Validate(const v1::ResourceClaimTemplate& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_RESOURCE_CLAIM_TEMPLATE_H_
