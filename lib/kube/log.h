// Internal: the kube component's log lines on stderr, in klog's header
// format ("W1204 22:30:01.123456   12345 reflector] message") so that they
// read like kube-scheduler's. Info lines are kept when their verbosity is at
// most the one -v set.
#ifndef SCHEDKIT_LIB_KUBE_LOG_H_
#define SCHEDKIT_LIB_KUBE_LOG_H_

#include <string_view>

namespace schedkit::kube::internal {

enum class Severity { kInfo, kWarning, kError };

// -v; 0 at first. Any thread.
void SetLogVerbosity(int level);
bool LogEnabled(int level);

// One line (a trailing newline is added); `where` names the part that logs.
void Log(Severity severity, std::string_view where, std::string_view message);
inline void LogInfo(int level, std::string_view where, std::string_view message) {
  if (LogEnabled(level)) Log(Severity::kInfo, where, message);
}

}  // namespace schedkit::kube::internal

#endif  // SCHEDKIT_LIB_KUBE_LOG_H_
