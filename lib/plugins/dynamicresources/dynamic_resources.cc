#include "plugins/dynamicresources/dynamic_resources.h"

#include <chrono>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "google/protobuf/util/message_differencer.h"
#include "dra/pod_claims.h"
#include "plugins/dynamicresources/binding_conditions.h"
#include "plugins/dynamicresources/cycle.h"
#include "schedkit/api/v1/device_class.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using dynamicresources::ClaimEntry;
using dynamicresources::Cycle;
using dynamicresources::CycleData;
using dynamicresources::CycleOf;
using dynamicresources::KObj;
using dynamicresources::StateKey;
using dynamicresources::StateNotFound;
using dynamicresources::Unresolvable;
using framework::Code;
using framework::Status;

// A claim can be reserved for this many consumers at most
// (ResourceClaimReservedForMaxSize).
constexpr int kReservedForMaxSize = 256;
// What the i-th subrequest of a firstAvailable list scores: 8 - i
// (FirstAvailableDeviceRequestMaxSize).
constexpr int64_t kFirstAvailableMaxSize = 8;







// Upstream's computeScore: for each claim, 8 - i for every subrequest i of a
// firstAvailable request that the claim's allocation on this node uses.
int64_t PrioritizedListScore(const Cycle& cycle, const std::vector<api::v1::AllocationResult>& allocations) {
  int64_t score = 0;
  size_t next = 0;
  for (const ClaimEntry& entry : cycle.claims) {
    const api::v1::ResourceClaim& claim = *entry.claim;
    const api::v1::AllocationResult* allocation = nullptr;
    if (entry.allocated()) {
      allocation = &claim.status().allocation();
    } else {
      if (next >= allocations.size()) return score;
      allocation = &allocations[next++];
    }
    for (const api::v1::DeviceRequest& request : claim.spec().devices().requests()) {
      if (request.has_exactly()) continue;
      for (int i = 0; i < request.first_available_size(); ++i) {
        const std::string ref = schedkit::StrCat(request.name(), "/", request.first_available(i).name());
        for (const api::v1::DeviceRequestAllocationResult& r : allocation->devices().results()) {
          if (r.request() == ref) {
            score += kFirstAvailableMaxSize - i;
            break;
          }
        }
      }
    }
  }
  return score;
}

}  // namespace

namespace dynamicresources {

absl::StatusOr<const api::v1::DeviceClass*> ClassSnapshot::Get(std::string_view name) const {
  auto it = classes.find(absl::string_view(name.data(), name.size()));
  if (it == classes.end()) {
    return absl::NotFoundError(schedkit::StrCat("deviceclass.resource.k8s.io \"", name, "\" not found"));
  }
  return it->second.get();
}

}  // namespace dynamicresources

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

dra::Features DraFeatures(const framework::FeatureGates& gates) {
  dra::Features f;
  f.admin_access = gates.Enabled("DRAAdminAccess");
  f.prioritized_list = gates.Enabled("DRAPrioritizedList");
  f.partitionable_devices = gates.Enabled("DRAPartitionableDevices");
  f.device_taints = gates.Enabled("DRADeviceTaints");
  f.device_binding_and_status =
      gates.Enabled("DRADeviceBindingConditions") && gates.Enabled("DRAResourceClaimDeviceStatus");
  f.consumable_capacity = gates.Enabled("DRAConsumableCapacity");
  f.fractional_capacity_range = gates.Enabled("DRAFractionalCapacityRange");
  f.list_type_attributes = gates.Enabled("DRAListTypeAttributes");
  f.optional_node_operations = gates.Enabled("DRAOptionalNodeOperations");
  f.derived_attributes = gates.Enabled("DRADerivedAttributes");
  f.compatibility_groups = gates.Enabled("DRADeviceCompatibilityGroups");
  return f;
}

DynamicResources::DynamicResources(const DynamicResourcesArgs& args, const dra::Features& features,
                                   framework::Handle& handle,
                                   std::shared_ptr<internal::ClaimTracker> tracker)
    : filter_timeout_(args.filter_timeout.value_or(absl::ZeroDuration())),
      binding_timeout_(args.binding_timeout.value_or(absl::Seconds(600))),
      features_(features),
      handle_(handle),
      tracker_(std::move(tracker)) {}

