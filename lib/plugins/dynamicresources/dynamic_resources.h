// DynamicResources: allocates devices to the ResourceClaims a pod references
// and reserves the claims for it (upstream pkg/scheduler/framework/plugins/
// dynamicresources, v1.37, where DynamicResourceAllocation is GA and always
// on).
//
//   auto plugin = NewDynamicResources(framework::PluginArgs(R"({"filterTimeout": "10s"})"), handle);
//
// Its way through a cycle, as upstream's:
//  - PreEnqueue / PreFilter: every claim the pod names exists, is not being
//    deleted and, when made from a template, is the pod's own; otherwise
//    UnschedulableAndUnresolvable with upstream's text. A claim allocated but
//    reserved for too many others is "resourceclaim in use"; one whose
//    allocation is in flight for another pod waits. Each request's device
//    class must exist. PreFilter then builds one allocator for the pod from
//    every slice (DeviceTaintRules applied) and the devices other claims
//    hold, and records the claims in the cycle state. No claims: Skip.
//  - Filter (per node, concurrently): an allocated claim must be reachable
//    from the node (its allocation's node selector) and, with binding
//    conditions, neither failed nor past the binding timeout; the claims to
//    allocate must fit, searched under the filter timeout (Error when it
//    runs out). The allocation found is kept per node for Score and Reserve.
//  - PostFilter: deallocates one claim no node could reach, when no other
//    pod holds it, so the next attempt can pick other devices.
//  - Score: for firstAvailable requests, 8 - i for the i-th subrequest
//    allocated on the node; normalized to 0..100.
//  - Reserve marks the node's allocations in flight; Unreserve drops them
//    and takes the pod out of reservedFor; PreBind writes the finalizer,
//    then status.allocation and reservedFor (retrying conflicts), and waits
//    for binding conditions up to the binding timeout.
//  - SignPod declines pods with claims, as upstream.
//
// DRAExtendedResource (GA): a pod asking for an extended resource a
// DeviceClass stands for (dra/extended_resources.h) gets one more claim, its
// extended-resource claim, made in memory at PreFilter (or the one an
// earlier attempt created). Filter gives it, per node, a request per
// container for the resources the node's allocatable lacks; PreBind creates
// it (generateName "<pod>-extended-resources-"), writes its allocation and
// names it in the pod's status.extendedResourceClaimStatus; Unreserve and
// PostFilter delete one a failed attempt left.
//
// Left out for now: the alpha gates (workload claims, node-allocatable
// resources, optional node operations), which the plugin refuses when set.
//
// Thread-safety: Filter and Score run concurrently on worker threads; they
// share the cycle's record under its mutex. The claim tracker is shared by
// every profile of a scheduler.
#ifndef SCHEDKIT_LIB_PLUGINS_DYNAMICRESOURCES_DYNAMIC_RESOURCES_H_
#define SCHEDKIT_LIB_PLUGINS_DYNAMICRESOURCES_DYNAMIC_RESOURCES_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "dra/allocator.h"
#include "dra/cel_device.h"
#include "plugins/internal/claim_tracker.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/framework/diagnosis.h"
#include "schedkit/framework/events.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

// DynamicResourcesArgs (v1), Go duration strings whose defaults and checks
// follow the gates: filterTimeout (>= 0) exists with DRASchedulerFilterTimeout
// (beta, on in v1.37; default 10s), bindingTimeout (>= 1s) with
// DRADeviceBindingConditions and DRAResourceClaimDeviceStatus (both on in
// v1.37; default 600s); each is forbidden without its gates.
struct DynamicResourcesArgs {
  std::optional<absl::Duration> filter_timeout;  // unset: no timeout
  std::optional<absl::Duration> binding_timeout;
};

// The args' declaration: upstream's fields, v1 defaults and validation.
const framework::ArgsSpec<DynamicResourcesArgs>& DynamicResourcesArgsSpec();
absl::StatusOr<DynamicResourcesArgs> ParseDynamicResourcesArgs(const framework::PluginArgs& args);

// The allocator's features for these gates (upstream's AllocatorFeatures).
dra::Features DraFeatures(const framework::FeatureGates& gates);

namespace dynamicresources {
struct Cycle;
struct NodeAllocation;
}

