// DefaultPreemption (upstream pkg/scheduler/framework/plugins/
// defaultpreemption, v1.37.2): when no node fits a pod, find the node where
// evicting the fewest, least important lower-priority pods makes it fit,
// evict them and nominate the pod to that node.
//
//   SCHEDKIT_ASSIGN_OR_RETURN(auto plugin, NewDefaultPreemption(framework::PluginArgs(
//       R"({"minCandidateNodesPercentage": 10, "minCandidateNodesAbsolute": 100})"), handle));
//   post_filter->PostFilter(state, pod, node_statuses);
//   // Success + nomination, or Unschedulable "preemption: 0/3 nodes are available: ..."
//
// Extension points: PostFilter (preemption, through preemption::Evaluator),
// PreEnqueue and EnqueueExtensions (SchedulerAsyncPreemption, on in v1.37:
// a pod is held back while its preemption is still evicting; schedkit
// evicts synchronously inside PostFilter, so this only bites when a host
// enqueues the pod from another thread meanwhile).
//
// Victim selection per candidate node (SelectVictimsOnNode) works on copies
// of the cycle state and the NodeInfo, runs concurrently for many nodes and
// skips the copies entirely for nodes without lower-priority pods; what it
// found on a node is kept for the next preemptor of the same signature while
// the node and its nominations stay the same (preemption::DryRunMemo). The random
// offset where the dry runs start comes from a std::mt19937_64 seeded with
// kDefaultSeed (reseed with Seed, or pin with set_offset_source), so runs
// are reproducible.
#ifndef SCHEDKIT_LIB_PLUGINS_DEFAULTPREEMPTION_DEFAULT_PREEMPTION_H_
#define SCHEDKIT_LIB_PLUGINS_DEFAULTPREEMPTION_DEFAULT_PREEMPTION_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "plugins/defaultpreemption/dry_run_memo.h"
#include "plugins/defaultpreemption/evaluator.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

// DefaultPreemptionArgs with the v1 defaults.
struct DefaultPreemptionArgs {
  // Minimum candidates to shortlist, as a percentage of the potential nodes;
  // in [0, 100].
  int32_t min_candidate_nodes_percentage = 10;
  // Minimum candidates to shortlist, absolute; >= 0. Not both zero.
  int32_t min_candidate_nodes_absolute = 100;
};

// The args' declaration: upstream's field names, v1 defaults and validation.
const framework::ArgsSpec<DefaultPreemptionArgs>& DefaultPreemptionArgsSpec();
// Decodes pluginConfig args and applies upstream's validation; errors name
// the field.
absl::StatusOr<DefaultPreemptionArgs> ParseDefaultPreemptionArgs(const framework::PluginArgs& args);

class DefaultPreemption final : public framework::PostFilterPlugin,
                                public framework::PreEnqueuePlugin,
                                public framework::EnqueueExtensions,
                                public preemption::Interface {
 public:
  static constexpr std::string_view kReasonNoVictims = "No preemption victims found for incoming pod";
  static constexpr uint64_t kDefaultSeed = 0x5eed;

  // Whether `victim` on `node` may be preempted by `preemptor`, on top of the
  // rule that it has a lower priority (upstream's IsEligiblePod hook).
  using IsEligiblePodFn = std::function<bool(const framework::NodeInfo& node, const framework::PodInfo& victim,
                                             const framework::PodInfo& preemptor)>;
  // True if `a` is more important than `b` and should be reprieved first
  // (upstream's MoreImportantPod hook); must be a strict weak order.
  using MoreImportantPodFn = std::function<bool(const framework::PodInfo& a, const framework::PodInfo& b)>;
  // An offset in [0, num_nodes).
  using OffsetFn = std::function<int32_t(int32_t num_nodes)>;

  DefaultPreemption(framework::Handle& handle, const DefaultPreemptionArgs& args);

  std::string_view Name() const override;

  // Runs preemption; a non-empty message gets the "preemption: " prefix.
  framework::PostFilterPlugin::Result PostFilter(framework::CycleState& state, const framework::PodInfo& pod,
                                                 const framework::NodeToStatus& filtered) override;
  // UnschedulableAndUnresolvable while the pod's victims are being evicted.
  framework::Status PreEnqueue(const framework::PodInfo& pod) override;
  // Pod/Delete with a hint that always skips: the plugins whose rejections
  // preemption resolves decide when the pod is requeued.
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

  // --- preemption::Interface ---
  std::pair<int32_t, int32_t> GetOffsetAndNumCandidates(int32_t num_nodes) override;
  std::pair<bool, std::string> PodEligibleToPreemptOthers(
      const framework::PodInfo& pod, const framework::Status& nominated_node_status) const override;
  framework::Status SelectVictimsOnNode(const framework::CycleState& state, const framework::PodInfo& pod,
                                        const framework::NodeInfo& node,
                                        std::span<const preemption::PdbInfo> pdbs,
                                        preemption::Victims& victims) const override;
  std::optional<framework::Status> StatusWithoutDryRun(const framework::PodInfo& pod,
                                                       const framework::NodeInfo& node) const override;

  // max(num_nodes * percentage / 100, absolute), at most num_nodes.
  int32_t CalculateNumCandidates(int32_t num_nodes) const;

  // Customization hooks; set before the first PostFilter, not concurrently.
  void set_is_eligible_pod(IsEligiblePodFn fn) { is_eligible_pod_ = std::move(fn); }
  void set_more_important_pod(MoreImportantPodFn fn) { more_important_pod_ = std::move(fn); }
  void set_offset_source(OffsetFn fn) { offset_source_ = std::move(fn); }
  void Seed(uint64_t seed) { rng_.seed(seed); }

  preemption::Evaluator& evaluator() { return evaluator_; }

 private:
  bool IsPreemptionAllowed(const framework::NodeInfo& node, const framework::PodInfo& victim,
                           const framework::PodInfo& preemptor) const;

  framework::Handle& handle_;
  DefaultPreemptionArgs args_;
  IsEligiblePodFn is_eligible_pod_;  // empty: every lower-priority pod
  MoreImportantPodFn more_important_pod_;
  OffsetFn offset_source_;  // empty: rng_
  std::mt19937_64 rng_{kDefaultSeed};
  preemption::Evaluator evaluator_;
  // Serves SelectVictimsOnNode during PostFilter's attempt; written by the
  // concurrent dry runs, each at its own node.
  mutable preemption::DryRunMemo dry_run_memo_;
};

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewDefaultPreemption(const framework::PluginArgs& args,
                                                                        framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_DEFAULTPREEMPTION_DEFAULT_PREEMPTION_H_
