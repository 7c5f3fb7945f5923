#include "plugins/internal/args.h"

#include <string>

namespace schedkit::plugins::internal {
namespace {
struct NoArgs {};
}  // namespace

absl::Status CheckNoArgs(const framework::PluginArgs& args, std::string_view plugin) {
  const framework::ArgsSpec<NoArgs> spec{std::string(plugin)};
  return framework::DecodeArgs(args, spec).status();
}

}  // namespace schedkit::plugins::internal
