#include "scheduler/pod_update_events.h"

#include <string>

#include "schedkit/base/str_cat.h"

namespace schedkit::scheduler {
namespace {

using framework::ActionType;
using framework::PodInfo;
using framework::Resource;

// A request was removed or lowered (upstream compares every resource the old
// pod requested; an absent request reads as zero here, which is the same
// for every resource that was requested before).
bool ScaledDown(const Resource& old_req, const Resource& new_req) {
  if (new_req.milli_cpu < old_req.milli_cpu || new_req.memory < old_req.memory ||
      new_req.ephemeral_storage < old_req.ephemeral_storage) {
    return true;
  }
  for (const Resource::Scalar& s : old_req.scalars) {
    if (new_req.GetScalar(s.name) < s.amount) return true;
  }
  return false;
}

std::string ActionLabel(ActionType a) {
  switch (a) {
    case framework::kActionUpdatePodLabel:
      return "UpdatePodLabel";
    case framework::kActionUpdatePodScaleDown:
      return "UpdatePodScaleDown";
    case framework::kActionUpdatePodScaleUp:
      return "UpdatePodScaleUp";
    case framework::kActionUpdatePodSchedulingGatesEliminated:
      return "UpdatePodSchedulingGatesEliminated";
    case framework::kActionUpdatePodToleration:
      return "UpdatePodToleration";
    default:
      return "Update";
  }
}

}  // namespace

std::vector<framework::ClusterEvent> PodUpdateEvents(const PodInfo& old_pod, const PodInfo& new_pod, bool target) {
  const bool assigned = !new_pod.node_name().empty();
  const framework::EventResource resource = assigned ? framework::EventResource::AssignedPod()
                                            : target ? framework::EventResource::TargetPod()
                                                     : framework::EventResource::UnscheduledPod();
  const char* resource_label = assigned ? "AssignedPod" : target ? "TargetPod" : "UnscheduledPod";

  std::vector<ActionType> actions;
  if (!(old_pod.labels() == new_pod.labels())) actions.push_back(framework::kActionUpdatePodLabel);
  if (ScaledDown(old_pod.requests(), new_pod.requests()))
    actions.push_back(framework::kActionUpdatePodScaleDown);
  if (ScaledDown(new_pod.requests(), old_pod.requests())) actions.push_back(framework::kActionUpdatePodScaleUp);
  if (new_pod.scheduling_gates().empty() && !old_pod.scheduling_gates().empty()) {
    actions.push_back(framework::kActionUpdatePodSchedulingGatesEliminated);
  }
  // The API only lets tolerations be added, so a changed count is the signal.
  if (new_pod.tolerations().size() != old_pod.tolerations().size()) {
    actions.push_back(framework::kActionUpdatePodToleration);
  }
  if (actions.empty()) actions.push_back(framework::kActionUpdate);

  std::vector<framework::ClusterEvent> events;
  events.reserve(actions.size());
  for (ActionType a : actions) {
    events.push_back(framework::ClusterEvent{resource, a, schedkit::StrCat(resource_label, ActionLabel(a))});
  }
  return events;
}

}  // namespace schedkit::scheduler
