#include "workloads.h"

#include <cstdint>
#include <utility>

#include "schedkit/base/str_cat.h"

namespace schedkit::perf {
namespace {

constexpr char kHostnameLabel[] = "kubernetes.io/hostname";
constexpr char kZoneLabel[] = "topology.kubernetes.io/zone";
constexpr char kPause[] = "registry.k8s.io/pause:3.10.1";

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

api::v1::Pod MakeMeasuredPod(const Workload& w, int index, bool distinct) {
  const std::string name = schedkit::StrCat(GenerateName(w.measured.tmpl), index);
  return distinct ? MakeDistinctPod(w.measured.tmpl, w.measured.ns, name, index)
                  : MakePod(w.measured.tmpl, w.measured.ns, name);
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

const std::vector<Workload>& AllWorkloads() {
  static const std::vector<Workload>* const kAll = [] {
    auto* all = new std::vector<Workload>();
    const std::vector<std::string> zone1 = {"zone1"};
    const std::vector<std::string> moons = {"moon-1", "moon-2", "moon-3"};
    const std::string fit3 = "NodeResourcesFit: free milli-cpu, free memory bytes, free pod slots";
    auto add = [&](Workload w) { all->push_back(std::move(w)); };

    add({.name = "SchedulingBasic",
         .upstream = "misc: SchedulingBasic/5000Nodes_10000Pods",
         .default_nodes = 5000, .default_init_pods = 1000, .default_pods = 10000,
         .init_ops = {{PodTemplate::kDefault, "namespace-1"}},
         .measured = {PodTemplate::kDefault, "namespace-2"},
         .threshold_v135 = 270, .threshold_2026 = 680,
         .floor_columns = 3, .floor_columns_doc = fit3});
    add({.name = "SchedulingPodAntiAffinity",
         .upstream = "affinity: SchedulingPodAntiAffinity/5000Nodes_2000Pods",
         .default_nodes = 5000, .default_init_pods = 1000, .default_pods = 2000,
         .init_ops = {{PodTemplate::kPodAntiAffinity, "sched-0"}},
         .measured = {PodTemplate::kPodAntiAffinity, "sched-1"},
         .threshold_v135 = 60, .threshold_2026 = 60,
         .floor_columns = 4, .floor_columns_doc = fit3 + "; InterPodAffinity: matching pods in the hostname domain"});
    add({.name = "SchedulingPodAffinity",
         .upstream = "affinity: SchedulingPodAffinity/5000Nodes_5000Pods",
         .default_nodes = 5000, .default_init_pods = 5000, .default_pods = 5000,
         .zones = zone1,
         .init_ops = {{PodTemplate::kPodAffinity, "sched-0"}},
         .measured = {PodTemplate::kPodAffinity, "sched-1"},
         .threshold_v135 = 35, .threshold_2026 = 35,
         .floor_columns = 4, .floor_columns_doc = fit3 + "; InterPodAffinity: zone id (matching-pod count by zone)"});
    add({.name = "SchedulingPreferredPodAffinity",
         .upstream = "affinity: SchedulingPreferredPodAffinity/5000Nodes_5000Pods",
         .default_nodes = 5000, .default_init_pods = 5000, .default_pods = 5000,
         .init_ops = {{PodTemplate::kPreferredPodAffinity, "sched-0"}},
         .measured = {PodTemplate::kPreferredPodAffinity, "sched-1"},
         .threshold_v135 = 90, .threshold_2026 = 90,
         .floor_columns = 4, .floor_columns_doc = fit3 + "; InterPodAffinity score: matching pods per node"});
    add({.name = "SchedulingPreferredPodAntiAffinity",
         .upstream = "affinity: SchedulingPreferredPodAntiAffinity/5000Nodes_5000Pods",
         .default_nodes = 5000, .default_init_pods = 5000, .default_pods = 5000,
         .init_ops = {{PodTemplate::kPreferredPodAntiAffinity, "sched-0"}},
         .measured = {PodTemplate::kPreferredPodAntiAffinity, "sched-1"},
         .threshold_v135 = 90, .threshold_2026 = 90,
         .floor_columns = 4, .floor_columns_doc = fit3 + "; InterPodAffinity score: matching pods per node"});
    add({.name = "SchedulingNodeAffinity",
         .upstream = "affinity: SchedulingNodeAffinity/5000Nodes_10000Pods",
         .default_nodes = 5000, .default_init_pods = 5000, .default_pods = 10000,
         .zones = zone1,
         .init_ops = {{PodTemplate::kNodeAffinity, "namespace-1"}},
         .measured = {PodTemplate::kNodeAffinity, "namespace-2"},
         .threshold_v135 = 220, .threshold_2026 = 220,
         .floor_columns = 4, .floor_columns_doc = fit3 + "; NodeAffinity: zone id"});
    add({.name = "TopologySpreading",
         .upstream = "topology_spreading: TopologySpreading/5000Nodes_5000Pods",
         .default_nodes = 5000, .default_init_pods = 5000, .default_pods = 5000,
         .zones = moons,
         .init_ops = {{PodTemplate::kDefault, "namespace-1"}},
         .measured = {PodTemplate::kTopologySpreading, "namespace-2"},
         .threshold_v135 = 85, .threshold_2026 = 460,
         .floor_columns = 4, .floor_columns_doc = fit3 + "; PodTopologySpread: zone id"});
    add({.name = "PreferredTopologySpreading",
         .upstream = "topology_spreading: PreferredTopologySpreading/5000Nodes_5000Pods",
         .default_nodes = 5000, .default_init_pods = 5000, .default_pods = 5000,
         .zones = moons,
         .init_ops = {{PodTemplate::kDefault, "namespace-1"}},
         .measured = {PodTemplate::kPreferredTopologySpreading, "namespace-2"},
         .threshold_v135 = 125, .threshold_2026 = 340,
         .floor_columns = 4, .floor_columns_doc = fit3 + "; PodTopologySpread score: zone id"});
    add({.name = "MixedSchedulingBasePod",
         .upstream = "affinity: MixedSchedulingBasePod/5000Nodes_5000Pods",
         .default_nodes = 5000, .default_init_pods = 2000, .default_pods = 5000,
         .zones = zone1,
         .init_ops = {{PodTemplate::kDefault, "sched-0"},
                      {PodTemplate::kPodAffinity, "sched-0"},
                      {PodTemplate::kPodAntiAffinity, "sched-0"},
                      {PodTemplate::kPreferredPodAffinity, "sched-0"},
                      {PodTemplate::kPreferredPodAntiAffinity, "sched-0"}},
         .measured = {PodTemplate::kDefault, "namespace-7"},
         .threshold_v135 = 140, .threshold_2026 = 140,
         .floor_columns = 4, .floor_columns_doc = fit3 + "; InterPodAffinity: existing anti-affinity pods per node"});
    add({.name = "PreemptionBasic",
         .upstream = "misc: PreemptionBasic/1000Nodes (no threshold; the 5000-node case is commented out upstream)",
         .default_nodes = 1000, .default_init_pods = 4000, .default_pods = 1000,
         .init_ops = {{PodTemplate::kLowPriority, "namespace-1"}},
         .measured = {PodTemplate::kHighPriority, "namespace-2"},
         .floor_columns = 4, .floor_columns_doc = fit3 + "; DefaultPreemption: lowest pod priority on the node"});
    add({.name = "Unschedulable",
         .upstream = "misc: Unschedulable/5kNodes/100Init/10kPods",
         .default_nodes = 5000, .default_init_pods = 100, .default_pods = 10000,
         .init_ops = {{PodTemplate::kDefault, "namespace-1"}},
         .measured = {PodTemplate::kDefault, "namespace-3"},
         .churn = Churn::kCreateUnschedulableEvery200ms, .churn_ns = "namespace-2",
         .threshold_v135 = 140, .threshold_2026 = 590,
         .floor_columns = 3, .floor_columns_doc = fit3});
    add({.name = "SchedulingWithMixedChurn",
         .upstream = "misc: SchedulingWithMixedChurn/5000Nodes_10000Pods",
         .default_nodes = 5000, .default_init_pods = 0, .default_pods = 10000,
         .measured = {PodTemplate::kDefault, "namespace-2"},
         .churn = Churn::kRecreateNodeAndPodEvery1s, .churn_ns = "namespace-1",
         .threshold_v135 = 265, .threshold_2026 = 710,
         .floor_columns = 3, .floor_columns_doc = fit3});
    add({.name = "SchedulingDaemonset",
         .upstream = "misc: SchedulingDaemonset/15000Nodes (plus the named node)",
         .default_nodes = 15000, .default_init_pods = 0, .default_pods = 30000,
         .named_node = true,
         .measured = {PodTemplate::kDaemonset, "namespace-2"},
         .threshold_v135 = 390, .threshold_2026 = 1100,
         .floor_columns = 3, .floor_columns_doc = fit3 + " of the one node NodeAffinity's PreFilterResult leaves",
         .floor_nodes_override = 1});
    return all;
  }();
  return *kAll;
}

const char* GenerateName(PodTemplate tmpl) {
  switch (tmpl) {
    case PodTemplate::kDefault: return "pod-";
    case PodTemplate::kPodAntiAffinity: return "anti-affinity-pod-";
    case PodTemplate::kPodAffinity: return "affinity-pod-";
    case PodTemplate::kPreferredPodAffinity: return "preferred-affinity-pod-";
    case PodTemplate::kPreferredPodAntiAffinity: return "preferred-anti-affinity-pod-";
    case PodTemplate::kNodeAffinity: return "node-affinity-";
    case PodTemplate::kTopologySpreading: return "spreading-pod-";
    case PodTemplate::kPreferredTopologySpreading: return "spreading-pod-";
    case PodTemplate::kLowPriority: return "pod-";
    case PodTemplate::kHighPriority: return "pod-high-priority-";
    case PodTemplate::kHighPriorityLargeCpu: return "pod-h-";
    case PodTemplate::kDaemonset: return "daemonset-";
  }
  return "pod-";
}

const Workload* FindWorkload(std::string_view name) {
  for (const Workload& w : AllWorkloads()) {
    if (w.name == name) return &w;
  }
  return nullptr;
}

absl::Status CheckSchedulable(const Workload& w, int nodes, int init_pods, int pods) {
  if (nodes < 1 || init_pods < 0 || pods < 1) {
    return absl::InvalidArgumentError("--nodes and --pods must be at least 1, --init-pods at least 0");
  }
  auto too_many = [&](const std::string& why) {
    return absl::InvalidArgumentError(schedkit::StrCat(w.name, " with ", nodes, " nodes, ", init_pods,
                                                       " init pods and ", pods, " pods: ", why));
  };
  const int64_t init_total = static_cast<int64_t>(init_pods) * static_cast<int64_t>(w.init_ops.size());
  if (w.named_node) {
    // Every pod goes to scheduler-perf-node (90000 pod slots, no requests).
    if (init_total + pods > 90000) return too_many("more than the named node's 90000 pod slots");
    return absl::OkStatus();
  }
  if (w.name == "PreemptionBasic") {
    // 900m low-priority pods: at most 4 per 4-cpu node. A 3-cpu preemptor
    // leaves 0.1-1.0 cpu, so each node takes one preemptor.
    if (init_pods > 4 * static_cast<int64_t>(nodes)) return too_many("more than 4 low-priority pods per node");
    if (pods > nodes) return too_many("more than one high-priority pod per node");
    return absl::OkStatus();
  }
  int64_t anti_affinity = 0;  // pods with required anti-affinity on hostname: one per node
  for (const PodOp& op : w.init_ops) anti_affinity += op.tmpl == PodTemplate::kPodAntiAffinity ? init_pods : 0;
  if (w.measured.tmpl == PodTemplate::kPodAntiAffinity) anti_affinity += pods;
  if (anti_affinity > nodes) return too_many("more anti-affinity pods than nodes");
  // 100m / 500Mi pods: 40 per node by cpu (memory allows 65, pods 110).
  if (init_total + pods > 40 * static_cast<int64_t>(nodes)) return too_many("more than 40 pods of 100m per 4-cpu node");
  return absl::OkStatus();
}

}  // namespace schedkit::perf
