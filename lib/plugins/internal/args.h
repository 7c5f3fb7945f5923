// Internal: what several in-tree plugins' args declarations share.
#ifndef SCHEDKIT_LIB_PLUGINS_INTERNAL_ARGS_H_
#define SCHEDKIT_LIB_PLUGINS_INTERNAL_ARGS_H_

#include <string_view>

#include "absl/status/status.h"
#include "schedkit/framework/plugin_args.h"

namespace schedkit::plugins::internal {

// For a plugin that takes no args: any field is unknown, as upstream's
// strict decoding of an args type without fields.
absl::Status CheckNoArgs(const framework::PluginArgs& args, std::string_view plugin);

}  // namespace schedkit::plugins::internal

#endif  // SCHEDKIT_LIB_PLUGINS_INTERNAL_ARGS_H_
