// Args of the noderesources plugins (NodeResourcesFit and
// NodeResourcesBalancedAllocation), shaped after kube-scheduler's v1 config
// types and declared as framework::ArgsSpec: decoding with upstream's v1
// defaults and validation.
//
//   SCHEDKIT_ASSIGN_OR_RETURN(NodeResourcesFitArgs args, ParseNodeResourcesFitArgs(plugin_args));
//
// Parse* fails on malformed JSON, unknown fields, wrong types and
// out-of-range values; Validate* checks args built in code. Both name the
// field at fault, as "<plugin> args: <field>: <problem>". Plain values;
// thread-safe.
#ifndef SCHEDKIT_LIB_PLUGINS_NODERESOURCES_ARGS_H_
#define SCHEDKIT_LIB_PLUGINS_NODERESOURCES_ARGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins::noderesources {

// ScoringStrategy.type values.
inline constexpr std::string_view kLeastAllocated = "LeastAllocated";
inline constexpr std::string_view kMostAllocated = "MostAllocated";
inline constexpr std::string_view kRequestedToCapacityRatio = "RequestedToCapacityRatio";

// Upper bound of UtilizationShapePoint.score (upstream MaxCustomPriorityScore);
// scores are scaled by kMaxNodeScore / kMaxCustomPriorityScore when scoring.
inline constexpr int64_t kMaxCustomPriorityScore = 10;

struct ResourceSpec {
  std::string name;
  // Fit: 1..100; BalancedAllocation: exactly 1. 0 in the JSON defaults to 1.
  int64_t weight = 0;
};

struct UtilizationShapePoint {
  int32_t utilization = 0;  // 0..100
  int32_t score = 0;        // 0..kMaxCustomPriorityScore
};

struct RequestedToCapacityRatioParam {
  std::vector<UtilizationShapePoint> shape;
};

struct ScoringStrategy {
  std::string type;
  std::vector<ResourceSpec> resources;
  std::optional<RequestedToCapacityRatioParam> requested_to_capacity_ratio;
};

struct NodeResourcesFitArgs {
  // Extended resources the filter ignores (by full name / by the part before '/').
  std::vector<std::string> ignored_resources;
  std::vector<std::string> ignored_resource_groups;
  // Always set after Parse (v1 default: LeastAllocated, cpu and memory weight 1).
  std::optional<ScoringStrategy> scoring_strategy;
};

struct NodeResourcesBalancedAllocationArgs {
  std::vector<ResourceSpec> resources;
};

// The v1 defaults: resources cpu and memory with weight 1.
std::vector<ResourceSpec> DefaultResources();

// The declarations: upstream's fields, v1 defaults and validation.
const framework::ArgsSpec<NodeResourcesFitArgs>& NodeResourcesFitArgsSpec();
const framework::ArgsSpec<NodeResourcesBalancedAllocationArgs>& NodeResourcesBalancedAllocationArgsSpec();

// Decodes pluginConfig args (empty → {}), applies upstream's v1 defaults and
// validates:
// a missing scoringStrategy becomes LeastAllocated over cpu and memory, an
// empty resources list becomes cpu and memory, and weight 0 becomes 1.
absl::StatusOr<NodeResourcesFitArgs> ParseNodeResourcesFitArgs(const framework::PluginArgs& args);
absl::StatusOr<NodeResourcesBalancedAllocationArgs> ParseNodeResourcesBalancedAllocationArgs(
    const framework::PluginArgs& args);

// Upstream ValidateNodeResourcesFitArgs / ValidateNodeResourcesBalancedAllocationArgs:
// every problem is reported (Go's aggregate, "[a, b]" when more than one).
absl::Status ValidateNodeResourcesFitArgs(const NodeResourcesFitArgs& args);
absl::Status ValidateNodeResourcesBalancedAllocationArgs(const NodeResourcesBalancedAllocationArgs& args);

}  // namespace schedkit::plugins::noderesources

#endif  // SCHEDKIT_LIB_PLUGINS_NODERESOURCES_ARGS_H_
