#include "plugins/nodevolumelimits/csi.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "schedkit/api/str_cat.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::Status;

Symbol StateKey() {
  static const Symbol key = Symbol::Intern("PreFilterNodeVolumeLimits");
  return key;
}

// What Filter returns for this pod on every node, computed once.
struct VerdictState : framework::StateData {
  Status verdict;
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<VerdictState>(*this);
  }
};

}  // namespace

std::string_view NodeVolumeLimits::Name() const { return names::kNodeVolumeLimits; }

Status NodeVolumeLimits::FilterVerdict(const framework::PodInfo& pod) {
  const api::v1::Pod& p = pod.pod();
  for (const api::v1::Volume& v : p.spec().volumes()) {
    // Inline volumes are counted only when migratable to CSI; schedkit's pods
    // have no such sources, so only PVC volumes matter.
    if (!v.has_persistent_volume_claim()) continue;
    const std::string& claim = v.persistent_volume_claim().claim_name();
    if (claim.empty()) {
      static const Symbol no_name = Symbol::Intern("PersistentVolumeClaim had no name");
      return Status(Code::kError, no_name);
    }
    // A new pod cannot run without its PVC: the lookup error is final.
    return Status::WithText(Code::kUnschedulableAndUnresolvable,
                            schedkit::StrCat("looking up PVC ", p.metadata().namespace_(), "/", claim,
                                             ": persistentvolumeclaim \"", claim, "\" not found"));
  }
  // No CSI volumes to count.
  return Status();
}

framework::PreFilterPlugin::Result NodeVolumeLimits::PreFilter(
    framework::CycleState& state, const framework::PodInfo& pod,
    std::span<const framework::NodeInfo* const> /*nodes*/) {
  bool has_pvc = false;
  for (const api::v1::Volume& v : pod.pod().spec().volumes())
    has_pvc = has_pvc || v.has_persistent_volume_claim();
  if (!has_pvc) return {{}, Status::Skip()};
  auto s = std::make_unique<VerdictState>();
  s->verdict = FilterVerdict(pod);
  state.Write(StateKey(), std::move(s));
  return {{}, Status()};
}

Status NodeVolumeLimits::Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                                const framework::NodeInfo& /*node*/) const {
  if (pod.pod().spec().volumes().empty()) return Status();
  if (const auto* s = state.Read<VerdictState>(StateKey()); s != nullptr) return s->verdict;
  return FilterVerdict(pod);
}

std::vector<framework::ClusterEventWithHint> NodeVolumeLimits::EventsToRegister() const {
  return {
      {{framework::EventResource::kPod, framework::kActionDelete, "PodDelete"},
       &NodeVolumeLimits::IsSchedulableAfterPodDeleted},
  };
}

absl::StatusOr<framework::QueueingHint> NodeVolumeLimits::IsSchedulableAfterPodDeleted(
    const framework::PodInfo& /*pod*/, const framework::EventObjects& event) {
  const api::v1::Pod* deleted = event.old_pod;
  if (deleted == nullptr) {
    return absl::InvalidArgumentError(
        "unexpected objects in isSchedulableAfterPodDeleted: expected the deleted pod, got none");
  }
  if (deleted->spec().volumes().empty()) return framework::QueueingHint::kSkip;
  if (deleted->spec().node_name().empty() && deleted->status().nominated_node_name().empty()) {
    return framework::QueueingHint::kSkip;
  }
  for (const api::v1::Volume& v : deleted->spec().volumes()) {
    if (v.has_persistent_volume_claim()) return framework::QueueingHint::kQueue;
  }
  return framework::QueueingHint::kSkip;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeVolumeLimits(const framework::PluginArgs& /*args*/,
                                                                       framework::Handle& /*handle*/) {
  return std::make_unique<NodeVolumeLimits>();
}

}  // namespace schedkit::plugins
