// NodePorts: a pod's host ports must be free on the node (upstream
// pkg/scheduler/framework/plugins/nodeports, v1.37).
//
//   auto plugin = NewNodePorts(framework::PluginArgs(), handle);
//   prefilter->PreFilter(state, pod, nodes);   // Skip when the pod wants no host port
//   filter->Filter(state, pod, node);          // Unschedulable on a port conflict
//
// The ports a pod wants are those of its regular containers and of its
// restartable (sidecar) init containers with hostPort > 0, as upstream's
// util.GetHostPorts. PreFilter stores them in the CycleState; Filter only
// compares them with the node's used ports and may run concurrently.
#ifndef SCHEDKIT_LIB_PLUGINS_NODEPORTS_NODE_PORTS_H_
#define SCHEDKIT_LIB_PLUGINS_NODEPORTS_NODE_PORTS_H_

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

class NodePorts final : public framework::PreFilterPlugin,
                        public framework::FilterPlugin,
                        public framework::EnqueueExtensions,
                        public framework::SignPlugin {
 public:
  // Upstream's ErrReason.
  static constexpr std::string_view kErrReason = "node(s) didn't have free ports for the requested pod ports";

  std::string_view Name() const override;
  // Adds the fields of the pod its filtering and scoring read (upstream's SignPod).
  framework::Status SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const override;
  bool OutcomesArePerNode() const override { return true; }
  // Skip when the pod wants no host port; otherwise stores the wanted ports.
  Result PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                   std::span<const framework::NodeInfo* const> nodes) override;
  // Error when PreFilter did not run; Unschedulable on a conflict.
  framework::Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override;
  // Pod/Delete (queue when a bound or nominated pod that held one of the
  // wanted ports goes away) and Node/Add.
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;
};

// Upstream's fitsPorts: no wanted port conflicts with `used`.
bool FitsPorts(std::span<const framework::HostPort> wanted, const framework::HostPortSet& used);

// Upstream's Fits, for callers outside a cycle (the ports PodInfo parsed).
bool NodePortsFit(const framework::PodInfo& pod, const framework::NodeInfo& node);

// Takes no args; any given are rejected by field.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodePorts(const framework::PluginArgs& args,
                                                                framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_NODEPORTS_NODE_PORTS_H_