std::string_view DynamicResources::Name() const { return names::kDynamicResources; }

absl::StatusOr<std::vector<std::shared_ptr<const api::v1::ResourceClaim>>> DynamicResources::PodClaims(
    const api::v1::Pod& pod) const {
  std::vector<std::shared_ptr<const api::v1::ResourceClaim>> claims;
  claims.reserve(pod.spec().resource_claims_size());
  for (const api::v1::PodResourceClaim& entry : pod.spec().resource_claims()) {
    SCHEDKIT_ASSIGN_OR_RETURN(dra::ClaimName name, dra::ResolveClaimName(pod, entry));
    // No claim was made for this entry, on purpose: nothing to do for it.
    if (!name.name) continue;
    std::shared_ptr<const api::v1::ResourceClaim> claim = tracker_->Get(pod.metadata().namespace_(), *name.name);
    if (claim == nullptr) {
      return absl::NotFoundError(
          schedkit::StrCat("could not find ResourceClaim \"", pod.metadata().namespace_(), "/", *name.name, "\""));
    }
    if (!claim->metadata().deletion_timestamp().empty()) {
      return absl::FailedPreconditionError(
          schedkit::StrCat("resourceclaim \"", claim->metadata().name(), "\" is being deleted"));
    }
    if (name.must_check_owner) {
      if (std::optional<std::string> why = dra::NotForPod(pod, *claim)) return absl::FailedPreconditionError(*why);
    }
    claims.push_back(std::move(claim));
  }
  return claims;
}

Status DynamicResources::SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& /*signature*/) const {
  // Which nodes fit a pod with claims depends on every other claim: such a
  // pod is never batched with another, as upstream.
  if (pod.pod().spec().resource_claims_size() > 0) {
    return Status::WithText(Code::kUnschedulable, "pods with dra resource claims are not signable");
  }
  return Status();
}

Status DynamicResources::PreEnqueue(const framework::PodInfo& pod) {
  if (pod.pod().spec().resource_claims().empty()) return Status();
  if (auto claims = PodClaims(pod.pod()); !claims.ok()) return Unresolvable(std::string(claims.status().message()));
  return Status();
}

Status DynamicResources::ValidateDeviceClass(std::string_view class_name, std::string_view request) const {
  if (class_name.empty()) return Status::Error(schedkit::StrCat("request ", request, ": unsupported request type"));
  if (handle_.objects().Get<api::v1::DeviceClass>(class_name) == nullptr) {
    // Unschedulable, so the pod waits for a DeviceClass event.
    return Unresolvable(schedkit::StrCat("request ", request, ": device class ", class_name, " does not exist"));
  }
  return Status();
}

