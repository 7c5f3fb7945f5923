#include "kube/log.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <string>

#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace schedkit::kube::internal {
namespace {

std::atomic<int> verbosity{0};

}  // namespace

void SetLogVerbosity(int level) { verbosity.store(level); }

bool LogEnabled(int level) { return level <= verbosity.load(std::memory_order_relaxed); }

void Log(Severity severity, std::string_view where, std::string_view message) {
  const char letter = severity == Severity::kInfo ? 'I' : severity == Severity::kWarning ? 'W' : 'E';
  const std::string line =
      absl::StrFormat("%c%s %7d %s] %s\n", letter,
                      absl::FormatTime("%m%d %H:%M:%E6S", absl::Now(), absl::UTCTimeZone()),
                      static_cast<int>(::getpid()), where, message);
  // One write per line, so lines from several threads do not interleave.
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace schedkit::kube::internal
