// schedkit-perf --from-kubectl: turns what `kubectl get nodes,pods -A -o yaml`
// (or -o json, or several files and directories of such) printed into a
// workload file (workload_file.h), so a user replays their own cluster.
//
//   absl::StatusOr<std::string> text = WorkloadFromKubectl({"dump.yaml"}, {});
//
// The nodes are kept as they are. The pods are replayed: each arrives at its
// creationTimestamp, counted in seconds from the earliest, with spec.nodeName
// and its status cleared, so the scheduler places it again (a DaemonSet's
// pods keep the node affinity that pins them to their node). Staying where
// they are, as part of the starting cluster: mirror pods (the kubelet's
// static pods, which no scheduler places), pods of other schedulers, and,
// with keep_bound, every bound pod (then only pending pods are replayed).
// Terminal and terminating pods are left out. Namespaces and priority
// classes in the dump are kept. Thread-compatible.
#ifndef SCHEDKIT_BENCH_PERF_KUBECTL_DUMP_H_
#define SCHEDKIT_BENCH_PERF_KUBECTL_DUMP_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace schedkit::perf {

struct KubectlDumpOptions {
  std::string name = "FromKubectl";  // the workload's name
  bool keep_bound = false;           // bound pods stay; only pending pods are replayed
  // Scheduler names the replay schedules for; pods of others stay put.
  std::vector<std::string> scheduler_names = {"default-scheduler"};
};

// The workload file as JSON (which is YAML too). Errors name the file, object
// and field (api::LoadPaths), or the pod whose creationTimestamp does not parse.
absl::StatusOr<std::string> WorkloadFromKubectl(const std::vector<std::string>& paths,
                                                const KubectlDumpOptions& options);

}  // namespace schedkit::perf

#endif  // SCHEDKIT_BENCH_PERF_KUBECTL_DUMP_H_
