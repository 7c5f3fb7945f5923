// A scheduler process run by kube_bench: started with its arguments, its
// stdout and stderr kept in a file, stopped by a signal, and reaped with
// wait4 so that its resource use (CPU seconds, peak RSS) is its own and not
// mixed with other children's (the test API server is a child too).
//
//   auto p = MeasuredProcess::Start({"/path/kube-scheduler", "--config", cfg}, log);
//   double cpu_before = (*p)->CpuSecondsSoFar();
//   ...
//   (*p)->Signal(SIGTERM);
//   std::optional<MeasuredProcess::Exit> exit = (*p)->Wait(absl::Seconds(30));
//
// One thread uses an instance.
#ifndef SCHEDKIT_BENCH_KUBE_MEASURED_PROCESS_H_
#define SCHEDKIT_BENCH_KUBE_MEASURED_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace schedkit::bench {

class MeasuredProcess {
 public:
  // What wait4 reported.
  struct Exit {
    int code = 0;  // exit status, or 128 + signal
    double user_seconds = 0;
    double system_seconds = 0;
    double max_rss_mb = 0;  // ru_maxrss (KiB on Linux) / 1024
  };

  // Runs `argv[0]` with `argv`; its stdout and stderr go to `log_path`.
  static absl::StatusOr<std::unique_ptr<MeasuredProcess>> Start(const std::vector<std::string>& argv,
                                                                const std::string& log_path);
  // SIGKILLs it if it still runs and reaps it (for at most 10 s).
  ~MeasuredProcess();
  MeasuredProcess(const MeasuredProcess&) = delete;
  MeasuredProcess& operator=(const MeasuredProcess&) = delete;

  void Signal(int sig);
  // Its user + system CPU seconds so far, from /proc/PID/stat (clock-tick
  // resolution, 10 ms); for the phases of a process that still runs. 0 once
  // it has been reaped.
  double CpuSecondsSoFar() const;
  // Reaps it; nullopt when it still runs after `timeout`. Later calls give
  // the same Exit.
  std::optional<Exit> Wait(absl::Duration timeout);
  pid_t pid() const { return pid_; }

 private:
  MeasuredProcess() = default;

  pid_t pid_ = -1;
  std::optional<Exit> exit_;
};

}  // namespace schedkit::bench

#endif  // SCHEDKIT_BENCH_KUBE_MEASURED_PROCESS_H_
