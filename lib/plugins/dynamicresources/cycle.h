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
#include "dra/allocator.h"
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

struct Cycle {
  std::vector<ClaimEntry> claims;
  // Set when some claim needs allocating.
  std::unique_ptr<dra::Allocator> allocator;
  // What the allocator reads: kept alive for the cycle.
  ClassSnapshot classes;
  std::vector<std::shared_ptr<const api::v1::ResourceSlice>> slices;

  absl::Mutex mu;
  // Indices of allocated claims that some node could not reach (PostFilter
  // deallocates one of them).
  std::set<int> unavailable_claims ABSL_GUARDED_BY(mu);
  // Filter's allocation per node, one result per claim to allocate, in order.
  absl::flat_hash_map<Symbol, std::vector<api::v1::AllocationResult>> node_allocations ABSL_GUARDED_BY(mu);

  bool empty() const { return claims.empty(); }
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

}  // namespace schedkit::plugins::dynamicresources

#endif  // SCHEDKIT_LIB_PLUGINS_DYNAMICRESOURCES_CYCLE_H_
