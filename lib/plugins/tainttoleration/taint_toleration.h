// TaintToleration: a pod must tolerate a node's NoSchedule and NoExecute
// taints to fit, and scores higher on nodes with fewer PreferNoSchedule taints
// it does not tolerate (upstream pkg/scheduler/framework/plugins/
// tainttoleration, v1.37, with the alpha TaintTolerationComparisonOperators
// gate at its default, off).
//
//   auto plugin = NewTaintToleration(framework::PluginArgs(), handle);
//   filter->Filter(state, pod, node);        // UnschedulableAndUnresolvable on an untolerated taint
//   pre_score->PreScore(state, pod, nodes);  // keeps the pod's PreferNoSchedule tolerations
//   score->Score(state, pod, node, raw);     // raw = untolerated PreferNoSchedule taints
//   // NormalizeScore turns counts into [0, 100], fewer is better.
//
// Filter and Score may run concurrently and allocate nothing.
#ifndef SCHEDKIT_LIB_PLUGINS_TAINTTOLERATION_TAINT_TOLERATION_H_
#define SCHEDKIT_LIB_PLUGINS_TAINTTOLERATION_TAINT_TOLERATION_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

class TaintToleration final : public framework::PreFilterPlugin,
                              public framework::FilterPlugin,
                              public framework::PreScorePlugin,
                              public framework::ScorePlugin,
                              public framework::ScoreExtensions,
                              public framework::EnqueueExtensions,
                              public framework::SignPlugin {
 public:
  // The Filter reason in v1.35 (upstream's ErrReasonNotMatch constant, "node(s)
  // had taints that the pod didn't tolerate", is no longer what Filter returns).
  static constexpr std::string_view kErrReasonUntolerated = "node(s) had untolerated taint(s)";

  std::string_view Name() const override;
  // Adds the fields of the pod its filtering and scoring read (upstream's SignPod).
  framework::Status SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const override;
  bool OutcomesArePerNode() const override { return true; }
  // Success. Upstream's PreFilter (v1.37) skips only pods with a deferred
  // resize under the alpha InPlacePodVerticalScalingSchedulerPreemption,
  // which schedkit refuses to turn on.
  Result PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                   std::span<const framework::NodeInfo* const> nodes) override;
  framework::Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override;
  void FilterNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                   std::span<const framework::NodeInfo* const> nodes, std::span<uint8_t> passing,
                   std::span<framework::Status> statuses) const override;
  // Always Success: stores the pod's tolerations whose effect is empty or
  // PreferNoSchedule.
  framework::Status PreScore(framework::CycleState& state, const framework::PodInfo& pod,
                             std::span<const framework::NodeInfo* const> nodes) override;
  // The number of the node's PreferNoSchedule taints the pod does not
  // tolerate; Error when PreScore did not run.
  framework::Status Score(const framework::CycleState& state, const framework::PodInfo& pod,
                          const framework::NodeInfo& node, int64_t& score) const override;
  framework::Status ScoreNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                               std::span<const framework::NodeInfo* const> nodes,
                               std::span<int64_t> scores) const override;
  const framework::ScoreExtensions* GetScoreExtensions() const override { return this; }
  // Reversed DefaultNormalizeScore: the fewest untolerated taints gets 100.
  framework::Status NormalizeScore(const framework::CycleState& state, const framework::PodInfo& pod,
                                   std::span<const framework::NodeInfo* const> nodes,
                                   std::span<int64_t> scores) const override;
  std::optional<framework::MaximumNormalization> NormalizesByMaximum() const override { return kNormalization; }
  // Node/Add|UpdateNodeTaint (queue when the node's NoSchedule/NoExecute
  // taints went from untolerated to tolerated) and Pod/UpdatePodToleration
  // (queue when the rejected pod itself changed).
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

 private:
  static constexpr framework::MaximumNormalization kNormalization{framework::kMaxNodeScore, /*reverse=*/true};
};

// Takes no args; any given are rejected by field.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewTaintToleration(const framework::PluginArgs& args,
                                                                      framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_TAINTTOLERATION_TAINT_TOLERATION_H_
