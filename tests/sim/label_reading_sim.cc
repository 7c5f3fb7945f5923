// schedkit-sim with one plugin more, ReadsPodLabels (testing/reads_pod_labels.h),
// which breaks its OutcomesArePerNode promise: sim_test.cc runs it to show
// what --check-per-node-outcomes finds, and what goes unseen without it.
#include <string>

#include "schedkit/plugins/in_tree.h"
#include "schedkit/sim/simulator_main.h"
#include "testing/reads_pod_labels.h"

int main(int argc, char** argv) {
  using schedkit::testing::ReadsPodLabels;
  schedkit::framework::Registry registry = schedkit::plugins::NewInTreeRegistry();
  if (!registry.Add(std::string(ReadsPodLabels::kName), &ReadsPodLabels::New).ok()) return 1;
  return schedkit::sim::SimulatorMain(argc, argv, registry);
}
