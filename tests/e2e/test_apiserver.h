// A real kube-apiserver with its etcd, for end-to-end tests: runs
// schedkit-test-apiserver (tests/kube/apiserver, built by `make e2e`) as a
// child process on 127.0.0.1 and hands out its kubeconfigs.
#ifndef SCHEDKIT_TESTS_E2E_TEST_APISERVER_H_
#define SCHEDKIT_TESTS_E2E_TEST_APISERVER_H_

#include <sys/types.h>

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace schedkit::e2e {

class TestApiServer {
 public:
  // Starts the helper named by $SCHEDKIT_TEST_APISERVER in a fresh
  // directory and waits (up to `timeout`) for its "ready URL" line.
  static absl::StatusOr<std::unique_ptr<TestApiServer>> Start(absl::Duration timeout = absl::Minutes(2));
  // Closes the helper's stdin (it then stops the API server and etcd) and
  // waits for it; kills it after 30 s.
  ~TestApiServer();
  TestApiServer(const TestApiServer&) = delete;
  TestApiServer& operator=(const TestApiServer&) = delete;

  // https://127.0.0.1:PORT
  const std::string& url() const { return url_; }
  // Full rights (group system:masters).
  std::string admin_kubeconfig() const { return dir_ + "/admin.kubeconfig"; }
  // User system:kube-scheduler, with the bootstrap RBAC role of that name.
  std::string scheduler_kubeconfig() const { return dir_ + "/scheduler.kubeconfig"; }
  // The CA that verifies the serving certificate (PEM file).
  std::string ca_file() const { return dir_ + "/ca.crt"; }
  const std::string& dir() const { return dir_; }
  // The API server's and etcd's log (the helper's stderr), kept after the run.
  const std::string& log() const { return log_; }

  // Restarts the kube-apiserver on the same address with the same
  // certificates, tokens and etcd (open connections and watches break),
  // and waits for it to be ready again.
  absl::Status Restart(absl::Duration timeout = absl::Minutes(1));

 private:
  TestApiServer() = default;
  // Reads the helper's stdout up to the next "ready URL" line.
  absl::StatusOr<std::string> AwaitReady(absl::Duration timeout);

  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  std::string pending_;  // stdout read past the last line
  std::string dir_;
  std::string log_;  // the helper's stderr: kept after the run
  std::string url_;
};

}  // namespace schedkit::e2e

#endif  // SCHEDKIT_TESTS_E2E_TEST_APISERVER_H_
