#include "framework/unknown_plugin.h"

#include <string>

#include "absl/strings/str_join.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::framework {
namespace {

// Plugins of kubernetes-sigs/scheduler-plugins, which users name in
// configurations copied from its manifests.
bool IsSchedulerPluginsPlugin(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "CapacityScheduling",  "Coscheduling",    "CrossNodePreemption",       "LoadVariationRiskBalancing",
      "LowRiskOverCommitment", "NetworkOverhead", "NodeResourceTopologyMatch", "NodeResourcesAllocatable",
      "Peaks",               "PodState",        "PreemptionToleration",      "QOSSort",
      "SySched",             "TargetLoadPacking", "TopologicalSort"};
  for (std::string_view n : kNames) {
    if (n == name) return true;
  }
  return false;
}

}  // namespace

absl::Status UnknownPluginError(std::string_view point, std::string_view name, const Registry& registry) {
  std::string message = schedkit::StrCat(point, " \"", name, "\" does not exist");
  if (IsSchedulerPluginsPlugin(name)) {
    schedkit::StrAppend(&message, "; ", name,
                        " is an out-of-tree plugin (kubernetes-sigs/scheduler-plugins), not part of "
                        "kube-scheduler: build it into your program and add it with registry.Add(\"",
                        name, "\", factory)");
  } else {
    schedkit::StrAppend(&message, "; registered plugins: ", absl::StrJoin(registry.Names(), ", "),
                        " (add yours with registry.Add)");
  }
  return absl::InvalidArgumentError(message);
}

}  // namespace schedkit::framework
