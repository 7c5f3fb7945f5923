// The simulator's stand-in for kube-controller-manager's resource-claim
// controller (pkg/controller/resourceclaim, v1.37), which the scheduler
// relies on but does not run: before scheduling starts, every pod that
// names a ResourceClaimTemplate gets the claim the controller would create
// for it, and its status.resourceClaimStatuses records the claim's name.
// The conformance oracle emulates the same controller, so both programs see
// the same claims.
//
//  - The claim is the template's spec, with the template's labels and
//    annotations, the annotation resource.kubernetes.io/pod-claim-name, and
//    the pod as its controlling owner; its name is generateName
//    "<pod>-<pod claim>-" (shortened as the controller shortens it past 57
//    characters) plus five characters derived from the pod's key and the
//    claim (generate_name.h), and its uid "uid-<namespace>-<name>".
//  - Statuses are merged with those the pod has and sorted by name, as the
//    controller's server-side apply writes them.
//  - A pod whose template does not exist gets no claim and no status, as the
//    controller fails to create one: the scheduler then keeps the pod
//    pending with upstream's "ResourceClaim not created yet".
//  - Pods that already record a claim (a dump of a live cluster) are left
//    as they are.
#ifndef SCHEDKIT_LIB_SIM_CLAIM_CONTROLLER_H_
#define SCHEDKIT_LIB_SIM_CLAIM_CONTROLLER_H_

#include <string>
#include <vector>

#include "schedkit/api/object_set.h"

namespace schedkit::sim {

// Creates the claims of `cluster`'s pods from their templates (pods in
// order, each pod's claims in spec order), records them in the pods'
// statuses, and returns the new claims' "namespace/name". Pods need their
// uids first.
std::vector<std::string> CreateClaimsFromTemplates(api::ObjectSet& cluster);

}  // namespace schedkit::sim

#endif  // SCHEDKIT_LIB_SIM_CLAIM_CONTROLLER_H_
