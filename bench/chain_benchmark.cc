// Full cycles of schedkit's in-tree plugins: the default profile, a
// configuration's first profile, or a list of plugins (flags in chain/chain.h).
//
//   ./build/bench/chain_benchmark --plugins=NodeResourcesFit,PodTopologySpread --pod=spreading
#include "chain/chain.h"
#include "schedkit/plugins/in_tree.h"

int main(int argc, char** argv) {
  return schedkit::bench::ChainBenchmarkMain(argc, argv, schedkit::plugins::NewInTreeRegistry());
}
