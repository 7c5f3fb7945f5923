// Runs a shell command for tests that drive a built binary (schedkit-sim,
// schedkit-perf): its stdout, its stderr and its exit code.
//
//   CommandRun r = RunCommand("build/examples/schedkit-sim --output json");
//   REQUIRE(r.exit_code == 0);
#ifndef SCHEDKIT_TESTS_TESTING_RUN_COMMAND_H_
#define SCHEDKIT_TESTS_TESTING_RUN_COMMAND_H_

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace schedkit::testing {

struct CommandRun {
  int exit_code = -1;  // -1 when the command did not exit normally
  std::string out;
  std::string err;
};

// stderr goes through a temporary file, so the two streams cannot block
// each other.
inline CommandRun RunCommand(const std::string& command) {
  CommandRun r;
  char err_path[] = "/tmp/schedkit-test-stderr-XXXXXX";
  const int err_fd = mkstemp(err_path);
  if (err_fd < 0) return r;
  close(err_fd);
  const std::string cmd = command + " 2>" + err_path;
  std::array<char, 4096> buf;
  size_t n;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
    const int status = pclose(p);
    r.exit_code = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  if (FILE* e = std::fopen(err_path, "r")) {
    while ((n = fread(buf.data(), 1, buf.size(), e)) > 0) r.err.append(buf.data(), n);
    std::fclose(e);
  }
  std::remove(err_path);
  return r;
}

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTS_TESTING_RUN_COMMAND_H_
