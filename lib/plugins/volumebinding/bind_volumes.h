// Binding a pod's volumes on its node (upstream's volumeBinder
// AssumePodVolumes, RevertAssumedPodVolumes and BindPodVolumes, v1.37):
// Reserve assumes the volumes FindPodVolumes chose, so that the next pods
// see them taken; PreBind writes them through the host and waits until the
// PV controller has bound every claim.
#ifndef SCHEDKIT_LIB_PLUGINS_VOLUMEBINDING_BIND_VOLUMES_H_
#define SCHEDKIT_LIB_PLUGINS_VOLUMEBINDING_BIND_VOLUMES_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "plugins/volumebinding/assume_cache.h"
#include "plugins/volumebinding/pod_volumes.h"
#include "schedkit/api/selector.h"
#include "schedkit/base/symbol.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/framework/handle.h"

namespace schedkit::plugins::volumebinding {

// Whether the claim names its volume and carries pv.kubernetes.io/bind-completed.
bool FullyBound(const api::v1::PersistentVolumeClaim& claim);

// Reserve: true when every claim of `pod` is fully bound already (nothing
// to do). Otherwise assumes each static binding's volume bound to its claim
// (spec.claimRef, pv.kubernetes.io/bound-by-controller) and each claim to
// provision with volume.kubernetes.io/selected-node = `node`, and replaces
// `volumes`' objects with the assumed ones. On an error nothing stays
// assumed.
absl::StatusOr<bool> AssumePodVolumes(const api::v1::Pod& pod, Symbol node, PodVolumes& volumes,
                                      AssumeCache& cache);

// Unreserve: drops what AssumePodVolumes assumed.
void RevertAssumedPodVolumes(const PodVolumes& volumes, AssumeCache& cache);

// PreBind: sends the assumed objects through `client`, then waits, up to
// `timeout`, until `objects` (the scheduler's) hold each claim fully bound
// to a volume that admits the node. Errors as upstream's ("binding volumes:
// ...").
absl::Status BindPodVolumes(const api::v1::Pod& pod, Symbol node, const api::LabelSet& node_labels,
                            PodVolumes& volumes, framework::ClusterClient& client,
                            const api::ObjectLister& objects, absl::Duration timeout);

}  // namespace schedkit::plugins::volumebinding

#endif  // SCHEDKIT_LIB_PLUGINS_VOLUMEBINDING_BIND_VOLUMES_H_
