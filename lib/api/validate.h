// Internal: per-object validation of decoded cluster objects, in the spirit of
// the API server's validation, so that nothing the scheduler later compiles
// can be malformed. Errors read "<field.path>: <problem>".
#ifndef SCHEDKIT_LIB_API_VALIDATE_H_
#define SCHEDKIT_LIB_API_VALIDATE_H_

#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "schedkit/api/v1/cluster.pb.h"

namespace schedkit::api::internal {

// Fills what the API server defaults on create: namespace "default" for
// namespaced objects and schedulerName "default-scheduler" for pods.
void ApplyDefaults(v1::Pod& pod);
void ApplyDefaults(v1::PodDisruptionBudget& pdb);
void ApplyDefaults(v1::Service& service);
void ApplyDefaults(v1::ReplicationController& rc);
void ApplyDefaults(v1::ReplicaSet& rs);
void ApplyDefaults(v1::StatefulSet& ss);
void ApplyDefaults(v1::PersistentVolumeClaim& pvc);
void ApplyDefaults(v1::CSIStorageCapacity& capacity);
// volumeBindingMode Immediate, reclaimPolicy Delete.
void ApplyDefaults(v1::StorageClass& sc);

absl::Status ValidateNode(const v1::Node& node);
absl::Status ValidatePod(const v1::Pod& pod);
absl::Status ValidatePodDisruptionBudget(const v1::PodDisruptionBudget& pdb);
absl::Status ValidatePriorityClass(const v1::PriorityClass& pc);
absl::Status ValidateNamespace(const v1::Namespace& ns);
absl::Status ValidateService(const v1::Service& service);
absl::Status ValidateReplicationController(const v1::ReplicationController& rc);
absl::Status ValidateReplicaSet(const v1::ReplicaSet& rs);
absl::Status ValidateStatefulSet(const v1::StatefulSet& ss);

// Storage (validate_storage.cc).
absl::Status ValidatePersistentVolume(const v1::PersistentVolume& pv);
absl::Status ValidatePersistentVolumeClaim(const v1::PersistentVolumeClaim& pvc);
absl::Status ValidateStorageClass(const v1::StorageClass& sc);
absl::Status ValidateCSINode(const v1::CSINode& node);
absl::Status ValidateCSIDriver(const v1::CSIDriver& driver);
absl::Status ValidateCSIStorageCapacity(const v1::CSIStorageCapacity& capacity);
absl::Status ValidateVolumeAttachment(const v1::VolumeAttachment& attachment);
// A claim's spec (a PVC's, or an ephemeral volume's template) under `path`.
absl::Status ValidateClaimSpec(std::string_view path, const v1::PersistentVolumeClaimSpec& spec);
// A pod's spec.volumes.
absl::Status ValidatePodVolumes(const google::protobuf::RepeatedPtrField<v1::Volume>& volumes);

// RFC 3339 as Kubernetes writes it ("2024-05-01T10:00:00Z").
absl::StatusOr<absl::Time> ParseTimestamp(std::string_view text);

}  // namespace schedkit::api::internal

#endif  // SCHEDKIT_LIB_API_VALIDATE_H_
