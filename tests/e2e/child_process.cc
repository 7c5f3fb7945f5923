#include "e2e/child_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/time/clock.h"
#include "schedkit/base/str_cat.h"

extern char** environ;

namespace schedkit::e2e {

absl::StatusOr<std::unique_ptr<ChildProcess>> ChildProcess::Start(const std::vector<std::string>& argv,
                                                                  const std::string& log_path) {
  std::unique_ptr<ChildProcess> child(new ChildProcess());
  child->log_path_ = log_path;
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  const int spawned = ::posix_spawn(&child->pid_, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return absl::InternalError(schedkit::StrCat("cannot run ", argv[0]));
  return child;
}

ChildProcess::~ChildProcess() {
  if (!exit_code_ && pid_ > 0) {
    ::kill(pid_, SIGKILL);
    (void)Wait(absl::Seconds(10));
  }
}

void ChildProcess::Signal(int sig) {
  if (!exit_code_) ::kill(pid_, sig);
}

std::optional<int> ChildProcess::Wait(absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  while (!exit_code_) {
    int status = 0;
    rusage used{};
    const pid_t r = ::wait4(pid_, &status, WNOHANG, &used);
    if (r == pid_) {
      exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
      usage_ = Usage{seconds(used.ru_utime), seconds(used.ru_stime), static_cast<double>(used.ru_maxrss) / 1024.0};
      break;
    }
    if (absl::Now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return exit_code_;
}

double ChildProcess::CpuSecondsSoFar() const {
  if (exit_code_) return 0;
  std::ifstream in(schedkit::StrCat("/proc/", pid_, "/stat"));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The command name, field 2, is in parentheses and may hold spaces; after
  // its last ')' come field 3 (state) on, utime being field 14, stime 15.
  const size_t paren = text.rfind(')');
  if (paren == std::string::npos) return 0;
  std::istringstream rest(text.substr(paren + 1));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    double v = 0;
    if (i >= 14 && absl::SimpleAtod(field, &v)) ticks += v;
  }
  return ticks / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

std::string ChildProcess::Output() const {
  std::ifstream in(log_path_);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string SchedkitKubeBinary() {
  const char* path = std::getenv("SCHEDKIT_KUBE");
  return path != nullptr ? path : "";
}

std::string SchedkitSimBinary() {
  const char* path = std::getenv("SCHEDKIT_SIM");
  return path != nullptr ? path : "";
}

std::string SampleSchedulerBinary() {
  const char* path = std::getenv("SAMPLE_SCHEDULER");
  return path != nullptr ? path : "";
}

std::string KubeSchedulerBinary() {
  const char* path = std::getenv("KUBE_SCHEDULER");
  return path != nullptr ? path : "";
}

int FreeLoopbackPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  int port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
    port = ntohs(addr.sin_port);
  }
  ::close(fd);
  return port;
}

}  // namespace schedkit::e2e
