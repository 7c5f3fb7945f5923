// schedkit-perf --workload-file: a workload read from a JSON or YAML file, so
// that users replay their own clusters (bench/perf/README.md, "Workload
// files", documents the format; bench/perf/workloads/ has examples).
//
//   absl::StatusOr<Trace> t = LoadWorkloadFile("mixed-distinct.yaml", /*scale=*/5);
//   t->initial;    // nodes, namespaces, priority classes, pods already bound
//   t->init_pods;  // scheduled before measuring, not measured
//   t->batches;    // the measured timeline: deletions, then arrivals, per instant
//
// The file names node groups (count, zones, labels, taints, allocatable) or
// whole Node objects, and pod groups: a Pod template with a count, arrival
// times (`at`, `every`) and a lifetime, optionally with each pod's own
// requests drawn from ranges (`vary`), or a list of whole Pods each with its
// own times. Events at the same instant form one batch; a run applies a
// batch when the scheduler has nothing left to do, so times order the
// events and both schedulers (schedkit and upstream) see the same sequence.
// Errors name the file and the field ("f.yaml: podGroups[2].vary.cpu[1]: ...").
// Plain values; thread-compatible.
#ifndef SCHEDKIT_BENCH_PERF_WORKLOAD_FILE_H_
#define SCHEDKIT_BENCH_PERF_WORKLOAD_FILE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/api/object_set.h"
#include "schedkit/api/v1/namespace.h"
#include "schedkit/api/v1/node.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/api/v1/priority_class.h"

namespace schedkit::perf {

// One instant of the measured timeline.
struct TraceBatch {
  double at = 0;  // seconds, as the file gives them
  // namespace/name of measured pods deleted at this instant (before the
  // arrivals); a pod already gone (a preemption victim) is skipped.
  std::vector<std::pair<std::string, std::string>> deletions;
  // Indices into Trace::measured of the pods that arrive.
  std::vector<int> arrivals;
};

struct Trace {
  std::string name;
  std::string path;
  // Nodes, namespaces (every namespace a pod names), priority classes and
  // the pods the file places on nodes itself (spec.nodeName set).
  api::ObjectSet initial;
  // Pods of groups with `phase: init`: scheduled before measuring.
  std::vector<std::shared_ptr<const api::v1::Pod>> init_pods;
  // Measured pods, pending, in the order of their arrival.
  std::vector<std::shared_ptr<const api::v1::Pod>> measured;
  std::vector<TraceBatch> batches;  // by time
  int deletions = 0;                // in all batches
};

// The UID prefixes that tell a run's pods apart: the loader sets every
// init pod's uid to "init:<ns>/<name>" and every measured pod's to
// "measured:<ns>/<name>".
inline constexpr char kInitUidPrefix[] = "init:";
inline constexpr char kMeasuredUidPrefix[] = "measured:";

// Reads `path`. `scale` multiplies every node group's and every templated pod
// group's count (rounded, at least 1), and a templated group keeps its
// instants: at scale N its pods arrive N at a time where the file has one
// (below 1, at every 1/N-th instant). Whole Nodes and Pods listed one by one
// are not multiplied. InvalidArgument names the file and field; NotFound
// for a missing file.
absl::StatusOr<Trace> LoadWorkloadFile(const std::string& path, double scale = 1.0);

// Keeps the measured timeline's instants before `until` seconds (--until):
// the pods arriving later are dropped, and so are the deletions after it.
// Init pods and the cluster are kept whole.
void KeepUntil(Trace& trace, double until);

}  // namespace schedkit::perf

#endif  // SCHEDKIT_BENCH_PERF_WORKLOAD_FILE_H_
