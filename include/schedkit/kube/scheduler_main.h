// schedkit-kube's main: a drop-in kube-scheduler around any plugin registry,
// the C++ counterpart of upstream's
// app.NewSchedulerCommand(app.WithPlugin(...)).Execute().
//
//   int main(int argc, char** argv) {
//     schedkit::framework::Registry registry = schedkit::plugins::NewInTreeRegistry();
//     registry.Add("MyPlugin", MyPluginFactory);   // out-of-tree plugins
//     return schedkit::kube::SchedulerMain(argc, argv, registry);
//   }
//
// It reads kube-scheduler's flags (--config with a KubeSchedulerConfiguration,
// --kubeconfig, --master, --secure-port, --bind-address, --leader-elect*,
// -v; --help lists them), connects to the API server, serves /livez,
// /readyz, /healthz and /metrics, watches the cluster and schedules the pods
// whose schedulerName is one of the profiles until SIGTERM or SIGINT.
#ifndef SCHEDKIT_KUBE_SCHEDULER_MAIN_H_
#define SCHEDKIT_KUBE_SCHEDULER_MAIN_H_

#include "schedkit/framework/registry.h"

namespace schedkit::kube {

// Runs the scheduler; returns the process's exit code: 0 after SIGTERM or
// SIGINT (or --help), 1 when it cannot start (bad flags or configuration,
// a kubeconfig that does not load, an API server it cannot reach or that
// refuses its credentials, a port it cannot bind), with one line on stderr
// saying why. Nothing is written to the cluster before the checks pass.
// Call from the main thread before starting other threads: it blocks
// SIGTERM and SIGINT in the calling thread (and so in every thread it
// starts) to wait for them.
int SchedulerMain(int argc, char** argv, const framework::Registry& registry);

}  // namespace schedkit::kube

#endif  // SCHEDKIT_KUBE_SCHEDULER_MAIN_H_
