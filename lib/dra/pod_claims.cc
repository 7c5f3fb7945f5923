#include "dra/pod_claims.h"

#include "absl/status/status.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::dra {

absl::StatusOr<ClaimName> ResolveClaimName(const api::v1::Pod& pod, const api::v1::PodResourceClaim& entry) {
  const api::v1::ObjectMeta& meta = pod.metadata();
  if (entry.has_resource_claim_name()) return ClaimName{.name = entry.resource_claim_name()};
  if (entry.has_resource_claim_template_name()) {
    for (const api::v1::PodResourceClaimStatus& status : pod.status().resource_claim_statuses()) {
      if (status.name() != entry.name()) continue;
      ClaimName out;
      out.must_check_owner = true;
      if (status.has_resource_claim_name()) out.name = status.resource_claim_name();
      return out;
    }
    return absl::FailedPreconditionError(
        schedkit::StrCat("pod \"", meta.namespace_(), "/", meta.name(), "\": ResourceClaim not created yet"));
  }
  return absl::InvalidArgumentError(schedkit::StrCat("pod \"", meta.namespace_(), "/", meta.name(),
                                                     "\", spec.resourceClaim \"", entry.name(),
                                                     "\": none of the supported fields are set"));
}

std::optional<std::string> NotForPod(const api::v1::Pod& pod, const api::v1::ResourceClaim& claim) {
  const api::v1::ObjectMeta& p = pod.metadata();
  const api::v1::ObjectMeta& c = claim.metadata();
  if (c.namespace_() != p.namespace_()) {
    return schedkit::StrCat("ResourceClaim ", c.namespace_(), "/", c.name(), " is not in the same namespace as Pod ",
                            p.namespace_(), "/", p.name());
  }
  for (const api::v1::OwnerReference& owner : c.owner_references()) {
    // metav1.IsControlledBy: the controller reference, matched by uid.
    if (owner.controller() && owner.uid() == p.uid()) return std::nullopt;
  }
  return schedkit::StrCat("ResourceClaim ", c.namespace_(), "/", c.name(), " was not created for Pod ",
                          p.namespace_(), "/", p.name(), " (Pod is not owner)");
}

bool IsReservedForPod(const api::v1::Pod& pod, const api::v1::ResourceClaim& claim) {
  for (const api::v1::ResourceClaimConsumerReference& ref : claim.status().reserved_for()) {
    if (ref.uid() == pod.metadata().uid()) return true;
  }
  return false;
}

api::v1::ResourceClaimConsumerReference ConsumerReferenceOf(const api::v1::Pod& pod) {
  api::v1::ResourceClaimConsumerReference ref;
  ref.set_resource("pods");
  ref.set_name(pod.metadata().name());
  ref.set_uid(pod.metadata().uid());
  return ref;
}

std::string_view BaseRequestName(std::string_view request_ref) {
  return request_ref.substr(0, request_ref.find('/'));
}

}  // namespace schedkit::dra
