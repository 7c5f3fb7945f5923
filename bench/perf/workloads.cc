#include "workloads.h"

#include <cstdint>
#include <utility>

#include "schedkit/base/str_cat.h"

namespace schedkit::perf {
api::v1::Pod MakeMeasuredPod(const Workload& w, int index, bool distinct) {
  const std::string name = schedkit::StrCat(GenerateName(w.measured.tmpl), index);
  return distinct ? MakeDistinctPod(w.measured.tmpl, w.measured.ns, name, index)
                  : MakePod(w.measured.tmpl, w.measured.ns, name);
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
