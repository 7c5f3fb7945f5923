// SimulatorMain: schedkit-sim around any plugin registry, so that a plugin
// author simulates a configuration naming their plugin with a few lines:
//
//   int main(int argc, char** argv) {
//     schedkit::framework::Registry registry = schedkit::plugins::NewInTreeRegistry();
//     if (!registry.Add("Sample", &sample::New).ok()) return 1;
//     return schedkit::sim::SimulatorMain(argc, argv, registry);
//   }
//
// It schedules a cluster's pending pods (kubectl JSON or YAML files and
// folders given with --cluster, else the bundled demo cluster) with the
// configuration of --config (a KubeSchedulerConfiguration, v1) and prints one
// row per pending pod (--output table) or one JSON document (--output json;
// --explain adds every node's filter verdict and every plugin's scores).
// -v=N keeps plugins' log lines up to level N (schedkit/base/log.h). --help
// lists the flags. Ties break at random from a fixed --seed (1 unless
// given), so a run repeats. The program names itself from argv[0].
// A dump that names a node or StorageClass it lacks is read as the API
// server holds it, with one warning line (schedkit/api/missing_objects.h).
// --check-per-node-outcomes recomputes every outcome reused for a pod of the
// same signature: a plugin whose OutcomesArePerNode promise does not hold
// is named, with the pod and node, at the first outcome that differs.
//
// Link schedkit::sim (find_package(schedkit COMPONENTS sim)).
#ifndef SCHEDKIT_SIM_SIMULATOR_MAIN_H_
#define SCHEDKIT_SIM_SIMULATOR_MAIN_H_

#include "schedkit/framework/registry.h"

namespace schedkit::sim {

// Runs the simulator; returns the process's exit code: 0 when it ran (pods
// may stay unschedulable), 2 for bad usage or bad input — a cluster file, a
// configuration, plugin args, a plugin the registry lacks — with one line on
// stderr naming the culprit, 1 for an internal error or a broken
// OutcomesArePerNode promise (--check-per-node-outcomes). Call once, from main,
// before starting threads (it sets the process's flags).
int SimulatorMain(int argc, char** argv, const framework::Registry& registry);

}  // namespace schedkit::sim

#endif  // SCHEDKIT_SIM_SIMULATOR_MAIN_H_
