// Runs a workload file (workload_file.h) against the real scheduler, in
// memory, measured as the built-in workloads are (runner.h).
//
//   absl::StatusOr<Trace> t = LoadWorkloadFile(path);
//   absl::StatusOr<RunResult> r = RunTrace({.trace = &*t, .config = cfg});
//
// Phases: the file's nodes and bound pods are the initial state; its init
// pods are added and scheduled until every one is bound or the scheduler has
// nothing left to try (a user's cluster may hold pods that fit nowhere;
// those are deleted, so that both schedulers measure from the same cluster);
// then the measured timeline. The scheduling thread applies the next batch
// (its deletions, then its arrivals) whenever no pod is ready, so a batch
// meets the cluster its predecessors left, whatever the scheduler's speed,
// and upstream's run (--vs-upstream) replays the same sequence. The
// scheduler runs on the trace's clock, not the wall clock: it stands at the
// trace's instant 0 through the init phase and moves to each batch's instant
// before the batch is applied, so a waiting pod's backoff and the queue's
// flushes follow trace time whatever the scheduler's speed (the oracle's
// clock does the same). The measured phase ends when the last batch has been
// scheduled; pods that fit nowhere are counted as pending at the end, not
// waited for.
// Not thread-safe: one run at a time per process.
#ifndef SCHEDKIT_BENCH_PERF_TRACE_RUNNER_H_
#define SCHEDKIT_BENCH_PERF_TRACE_RUNNER_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "runner.h"
#include "schedkit/config/configuration.h"
#include "schedkit/framework/registry.h"
#include "workload_file.h"

namespace schedkit::perf {

struct TraceRunOptions {
  const Trace* trace = nullptr;
  // The plugins a configuration may name; null: the in-tree ones.
  const framework::Registry* registry = nullptr;
  config::SchedulerConfiguration config;
  bool bind_on_pool = false;
  bool memoize = true;
  // The run fails when neither a bind nor a batch happened for this long.
  absl::Duration stall_timeout = absl::Seconds(120);
  bool progress = false;
  // --vs-upstream: the cluster after the init phase (init pods where
  // schedkit bound them, measured pods pending) and the timeline, for the
  // oracle's --timeline. Written between the phases, untimed.
  std::string upstream_cluster_path;
  std::string upstream_timeline_path;
};

absl::StatusOr<RunResult> RunTrace(const TraceRunOptions& options);

// The scheduler's clock at each batch, in seconds from the trace's start:
// the file's times, except that an idle gap longer than the queue's timers
// need to settle (every backoff over, every pod that waited 5 minutes in the
// unschedulable pool retried: 6 minutes by default) is shortened by whole
// 30-second flush periods to between that and 30 s more. Nothing but those
// timers acts in a gap, and whole periods keep their ticks and the
// 1-second backoff windows in phase, so the queue decides as over the whole
// gap; a kubectl dump spanning months then does not spend the run ticking
// through idle timers.
std::vector<double> ClockInstants(const Trace& trace, int64_t pod_max_backoff_seconds);

// The timeline as schedkit-oracle --timeline reads it, at `instants`
// (ClockInstants):
// {"batches": [{"at": s, "delete": ["ns/name", ...], "create": ["ns/name", ...]}, ...]}.
std::string TimelineJson(const Trace& trace, std::span<const double> instants);

}  // namespace schedkit::perf

#endif  // SCHEDKIT_BENCH_PERF_TRACE_RUNNER_H_
