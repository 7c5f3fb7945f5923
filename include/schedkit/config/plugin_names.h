// Names of the in-tree plugins, as the configuration spells them. They live
// in the config layer because the default profile and the plugin-args decoder
// name plugins; the plugins layer reaches them as schedkit::plugins::names.
//
//   if (ref.name == config::plugin_names::kNodeResourcesFit) ...
#ifndef SCHEDKIT_CONFIG_PLUGIN_NAMES_H_
#define SCHEDKIT_CONFIG_PLUGIN_NAMES_H_

#include <string_view>

namespace schedkit::config::plugin_names {

inline constexpr std::string_view kPrioritySort = "PrioritySort";
inline constexpr std::string_view kSchedulingGates = "SchedulingGates";
inline constexpr std::string_view kNodeUnschedulable = "NodeUnschedulable";
inline constexpr std::string_view kNodeName = "NodeName";
inline constexpr std::string_view kNodePorts = "NodePorts";
inline constexpr std::string_view kNodeAffinity = "NodeAffinity";
inline constexpr std::string_view kTaintToleration = "TaintToleration";
inline constexpr std::string_view kNodeResourcesFit = "NodeResourcesFit";
inline constexpr std::string_view kNodeResourcesBalancedAllocation = "NodeResourcesBalancedAllocation";
inline constexpr std::string_view kImageLocality = "ImageLocality";
inline constexpr std::string_view kPodTopologySpread = "PodTopologySpread";
inline constexpr std::string_view kInterPodAffinity = "InterPodAffinity";
inline constexpr std::string_view kDefaultPreemption = "DefaultPreemption";
inline constexpr std::string_view kDefaultBinder = "DefaultBinder";
inline constexpr std::string_view kVolumeRestrictions = "VolumeRestrictions";
inline constexpr std::string_view kNodeVolumeLimits = "NodeVolumeLimits";
inline constexpr std::string_view kVolumeBinding = "VolumeBinding";
inline constexpr std::string_view kVolumeZone = "VolumeZone";
inline constexpr std::string_view kDynamicResources = "DynamicResources";
inline constexpr std::string_view kNodeDeclaredFeatures = "NodeDeclaredFeatures";

}  // namespace schedkit::config::plugin_names

#endif  // SCHEDKIT_CONFIG_PLUGIN_NAMES_H_
