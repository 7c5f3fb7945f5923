#include "schedkit/base/log.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace schedkit {
namespace {

std::atomic<int> verbosity{0};

// The sink, and the lock that keeps lines whole and the sink alive while
// one is written.
struct Sink {
  std::mutex mu;
  LogSink sink;
};

Sink& TheSink() {
  static Sink* const sink = new Sink();  // never destroyed: threads may log until exit
  return *sink;
}

}  // namespace

void SetLogVerbosity(int level) { verbosity.store(level); }

int LogVerbosity() { return verbosity.load(std::memory_order_relaxed); }

bool LogEnabled(int level) { return level <= verbosity.load(std::memory_order_relaxed); }

void Log(LogSeverity severity, std::string_view where, std::string_view message) {
  Sink& s = TheSink();
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.sink) {
    s.sink(severity, where, message);
    return;
  }
  const char letter = severity == LogSeverity::kInfo ? 'I' : severity == LogSeverity::kWarning ? 'W' : 'E';
  const std::string line =
      absl::StrFormat("%c%s %7d %s] %s\n", letter,
                      absl::FormatTime("%m%d %H:%M:%E6S", absl::Now(), absl::UTCTimeZone()),
                      static_cast<int>(::getpid()), where, message);
  std::fwrite(line.data(), 1, line.size(), stderr);
}

void SetLogSink(LogSink sink) {
  Sink& s = TheSink();
  std::lock_guard<std::mutex> lock(s.mu);
  s.sink = std::move(sink);
}

}  // namespace schedkit
