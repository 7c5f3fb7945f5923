#include "plugins/volumebinding/volume_binding.h"

#include <string>
#include <utility>

#include "plugins/internal/args.h"
#include "schedkit/api/status_macros.h"
#include "schedkit/api/str_cat.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::Status;

Symbol StateKey() {
  static const Symbol key = Symbol::Intern("VolumeBinding");
  return key;
}

// Upstream reads its state through CycleState.Read, whose miss is
// fwk.ErrNotFound ("not found"), turned into an Error status.
Status StateNotFound() {
  static const Symbol not_found = Symbol::Intern("not found");
  return Status(Code::kError, not_found);
}

Status NoPodVolumeForNode(Symbol node) {
  return Status::Error(schedkit::StrCat("no pod volume found for node \"", node.str(), "\""));
}

}  // namespace

absl::StatusOr<VolumeBindingArgs> ParseVolumeBindingArgs(const framework::PluginArgs& args) {
  constexpr std::string_view kPlugin = names::kVolumeBinding;
  SCHEDKIT_ASSIGN_OR_RETURN(nlohmann::json obj, internal::ParseArgs(args, kPlugin));
  SCHEDKIT_RETURN_IF_ERROR(internal::CheckKnownFields(obj, kPlugin, "", {"bindTimeoutSeconds", "shape"}));
  VolumeBindingArgs out;
  SCHEDKIT_RETURN_IF_ERROR(
      internal::ReadInt(obj, kPlugin, "", "bindTimeoutSeconds", out.bind_timeout_seconds));
  if (out.bind_timeout_seconds < 0) {
    return internal::ArgsError(
        kPlugin, "bindTimeoutSeconds",
        schedkit::StrCat("Invalid value: ", out.bind_timeout_seconds,
                         ": invalid BindTimeoutSeconds, should not be a negative value"));
  }
  // With StorageCapacityScoring off, any shape is rejected so that it cannot
  // silently take effect once the gate turns on.
  if (auto it = obj.find("shape"); it != obj.end() && !it->is_null()) {
    return internal::ArgsError(
        kPlugin, "shape",
        schedkit::StrCat(
            "Invalid value: ", it->dump(),
            ": unexpected field `shape`, remove it or turn on the feature gate StorageCapacityScoring"));
  }
  return out;
}

std::string_view VolumeBinding::Name() const { return names::kVolumeBinding; }

framework::PreFilterPlugin::Result VolumeBinding::PreFilter(
    framework::CycleState& state, const framework::PodInfo& pod,
    std::span<const framework::NodeInfo* const> /*nodes*/) {
  // Upstream looks every PVC up in the lister; with no PVC objects the first
  // PVC volume fails with the lister's NotFound text.
  for (const api::v1::Volume& volume : pod.pod().spec().volumes()) {
    if (!volume.has_persistent_volume_claim()) continue;
    return {
        {},
        Status::WithText(Code::kUnschedulableAndUnresolvable,
                         schedkit::StrCat("persistentvolumeclaim \"",
                                          volume.persistent_volume_claim().claim_name(), "\" not found"))};
  }
  state.Write(StateKey(), std::make_unique<VolumeBindingState>());
  return {{}, Status::Skip()};
}

Status VolumeBinding::Filter(const framework::CycleState& state, const framework::PodInfo& /*pod*/,
                             const framework::NodeInfo& /*node*/) const {
  if (state.Read<VolumeBindingState>(StateKey()) == nullptr) return StateNotFound();
  return Status();
}

Status VolumeBinding::PreScore(framework::CycleState& /*state*/, const framework::PodInfo& /*pod*/,
                               std::span<const framework::NodeInfo* const> /*nodes*/) {
  return Status::Skip();
}

Status VolumeBinding::Score(const framework::CycleState& /*state*/, const framework::PodInfo& /*pod*/,
                            const framework::NodeInfo& /*node*/, int64_t& score) const {
  score = 0;
  return Status();
}

Status VolumeBinding::Reserve(framework::CycleState& state, const framework::PodInfo& /*pod*/,
                              Symbol /*node*/) {
  auto* s = state.Mutable<VolumeBindingState>(StateKey());
  if (s == nullptr) return StateNotFound();
  // No volumes were found for any node (the pod has no PVCs), so nothing
  // needs binding.
  s->all_bound = true;
  return Status();
}

void VolumeBinding::Unreserve(framework::CycleState& /*state*/, const framework::PodInfo& /*pod*/,
                              Symbol /*node*/) {
  // Nothing was assumed.
}

Status VolumeBinding::PreBind(framework::CycleState& state, const framework::PodInfo& /*pod*/, Symbol node) {
  const auto* s = state.Read<VolumeBindingState>(StateKey());
  if (s == nullptr) return StateNotFound();
  if (s->all_bound) return Status();
  return NoPodVolumeForNode(node);
}

Status VolumeBinding::PreBindPreFlight(const framework::CycleState& state, const framework::PodInfo& /*pod*/,
                                       Symbol node) const {
  const auto* s = state.Read<VolumeBindingState>(StateKey());
  if (s == nullptr) return StateNotFound();
  if (s->all_bound) return Status::Skip();
  return NoPodVolumeForNode(node);
}

std::vector<framework::ClusterEventWithHint> VolumeBinding::EventsToRegister() const {
  // Queueing hints are on (GA) in v1.35, so UpdateNodeTaint is not needed.
  return {
      {{framework::EventResource::kNode, framework::kActionAdd | framework::kActionUpdateNodeLabel, "Node"},
       {}},
  };
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewVolumeBinding(const framework::PluginArgs& args,
                                                                    framework::Handle& /*handle*/) {
  SCHEDKIT_ASSIGN_OR_RETURN(VolumeBindingArgs parsed, ParseVolumeBindingArgs(args));
  return std::make_unique<VolumeBinding>(parsed);
}

}  // namespace schedkit::plugins
