// ChainBenchmarkMain: full scheduling cycles of a plugin chain, as Google
// Benchmarks, for any registry — schedkit's own (chain_benchmark) or one with
// out-of-tree plugins added:
//
//   int main(int argc, char** argv) {
//     schedkit::framework::Registry registry = schedkit::plugins::NewInTreeRegistry();
//     if (!registry.Add("Sample", &sample::New).ok()) return 1;
//     return schedkit::bench::ChainBenchmarkMain(argc, argv, std::move(registry));
//   }
//
// Flags (the rest go to Google Benchmark):
//   --config=PATH            the chain is a profile of this configuration
//   --profile=NAME           that profile (default: the first)
//   --plugins=A,B,...        the chain is these plugins (multiPoint, defaults
//                            disabled; PrioritySort and DefaultBinder added)
//   --plugin-args=NAME=JSON  a plugin's args (repeatable), over the profile's
//   --node-label=KEY=V1|V2   every node gets label KEY, the values in turn
//                            (repeatable), for plugins that read labels
//   --pod=TEMPLATE           the incoming and running pods: default,
//                            anti-affinity, affinity, preferred-affinity,
//                            preferred-anti-affinity, node-affinity, spreading,
//                            preferred-spreading (upstream's scheduler_perf templates)
//   --pods-per-node=N        running pods of that template on every node (4)
//   --threads=N              parallelism (2)
//   --iterations=N           exactly N cycles per cluster size (a smoke run)
// Clusters of 1,000, 5,000 and 15,000 nodes from upstream's node template
// (4 cpu, 32Gi, 110 pods, zones zone1..zone3). Each iteration is one
// SchedulePod of the same pending pod against the same snapshot, so it
// measures the cycle alone: no queue, no binding, nothing assumed. The first
// line on stderr names the profile that runs and where it came from.
//
// Link schedkit::bench (find_package(schedkit COMPONENTS bench)).
#ifndef SCHEDKIT_BENCH_CHAIN_BENCHMARK_MAIN_H_
#define SCHEDKIT_BENCH_CHAIN_BENCHMARK_MAIN_H_

#include "schedkit/framework/registry.h"

namespace schedkit::bench {

// Parses the flags above, registers the benchmarks and runs them; returns
// the process's exit code: 0 after the run, 2 for bad flags or a chain that
// does not build (one line on stderr, named from argv[0]).
int ChainBenchmarkMain(int argc, char** argv, framework::Registry registry);

}  // namespace schedkit::bench

#endif  // SCHEDKIT_BENCH_CHAIN_BENCHMARK_MAIN_H_
