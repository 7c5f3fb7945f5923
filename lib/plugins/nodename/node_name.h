// NodeName: a pod that names its node in spec.nodeName fits only that node
// (upstream pkg/scheduler/framework/plugins/nodename, v1.37). Since v1.37 its
// PreFilter narrows such a pod's candidates to that node, so the others are
// UnschedulableAndUnresolvable (and no preemption target) without a Filter.
//
//   auto plugin = NewNodeName(framework::PluginArgs(), handle);
//   filter->Filter(state, pod, node);   // UnschedulableAndUnresolvable on another node
//
// Stateless; Filter may run concurrently.
#ifndef SCHEDKIT_LIB_PLUGINS_NODENAME_NODE_NAME_H_
#define SCHEDKIT_LIB_PLUGINS_NODENAME_NODE_NAME_H_

#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

class NodeName final : public framework::PreFilterPlugin,
                       public framework::FilterPlugin,
                       public framework::EnqueueExtensions,
                       public framework::SignPlugin {
 public:
  // Upstream's ErrReason.
  static constexpr std::string_view kErrReason = "node(s) didn't match the requested node name";

  std::string_view Name() const override;
  // Adds the fields of the pod its filtering and scoring read (upstream's SignPod).
  framework::Status SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const override;
  bool OutcomesArePerNode() const override { return true; }
  // Success; with spec.nodeName set, the result is that node alone.
  Result PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                   std::span<const framework::NodeInfo* const> nodes) override;
  framework::Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override;
  void FilterNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                   std::span<const framework::NodeInfo* const> nodes, std::span<uint8_t> passing,
                   std::span<framework::Status> statuses) const override;
  // Node/Add only, without a hint: a new node is the only event that can
  // change the answer.
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;
};

// Upstream's Fits: spec.nodeName is empty or equals the node's name.
bool NodeNameFits(const framework::PodInfo& pod, const framework::NodeInfo& node);

// Takes no args; any given are rejected by field.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeName(const framework::PluginArgs& args,
                                                               framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_NODENAME_NODE_NAME_H_
