#include "sim/claim_store.h"

#include <cstdint>
#include <utility>

#include "absl/strings/numbers.h"
#include "sim/generate_name.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::sim {
namespace {

std::string Key(const api::v1::ResourceClaim& c) {
  return schedkit::StrCat(c.metadata().namespace_(), "/", c.metadata().name());
}

std::string NotFound(std::string_view name) {
  return schedkit::StrCat("resourceclaims.resource.k8s.io \"", name, "\" not found");
}

// The API server cuts a generateName to leave room for its five characters
// within 63.
constexpr size_t kMaxGenerateNameBase = 58;
// Collisions tried before giving up (the API server tries once and fails).
constexpr int kGenerateNameTries = 64;

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
    return absl::NotFoundError(NotFound(claim.metadata().name()));
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
  // The last finalizer of a deleted claim went: the deletion completes
  // (the caller sees deletionTimestamp without finalizers).
  if (!stored->metadata().deletion_timestamp().empty() && stored->metadata().finalizers().empty()) {
    claims_.erase(it);
  } else {
    it->second = stored;
  }
  return std::shared_ptr<const Claim>(std::move(stored));
}

absl::StatusOr<std::shared_ptr<const ClaimStore::Claim>> ClaimStore::Create(const Claim& claim) {
  auto stored = std::make_shared<Claim>(claim);
  api::v1::ObjectMeta& meta = *stored->mutable_metadata();
  stored->clear_status();
  std::lock_guard<std::mutex> lock(mu_);
  if (meta.name().empty()) {
    const std::string& generate = meta.generate_name();
    if (generate.empty()) return absl::InvalidArgumentError("resourceclaims: name or generateName is required");
    const std::string base = generate.substr(0, kMaxGenerateNameBase);
    const std::string seed = schedkit::StrCat(meta.namespace_(), "/", generate);
    for (int n = 0; n < kGenerateNameTries && meta.name().empty(); ++n) {
      std::string name = base + GenerateNameSuffix(seed, n);
      if (!claims_.contains(schedkit::StrCat(meta.namespace_(), "/", name))) meta.set_name(std::move(name));
    }
  }
  const std::string key = Key(*stored);
  if (meta.name().empty() || claims_.contains(key)) {
    return absl::AlreadyExistsError(
        schedkit::StrCat("resourceclaims.resource.k8s.io \"", meta.name(), "\" already exists"));
  }
  if (meta.uid().empty()) meta.set_uid(schedkit::StrCat("uid-", meta.namespace_(), "-", meta.name()));
  meta.set_resource_version("1");
  claims_[key] = stored;
  return std::shared_ptr<const Claim>(std::move(stored));
}

absl::StatusOr<ClaimStore::Deleted> ClaimStore::Delete(std::string_view namespace_name, std::string_view name,
                                                       std::string_view deletion_time) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = claims_.find(schedkit::StrCat(namespace_name, "/", name));
  if (it == claims_.end()) return absl::NotFoundError(NotFound(name));
  const Claim& held = *it->second;
  if (held.metadata().finalizers().empty()) {
    claims_.erase(it);
    return Deleted{};
  }
  if (!held.metadata().deletion_timestamp().empty()) return Deleted{it->second};
  auto marked = std::make_shared<Claim>(held);
  marked->mutable_metadata()->set_deletion_timestamp(std::string(deletion_time));
  int64_t version = 0;
  (void)absl::SimpleAtoi(held.metadata().resource_version(), &version);
  marked->mutable_metadata()->set_resource_version(schedkit::StrCat(version + 1));
  it->second = marked;
  return Deleted{std::move(marked)};
}

std::map<std::string, std::shared_ptr<const ClaimStore::Claim>> ClaimStore::All() const {
  std::lock_guard<std::mutex> lock(mu_);
  return claims_;
}

}  // namespace schedkit::sim