framework::PreFilterPlugin::Result DynamicResources::PreFilter(
    framework::CycleState& state, const framework::PodInfo& pod,
    std::span<const framework::NodeInfo* const> /*nodes*/) {
  // Recorded first, so PostFilter and later points find it even when the
  // checks below fail.
  auto data = std::make_unique<CycleData>();
  Cycle& cycle = *data->cycle;
  state.Write(StateKey(), std::move(data));

  auto claims = PodClaims(pod.pod());
  if (!claims.ok()) return {{}, Unresolvable(std::string(claims.status().message()))};
  cycle.num_user_claims = static_cast<int>(claims->size());
  if (std::shared_ptr<const api::v1::ResourceClaim> extended = PreFilterExtendedResources(pod, cycle)) {
    cycle.initial_extended_uid = extended->metadata().uid();
    claims->push_back(std::move(extended));
  }
  if (claims->empty()) return {{}, Status::Skip()};

  int to_allocate = 0;
  cycle.claims.reserve(claims->size());
  for (std::shared_ptr<const api::v1::ResourceClaim>& claim : *claims) {
    const bool extended = cycle.claims.size() == static_cast<size_t>(cycle.num_user_claims);
    ClaimEntry& entry = cycle.claims.emplace_back();
    entry.claim = std::move(claim);
    const api::v1::ResourceClaim& c = *entry.claim;
    if (entry.allocated()) {
      if (c.status().reserved_for_size() >= kReservedForMaxSize && !dra::IsReservedForPod(pod.pod(), c)) {
        // Resource is in use: the pod has to wait.
        return {{}, Unresolvable("resourceclaim in use")};
      }
      if (c.status().allocation().has_node_selector()) {
        absl::StatusOr<api::NodeSelector> selector = api::NodeSelector::Compile(c.status().allocation().node_selector());
        if (!selector.ok()) return {{}, Status::Error(std::string(selector.status().message()))};
        entry.available_on_nodes = *std::move(selector);
      }
      continue;
    }
    ++to_allocate;
    // Another pod's allocation of this claim is in flight: wait for it.
    if (tracker_->PendingAllocation(c.metadata().uid()) != nullptr) {
      return {{}, Unresolvable(schedkit::StrCat("resource claim ", KObj(c), " is in the process of being allocated"))};
    }
    // The extended-resource claim has no requests yet (or, from an earlier
    // cycle, Filter turns it down): no class to check.
    if (extended) continue;
    // Every request's class must exist, however the claim is allocated.
    for (const api::v1::DeviceRequest& request : c.spec().devices().requests()) {
      if (request.has_exactly()) {
        if (Status s = ValidateDeviceClass(request.exactly().device_class_name(), request.name()); !s.IsSuccess()) {
          return {{}, std::move(s)};
        }
      } else if (request.first_available_size() > 0) {
        if (!features_.prioritized_list) {
          return {{}, Unresolvable(schedkit::StrCat("resource claim ", KObj(c), ", request ", request.name(),
                                                    ": has subrequests, but the DRAPrioritizedList feature is disabled"))};
        }
        for (const api::v1::DeviceSubRequest& sub : request.first_available()) {
          if (Status s = ValidateDeviceClass(sub.device_class_name(), schedkit::StrCat(request.name(), "/", sub.name()));
              !s.IsSuccess()) {
            return {{}, std::move(s)};
          }
        }
      } else {
        return {{}, Unresolvable(schedkit::StrCat("resource claim ", KObj(c), ", request ", request.name(),
                                                  ": unknown request type"))};
      }
    }
  }

  if (to_allocate > 0) {
    // Claims held by others do not change during filtering, so the
    // allocator starts from them once per pod.
    dra::AllocatorOptions options;
    options.features = features_;
    options.allocated_state = tracker_->GatherAllocatedState(features_.consumable_capacity);
    for (const auto& c : handle_.objects().List<api::v1::DeviceClass>()) {
      cycle.classes.classes.emplace(c->metadata().name(), c);
    }
    options.class_lister = &cycle.classes;
    cycle.slices = tracker_->Slices(features_.device_taints);
    options.slices.reserve(cycle.slices.size());
    for (const auto& s : cycle.slices) options.slices.push_back(s.get());
    options.selector_cache = &selectors_;
    absl::StatusOr<std::unique_ptr<dra::Allocator>> allocator = dra::Allocator::Create(std::move(options));
    if (!allocator.ok()) return {{}, Status::Error(std::string(allocator.status().message()))};
    cycle.allocator = *std::move(allocator);
  }
  return {{}, Status()};
}

