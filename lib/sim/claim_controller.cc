#include "sim/claim_controller.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/api/v1/resource_claim.h"
#include "schedkit/api/v1/resource_claim_template.h"
#include "schedkit/base/str_cat.h"
#include "sim/generate_name.h"

namespace schedkit::sim {
namespace {

constexpr std::string_view kPodClaimNameAnnotation = "resource.kubernetes.io/pod-claim-name";

// The controller's generateName: "<pod>-<claim>-", both parts cut in
// proportion when that passes 57 characters (the name keeps room for the
// five random ones within 63).
std::string GenerateName(const std::string& pod, const std::string& claim) {
  const std::string full = schedkit::StrCat(pod, "-", claim, "-");
  constexpr size_t kMaxBase = 57;
  if (full.size() <= kMaxBase) return full;
  return schedkit::StrCat(pod.substr(0, pod.size() * kMaxBase / full.size()), "-",
                          claim.substr(0, claim.size() * kMaxBase / full.size()));
}

std::string Key(std::string_view ns, std::string_view name) { return schedkit::StrCat(ns, "/", name); }

}  // namespace

std::vector<std::string> CreateClaimsFromTemplates(api::ObjectSet& cluster) {
  absl::flat_hash_map<std::string, const api::v1::ResourceClaimTemplate*> templates;
  for (const auto& t : cluster.Of<api::v1::ResourceClaimTemplate>()) {
    templates[Key(t.metadata().namespace_(), t.metadata().name())] = &t;
  }
  absl::flat_hash_set<std::string> names;
  for (const auto& c : cluster.Of<api::v1::ResourceClaim>()) names.insert(Key(c.metadata().namespace_(), c.metadata().name()));

  std::vector<api::v1::ResourceClaim> created;
  for (api::v1::Pod* pod : cluster.MutableAll<api::v1::Pod>()) {
    if (pod->spec().resource_claims().empty()) continue;
    const std::string& ns = pod->metadata().namespace_();
    // Merged statuses, by claim name (the controller's server-side apply).
    std::map<std::string, std::string> statuses;
    for (const api::v1::PodResourceClaimStatus& s : pod->status().resource_claim_statuses()) {
      if (s.has_resource_claim_name()) statuses[s.name()] = s.resource_claim_name();
    }
    bool changed = false;
    for (const api::v1::PodResourceClaim& entry : pod->spec().resource_claims()) {
      if (!entry.has_resource_claim_template_name() || entry.has_resource_claim_name()) continue;
      const bool recorded = std::any_of(pod->status().resource_claim_statuses().begin(),
                                        pod->status().resource_claim_statuses().end(),
                                        [&](const auto& s) { return s.name() == entry.name(); });
      if (recorded) continue;
      auto t = templates.find(Key(ns, entry.resource_claim_template_name()));
      if (t == templates.end()) continue;
      const api::v1::ResourceClaimTemplate& tmpl = *t->second;
      const std::string base = GenerateName(pod->metadata().name(), entry.name());
      std::string name;
      for (int n = 0; name.empty() || names.contains(Key(ns, name)); ++n) {
        name = base + GenerateNameSuffix(Key(ns, schedkit::StrCat(pod->metadata().name(), "/", entry.name())), n);
      }
      names.insert(Key(ns, name));

      api::v1::ResourceClaim claim;
      claim.set_api_version("resource.k8s.io/v1");
      claim.set_kind("ResourceClaim");
      api::v1::ObjectMeta& meta = *claim.mutable_metadata();
      meta.set_name(name);
      meta.set_namespace_(ns);
      meta.set_generate_name(base);
      meta.set_uid(schedkit::StrCat("uid-", ns, "-", name));
      *meta.mutable_labels() = tmpl.spec().metadata().labels();
      *meta.mutable_annotations() = tmpl.spec().metadata().annotations();
      (*meta.mutable_annotations())[std::string(kPodClaimNameAnnotation)] = entry.name();
      api::v1::OwnerReference& owner = *meta.add_owner_references();
      owner.set_api_version("v1");
      owner.set_kind("Pod");
      owner.set_name(pod->metadata().name());
      owner.set_uid(pod->metadata().uid());
      owner.set_controller(true);
      *claim.mutable_spec() = tmpl.spec().spec();
      created.push_back(std::move(claim));
      statuses[entry.name()] = name;
      changed = true;
    }
    if (!changed) continue;
    pod->mutable_status()->clear_resource_claim_statuses();
    for (const auto& [claim_name, object_name] : statuses) {
      api::v1::PodResourceClaimStatus& s = *pod->mutable_status()->add_resource_claim_statuses();
      s.set_name(claim_name);
      s.set_resource_claim_name(object_name);
    }
  }
  std::vector<std::string> keys;
  for (api::v1::ResourceClaim& claim : created) {
    keys.push_back(Key(claim.metadata().namespace_(), claim.metadata().name()));
    cluster.Add(std::move(claim));
  }
  return keys;
}

}  // namespace schedkit::sim
