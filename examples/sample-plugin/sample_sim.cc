// sample-sim: schedkit-sim with sample-plugin in its registry.
#include "sample_plugin.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/sim/simulator_main.h"

int main(int argc, char** argv) {
  schedkit::framework::Registry registry = schedkit::plugins::NewInTreeRegistry();
  if (!registry.Add(std::string(sample::kName), &sample::New).ok()) return 1;
  return schedkit::sim::SimulatorMain(argc, argv, registry);
}
