// ClusterLister: how a host hands schedkit its cluster state. The scheduler
// (and Snapshot building) take their initial state from it; changes after
// that arrive as events. Implement it over your informers, database or files.
//
//   class MyLister : public schedkit::api::ClusterLister { ... };
//   StaticClusterLister lister(decoded.objects);   // in-memory, for tests and tools
//
// Methods may be called from any thread, but never concurrently with each
// other by schedkit. Errors abort the operation that listed.
#ifndef SCHEDKIT_API_LISTER_H_
#define SCHEDKIT_API_LISTER_H_

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/api/v1/cluster.pb.h"

namespace schedkit::api {

template <typename T>
using ObjectList = std::vector<std::shared_ptr<const T>>;

class ClusterLister {
 public:
  virtual ~ClusterLister() = default;
  virtual absl::StatusOr<ObjectList<v1::Node>> ListNodes() const = 0;
  // Every pod, bound (spec.nodeName set) or pending.
  virtual absl::StatusOr<ObjectList<v1::Pod>> ListPods() const = 0;
  virtual absl::StatusOr<ObjectList<v1::PodDisruptionBudget>> ListPodDisruptionBudgets() const = 0;
  virtual absl::StatusOr<ObjectList<v1::PriorityClass>> ListPriorityClasses() const = 0;
  // Namespaces with their labels, for pod affinity namespaceSelectors.
  virtual absl::StatusOr<ObjectList<v1::Namespace>> ListNamespaces() const = 0;
  // The workloads that select or own pods, from which PodTopologySpread
  // derives a pod's default spreading selector. Default: none, and then
  // default spreading applies to no pod, as upstream with empty listers.
  virtual absl::StatusOr<ObjectList<v1::Service>> ListServices() const { return ObjectList<v1::Service>(); }
  virtual absl::StatusOr<ObjectList<v1::ReplicationController>> ListReplicationControllers() const {
    return ObjectList<v1::ReplicationController>();
  }
  virtual absl::StatusOr<ObjectList<v1::ReplicaSet>> ListReplicaSets() const { return ObjectList<v1::ReplicaSet>(); }
  virtual absl::StatusOr<ObjectList<v1::StatefulSet>> ListStatefulSets() const {
    return ObjectList<v1::StatefulSet>();
  }
  // The storage objects the volume plugins read. Default: none; then a pod
  // with a PersistentVolumeClaim waits for its claim, as upstream does.
  virtual absl::StatusOr<ObjectList<v1::PersistentVolume>> ListPersistentVolumes() const {
    return ObjectList<v1::PersistentVolume>();
  }
  virtual absl::StatusOr<ObjectList<v1::PersistentVolumeClaim>> ListPersistentVolumeClaims() const {
    return ObjectList<v1::PersistentVolumeClaim>();
  }
  virtual absl::StatusOr<ObjectList<v1::StorageClass>> ListStorageClasses() const {
    return ObjectList<v1::StorageClass>();
  }
  virtual absl::StatusOr<ObjectList<v1::CSINode>> ListCSINodes() const { return ObjectList<v1::CSINode>(); }
  virtual absl::StatusOr<ObjectList<v1::CSIDriver>> ListCSIDrivers() const { return ObjectList<v1::CSIDriver>(); }
  virtual absl::StatusOr<ObjectList<v1::CSIStorageCapacity>> ListCSIStorageCapacities() const {
    return ObjectList<v1::CSIStorageCapacity>();
  }
  virtual absl::StatusOr<ObjectList<v1::VolumeAttachment>> ListVolumeAttachments() const {
    return ObjectList<v1::VolumeAttachment>();
  }
};

// A lister over a fixed set of objects (what Decode/LoadPaths return).
class StaticClusterLister : public ClusterLister {
 public:
  explicit StaticClusterLister(const v1::Cluster& cluster);

  absl::StatusOr<ObjectList<v1::Node>> ListNodes() const override { return nodes_; }
  absl::StatusOr<ObjectList<v1::Pod>> ListPods() const override { return pods_; }
  absl::StatusOr<ObjectList<v1::PodDisruptionBudget>> ListPodDisruptionBudgets() const override { return pdbs_; }
  absl::StatusOr<ObjectList<v1::PriorityClass>> ListPriorityClasses() const override { return priority_classes_; }
  absl::StatusOr<ObjectList<v1::Namespace>> ListNamespaces() const override { return namespaces_; }
  absl::StatusOr<ObjectList<v1::Service>> ListServices() const override { return services_; }
  absl::StatusOr<ObjectList<v1::ReplicationController>> ListReplicationControllers() const override {
    return replication_controllers_;
  }
  absl::StatusOr<ObjectList<v1::ReplicaSet>> ListReplicaSets() const override { return replica_sets_; }
  absl::StatusOr<ObjectList<v1::StatefulSet>> ListStatefulSets() const override { return stateful_sets_; }
  absl::StatusOr<ObjectList<v1::PersistentVolume>> ListPersistentVolumes() const override { return pvs_; }
  absl::StatusOr<ObjectList<v1::PersistentVolumeClaim>> ListPersistentVolumeClaims() const override {
    return pvcs_;
  }
  absl::StatusOr<ObjectList<v1::StorageClass>> ListStorageClasses() const override { return storage_classes_; }
  absl::StatusOr<ObjectList<v1::CSINode>> ListCSINodes() const override { return csi_nodes_; }
  absl::StatusOr<ObjectList<v1::CSIDriver>> ListCSIDrivers() const override { return csi_drivers_; }
  absl::StatusOr<ObjectList<v1::CSIStorageCapacity>> ListCSIStorageCapacities() const override {
    return csi_storage_capacities_;
  }
  absl::StatusOr<ObjectList<v1::VolumeAttachment>> ListVolumeAttachments() const override {
    return volume_attachments_;
  }

 private:
  ObjectList<v1::Node> nodes_;
  ObjectList<v1::Pod> pods_;
  ObjectList<v1::PodDisruptionBudget> pdbs_;
  ObjectList<v1::PriorityClass> priority_classes_;
  ObjectList<v1::Namespace> namespaces_;
  ObjectList<v1::Service> services_;
  ObjectList<v1::ReplicationController> replication_controllers_;
  ObjectList<v1::ReplicaSet> replica_sets_;
  ObjectList<v1::StatefulSet> stateful_sets_;
  ObjectList<v1::PersistentVolume> pvs_;
  ObjectList<v1::PersistentVolumeClaim> pvcs_;
  ObjectList<v1::StorageClass> storage_classes_;
  ObjectList<v1::CSINode> csi_nodes_;
  ObjectList<v1::CSIDriver> csi_drivers_;
  ObjectList<v1::CSIStorageCapacity> csi_storage_capacities_;
  ObjectList<v1::VolumeAttachment> volume_attachments_;
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_LISTER_H_
