// Internal: how a pod refers to its ResourceClaims (k8s.io/dynamic-resource-
// allocation's resourceclaim package, v0.37): which claim object each
// spec.resourceClaims entry names, whether a claim was made for the pod,
// whether it is reserved for it, and the reference the pod writes into a
// claim's status.reservedFor. Pure functions; any thread.
#ifndef SCHEDKIT_LIB_DRA_POD_CLAIMS_H_
#define SCHEDKIT_LIB_DRA_POD_CLAIMS_H_

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/api/v1/resource_claim.h"

namespace schedkit::dra {

// What a spec.resourceClaims entry resolves to.
struct ClaimName {
  // The claim object's name; unset when the entry's template needs no claim
  // (the resource-claim controller recorded none in the pod's status).
  std::optional<std::string> name;
  // The claim came from a template: it must be owned by the pod.
  bool must_check_owner = false;
};

// The claim `entry` names: resourceClaimName, or for a template the name the
// pod's status.resourceClaimStatuses records. Fails with upstream's texts:
// `pod "<ns>/<name>": ResourceClaim not created yet` when the status has no
// entry yet, `pod "<ns>/<name>", spec.resourceClaim "<entry>": none of the
// supported fields are set` when the entry names neither.
absl::StatusOr<ClaimName> ResolveClaimName(const api::v1::Pod& pod, const api::v1::PodResourceClaim& entry);

// Why `claim` is not the pod's own (the same namespace, controlled by the
// pod), in upstream's words; nullopt when it is.
std::optional<std::string> NotForPod(const api::v1::Pod& pod, const api::v1::ResourceClaim& claim);

// Whether the claim's status.reservedFor names the pod (by uid).
bool IsReservedForPod(const api::v1::Pod& pod, const api::v1::ResourceClaim& claim);

// The reservedFor entry of the pod: {resource: pods, name, uid}.
api::v1::ResourceClaimConsumerReference ConsumerReferenceOf(const api::v1::Pod& pod);

// The request a result or config names: "<request>" of "<request>/<subrequest>".
std::string_view BaseRequestName(std::string_view request_ref);

}  // namespace schedkit::dra

#endif  // SCHEDKIT_LIB_DRA_POD_CLAIMS_H_