Status DynamicResources::Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                                const framework::NodeInfo& node) const {
  Cycle* cycle = CycleOf(state);
  if (cycle == nullptr) return StateNotFound();
  if (cycle->empty()) return Status();

  dynamicresources::NodeAllocation found;
  if (Status s = FilterExtendedResources(*cycle, pod, node, found); !s.IsSuccess()) return s;
  // Only extended resources, all served by the node's allocatable.
  if (found.extended_claim == nullptr && cycle->num_user_claims == 0) return Status();

  std::vector<int> unavailable;
  for (int i = 0; i < static_cast<int>(cycle->claims.size()); ++i) {
    const ClaimEntry& entry = cycle->claims[i];
    if (entry.available_on_nodes && !entry.available_on_nodes->Matches(node.labels(), node.name())) {
      unavailable.push_back(i);
      continue;
    }
    if (entry.allocated() && BindingConditionsEnabled()) {
      // A device whose binding failed or timed out: PostFilter may
      // deallocate the claim so that other devices get a chance.
      absl::StatusOr<bool> ready = dynamicresources::IsClaimReadyForBinding(*entry.claim);
      if (!ready.ok() ||
          (!*ready && dynamicresources::IsClaimBindingTimedOut(*entry.claim, binding_timeout_, absl::Now()))) {
        unavailable.push_back(i);
      }
    }
  }

  std::vector<api::v1::AllocationResult>& allocations = found.results;
  if (cycle->allocator != nullptr) {
    std::vector<const api::v1::ResourceClaim*> to_allocate;
    std::vector<api::v1::AllocationResult> pending;
    for (int i = 0; i < static_cast<int>(cycle->claims.size()); ++i) {
      const ClaimEntry& entry = cycle->claims[i];
      if (entry.allocated()) continue;
      if (entry.allocation != nullptr) {
        pending.push_back(*entry.allocation);
        continue;
      }
      // The extended-resource claim as this node needs it.
      const bool node_variant = cycle->is_extended(i) && found.extended_claim != nullptr;
      to_allocate.push_back(node_variant ? found.extended_claim.get() : entry.claim.get());
    }
    dra::Interrupt interrupt;
    if (filter_timeout_ > absl::ZeroDuration()) {
      interrupt.deadline = std::chrono::steady_clock::now() + absl::ToChronoNanoseconds(filter_timeout_);
    }
    const int64_t steps_before = cycle->allocator->num_allocate_one_invocations();
    dra::AllocateResult result = cycle->allocator->Allocate(*node.node(), to_allocate, interrupt);
    num_allocate_one_invocations_ += cycle->allocator->num_allocate_one_invocations() - steps_before;
    if (!result.ok()) {
      if (absl::IsDeadlineExceeded(result.status())) {
        // Possibly transient: an Error retries through backoff rather than
        // waiting for a cluster event.
        return Status::Error(schedkit::StrCat("node ", node.name().str(), ": timed out trying to allocate devices"));
      }
      if (dra::IsFailedAllocationOnNode(result.status())) return Unresolvable(std::string(result.status().message()));
      if (absl::IsCancelled(result.status())) {
        return Unresolvable(schedkit::StrCat("asked by caller to stop allocating devices: ", result.status().message()));
      }
      // Something is wrong with a claim or class (a CEL runtime error, ...).
      return Status::Error(std::string(result.status().message()));
    }
    if (!result->has_value() || (*result)->size() != to_allocate.size()) {
      return Unresolvable("cannot allocate all claims");
    }
    allocations = std::move(**result);
    for (api::v1::AllocationResult& p : pending) allocations.push_back(std::move(p));
  }

  if (cycle->allocator == nullptr && unavailable.empty()) return Status();
  absl::MutexLock lock(&cycle->mu);
  if (!unavailable.empty()) {
    cycle->unavailable_claims.insert(unavailable.begin(), unavailable.end());
    return Unresolvable("resourceclaim not available on the node");
  }
  cycle->node_allocations[node.name()] = std::move(found);
  return Status();
}

framework::PostFilterPlugin::Result DynamicResources::PostFilter(framework::CycleState& state,
                                                                 const framework::PodInfo& pod,
                                                                 const framework::NodeToStatus& /*filtered*/) {
  Cycle* cycle = CycleOf(state);
  if (cycle == nullptr) return {{}, StateNotFound()};
  if (cycle->empty()) return {{}, Status::WithReasons(Code::kUnschedulable, {})};

  std::set<int> unavailable;
  {
    absl::MutexLock lock(&cycle->mu);
    unavailable = cycle->unavailable_claims;
  }
  const dynamicresources::ClaimEntry* extended = cycle->extended_claim();
  // One an earlier attempt created: deleted below.
  const bool stale_extended =
      extended != nullptr && extended->claim->metadata().name() != dynamicresources::kInMemoryClaimName;
  // Upstream picks one at random (map order); the lowest index here.
  for (int index : unavailable) {
    if (cycle->is_extended(index)) {
      if (stale_extended) break;
      continue;
    }
    const api::v1::ResourceClaim& claim = *cycle->claims[index].claim;
    const auto& reserved = claim.status().reserved_for();
    if (reserved.empty() || (reserved.size() == 1 && reserved[0].uid() == pod.uid())) {
      api::v1::ResourceClaim deallocated = claim;
      deallocated.mutable_status()->clear_reserved_for();
      deallocated.mutable_status()->clear_allocation();
      deallocated.mutable_status()->clear_devices();
      framework::ClusterClient* client = handle_.client();
      if (client == nullptr) return {{}, Status::Error("no cluster client to deallocate ResourceClaims through")};
      if (auto stored = client->UpdateStatus(deallocated); !stored.ok()) {
        return {{}, Status::Error(std::string(stored.status().message()))};
      }
      return {{}, Status::WithText(Code::kUnschedulable, "deallocation of ResourceClaim completed")};
    }
  }
  if (stale_extended) {
    if (absl::Status s = DeleteClaim(*extended->claim); !s.ok()) return {{}, Status::Error(std::string(s.message()))};
    return {{}, Status::WithText(Code::kUnschedulable, "deletion of ResourceClaim completed")};
  }
  return {{}, Status::WithReasons(Code::kUnschedulable, {})};
}

