// The cluster events an update of a pending pod amounts to, as upstream's
// framework.PodSchedulingPropertiesChange: one specific Update event per
// scheduling-relevant change (labels, requests scaled down, scheduling gates
// all removed, tolerations changed), or the generic Update when none applies.
// The resource is AssignedPod once spec.nodeName is set, else TargetPod for
// the queue's own update of a pending pod (`target`), else UnscheduledPod: the
// queue sends them for a pending pod's update, the event handlers for a bound
// pod's, one event each, as upstream does (v1.37).
#ifndef SCHEDKIT_LIB_SCHEDULER_POD_UPDATE_EVENTS_H_
#define SCHEDKIT_LIB_SCHEDULER_POD_UPDATE_EVENTS_H_

#include <vector>

#include "schedkit/framework/events.h"
#include "schedkit/framework/pod_info.h"

namespace schedkit::scheduler {

std::vector<framework::ClusterEvent> PodUpdateEvents(const framework::PodInfo& old_pod,
                                                     const framework::PodInfo& new_pod, bool target);

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_LIB_SCHEDULER_POD_UPDATE_EVENTS_H_
