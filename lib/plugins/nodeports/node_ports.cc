#include "plugins/nodeports/node_ports.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "framework/host_ports.h"
#include "plugins/internal/args.h"
#include "plugins/internal/signers.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using framework::EventObjects;
using framework::HostPort;
using framework::QueueingHint;

const framework::StateKey& PreFilterStateKey() {
  static const framework::StateKey key = Symbol::Intern("PreFilterNodePorts");
  return key;
}

// The wanted ports never change with other pods, so the state is shared
// read-only by every clone.
struct PreFilterState final : framework::StateData {
  explicit PreFilterState(std::shared_ptr<const std::vector<HostPort>> p) : ports(std::move(p)) {}
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PreFilterState>(ports);
  }
  std::shared_ptr<const std::vector<HostPort>> ports;
};

// The deleted pod freed ports on its node only if it was bound or nominated
// there, and only ports the rejected pod wants matter.
absl::StatusOr<QueueingHint> IsSchedulableAfterPodDeleted(const framework::PodInfo& pod,
                                                          const EventObjects& e) {
  if (e.Old<api::v1::Pod>() == nullptr || e.Old<api::v1::Node>() != nullptr || e.New<api::v1::Node>() != nullptr) {
    return absl::InvalidArgumentError("expected a deleted Pod");
  }
  const api::v1::Pod& deleted = *e.Old<api::v1::Pod>();
  if (deleted.spec().node_name().empty() && deleted.status().nominated_node_name().empty()) {
    return QueueingHint::kSkip;
  }
  const std::vector<HostPort> freed = framework::HostPortsOf(deleted);
  if (freed.empty()) return QueueingHint::kSkip;
  framework::HostPortSet in_use;
  for (const HostPort& p : freed) in_use.Add(p);
  return FitsPorts(pod.host_ports(), in_use) ? QueueingHint::kSkip : QueueingHint::kQueue;
}

}  // namespace

bool FitsPorts(std::span<const HostPort> wanted, const framework::HostPortSet& used) {
  for (const HostPort& p : wanted) {
    if (used.Conflicts(p)) return false;
  }
  return true;
}

bool NodePortsFit(const framework::PodInfo& pod, const framework::NodeInfo& node) {
  return FitsPorts(pod.host_ports(), node.used_ports());
}

std::string_view NodePorts::Name() const { return names::kNodePorts; }

NodePorts::Result NodePorts::PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                                       std::span<const framework::NodeInfo* const>) {
  // PodInfo parsed the ports once (HostPortsOf); most pods have none.
  if (pod.host_ports().empty()) return {framework::PreFilterResult{}, framework::Status::Skip()};
  auto ports = std::make_shared<const std::vector<HostPort>>(pod.host_ports());
  state.Write(PreFilterStateKey(), std::make_unique<PreFilterState>(std::move(ports)));
  return {};
}

framework::Status NodePorts::Filter(const framework::CycleState& state, const framework::PodInfo&,
                                    const framework::NodeInfo& node) const {
  static const Symbol kReason = Symbol::Intern(kErrReason);
  const auto* s = state.Read<PreFilterState>(PreFilterStateKey());
  if (s == nullptr)
    return framework::Status::Error("reading \"PreFilterNodePorts\" from cycleState: not found");
  if (FitsPorts(*s->ports, node.used_ports())) return framework::Status();
  return framework::Status(framework::Code::kUnschedulable, kReason);
}

std::vector<framework::ClusterEventWithHint> NodePorts::EventsToRegister() const {
  using framework::EventResource;
  return {
      // Container ports are immutable, so pod updates cannot free a port.
      {{EventResource::AssignedPod(), framework::kActionDelete, "AssignedPodDelete"}, IsSchedulableAfterPodDeleted},
      {{EventResource::Node(), framework::kActionAdd, "NodeAdd"}, nullptr},
  };
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodePorts(const framework::PluginArgs& args,
                                                                framework::Handle&) {
  SCHEDKIT_RETURN_IF_ERROR(internal::CheckNoArgs(args, names::kNodePorts));
  return std::make_unique<NodePorts>();
}

framework::Status NodePorts::SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const {
  signature.Add(framework::kHostPortsSigner, HostPortsSignature(pod));
  return framework::Status();
}

}  // namespace schedkit::plugins
