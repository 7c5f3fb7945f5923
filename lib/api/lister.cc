#include "schedkit/api/lister.h"

namespace schedkit::api {
namespace {

template <typename T, typename Repeated>
ObjectList<T> Share(const Repeated& items) {
  ObjectList<T> out;
  out.reserve(items.size());
  for (const T& item : items) out.push_back(std::make_shared<const T>(item));
  return out;
}

}  // namespace

StaticClusterLister::StaticClusterLister(const v1::Cluster& cluster)
    : nodes_(Share<v1::Node>(cluster.nodes())),
      pods_(Share<v1::Pod>(cluster.pods())),
      pdbs_(Share<v1::PodDisruptionBudget>(cluster.pod_disruption_budgets())),
      priority_classes_(Share<v1::PriorityClass>(cluster.priority_classes())),
      namespaces_(Share<v1::Namespace>(cluster.namespaces())),
      services_(Share<v1::Service>(cluster.services())),
      replication_controllers_(Share<v1::ReplicationController>(cluster.replication_controllers())),
      replica_sets_(Share<v1::ReplicaSet>(cluster.replica_sets())),
      stateful_sets_(Share<v1::StatefulSet>(cluster.stateful_sets())),
      pvs_(Share<v1::PersistentVolume>(cluster.persistent_volumes())),
      pvcs_(Share<v1::PersistentVolumeClaim>(cluster.persistent_volume_claims())),
      storage_classes_(Share<v1::StorageClass>(cluster.storage_classes())),
      csi_nodes_(Share<v1::CSINode>(cluster.csi_nodes())),
      csi_drivers_(Share<v1::CSIDriver>(cluster.csi_drivers())),
      csi_storage_capacities_(Share<v1::CSIStorageCapacity>(cluster.csi_storage_capacities())),
      volume_attachments_(Share<v1::VolumeAttachment>(cluster.volume_attachments())) {}

}  // namespace schedkit::api
