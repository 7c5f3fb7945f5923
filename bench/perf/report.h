// schedkit-perf's output: upstream scheduler_perf's DataItems JSON and a
// readable table, from one RunResult and its memory-read floors.
//
//   Report rep{.workload = w, .nodes = 5000, .init_pods = 1000, .pods = 10000,
//              .parallelism = 2, .run = &result, .floor_sampled = fs, .floor_all = fa};
//   std::cout << DataItemsJson(rep).dump(2);
//
// Statistics follow upstream's collectors: samples sorted, Average the mean,
// PercNN = samples[ceil(n*NN/100) - 1]. Thread-compatible.
#ifndef SCHEDKIT_BENCH_PERF_REPORT_H_
#define SCHEDKIT_BENCH_PERF_REPORT_H_

#include <optional>
#include <string>
#include <vector>

#include "floor.h"
#include "nlohmann/json.hpp"
#include "runner.h"
#include "summary.h"
#include "upstream.h"
#include "workloads.h"

namespace schedkit::perf {

struct Report {
  const Workload* workload = nullptr;
  int nodes = 0;
  int init_pods = 0;
  int pods = 0;
  int parallelism = 0;
  // "scheduling thread" or "pool" (RunOptions::bind_on_pool).
  std::string binding;
  bool memoize = true;  // RunOptions::memoize
  bool distinct_pods = false;  // RunOptions::distinct_pods
  // The process's malloc: "oneTBB scalable" or "glibc" (bench/CMakeLists.txt).
  std::string allocator;
  const RunResult* run = nullptr;
  FloorResult floor_sampled;  // the nodes the scheduler reads at least (adaptive sampling)
  FloorResult floor_all;      // every node
  // --vs-upstream: the upstream oracle on the same cluster and pods.
  std::optional<UpstreamResult> upstream;
};

// "<workload>/<nodes>Nodes_<pods>Pods", upstream's Name label, with
// "/DistinctPods" after it for --distinct-pods.
std::string RunName(const Report& r);

// {"version":"v1","dataItems":[SchedulingThroughput, SchedulingAttemptDuration,
// SchedulingThroughputWholeRun, MemoryReadFloor ×2, PeakRSS, Memory, Summary]}, then
// with --vs-upstream SchedulingThroughputWholeRun labelled "Scheduler":
// "kube-scheduler" and VsUpstream (the ratio).
nlohmann::ordered_json DataItemsJson(const Report& r);

std::string Table(const Report& r);

}  // namespace schedkit::perf

#endif  // SCHEDKIT_BENCH_PERF_REPORT_H_
