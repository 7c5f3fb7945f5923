// The built-in kinds: every kind schedkit models, one header each, and the
// one list of them (BuiltinKinds() is made from it). Hosts and tools that
// handle every kind include this header (a simulator, a test of the
// decoder); a plugin includes the headers of the kinds it reads instead, so
// that its translation unit compiles no other kind's generated code.
#ifndef SCHEDKIT_API_V1_KINDS_H_
#define SCHEDKIT_API_V1_KINDS_H_

#include <tuple>

#include "schedkit/api/v1/csi_driver.h"
#include "schedkit/api/v1/csi_node.h"
#include "schedkit/api/v1/csi_storage_capacity.h"
#include "schedkit/api/v1/device_class.h"
#include "schedkit/api/v1/device_taint_rule.h"
#include "schedkit/api/v1/namespace.h"
#include "schedkit/api/v1/node.h"
#include "schedkit/api/v1/persistent_volume.h"
#include "schedkit/api/v1/persistent_volume_claim.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/api/v1/pod_disruption_budget.h"
#include "schedkit/api/v1/priority_class.h"
#include "schedkit/api/v1/replica_set.h"
#include "schedkit/api/v1/replication_controller.h"
#include "schedkit/api/v1/resource_claim.h"
#include "schedkit/api/v1/resource_claim_template.h"
#include "schedkit/api/v1/resource_slice.h"
#include "schedkit/api/v1/service.h"
#include "schedkit/api/v1/stateful_set.h"
#include "schedkit/api/v1/storage_class.h"
#include "schedkit/api/v1/volume_attachment.h"

namespace schedkit::api::v1 {

// In the order a reader of a dump meets them best: namespaces and priority
// classes, nodes, pods, then what pods refer to.
using BuiltinKindTypes =
    std::tuple<Namespace, PriorityClass, Node, Pod, PodDisruptionBudget, Service, ReplicationController, ReplicaSet,
               StatefulSet, PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode, CSIDriver,
               CSIStorageCapacity, VolumeAttachment, DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice,
               DeviceTaintRule>;

}  // namespace schedkit::api::v1

#endif  // SCHEDKIT_API_V1_KINDS_H_
