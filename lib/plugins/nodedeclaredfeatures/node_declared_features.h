// NodeDeclaredFeatures: a pod that needs node features (a container restart
// rule that restarts all containers, host networking in a user namespace,
// bind mount options) fits only nodes that declare them in
// node.status.declaredFeatures (upstream
// pkg/scheduler/framework/plugins/nodedeclaredfeatures, v1.37, where the
// gate is GA and the plugin is in the default profile).
//
//   auto plugin = NewNodeDeclaredFeatures(framework::PluginArgs(), handle);
//
// PreFilter infers the pod's needs (framework::InferPodFeatures) and Skips
// when there are none, which is nearly every pod: then its Filter never
// runs. Filter fails UnschedulableAndUnresolvable "node(s) didn't match Pod's
// required features" on a node that lacks any of them; without its PreFilter
// state it is Error "not found". Events: Node/Add|UpdateNodeDeclaredFeature
// (queue unless the declared list is unchanged) and the pod's own update
// (queue when its needs changed).
//
// Stateless apart from the cycle state; Filter may run concurrently.
#ifndef SCHEDKIT_LIB_PLUGINS_NODEDECLAREDFEATURES_NODE_DECLARED_FEATURES_H_
#define SCHEDKIT_LIB_PLUGINS_NODEDECLAREDFEATURES_NODE_DECLARED_FEATURES_H_

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

class NodeDeclaredFeatures final : public framework::PreFilterPlugin,
                                   public framework::FilterPlugin,
                                   public framework::EnqueueExtensions,
                                   public framework::SignPlugin {
 public:
  // Upstream's errReasonUnsatisfiedRequirements.
  static constexpr std::string_view kErrReason = "node(s) didn't match Pod's required features";

  std::string_view Name() const override;
  // Adds the fields of the pod its filtering and scoring read (upstream's SignPod).
  framework::Status SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const override;
  bool OutcomesArePerNode() const override { return true; }
  // Skip when the pod needs no feature; Success with its needs recorded.
  Result PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                   std::span<const framework::NodeInfo* const> nodes) override;
  framework::Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;
};

// Takes no args; any given are rejected by field.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeDeclaredFeatures(const framework::PluginArgs& args,
                                                                           framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_NODEDECLAREDFEATURES_NODE_DECLARED_FEATURES_H_
