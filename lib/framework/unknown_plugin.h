// Internal: the error for a profile naming a plugin the registry lacks:
// upstream's "<point> \"X\" does not exist", then what to do about it — the
// registered names, or, for a kubernetes-sigs/scheduler-plugins plugin, that
// it is out of tree and goes in with Registry::Add.
#ifndef SCHEDKIT_LIB_FRAMEWORK_UNKNOWN_PLUGIN_H_
#define SCHEDKIT_LIB_FRAMEWORK_UNKNOWN_PLUGIN_H_

#include <string_view>

#include "absl/status/status.h"
#include "schedkit/framework/registry.h"

namespace schedkit::framework {

absl::Status UnknownPluginError(std::string_view point, std::string_view name, const Registry& registry);

}  // namespace schedkit::framework

#endif  // SCHEDKIT_LIB_FRAMEWORK_UNKNOWN_PLUGIN_H_
