// sample-benchmark: full cycles of a chain that holds sample-plugin.
#include "sample_plugin.h"
#include "schedkit/bench/chain_benchmark_main.h"
#include "schedkit/plugins/in_tree.h"

int main(int argc, char** argv) {
  schedkit::framework::Registry registry = schedkit::plugins::NewInTreeRegistry();
  if (!registry.Add(std::string(sample::kName), &sample::New).ok()) return 1;
  return schedkit::bench::ChainBenchmarkMain(argc, argv, std::move(registry));
}
