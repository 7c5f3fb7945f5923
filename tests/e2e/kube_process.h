// schedkit-kube as the end-to-end tests run it: a process with a
// configuration file of its own, talking to the shared test API server
// through a FaultProxy of its own (which records what it sends), serving
// /readyz on a plain-HTTP port. Start() returns once it is ready (caches
// synced, leader or not); the destructor wakes it if paused and stops it.
// Upstream's kube-scheduler runs the same way (KubeProcess::Upstream),
// without serving anything: Start() returns once it runs.
#ifndef SCHEDKIT_TESTS_E2E_KUBE_PROCESS_H_
#define SCHEDKIT_TESTS_E2E_KUBE_PROCESS_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/time.h"
#include "e2e/child_process.h"
#include "e2e/fault_proxy.h"

namespace schedkit::e2e {

class KubeProcess {
 public:
  // `config` holds KubeSchedulerConfiguration fields (profiles,
  // leaderElection) as YAML lines, with or without apiVersion and kind;
  // clientConnection is added. Empty: kube-scheduler's defaults with
  // --leader-elect=false. `token` authenticates it (default: the scheduler
  // user's).
  explicit KubeProcess(std::string name, std::string config = "", std::string token = "");
  // kube-scheduler (KubeSchedulerBinary()) with `config`, as above.
  static std::unique_ptr<KubeProcess> Upstream(std::string name, std::string config);
  ~KubeProcess();

  // Runs `binary` (a program built on SchedulerMain) in place of schedkit-kube.
  void set_binary(std::string binary) { binary_ = std::move(binary); }
  void Start(const std::vector<std::string>& extra_flags = {});
  void Signal(int sig);
  // Its exit code, or nullopt if it still runs after `limit`.
  std::optional<int> Wait(absl::Duration limit);
  std::string Output() const;
  FaultProxy& proxy() { return *proxy_; }
  // GET `path` on its plain-HTTP port ("" when unreachable).
  std::string Http(const std::string& path) const;

 private:
  std::string name_;
  std::string config_;
  std::string token_;
  std::string binary_;
  std::unique_ptr<FaultProxy> proxy_;
  std::unique_ptr<ChildProcess> child_;
  int port_ = 0;
  bool exited_ = false;
  bool upstream_ = false;
};

}  // namespace schedkit::e2e

#endif  // SCHEDKIT_TESTS_E2E_KUBE_PROCESS_H_
