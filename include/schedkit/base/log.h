// Log lines for plugins and hosts: on stderr in klog's format
// ("I1206 20:58:09.239709   12345 sample-plugin] message"), as
// kube-scheduler's read, or wherever a host sends them (SetLogSink). Info
// lines are kept when their verbosity is at most the process's -v, which
// SchedulerMain and SimulatorMain set from their -v flag.
//
//   if (schedkit::LogEnabled(2)) {
//     schedkit::LogInfo(2, "sample-plugin", schedkit::StrCat("binding ", pod, " to ", node));
//   }
//
// Check LogEnabled before building a message: it is one atomic load. Do not
// log per node in Filter or Score (DESIGN.md's hot-path rules).
// Thread-safe: any thread; each line is written whole.
#ifndef SCHEDKIT_BASE_LOG_H_
#define SCHEDKIT_BASE_LOG_H_

#include <functional>
#include <string_view>

namespace schedkit {

enum class LogSeverity { kInfo, kWarning, kError };

// -v; 0 at first.
void SetLogVerbosity(int level);
int LogVerbosity();
bool LogEnabled(int level);

// One line (a trailing newline is added); `where` names the part that logs.
// Warnings and errors are always kept.
void Log(LogSeverity severity, std::string_view where, std::string_view message);
// An info line of verbosity `level`, kept when LogEnabled(level).
inline void LogInfo(int level, std::string_view where, std::string_view message) {
  if (LogEnabled(level)) Log(LogSeverity::kInfo, where, message);
}

// Where lines go instead of stderr (a host's own logger); empty restores
// stderr. Called for each kept line, on the thread that logs, never for two
// lines at once.
using LogSink = std::function<void(LogSeverity severity, std::string_view where, std::string_view message)>;
void SetLogSink(LogSink sink);

}  // namespace schedkit

#endif  // SCHEDKIT_BASE_LOG_H_
