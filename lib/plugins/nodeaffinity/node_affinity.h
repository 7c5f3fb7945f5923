// NodeAffinity: a pod fits a node that satisfies its spec.nodeSelector, its
// required node affinity and the scheduler-enforced addedAffinity; it scores
// the sum of the weights of the preferred terms (the pod's and addedAffinity's)
// the node matches (upstream pkg/scheduler/framework/plugins/nodeaffinity,
// v1.37).
//
//   auto plugin = NewNodeAffinity(framework::PluginArgs(R"({"addedAffinity": {...}})"), handle);
//   prefilter->PreFilter(state, pod, nodes);  // Skip, or narrows to matchFields metadata.name In
//   filter->Filter(state, pod, node);         // UnschedulableAndUnresolvable on a mismatch
//   pre_score->PreScore(state, pod, nodes);   // Skip without preferred terms
//   score->Score(state, pod, node, raw);      // raw = matched weights; normalized to [0, 100]
//
// Terms come compiled from PodInfo. A required term that upstream cannot parse
// (e.g. a malformed label value) never matches, and a preferred one fails
// PreScore with upstream's error text; which terms parse is worked out once per
// pod in PreFilter/PreScore. Filter and Score may run concurrently and neither
// allocates nor compares strings.
#ifndef SCHEDKIT_LIB_PLUGINS_NODEAFFINITY_NODE_AFFINITY_H_
#define SCHEDKIT_LIB_PLUGINS_NODEAFFINITY_NODE_AFFINITY_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/api/selector.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

// NodeAffinityArgs (v1): a node affinity every pod of the profile must also
// satisfy.
struct NodeAffinityArgs {
  std::optional<api::v1::NodeAffinity> added_affinity;
};

// The args' declaration: upstream's field and ValidateNodeAffinityArgs.
const framework::ArgsSpec<NodeAffinityArgs>& NodeAffinityArgsSpec();

class NodeAffinity final : public framework::PreFilterPlugin,
                           public framework::FilterPlugin,
                           public framework::PreScorePlugin,
                           public framework::ScorePlugin,
                           public framework::ScoreExtensions,
                           public framework::EnqueueExtensions,
                           public framework::SignPlugin {
 public:
  // Upstream's ErrReasonPod, errReasonEnforced and errReasonConflict.
  static constexpr std::string_view kErrReasonPod = "node(s) didn't match Pod's node affinity/selector";
  static constexpr std::string_view kErrReasonEnforced =
      "node(s) didn't match scheduler-enforced node affinity";
  static constexpr std::string_view kErrReasonConflict = "pod affinity terms conflict";

  struct WeightedTerm {
    api::NodeSelector::Term term;
    int32_t weight = 0;
  };
  // NodeAffinityArgs.addedAffinity, compiled. `added_required` is set when
  // the args have requiredDuringSchedulingIgnoredDuringExecution (even with no
  // terms, which then matches no node); `has_added_preferred` when they list
  // preferred terms, of which `added_preferred` keeps those with a weight and
  // a non-empty preference.
  NodeAffinity(std::optional<api::NodeSelector> added_required, bool has_added_preferred,
               std::vector<WeightedTerm> added_preferred);

  std::string_view Name() const override;
  // Adds the fields of the pod its filtering and scoring read (upstream's SignPod).
  framework::Status SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const override;
  bool OutcomesArePerNode() const override { return true; }
  // Skip when neither the pod (nodeSelector, required node affinity) nor the
  // args require anything. UnschedulableAndUnresolvable ("pod affinity terms
  // conflict") when every required term names nodes by metadata.name In and
  // together they name none; otherwise the named nodes, when every term names
  // some.
  Result PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                   std::span<const framework::NodeInfo* const> nodes) override;
  // Works without PreFilter too (it then works out the pod's terms itself).
  framework::Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override;
  // Skip when neither the pod nor the args have preferred terms; Error when
  // one of the pod's preferred terms does not parse.
  framework::Status PreScore(framework::CycleState& state, const framework::PodInfo& pod,
                             std::span<const framework::NodeInfo* const> nodes) override;
  // Sum of the weights of the matching preferred terms, addedAffinity's
  // first. Works without PreScore too.
  framework::Status Score(const framework::CycleState& state, const framework::PodInfo& pod,
                          const framework::NodeInfo& node, int64_t& score) const override;
  const framework::ScoreExtensions* GetScoreExtensions() const override { return this; }
  // DefaultNormalizeScore: the highest sum gets 100.
  framework::Status NormalizeScore(const framework::CycleState& state, const framework::PodInfo& pod,
                                   std::span<const framework::NodeInfo* const> nodes,
                                   std::span<int64_t> scores) const override;
  std::optional<framework::MaximumNormalization> NormalizesByMaximum() const override { return kNormalization; }
  // Node/Add|UpdateNodeLabel: queue when the added or updated node matches
  // addedAffinity and the pod's requirements and (for an update) did not
  // match them before.
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

 private:
  static constexpr framework::MaximumNormalization kNormalization{framework::kMaxNodeScore, /*reverse=*/false};
  absl::StatusOr<framework::QueueingHint> IsSchedulableAfterNodeChange(
      const framework::PodInfo& pod, const framework::EventObjects& e) const;

  std::optional<api::NodeSelector> added_required_;
  bool has_added_preferred_ = false;
  std::vector<WeightedTerm> added_preferred_;
};

// Args: NodeAffinityArgs {addedAffinity: v1.NodeAffinity}, validated as
// upstream's ValidateNodeAffinityArgs (malformed terms are errors naming the
// field); unknown fields are errors.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeAffinity(const framework::PluginArgs& args,
                                                                   framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_NODEAFFINITY_NODE_AFFINITY_H_
