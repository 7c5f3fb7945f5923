// --vs-upstream: the real kube-scheduler v1.37 code (schedkit-oracle from
// tests/conformance, run with --throughput) scheduling the identical cluster
// schedkit-perf's measured phase started from, timed by the oracle itself.
//
//   auto up = RunUpstream({.oracle = ".../schedkit-oracle", .cluster = path, .parallelism = 2});
//   up->pods_per_second();
//
// The oracle keeps percentageOfNodesToScore and parallelism, filters in
// parallel as upstream does, and binds through a fake clientset; its time
// excludes loading the cluster. Thread-compatible.
#ifndef SCHEDKIT_BENCH_PERF_UPSTREAM_H_
#define SCHEDKIT_BENCH_PERF_UPSTREAM_H_

#include <string>

#include "absl/status/statusor.h"

namespace schedkit::perf {

// A fresh directory under $TMPDIR, removed with everything in it when
// destroyed; path() is empty if it could not be created.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct UpstreamOptions {
  std::string oracle;   // the schedkit-oracle binary
  std::string cluster;  // the JSON List RunWorkload wrote (upstream_cluster_path)
  // A KubeSchedulerConfiguration file; empty for the default profile with
  // `parallelism`, written into `scratch_dir`.
  std::string config;
  int parallelism = 0;
  std::string scratch_dir;
  // A workload file's timeline (RunTrace's upstream_timeline_path): passed
  // as --timeline, and `scheduled` is then the oracle's accepted bindings.
  std::string timeline;
};

struct UpstreamResult {
  int pods = 0;       // pending pods it was given (the measured pods, and a churn op's)
  int scheduled = 0;  // of them, bound
  int attempts = 0;   // its scheduling attempts of them, to set beside schedkit's
  double seconds = 0;
  double pods_per_second() const { return seconds > 0 ? scheduled / seconds : 0; }
};

// Errors: the oracle cannot run, exits non-zero, or prints no summary.
absl::StatusOr<UpstreamResult> RunUpstream(const UpstreamOptions& options);

}  // namespace schedkit::perf

#endif  // SCHEDKIT_BENCH_PERF_UPSTREAM_H_
