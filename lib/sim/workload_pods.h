// The replicas a cluster's workloads still lack, made as their controllers
// would make them, so that a file holding a StatefulSet or ReplicaSet (and
// no pods yet) simulates its pods. A dump made by kubectl holds every
// replica already, and nothing is added to it.
//
//  - StatefulSet: pods "<set>-<ordinal>" for each ordinal below
//    spec.replicas that has no pod, labelled as the StatefulSet controller
//    labels them (statefulset.kubernetes.io/pod-name,
//    apps.kubernetes.io/pod-index) and owned by the set. Each volumeClaimTemplate gives the pod a claim
//    "<template>-<set>-<ordinal>" (made if missing, labelled with the set's
//    matchLabels, in the default StorageClass when it names none) mounted
//    as the volume of the template's name.
//  - ReplicaSet and ReplicationController: spec.replicas minus the pods they
//    control, named "<set>-<five characters>" as generateName would (here
//    from a hash, so runs repeat).
// A workload whose template has no containers is left alone (an object
// listing only what the scheduler reads). Claims made here are new: the
// stand-in PV controller binds those of an Immediate class at once
// (pv_controller.h).
#ifndef SCHEDKIT_LIB_SIM_WORKLOAD_PODS_H_
#define SCHEDKIT_LIB_SIM_WORKLOAD_PODS_H_

#include <string>
#include <vector>

#include "schedkit/api/object_set.h"
#include "schedkit/api/v1/persistent_volume_claim.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/api/v1/replica_set.h"
#include "schedkit/api/v1/replication_controller.h"
#include "schedkit/api/v1/stateful_set.h"
#include "schedkit/api/v1/storage_class.h"

namespace schedkit::sim {

// Adds the missing pods (after the cluster's own, workload by workload) and
// their new claims to `cluster`. Returns the new claims' "namespace/name".
std::vector<std::string> AddWorkloadPods(api::ObjectSet& cluster);

}  // namespace schedkit::sim

#endif  // SCHEDKIT_LIB_SIM_WORKLOAD_PODS_H_
