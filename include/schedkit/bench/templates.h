// scheduler_perf's node and pod templates (upstream's
// test/integration/scheduler_perf/templates/*.yaml at v1.37.2) as API objects:
// the clusters and pods schedkit's benchmarks run, for a plugin author's own.
//
//   api::v1::Node n = perf::MakeDefaultNode("node-0", "zone1");   // 4 cpu, 32Gi, 110 pods
//   api::v1::Pod p = perf::MakePod(perf::PodTemplate::kTopologySpreading, "ns", "pod-0");
//
// Plain values; thread-safe.
#ifndef SCHEDKIT_BENCH_TEMPLATES_H_
#define SCHEDKIT_BENCH_TEMPLATES_H_

#include <string>

#include "schedkit/api/v1/node.h"
#include "schedkit/api/v1/pod.h"

namespace schedkit::perf {

// One file of upstream's templates/ each.
enum class PodTemplate {
  kDefault,                      // pod-default.yaml: 100m / 500Mi
  kPodAntiAffinity,              // pod-with-pod-anti-affinity.yaml (required, hostname, color=green)
  kPodAffinity,                  // pod-with-pod-affinity.yaml (required, zone, color=blue)
  kPreferredPodAffinity,         // pod-with-preferred-pod-affinity.yaml (hostname, color=red)
  kPreferredPodAntiAffinity,     // pod-with-preferred-pod-anti-affinity.yaml (hostname, color=yellow)
  kNodeAffinity,                 // pod-with-node-affinity.yaml (zone In [zone1, zone2])
  kTopologySpreading,            // pod-with-topology-spreading.yaml (maxSkew 5, zone, DoNotSchedule)
  kPreferredTopologySpreading,   // pod-with-preferred-topology-spreading.yaml (ScheduleAnyway)
  kLowPriority,                  // pod-low-priority.yaml: 900m / 500Mi, no priority
  kHighPriority,                 // pod-high-priority.yaml: priority 10, 3000m / 500Mi
  kHighPriorityLargeCpu,         // pod-high-priority-large-cpu.yaml: priority 10, cpu 9 (fits nowhere)
  kDaemonset,                    // daemonset-pod.yaml: matchFields metadata.name=scheduler-perf-node
};

// A pod of `tmpl` named ns/name (uid "ns/name"), as the API server would
// store it: templates without spec.priority keep it unset (scheduler_perf
// disables the Priority admission plugin).
api::v1::Pod MakePod(PodTemplate tmpl, const std::string& ns, const std::string& name);

// --distinct-pods: measured pod number `index` of `tmpl`, with requests of
// its own (drawn within the template's, so every size CheckSchedulable
// accepts still fits) and a label of its own, so that no two measured pods
// share a memo signature (PodSignature: namespace and spec) for index below
// 250Mi. The template's constraints (affinity, spread, priority, selector
// labels) are kept; limits follow the requests, as the templates have them.
api::v1::Pod MakeDistinctPod(PodTemplate tmpl, const std::string& ns, const std::string& name, int index);

// templates/node-default.yaml (pods 110, cpu 4, memory 32Gi, Ready; the API
// server copies capacity into allocatable) with the kubernetes.io/hostname
// label upstream's node preparer adds, and `zone` as topology.kubernetes.io/zone
// when not empty.
api::v1::Node MakeDefaultNode(const std::string& name, const std::string& zone);
// templates/node-with-name.yaml: scheduler-perf-node, pods 90000.
api::v1::Node MakeNamedNode();
// templates/churn/node-default.yaml: capacity pods 0 only.
api::v1::Node MakeChurnNode(const std::string& name);

}  // namespace schedkit::perf

#endif  // SCHEDKIT_BENCH_TEMPLATES_H_
