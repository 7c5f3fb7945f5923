// Internal: marks a plugin-args error that already names its profile, plugin
// and field, so that the Framework passes it on as one line instead of
// wrapping it in "profile ...: initializing plugin ...".
#ifndef SCHEDKIT_LIB_FRAMEWORK_ARGS_ERROR_H_
#define SCHEDKIT_LIB_FRAMEWORK_ARGS_ERROR_H_

#include "absl/status/status.h"

namespace schedkit::framework {

void MarkArgsError(absl::Status& status);
bool IsArgsError(const absl::Status& status);

}  // namespace schedkit::framework

#endif  // SCHEDKIT_LIB_FRAMEWORK_ARGS_ERROR_H_
