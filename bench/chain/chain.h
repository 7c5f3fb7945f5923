// Full scheduling cycles of a plugin chain, as Google Benchmarks, for any
// registry: schedkit's own (chain_benchmark) or one with out-of-tree plugins
// added. The chain is the default profile, a KubeSchedulerConfiguration's
// first profile, or a list of plugin names.
//
//   int main(int argc, char** argv) {
//     framework::Registry registry = plugins::NewInTreeRegistry();
//     (void)registry.Add("MyPlugin", MyPluginFactory);
//     return bench::ChainBenchmarkMain(argc, argv, std::move(registry));
//   }
//
// Flags (the rest go to Google Benchmark):
//   --config=PATH        the chain is the first profile of this configuration
//   --plugins=A,B,...    the chain is these plugins (multiPoint, defaults
//                        disabled; PrioritySort and DefaultBinder are added)
//   --pod=TEMPLATE       the incoming and running pods: default,
//                        anti-affinity, affinity, preferred-affinity,
//                        preferred-anti-affinity, node-affinity, spreading,
//                        preferred-spreading (upstream's scheduler_perf templates)
//   --pods-per-node=N    running pods of that template on every node (4)
//   --threads=N          parallelism (2)
// Clusters of 1,000, 5,000 and 15,000 nodes from upstream's node template
// (4 cpu, 32Gi, 110 pods, zones zone1..zone3). Each iteration is one
// SchedulePod of the same pending pod against the same snapshot, so it
// measures the cycle alone: no queue, no binding, nothing assumed.
#ifndef SCHEDKIT_BENCH_CHAIN_CHAIN_H_
#define SCHEDKIT_BENCH_CHAIN_CHAIN_H_

#include "schedkit/framework/registry.h"

namespace schedkit::bench {

// Parses the flags above, registers the benchmarks and runs them; returns
// the process's exit code (2 for bad flags or a chain that does not build).
int ChainBenchmarkMain(int argc, char** argv, framework::Registry registry);

}  // namespace schedkit::bench

#endif  // SCHEDKIT_BENCH_CHAIN_CHAIN_H_
