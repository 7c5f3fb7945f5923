#include "plugins/nodeunschedulable/node_unschedulable.h"

#include <string>

#include "absl/status/status.h"
#include "plugins/internal/args.h"
#include "plugins/internal/signers.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/well_known.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using framework::EventObjects;
using framework::QueueingHint;

constexpr std::string_view kUnschedulableTaintKey = "node.kubernetes.io/unschedulable";

// v1.Toleration.ToleratesTaint on the API object, with the alpha
// TaintTolerationComparisonOperators gate off (its v1.37 default): Lt/Gt and
// unknown operators tolerate nothing. Only hints use it, off the hot path.
bool ToleratesUnschedulableTaint(const api::v1::Toleration& t) {
  if (!t.effect().empty() && t.effect() != "NoSchedule") return false;
  if (!t.key().empty() && t.key() != kUnschedulableTaintKey) return false;
  const std::string& op = t.operator_();
  if (op.empty() || op == "Equal") return t.value().empty();
  return op == "Exists";
}

// util.As[*v1.Node]: the event must carry nodes, and a new one.
absl::Status CheckNodeEvent(const EventObjects& e) {
  if (e.New<api::v1::Node>() == nullptr || e.Old<api::v1::Pod>() != nullptr || e.New<api::v1::Pod>() != nullptr) {
    return absl::InvalidArgumentError("expected a Node event");
  }
  return absl::OkStatus();
}

absl::Status CheckPodEvent(const EventObjects& e) {
  if (e.New<api::v1::Pod>() == nullptr || e.Old<api::v1::Node>() != nullptr || e.New<api::v1::Node>() != nullptr) {
    return absl::InvalidArgumentError("expected a Pod event");
  }
  return absl::OkStatus();
}

// Queue when a node is added schedulable, or turns from unschedulable to
// schedulable.
absl::StatusOr<QueueingHint> IsSchedulableAfterNodeChange(const framework::PodInfo&, const EventObjects& e) {
  SCHEDKIT_RETURN_IF_ERROR(CheckNodeEvent(e));
  const bool now_schedulable = !e.New<api::v1::Node>()->spec().unschedulable();
  const bool was_unschedulable = e.Old<api::v1::Node>() == nullptr || e.Old<api::v1::Node>()->spec().unschedulable();
  return now_schedulable && was_unschedulable ? QueueingHint::kQueue : QueueingHint::kSkip;
}

// Queue when the pod gained a toleration of the unschedulable taint. Tolerations can only be added, so the old pod need not
// be looked at: had it tolerated the taint, this plugin would not have
// rejected it.
absl::StatusOr<QueueingHint> IsSchedulableAfterPodTolerationChange(const framework::PodInfo&,
                                                                   const EventObjects& e) {
  SCHEDKIT_RETURN_IF_ERROR(CheckPodEvent(e));
  // A TargetPod event (v1.37): upstream no longer asks whose update it is.
  for (const api::v1::Toleration& t : e.New<api::v1::Pod>()->spec().tolerations()) {
    if (ToleratesUnschedulableTaint(t)) return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

}  // namespace

std::string_view NodeUnschedulable::Name() const { return names::kNodeUnschedulable; }

framework::PreFilterPlugin::Result NodeUnschedulable::PreFilter(framework::CycleState&, const framework::PodInfo&,
                                                               std::span<const framework::NodeInfo* const>) {
  return {};
}

framework::Status NodeUnschedulable::Filter(const framework::CycleState&, const framework::PodInfo& pod,
                                            const framework::NodeInfo& node) const {
  static const Symbol kReason = Symbol::Intern(kErrReasonUnschedulable);
  static const framework::Taint kUnschedulableTaint{schedkit::well_known::TaintNodeUnschedulable(), Symbol(),
                                                    framework::TaintEffect::kNoSchedule};
  if (!node.unschedulable()) return framework::Status();
  // A pod that tolerates the taint also tolerates spec.unschedulable.
  if (framework::TolerationsTolerate(pod.tolerations(), kUnschedulableTaint)) return framework::Status();
  return framework::Status(framework::Code::kUnschedulableAndUnresolvable, kReason);
}

std::vector<framework::ClusterEventWithHint> NodeUnschedulable::EventsToRegister() const {
  using framework::EventResource;
  return {
      {{EventResource::Node(), framework::kActionAdd | framework::kActionUpdateNodeTaint, "Node"},
       IsSchedulableAfterNodeChange},
      {{EventResource::TargetPod(), framework::kActionUpdatePodToleration, "TargetPodUpdatePodToleration"},
       IsSchedulableAfterPodTolerationChange},
  };
}

void NodeUnschedulable::FilterNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                                    std::span<const framework::NodeInfo* const> nodes, std::span<uint8_t> passing,
                                    std::span<framework::Status> statuses) const {
  FilterNodesWithQuickPass(state, pod, nodes, passing, statuses,
                           [](const framework::NodeInfo& node) { return !node.unschedulable(); });
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeUnschedulable(const framework::PluginArgs& args,
                                                                        framework::Handle&) {
  SCHEDKIT_RETURN_IF_ERROR(internal::CheckNoArgs(args, names::kNodeUnschedulable));
  return std::make_unique<NodeUnschedulable>();
}

framework::Status NodeUnschedulable::SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const {
  signature.Add(framework::kTolerationsSigner, TolerationsSignature(pod));
  return framework::Status();
}

}  // namespace schedkit::plugins
