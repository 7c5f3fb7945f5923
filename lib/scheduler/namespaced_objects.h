// Internal to the scheduler: objects of one kind held by namespace and name
// (a cluster-scoped kind under namespace ""): the workloads the ClusterClient
// lists for PodTopologySpread's default selector, and the storage objects the
// volume plugins read.
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
  // Adds `object`, or replaces the one of the same namespace and name and
  // returns it.
  std::shared_ptr<const T> Put(std::shared_ptr<const T> object) {
    const std::string ns = object->metadata().namespace_();
    const std::string name = object->metadata().name();
    std::shared_ptr<const T>& slot = by_namespace_[ns][name];
    std::shared_ptr<const T> old = std::move(slot);
    slot = std::move(object);
    return old;
  }
  // Removes and returns the object, or null when there was none.
  std::shared_ptr<const T> Take(std::string_view ns, std::string_view name) {
    auto it = by_namespace_.find(std::string(ns));
    if (it == by_namespace_.end()) return nullptr;
    auto obj = it->second.find(std::string(name));
    if (obj == it->second.end()) return nullptr;
    std::shared_ptr<const T> old = std::move(obj->second);
    it->second.erase(obj);
    if (it->second.empty()) by_namespace_.erase(it);
    return old;
  }
  // False when there was none to erase.
  bool Erase(std::string_view ns, std::string_view name) { return Take(ns, name) != nullptr; }
  std::shared_ptr<const T> Get(std::string_view ns, std::string_view name) const {
    auto it = by_namespace_.find(std::string(ns));
    if (it == by_namespace_.end()) return nullptr;
    auto obj = it->second.find(std::string(name));
    return obj == it->second.end() ? nullptr : obj->second;
  }
  // Every namespace's objects (a cluster-scoped kind is held under "").
  std::vector<std::shared_ptr<const T>> ListAll() const {
    std::vector<std::shared_ptr<const T>> out;
    for (const auto& [ns, objects] : by_namespace_) {
      for (const auto& [name, obj] : objects) out.push_back(obj);
    }
    return out;
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
