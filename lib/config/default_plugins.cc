// The default plugin set of kube-scheduler v1.37 and the merge of a profile's
// plugins into it.

#include "config/default_plugins.h"

#include <cstddef>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "schedkit/config/configuration.h"
#include "schedkit/config/plugin_names.h"

namespace schedkit::config {

namespace names = plugin_names;
using framework::PluginRef;
using framework::PluginSet;
using framework::ProfilePlugins;

framework::ProfilePlugins DefaultPlugins() {
  // Upstream lists everything under multiPoint and lets the Framework expand
  // each plugin to the extension points it implements. The feature gates of
  // v1.37 at their defaults add NodeDeclaredFeatures (GA, locked on) at the
  // end and DynamicResources (DynamicResourceAllocation is GA and locked on)
  // just before DefaultPreemption, so that deallocating an idle claim is tried
  // before evicting pods. GangScheduling comes with GenericWorkload (beta,
  // off), the topology plugins and DeferredPodScheduling with alpha gates.
  ProfilePlugins plugins;
  plugins.multi_point.enabled = {
      {std::string(names::kSchedulingGates), 0},
      {std::string(names::kPrioritySort), 0},
      {std::string(names::kNodeName), 0},
      {std::string(names::kNodeUnschedulable), 0},
      {std::string(names::kTaintToleration), 3},
      {std::string(names::kNodeAffinity), 2},
      {std::string(names::kNodePorts), 0},
      {std::string(names::kNodeResourcesFit), 1},
      {std::string(names::kVolumeRestrictions), 0},
      {std::string(names::kNodeVolumeLimits), 0},
      {std::string(names::kVolumeBinding), 0},
      {std::string(names::kVolumeZone), 0},
      {std::string(names::kPodTopologySpread), 2},
      {std::string(names::kInterPodAffinity), 2},
      {std::string(names::kDynamicResources), 2},
      {std::string(names::kDefaultPreemption), 0},
      {std::string(names::kNodeResourcesBalancedAllocation), 1},
      {std::string(names::kImageLocality), 1},
      {std::string(names::kDefaultBinder), 0},
      {std::string(names::kNodeDeclaredFeatures), 0},
  };
  return plugins;
}

SchedulerConfiguration DefaultConfiguration() {
  SchedulerConfiguration config;
  framework::Profile profile;
  profile.plugins = DefaultPlugins();
  config.profiles.push_back(std::move(profile));
  return config;
}

namespace internal {

framework::PluginSet MergePluginSet(const PluginSet& defaults, const PluginSet& custom) {
  PluginSet merged;
  // The custom disabled names are kept (not only applied) so that multiPoint
  // expansion later knows not to re-add defaults at this point.
  std::unordered_set<std::string> disabled;
  for (const std::string& name : custom.disabled) {
    merged.disabled.push_back(name);
    disabled.insert(name);
  }
  for (const std::string& name : defaults.disabled) {
    merged.disabled.push_back(name);
    disabled.insert(name);
  }

  // Name → index of its last custom entry: with repeated names, the last one
  // replaces the default and the earlier ones are appended.
  std::unordered_map<std::string, size_t> custom_index;
  for (size_t i = 0; i < custom.enabled.size(); ++i) custom_index[custom.enabled[i].name] = i;

  std::unordered_set<size_t> replaced;
  if (!disabled.contains("*")) {
    for (const PluginRef& plugin : defaults.enabled) {
      if (disabled.contains(plugin.name)) continue;
      if (auto it = custom_index.find(plugin.name); it != custom_index.end()) {
        merged.enabled.push_back(custom.enabled[it->second]);
        replaced.insert(it->second);
      } else {
        merged.enabled.push_back(plugin);
      }
    }
  }
  for (size_t i = 0; i < custom.enabled.size(); ++i) {
    if (!replaced.contains(i)) merged.enabled.push_back(custom.enabled[i]);
  }
  return merged;
}

framework::ProfilePlugins MergePlugins(ProfilePlugins defaults, const ProfilePlugins* custom) {
  if (custom == nullptr) return defaults;
  for (const ExtensionPoint& point : kExtensionPoints) {
    defaults.*point.set = MergePluginSet(defaults.*point.set, custom->*point.set);
  }
  return defaults;
}

}  // namespace internal
}  // namespace schedkit::config

namespace schedkit::config {

SchedulerConfiguration MostAllocatedConfiguration() {
  SchedulerConfiguration c = DefaultConfiguration();
  c.profiles[0].plugin_args["NodeResourcesFit"] =
      R"({"scoringStrategy":{"type":"MostAllocated","resources":[{"name":"cpu","weight":1},{"name":"memory","weight":1}]}})";
  return c;
}

}  // namespace schedkit::config
