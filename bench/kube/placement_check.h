// kube_bench's correctness check of a finished run, from the API server's
// final lists of nodes and pods (the JSON of GET /api/v1/nodes and
// GET /api/v1/pods):
//   - every pod of the measured namespace is bound, to a node that exists;
//   - no node holds more cpu, memory or pods than its allocatable
//     (summing container requests);
//   - the workload's own rule holds at the end: at most one color=green pod
//     per node (required anti-affinity on the hostname), zone counts of the
//     measured color=blue pods within maxSkew 5 (TopologySpreading).
// A scheduler that breaks one of these makes its figures meaningless.
#ifndef SCHEDKIT_BENCH_KUBE_PLACEMENT_CHECK_H_
#define SCHEDKIT_BENCH_KUBE_PLACEMENT_CHECK_H_

#include <string>

#include "absl/status/status.h"

namespace schedkit::bench {

struct PlacementRules {
  std::string measured_namespace;
  int measured_pods = 0;
  bool one_green_pod_per_node = false;  // SchedulingPodAntiAffinity
  int zone_max_skew = 0;                // TopologySpreading: 5; 0 for none
};

// OK, or the first broken rule with the offending node or pod.
absl::Status CheckPlacement(const std::string& node_list_json, const std::string& pod_list_json,
                            const PlacementRules& rules);

}  // namespace schedkit::bench

#endif  // SCHEDKIT_BENCH_KUBE_PLACEMENT_CHECK_H_
