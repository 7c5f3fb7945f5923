#include "schedkit/testing/builders.h"

#include <cstdio>
#include <cstdlib>

#include "schedkit/base/str_cat.h"

namespace schedkit::testing {
namespace {

using api::v1::PodAffinityTerm;

void SetResources(google::protobuf::Map<std::string, std::string>* out, const ResourceMap& in) {
  for (const auto& [k, v] : in) (*out)[k] = v;
}

[[noreturn]] void Die(std::string_view what, const absl::Status& s) {
  std::fprintf(stderr, "schedkit testing builder: invalid %.*s: %s\n", static_cast<int>(what.size()),
               what.data(), std::string(s.message()).c_str());
  std::abort();
}

PodAffinityTerm TermWith(std::string label_key, std::string op, std::vector<std::string> values,
                         std::string topology_key) {
  PodAffinityTerm term;
  auto* req = term.mutable_label_selector()->add_match_expressions();
  req->set_key(std::move(label_key));
  req->set_operator_(std::move(op));
  for (auto& v : values) req->add_values(std::move(v));
  term.set_topology_key(std::move(topology_key));
  return term;
}

template <typename Affinity>
void AddTerm(Affinity* a, AffinityKind kind, const PodAffinityTerm& term, int32_t weight) {
  if (kind == AffinityKind::kRequired) {
    *a->add_required_during_scheduling_ignored_during_execution() = term;
  } else {
    auto* w = a->add_preferred_during_scheduling_ignored_during_execution();
    w->set_weight(weight);
    *w->mutable_pod_affinity_term() = term;
  }
}

}  // namespace

api::v1::LabelSelector Selector(const LabelMap& match_labels, const std::vector<SelectorRequirement>& expressions) {
  api::v1::LabelSelector s;
  for (const auto& [k, v] : match_labels) (*s.mutable_match_labels())[k] = v;
  for (const auto& e : expressions) {
    auto* r = s.add_match_expressions();
    r->set_key(e.key);
    r->set_operator_(e.op);
    for (const auto& v : e.values) r->add_values(v);
  }
  return s;
}

PodBuilder::PodBuilder() {
  pod_.set_api_version("v1");
  pod_.set_kind("Pod");
  pod_.mutable_metadata()->set_namespace_("default");
  pod_.mutable_spec()->set_scheduler_name("default-scheduler");
}

PodBuilder& PodBuilder::Name(std::string name) {
  auto* m = pod_.mutable_metadata();
  if (m->uid().empty() || m->uid() == m->name()) m->set_uid(name);
  m->set_name(std::move(name));
  return *this;
}
PodBuilder& PodBuilder::Namespace(std::string ns) { pod_.mutable_metadata()->set_namespace_(std::move(ns)); return *this; }
PodBuilder& PodBuilder::UID(std::string uid) { pod_.mutable_metadata()->set_uid(std::move(uid)); return *this; }
PodBuilder& PodBuilder::SchedulerName(std::string n) { pod_.mutable_spec()->set_scheduler_name(std::move(n)); return *this; }
PodBuilder& PodBuilder::Priority(int32_t p) { pod_.mutable_spec()->set_priority(p); return *this; }
PodBuilder& PodBuilder::PriorityClassName(std::string n) { pod_.mutable_spec()->set_priority_class_name(std::move(n)); return *this; }
PodBuilder& PodBuilder::PreemptionPolicy(std::string p) { pod_.mutable_spec()->set_preemption_policy(std::move(p)); return *this; }
PodBuilder& PodBuilder::CreationTimestamp(std::string t) { pod_.mutable_metadata()->set_creation_timestamp(std::move(t)); return *this; }
PodBuilder& PodBuilder::StartTime(std::string t) { pod_.mutable_status()->set_start_time(std::move(t)); return *this; }
PodBuilder& PodBuilder::Terminating() { pod_.mutable_metadata()->set_deletion_timestamp("2024-01-01T00:00:00Z"); return *this; }
PodBuilder& PodBuilder::Node(std::string n) { pod_.mutable_spec()->set_node_name(std::move(n)); return *this; }
PodBuilder& PodBuilder::NominatedNodeName(std::string n) { pod_.mutable_status()->set_nominated_node_name(std::move(n)); return *this; }
PodBuilder& PodBuilder::Label(std::string k, std::string v) { (*pod_.mutable_metadata()->mutable_labels())[k] = v; return *this; }
PodBuilder& PodBuilder::Labels(const LabelMap& labels) {
  for (const auto& [k, v] : labels) Label(k, v);
  return *this;
}
PodBuilder& PodBuilder::Annotation(std::string k, std::string v) { (*pod_.mutable_metadata()->mutable_annotations())[k] = v; return *this; }
PodBuilder& PodBuilder::OwnerReference(std::string name, std::string kind) {
  auto* o = pod_.mutable_metadata()->add_owner_references();
  o->set_name(std::move(name));
  o->set_kind(std::move(kind));
  o->set_controller(true);
  return *this;
}

PodBuilder& PodBuilder::Req(const ResourceMap& requests) {
  if (requests.empty()) return *this;  // as upstream's st.MakePod().Req
  api::v1::Container* c = pod_.mutable_spec()->add_containers();
  c->set_name(schedkit::StrCat("con", pod_.spec().containers_size() - 1));
  c->set_image("pause");
  SetResources(c->mutable_resources()->mutable_requests(), requests);
  return *this;
}
PodBuilder& PodBuilder::InitReq(const ResourceMap& requests) {
  api::v1::Container* c = pod_.mutable_spec()->add_init_containers();
  c->set_name(schedkit::StrCat("init-con", pod_.spec().init_containers_size() - 1));
  c->set_image("pause");
  SetResources(c->mutable_resources()->mutable_requests(), requests);
  return *this;
}
PodBuilder& PodBuilder::SidecarReq(const ResourceMap& requests) {
  InitReq(requests);
  api::v1::Container& c = *pod_.mutable_spec()->mutable_init_containers()->rbegin();
  c.set_name(schedkit::StrCat("sidecar-con", pod_.spec().init_containers_size() - 1));
  c.set_restart_policy("Always");
  return *this;
}
PodBuilder& PodBuilder::Overhead(const ResourceMap& o) { SetResources(pod_.mutable_spec()->mutable_overhead(), o); return *this; }
PodBuilder& PodBuilder::PodLevelReq(const ResourceMap& r) {
  SetResources(pod_.mutable_spec()->mutable_resources()->mutable_requests(), r);
  return *this;
}
PodBuilder& PodBuilder::Container(std::string image) {
  api::v1::Container* c = pod_.mutable_spec()->add_containers();
  c->set_name(schedkit::StrCat("con", pod_.spec().containers_size() - 1));
  c->set_image(std::move(image));
  return *this;
}
PodBuilder& PodBuilder::InitContainer(std::string image) {
  api::v1::Container* c = pod_.mutable_spec()->add_init_containers();
  c->set_name(schedkit::StrCat("init-con", pod_.spec().init_containers_size() - 1));
  c->set_image(std::move(image));
  return *this;
}
PodBuilder& PodBuilder::HostPort(int32_t port, std::string protocol, std::string host_ip) {
  auto* spec = pod_.mutable_spec();
  if (spec->containers().empty()) Container("pause");
  auto* p = spec->mutable_containers()->rbegin()->add_ports();
  p->set_container_port(port);
  p->set_host_port(port);
  p->set_protocol(std::move(protocol));
  p->set_host_ip(std::move(host_ip));
  return *this;
}

PodBuilder& PodBuilder::NodeSelector(const LabelMap& selector) {
  for (const auto& [k, v] : selector) (*pod_.mutable_spec()->mutable_node_selector())[k] = v;
  return *this;
}
PodBuilder& PodBuilder::NodeAffinityTerm(const api::v1::NodeSelectorTerm& term) {
  *pod_.mutable_spec()->mutable_affinity()->mutable_node_affinity()
       ->mutable_required_during_scheduling_ignored_during_execution()->add_node_selector_terms() = term;
  return *this;
}
PodBuilder& PodBuilder::NodeAffinityIn(std::string key, std::vector<std::string> values) {
  api::v1::NodeSelectorTerm term;
  auto* r = term.add_match_expressions();
  r->set_key(std::move(key));
  r->set_operator_("In");
  for (auto& v : values) r->add_values(std::move(v));
  return NodeAffinityTerm(term);
}
PodBuilder& PodBuilder::NodeAffinityNotIn(std::string key, std::vector<std::string> values) {
  api::v1::NodeSelectorTerm term;
  auto* r = term.add_match_expressions();
  r->set_key(std::move(key));
  r->set_operator_("NotIn");
  for (auto& v : values) r->add_values(std::move(v));
  return NodeAffinityTerm(term);
}
PodBuilder& PodBuilder::PreferredNodeAffinity(int32_t weight, const api::v1::NodeSelectorTerm& term) {
  auto* p = pod_.mutable_spec()->mutable_affinity()->mutable_node_affinity()
                ->add_preferred_during_scheduling_ignored_during_execution();
  p->set_weight(weight);
  *p->mutable_preference() = term;
  return *this;
}

PodBuilder& PodBuilder::Toleration(std::string key, std::string op, std::string value, std::string effect) {
  auto* t = pod_.mutable_spec()->add_tolerations();
  t->set_key(std::move(key));
  t->set_operator_(std::move(op));
  t->set_value(std::move(value));
  t->set_effect(std::move(effect));
  return *this;
}
PodBuilder& PodBuilder::SchedulingGates(const std::vector<std::string>& gates) {
  for (const auto& g : gates) pod_.mutable_spec()->add_scheduling_gates()->set_name(g);
  return *this;
}

PodBuilder& PodBuilder::PodAffinity(AffinityKind kind, const PodAffinityTerm& term, int32_t weight) {
  AddTerm(pod_.mutable_spec()->mutable_affinity()->mutable_pod_affinity(), kind, term, weight);
  return *this;
}
PodBuilder& PodBuilder::PodAntiAffinity(AffinityKind kind, const PodAffinityTerm& term, int32_t weight) {
  AddTerm(pod_.mutable_spec()->mutable_affinity()->mutable_pod_anti_affinity(), kind, term, weight);
  return *this;
}
PodBuilder& PodBuilder::PodAffinityExists(std::string label_key, std::string topology_key, AffinityKind kind) {
  return PodAffinity(kind, TermWith(std::move(label_key), "Exists", {}, std::move(topology_key)));
}
PodBuilder& PodBuilder::PodAntiAffinityExists(std::string label_key, std::string topology_key, AffinityKind kind) {
  return PodAntiAffinity(kind, TermWith(std::move(label_key), "Exists", {}, std::move(topology_key)));
}
PodBuilder& PodBuilder::PodAffinityIn(std::string label_key, std::string topology_key,
                                      std::vector<std::string> values, AffinityKind kind) {
  return PodAffinity(kind, TermWith(std::move(label_key), "In", std::move(values), std::move(topology_key)));
}
PodBuilder& PodBuilder::PodAntiAffinityIn(std::string label_key, std::string topology_key,
                                          std::vector<std::string> values, AffinityKind kind) {
  return PodAntiAffinity(kind, TermWith(std::move(label_key), "In", std::move(values), std::move(topology_key)));
}

PodBuilder& PodBuilder::SpreadConstraint(int32_t max_skew, std::string topology_key, std::string when_unsatisfiable,
                                         std::optional<api::v1::LabelSelector> selector,
                                         std::optional<int32_t> min_domains,
                                         std::optional<std::string> node_affinity_policy,
                                         std::optional<std::string> node_taints_policy,
                                         std::vector<std::string> match_label_keys) {
  auto* c = pod_.mutable_spec()->add_topology_spread_constraints();
  c->set_max_skew(max_skew);
  c->set_topology_key(std::move(topology_key));
  c->set_when_unsatisfiable(std::move(when_unsatisfiable));
  if (selector) *c->mutable_label_selector() = *selector;
  if (min_domains) c->set_min_domains(*min_domains);
  if (node_affinity_policy) c->set_node_affinity_policy(*node_affinity_policy);
  if (node_taints_policy) c->set_node_taints_policy(*node_taints_policy);
  for (auto& k : match_label_keys) c->add_match_label_keys(std::move(k));
  return *this;
}
PodBuilder& PodBuilder::PVC(std::string claim_name) {
  auto* v = pod_.mutable_spec()->add_volumes();
  v->set_name(claim_name);
  v->mutable_persistent_volume_claim()->set_claim_name(std::move(claim_name));
  return *this;
}

PodBuilder& PodBuilder::Volume(api::v1::Volume volume) {
  *pod_.mutable_spec()->add_volumes() = std::move(volume);
  return *this;
}

framework::PodInfoPtr PodBuilder::Info() const {
  auto info = framework::PodInfo::Create(pod_);
  if (!info.ok()) Die("pod", info.status());
  return *std::move(info);
}

NodeBuilder::NodeBuilder() {
  node_.set_api_version("v1");
  node_.set_kind("Node");
}
NodeBuilder& NodeBuilder::Name(std::string name) {
  auto* m = node_.mutable_metadata();
  if (m->uid().empty() || m->uid() == m->name()) m->set_uid(name);
  m->set_name(std::move(name));
  return *this;
}
NodeBuilder& NodeBuilder::UID(std::string uid) { node_.mutable_metadata()->set_uid(std::move(uid)); return *this; }
NodeBuilder& NodeBuilder::Label(std::string k, std::string v) { (*node_.mutable_metadata()->mutable_labels())[k] = v; return *this; }
NodeBuilder& NodeBuilder::Labels(const LabelMap& labels) {
  for (const auto& [k, v] : labels) Label(k, v);
  return *this;
}
NodeBuilder& NodeBuilder::Capacity(const ResourceMap& r) {
  // Upstream's st.MakeNode().Capacity starts from 32 pods.
  ResourceMap with_pods = {{"pods", "32"}};
  with_pods.insert(with_pods.end(), r.begin(), r.end());
  SetResources(node_.mutable_status()->mutable_capacity(), with_pods);
  SetResources(node_.mutable_status()->mutable_allocatable(), with_pods);
  return *this;
}
NodeBuilder& NodeBuilder::Allocatable(const ResourceMap& r) {
  SetResources(node_.mutable_status()->mutable_allocatable(), r);
  return *this;
}
NodeBuilder& NodeBuilder::Taint(std::string key, std::string value, std::string effect) {
  auto* t = node_.mutable_spec()->add_taints();
  t->set_key(std::move(key));
  t->set_value(std::move(value));
  t->set_effect(std::move(effect));
  return *this;
}
NodeBuilder& NodeBuilder::Unschedulable(bool u) { node_.mutable_spec()->set_unschedulable(u); return *this; }
NodeBuilder& NodeBuilder::Image(std::vector<std::string> names, int64_t size_bytes) {
  auto* img = node_.mutable_status()->add_images();
  for (auto& n : names) img->add_names(std::move(n));
  img->set_size_bytes(size_bytes);
  return *this;
}

framework::NodeInfo NodeBuilder::Info(const std::vector<api::v1::Pod>& pods) const {
  auto info = framework::NodeInfo::Create(node_);
  if (!info.ok()) Die("node", info.status());
  for (const auto& p : pods) {
    auto pi = framework::PodInfo::Create(p);
    if (!pi.ok()) Die("pod", pi.status());
    info->AddPod(*std::move(pi));
  }
  return *std::move(info);
}

api::ObjectSet MakeCluster(const std::vector<api::v1::Node>& nodes, const std::vector<api::v1::Pod>& pods) {
  api::ObjectSet c;
  for (const auto& n : nodes) c.Add(n);
  for (const auto& p : pods) c.Add(p);
  return c;
}

}  // namespace schedkit::testing
