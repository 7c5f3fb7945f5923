// The pods a cluster event hands the queueing hints. An event about an
// assumed pod names its PodInfo (SharedEventObjects::new_pod_info), whose API
// object lacks spec.nodeName until PodInfo::pod() makes and keeps a copy
// with it; the queue instead makes that copy for the event only, so a bound
// pod does not carry a second API object for the rest of its life (hosts
// that never send the bound pod back keep the assumed PodInfo).
#ifndef SCHEDKIT_LIB_SCHEDULER_EVENT_PODS_H_
#define SCHEDKIT_LIB_SCHEDULER_EVENT_PODS_H_

#include "schedkit/scheduler/queue.h"

namespace schedkit::scheduler {

// `objects` with the PodInfos it names replaced by their pods, spec.nodeName
// included.
SharedEventObjects WithEventPods(const SharedEventObjects& objects);

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_LIB_SCHEDULER_EVENT_PODS_H_
