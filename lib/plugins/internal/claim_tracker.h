// The ResourceClaims and ResourceSlices as DynamicResources (and the
// scoring of extended resources backed by DRA in NodeResourcesFit and
// NodeResourcesBalancedAllocation) sees them, one per scheduler, shared by
// every profile through Handle::shared_state (as upstream's
// DefaultDRAManager):
//  - claims: the scheduler's, with what PreBind wrote laid over them until
//    the scheduler holds that version or a newer one (upstream's assume
//    cache), so the next pod sees the devices taken at once;
//  - in-flight allocations: a claim Reserve allocated, until PreBind has
//    written it (or Unreserve dropped it), so that no other pod allocates
//    its devices or allocates the claim a second time;
//  - the allocated state the allocator starts from: every device of an
//    allocated or in-flight claim;
//  - the slices with DeviceTaintRules' taints added to the devices they
//    select (upstream's slice tracker).
//
//   auto tracker = ClaimTracker::Shared(handle);
//   tracker->Get("default", "gpu-claim");               // latest, assumed first
//   tracker->SignalPendingAllocation(uid, allocated);   // Reserve
//   tracker->GatherAllocatedState(true);                // PreFilter
//
// Thread-safe: PreFilter, Filter and Reserve run on the scheduling thread
// and its workers, PreBind and Unreserve on binding threads, hints on the
// queue's side.
#ifndef SCHEDKIT_LIB_PLUGINS_INTERNAL_CLAIM_TRACKER_H_
#define SCHEDKIT_LIB_PLUGINS_INTERNAL_CLAIM_TRACKER_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "dra/allocator.h"
#include "schedkit/api/object_store.h"
#include "schedkit/api/v1/device_taint_rule.h"
#include "schedkit/api/v1/resource_claim.h"
#include "schedkit/api/v1/resource_slice.h"
#include "schedkit/framework/handle.h"

namespace schedkit::plugins::internal {

// The name of a pod's extended-resource claim while it exists in memory
// only (DynamicResources): not a valid object name, so it never meets a
// real claim.
inline constexpr std::string_view kInMemoryClaimName = "<extended-resources>";

class ClaimTracker {
 public:
  explicit ClaimTracker(const api::ObjectLister& objects) : objects_(objects) {}

  // The tracker of `handle`'s scheduler (one of its own when the handle
  // shares nothing).
  static absl::StatusOr<std::shared_ptr<ClaimTracker>> Shared(const framework::Handle& handle);

  // The latest claim: the one PreBind wrote while the scheduler holds an
  // older version, else the scheduler's; null when neither exists.
  std::shared_ptr<const api::v1::ResourceClaim> Get(std::string_view namespace_name, std::string_view name) const;

  // Lays `claim`, as the API server stored it, over the scheduler's copy
  // (upstream's AssumeClaimAfterAPICall). FailedPrecondition when the
  // scheduler already holds a newer version, as upstream's assume cache.
  absl::Status Assume(std::shared_ptr<const api::v1::ResourceClaim> claim);
  // Drops what Assume laid over the claim (upstream's AssumedClaimRestore).
  void Restore(std::string_view namespace_name, std::string_view name);

  // The claim Reserve allocated and PreBind has not written yet, or null.
  std::shared_ptr<const api::v1::ResourceClaim> PendingAllocation(std::string_view uid) const;
  // Records `allocated` (the claim with status.allocation set) as in flight,
  // or one more sharer of the claim already in flight. Nothing when the
  // latest claim is already allocated (PreBind of a pod sharing it won).
  absl::Status SignalPendingAllocation(std::string_view uid, std::shared_ptr<const api::v1::ResourceClaim> allocated);
  // One sharer less; the allocation leaves when it was the last or `force`.
  // True when it left.
  bool MaybeRemovePendingAllocation(std::string_view uid, bool force);

  // Every device in use by an allocated claim (assumed ones included) or by
  // an allocation in flight. Without `consumable_capacity` shares count as
  // whole devices, as upstream's feature gate has it.
  dra::AllocatedState GatherAllocatedState(bool consumable_capacity) const;

  // Every ResourceSlice, with the taints of the DeviceTaintRules that select
  // each device appended (rules by name), when `taint_rules`. Patched copies
  // are kept while neither the slice nor the rules change.
  std::vector<std::shared_ptr<const api::v1::ResourceSlice>> Slices(bool taint_rules) const;

 private:
  using Claim = api::v1::ResourceClaim;
  struct InFlight {
    std::shared_ptr<const Claim> claim;
    int sharers = 0;
  };
  // The newer of `held` and what PreBind wrote for `key`; drops the latter
  // when it is outdated.
  std::shared_ptr<const Claim> LatestLocked(const std::string& key, std::shared_ptr<const Claim> held) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  struct Patched {
    std::shared_ptr<const api::v1::ResourceSlice> original;
    std::shared_ptr<const api::v1::ResourceSlice> patched;
  };

  const api::ObjectLister& objects_;
  mutable absl::Mutex mu_;
  // By "namespace/name".
  // Dropped once the scheduler holds that version or a newer one, or no
  // longer holds the claim (Get does it, so the map stays small).
  mutable absl::flat_hash_map<std::string, std::shared_ptr<const Claim>> assumed_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, InFlight> in_flight_ ABSL_GUARDED_BY(mu_);

  mutable absl::Mutex slices_mu_;
  mutable std::vector<std::shared_ptr<const api::v1::DeviceTaintRule>> rules_ ABSL_GUARDED_BY(slices_mu_);
  mutable absl::flat_hash_map<std::string, Patched> patched_ ABSL_GUARDED_BY(slices_mu_);
};

// Every device `claim`'s allocation takes (upstream's foreachAllocatedDevice):
// admin-access results take none; with `consumable_capacity`, a result with
// a shareID takes that share and adds what it consumes.
void AddAllocatedDevices(const api::v1::ResourceClaim& claim, bool consumable_capacity, dra::AllocatedState& state);

}  // namespace schedkit::plugins::internal

#endif  // SCHEDKIT_LIB_PLUGINS_INTERNAL_CLAIM_TRACKER_H_