Status DynamicResources::Score(const framework::CycleState& state, const framework::PodInfo& /*pod*/,
                               const framework::NodeInfo& node, int64_t& score) const {
  score = 0;
  if (!features_.prioritized_list) return Status();
  Cycle* cycle = CycleOf(state);
  if (cycle == nullptr) return StateNotFound();
  if (cycle->empty()) return Status();
  absl::MutexLock lock(&cycle->mu);
  auto it = cycle->node_allocations.find(node.name());
  if (it == cycle->node_allocations.end()) return Status();
  score = PrioritizedListScore(*cycle, it->second.results);
  return Status();
}

Status DynamicResources::ScoreNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                                    std::span<const framework::NodeInfo* const> nodes,
                                    std::span<int64_t> scores) const {
  Cycle* cycle = features_.prioritized_list ? CycleOf(state) : nullptr;
  if (features_.prioritized_list && cycle == nullptr) return StateNotFound();
  if (cycle == nullptr || cycle->empty()) {
    std::fill(scores.begin(), scores.end(), 0);
    return Status();
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (Status s = Score(state, pod, *nodes[i], scores[i]); !s.IsSuccess()) return s;
  }
  return Status();
}

Status DynamicResources::NormalizeScore(const framework::CycleState& /*state*/,
                                        const framework::PodInfo& /*pod*/,
                                        std::span<const framework::NodeInfo* const> /*nodes*/,
                                        std::span<int64_t> scores) const {
  kNormalization.Apply(scores);
  return Status();
}

Status DynamicResources::PreBindPreFlight(const framework::CycleState& state, const framework::PodInfo& /*pod*/,
                                          Symbol /*node*/) const {
  Cycle* cycle = CycleOf(state);
  if (cycle == nullptr) return StateNotFound();
  return cycle->empty() ? Status::Skip() : Status();
}

std::vector<framework::ClusterEventWithHint> DynamicResources::EventsToRegister() const {
  using framework::EventResource;
  return {
      // Slices and allocations may depend on node labels.
      {{EventResource::Node(),
        framework::kActionAdd | framework::kActionUpdateNodeLabel | framework::kActionUpdateNodeAllocatable, "Node"},
       {}},
      // Allocations live in claims: any change may make a pod schedulable.
      {{EventResource::Of<api::v1::ResourceClaim>(),
        framework::kActionAdd | framework::kActionUpdate | framework::kActionDelete, "ResourceClaim"},
       [this](const framework::PodInfo& pod, const framework::EventObjects& event) {
         return IsSchedulableAfterClaimChange(pod, event);
       }},
      // The claim controller recording a claim in the pod's status.
      {{EventResource::TargetPod(), framework::kActionUpdatePodGeneratedResourceClaim,
        "TargetPodUpdatePodGeneratedResourceClaim"},
       [this](const framework::PodInfo& pod, const framework::EventObjects& event) {
         return IsSchedulableAfterPodChange(pod, event);
       }},
      // A pod may be waiting for its class.
      {{EventResource::Of<api::v1::DeviceClass>(), framework::kActionAdd | framework::kActionUpdate, "DeviceClass"},
       {}},
      // New or changed devices.
      {{EventResource::Of<api::v1::ResourceSlice>(), framework::kActionAdd | framework::kActionUpdate,
        "ResourceSlice"},
       {}},
  };
}

