// DynamicResources' binding side: Reserve marks the chosen node's
// allocations in flight, Unreserve takes them back, PreBind writes them.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/random/random.h"
#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "dra/pod_claims.h"
#include "plugins/dynamicresources/binding_conditions.h"
#include "plugins/dynamicresources/cycle.h"
#include "plugins/dynamicresources/dynamic_resources.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::plugins {
namespace {

using dynamicresources::ClaimEntry;
using dynamicresources::kConflictBackoff;
using dynamicresources::kConflictRetries;
using dynamicresources::kFinalizer;
using dynamicresources::Cycle;
using dynamicresources::CycleOf;
using dynamicresources::KObj;
using dynamicresources::StateNotFound;
using framework::Status;

// How often PreBind looks at the binding conditions at least (upstream
// polls every 5s; a change to the claims wakes it earlier here).
constexpr absl::Duration kBindingPoll = absl::Seconds(5);





bool HasFinalizer(const api::v1::ResourceClaim& claim) {
  const auto& f = claim.metadata().finalizers();
  return std::find(f.begin(), f.end(), kFinalizer) != f.end();
}

std::string NowRfc3339() { return absl::FormatTime(absl::RFC3339_sec, absl::Now(), absl::UTCTimeZone()); }

}  // namespace

Status DynamicResources::Reserve(framework::CycleState& state, const framework::PodInfo& /*pod*/, Symbol node) {
  Cycle* cycle = CycleOf(state);
  if (cycle == nullptr) return StateNotFound();
  if (cycle->empty()) return Status();

  size_t to_allocate = 0;
  bool user_claims_to_allocate = false;
  for (int i = 0; i < static_cast<int>(cycle->claims.size()); ++i) {
    if (cycle->claims[i].allocated()) continue;
    ++to_allocate;
    user_claims_to_allocate = user_claims_to_allocate || !cycle->is_extended(i);
  }
  // Allocated claims get reserved in PreBind; nothing to do here.
  if (to_allocate == 0 || cycle->allocator == nullptr) return Status();

  std::vector<api::v1::AllocationResult> allocations;
  std::shared_ptr<const api::v1::ResourceClaim> extended_variant;
  {
    absl::MutexLock lock(&cycle->mu);
    auto it = cycle->node_allocations.find(node);
    if (it == cycle->node_allocations.end() || it->second.results.empty()) {
      // Only the extended-resource claim, and the node's allocatable serves
      // every extended resource: nothing to allocate.
      if (!user_claims_to_allocate) return Status();
      // Filter found the node suitable, so this cannot happen.
      return Status::Error("claim allocation not found for node");
    }
    allocations = it->second.results;
    extended_variant = it->second.extended_claim;
  }
  if (allocations.size() != to_allocate) {
    return Status::Error(schedkit::StrCat("internal error, have ", allocations.size(), " allocations, ", to_allocate,
                                          " claims to allocate, want ", to_allocate, " claims"));
  }
  size_t next = 0;
  for (int i = 0; i < static_cast<int>(cycle->claims.size()); ++i) {
    ClaimEntry& entry = cycle->claims[i];
    if (entry.allocated()) continue;
    entry.allocation = std::make_shared<const api::v1::AllocationResult>(std::move(allocations[next++]));
    // The whole claim as PreBind will write it (for the extended-resource
    // claim, the node's variant), so that the allocator of the next pod
    // counts its devices as taken.
    const bool variant = cycle->is_extended(i) && extended_variant != nullptr;
    auto allocated = std::make_shared<api::v1::ResourceClaim>(variant ? *extended_variant : *entry.claim);
    if (!HasFinalizer(*allocated)) allocated->mutable_metadata()->add_finalizers(std::string(kFinalizer));
    *allocated->mutable_status()->mutable_allocation() = *entry.allocation;
    if (absl::Status s = tracker_->SignalPendingAllocation(entry.claim->metadata().uid(), std::move(allocated));
        !s.ok()) {
      return Status::Error(schedkit::StrCat("internal error, couldn't signal allocation for claim ",
                                            entry.claim->metadata().name(), ": ", s.message()));
    }
  }
  return Status();
}

