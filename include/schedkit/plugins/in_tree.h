// The in-tree plugins of kube-scheduler v1.37, by name.
//
//   framework::Registry registry = plugins::NewInTreeRegistry();
//   SCHEDKIT_RETURN_IF_ERROR(registry.Add("MyPlugin", &NewMyPlugin));  // out-of-tree
#ifndef SCHEDKIT_PLUGINS_IN_TREE_H_
#define SCHEDKIT_PLUGINS_IN_TREE_H_

#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

// Every built-in plugin, registered under its upstream name.
framework::Registry NewInTreeRegistry();

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_PLUGINS_IN_TREE_H_
