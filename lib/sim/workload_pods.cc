#include "sim/workload_pods.h"

#include <cstdint>
#include <string_view>

#include "absl/container/flat_hash_set.h"
#include "schedkit/base/str_cat.h"
#include "sim/generate_name.h"

namespace schedkit::sim {
namespace {

std::string Key(std::string_view namespace_name, std::string_view name) {
  return schedkit::StrCat(namespace_name, "/", name);
}

// Whether `pod`'s controller is the workload (kind, name, and uid when both have one).
bool ControlledBy(const api::v1::Pod& pod, std::string_view kind, const api::v1::ObjectMeta& owner) {
  if (pod.metadata().namespace_() != owner.namespace_()) return false;
  for (const api::v1::OwnerReference& ref : pod.metadata().owner_references()) {
    if (!ref.controller()) continue;
    return ref.kind() == kind && ref.name() == owner.name() &&
           (ref.uid().empty() || owner.uid().empty() || ref.uid() == owner.uid());
  }
  return false;
}

api::v1::Pod FromTemplate(const api::v1::PodTemplateSpec& t, const api::v1::ObjectMeta& owner,
                          std::string_view api_version, std::string_view kind, const std::string& name) {
  api::v1::Pod pod;
  pod.set_api_version("v1");
  pod.set_kind("Pod");
  *pod.mutable_metadata() = t.metadata();
  pod.mutable_metadata()->set_name(name);
  pod.mutable_metadata()->set_namespace_(owner.namespace_());
  pod.mutable_metadata()->clear_uid();
  api::v1::OwnerReference* ref = pod.mutable_metadata()->add_owner_references();
  ref->set_api_version(std::string(api_version));
  ref->set_kind(std::string(kind));
  ref->set_name(owner.name());
  ref->set_uid(owner.uid());
  ref->set_controller(true);
  ref->set_block_owner_deletion(true);
  *pod.mutable_spec() = t.spec();
  return pod;
}

std::string DefaultClass(const api::ObjectSet& cluster) {
  for (const auto& sc : cluster.Of<api::v1::StorageClass>()) {
    const auto& a = sc.metadata().annotations();
    auto it = a.find("storageclass.kubernetes.io/is-default-class");
    if (it != a.end() && it->second == "true") return sc.metadata().name();
  }
  return "";
}

// Pods for a ReplicaSet or ReplicationController: replicas minus the pods it controls.
template <typename Set>
void AddReplicas(const Set& set, std::string_view api_version, std::string_view kind, api::ObjectSet& cluster,
                 absl::flat_hash_set<std::string>& names) {
  const auto& spec = set.spec();
  if (!spec.has_template_() || spec.template_().spec().containers().empty()) return;
  const int want = spec.has_replicas() ? spec.replicas() : 1;
  int have = 0;
  for (const auto& pod : cluster.Of<api::v1::Pod>()) have += ControlledBy(pod, kind, set.metadata()) ? 1 : 0;
  for (int n = 0; have < want; ++n) {
    const std::string name = schedkit::StrCat(set.metadata().name(), "-", GenerateNameSuffix(set.metadata().name(), n));
    if (!names.insert(Key(set.metadata().namespace_(), name)).second) continue;
    cluster.Add(FromTemplate(spec.template_(), set.metadata(), api_version, kind, name));
    ++have;
  }
}

}  // namespace

std::vector<std::string> AddWorkloadPods(api::ObjectSet& cluster) {
  absl::flat_hash_set<std::string> names;
  for (const auto& pod : cluster.Of<api::v1::Pod>()) names.insert(Key(pod.metadata().namespace_(), pod.metadata().name()));
  absl::flat_hash_set<std::string> claims;
  for (const auto& c : cluster.Of<api::v1::PersistentVolumeClaim>()) claims.insert(Key(c.metadata().namespace_(), c.metadata().name()));
  const std::string default_class = DefaultClass(cluster);
  std::vector<std::string> new_claims;

  // Copies of the lists: adding pods does not change the sets, but the
  // copies keep the loops independent of the set's growth.
  const auto replica_sets = cluster.Of<api::v1::ReplicaSet>().Shared();
  for (const auto& rs : replica_sets) AddReplicas(*rs, "apps/v1", "ReplicaSet", cluster, names);
  const auto controllers = cluster.Of<api::v1::ReplicationController>().Shared();
  for (const auto& rc : controllers) AddReplicas(*rc, "v1", "ReplicationController", cluster, names);

  const auto stateful_sets = cluster.Of<api::v1::StatefulSet>().Shared();
  for (const auto& ss_ptr : stateful_sets) {
    const api::v1::StatefulSet& ss = *ss_ptr;
    const auto& spec = ss.spec();
    if (!spec.has_template_() || spec.template_().spec().containers().empty()) continue;
    const std::string& ns = ss.metadata().namespace_();
    const int replicas = spec.has_replicas() ? spec.replicas() : 1;
    for (int ordinal = 0; ordinal < replicas; ++ordinal) {
      const std::string name = schedkit::StrCat(ss.metadata().name(), "-", ordinal);
      if (!names.insert(Key(ns, name)).second) continue;
      api::v1::Pod pod = FromTemplate(spec.template_(), ss.metadata(), "apps/v1", "StatefulSet", name);
      auto& labels = *pod.mutable_metadata()->mutable_labels();
      labels["statefulset.kubernetes.io/pod-name"] = name;
      labels["apps.kubernetes.io/pod-index"] = schedkit::StrCat(ordinal);
      for (const api::v1::PersistentVolumeClaim& t : spec.volume_claim_templates()) {
        const std::string claim_name = schedkit::StrCat(t.metadata().name(), "-", name);
        // The claim replaces a template volume of the same name.
        api::v1::Volume* volume = nullptr;
        for (auto& v : *pod.mutable_spec()->mutable_volumes()) {
          if (v.name() == t.metadata().name()) volume = &v;
        }
        if (volume == nullptr) volume = pod.mutable_spec()->add_volumes();
        volume->Clear();
        volume->set_name(t.metadata().name());
        volume->mutable_persistent_volume_claim()->set_claim_name(claim_name);
        if (!claims.insert(Key(ns, claim_name)).second) continue;
        api::v1::PersistentVolumeClaim claim = t;
        claim.set_api_version("v1");
        claim.set_kind("PersistentVolumeClaim");
        claim.mutable_metadata()->set_name(claim_name);
        claim.mutable_metadata()->set_namespace_(ns);
        if (spec.selector().match_labels_size() > 0) {
          for (const auto& [k, v] : spec.selector().match_labels()) (*claim.mutable_metadata()->mutable_labels())[k] = v;
        }
        if (!claim.spec().has_storage_class_name() && !default_class.empty()) {
          claim.mutable_spec()->set_storage_class_name(default_class);
        }
        claim.mutable_status()->set_phase("Pending");
        cluster.Add(std::move(claim));
        new_claims.push_back(Key(ns, claim_name));
      }
      cluster.Add(std::move(pod));
    }
  }
  return new_claims;
}

}  // namespace schedkit::sim
