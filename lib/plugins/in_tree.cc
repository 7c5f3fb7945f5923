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
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {

framework::Registry NewInTreeRegistry() {
  const std::pair<std::string_view, framework::PluginFactory> entries[] = {
      {names::kSchedulingGates, NewSchedulingGates},
      {names::kPrioritySort, NewPrioritySort},
      {names::kNodeUnschedulable, NewNodeUnschedulable},
      {names::kNodeName, NewNodeName},
      {names::kTaintToleration, NewTaintToleration},
      {names::kNodeAffinity, NewNodeAffinity},
      {names::kNodePorts, NewNodePorts},
      {names::kNodeResourcesFit, NewNodeResourcesFit},
      {names::kVolumeRestrictions, NewVolumeRestrictions},
      {names::kNodeVolumeLimits, NewNodeVolumeLimits},
      {names::kVolumeBinding, NewVolumeBinding},
      {names::kVolumeZone, NewVolumeZone},
      {names::kPodTopologySpread, NewPodTopologySpread},
      {names::kInterPodAffinity, NewInterPodAffinity},
      {names::kDynamicResources, NewDynamicResources},
      {names::kDefaultPreemption, NewDefaultPreemption},
      {names::kNodeResourcesBalancedAllocation, NewNodeResourcesBalancedAllocation},
      {names::kImageLocality, NewImageLocality},
      {names::kDefaultBinder, NewDefaultBinder},
      {names::kNodeDeclaredFeatures, NewNodeDeclaredFeatures},
  };
  framework::Registry registry;
  for (const auto& [name, factory] : entries) {
    // The names above are distinct; a failure here is a programming error.
    if (!registry.Add(std::string(name), factory).ok()) std::abort();
  }
  return registry;
}

}  // namespace schedkit::plugins
