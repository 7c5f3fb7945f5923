// The in-tree registry: one readable list of every built-in plugin.
#include "schedkit/plugins/in_tree.h"

#include <cstdlib>

#include "plugins/defaultbinder/default_binder.h"
#include "plugins/defaultpreemption/default_preemption.h"
#include "plugins/dynamicresources/dynamic_resources.h"
#include "plugins/imagelocality/image_locality.h"
#include "plugins/interpodaffinity/inter_pod_affinity.h"
#include "plugins/nodeaffinity/node_affinity.h"
#include "plugins/nodedeclaredfeatures/node_declared_features.h"
#include "plugins/nodename/node_name.h"
#include "plugins/nodeports/node_ports.h"
#include "plugins/noderesources/args.h"
#include "plugins/noderesources/balanced_allocation.h"
#include "plugins/noderesources/fit.h"
#include "plugins/nodeunschedulable/node_unschedulable.h"
#include "plugins/nodevolumelimits/csi.h"
#include "plugins/podtopologyspread/pod_topology_spread.h"
#include "plugins/queuesort/priority_sort.h"
#include "plugins/schedulinggates/scheduling_gates.h"
#include "plugins/tainttoleration/taint_toleration.h"
#include "plugins/volumebinding/volume_binding.h"
#include "plugins/volumerestrictions/volume_restrictions.h"
#include "plugins/volumezone/volume_zone.h"
#include "plugins/dynamicresources/validate_selectors.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {

framework::Registry NewInTreeRegistry() {
  // The plugins with args have them as a kind of their own, as upstream's
  // <Name>Args in the v1 scheme.
  struct Entry {
    std::string_view name;
    framework::PluginFactory factory;
    framework::ArgsDefaulter args;
  };
  const Entry entries[] = {
      {names::kSchedulingGates, NewSchedulingGates, nullptr},
      {names::kPrioritySort, NewPrioritySort, nullptr},
      {names::kNodeUnschedulable, NewNodeUnschedulable, nullptr},
      {names::kNodeName, NewNodeName, nullptr},
      {names::kTaintToleration, NewTaintToleration, nullptr},
      {names::kNodeAffinity, NewNodeAffinity, framework::DefaultsBy(NodeAffinityArgsSpec())},
      {names::kNodePorts, NewNodePorts, nullptr},
      {names::kNodeResourcesFit, NewNodeResourcesFit,
       framework::DefaultsBy(noderesources::NodeResourcesFitArgsSpec())},
      {names::kVolumeRestrictions, NewVolumeRestrictions, nullptr},
      {names::kNodeVolumeLimits, NewNodeVolumeLimits, nullptr},
      {names::kVolumeBinding, NewVolumeBinding, framework::DefaultsBy(VolumeBindingArgsSpec())},
      {names::kVolumeZone, NewVolumeZone, nullptr},
      {names::kPodTopologySpread, NewPodTopologySpread, DefaultedPodTopologySpreadArgs},
      {names::kInterPodAffinity, NewInterPodAffinity,
       framework::DefaultsBy(InterPodAffinityArgsSpec())},
      {names::kDynamicResources, NewDynamicResources,
       framework::DefaultsBy(DynamicResourcesArgsSpec())},
      {names::kDefaultPreemption, NewDefaultPreemption,
       framework::DefaultsBy(DefaultPreemptionArgsSpec())},
      {names::kNodeResourcesBalancedAllocation, NewNodeResourcesBalancedAllocation,
       framework::DefaultsBy(noderesources::NodeResourcesBalancedAllocationArgsSpec())},
      {names::kImageLocality, NewImageLocality, nullptr},
      {names::kDefaultBinder, NewDefaultBinder, nullptr},
      {names::kNodeDeclaredFeatures, NewNodeDeclaredFeatures, nullptr},
  };
  framework::Registry registry;
  for (const Entry& e : entries) {
    // The names above are distinct; a failure here is a programming error.
    if (!registry.Add(std::string(e.name), e.factory, e.args).ok()) std::abort();
  }
  registry.AddObjectsCheck(ValidateDeviceSelectors);
  return registry;
}

}  // namespace schedkit::plugins
