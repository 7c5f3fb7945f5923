// Full cycles of schedkit's in-tree plugins: the default profile, a
// configuration's profile, or a list of plugins (flags in schedkit/bench/chain_benchmark_main.h).
//
//   ./build/bench/chain_benchmark --plugins=NodeResourcesFit,PodTopologySpread --pod=spreading
#include "schedkit/bench/chain_benchmark_main.h"
#include "schedkit/plugins/in_tree.h"

int main(int argc, char** argv) {
  return schedkit::bench::ChainBenchmarkMain(argc, argv, schedkit::plugins::NewInTreeRegistry());
}
