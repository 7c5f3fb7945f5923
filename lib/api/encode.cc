#include "schedkit/api/encode.h"

#include "api/proto_json.h"
#include "nlohmann/json.hpp"

namespace schedkit::api {
namespace {

template <typename Objects>
void AppendItems(const Objects& objects, const char* api_version, const char* kind, nlohmann::json& items) {
  for (const auto& object : objects) {
    nlohmann::json item = internal::MessageToJson(object);
    if (!item.contains("apiVersion")) item["apiVersion"] = api_version;
    if (!item.contains("kind")) item["kind"] = kind;
    items.push_back(std::move(item));
  }
}

}  // namespace

std::string EncodeClusterJson(const v1::Cluster& cluster) {
  nlohmann::json items = nlohmann::json::array();
  AppendItems(cluster.namespaces(), "v1", "Namespace", items);
  AppendItems(cluster.priority_classes(), "scheduling.k8s.io/v1", "PriorityClass", items);
  AppendItems(cluster.nodes(), "v1", "Node", items);
  AppendItems(cluster.pods(), "v1", "Pod", items);
  AppendItems(cluster.pod_disruption_budgets(), "policy/v1", "PodDisruptionBudget", items);
  AppendItems(cluster.services(), "v1", "Service", items);
  AppendItems(cluster.replication_controllers(), "v1", "ReplicationController", items);
  AppendItems(cluster.replica_sets(), "apps/v1", "ReplicaSet", items);
  AppendItems(cluster.stateful_sets(), "apps/v1", "StatefulSet", items);
  AppendItems(cluster.persistent_volumes(), "v1", "PersistentVolume", items);
  AppendItems(cluster.persistent_volume_claims(), "v1", "PersistentVolumeClaim", items);
  AppendItems(cluster.storage_classes(), "storage.k8s.io/v1", "StorageClass", items);
  AppendItems(cluster.csi_nodes(), "storage.k8s.io/v1", "CSINode", items);
  AppendItems(cluster.csi_drivers(), "storage.k8s.io/v1", "CSIDriver", items);
  AppendItems(cluster.csi_storage_capacities(), "storage.k8s.io/v1", "CSIStorageCapacity", items);
  AppendItems(cluster.volume_attachments(), "storage.k8s.io/v1", "VolumeAttachment", items);
  nlohmann::json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", std::move(items)}};
  return list.dump();
}

}  // namespace schedkit::api
