// Which volumes a pod's claims would use on a node (upstream's
// volumeBinder.GetPodVolumeClaims and FindPodVolumes, v1.37). PreFilter
// prepares a pod's claims once (PrepareDelayedClaim); FindPodVolumes then
// decides each node from labels alone, without allocating for pods with up
// to 8 delayed claims.
//
// FindPodVolumes on a node, as upstream:
//  1. Bound claims: the first whose volume is missing or whose node affinity
//     rejects the node decides.
//  2. Unbound WaitForFirstConsumer claims ("delayed"): a claim already
//     carrying volume.kubernetes.io/selected-node for another node fails the
//     node at once. The others, smallest request first, take the smallest
//     Available volume of their class that fits (size, volume mode,
//     VolumeAttributesClass, selector, access modes, node affinity), or the
//     volume pre-bound to them; volumes chosen for one claim are not offered
//     to the next.
//  3. Claims with a selected node and claims left without a volume must be
//     provisionable: a provisioner other than kubernetes.io/no-provisioner,
//     the class's allowedTopologies admit the node, and, for a CSI driver
//     with storageCapacity, some CSIStorageCapacity of the class reaching
//     the node holds the request.
// The node fails with UnschedulableAndUnresolvable and upstream's reasons,
// in upstream's order.
#ifndef SCHEDKIT_LIB_PLUGINS_VOLUMEBINDING_POD_VOLUMES_H_
#define SCHEDKIT_LIB_PLUGINS_VOLUMEBINDING_POD_VOLUMES_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "schedkit/api/selector.h"
#include "schedkit/base/symbol.h"
#include "schedkit/api/v1/csi_driver.h"
#include "schedkit/api/v1/csi_storage_capacity.h"
#include "schedkit/api/v1/persistent_volume.h"
#include "schedkit/api/v1/persistent_volume_claim.h"
#include "schedkit/api/v1/storage_class.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/status.h"

namespace schedkit::plugins::volumebinding {

// The volumes a pod needs on one node (upstream's PodVolumes).
struct PodVolumes {
  struct Binding {
    std::shared_ptr<const api::v1::PersistentVolumeClaim> claim;
    std::shared_ptr<const api::v1::PersistentVolume> pv;
  };
  // Claims to bind to existing volumes.
  std::vector<Binding> static_bindings;
  // Claims to provision on the node.
  std::vector<std::shared_ptr<const api::v1::PersistentVolumeClaim>> provisions;
};

// What a node's volume choices use of each storage class, for VolumeBinding's
// Score (upstream's classResourceMap): the claims' requests against the
// capacity they land on, in bytes. Up to four classes without allocation.
struct ClassUse {
  std::string_view class_name;
  int64_t requested = 0;
  int64_t capacity = 0;
};
using ClassUses = absl::InlinedVector<ClassUse, 4>;
struct VolumeUse {
  // Claims bound to existing volumes, by the volume's class: requests and
  // the volumes' capacities summed. When there are any, only they count.
  bool has_static = false;
  ClassUses static_classes;
  // Claims to provision whose class's capacity is tracked, by the claim's
  // class: requests summed, and the capacity of the CSIStorageCapacity that
  // admitted the class's last claim (upstream assigns, it does not add).
  ClassUses dynamic_classes;
};

// A bound claim's volume: the node affinity it requires, or missing.
struct BoundVolume {
  bool missing = false;
  // Unset: any node. `never` when the affinity does not compile.
  std::optional<api::NodeSelector> affinity;
  bool never = false;
  bool Admits(const api::LabelSet& labels) const;
};

// An unbound WaitForFirstConsumer claim, prepared by PreFilter.
struct DelayedClaim {
  std::shared_ptr<const api::v1::PersistentVolumeClaim> claim;
  // requests.storage: exact (for ordering and volume sizes) and in bytes
  // (against CSIStorageCapacity, as upstream's Value()).
  __int128 request_nanos = 0;
  int64_t request_bytes = 0;
  bool has_request = false;
  std::optional<Symbol> selected_node;

  // Static matching: the volumes of the claim's class that pass every check
  // but node affinity, in list order.
  struct Candidate {
    std::shared_ptr<const api::v1::PersistentVolume> pv;
    BoundVolume affinity;  // `missing` unused
    __int128 size_nanos = 0;
    int64_t capacity_bytes = 0;  // the volume's capacity, for scoring
    bool prebound = false;       // claimRef names this claim
    int id = 0;             // for the per-node exclusion of chosen volumes
  };
  std::vector<Candidate> candidates;
  // An Error status for the claim's selector that does not compile.
  framework::Status matching_error;

  // Provisioning. An Error for a claim without a class or with a missing one.
  framework::Status provision_error;
  bool provisioner_supported = false;
  // allowedTopologies: terms ORed (none: every node), requirements ANDed; a
  // term that selects nothing is left out.
  std::vector<std::vector<api::LabelRequirement>> allowed_topologies;
  bool has_allowed_topologies = false;
  // Whether CSIStorageCapacity decides, and the class's capacities that hold
  // the request, in list order: the first whose node topology selects a
  // node admits the claim there, and its capacity scores it.
  bool check_capacity = false;
  struct Capacity {
    api::LabelSelector node_topology;
    int64_t capacity_bytes = 0;  // `capacity` (0 when unset; upstream crashes)
  };
  std::vector<Capacity> capacities;
  // The claim's class, for scoring.
  std::string class_name;
};

// Everything FindPodVolumes needs for one pod (upstream's PodVolumeClaims).
struct PodVolumeClaims {
  std::vector<BoundVolume> bound;
  // In the pod's volume order.
  std::vector<DelayedClaim> delayed;
  // Delayed claims without a selected node, by request (stable).
  std::vector<int> matching_order;
};

// Prepares `claim`, an unbound claim of a WaitForFirstConsumer class, with
// `volumes`, the latest volumes of its class (AssumeCache::ListVolumes), and
// the storage objects of `objects`.
DelayedClaim PrepareDelayedClaim(std::shared_ptr<const api::v1::PersistentVolumeClaim> claim,
                                 const std::vector<std::shared_ptr<const api::v1::PersistentVolume>>& volumes,
                                 const api::ObjectLister& objects);

// Upstream's IsVolumeBoundToClaim: the volume's claimRef names the claim
// (and its uid, when the reference has one).
bool BoundToClaim(const api::v1::PersistentVolume& pv, const api::v1::PersistentVolumeClaim& claim);

// The node affinity a volume requires (`missing` unused).
BoundVolume VolumeAffinity(const api::v1::PersistentVolume& pv);

// A CSIStorageCapacity's limit for one volume in bytes: maximumVolumeSize
// when set, else capacity; nullopt when neither is there or parses.
std::optional<int64_t> CapacityLimit(const api::v1::CSIStorageCapacity& capacity);

// Finishes `claims` once every claim is in: numbers the candidates and
// orders the matching claims.
void FinishPreparing(PodVolumeClaims& claims);

// Decides `node` (see the file comment). Success fills `out`, if given, with
// the node's bindings and provisions, and `use`, if given, with what they use
// of each class; a failure leaves both unspecified. Without `out` nothing is
// allocated for up to 8 delayed claims and 4 classes.
framework::Status FindPodVolumes(const PodVolumeClaims& claims, const framework::NodeInfo& node,
                                 PodVolumes* out, VolumeUse* use = nullptr);

}  // namespace schedkit::plugins::volumebinding

#endif  // SCHEDKIT_LIB_PLUGINS_VOLUMEBINDING_POD_VOLUMES_H_
