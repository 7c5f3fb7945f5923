#include "plugins/dynamicresources/dynamic_resources.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::Status;

Symbol StateKey() {
  static const Symbol key = Symbol::Intern("DynamicResources");
  return key;
}

// Upstream reads its state with CycleState.Read, whose miss is
// fwk.ErrNotFound ("not found"), returned as an Error status.
Status StateNotFound() {
  static const Symbol not_found = Symbol::Intern("not found");
  return Status(Code::kError, not_found);
}

}  // namespace

const framework::ArgsSpec<DynamicResourcesArgs>& DynamicResourcesArgsSpec() {
  // Upstream's SetDefaults_ and ValidateDynamicResourcesArgs: each timeout
  // exists only with its gates.
  static const auto filter_gate = [](const framework::FeatureGates& g) {
    return g.Enabled("DRASchedulerFilterTimeout");
  };
  static const auto binding_gates = [](const framework::FeatureGates& g) {
    return g.Enabled("DRADeviceBindingConditions") && g.Enabled("DRAResourceClaimDeviceStatus");
  };
  static const auto* spec =
      framework::ArgsSpec<DynamicResourcesArgs>(std::string(names::kDynamicResources))
          .Field("filterTimeout", &DynamicResourcesArgs::filter_timeout)
          .Field("bindingTimeout", &DynamicResourcesArgs::binding_timeout)
          .OmitEmpty()
          .Defaults([](DynamicResourcesArgs& a, const framework::FeatureGates& gates) {
            if (!a.filter_timeout && filter_gate(gates)) a.filter_timeout = absl::Seconds(10);
            if (!a.binding_timeout && binding_gates(gates)) a.binding_timeout = absl::Seconds(600);
          })
          .Validate([](const DynamicResourcesArgs& a, const framework::FeatureGates& gates,
                       framework::ArgsErrors& errs) {
            if (filter_gate(gates)) {
              if (a.filter_timeout && *a.filter_timeout < absl::ZeroDuration()) {
                errs.Invalid("filterTimeout", absl::FormatDuration(*a.filter_timeout), "must be zero or positive");
              }
            } else if (a.filter_timeout) {
              errs.Forbidden("filterTimeout", "DRASchedulingFilterTimeout feature gate is disabled");
            }
            if (binding_gates(gates)) {
              if (a.binding_timeout && *a.binding_timeout < absl::Seconds(1)) {
                errs.Invalid("bindingTimeout", absl::FormatDuration(*a.binding_timeout), "must be at least 1 second");
              }
            } else if (a.binding_timeout) {
              errs.Forbidden("bindingTimeout",
                             "DRADeviceBindingConditions or DRAResourceClaimDeviceStatus feature gate is disabled");
            }
          })
          .Leak();
  return *spec;
}

absl::StatusOr<DynamicResourcesArgs> ParseDynamicResourcesArgs(const framework::PluginArgs& args) {
  return framework::DecodeArgs(args, DynamicResourcesArgsSpec());
}

PodResourceClaims ResourceClaimsOf(const api::v1::Pod& /*pod*/) { return {}; }

std::optional<std::string> CheckPodResourceClaims(std::string_view pod_namespace, std::string_view pod_name,
                                                  const PodResourceClaims& claims) {
  for (const PodResourceClaim& c : claims.claims) {
    const std::string* claim_name = nullptr;
    if (c.resource_claim_name) {
      claim_name = &*c.resource_claim_name;
    } else if (c.resource_claim_template_name) {
      const PodResourceClaimStatus* status = nullptr;
      for (const PodResourceClaimStatus& s : claims.statuses) {
        if (s.name == c.name) {
          status = &s;
          break;
        }
      }
      if (status == nullptr) {
        return schedkit::StrCat("pod \"", pod_namespace, "/", pod_name, "\": ResourceClaim not created yet");
      }
      // The claim was intentionally not created: nothing to check.
      if (!status->resource_claim_name) continue;
      claim_name = &*status->resource_claim_name;
    } else {
      return schedkit::StrCat("pod \"", pod_namespace, "/", pod_name, "\", spec.resourceClaim \"", c.name,
                              "\": none of the supported fields are set");
    }
    // The claim cache holds no ResourceClaims.
    return schedkit::StrCat("could not find ResourceClaim \"", pod_namespace, "/", *claim_name, "\"");
  }
  return std::nullopt;
}

std::string_view DynamicResources::Name() const { return names::kDynamicResources; }

Status PodResourceClaimsStatus(const framework::PodInfo& pod, const PodResourceClaims& claims) {
  if (claims.empty()) return Status();
  if (auto err = CheckPodResourceClaims(pod.namespace_().str(), pod.name().str(), claims)) {
    return Status::WithText(Code::kUnschedulableAndUnresolvable, *std::move(err));
  }
  return Status();
}

Status DynamicResources::PreEnqueue(const framework::PodInfo& pod) {
  return PodResourceClaimsStatus(pod, ResourceClaimsOf(pod.pod()));
}

framework::PreFilterPlugin::Result DynamicResources::PreFilter(
    framework::CycleState& state, const framework::PodInfo& pod,
    std::span<const framework::NodeInfo* const> /*nodes*/) {
  // The state is recorded first, so PostFilter and later points find it even
  // when the claims check below fails.
  state.Write(StateKey(), std::make_unique<DynamicResourcesState>());
  if (Status s = PodResourceClaimsStatus(pod, ResourceClaimsOf(pod.pod())); !s.IsSuccess()) {
    return {{}, std::move(s)};
  }
  // No claim objects (and no extended-resource claim: DRAExtendedResource is
  // off), so nothing to allocate.
  return {{}, Status::Skip()};
}

