#include "kube/measured_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/time/clock.h"
#include "schedkit/api/str_cat.h"

extern char** environ;

namespace schedkit::bench {
namespace {

double Seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; }

}  // namespace

absl::StatusOr<std::unique_ptr<MeasuredProcess>> MeasuredProcess::Start(const std::vector<std::string>& argv,
                                                                        const std::string& log_path) {
  std::unique_ptr<MeasuredProcess> child(new MeasuredProcess());
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

MeasuredProcess::~MeasuredProcess() {
  if (!exit_ && pid_ > 0) {
    ::kill(pid_, SIGKILL);
    (void)Wait(absl::Seconds(10));
  }
}

void MeasuredProcess::Signal(int sig) {
  if (!exit_) ::kill(pid_, sig);
}

double MeasuredProcess::CpuSecondsSoFar() const {
  if (exit_) return 0;
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

std::optional<MeasuredProcess::Exit> MeasuredProcess::Wait(absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  while (!exit_) {
    int status = 0;
    rusage usage{};
    const pid_t r = ::wait4(pid_, &status, WNOHANG, &usage);
    if (r == pid_) {
      Exit e;
      e.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      e.user_seconds = Seconds(usage.ru_utime);
      e.system_seconds = Seconds(usage.ru_stime);
      e.max_rss_mb = static_cast<double>(usage.ru_maxrss) / 1024.0;
      exit_ = e;
      break;
    }
    if (absl::Now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return exit_;
}

}  // namespace schedkit::bench
