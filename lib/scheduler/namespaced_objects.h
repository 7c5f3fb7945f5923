// Internal to the scheduler: objects of one namespaced kind held by
// namespace and name — the workloads (Services, ReplicationControllers,
// ReplicaSets, StatefulSets) that the ClusterClient lists for
// PodTopologySpread's default selector.
//
//   NamespacedObjects<api::v1::Service> services;
//   services.Put(service);
//   for (const auto& s : services.List("default")) ...
//
// Not thread-safe: the scheduler guards it with its pod table's lock.
#ifndef SCHEDKIT_LIB_SCHEDULER_NAMESPACED_OBJECTS_H_
#define SCHEDKIT_LIB_SCHEDULER_NAMESPACED_OBJECTS_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace schedkit::scheduler {

template <typename T>
class NamespacedObjects {
 public:
  // Adds `object`, or replaces the one of the same namespace and name.
  void Put(std::shared_ptr<const T> object) {
    const std::string ns = object->metadata().namespace_();
    const std::string name = object->metadata().name();
    by_namespace_[ns][name] = std::move(object);
  }
  // False when there was none to erase.
  bool Erase(std::string_view ns, std::string_view name) {
    auto it = by_namespace_.find(std::string(ns));
    if (it == by_namespace_.end() || it->second.erase(std::string(name)) == 0) return false;
    if (it->second.empty()) by_namespace_.erase(it);
    return true;
  }
  std::shared_ptr<const T> Get(std::string_view ns, std::string_view name) const {
    auto it = by_namespace_.find(std::string(ns));
    if (it == by_namespace_.end()) return nullptr;
    auto obj = it->second.find(std::string(name));
    return obj == it->second.end() ? nullptr : obj->second;
  }
  std::vector<std::shared_ptr<const T>> List(std::string_view ns) const {
    std::vector<std::shared_ptr<const T>> out;
    auto it = by_namespace_.find(std::string(ns));
    if (it == by_namespace_.end()) return out;
    out.reserve(it->second.size());
    for (const auto& [name, obj] : it->second) out.push_back(obj);
    return out;
  }

 private:
  absl::flat_hash_map<std::string, absl::flat_hash_map<std::string, std::shared_ptr<const T>>> by_namespace_;
};

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_LIB_SCHEDULER_NAMESPACED_OBJECTS_H_
