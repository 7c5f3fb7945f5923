// NodeUnschedulable: a node with spec.unschedulable (cordoned) takes only
// pods that tolerate the node.kubernetes.io/unschedulable:NoSchedule taint
// (upstream pkg/scheduler/framework/plugins/nodeunschedulable, v1.37).
//
//   auto plugin = NewNodeUnschedulable(framework::PluginArgs(), handle);
//   filter->Filter(state, pod, node);   // UnschedulableAndUnresolvable when cordoned
//
// Stateless; Filter may run concurrently.
#ifndef SCHEDKIT_LIB_PLUGINS_NODEUNSCHEDULABLE_NODE_UNSCHEDULABLE_H_
#define SCHEDKIT_LIB_PLUGINS_NODEUNSCHEDULABLE_NODE_UNSCHEDULABLE_H_

#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

class NodeUnschedulable final : public framework::PreFilterPlugin,
                                public framework::FilterPlugin,
                                public framework::EnqueueExtensions,
                                public framework::SignPlugin {
 public:
  // Upstream's ErrReasonUnschedulable.
  static constexpr std::string_view kErrReasonUnschedulable = "node(s) were unschedulable";

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
  // Node/Add|UpdateNodeTaint (queue when a node is added schedulable or
  // becomes schedulable) and Pod/UpdatePodToleration (queue when the
  // rejected pod itself now tolerates the unschedulable taint).
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;
};

// Takes no args; any given are rejected by field.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeUnschedulable(const framework::PluginArgs& args,
                                                                        framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_NODEUNSCHEDULABLE_NODE_UNSCHEDULABLE_H_
