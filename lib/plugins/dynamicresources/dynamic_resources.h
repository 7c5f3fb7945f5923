// DynamicResources: allocates and reserves the ResourceClaims (DRA devices)
// a pod references, and tries deallocating claims when no node fits
// (upstream pkg/scheduler/framework/plugins/dynamicresources, v1.37, where
// DynamicResourceAllocation is GA and always on).
//
//   auto plugin = NewDynamicResources(framework::PluginArgs(R"({"filterTimeout": "10s"})"), handle);
//
// Model limits: schedkit's cluster has no ResourceClaims, ResourceSlices or
// DeviceClasses, and its Pod message has no spec.resourceClaims /
// status.resourceClaimStatuses yet (ResourceClaimsOf returns none). v1.37's
// DRAExtendedResource (beta, on) gives a pod without claims a special
// extended-resource claim only when a DeviceClass names the resource, and
// there are none; the plugin therefore does exactly what upstream does for a
// pod without claims:
//  - PreEnqueue: Success.
//  - PreFilter: records an empty state, returns Skip (Filter is not called).
//  - PostFilter: Unschedulable without a reason (v1.35 said "no new claims
//    to deallocate", which FitError texts carried before DefaultPreemption's;
//    v1.36 dropped it). Without the state (an earlier PreFilter rejected the pod, so this PreFilter never
//    ran) it is Error "not found", upstream's CycleState miss.
//  - Score (no PreScore, so it runs on every feasible node): 0, or Error
//    "not found" without state; NormalizeScore: upstream's
//    DefaultNormalizeScore(100, reverse=false).
//  - Reserve, PreBind: Success (Error "not found" without state);
//    Unreserve: nothing; PreBindPreFlight: Skip.
//  - SignPod: signs every pod, adding nothing (upstream declines pods with
//    claims, which the model has none of).
// Once the Pod carries resource claims, CheckPodResourceClaims gives
// upstream's verdict against an empty claim cache: each claim either needs
// no object, or fails PreEnqueue/PreFilter with UnschedulableAndUnresolvable
// and upstream's text (`could not find ResourceClaim "<ns>/<claim>"`,
// `pod "<ns>/<pod>": ResourceClaim not created yet`, ...).
//
// Extension points as upstream: PreEnqueue, PreFilter, Filter, PostFilter,
// Score (+NormalizeScore), Reserve, PreBind, EnqueueExtensions. Registered
// events: Node/Add|UpdateNodeLabel|UpdateNodeAllocatable and
// Pod/UpdatePodGeneratedResourceClaim (hint IsSchedulableAfterPodChange).
// Upstream's ResourceClaim/Add|Update (hinted), DeviceClass/Add|Update and
// ResourceSlice/Add|Update have no EventResource in schedkit.
//
// Thread-safety: Filter and Score only read the cycle state.
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
#include "schedkit/framework/diagnosis.h"
#include "schedkit/framework/events.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/batch_signature.h"
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

// A pod's spec.resourceClaims[] entry (core/v1 PodResourceClaim).
struct PodResourceClaim {
  std::string name;
  std::optional<std::string> resource_claim_name;
  std::optional<std::string> resource_claim_template_name;
};

// A pod's status.resourceClaimStatuses[] entry.
struct PodResourceClaimStatus {
  std::string name;
  std::optional<std::string> resource_claim_name;
};

struct PodResourceClaims {
  std::vector<PodResourceClaim> claims;
  std::vector<PodResourceClaimStatus> statuses;
  bool empty() const { return claims.empty(); }
};

// The pod's claim references. Always empty today: schedkit's Pod message
// does not carry spec.resourceClaims or status.resourceClaimStatuses.
PodResourceClaims ResourceClaimsOf(const api::v1::Pod& pod);

// Upstream's foreachPodResourceClaim against an empty ResourceClaim cache:
// the text of the first failure, or nullopt when no entry names a claim
// object (a template whose status records no claim is skipped, as upstream).
std::optional<std::string> CheckPodResourceClaims(std::string_view pod_namespace, std::string_view pod_name,
                                                  const PodResourceClaims& claims);

// What PreEnqueue and PreFilter return for `pod` with these claims:
// Success, or UnschedulableAndUnresolvable with CheckPodResourceClaims' text.
framework::Status PodResourceClaimsStatus(const framework::PodInfo& pod, const PodResourceClaims& claims);

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
  explicit DynamicResources(const DynamicResourcesArgs& args)
      : filter_timeout_(args.filter_timeout.value_or(absl::ZeroDuration())) {}

  std::string_view Name() const override;
  // Adds the fields of the pod its filtering and scoring read (upstream's SignPod).
  framework::Status SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const override;
  // Per node while the model has no claim objects: Filter passes and Score
  // is 0 on every node. Allocating real claims (ResourceSlices, other pods'
  // allocations) would end that.
  bool OutcomesArePerNode() const override { return true; }

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
  framework::Status Reserve(framework::CycleState& state, const framework::PodInfo& pod,
                            Symbol node) override;
  void Unreserve(framework::CycleState& state, const framework::PodInfo& pod, Symbol node) override;
  framework::Status PreBind(framework::CycleState& state, const framework::PodInfo& pod,
                            Symbol node) override;
  // Upstream's PreBindPreFlight: Skip when the pod has no claims (always,
  // here); Error "not found" without state.
  framework::Status PreBindPreFlight(const framework::CycleState& state, const framework::PodInfo& pod,
                                     Symbol node) const override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

  // Pod/UpdatePodGeneratedResourceClaim hint: QueueSkip for another pod (by
  // UID) or while some claim of the updated pod is still missing; Queue
  // otherwise; an error when the event carries no updated pod.
  static absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodChange(
      const framework::PodInfo& pod, const framework::EventObjects& event);
  // The same with the updated pod's claim references given explicitly.
  static absl::StatusOr<framework::QueueingHint> IsSchedulableAfterPodChange(
      const framework::PodInfo& pod, const framework::EventObjects& event,
      const PodResourceClaims& modified_claims);

  absl::Duration filter_timeout() const { return filter_timeout_; }

 private:
  static constexpr framework::MaximumNormalization kNormalization{framework::kMaxNodeScore, /*reverse=*/false};
  absl::Duration filter_timeout_;
};

// The per-cycle state, under "DynamicResources" (upstream's stateKey).
// Upstream keeps the pod's claims, the allocator and per-node allocations;
// with no claim objects the claim store is always empty.
struct DynamicResourcesState : framework::StateData {
  int num_claims = 0;
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<DynamicResourcesState>(*this);
  }
};

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewDynamicResources(const framework::PluginArgs& args,
                                                                       framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_DYNAMICRESOURCES_DYNAMIC_RESOURCES_H_
