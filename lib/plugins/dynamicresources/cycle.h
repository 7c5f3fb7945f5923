// Internal: what DynamicResources records about one pod's scheduling cycle
// (upstream's stateData), written by PreFilter and read and extended by the
// later points. One record is shared by every clone of the cycle state, as
// upstream's Clone returns the same pointer: preemption's dry runs and the
// real cycle see the same claims and allocator.
#ifndef SCHEDKIT_LIB_PLUGINS_DYNAMICRESOURCES_CYCLE_H_
#define SCHEDKIT_LIB_PLUGINS_DYNAMICRESOURCES_CYCLE_H_

#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "dra/allocator.h"
#include "dra/extended_resources.h"
#include "plugins/internal/claim_tracker.h"
#include "schedkit/api/selector.h"
#include "schedkit/api/v1/resource_claim.h"
#include "schedkit/api/v1/resource_slice.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/base/symbol.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/status.h"

namespace schedkit::plugins::dynamicresources {

struct ClaimEntry {
  // As read at PreFilter; replaced by what PreBind stored.
  std::shared_ptr<const api::v1::ResourceClaim> claim;
  // Where an allocated claim's devices can be reached; unset when the
  // allocation has no node selector (reachable everywhere) or none exists.
  std::optional<api::NodeSelector> available_on_nodes;
  // Set by Reserve: the allocation PreBind is to write.
  std::shared_ptr<const api::v1::AllocationResult> allocation;

  bool allocated() const { return claim->status().has_allocation(); }
};

// The DeviceClasses as PreFilter found them, for the allocator to read
// during Filter without racing the scheduler's updates.
class ClassSnapshot final : public dra::DeviceClassLister {
 public:
  absl::flat_hash_map<std::string, std::shared_ptr<const api::v1::DeviceClass>> classes;
  absl::StatusOr<const api::v1::DeviceClass*> Get(std::string_view name) const override;
};

// What Filter found on one node.
struct NodeAllocation {
  // One result per claim to allocate, in order.
  std::vector<api::v1::AllocationResult> results;
  // The node's variant of the pod's extended-resource claim: its requests
  // are the extended resources DRA serves here. Null when there is none.
  std::shared_ptr<const api::v1::ResourceClaim> extended_claim;
  // Which request serves which container's extended resource.
  std::vector<dra::ExtendedResourceMapping> mappings;
};

// The pod's extended resources backed by DRA (DRAExtendedResource).
struct ExtendedResources {
  struct Request {
    Symbol name;
    int64_t amount = 0;
    bool backed = false;  // a class stands for it
  };
  dra::ExtendedResourceClasses classes;
  // The pod's requests for extended resources (and implicit class names).
  std::vector<Request> requests;
};

struct Cycle {
  // The pod's own claims in spec order, then the extended-resource claim
  // when the pod asks for an extended resource a DeviceClass stands for:
  // the one a previous cycle created, or one made in memory (named
  // "<extended-resources>") for PreBind to create.
  std::vector<ClaimEntry> claims;
  int num_user_claims = 0;
  std::optional<ExtendedResources> extended;
  // The uid the extended-resource claim had at PreFilter (a temporary one
  // for the in-memory claim), under which Reserve marked it in flight.
  std::string initial_extended_uid;
  // Set when some claim needs allocating.
  std::unique_ptr<dra::Allocator> allocator;
  // What the allocator reads: kept alive for the cycle.
  ClassSnapshot classes;
  std::vector<std::shared_ptr<const api::v1::ResourceSlice>> slices;

  absl::Mutex mu;
  // Indices of allocated claims that some node could not reach (PostFilter
  // deallocates one of them).
  std::set<int> unavailable_claims ABSL_GUARDED_BY(mu);
  // Filter's allocation per node.
  absl::flat_hash_map<Symbol, NodeAllocation> node_allocations ABSL_GUARDED_BY(mu);

  bool empty() const { return claims.empty(); }
  // The extended-resource claim's entry, or null.
  ClaimEntry* extended_claim() {
    return num_user_claims < static_cast<int>(claims.size()) ? &claims[num_user_claims] : nullptr;
  }
  const ClaimEntry* extended_claim() const { return const_cast<Cycle*>(this)->extended_claim(); }
  bool is_extended(int index) const { return index >= num_user_claims; }
};

// The state under "DynamicResources" (upstream's stateKey).
struct CycleData final : framework::StateData {
  std::shared_ptr<Cycle> cycle = std::make_shared<Cycle>();
  std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<CycleData>(*this); }
};

inline Symbol StateKey() {
  static const Symbol key = Symbol::Intern("DynamicResources");
  return key;
}

// The cycle's record, or null when PreFilter did not run for it.
inline Cycle* CycleOf(const framework::CycleState& state) {
  const auto* data = state.Read<CycleData>(StateKey());
  return data == nullptr ? nullptr : data->cycle.get();
}

// Upstream reads its state with CycleState.Read, whose miss is
// fwk.ErrNotFound ("not found"), returned as an Error status.
inline framework::Status StateNotFound() {
  static const Symbol not_found = Symbol::Intern("not found");
  return framework::Status(framework::Code::kError, not_found);
}

// "<namespace>/<name>", as upstream's klog.KObj prints a claim.
inline std::string KObj(const api::v1::ResourceClaim& claim) {
  return schedkit::StrCat(claim.metadata().namespace_(), "/", claim.metadata().name());
}

// The finalizer that keeps an allocated claim until its devices are freed.
inline constexpr std::string_view kFinalizer = "resource.kubernetes.io/delete-protection";
// client-go's retry.DefaultRetry, which upstream's claim writes retry
// conflicts with: five tries, about 10ms apart.
inline constexpr int kConflictRetries = 5;
inline constexpr absl::Duration kConflictBackoff = absl::Milliseconds(10);

// Upstream's statusUnschedulable: every rejection of the plugin is
// UnschedulableAndUnresolvable.
inline framework::Status Unresolvable(std::string text) {
  return framework::Status::WithText(framework::Code::kUnschedulableAndUnresolvable, std::move(text));
}

using internal::kInMemoryClaimName;
// The annotation marking a claim the scheduler made for extended resources.
inline constexpr std::string_view kExtendedResourceClaimAnnotation = "resource.kubernetes.io/extended-resource-claim";

}  // namespace schedkit::plugins::dynamicresources

#endif  // SCHEDKIT_LIB_PLUGINS_DYNAMICRESOURCES_CYCLE_H_
