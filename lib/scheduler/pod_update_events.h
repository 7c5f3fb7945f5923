// The cluster events an update of a pending pod amounts to, as upstream's
// framework.PodSchedulingPropertiesChange: one specific Update event per
// scheduling-relevant change (labels, requests scaled down, scheduling gates
// all removed, tolerations changed), or the generic Update when none applies.
// The resource is kUnscheduledPod, or kAssignedPod once spec.nodeName is set:
// the queue sends them for a pending pod's update, the event handlers for a
// bound pod's, one event each, as upstream does.
#ifndef SCHEDKIT_LIB_SCHEDULER_POD_UPDATE_EVENTS_H_
#define SCHEDKIT_LIB_SCHEDULER_POD_UPDATE_EVENTS_H_

#include <vector>

#include "schedkit/framework/events.h"
#include "schedkit/framework/pod_info.h"

namespace schedkit::scheduler {

std::vector<framework::ClusterEvent> PodUpdateEvents(const framework::PodInfo& old_pod,
                                                     const framework::PodInfo& new_pod);

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_LIB_SCHEDULER_POD_UPDATE_EVENTS_H_
