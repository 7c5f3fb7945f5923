// PerfMain: schedkit-perf around any registry — upstream kube-scheduler's
// scheduler_perf workloads run against the real scheduler in memory,
// reporting upstream's SchedulingThroughput and more (bench/perf/README.md in
// schedkit's tree has the workloads, flags and figures):
//
//   int main(int argc, char** argv) {
//     schedkit::framework::Registry registry = schedkit::plugins::NewInTreeRegistry();
//     if (!registry.Add("Sample", &sample::New).ok()) return 1;
//     return schedkit::bench::PerfMain(argc, argv, registry);
//   }
//
// A --config naming your plugins runs them. --vs-upstream needs the
// conformance oracle of schedkit's source tree (`make oracle`, --oracle PATH).
//
// Link schedkit::bench (find_package(schedkit COMPONENTS bench)).
#ifndef SCHEDKIT_BENCH_PERF_MAIN_H_
#define SCHEDKIT_BENCH_PERF_MAIN_H_

#include "schedkit/framework/registry.h"

namespace schedkit::bench {

// Runs schedkit-perf; returns the process's exit code: 0 when every pod was
// bound, 1 when a run stalled (the report is still printed) or on internal
// errors, 2 for bad usage. Call once, from main, before starting threads.
int PerfMain(int argc, char** argv, const framework::Registry& registry);

}  // namespace schedkit::bench

#endif  // SCHEDKIT_BENCH_PERF_MAIN_H_