void DynamicResources::Unreserve(framework::CycleState& state, const framework::PodInfo& pod, Symbol /*node*/) {
  Cycle* cycle = CycleOf(state);
  if (cycle == nullptr || cycle->empty()) return;
  for (int i = 0; i < cycle->num_user_claims; ++i) {
    const api::v1::ResourceClaim& claim = *cycle->claims[i].claim;
    // The allocation is no longer in flight once the last pod sharing it
    // lets go: the claim goes back to what the scheduler holds.
    if (tracker_->MaybeRemovePendingAllocation(claim.metadata().uid(), /*force=*/false)) {
      tracker_->Restore(claim.metadata().namespace_(), claim.metadata().name());
    }
    if (!claim.status().has_allocation() || !dra::IsReservedForPod(pod.pod(), claim)) continue;
    // Take the pod out of reservedFor. Upstream sends a strategic merge
    // patch that deletes its entry; here the latest claim is written back
    // without it. A failure is left for the next attempt to clean up.
    framework::ClusterClient* client = handle_.client();
    if (client == nullptr) continue;
    for (int attempt = 0; attempt < kConflictRetries; ++attempt) {
      std::shared_ptr<const api::v1::ResourceClaim> latest =
          tracker_->Get(claim.metadata().namespace_(), claim.metadata().name());
      if (latest == nullptr || latest->metadata().uid() != claim.metadata().uid()) break;
      api::v1::ResourceClaim updated = *latest;
      auto* reserved = updated.mutable_status()->mutable_reserved_for();
      const int before = reserved->size();
      reserved->erase(std::remove_if(reserved->begin(), reserved->end(),
                                     [&](const auto& ref) { return ref.uid() == pod.uid(); }),
                      reserved->end());
      if (reserved->size() == before) break;
      absl::StatusOr<std::shared_ptr<const api::v1::ResourceClaim>> stored = client->UpdateStatus(updated);
      if (stored.ok()) {
        (void)tracker_->Assume(*std::move(stored));
        break;
      }
      if (!absl::IsAborted(stored.status())) break;
      absl::SleepFor(kConflictBackoff);
    }
  }
  UnreserveExtendedClaim(*cycle);
}

absl::StatusOr<std::shared_ptr<const api::v1::ResourceClaim>> DynamicResources::BindClaim(
    Cycle& cycle, int index, const framework::PodInfo& pod, Symbol node) const {
  framework::ClusterClient* client = handle_.client();
  if (client == nullptr) return absl::FailedPreconditionError("no cluster client to write ResourceClaims through");
  ClaimEntry& entry = cycle.claims[index];
  const std::shared_ptr<const api::v1::AllocationResult>& allocation = entry.allocation;
  const bool extended = cycle.is_extended(index);
  // The node's allocatable serves every extended resource: no claim.
  if (extended && allocation == nullptr && entry.claim->spec().devices().requests_size() == 0) return entry.claim;
  bool modified = false;
  if (extended && entry.claim->metadata().name() == dynamicresources::kInMemoryClaimName) {
    SCHEDKIT_ASSIGN_OR_RETURN(entry.claim, CreateExtendedClaim(cycle, pod, node));
    // From here on the claim is real: Unreserve deletes it if need be.
    modified = true;
  }
  std::shared_ptr<const api::v1::ResourceClaim> claim = entry.claim;
  bool refresh = false;
  absl::Status last;
  for (int attempt = 0; attempt < kConflictRetries; ++attempt) {
    if (refresh) {
      // A conflict: some benign change came first; start from the latest.
      absl::SleepFor(kConflictBackoff);
      claim = tracker_->Get(claim->metadata().namespace_(), claim->metadata().name());
      if (claim == nullptr) {
        last = absl::NotFoundError(schedkit::StrCat("get updated claim ", KObj(*entry.claim),
                                                    " after conflict: resourceclaims.resource.k8s.io \"",
                                                    entry.claim->metadata().name(), "\" not found"));
        break;
      }
    }
    refresh = true;
    if (!claim->metadata().deletion_timestamp().empty()) {
      last = absl::FailedPreconditionError(schedkit::StrCat("claim ", KObj(*claim), " got deleted in the meantime"));
      break;
    }
    api::v1::ResourceClaim updated = *claim;
    if (allocation != nullptr) {
      if (updated.status().has_allocation()) {
        last = absl::FailedPreconditionError(
            schedkit::StrCat("claim ", KObj(*claim), " got allocated elsewhere in the meantime"));
        break;
      }
      // The finalizer goes in with a normal update, before the allocation.
      if (!HasFinalizer(updated)) {
        updated.mutable_metadata()->add_finalizers(std::string(kFinalizer));
        absl::StatusOr<std::shared_ptr<const api::v1::ResourceClaim>> stored = client->Update(updated);
        if (!stored.ok()) {
          last = absl::Status(stored.status().code(),
                              schedkit::StrCat("add finalizer to claim ", KObj(*claim), ": ", stored.status().message()));
          if (absl::IsAborted(stored.status())) continue;
          break;
        }
        updated = **stored;
      }
      *updated.mutable_status()->mutable_allocation() = *allocation;
    }
    *updated.mutable_status()->add_reserved_for() = dra::ConsumerReferenceOf(pod.pod());
    if (BindingConditionsEnabled()) {
      if (!updated.status().has_allocation()) {
        last = absl::FailedPreconditionError(
            schedkit::StrCat("claim ", KObj(*claim), " got deallocated elsewhere in the meantime"));
        break;
      }
      if (updated.status().allocation().allocation_timestamp().empty()) {
        updated.mutable_status()->mutable_allocation()->set_allocation_timestamp(NowRfc3339());
      }
    }
    absl::StatusOr<std::shared_ptr<const api::v1::ResourceClaim>> stored = client->UpdateStatus(updated);
    if (!stored.ok()) {
      last = absl::Status(stored.status().code(),
                          schedkit::StrCat(allocation != nullptr ? "add allocation and reservation to claim "
                                                                 : "add reservation to claim ",
                                           KObj(*claim), ": ", stored.status().message()));
      if (absl::IsAborted(stored.status())) continue;
      break;
    }
    claim = *std::move(stored);
    modified = true;
    last = absl::OkStatus();
    break;
  }
  // The pod's status names its extended-resource claim first, as upstream
  // patches it before waiting for the claim to come back.
  absl::Status pod_status;
  if (last.ok() && extended) pod_status = WriteExtendedClaimStatus(cycle, pod, *claim, node);
  // The write landed: the next pods see it before the scheduler hears of it.
  if (modified) {
    if (extended) {
      AssumeCreatedClaim(claim);
    } else {
      (void)tracker_->Assume(claim);
    }
  }
  if (!last.ok()) return last;
  if (!pod_status.ok()) return pod_status;
  return claim;
}

