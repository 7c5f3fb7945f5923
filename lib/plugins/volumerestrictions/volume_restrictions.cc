#include "plugins/volumerestrictions/volume_restrictions.h"

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
  static const Symbol key = Symbol::Intern("PreFilterVolumeRestrictions");
  return key;
}

Symbol ReasonReadWriteOncePodConflict() {
  static const Symbol reason = Symbol::Intern(VolumeRestrictions::kErrReasonReadWriteOncePodConflict);
  return reason;
}

Status StateNotFound() {
  static const Symbol text = Symbol::Intern("cannot read \"PreFilterVolumeRestrictions\" from cycleState");
  return Status(Code::kError, text);
}

Status UpdateWithPod(framework::CycleState& state, const framework::PodInfo& pod, int multiplier) {
  auto* s = state.Mutable<VolumeRestrictionsState>(StateKey());
  if (s == nullptr) return StateNotFound();
  s->conflicting_pvc_ref_count += multiplier * s->ConflictingRefsOf(pod);
  return Status();
}

}  // namespace

int VolumeRestrictionsState::ConflictingRefsOf(const framework::PodInfo& pod) const {
  if (read_write_once_pod_pvcs.empty()) return 0;
  int conflicts = 0;
  for (const api::v1::Volume& v : pod.pod().spec().volumes()) {
    if (v.has_persistent_volume_claim() &&
        read_write_once_pod_pvcs.contains(v.persistent_volume_claim().claim_name())) {
      ++conflicts;
    }
  }
  return conflicts;
}

std::string_view VolumeRestrictions::Name() const { return names::kVolumeRestrictions; }

framework::PreFilterPlugin::Result VolumeRestrictions::PreFilter(
    framework::CycleState& /*state*/, const framework::PodInfo& pod,
    std::span<const framework::NodeInfo* const> /*nodes*/) {
  // Upstream fetches each PVC to learn its access modes; with no PVC objects
  // the first PVC volume fails with the lister's NotFound text.
  for (const api::v1::Volume& v : pod.pod().spec().volumes()) {
    if (!v.has_persistent_volume_claim()) continue;
    return {{},
            Status::WithText(Code::kUnschedulableAndUnresolvable,
                             schedkit::StrCat("persistentvolumeclaim \"",
                                              v.persistent_volume_claim().claim_name(), "\" not found"))};
  }
  // No disk volumes to check (none exist in the model) and no
  // ReadWriteOncePod claims: Filter has nothing to do.
  return {{}, Status::Skip()};
}

Status VolumeRestrictions::AddPod(framework::CycleState& state, const framework::PodInfo& /*pod_to_schedule*/,
                                  const framework::PodInfo& pod_to_add,
                                  const framework::NodeInfo& /*node*/) const {
  return UpdateWithPod(state, pod_to_add, 1);
}

Status VolumeRestrictions::RemovePod(framework::CycleState& state,
                                     const framework::PodInfo& /*pod_to_schedule*/,
                                     const framework::PodInfo& pod_to_remove,
                                     const framework::NodeInfo& /*node*/) const {
  return UpdateWithPod(state, pod_to_remove, -1);
}

Status VolumeRestrictions::Filter(const framework::CycleState& state, const framework::PodInfo& /*pod*/,
                                  const framework::NodeInfo& /*node*/) const {
  // The disk-conflict check (GCE PD, AWS EBS, iSCSI, RBD) always passes:
  // schedkit's pods carry none of those volume sources.
  const auto* s = state.Read<VolumeRestrictionsState>(StateKey());
  if (s == nullptr) return StateNotFound();
  if (s->conflicting_pvc_ref_count > 0) return Status(Code::kUnschedulable, ReasonReadWriteOncePodConflict());
  return Status();
}

std::vector<framework::ClusterEventWithHint> VolumeRestrictions::EventsToRegister() const {
  // Queueing hints are on (GA) in v1.35, so Node/Add suffices.
  return {
      {{framework::EventResource::kPod, framework::kActionDelete, "PodDelete"},
       &VolumeRestrictions::IsSchedulableAfterPodDeleted},
      {{framework::EventResource::kNode, framework::kActionAdd, "NodeAdd"}, {}},
  };
}

absl::StatusOr<framework::QueueingHint> VolumeRestrictions::IsSchedulableAfterPodDeleted(
    const framework::PodInfo& pod, const framework::EventObjects& event) {
  const api::v1::Pod* deleted = event.old_pod;
  if (deleted == nullptr) {
    return absl::InvalidArgumentError(
        "unexpected objects in isSchedulableAfterPodDeleted: expected the deleted pod, got none");
  }
  if (deleted->metadata().namespace_() != pod.namespace_().str()) return framework::QueueingHint::kSkip;
  // Upstream first checks disk conflicts with the deleted pod's volumes;
  // there are no disk volumes here. Then: a deleted pod sharing a PVC may
  // have held it with ReadWriteOncePod.
  for (const api::v1::Volume& dv : deleted->spec().volumes()) {
    if (!dv.has_persistent_volume_claim()) continue;
    for (const api::v1::Volume& v : pod.pod().spec().volumes()) {
      if (v.has_persistent_volume_claim() &&
          v.persistent_volume_claim().claim_name() == dv.persistent_volume_claim().claim_name()) {
        return framework::QueueingHint::kQueue;
      }
    }
  }
  return framework::QueueingHint::kSkip;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewVolumeRestrictions(
    const framework::PluginArgs& /*args*/, framework::Handle& /*handle*/) {
  return std::make_unique<VolumeRestrictions>();
}

}  // namespace schedkit::plugins