Status DynamicResources::Filter(const framework::CycleState& state, const framework::PodInfo& /*pod*/,
                                const framework::NodeInfo& /*node*/) const {
  const auto* s = state.Read<DynamicResourcesState>(StateKey());
  if (s == nullptr) return StateNotFound();
  return Status();
}

framework::PostFilterPlugin::Result DynamicResources::PostFilter(
    framework::CycleState& state, const framework::PodInfo& /*pod*/,
    const framework::NodeToStatus& /*filtered*/) {
  const auto* s = state.Read<DynamicResourcesState>(StateKey());
  if (s == nullptr) return {{}, StateNotFound()};
  // No claims, nothing to deallocate: Unschedulable without a reason (since
  // v1.36), so the FitError text goes straight on with preemption's.
  return {{}, Status::WithReasons(Code::kUnschedulable, {})};
}

Status DynamicResources::Score(const framework::CycleState& state, const framework::PodInfo& /*pod*/,
                               const framework::NodeInfo& /*node*/, int64_t& score) const {
  score = 0;
  // DRAPrioritizedList is on, so upstream reads the state on every node.
  if (state.Read<DynamicResourcesState>(StateKey()) == nullptr) return StateNotFound();
  return Status();
}

// Every node scores 0 without claims, so the state is read once per run.
Status DynamicResources::ScoreNodes(const framework::CycleState& state, const framework::PodInfo& /*pod*/,
                                    std::span<const framework::NodeInfo* const> /*nodes*/,
                                    std::span<int64_t> scores) const {
  if (state.Read<DynamicResourcesState>(StateKey()) == nullptr) return StateNotFound();
  std::fill(scores.begin(), scores.end(), 0);
  return Status();
}

Status DynamicResources::NormalizeScore(const framework::CycleState& /*state*/,
                                        const framework::PodInfo& /*pod*/,
                                        std::span<const framework::NodeInfo* const> /*nodes*/,
                                        std::span<int64_t> scores) const {
  kNormalization.Apply(scores);
  return Status();
}

Status DynamicResources::Reserve(framework::CycleState& state, const framework::PodInfo& /*pod*/,
                                 Symbol /*node*/) {
  if (state.Read<DynamicResourcesState>(StateKey()) == nullptr) return StateNotFound();
  return Status();
}

void DynamicResources::Unreserve(framework::CycleState& /*state*/, const framework::PodInfo& /*pod*/,
                                 Symbol /*node*/) {
  // No claims were reserved or allocated.
}

Status DynamicResources::PreBind(framework::CycleState& state, const framework::PodInfo& /*pod*/,
                                 Symbol /*node*/) {
  if (state.Read<DynamicResourcesState>(StateKey()) == nullptr) return StateNotFound();
  return Status();
}

Status DynamicResources::PreBindPreFlight(const framework::CycleState& state,
                                          const framework::PodInfo& /*pod*/, Symbol /*node*/) const {
  if (state.Read<DynamicResourcesState>(StateKey()) == nullptr) return StateNotFound();
  return Status::Skip();
}

std::vector<framework::ClusterEventWithHint> DynamicResources::EventsToRegister() const {
  return {
      {{framework::EventResource::Node(),
        framework::kActionAdd | framework::kActionUpdateNodeLabel | framework::kActionUpdateNodeAllocatable,
        "Node"},
       {}},
      {{framework::EventResource::TargetPod(), framework::kActionUpdatePodGeneratedResourceClaim,
        "TargetPodUpdatePodGeneratedResourceClaim"},
       [](const framework::PodInfo& pod, const framework::EventObjects& event) {
         return IsSchedulableAfterPodChange(pod, event);
       }},
  };
}

absl::StatusOr<framework::QueueingHint> DynamicResources::IsSchedulableAfterPodChange(
    const framework::PodInfo& pod, const framework::EventObjects& event) {
  if (event.New<api::v1::Pod>() == nullptr) return IsSchedulableAfterPodChange(pod, event, {});
  return IsSchedulableAfterPodChange(pod, event, ResourceClaimsOf(*event.New<api::v1::Pod>()));
}

absl::StatusOr<framework::QueueingHint> DynamicResources::IsSchedulableAfterPodChange(
    const framework::PodInfo& pod, const framework::EventObjects& event,
    const PodResourceClaims& modified_claims) {
  const api::v1::Pod* modified = event.New<api::v1::Pod>();
  if (modified == nullptr) {
    // Upstream's message names the claim hint, which shares this text.
    return absl::InvalidArgumentError(
        "unexpected object in isSchedulableAfterTargetPodUpdate: expected the updated pod, got none");
  }
  // A TargetPod event (v1.37): the updated pod's claims decide, whoever's
  // update it is.
  (void)pod;
  // Some claim is still missing: the pod stays unschedulable.
  if (CheckPodResourceClaims(modified->metadata().namespace_(), modified->metadata().name(),
                             modified_claims)) {
    return framework::QueueingHint::kSkip;
  }
  return framework::QueueingHint::kQueue;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewDynamicResources(const framework::PluginArgs& args,
                                                                       framework::Handle& /*handle*/) {
  SCHEDKIT_ASSIGN_OR_RETURN(DynamicResourcesArgs parsed, ParseDynamicResourcesArgs(args));
  return std::make_unique<DynamicResources>(parsed);
}

framework::Status DynamicResources::SignPod(const framework::PodInfo& /*pod*/,
                                            framework::BatchSignatureBuilder& /*signature*/) const {
  // Upstream declines pods with resource claims; the world model has none
  // until Dynamic Resource Allocation's claim paths land, so every pod signs,
  // adding nothing (the plugin reads nothing else of the pod).
  return framework::Status();
}

}  // namespace schedkit::plugins
