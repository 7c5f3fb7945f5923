// NodeResourcesBalancedAllocation (upstream noderesources/balanced_allocation.go,
// v1.37): favours nodes where the pod makes the use of resources more even —
// with balance(x) = (1 - standard deviation of requested/allocatable over the
// configured resources) * 100, score = 50 + (50 + balance(with the pod) -
// balance(without it)) / 2.
//
//   SCHEDKIT_ASSIGN_OR_RETURN(auto plugin, NewNodeResourcesBalancedAllocation(
//       framework::PluginArgs(R"({"resources": [{"name": "cpu"}, {"name": "memory"}]})"), handle));
//
// Extension points: PreScore (the pod's requests, once; Skip for a pod that
// requests none of the resources, as v1.37 does) and Score. Score is safe to
// call concurrently.
#ifndef SCHEDKIT_LIB_PLUGINS_NODERESOURCES_BALANCED_ALLOCATION_H_
#define SCHEDKIT_LIB_PLUGINS_NODERESOURCES_BALANCED_ALLOCATION_H_

#include <memory>

#include "absl/status/statusor.h"
#include "plugins/noderesources/args.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

// Parses `args` (NodeResourcesBalancedAllocationArgs JSON, v1 defaults),
// validates them and builds the plugin.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeResourcesBalancedAllocation(
    const framework::PluginArgs& args, framework::Handle& handle);

namespace noderesources {

// Builds the plugin from parsed args (validated here, not defaulted).
// `dra_consumable_capacity`: the DRAConsumableCapacity gate, which decides
// how allocated devices count when a scored extended resource is backed by
// DRA.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewBalancedAllocation(
    const NodeResourcesBalancedAllocationArgs& args, framework::Handle& handle, bool dra_consumable_capacity = true);

}  // namespace noderesources
}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_NODERESOURCES_BALANCED_ALLOCATION_H_
