#include "schedkit/bench/templates.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "schedkit/base/str_cat.h"

namespace schedkit::perf {
namespace {

constexpr char kHostnameLabel[] = "kubernetes.io/hostname";
constexpr char kZoneLabel[] = "topology.kubernetes.io/zone";
constexpr char kPause[] = "registry.k8s.io/pause:3.10.2";

// The single pause container of every template; limits as the yaml has them.
void AddPause(api::v1::Pod& pod, const char* cpu, const char* memory, bool with_limits = true, bool with_port = true) {
  api::v1::Container* c = pod.mutable_spec()->add_containers();
  c->set_name("pause");
  c->set_image(kPause);
  if (with_port) c->add_ports()->set_container_port(80);
  if (cpu == nullptr) return;
  auto* res = c->mutable_resources();
  (*res->mutable_requests())["cpu"] = cpu;
  (*res->mutable_requests())["memory"] = memory;
  if (with_limits) {
    (*res->mutable_limits())["cpu"] = cpu;
    (*res->mutable_limits())["memory"] = memory;
  }
}

// A pod affinity term `color=<color>` over namespaces sched-1 and sched-0.
api::v1::PodAffinityTerm ColorTerm(const char* color, const char* topology_key) {
  api::v1::PodAffinityTerm t;
  (*t.mutable_label_selector()->mutable_match_labels())["color"] = color;
  t.set_topology_key(topology_key);
  t.add_namespaces("sched-1");
  t.add_namespaces("sched-0");
  return t;
}

void AddSpread(api::v1::Pod& pod, const char* when_unsatisfiable) {
  api::v1::TopologySpreadConstraint* c = pod.mutable_spec()->add_topology_spread_constraints();
  c->set_max_skew(5);
  c->set_topology_key(kZoneLabel);
  c->set_when_unsatisfiable(when_unsatisfiable);
  (*c->mutable_label_selector()->mutable_match_labels())["color"] = "blue";
}

void SetCapacity(api::v1::Node& node, std::vector<std::pair<const char*, const char*>> resources) {
  // The API server defaults an empty status.allocatable to the capacity.
  for (const auto& [k, v] : resources) {
    (*node.mutable_status()->mutable_capacity())[k] = v;
    (*node.mutable_status()->mutable_allocatable())[k] = v;
  }
  api::v1::NodeCondition* ready = node.mutable_status()->add_conditions();
  ready->set_type("Ready");
  ready->set_status("True");
}

api::v1::Node NamedObjectNode(const std::string& name) {
  api::v1::Node node;
  node.set_api_version("v1");
  node.set_kind("Node");
  node.mutable_metadata()->set_name(name);
  node.mutable_metadata()->set_uid(name);
  (*node.mutable_metadata()->mutable_labels())[kHostnameLabel] = name;
  return node;
}

}  // namespace

api::v1::Pod MakePod(PodTemplate tmpl, const std::string& ns, const std::string& name) {
  api::v1::Pod pod;
  pod.set_api_version("v1");
  pod.set_kind("Pod");
  auto* meta = pod.mutable_metadata();
  meta->set_name(name);
  meta->set_namespace_(ns);
  meta->set_uid(ns + "/" + name);
  pod.mutable_spec()->set_scheduler_name("default-scheduler");
  auto* labels = meta->mutable_labels();
  auto affinity = [&] { return pod.mutable_spec()->mutable_affinity(); };
  switch (tmpl) {
    case PodTemplate::kDefault:
      AddPause(pod, "100m", "500Mi");
      break;
    case PodTemplate::kPodAntiAffinity:
      (*labels)["color"] = "green";
      *affinity()->mutable_pod_anti_affinity()->add_required_during_scheduling_ignored_during_execution() =
          ColorTerm("green", kHostnameLabel);
      AddPause(pod, "100m", "500Mi");
      break;
    case PodTemplate::kPodAffinity:
      (*labels)["color"] = "blue";
      *affinity()->mutable_pod_affinity()->add_required_during_scheduling_ignored_during_execution() =
          ColorTerm("blue", kZoneLabel);
      AddPause(pod, "100m", "500Mi");
      break;
    case PodTemplate::kPreferredPodAffinity: {
      (*labels)["color"] = "red";
      auto* w = affinity()->mutable_pod_affinity()->add_preferred_during_scheduling_ignored_during_execution();
      w->set_weight(1);
      *w->mutable_pod_affinity_term() = ColorTerm("red", kHostnameLabel);
      AddPause(pod, "100m", "500Mi");
      break;
    }
    case PodTemplate::kPreferredPodAntiAffinity: {
      (*labels)["color"] = "yellow";
      auto* w = affinity()->mutable_pod_anti_affinity()->add_preferred_during_scheduling_ignored_during_execution();
      w->set_weight(1);
      *w->mutable_pod_affinity_term() = ColorTerm("yellow", kHostnameLabel);
      AddPause(pod, "100m", "500Mi");
      break;
    }
    case PodTemplate::kNodeAffinity: {
      auto* req = affinity()->mutable_node_affinity()->mutable_required_during_scheduling_ignored_during_execution();
      auto* expr = req->add_node_selector_terms()->add_match_expressions();
      expr->set_key(kZoneLabel);
      expr->set_operator_("In");
      expr->add_values("zone1");
      expr->add_values("zone2");
      AddPause(pod, "100m", "500Mi");
      break;
    }
    case PodTemplate::kTopologySpreading:
      (*labels)["color"] = "blue";
      AddSpread(pod, "DoNotSchedule");
      AddPause(pod, "100m", "500Mi");
      break;
    case PodTemplate::kPreferredTopologySpreading:
      (*labels)["color"] = "blue";
      AddSpread(pod, "ScheduleAnyway");
      AddPause(pod, "100m", "500Mi");
      break;
    case PodTemplate::kLowPriority:
      AddPause(pod, "900m", "500Mi");
      break;
    case PodTemplate::kHighPriority:
      pod.mutable_spec()->set_priority(10);
      AddPause(pod, "3000m", "500Mi");
      break;
    case PodTemplate::kHighPriorityLargeCpu:
      pod.mutable_spec()->set_priority(10);
      AddPause(pod, "9", "500Mi", /*with_limits=*/false);
      break;
    case PodTemplate::kDaemonset: {
      auto* req = affinity()->mutable_node_affinity()->mutable_required_during_scheduling_ignored_during_execution();
      auto* field = req->add_node_selector_terms()->add_match_fields();
      field->set_key("metadata.name");
      field->set_operator_("In");
      field->add_values("scheduler-perf-node");
      AddPause(pod, nullptr, nullptr, /*with_limits=*/false, /*with_port=*/false);
      break;
    }
  }
  return pod;
}

namespace {

// The request ranges of --distinct-pods, per template: milli-cpu in
// [cpu_lo, cpu_hi] and memory bytes in [mem_lo, mem_lo + kMemSpan).
struct DistinctRange {
  int64_t cpu_lo = 0, cpu_hi = 0;  // 0/0: no cpu request
  int64_t mem_lo = 0;
};

constexpr int64_t kMi = 1024 * 1024;
// 250Mi memory values, all distinct for index < kMemSpan: the stride is odd
// and not a multiple of 5, so coprime with 250 * 2^20.
constexpr int64_t kMemSpan = 250 * kMi;
constexpr int64_t kMemStride = 2654435761 % kMemSpan;

DistinctRange RangeFor(PodTemplate tmpl) {
  switch (tmpl) {
    case PodTemplate::kLowPriority:
      return {800, 900, 250 * kMi};
    case PodTemplate::kHighPriority:
      // Above 2200m a preemptor still needs three of its node's four 900m
      // victims gone, and at most 3100m it fits once they are.
      return {2701, 3000, 250 * kMi};
    case PodTemplate::kHighPriorityLargeCpu:
      return {9000, 9500, 250 * kMi};
    case PodTemplate::kDaemonset:
      // No cpu (the named node's 4 cpu take 90000 pods only without it) and
      // a few hundred KiB of memory, so its 32Gi hold 90000 of them.
      return {0, 0, 100 * 1000};
    default:
      // 100m / 500Mi templates: at most the template's, so 40 still fit a
      // 4-cpu node.
      return {50, 100, 250 * kMi};
  }
}

}  // namespace

api::v1::Pod MakeDistinctPod(PodTemplate tmpl, const std::string& ns, const std::string& name, int index) {
  api::v1::Pod pod = MakePod(tmpl, ns, name);
  (*pod.mutable_metadata()->mutable_labels())["perf.schedkit.io/pod"] = schedkit::StrCat(index);
  const DistinctRange r = RangeFor(tmpl);
  const auto i = static_cast<int64_t>(index);
  // Daemonset pods: index bytes over the base, below 250Mi distinct too.
  const int64_t memory = tmpl == PodTemplate::kDaemonset ? r.mem_lo + i : r.mem_lo + (i * kMemStride) % kMemSpan;
  api::v1::Container* c = pod.mutable_spec()->mutable_containers(0);
  auto* res = c->mutable_resources();
  const bool limited = !res->limits().empty();
  auto set = [&](const char* resource, const std::string& value) {
    (*res->mutable_requests())[resource] = value;
    if (limited) (*res->mutable_limits())[resource] = value;
  };
  if (r.cpu_hi > 0) {
    // A second stride, so cpu and memory do not move together.
    const int64_t span = r.cpu_hi - r.cpu_lo + 1;
    set("cpu", schedkit::StrCat(r.cpu_lo + (i * 7919) % span, "m"));
  }
  set("memory", schedkit::StrCat(memory));
  return pod;
}

api::v1::Node MakeDefaultNode(const std::string& name, const std::string& zone) {
  api::v1::Node node = NamedObjectNode(name);
  if (!zone.empty()) (*node.mutable_metadata()->mutable_labels())[kZoneLabel] = zone;
  SetCapacity(node, {{"pods", "110"}, {"cpu", "4"}, {"memory", "32Gi"}});
  return node;
}

api::v1::Node MakeNamedNode() {
  api::v1::Node node = NamedObjectNode("scheduler-perf-node");
  SetCapacity(node, {{"pods", "90000"}, {"cpu", "4"}, {"memory", "32Gi"}});
  return node;
}

api::v1::Node MakeChurnNode(const std::string& name) {
  api::v1::Node node = NamedObjectNode(name);
  SetCapacity(node, {{"pods", "0"}});
  return node;
}

}  // namespace schedkit::perf
