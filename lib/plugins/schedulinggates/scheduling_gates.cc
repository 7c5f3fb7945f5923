#include "plugins/schedulinggates/scheduling_gates.h"

#include <string>

#include "absl/status/status.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {

std::string_view SchedulingGates::Name() const { return names::kSchedulingGates; }

framework::Status SchedulingGates::PreEnqueue(const framework::PodInfo& pod) {
  const std::vector<Symbol>& gates = pod.scheduling_gates();
  if (gates.empty()) return framework::Status();
  // Go formats the []string with %v: "[a b c]".
  std::string msg = "waiting for scheduling gates: [";
  for (size_t i = 0; i < gates.size(); ++i) {
    if (i > 0) msg += ' ';
    msg += gates[i].str();
  }
  msg += ']';
  return framework::Status::WithText(framework::Code::kUnschedulableAndUnresolvable, std::move(msg));
}

std::vector<framework::ClusterEventWithHint> SchedulingGates::EventsToRegister() const {
  return {
      {{framework::EventResource::TargetPod(), framework::kActionUpdatePodSchedulingGatesEliminated,
        "TargetPodUpdatePodSchedulingGatesEliminated"},
       &SchedulingGates::IsSchedulableAfterUpdatePodSchedulingGatesEliminated},
  };
}

absl::StatusOr<framework::QueueingHint> SchedulingGates::IsSchedulableAfterUpdatePodSchedulingGatesEliminated(
    const framework::PodInfo& /*pod*/, const framework::EventObjects& /*event*/) {
  // A TargetPod event: the pod's own gates are gone (v1.37 asks no more).
  return framework::QueueingHint::kQueue;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewSchedulingGates(const framework::PluginArgs& /*args*/,
                                                                      framework::Handle& /*handle*/) {
  return std::make_unique<SchedulingGates>();
}

}  // namespace schedkit::plugins
