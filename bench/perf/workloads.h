// The scheduler_perf workloads schedkit-perf runs: upstream's test cases
// (test/integration/scheduler_perf/*/performance-config.yaml at v1.35.8) with
// their node and pod templates (templates/*.yaml) turned into API objects.
//
//   const Workload* w = FindWorkload("SchedulingBasic");
//   api::v1::Node n = w->MakeNode(0);                 // node-default.yaml + labels
//   api::v1::Pod p = MakePod(PodTemplate::kDefault, "namespace-2", "pod-0");
//
// A workload is a list of phases, as upstream's workloadTemplate ops:
// createNodes, then init createPods ops (scheduled, not measured), then the
// measured createPods op (collectMetrics: true), with an optional churn op
// running alongside the measured one. Plain values; thread-safe to read.
#ifndef SCHEDKIT_BENCH_PERF_WORKLOADS_H_
#define SCHEDKIT_BENCH_PERF_WORKLOADS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "schedkit/api/object_set.h"
#include "schedkit/api/v1/namespace.h"
#include "schedkit/api/v1/node.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/api/v1/priority_class.h"
#include "schedkit/bench/templates.h"

namespace schedkit::perf {


// A createPods op: which template, in which namespace.
struct PodOp {
  PodTemplate tmpl = PodTemplate::kDefault;
  std::string ns{};  // upstream's explicit namespace, or "namespace-<opIndex>"
};

enum class Churn {
  kNone,
  // Unschedulable: `churn` op, mode create, pod-high-priority-large-cpu
  // every 200 ms, unbounded, for the whole measured phase.
  kCreateUnschedulableEvery200ms,
  // SchedulingWithMixedChurn: `churn` op, mode recreate, number 1, every
  // 1000 ms: a churn node and a high-priority large-cpu pod are created on
  // one tick and deleted on the next. (Upstream's third template, a Service,
  // has no counterpart: schedkit takes no Service objects.)
  kRecreateNodeAndPodEvery1s,
};

struct Workload {
  std::string name{};
  // The upstream test case and workload the defaults come from.
  std::string upstream{};
  int default_nodes = 0;
  int default_init_pods = 0;
  int default_pods = 0;
  // labelNodePrepareStrategy values for topology.kubernetes.io/zone,
  // assigned round-robin; empty for none.
  std::vector<std::string> zones{};
  // SchedulingDaemonset: node-with-name.yaml comes first, in addition to --nodes.
  bool named_node = false;
  // Init createPods ops, --init-pods pods each, in order.
  std::vector<PodOp> init_ops{};
  PodOp measured{};
  Churn churn = Churn::kNone;
  // The churn op's namespace ("namespace-<opIndex>"); empty without churn.
  std::string churn_ns{};
  // Upstream thresholds for SchedulingThroughput Average, pods/s: the one in
  // the v1.35.8 yaml (0: none) and the one upstream's 2026 configuration sets.
  int threshold_v135 = 0;
  int threshold_2026 = 0;
  // The memory-read floor: int64 columns per node the workload's filters
  // read, and what they stand for.
  int floor_columns = 3;
  std::string floor_columns_doc{};
  // Nodes a filter pass must read per pod when PreFilter narrows the set
  // (SchedulingDaemonset: 1); 0 means the scheduler's own count.
  int floor_nodes_override = 0;
};

// upstream's generateName of the template ("pod-", "anti-affinity-pod-", ...).
const char* GenerateName(PodTemplate tmpl);

// The measured pod `index` of workload `w`, named generateName + index: the
// template's, or with --distinct-pods its own (MakeDistinctPod).
api::v1::Pod MakeMeasuredPod(const Workload& w, int index, bool distinct);

const std::vector<Workload>& AllWorkloads();
const Workload* FindWorkload(std::string_view name);

// Every workload here assumes all its init and measured pods fit; this
// rejects sizes that break that (too many pods for the nodes' 4 cpu, or for
// anti-affinity's one pod per node, or for one preemptor per node), so a run
// that does not bind everything is always a scheduler problem.
absl::Status CheckSchedulable(const Workload& w, int nodes, int init_pods, int pods);

}  // namespace schedkit::perf

#endif  // SCHEDKIT_BENCH_PERF_WORKLOADS_H_
