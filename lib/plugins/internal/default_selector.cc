#include "plugins/internal/default_selector.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "plugins/internal/controller_of.h"
#include "schedkit/api/v1/replica_set.h"
#include "schedkit/api/v1/replication_controller.h"
#include "schedkit/api/v1/service.h"
#include "schedkit/api/v1/stateful_set.h"

namespace schedkit::plugins::internal {
namespace {

using Labels = std::map<std::string, std::string>;

// Whether every key=value of `selector` is among the pod's labels.
bool Selects(const google::protobuf::Map<std::string, std::string>& selector, const api::v1::Pod& pod) {
  const auto& labels = pod.metadata().labels();
  for (const auto& [k, v] : selector) {
    auto it = labels.find(k);
    if (it == labels.end() || it->second != v) return false;
  }
  return true;
}

// labels.Merge: `extra`'s values win on a shared key.
void Merge(const google::protobuf::Map<std::string, std::string>& extra, Labels& into) {
  for (const auto& [k, v] : extra) into[k] = v;
}

// labels.Set.AsSelector: one equality requirement per key, in key order.
api::LabelSelector AsSelector(const Labels& labels) {
  api::LabelSelector s = api::LabelSelector::Everything();
  for (const auto& [k, v] : labels) {
    s.AddRequirement(api::LabelRequirement{Symbol::Intern(k), api::SelectorOp::kIn, {Symbol::Intern(v)}, 0});
  }
  return s;
}

// ANDs in the requirements of a workload's selector. A nil one (matching
// nothing) has none to give, as upstream's Requirements() reports; neither
// has one that does not compile.
void AddRequirements(bool has_selector, const api::v1::LabelSelector& selector, api::LabelSelector& into) {
  if (!has_selector) return;
  absl::StatusOr<api::LabelSelector> compiled = api::LabelSelector::Compile(selector);
  if (!compiled.ok()) return;
  for (const api::LabelRequirement& r : compiled->requirements()) into.AddRequirement(r);
}

// The group of an apiVersion as schema.ParseGroupVersion reads it ("v1" is the
// core group, "apps/v1" the apps group); false for more than one '/'.
bool ParseApiVersion(std::string_view api_version, std::string_view& group, std::string_view& version) {
  const size_t slash = api_version.find('/');
  if (slash == std::string_view::npos) {
    group = "";
    version = api_version;
    return true;
  }
  if (api_version.find('/', slash + 1) != std::string_view::npos) return false;
  group = api_version.substr(0, slash);
  version = api_version.substr(slash + 1);
  return true;
}

}  // namespace

api::LabelSelector DefaultSelector(const framework::PodInfo& pod, const api::ObjectLister& objects) {
  const api::v1::Pod& p = pod.pod();
  const std::string& ns = p.metadata().namespace_();
  Labels labels;
  // Services with no selector select no pod (not every pod).
  for (const auto& service : objects.List<api::v1::Service>(ns)) {
    const auto& selector = service->spec().selector();
    if (!selector.empty() && Selects(selector, p)) Merge(selector, labels);
  }
  api::LabelSelector selector = AsSelector(labels);

  const api::v1::OwnerReference* owner = ControllerOf(p.metadata());
  std::string_view group;
  std::string_view version;
  if (owner == nullptr || !ParseApiVersion(owner->api_version(), group, version) || version != "v1") {
    return selector;
  }
  if (group.empty() && owner->kind() == "ReplicationController") {
    if (auto rc = objects.Get<api::v1::ReplicationController>(ns, owner->name())) {
      Merge(rc->spec().selector(), labels);
      selector = AsSelector(labels);
    }
  } else if (group == "apps" && owner->kind() == "ReplicaSet") {
    if (auto rs = objects.Get<api::v1::ReplicaSet>(ns, owner->name())) {
      AddRequirements(rs->spec().has_selector(), rs->spec().selector(), selector);
    }
  } else if (group == "apps" && owner->kind() == "StatefulSet") {
    if (auto ss = objects.Get<api::v1::StatefulSet>(ns, owner->name())) {
      AddRequirements(ss->spec().has_selector(), ss->spec().selector(), selector);
    }
  }
  return selector;
}

}  // namespace schedkit::plugins::internal
