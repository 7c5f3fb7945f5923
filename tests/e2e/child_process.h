// A program run by an end-to-end test or a bench: started with its
// arguments, its stdout and stderr kept in a file, stopped by a signal and
// reaped with a bound (by wait4, so that its resource use is its own and not
// mixed with other children's).
#ifndef SCHEDKIT_TESTS_E2E_CHILD_PROCESS_H_
#define SCHEDKIT_TESTS_E2E_CHILD_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace schedkit::e2e {

class ChildProcess {
 public:
  // Runs `argv[0]` with `argv`; its stdout and stderr go to `log_path`.
  static absl::StatusOr<std::unique_ptr<ChildProcess>> Start(const std::vector<std::string>& argv,
                                                             const std::string& log_path);
  // Kills it (SIGKILL) if it still runs.
  ~ChildProcess();

  void Signal(int sig);
  // Its exit code (128 + signal when a signal ended it), or nullopt when it
  // still runs after `timeout`.
  std::optional<int> Wait(absl::Duration timeout);
  // What it wrote so far.
  std::string Output() const;
  pid_t pid() const { return pid_; }

  // Its user + system CPU seconds so far, from /proc/PID/stat (clock-tick
  // resolution, 10 ms); for the phases of a process that still runs, 0
  // once it has been reaped.
  double CpuSecondsSoFar() const;
  // What wait4 reported once Wait saw it exit.
  struct Usage {
    double user_seconds = 0;
    double system_seconds = 0;
    double max_rss_mb = 0;  // ru_maxrss (KiB on Linux) / 1024
  };
  const std::optional<Usage>& usage() const { return usage_; }

 private:
  pid_t pid_ = -1;
  std::string log_path_;
  std::optional<int> exit_code_;
  std::optional<Usage> usage_;
};

// The path of the schedkit-kube binary ($SCHEDKIT_KUBE, set by `make e2e`).
std::string SchedkitKubeBinary();

// The path of the schedkit-sim binary ($SCHEDKIT_SIM, set by `make e2e`).
std::string SchedkitSimBinary();
// $SAMPLE_SCHEDULER: examples/sample-plugin's sample-scheduler, built against
// an install of this tree (`make e2e` builds it).
std::string SampleSchedulerBinary();

// The path of upstream's kube-scheduler at the reference release
// (schedkit::kUpstreamVersion; $KUBE_SCHEDULER, set by
// `make e2e` and `make bench-kube`; tests/kube/apiserver/build.sh builds it).
std::string KubeSchedulerBinary();

// A TCP port on 127.0.0.1 nobody listened on a moment ago.
int FreeLoopbackPort();

}  // namespace schedkit::e2e

#endif  // SCHEDKIT_TESTS_E2E_CHILD_PROCESS_H_
