// The memory-read floor: how long it takes just to stream, once per pod,
// over the per-node integers the workload's filters must read, kept as
// compact int64 columns (for SchedulingBasic: free milli-cpu, free memory
// and free pod slots). No real scheduler can place a pod faster than it can
// read what decides the placement, so a measured figure is quoted as a
// multiple of this floor.
//
//   FloorResult f = MeasureFloor({.nodes = 5000, .nodes_read = 500, .columns = 3, .pods = 10000});
//   f.ns_per_pod;   // wall time per pod, one thread
//
// Each pod scans `nodes_read` nodes from a rotating start (as the scheduler's
// node sampling does), checks every column against the pod's request, keeps
// the best feasible node and charges the pod to it, so the loop can be
// neither skipped nor hoisted. One thread: it is a floor for the work, not
// for the scheduler's thread layout. Thread-safe (no shared state).
#ifndef SCHEDKIT_BENCH_PERF_FLOOR_H_
#define SCHEDKIT_BENCH_PERF_FLOOR_H_

#include <cstdint>

namespace schedkit::perf {

struct FloorOptions {
  int nodes = 0;       // rows of each column
  int nodes_read = 0;  // nodes scanned per pod (≤ nodes)
  int columns = 3;     // int64 columns read per node (at least 3)
  int pods = 0;        // pods streamed; the result is per pod
};

struct FloorResult {
  int nodes_read = 0;
  int columns = 0;
  double ns_per_pod = 0;
  double pods_per_second() const { return ns_per_pod > 0 ? 1e9 / ns_per_pod : 0; }
  int64_t bytes_per_pod() const { return static_cast<int64_t>(nodes_read) * columns * 8; }
};

FloorResult MeasureFloor(const FloorOptions& options);

}  // namespace schedkit::perf

#endif  // SCHEDKIT_BENCH_PERF_FLOOR_H_
