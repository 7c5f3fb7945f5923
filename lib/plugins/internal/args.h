// Internal: parsing of plugin args (pluginConfig[].args JSON) for in-tree
// plugins, with upstream's field names; unknown fields and out-of-range
// values are errors naming the plugin and field.
#ifndef SCHEDKIT_LIB_PLUGINS_INTERNAL_ARGS_H_
#define SCHEDKIT_LIB_PLUGINS_INTERNAL_ARGS_H_

#include <initializer_list>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins::internal {

// The args as a JSON object ({} when empty). Errors read
// "<plugin> args: <problem>".
absl::StatusOr<nlohmann::json> ParseArgs(const framework::PluginArgs& args, std::string_view plugin);

// Fails on a key outside `known` ("apiVersion" and "kind" are always allowed).
absl::Status CheckKnownFields(const nlohmann::json& obj, std::string_view plugin, std::string_view path,
                              std::initializer_list<std::string_view> known);

// "<plugin> args: <path>: <problem>" as InvalidArgument.
absl::Status ArgsError(std::string_view plugin, std::string_view path, std::string_view problem);

// Typed field readers: leave `out` untouched when the field is absent/null.
absl::Status ReadInt(const nlohmann::json& obj, std::string_view plugin, std::string_view path,
                     std::string_view key, int64_t& out);
absl::Status ReadBool(const nlohmann::json& obj, std::string_view plugin, std::string_view path,
                      std::string_view key, bool& out);
absl::Status ReadString(const nlohmann::json& obj, std::string_view plugin, std::string_view path,
                        std::string_view key, std::string& out);

}  // namespace schedkit::plugins::internal

#endif  // SCHEDKIT_LIB_PLUGINS_INTERNAL_ARGS_H_