absl::StatusOr<framework::QueueingHint> DynamicResources::IsSchedulableAfterClaimChange(
    const framework::PodInfo& pod, const framework::EventObjects& event) const {
  const api::v1::ResourceClaim* old_claim = event.Old<api::v1::ResourceClaim>();
  const api::v1::ResourceClaim* new_claim = event.New<api::v1::ResourceClaim>();
  if (new_claim == nullptr) {
    if (old_claim == nullptr) {
      return absl::InvalidArgumentError("unexpected object in isSchedulableAfterClaimChange: no ResourceClaim");
    }
    // Deleted: only the loss of an allocation frees devices.
    return old_claim->status().has_allocation() ? framework::QueueingHint::kQueue : framework::QueueingHint::kSkip;
  }
  auto claims = PodClaims(pod.pod());
  // Some claim of the pod is still missing or unusable.
  if (!claims.ok()) return framework::QueueingHint::kSkip;
  if (old_claim != nullptr && old_claim->status().has_allocation() && !new_claim->status().has_allocation()) {
    // Deallocated: the devices are free for any pod.
    return framework::QueueingHint::kQueue;
  }
  bool uses = false;
  for (const auto& c : *claims) uses = uses || c->metadata().uid() == new_claim->metadata().uid();
  if (!uses) return framework::QueueingHint::kSkip;
  if (old_claim == nullptr) return framework::QueueingHint::kQueue;
  // Only a status change matters (a driver adding a finalizer does not).
  if (google::protobuf::util::MessageDifferencer::Equals(old_claim->status(), new_claim->status())) {
    return framework::QueueingHint::kSkip;
  }
  return framework::QueueingHint::kQueue;
}

absl::StatusOr<framework::QueueingHint> DynamicResources::IsSchedulableAfterPodChange(
    const framework::PodInfo& /*pod*/, const framework::EventObjects& event) const {
  const api::v1::Pod* modified = event.New<api::v1::Pod>();
  if (modified == nullptr) {
    return absl::InvalidArgumentError(
        "unexpected object in isSchedulableAfterTargetPodUpdate: expected the updated pod, got none");
  }
  // The updated pod's claims decide: some claim is still missing or unusable.
  if (!PodClaims(*modified).ok()) return framework::QueueingHint::kSkip;
  return framework::QueueingHint::kQueue;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewDynamicResources(const framework::PluginArgs& args,
                                                                       framework::Handle& handle) {
  SCHEDKIT_ASSIGN_OR_RETURN(DynamicResourcesArgs parsed, ParseDynamicResourcesArgs(args));
  const dra::Features features = DraFeatures(args.gates());
  // Upstream selects its experimental allocator for these; it is not
  // modelled, so the scheduler refuses to start rather than decide otherwise.
  for (const auto& [on, gate] : {std::pair{features.list_type_attributes, "DRAListTypeAttributes"},
                                 std::pair{features.optional_node_operations, "DRAOptionalNodeOperations"},
                                 std::pair{features.derived_attributes, "DRADerivedAttributes"},
                                 std::pair{features.compatibility_groups, "DRADeviceCompatibilityGroups"}}) {
    if (on) {
      return absl::UnimplementedError(schedkit::StrCat(
          "DynamicResources: feature gate ", gate, " selects upstream's experimental DRA allocator, not modelled yet"));
    }
  }
  for (const char* gate : {"DRAWorkloadResourceClaims", "DRANodeAllocatableResources"}) {
    if (args.gates().Enabled(gate)) {
      return absl::UnimplementedError(
          schedkit::StrCat("DynamicResources: feature gate ", gate, " is not modelled yet"));
    }
  }
  SCHEDKIT_ASSIGN_OR_RETURN(std::shared_ptr<internal::ClaimTracker> tracker,
                            internal::ClaimTracker::Shared(handle));
  return std::make_unique<DynamicResources>(parsed, features, handle, std::move(tracker));
}

}  // namespace schedkit::plugins
