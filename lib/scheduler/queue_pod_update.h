// The cluster events an update of a pending pod amounts to, as upstream's
// framework.PodSchedulingPropertiesChange: one specific Update event per
// scheduling-relevant change (labels, requests scaled down, scheduling gates
// all removed, tolerations changed), or the generic Update when none applies.
// The resource is kUnscheduledPod, or kAssignedPod once spec.nodeName is set.
#ifndef SCHEDKIT_LIB_SCHEDULER_QUEUE_POD_UPDATE_H_
#define SCHEDKIT_LIB_SCHEDULER_QUEUE_POD_UPDATE_H_

#include <vector>

#include "schedkit/framework/events.h"
#include "schedkit/framework/pod_info.h"

namespace schedkit::scheduler::queue_internal {

std::vector<framework::ClusterEvent> PodUpdateEvents(const framework::PodInfo& old_pod,
                                                     const framework::PodInfo& new_pod);

}  // namespace schedkit::scheduler::queue_internal

#endif  // SCHEDKIT_LIB_SCHEDULER_QUEUE_POD_UPDATE_H_