class DynamicResources final : public framework::PreEnqueuePlugin,
                               public framework::PreFilterPlugin,
                               public framework::FilterPlugin,
                               public framework::PostFilterPlugin,
                               public framework::ScorePlugin,
                               public framework::ScoreExtensions,
                               public framework::ReservePlugin,
                               public framework::PreBindPlugin,
                               public framework::EnqueueExtensions,
                               public framework::SignPlugin {
 public:
  DynamicResources(const DynamicResourcesArgs& args, const dra::Features& features, framework::Handle& handle,
                   std::shared_ptr<internal::ClaimTracker> tracker);

  std::string_view Name() const override;
  // Declines pods with claims ("pods with dra resource claims are not
  // signable"); others sign with nothing added.
  framework::Status SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const override;
  // Not per node for a pod with claims: whether a node fits depends on
  // what every other claim holds, and Reserve needs the allocation Filter
  // found on the chosen node. A pod without claims skips Filter and scores
  // 0 everywhere, which is per node.
  bool OutcomesArePerNode() const override { return false; }
  bool OutcomesArePerNodeFor(const framework::PodInfo& pod) const override;

  framework::Status PreEnqueue(const framework::PodInfo& pod) override;
  PreFilterPlugin::Result PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                                    std::span<const framework::NodeInfo* const> nodes) override;
  framework::Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override;
  PostFilterPlugin::Result PostFilter(framework::CycleState& state, const framework::PodInfo& pod,
                                      const framework::NodeToStatus& filtered) override;
  framework::Status Score(const framework::CycleState& state, const framework::PodInfo& pod,
                          const framework::NodeInfo& node, int64_t& score) const override;
  framework::Status ScoreNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                               std::span<const framework::NodeInfo* const> nodes,
                               std::span<int64_t> scores) const override;
  const framework::ScoreExtensions* GetScoreExtensions() const override { return this; }
  framework::Status NormalizeScore(const framework::CycleState& state, const framework::PodInfo& pod,
                                   std::span<const framework::NodeInfo* const> nodes,
                                   std::span<int64_t> scores) const override;
  std::optional<framework::MaximumNormalization> NormalizesByMaximum() const override { return kNormalization; }
  framework::Status Reserve(framework::CycleState& state, const framework::PodInfo& pod, Symbol node) override;
  void Unreserve(framework::CycleState& state, const framework::PodInfo& pod, Symbol node) override;
  framework::Status PreBind(framework::CycleState& state, const framework::PodInfo& pod, Symbol node) override;
  // Skip when the pod has no claims; Error "not found" without state.
  framework::Status PreBindPreFlight(const framework::CycleState& state, const framework::PodInfo& pod,
                                     Symbol node) const override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

  // The hints, as upstream's: a claim event queues the pod when it creates
  // or changes the status of a claim the pod uses, or deallocates any
  // claim; a pod update queues it once all its claims exist.
  absl::StatusOr<framework::QueueingHint> IsSchedulableAfterClaimChange(const framework::PodInfo& pod,
                                                                         const framework::EventObjects& event) const;
  absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodChange(const framework::PodInfo& pod,
                                                                       const framework::EventObjects& event) const;

  absl::Duration filter_timeout() const { return filter_timeout_; }
  absl::Duration binding_timeout() const { return binding_timeout_; }
  // Search steps of every allocator this plugin built (upstream's
  // NumAllocateOneInvocations), for tests and benchmarks.
  int64_t num_allocate_one_invocations() const { return num_allocate_one_invocations_.load(); }

 private:
  static constexpr framework::MaximumNormalization kNormalization{framework::kMaxNodeScore, /*reverse=*/false};

  // The claims of `pod`, in spec order, or upstream's error text.
  absl::StatusOr<std::vector<std::shared_ptr<const api::v1::ResourceClaim>>> PodClaims(
      const api::v1::Pod& pod) const;
  framework::Status ValidateDeviceClass(std::string_view class_name, std::string_view request) const;
  // PreBind's work for one claim; returns the claim as stored.
  absl::StatusOr<std::shared_ptr<const api::v1::ResourceClaim>> BindClaim(dynamicresources::Cycle& cycle, int index,
                                                                          const framework::PodInfo& pod,
                                                                          Symbol node) const;
  // Waits for the binding conditions of the pod's claims (PreBind).
  framework::Status WaitForBindingConditions(dynamicresources::Cycle& cycle, const framework::PodInfo& pod,
                                             Symbol node) const;
  bool BindingConditionsEnabled() const { return features_.device_binding_and_status; }

  // DRAExtendedResource (extended_claim.cc). PreFilter: records the pod's
  // extended resources in `cycle` and returns its extended-resource claim,
  // or null when no class stands for any of them.
  std::shared_ptr<const api::v1::ResourceClaim> PreFilterExtendedResources(const framework::PodInfo& pod,
                                                                           dynamicresources::Cycle& cycle) const;
  // Filter: this node's variant of the claim and its mappings into `out`
  // (none when nothing is left to DRA here), or upstream's rejection.
  framework::Status FilterExtendedResources(const dynamicresources::Cycle& cycle, const framework::PodInfo& pod,
                                            const framework::NodeInfo& node,
                                            dynamicresources::NodeAllocation& out) const;
  // PreBind: creates the node's variant of the claim; the claim as stored.
  absl::StatusOr<std::shared_ptr<const api::v1::ResourceClaim>> CreateExtendedClaim(dynamicresources::Cycle& cycle,
                                                                                    const framework::PodInfo& pod,
                                                                                    Symbol node) const;
  // PreBind: names the claim in the pod's status.extendedResourceClaimStatus.
  absl::Status WriteExtendedClaimStatus(dynamicresources::Cycle& cycle, const framework::PodInfo& pod,
                                        const api::v1::ResourceClaim& claim, Symbol node) const;
  // Waits, bounded, until the scheduler holds the created claim, then
  // lays what PreBind wrote over it.
  void AssumeCreatedClaim(std::shared_ptr<const api::v1::ResourceClaim> claim) const;
  // Removes the finalizer, then deletes the claim (NotFound is fine).
  absl::Status DeleteClaim(const api::v1::ResourceClaim& claim) const;
  // Unreserve's part for the extended-resource claim.
  void UnreserveExtendedClaim(dynamicresources::Cycle& cycle) const;

  absl::Duration filter_timeout_;
  absl::Duration binding_timeout_;
  dra::Features features_;
  framework::Handle& handle_;
  std::shared_ptr<internal::ClaimTracker> tracker_;
  // The most recent ten selectors, across cycles, as upstream's cache.
  mutable dra::SelectorCache selectors_{10};
  mutable std::atomic<int64_t> num_allocate_one_invocations_{0};
  // Makes the temporary uids of in-memory extended-resource claims unique.
  mutable std::atomic<int64_t> in_memory_claims_{0};
};

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewDynamicResources(const framework::PluginArgs& args,
                                                                       framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_DYNAMICRESOURCES_DYNAMIC_RESOURCES_H_
