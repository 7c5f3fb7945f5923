// Internal: scoring an extended resource backed by DRA (DRAExtendedResource)
// that NodeResourcesFit's or NodeResourcesBalancedAllocation's scored
// resources name. On a node whose allocatable lacks the resource, upstream
// counts the devices of its DeviceClass that the node reaches as its
// allocatable and those of them allocated as its requested
// (calculateDRAExtendedResourceAllocatableRequest); this counts them once
// per pod, in PreScore, for every node at once.
//
//   std::shared_ptr<const DraDeviceCounts> counts = DraDeviceCounts::CountAndAttach(sources, nodes, rs);
//   // keep `counts` with `rs` (ScoredResourcesState); Score reads rs[i].dra_counts
//
// Thread-safety: Compute runs on the scheduling thread; the counts are
// immutable once made and read by the workers that score.
#ifndef SCHEDKIT_LIB_PLUGINS_NODERESOURCES_DRA_SCORING_H_
#define SCHEDKIT_LIB_PLUGINS_NODERESOURCES_DRA_SCORING_H_

#include <memory>
#include <span>
#include <vector>

#include "dra/cel_device.h"
#include "plugins/internal/claim_tracker.h"
#include "plugins/noderesources/resource_allocation.h"
#include "schedkit/api/object_store.h"
#include "schedkit/framework/node_info.h"

namespace schedkit::plugins::noderesources {

// What a plugin needs to count devices; all outlive the plugin.
struct DraScoringSources {
  const api::ObjectLister* objects = nullptr;
  std::shared_ptr<internal::ClaimTracker> tracker;
  bool consumable_capacity = true;  // the DRAConsumableCapacity gate
  dra::SelectorCache* selectors = nullptr;
};

// Whether `requests` ask for an extended resource, or a class's implicit
// one, that a DeviceClass could stand for (by name alone; lists nothing).
bool AsksForDraExtendedResourceName(const framework::Resource& requests);

// Whether the pod asks for an extended resource a DeviceClass stands for
// (upstream's shouldDelegateResourceToDRA without a node). NodeResourcesFit
// and BalancedAllocation then decline to sign it, with kDraSignatureDeclined:
// whether a node fits or scores depends on every other claim.
bool AsksForDraBackedResource(const framework::PodInfo& pod, const api::ObjectLister& objects);
inline constexpr std::string_view kDraSignatureDeclined =
    "signature disabled when dra extended resources are used in the cluster";

class DraDeviceCounts {
 public:
  // The counts of the DRA-backed resources among `resources` on `nodes`;
  // null when none is backed by a DeviceClass (the usual case), without
  // listing anything unless some scored resource could be.
  static std::shared_ptr<const DraDeviceCounts> Compute(const DraScoringSources& sources,
                                                        std::span<const framework::NodeInfo* const> nodes,
                                                        std::span<const ScoredResource> resources);
  // Points each DRA-backed resource of `resources` (the same list Compute
  // saw) at its counts; they stay valid while this object lives.
  void Attach(std::span<ScoredResource> resources) const;
  // Compute, then Attach: what PreScore does.
  static std::shared_ptr<const DraDeviceCounts> CountAndAttach(const DraScoringSources& sources,
                                                               std::span<const framework::NodeInfo* const> nodes,
                                                               std::span<ScoredResource> resources) {
    std::shared_ptr<const DraDeviceCounts> counts = Compute(sources, nodes, resources);
    if (counts != nullptr) counts->Attach(resources);
    return counts;
  }

 private:
  // Per scored resource: empty unless backed by DRA.
  std::vector<DraCountsByNode> by_resource_;
};

}  // namespace schedkit::plugins::noderesources

#endif  // SCHEDKIT_LIB_PLUGINS_NODERESOURCES_DRA_SCORING_H_
