// Runs one scheduler_perf workload against the real scheduler, in memory,
// and measures it the way upstream's scheduler_perf does.
//
//   RunOptions o{.workload = FindWorkload("SchedulingBasic"), .nodes = 5000,
//                .init_pods = 1000, .pods = 10000, .config = cfg};
//   absl::StatusOr<RunResult> r = RunWorkload(o);
//   r->throughput_samples;   // 1 s samples of measured pods bound, pods/s
//
// What runs: schedkit::scheduler::Scheduler (queue, cache, framework; binding
// cycles on the scheduling thread, as SchedulerOptions::
// bind_on_scheduling_thread allows for a host that binds in memory, or on
// the default executor's thread pool) with the real clock, driven by a scheduling
// thread that calls ScheduleOne in a loop and times each call; an in-memory
// Host that accepts every bind and deletes preemption victims through
// Scheduler::DeletePod; a sampler thread; and, for churn workloads, a churn
// thread that adds and deletes objects through the Scheduler's event methods.
//
// Phases, as upstream's ops: nodes come with the initial state; init pods are
// added and scheduled (not measured); then the sampler and churn start and
// the measured pods are added. The measured phase ends when every measured
// pod is bound (all of them are schedulable in every workload), or fails
// after `stall_timeout` without a new measured bind.
// Not thread-safe: one run at a time per process is what it measures.
#ifndef SCHEDKIT_BENCH_PERF_RUNNER_H_
#define SCHEDKIT_BENCH_PERF_RUNNER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "schedkit/config/configuration.h"
#include "schedkit/framework/registry.h"
#include "workloads.h"

namespace schedkit::perf {

struct RunOptions {
  const Workload* workload = nullptr;
  // The plugins a configuration may name; null: the in-tree ones.
  const framework::Registry* registry = nullptr;
  int nodes = 0;      // createNodes count (SchedulingDaemonset adds its named node)
  int init_pods = 0;  // per init createPods op
  int pods = 0;       // measured pods
  // parallelism already set from --threads.
  config::SchedulerConfiguration config;
  // Binding cycles on the default executor's thread pool rather than on the
  // scheduling thread (the host binds in memory, so both are correct).
  bool bind_on_pool = false;
  // SchedulerOptions::memoize_per_node_outcomes (--no-memo turns it off).
  bool memoize = true;
  // --distinct-pods: every measured pod with its own requests and labels
  // (MakeMeasuredPod), so none shares another's memo signature.
  bool distinct_pods = false;
  // A phase fails when no pod of it is bound for this long.
  absl::Duration stall_timeout = absl::Seconds(120);
  // The churn op's tick interval; zero for the workload's own (upstream's).
  absl::Duration churn_every = absl::ZeroDuration();
  // Progress lines on stderr, about once a second.
  bool progress = false;
  // When set, the cluster as it stood after the init phase (nodes, init
  // pods on the nodes schedkit bound them to) plus the measured pods, still
  // pending, and the objects the churn op created, is written here as a
  // JSON List: the identical input for the upstream oracle's run
  // (--vs-upstream). Written after the measured phase, so it is not timed.
  std::string upstream_cluster_path;
  // With a churn op and upstream_cluster_path: the churn's ticks, as the
  // oracle's --timeline replays them (each after as many scheduling
  // attempts as schedkit had made when it came).
  std::string upstream_timeline_path;
};

struct RunResult {
  int nodes = 0;  // in the cluster at the start, named node included
  int init_pods = 0;
  int init_scheduled = 0;
  int measured_pods = 0;
  int measured_scheduled = 0;
  // Pods added by the churn op (never schedulable) and churn ticks.
  int churn_pods = 0;
  int churn_nodes = 0;
  int churn_ticks = 0;
  int preemption_victims = 0;
  // Workload files (RunTrace): batches applied, measured pods deleted by the
  // trace (deletions of pods already gone not counted), and measured pods
  // still pending when the last batch has been scheduled.
  bool trace = false;
  int batches = 0;
  int trace_deletions = 0;
  int pending_at_end = 0;
  // Scheduling attempts (one per ScheduleOne that popped a pod) in the
  // measured phase: all pods, and measured pods by outcome.
  int64_t attempts = 0;
  int64_t measured_attempts = 0;
  int64_t measured_attempts_scheduled = 0;
  int64_t measured_attempts_unschedulable = 0;
  int64_t measured_attempts_error = 0;

  double init_seconds = 0;
  // From the first measured pod's creation to the last measured bind.
  double measured_seconds = 0;
  // Upstream's SchedulingThroughput samples (pods/s), in time order.
  std::vector<double> throughput_samples;
  // Wall time of each ScheduleOne call that attempted a measured pod, ms.
  std::vector<double> attempt_ms;
  int64_t peak_rss_kb = 0;
  // Resident set (/proc/self/statm) before the cluster is built, once the
  // scheduler holds the nodes, and once the init pods are bound: what a node
  // and an init pod cost, host's objects and scheduler's state together.
  int64_t rss_start_kb = 0;
  int64_t rss_nodes_kb = 0;
  int64_t rss_init_kb = 0;
  // Empty when every init and measured pod was bound; else what went wrong.
  std::string error;

  bool complete() const { return error.empty(); }
  double bytes_per_node() const { return nodes > 0 ? (rss_nodes_kb - rss_start_kb) * 1024.0 / nodes : 0; }
  double bytes_per_init_pod() const {
    return init_scheduled > 0 ? (rss_init_kb - rss_nodes_kb) * 1024.0 / init_scheduled : 0;
  }
  double whole_run_pods_per_second() const {
    return measured_seconds > 0 ? measured_scheduled / measured_seconds : 0;
  }
};

class PerfHost;
class SchedulingLoop;
// Fills `result` with what a finished run's host and scheduling loop counted
// (binds, victims, attempts by outcome, attempt times, which it moves out of
// `loop`) and the process's peak resident set.
void TakeMeasuredCounts(const PerfHost& host, SchedulingLoop& loop, RunResult& result);

// Errors only for a setup that cannot run (bad configuration, invalid
// objects); a run that does not finish is a RunResult with `error` set.
absl::StatusOr<RunResult> RunWorkload(const RunOptions& options);

// Writes one of --vs-upstream's input files (the cluster, the timeline);
// `what` names it in the error.
absl::Status WriteUpstreamFile(const std::string& path, const std::string& text, const char* what);

}  // namespace schedkit::perf

#endif  // SCHEDKIT_BENCH_PERF_RUNNER_H_
