// Internal: the host ports a pod holds for its lifetime. PodInfo parses them
// once per pod; NodePorts' queueing hint has only a deleted pod's API object.
#ifndef SCHEDKIT_LIB_FRAMEWORK_HOST_PORTS_H_
#define SCHEDKIT_LIB_FRAMEWORK_HOST_PORTS_H_

#include <vector>

#include "schedkit/api/v1/pod.h"
#include "schedkit/framework/pod_info.h"

namespace schedkit::framework {

// Upstream util.GetHostPorts: the host ports (hostPort > 0) of the pod's
// sidecars (restartable init containers), then of its containers, in spec
// order; hostIP "" becomes 0.0.0.0 and protocol "" TCP, as HostPortInfo
// sanitizes them.
std::vector<HostPort> HostPortsOf(const api::v1::Pod& pod);

}  // namespace schedkit::framework

#endif  // SCHEDKIT_LIB_FRAMEWORK_HOST_PORTS_H_
