// schedkit-sim: where would these pods go, and why not? SimulatorMain with
// the in-tree plugins (flags and exit codes in schedkit/sim/simulator_main.h).
#include "schedkit/plugins/in_tree.h"
#include "schedkit/sim/simulator_main.h"

int main(int argc, char** argv) {
  return schedkit::sim::SimulatorMain(argc, argv, schedkit::plugins::NewInTreeRegistry());
}
