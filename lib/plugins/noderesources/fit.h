// NodeResourcesFit (upstream pkg/scheduler/framework/plugins/noderesources,
// v1.37): Filter rejects nodes without room for the pod's requests (pod
// count, cpu, memory, ephemeral storage, extended resources); Score ranks
// nodes by LeastAllocated, MostAllocated or RequestedToCapacityRatio.
//
//   SCHEDKIT_ASSIGN_OR_RETURN(auto plugin, NewNodeResourcesFit(framework::PluginArgs(R"({
//       "scoringStrategy": {"type": "MostAllocated"}})"), handle));
//
// Extension points: PreFilter (the pod's requests, once), Filter, PreScore
// (the pod's requests for the scored resources, once), Score,
// EnqueueExtensions (an assigned pod's deletion or scale-down, the pod's own
// scale-down, node add / allocatable update, with queueing hints). Feature
// gates follow v1.37's defaults (InPlacePodVerticalScaling and
// PodLevelResources on). DRAExtendedResource (GA): an extended resource a
// DeviceClass stands for is left to DynamicResources on a node without it
// in its allocatable, such a pod is not signed for batching, a DeviceClass
// event may requeue it, and a scored resource of that kind scores the
// class's devices the node reaches (dra_scoring.h).
// Filter and Score are safe to call concurrently; they read only the cycle
// state and the node.
#ifndef SCHEDKIT_LIB_PLUGINS_NODERESOURCES_FIT_H_
#define SCHEDKIT_LIB_PLUGINS_NODERESOURCES_FIT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "dra/extended_resources.h"
#include "plugins/noderesources/args.h"
#include "schedkit/api/v1/node.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

// Parses `args` (NodeResourcesFitArgs JSON, v1 defaults), validates them and
// builds the plugin.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeResourcesFit(const framework::PluginArgs& args,
                                                                       framework::Handle& handle);

namespace noderesources {

// The feature gates NodeResourcesFit reads, with v1.37's defaults. Tests
// flip them to reproduce upstream cases written for other gate settings.
struct FitFeatures {
  bool enable_in_place_pod_vertical_scaling = true;
  // GA and locked on in v1.37; tests turn it off for upstream's older rows.
  bool enable_dra_extended_resource = true;
  // How allocated devices are gathered for scoring a DRA-backed resource.
  bool dra_consumable_capacity = true;
};

// Builds the plugin from already parsed args, as upstream's NewFit does from
// its internal config type: validates, but applies no v1 defaults.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewFit(const NodeResourcesFitArgs& args,
                                                          framework::Handle& handle,
                                                          const FitFeatures& features = {});

// Why a pod does not fit a node, for one resource (upstream InsufficientResource).
struct InsufficientResource {
  std::string resource_name;
  std::string reason;
  int64_t requested = 0;
  int64_t used = 0;
  int64_t capacity = 0;
  // The request exceeds the node's allocatable: preemption cannot help.
  bool unresolvable = false;

  friend bool operator==(const InsufficientResource&, const InsufficientResource&) = default;
};

// Upstream Fits: every resource `pod` lacks on `node` (none ignored), in
// upstream's order (pods, cpu, memory, ephemeral-storage, then scalar
// resources by name). With `classes`, an extended resource one of them
// stands for is not checked on a node whose allocatable lacks it (DRA
// serves it there).
std::vector<InsufficientResource> Fits(const framework::PodInfo& pod, const framework::NodeInfo& node,
                                       const dra::ExtendedResourceClasses* classes = nullptr);

// Upstream isFit: whether `pod` fits an empty node built from `node`; false
// for a null node. Errors on a node whose quantities do not parse.
absl::StatusOr<bool> IsFit(const framework::PodInfo& pod, const api::v1::Node* node,
                           const dra::ExtendedResourceClasses* classes = nullptr);

// Upstream haveAnyRequestedResourcesIncreased: whether the node's pod
// capacity grew, or the allocatable of a resource the pod requests did, or
// (with `classes`) the modified node leaves one of the pod's resources to DRA.
absl::StatusOr<bool> HaveAnyRequestedResourcesIncreased(const framework::PodInfo& pod,
                                                        const api::v1::Node& original,
                                                        const api::v1::Node& modified,
                                                        const dra::ExtendedResourceClasses* classes = nullptr);

// The plugin's own view of InsufficientResources, honouring its
// ignoredResources / ignoredResourceGroups (upstream fitsRequest with the
// plugin's sets). Only for tests and diagnostics: allocates.
std::vector<InsufficientResource> InsufficientResourcesFor(const framework::Plugin& fit,
                                                           const framework::PodInfo& pod,
                                                           const framework::NodeInfo& node);

}  // namespace noderesources
}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_NODERESOURCES_FIT_H_
