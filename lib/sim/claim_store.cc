#include "sim/claim_store.h"

#include <cstdint>
#include <utility>

#include "absl/strings/numbers.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::sim {
namespace {

std::string Key(const api::v1::ResourceClaim& c) {
  return schedkit::StrCat(c.metadata().namespace_(), "/", c.metadata().name());
}

}  // namespace

ClaimStore::ClaimStore(api::ObjectSet& cluster) {
  for (api::v1::ResourceClaim* claim : cluster.MutableAll<api::v1::ResourceClaim>()) {
    if (claim->metadata().resource_version().empty()) claim->mutable_metadata()->set_resource_version("1");
    claims_[Key(*claim)] = std::make_shared<const Claim>(*claim);
  }
}

absl::StatusOr<std::shared_ptr<const ClaimStore::Claim>> ClaimStore::Update(const Claim& claim) {
  return Write(claim, /*status=*/false);
}

absl::StatusOr<std::shared_ptr<const ClaimStore::Claim>> ClaimStore::UpdateStatus(const Claim& claim) {
  return Write(claim, /*status=*/true);
}

absl::StatusOr<std::shared_ptr<const ClaimStore::Claim>> ClaimStore::Write(const Claim& claim, bool status) {
  const std::string key = Key(claim);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = claims_.find(key);
  if (it == claims_.end()) {
    return absl::NotFoundError(
        schedkit::StrCat("resourceclaims.resource.k8s.io \"", claim.metadata().name(), "\" not found"));
  }
  const Claim& held = *it->second;
  const std::string& wanted = claim.metadata().resource_version();
  if (!wanted.empty() && wanted != held.metadata().resource_version()) {
    return absl::AbortedError(schedkit::StrCat(
        "Operation cannot be fulfilled on resourceclaims.resource.k8s.io \"", claim.metadata().name(),
        "\": the object has been modified; please apply your changes to the latest version and try again"));
  }
  auto stored = std::make_shared<Claim>(held);
  if (status) {
    *stored->mutable_status() = claim.status();
  } else {
    *stored->mutable_metadata() = claim.metadata();
    *stored->mutable_spec() = claim.spec();
  }
  int64_t version = 0;
  (void)absl::SimpleAtoi(held.metadata().resource_version(), &version);
  stored->mutable_metadata()->set_resource_version(schedkit::StrCat(version + 1));
  it->second = stored;
  return std::shared_ptr<const Claim>(std::move(stored));
}

std::map<std::string, std::shared_ptr<const ClaimStore::Claim>> ClaimStore::All() const {
  std::lock_guard<std::mutex> lock(mu_);
  return claims_;
}

}  // namespace schedkit::sim
