// Profile: one scheduling profile as configured — which plugins run at which
// extension points, their weights and args — in the shape of upstream's
// KubeSchedulerProfile. The config layer produces it (defaults merged); the
// Framework expands multiPoint when it builds the plugins.
//
//   Profile p;
//   p.scheduler_name = "default-scheduler";
//   p.plugins.multi_point.enabled = {{"NodeResourcesFit", 1}, {"MyPlugin", 0}};
//   p.plugin_args["NodeResourcesFit"] = R"({"scoringStrategy":{"type":"MostAllocated"}})";
#ifndef SCHEDKIT_FRAMEWORK_PROFILE_H_
#define SCHEDKIT_FRAMEWORK_PROFILE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "schedkit/framework/plugin_args.h"

namespace schedkit::framework {

struct PluginRef {
  std::string name;
  // Score weight; 0 means unset (defaults apply: the multiPoint weight, else 1).
  int32_t weight = 0;
  friend bool operator==(const PluginRef&, const PluginRef&) = default;
};

struct PluginSet {
  std::vector<PluginRef> enabled;
  // Names; "*" disables every default plugin of the point.
  std::vector<std::string> disabled;
  friend bool operator==(const PluginSet&, const PluginSet&) = default;
};

struct ProfilePlugins {
  PluginSet pre_enqueue, queue_sort, pre_filter, filter, post_filter, pre_score, score, reserve, permit,
      pre_bind, bind, post_bind, multi_point;
  // v1.37's points of workload-aware (gang) scheduling, behind the
  // GenericWorkload gate. schedkit does not model them yet: the
  // configuration loader refuses plugins enabled at them, and keeps what
  // they disable for the effective configuration.
  PluginSet placement_generate, placement_score, pod_group_post_filter;
  friend bool operator==(const ProfilePlugins&, const ProfilePlugins&) = default;
};

struct Profile {
  std::string scheduler_name = "default-scheduler";
  ProfilePlugins plugins;
  // Plugin name → its args (pluginConfig[].args), as JSON object text.
  std::map<std::string, PluginArgs> plugin_args;
  // Overrides the global percentageOfNodesToScore when set.
  std::optional<int32_t> percentage_of_nodes_to_score;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_PROFILE_H_
