#include "plugins/noderesources/balanced_allocation.h"

#include <utility>

#include "plugins/internal/signers.h"
#include "plugins/noderesources/dra_scoring.h"
#include "plugins/noderesources/resource_allocation.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace noderesources {
namespace {

using framework::CycleState;
using framework::NodeInfo;
using framework::PodInfo;
using framework::Status;

Symbol PreScoreKey() {
  static const Symbol k = Symbol::Intern("PreScoreNodeResourcesBalancedAllocation");
  return k;
}

class BalancedAllocation final : public framework::PreScorePlugin, public framework::ScorePlugin, public framework::SignPlugin {
 public:
  BalancedAllocation(ScoredResources resources, const api::ObjectLister& objects,
                     std::shared_ptr<internal::ClaimTracker> tracker, bool consumable_capacity)
      : resources_(std::move(resources)), dra_{&objects, std::move(tracker), consumable_capacity, &selectors_} {}

  std::string_view Name() const override { return names::kNodeResourcesBalancedAllocation; }
  // The pod's computed request, as Filter and Score read it.
  Status SignPod(const PodInfo& pod, framework::BatchSignatureBuilder& signature) const override {
    if (AsksForDraBackedResource(pod, *dra_.objects)) {
      return Status::WithText(framework::Code::kUnschedulable, std::string(kDraSignatureDeclined));
    }
    signature.Add(framework::kResourcesSigner, ResourcesSignature(pod.spec_requests()));
    return Status();
  }
  bool OutcomesArePerNode() const override { return true; }

  Status PreScore(CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes) override {
    ScoredResources rs = resources_;
    FillPodRequests(pod, /*use_requested=*/true, rs);
    // Best-effort pods would all pile onto the same node otherwise
    // (kubernetes#129138).
    if (AllRequestsZero(rs)) return Status::Skip();
    std::shared_ptr<const DraDeviceCounts> counts = DraDeviceCounts::CountAndAttach(dra_, nodes, rs);
    state.Write(PreScoreKey(), std::make_unique<ScoredResourcesState>(std::move(rs), std::move(counts)));
    return Status();
  }

  Status Score(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
               int64_t& score) const override {
    if (const auto* s = state.Read<ScoredResourcesState>(PreScoreKey()); s != nullptr) {
      score = BalancedAllocationScore(node, s->resources(), /*use_requested=*/true);
      return Status();
    }
    // Upstream computes the requests here when PreScore did not run.
    ScoredResources rs = resources_;
    FillPodRequests(pod, /*use_requested=*/true, rs);
    const NodeInfo* one[] = {&node};
    std::shared_ptr<const DraDeviceCounts> counts = DraDeviceCounts::CountAndAttach(dra_, one, rs);
    score = AllRequestsZero(rs) ? 0 : BalancedAllocationScore(node, rs, /*use_requested=*/true);
    return Status();
  }

  Status ScoreNodes(const CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                    std::span<int64_t> scores) const override {
    const auto* s = state.Read<ScoredResourcesState>(PreScoreKey());
    if (s == nullptr) return ScorePlugin::ScoreNodes(state, pod, nodes, scores);
    if (const std::span<const ScoredResource> rs = s->resources(); IsCpuThenMemory(rs)) {
      for (size_t i = 0; i < nodes.size(); ++i) scores[i] = BalancedAllocationCpuMemory(*nodes[i], rs[0], rs[1]);
      return Status();
    }
    for (size_t i = 0; i < nodes.size(); ++i) {
      scores[i] = BalancedAllocationScore(*nodes[i], s->resources(), /*use_requested=*/true);
    }
    return Status();
  }

 private:
  const ScoredResources resources_;  // pod_request unset; copied per pod
  // Upstream's scorer keeps a cache of ten compiled class selectors.
  mutable dra::SelectorCache selectors_{10};
  const DraScoringSources dra_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewBalancedAllocation(
    const NodeResourcesBalancedAllocationArgs& args, framework::Handle& handle, bool dra_consumable_capacity) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateNodeResourcesBalancedAllocationArgs(args));
  SCHEDKIT_ASSIGN_OR_RETURN(std::shared_ptr<internal::ClaimTracker> tracker, internal::ClaimTracker::Shared(handle));
  return std::make_unique<BalancedAllocation>(CompileResources(args.resources), handle.objects(), std::move(tracker),
                                              dra_consumable_capacity);
}

}  // namespace noderesources

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeResourcesBalancedAllocation(
    const framework::PluginArgs& args, framework::Handle& handle) {
  SCHEDKIT_ASSIGN_OR_RETURN(noderesources::NodeResourcesBalancedAllocationArgs parsed,
                            noderesources::ParseNodeResourcesBalancedAllocationArgs(args));
  return noderesources::NewBalancedAllocation(parsed, handle, args.gates().Enabled("DRAConsumableCapacity"));
}

}  // namespace schedkit::plugins
