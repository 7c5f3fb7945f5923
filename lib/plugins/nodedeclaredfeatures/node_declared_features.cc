#include "plugins/nodedeclaredfeatures/node_declared_features.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "plugins/internal/args.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/framework/declared_features.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::DeclaredFeatureSet;
using framework::EventObjects;
using framework::QueueingHint;
using framework::Status;

Symbol StateKey() {
  static const Symbol key = Symbol::Intern("PreFilterNodeDeclaredFeatures");
  return key;
}

struct NeedsState : framework::StateData {
  explicit NeedsState(DeclaredFeatureSet n) : needs(n) {}
  DeclaredFeatureSet needs;
  std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<NeedsState>(needs); }
};

// A node added, or one whose declared list changed (compared in order, as
// upstream's slices.Equal).
absl::StatusOr<QueueingHint> IsSchedulableAfterNodeChange(const framework::PodInfo&, const EventObjects& e) {
  const api::v1::Node* now = e.New<api::v1::Node>();
  if (now == nullptr) return absl::InvalidArgumentError("expected a Node event");
  const api::v1::Node* was = e.Old<api::v1::Node>();
  if (was == nullptr) return QueueingHint::kQueue;
  const auto& a = was->status().declared_features();
  const auto& b = now->status().declared_features();
  const bool same = a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
  return same ? QueueingHint::kSkip : QueueingHint::kQueue;
}

// The pod's own update: queue when what it needs changed.
absl::StatusOr<QueueingHint> IsSchedulableAfterPodUpdate(const framework::PodInfo& pod, const EventObjects& e) {
  const api::v1::Pod* now = e.New<api::v1::Pod>();
  const api::v1::Pod* was = e.Old<api::v1::Pod>();
  if (now == nullptr || was == nullptr) return absl::InvalidArgumentError("expected a Pod update");
  if (now->metadata().uid() != pod.uid()) return QueueingHint::kSkip;
  return framework::InferPodFeatures(was->spec()) == framework::InferPodFeatures(now->spec()) ? QueueingHint::kSkip
                                                                                             : QueueingHint::kQueue;
}

}  // namespace

std::string_view NodeDeclaredFeatures::Name() const { return names::kNodeDeclaredFeatures; }

framework::PreFilterPlugin::Result NodeDeclaredFeatures::PreFilter(framework::CycleState& state,
                                                                   const framework::PodInfo& pod,
                                                                   std::span<const framework::NodeInfo* const>) {
  const DeclaredFeatureSet needs = framework::InferPodFeatures(pod.pod().spec());
  if (needs == 0) return {{}, Status::Skip()};
  state.Write(StateKey(), std::make_unique<NeedsState>(needs));
  return {};
}

Status NodeDeclaredFeatures::Filter(const framework::CycleState& state, const framework::PodInfo&,
                                    const framework::NodeInfo& node) const {
  static const Symbol kReason = Symbol::Intern(kErrReason);
  const auto* s = state.Read<NeedsState>(StateKey());
  if (s == nullptr) {
    static const Symbol not_found = Symbol::Intern(
        "error reading \"PreFilterNodeDeclaredFeatures\" from cycle-state: not found");
    return Status(Code::kError, not_found);
  }
  if ((s->needs & node.declared_features()) == s->needs) return Status();
  return Status(Code::kUnschedulableAndUnresolvable, kReason);
}

std::vector<framework::ClusterEventWithHint> NodeDeclaredFeatures::EventsToRegister() const {
  using framework::EventResource;
  return {
      {{EventResource::Node(), framework::kActionAdd | framework::kActionUpdateNodeDeclaredFeature,
        "NodeAddOrUpdateNodeDeclaredFeature"},
       IsSchedulableAfterNodeChange},
      // Upstream registers TargetPod/Update: the pod's own updates.
      {{EventResource::UnscheduledPod(), framework::kActionUpdate, "TargetPodUpdate"}, IsSchedulableAfterPodUpdate},
  };
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeDeclaredFeatures(const framework::PluginArgs& args,
                                                                           framework::Handle&) {
  SCHEDKIT_RETURN_IF_ERROR(internal::CheckNoArgs(args, names::kNodeDeclaredFeatures));
  return std::make_unique<NodeDeclaredFeatures>();
}

framework::Status NodeDeclaredFeatures::SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const {
  signature.Add(framework::kFeaturesSigner, std::to_string(framework::InferPodFeatures(pod.pod().spec())));
  return framework::Status();
}

}  // namespace schedkit::plugins
