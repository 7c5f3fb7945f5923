#include "plugins/volumezone/volume_zone.h"

#include <string>
#include <utility>

#include "schedkit/api/str_cat.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::Status;

// Upstream's getPVbyPod over an empty cluster: the first PVC volume decides;
// Success (no topologies) when there is none.
Status PVTopologiesVerdict(const framework::PodInfo& pod) {
  for (const api::v1::Volume& v : pod.pod().spec().volumes()) {
    if (!v.has_persistent_volume_claim()) continue;
    const std::string& claim = v.persistent_volume_claim().claim_name();
    if (claim.empty()) {
      static const Symbol no_name = Symbol::Intern("PersistentVolumeClaim had no name");
      return Status(Code::kUnschedulableAndUnresolvable, no_name);
    }
    return Status::WithText(Code::kUnschedulableAndUnresolvable,
                            schedkit::StrCat("persistentvolumeclaim \"", claim, "\" not found"));
  }
  return Status();
}

}  // namespace

std::string_view VolumeZone::Name() const { return names::kVolumeZone; }

framework::PreFilterPlugin::Result VolumeZone::PreFilter(
    framework::CycleState& /*state*/, const framework::PodInfo& pod,
    std::span<const framework::NodeInfo* const> /*nodes*/) {
  Status s = PVTopologiesVerdict(pod);
  if (!s.IsSuccess()) return {{}, std::move(s)};
  // No PV topologies to match.
  return {{}, Status::Skip()};
}

Status VolumeZone::Filter(const framework::CycleState& /*state*/, const framework::PodInfo& pod,
                          const framework::NodeInfo& /*node*/) const {
  if (pod.pod().spec().volumes().empty()) return Status();
  // No PreFilter state can exist here (see the header), so this is upstream's
  // fallback path: recompute, and with no topologies every node fits.
  return PVTopologiesVerdict(pod);
}

std::vector<framework::ClusterEventWithHint> VolumeZone::EventsToRegister() const {
  // Queueing hints are on (GA) in v1.35, so UpdateNodeTaint is not needed.
  return {
      {{framework::EventResource::kNode, framework::kActionAdd | framework::kActionUpdateNodeLabel, "Node"},
       {}},
  };
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewVolumeZone(const framework::PluginArgs& /*args*/,
                                                                 framework::Handle& /*handle*/) {
  return std::make_unique<VolumeZone>();
}

}  // namespace schedkit::plugins
