// The simulator's stand-in for Kubernetes' PV controller and CSI
// provisioners: it finishes at once the volume bindings that the scheduler's
// VolumeBinding starts in PreBind. The conformance oracle emulates the same
// controller (tests/conformance/README.md), so both programs see the same
// writes in the same order.
//
//  - The scheduler writes a PersistentVolume whose claimRef names a claim:
//    the volume is stored as written, then the claim, if still unbound, is
//    bound to it (spec.volumeName, pv.kubernetes.io/bind-completed and
//    bound-by-controller "yes", status Bound with the volume's access modes
//    and capacity).
//  - The scheduler writes a claim with volume.kubernetes.io/selected-node:
//    the claim is stored, then a volume "pvc-<claim uid>" is provisioned for
//    it (the request as capacity, the claim's access modes and volume mode,
//    the class's reclaim policy, a CSI source of the class's provisioner,
//    status Bound), and the claim is bound to it. Its node affinity pins the
//    node's values of the topology keys: the driver's topologyKeys in the
//    node's CSINode, else the keys of the class's allowedTopologies; no key
//    the node has, no affinity. Nothing is provisioned for a class without
//    a provisioner (or kubernetes.io/no-provisioner) or an unknown node.
//  - Claims the simulator creates (workload_pods.h) of a class that does not
//    wait for a consumer are bound before scheduling starts, as the PV
//    controller binds a new claim: to the smallest Available volume of its
//    class that holds it (or the one pre-bound to it), else to a volume
//    provisioned for it, pinned to the first value of each expression of
//    the class's first allowedTopologies term. Claims in the input keep
//    their state: a dump shows what the controller could not do.
//
// Thread-safe.
#ifndef SCHEDKIT_LIB_SIM_PV_CONTROLLER_H_
#define SCHEDKIT_LIB_SIM_PV_CONTROLLER_H_

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "schedkit/api/object_set.h"
#include "schedkit/api/v1/csi_node.h"
#include "schedkit/api/v1/node.h"
#include "schedkit/api/v1/persistent_volume.h"
#include "schedkit/api/v1/persistent_volume_claim.h"
#include "schedkit/api/v1/storage_class.h"

namespace schedkit::sim {

// A claim the run bound: to which volume, and on which node it was
// provisioned (unset for an existing volume).
struct ClaimBinding {
  std::string namespace_name;
  std::string name;
  std::string volume;
  std::optional<std::string> node;
};

class PvController {
 public:
  // One write, in the order the host must report it to the scheduler:
  // exactly one of the two is set.
  struct Write {
    std::shared_ptr<const api::v1::PersistentVolume> pv;
    std::shared_ptr<const api::v1::PersistentVolumeClaim> claim;
  };

  // Binds `new_claims` ("namespace/name", in order) of `cluster` as the
  // controller binds claims it has just seen, before any scheduling.
  static void BindNewClaims(api::ObjectSet& cluster, const std::vector<std::string>& new_claims);

  // `new_claims` count as unbound at the start (they were, before BindNewClaims).
  PvController(const api::ObjectSet& cluster, const std::vector<std::string>& new_claims);

  // The scheduler's write of `pv`, then the controller's.
  std::vector<Write> VolumeWritten(const api::v1::PersistentVolume& pv);
  // The scheduler's write of `claim`, then the controller's.
  std::vector<Write> ClaimWritten(const api::v1::PersistentVolumeClaim& claim);

  // Claims unbound in the input and bound now, by namespace and name.
  std::vector<ClaimBinding> Bindings() const;

 private:
  // Binds `claim` to `pv` and records the write.
  void BindClaim(const api::v1::PersistentVolumeClaim& claim, const api::v1::PersistentVolume& pv,
                 std::vector<Write>& writes) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  std::optional<api::v1::PersistentVolume> Provision(const api::v1::PersistentVolumeClaim& claim,
                                                     const std::string& node) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable std::mutex mu_;
  absl::flat_hash_map<std::string, const api::v1::Node*> nodes_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, const api::v1::StorageClass*> classes_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, const api::v1::CSINode*> csi_nodes_ ABSL_GUARDED_BY(mu_);
  // By "namespace/name": the claims now, and which were unbound at the start.
  absl::flat_hash_map<std::string, std::shared_ptr<const api::v1::PersistentVolumeClaim>> claims_
      ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, bool> unbound_at_start_ ABSL_GUARDED_BY(mu_);
};

}  // namespace schedkit::sim

#endif  // SCHEDKIT_LIB_SIM_PV_CONTROLLER_H_
