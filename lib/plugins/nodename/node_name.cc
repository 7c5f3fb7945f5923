#include "plugins/nodename/node_name.h"

#include "plugins/internal/args.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {

std::string_view NodeName::Name() const { return names::kNodeName; }

bool NodeNameFits(const framework::PodInfo& pod, const framework::NodeInfo& node) {
  return pod.node_name().empty() || pod.node_name() == node.name();
}

framework::PreFilterPlugin::Result NodeName::PreFilter(framework::CycleState&, const framework::PodInfo& pod,
                                                      std::span<const framework::NodeInfo* const>) {
  Result out;
  if (!pod.node_name().empty()) out.result.node_names.emplace({pod.node_name()});
  return out;
}

framework::Status NodeName::Filter(const framework::CycleState&, const framework::PodInfo& pod,
                                   const framework::NodeInfo& node) const {
  static const Symbol kReason = Symbol::Intern(kErrReason);
  if (NodeNameFits(pod, node)) return framework::Status();
  return framework::Status(framework::Code::kUnschedulableAndUnresolvable, kReason);
}

void NodeName::FilterNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                           std::span<const framework::NodeInfo* const> nodes, std::span<uint8_t> passing,
                           std::span<framework::Status> statuses) const {
  if (pod.node_name().empty()) return;  // every node fits
  FilterNodesWithQuickPass(state, pod, nodes, passing, statuses,
                           [&](const framework::NodeInfo& node) { return NodeNameFits(pod, node); });
}

std::vector<framework::ClusterEventWithHint> NodeName::EventsToRegister() const {
  return {{{framework::EventResource::Node(), framework::kActionAdd, "NodeAdd"}, nullptr}};
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeName(const framework::PluginArgs& args,
                                                               framework::Handle&) {
  SCHEDKIT_RETURN_IF_ERROR(internal::CheckNoArgs(args, names::kNodeName));
  return std::make_unique<NodeName>();
}

framework::Status NodeName::SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const {
  signature.Add(framework::kNodeNameSigner, std::string(pod.pod().spec().node_name()));
  return framework::Status();
}

}  // namespace schedkit::plugins
