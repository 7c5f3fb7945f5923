// Internal: merging a profile's configured plugin sets into the default set,
// with upstream v1's rules (kube-scheduler apis/config/v1 mergePlugins and
// mergePluginSet). DefaultPlugins() itself is public, in configuration.h.
//
//   ProfilePlugins merged = MergePlugins(DefaultPlugins(), &user_plugins);
#ifndef SCHEDKIT_LIB_CONFIG_DEFAULT_PLUGINS_H_
#define SCHEDKIT_LIB_CONFIG_DEFAULT_PLUGINS_H_

#include <array>
#include <string_view>

#include "schedkit/framework/profile.h"

namespace schedkit::config::internal {

// An extension point as the configuration spells it, and its member.
struct ExtensionPoint {
  std::string_view field;  // "preEnqueue", ..., "multiPoint"
  framework::PluginSet framework::ProfilePlugins::*set;
};

// In the order of upstream's v1 Plugins type.
inline constexpr std::array<ExtensionPoint, 16> kExtensionPoints = {{
    {"preEnqueue", &framework::ProfilePlugins::pre_enqueue},
    {"queueSort", &framework::ProfilePlugins::queue_sort},
    {"preFilter", &framework::ProfilePlugins::pre_filter},
    {"filter", &framework::ProfilePlugins::filter},
    {"postFilter", &framework::ProfilePlugins::post_filter},
    {"preScore", &framework::ProfilePlugins::pre_score},
    {"score", &framework::ProfilePlugins::score},
    {"reserve", &framework::ProfilePlugins::reserve},
    {"permit", &framework::ProfilePlugins::permit},
    {"preBind", &framework::ProfilePlugins::pre_bind},
    {"bind", &framework::ProfilePlugins::bind},
    {"postBind", &framework::ProfilePlugins::post_bind},
    {"multiPoint", &framework::ProfilePlugins::multi_point},
    {"placementGenerate", &framework::ProfilePlugins::placement_generate},
    {"placementScore", &framework::ProfilePlugins::placement_score},
    {"podGroupPostFilter", &framework::ProfilePlugins::pod_group_post_filter},
}};

// The points of workload-aware scheduling (GenericWorkload), which schedkit
// does not model yet.
inline bool IsWorkloadPoint(std::string_view field) {
  return field == "placementGenerate" || field == "placementScore" || field == "podGroupPostFilter";
}

// One extension point. Disabled names are the custom ones followed by the
// defaults' own. Unless "*" is disabled, the defaults stay in order minus the
// disabled ones, and a default whose name is also enabled in `custom` is
// replaced in place by that custom entry (the last one of that name). Every
// custom entry that replaced nothing is appended, duplicates included (the
// Framework rejects those when it builds the profile).
framework::PluginSet MergePluginSet(const framework::PluginSet& defaults, const framework::PluginSet& custom);

// Every extension point, multiPoint included. A null `custom` (the profile
// had no `plugins` field) yields `defaults` unchanged.
framework::ProfilePlugins MergePlugins(framework::ProfilePlugins defaults,
                                       const framework::ProfilePlugins* custom);

}  // namespace schedkit::config::internal

#endif  // SCHEDKIT_LIB_CONFIG_DEFAULT_PLUGINS_H_