Status DynamicResources::PreBind(framework::CycleState& state, const framework::PodInfo& pod, Symbol node) {
  Cycle* cycle = CycleOf(state);
  if (cycle == nullptr) return StateNotFound();
  if (cycle->empty()) return Status();

  std::vector<std::string> in_flight;
  for (int i = 0; i < static_cast<int>(cycle->claims.size()); ++i) {
    ClaimEntry& entry = cycle->claims[i];
    if (dra::IsReservedForPod(pod.pod(), *entry.claim)) continue;
    // In flight under the uid Reserve gave it (a created claim gets another).
    const std::string uid = entry.claim->metadata().uid();
    absl::StatusOr<std::shared_ptr<const api::v1::ResourceClaim>> stored = BindClaim(*cycle, i, pod, node);
    if (!stored.ok()) return Status::Error(std::string(stored.status().message()));
    if (entry.allocation != nullptr) in_flight.push_back(uid);
    // Unreserve works with the claim as stored.
    entry.claim = *std::move(stored);
  }

  Status status;
  if (BindingConditionsEnabled()) status = WaitForBindingConditions(*cycle, pod, node);
  // The allocations are written; they are no longer in flight.
  if (status.IsSuccess()) {
    for (const std::string& uid : in_flight) tracker_->MaybeRemovePendingAllocation(uid, /*force=*/true);
  }
  return status;
}

Status DynamicResources::WaitForBindingConditions(Cycle& cycle, const framework::PodInfo& pod, Symbol node) const {
  bool wait = false;
  for (const ClaimEntry& entry : cycle.claims) wait = wait || dynamicresources::HasBindingConditions(*entry.claim);
  if (!wait) return Status();
  if (framework::EventRecorder* events = handle_.events()) {
    events->Event(pod, nullptr, "Normal", "BindingConditionsPending", "Scheduling",
                  schedkit::StrCat("waiting for binding conditions for device on node ", node.str()));
  }
  const absl::Time deadline = absl::Now() + binding_timeout_;
  const api::ObjectLister& objects = handle_.objects();
  for (;;) {
    const uint64_t generation = objects.Generation();
    bool ready = true;
    for (ClaimEntry& entry : cycle.claims) {
      std::shared_ptr<const api::v1::ResourceClaim> latest =
          tracker_->Get(entry.claim->metadata().namespace_(), entry.claim->metadata().name());
      if (latest == nullptr) {
        return Status::Error(schedkit::StrCat("could not find ResourceClaim \"", KObj(*entry.claim), "\""));
      }
      entry.claim = std::move(latest);
      absl::StatusOr<bool> claim_ready = dynamicresources::IsClaimReadyForBinding(*entry.claim);
      if (!claim_ready.ok()) return Status::Error(std::string(claim_ready.status().message()));
      if (!*claim_ready) {
        if (dynamicresources::IsClaimBindingTimedOut(*entry.claim, binding_timeout_, absl::Now())) {
          return Status::Error(schedkit::StrCat("device binding timeout: claim=", entry.claim->metadata().name()));
        }
        ready = false;
        break;
      }
    }
    if (ready) return Status();
    const absl::Time now = absl::Now();
    if (now >= deadline) return Status::Error("device binding timeout: context deadline exceeded");
    absl::StatusOr<uint64_t> changed = objects.WaitForChange(generation, std::min(deadline, now + kBindingPoll));
    if (!changed.ok()) return Status::Error(std::string(changed.status().message()));
  }
}

}  // namespace schedkit::plugins
