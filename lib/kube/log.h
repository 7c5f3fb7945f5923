// Internal: the kube component's log lines, through the public log
// (schedkit/base/log.h) under the names the component's code uses.
#ifndef SCHEDKIT_LIB_KUBE_LOG_H_
#define SCHEDKIT_LIB_KUBE_LOG_H_

#include "schedkit/base/log.h"

namespace schedkit::kube::internal {

using Severity = schedkit::LogSeverity;
using schedkit::Log;
using schedkit::LogEnabled;
using schedkit::LogInfo;
using schedkit::SetLogVerbosity;

}  // namespace schedkit::kube::internal

#endif  // SCHEDKIT_LIB_KUBE_LOG_H_
