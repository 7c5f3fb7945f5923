// DynamicResources' part of DRAExtendedResource: the claim that holds the
// devices of a pod's extended resources backed by DRA, from PreFilter, where
// it is made in memory, to PreBind, where it is created, and Unreserve and
// PostFilter, where a failed attempt's claim is deleted.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "plugins/dynamicresources/cycle.h"
#include "plugins/dynamicresources/dynamic_resources.h"
#include "schedkit/api/v1/device_class.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/framework/resource.h"

namespace schedkit::plugins {
namespace {

using dynamicresources::ClaimEntry;
using dynamicresources::kConflictBackoff;
using dynamicresources::kConflictRetries;
using dynamicresources::kFinalizer;
using dynamicresources::Unresolvable;
using dynamicresources::Cycle;
using dynamicresources::KObj;
using framework::Status;

// How long PreBind waits for the scheduler to hear of the claim it created
// (upstream polls its assume cache every second for two minutes).
constexpr absl::Duration kAssumeTimeout = absl::Seconds(120);

std::string PodKey(const framework::PodInfo& pod) {
  return schedkit::StrCat(pod.pod().metadata().namespace_(), "/", pod.pod().metadata().name());
}

// Whether `claim` is the extended-resource claim an earlier attempt made for
// `pod`: annotated so, and controlled by the pod.
bool IsExtendedClaimOf(const api::v1::ResourceClaim& claim, const api::v1::Pod& pod) {
  const auto& annotations = claim.metadata().annotations();
  auto it = annotations.find(std::string(dynamicresources::kExtendedResourceClaimAnnotation));
  if (it == annotations.end() || it->second != "true") return false;
  for (const api::v1::OwnerReference& owner : claim.metadata().owner_references()) {
    if (owner.name() == pod.metadata().name() && owner.controller() && owner.uid() == pod.metadata().uid()) {
      return true;
    }
  }
  return false;
}

// The node's allocatable amount of `name`, and whether it lists it at all.
std::pair<int64_t, bool> Allocatable(const framework::NodeInfo& node, Symbol name) {
  for (const framework::Resource::Scalar& s : node.allocatable().scalars) {
    if (s.name == name) return {s.amount, true};
  }
  return {0, false};
}

}  // namespace

bool DynamicResources::OutcomesArePerNodeFor(const framework::PodInfo& pod) const {
  if (!pod.pod().spec().resource_claims().empty()) return false;
  // Extended resources a class may stand for get a claim per node.
  for (const framework::Resource::Scalar& s : pod.spec_requests().scalars) {
    if (s.amount != 0 && framework::IsDraExtendedResourceName(s.name.str())) return false;
  }
  return true;
}

std::shared_ptr<const api::v1::ResourceClaim> DynamicResources::PreFilterExtendedResources(
    const framework::PodInfo& pod, Cycle& cycle) const {
  const framework::Resource& requests = pod.spec_requests();
  auto asks = [](const framework::Resource::Scalar& s) {
    return s.amount != 0 && framework::IsDraExtendedResourceName(s.name.str());
  };
  if (std::none_of(requests.scalars.begin(), requests.scalars.end(), asks)) return nullptr;
  dynamicresources::ExtendedResources extended{
      dra::ExtendedResourceClasses(handle_.objects().List<api::v1::DeviceClass>()), {}};
  const bool backed = std::any_of(requests.scalars.begin(), requests.scalars.end(), [&](const auto& s) {
    return asks(s) && extended.classes.Find(s.name.str()) != nullptr;
  });
  if (!backed) return nullptr;
  for (const framework::Resource::Scalar& s : requests.scalars) {
    if (!asks(s)) continue;
    extended.requests.push_back({s.name, s.amount, extended.classes.Find(s.name.str()) != nullptr});
  }
  cycle.extended = std::move(extended);

  // A claim an earlier attempt created: Filter turns it down and PostFilter
  // deletes it, rather than guess whether its allocation still holds.
  const api::v1::Pod& p = pod.pod();
  for (const auto& claim : handle_.objects().List<api::v1::ResourceClaim>(p.metadata().namespace_())) {
    if (!IsExtendedClaimOf(*claim, p)) continue;
    std::shared_ptr<const api::v1::ResourceClaim> latest =
        tracker_->Get(claim->metadata().namespace_(), claim->metadata().name());
    return latest != nullptr ? latest : claim;
  }
  // One claim for all of them, with a temporary uid for the in-flight
  // bookkeeping; the API server names it when PreBind creates it.
  auto claim = std::make_shared<api::v1::ResourceClaim>();
  api::v1::ObjectMeta& meta = *claim->mutable_metadata();
  meta.set_namespace_(p.metadata().namespace_());
  meta.set_name(std::string(dynamicresources::kInMemoryClaimName));
  meta.set_uid(schedkit::StrCat("extended-resources-", p.metadata().uid(), "-", in_memory_claims_.fetch_add(1)));
  meta.set_generate_name(schedkit::StrCat(p.metadata().name(), "-extended-resources-"));
  api::v1::OwnerReference& owner = *meta.add_owner_references();
  owner.set_api_version("v1");
  owner.set_kind("Pod");
  owner.set_name(p.metadata().name());
  owner.set_uid(p.metadata().uid());
  owner.set_controller(true);
  (*meta.mutable_annotations())[std::string(dynamicresources::kExtendedResourceClaimAnnotation)] = "true";
  return claim;
}

Status DynamicResources::FilterExtendedResources(const Cycle& cycle, const framework::PodInfo& pod,
                                                 const framework::NodeInfo& node,
                                                 dynamicresources::NodeAllocation& out) const {
  const ClaimEntry* entry = cycle.extended_claim();
  if (entry == nullptr) return Status();
  const api::v1::ResourceClaim& claim = *entry->claim;
  // From an earlier attempt: PostFilter deletes it and the pod starts anew.
  if (claim.spec().devices().requests_size() > 0) return Unresolvable("cannot schedule extended resource claim");

  std::vector<std::string> from_dra;
  for (const dynamicresources::ExtendedResources::Request& r : cycle.extended->requests) {
    const auto [allocatable, listed] = Allocatable(node, r.name);
    if (r.backed && allocatable == 0) {
      from_dra.emplace_back(r.name.str());
    } else if (!listed) {
      // Neither a device plugin nor a class provides it here.
      return Unresolvable("cannot fit resource");
    }
  }
  // Every extended resource comes from the node's allocatable, which
  // NodeResourcesFit checks; the pod's other claims still need a look.
  if (cycle.num_user_claims == 0 && from_dra.empty()) return Status();
  if (claim.status().has_allocation()) return Status();

  auto variant = std::make_shared<api::v1::ResourceClaim>(claim);
  dra::ExtendedResourceRequests requests = dra::ExtendedResourceRequestsFor(pod.pod(), from_dra, cycle.extended->classes);
  for (api::v1::DeviceRequest& r : requests.requests) {
    *variant->mutable_spec()->mutable_devices()->add_requests() = std::move(r);
  }
  out.extended_claim = std::move(variant);
  out.mappings = std::move(requests.mappings);
  return Status();
}

absl::StatusOr<std::shared_ptr<const api::v1::ResourceClaim>> DynamicResources::CreateExtendedClaim(
    Cycle& cycle, const framework::PodInfo& /*pod*/, Symbol node) const {
  std::shared_ptr<const api::v1::ResourceClaim> variant;
  {
    absl::MutexLock lock(&cycle.mu);
    auto it = cycle.node_allocations.find(node);
    if (it != cycle.node_allocations.end()) variant = it->second.extended_claim;
  }
  if (variant == nullptr) {
    return absl::InternalError(schedkit::StrCat("extended resource claim not found for node ", node.str()));
  }
  api::v1::ResourceClaim claim = *variant;
  // What the API server sets itself.
  claim.mutable_status()->clear_allocation();
  claim.mutable_metadata()->clear_name();
  claim.mutable_metadata()->clear_uid();
  framework::ClusterClient* client = handle_.client();
  if (client == nullptr) return absl::FailedPreconditionError("no cluster client to create ResourceClaims through");
  absl::StatusOr<std::shared_ptr<const api::v1::ResourceClaim>> created = client->Create(claim);
  if (!created.ok()) {
    return absl::Status(created.status().code(), schedkit::StrCat("create claim for extended resources ", KObj(claim),
                                                                  ": ", created.status().message()));
  }
  return created;
}

absl::Status DynamicResources::WriteExtendedClaimStatus(Cycle& cycle, const framework::PodInfo& pod,
                                                        const api::v1::ResourceClaim& claim, Symbol node) const {
  std::vector<dra::ExtendedResourceMapping> mappings;
  {
    absl::MutexLock lock(&cycle.mu);
    auto it = cycle.node_allocations.find(node);
    if (it != cycle.node_allocations.end()) mappings = it->second.mappings;
  }
  if (mappings.empty()) {
    return absl::InternalError(schedkit::StrCat("nil or empty request mappings, no update of pod ", PodKey(pod),
                                                " ExtendedResourceClaimStatus"));
  }
  api::v1::Pod updated = pod.pod();
  api::v1::PodExtendedResourceClaimStatus& status = *updated.mutable_status()->mutable_extended_resource_claim_status();
  status.Clear();
  for (const dra::ExtendedResourceMapping& m : mappings) {
    api::v1::ContainerExtendedResourceRequest& r = *status.add_request_mappings();
    r.set_container_name(m.container);
    r.set_resource_name(m.resource);
    r.set_request_name(m.request);
  }
  status.set_resource_claim_name(claim.metadata().name());
  framework::ClusterClient* client = handle_.client();
  if (client == nullptr) return absl::FailedPreconditionError("no cluster client to update pods through");
  if (absl::StatusOr<std::shared_ptr<const api::v1::Pod>> stored = client->UpdateStatus(updated); !stored.ok()) {
    return absl::Status(stored.status().code(), schedkit::StrCat("update pod ", PodKey(pod),
                                                                 " ExtendedResourceClaimStatus: ",
                                                                 stored.status().message()));
  }
  return absl::OkStatus();
}

void DynamicResources::AssumeCreatedClaim(std::shared_ptr<const api::v1::ResourceClaim> claim) const {
  // The watch may not have brought the created claim yet: wait for it (a
  // claim the scheduler never hears of is left to its informer).
  const absl::Time deadline = absl::Now() + kAssumeTimeout;
  const api::ObjectLister& objects = handle_.objects();
  for (;;) {
    const uint64_t generation = objects.Generation();
    absl::Status s = tracker_->Assume(claim);
    if (!absl::IsNotFound(s)) return;
    if (absl::Now() >= deadline) return;
    if (!objects.WaitForChange(generation, deadline).ok()) return;
  }
}

absl::Status DynamicResources::DeleteClaim(const api::v1::ResourceClaim& claim) const {
  framework::ClusterClient* client = handle_.client();
  if (client == nullptr) return absl::FailedPreconditionError("no cluster client to delete ResourceClaims through");
  std::shared_ptr<const api::v1::ResourceClaim> current = std::make_shared<api::v1::ResourceClaim>(claim);
  absl::Status last;
  for (int attempt = 0; attempt < kConflictRetries; ++attempt) {
    if (attempt > 0) {
      absl::SleepFor(kConflictBackoff);
      current = tracker_->Get(claim.metadata().namespace_(), claim.metadata().name());
      if (current == nullptr) {
        return absl::NotFoundError(schedkit::StrCat("get resourceclaim ", KObj(claim),
                                                    ": resourceclaims.resource.k8s.io \"", claim.metadata().name(),
                                                    "\" not found"));
      }
    }
    // The finalizer goes first, so that the deletion is not blocked.
    api::v1::ResourceClaim updated = *current;
    auto* finalizers = updated.mutable_metadata()->mutable_finalizers();
    if (auto it = std::find(finalizers->begin(), finalizers->end(), kFinalizer); it != finalizers->end()) {
      finalizers->erase(it);
    }
    absl::StatusOr<std::shared_ptr<const api::v1::ResourceClaim>> stored = client->Update(updated);
    if (stored.ok()) {
      last = absl::OkStatus();
      break;
    }
    last = absl::Status(stored.status().code(),
                        schedkit::StrCat("update resourceclaim ", KObj(claim), ": ", stored.status().message()));
    if (!absl::IsAborted(stored.status())) break;
  }
  if (!last.ok()) return last;
  absl::Status deleted = client->Delete<api::v1::ResourceClaim>(claim.metadata().namespace_(), claim.metadata().name());
  if (!deleted.ok() && !absl::IsNotFound(deleted)) return deleted;
  return absl::OkStatus();
}

void DynamicResources::UnreserveExtendedClaim(Cycle& cycle) const {
  ClaimEntry* entry = cycle.extended_claim();
  if (entry == nullptr) return;
  const api::v1::ResourceClaim& claim = *entry->claim;
  // The allocation is no longer in flight: the claim goes back to what the
  // scheduler holds.
  if (tracker_->MaybeRemovePendingAllocation(cycle.initial_extended_uid, /*force=*/false)) {
    tracker_->Restore(claim.metadata().namespace_(), claim.metadata().name());
  }
  if (claim.metadata().name() == dynamicresources::kInMemoryClaimName) return;
  // PreBind created it: delete it, so that no claim is left holding devices.
  // A failure is left for PostFilter of the next attempt.
  (void)DeleteClaim(claim);
}

}  // namespace schedkit::plugins
