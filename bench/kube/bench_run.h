// One kube_bench measurement: one scheduler process (schedkit-kube or
// upstream's kube-scheduler) on one scheduler_perf workload, against a
// fresh test API server of its own, so that every scheduler meets the same
// empty cluster:
//   1. the workload's nodes are created through the API;
//   2. the scheduler starts, with a KubeSchedulerConfiguration that both
//      binaries read alike (clientConnection kubeconfig/qps/burst,
//      leaderElection off, the default profile "default-scheduler");
//   3. the init pods are created and waited for until bound (not measured;
//      this also proves the scheduler is up);
//   4. the measured pods are created by 8 client threads as fast as the API
//      server takes them while the scheduler runs, as scheduler_perf's
//      createPods op does, and timed until the last one is bound;
//   5. the final placement is checked (placement_check.h), then the
//      scheduler gets SIGTERM and is reaped with wait4.
//
//   RunSpec spec{.workload = FindWorkload("SchedulingBasic"), .init_pods = 500, .pods = 1000,
//                .scheduler = "kube-scheduler", .binary = path};
//   absl::StatusOr<RunResult> r = RunOnce(spec);
//
// Needs $SCHEDKIT_TEST_APISERVER (the test API server helper). Not
// thread-safe: one run at a time per process.
#ifndef SCHEDKIT_BENCH_KUBE_BENCH_RUN_H_
#define SCHEDKIT_BENCH_KUBE_BENCH_RUN_H_

#include <string>

#include "absl/status/statusor.h"
#include "workloads.h"

namespace schedkit::bench {

struct RunSpec {
  const perf::Workload* workload = nullptr;
  int nodes = 500;
  int init_pods = 0;  // per init op of the workload
  int pods = 0;       // measured
  int qps = 5000;     // clientConnection qps and burst, the same for every scheduler
  std::string scheduler;  // a name for logs: "schedkit-kube" or "kube-scheduler"
  std::string binary;
};

struct RunResult {
  // Phase 4, on this process's monotonic clock.
  double create_seconds = 0;  // creating the measured pods
  double seconds = 0;         // first create request to the last pod seen bound
  double pods_per_second = 0;  // pods / seconds
  // Latency per measured pod from creation to binding. "watch": as this
  // process's pod watch saw the pod appear and then carry spec.nodeName
  // (microsecond clock; includes the watch's delivery of the bind).
  // "server": the API server's creationTimestamp to the PodScheduled=True
  // condition's lastTransitionTime, both with 1-second resolution.
  double watch_p50_ms = 0, watch_p90_ms = 0, watch_p99_ms = 0;
  double server_p50_s = 0, server_p90_s = 0, server_p99_s = 0;
  // The scheduler process: user + system CPU seconds during phase 4 (from
  // /proc, 10 ms ticks), and from its start to its exit (wait4's rusage:
  // startup, informer sync, init pods and shutdown included); its peak RSS
  // (ru_maxrss).
  double cpu_measured_seconds = 0;
  double cpu_total_seconds = 0;
  double peak_rss_mb = 0;
  std::string log;  // the scheduler's stdout and stderr, kept after the run
};

// Errors: the API server or the scheduler failed, a pod stayed pending past
// the bounds (10 min for init pods, 15 min for measured ones), or the final
// placement broke a rule (then the figures would mean nothing).
absl::StatusOr<RunResult> RunOnce(const RunSpec& spec);

}  // namespace schedkit::bench

#endif  // SCHEDKIT_BENCH_KUBE_BENCH_RUN_H_
