#include "e2e/test_apiserver.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "absl/status/status.h"
#include "schedkit/base/str_cat.h"

extern char** environ;

namespace schedkit::e2e {
namespace {

// Waits for `pid` to exit, up to `timeout`; true when it did.
bool WaitExit(pid_t pid, absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  while (absl::Now() < deadline) {
    int status = 0;
    const pid_t r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid || r < 0) return true;
    ::usleep(50 * 1000);
  }
  return false;
}

}  // namespace

absl::StatusOr<std::unique_ptr<TestApiServer>> TestApiServer::Start(absl::Duration timeout) {
  const char* binary = std::getenv("SCHEDKIT_TEST_APISERVER");
  if (binary == nullptr || *binary == '\0') {
    return absl::FailedPreconditionError(
        "SCHEDKIT_TEST_APISERVER is not set: run the end-to-end tests with `make e2e`, which builds "
        "schedkit-test-apiserver and sets it");
  }
  std::unique_ptr<TestApiServer> server(new TestApiServer());
  std::string dir_template = (std::filesystem::temp_directory_path() / "schedkit-e2e-XXXXXX").string();
  if (::mkdtemp(dir_template.data()) == nullptr) return absl::InternalError("mkdtemp failed");
  server->dir_ = dir_template;

  int in_pipe[2], out_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) != 0 || ::pipe2(out_pipe, O_CLOEXEC) != 0) {
    return absl::InternalError("pipe failed");
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  // The API server's and etcd's logs, kept beside the (removed) directory.
  server->log_ = server->dir_ + ".log";
  posix_spawn_file_actions_addopen(&actions, 2, server->log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> args = {binary, "-dir", server->dir_};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = ::posix_spawn(&pid, binary, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  server->stdin_fd_ = in_pipe[1];
  server->stdout_fd_ = out_pipe[0];
  if (spawned != 0) {
    return absl::FailedPreconditionError(
        schedkit::StrCat("cannot start ", binary, ": ", std::strerror(spawned)));
  }
  server->pid_ = pid;
  auto url = server->AwaitReady(timeout);
  if (!url.ok()) return url.status();
  server->url_ = *url;
  return server;
}

absl::StatusOr<std::string> TestApiServer::AwaitReady(absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  for (;;) {
    const size_t eol = pending_.find('\n');
    if (eol != std::string::npos) {
      std::string line = pending_.substr(0, eol);
      pending_.erase(0, eol + 1);
      if (line.starts_with("ready ")) return line.substr(6);
      continue;
    }
    const absl::Duration left = deadline - absl::Now();
    if (left <= absl::ZeroDuration()) {
      return absl::DeadlineExceededError(
          schedkit::StrCat("schedkit-test-apiserver: not ready in time (its log: ", log_, ")"));
    }
    pollfd p{stdout_fd_, POLLIN, 0};
    const int wait_ms = static_cast<int>(std::min<int64_t>(absl::ToInt64Milliseconds(left), 1000));
    const int ready = ::poll(&p, 1, wait_ms);
    if (ready <= 0) continue;
    char buf[4096];
    const ssize_t n = ::read(stdout_fd_, buf, sizeof(buf));
    if (n <= 0) {
      return absl::UnavailableError(
          schedkit::StrCat("schedkit-test-apiserver exited before it was ready (its log: ", log_, ")"));
    }
    pending_.append(buf, static_cast<size_t>(n));
  }
}

absl::Status TestApiServer::Restart(absl::Duration timeout) {
  if (::kill(pid_, SIGHUP) != 0) return absl::InternalError("cannot signal schedkit-test-apiserver");
  auto url = AwaitReady(timeout);
  if (!url.ok()) return url.status();
  if (*url != url_) {
    return absl::InternalError(schedkit::StrCat("restarted on ", *url, ", not ", url_));
  }
  return absl::OkStatus();
}

TestApiServer::~TestApiServer() {
  if (stdin_fd_ >= 0) ::close(stdin_fd_);
  if (pid_ > 0 && !WaitExit(pid_, absl::Seconds(30))) {
    ::kill(pid_, SIGKILL);
    WaitExit(pid_, absl::Seconds(5));
  }
  if (stdout_fd_ >= 0) ::close(stdout_fd_);
  if (!dir_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
}

}  // namespace schedkit::e2e
