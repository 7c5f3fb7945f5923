// Internal: the selector of a pod's default spreading constraints (upstream's
// helper.DefaultSelector): the labels of the Services in the pod's namespace
// that select it, merged, then the selector of the ReplicationController,
// ReplicaSet or StatefulSet that controls it (by its controller owner
// reference, v1 or apps/v1). Empty (Everything) when none applies, and then
// PodTopologySpread applies no default constraint.
//
//   api::LabelSelector s = DefaultSelector(pod, handle.objects());
//
// Reads the workloads through the object listers; any thread.
#ifndef SCHEDKIT_LIB_PLUGINS_INTERNAL_DEFAULT_SELECTOR_H_
#define SCHEDKIT_LIB_PLUGINS_INTERNAL_DEFAULT_SELECTOR_H_

#include "schedkit/api/selector.h"
#include "schedkit/api/object_store.h"
#include "schedkit/framework/pod_info.h"

namespace schedkit::plugins::internal {

api::LabelSelector DefaultSelector(const framework::PodInfo& pod, const api::ObjectLister& objects);

}  // namespace schedkit::plugins::internal

#endif  // SCHEDKIT_LIB_PLUGINS_INTERNAL_DEFAULT_SELECTOR_H_
