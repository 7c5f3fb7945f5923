// The in-tree plugins' names for plugin code: the config layer owns them
// (schedkit/config/plugin_names.h), and this is their name in the plugins layer.
//
//   registry.Add(std::string(plugins::names::kNodeResourcesFit), &NewFit);
#ifndef SCHEDKIT_PLUGINS_NAMES_H_
#define SCHEDKIT_PLUGINS_NAMES_H_

#include "schedkit/config/plugin_names.h"

namespace schedkit::plugins {
namespace names = config::plugin_names;
}  // namespace schedkit::plugins

#endif  // SCHEDKIT_PLUGINS_NAMES_H_
