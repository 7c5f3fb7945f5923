#include "plugins/noderesources/fit.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "dra/extended_resources.h"
#include "schedkit/api/v1/device_class.h"
#include "plugins/internal/signers.h"
#include "plugins/noderesources/dra_scoring.h"
#include "plugins/noderesources/resource_allocation.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/base/well_known.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/framework/resource.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace noderesources {
namespace {

using framework::Code;
using framework::CycleState;
using framework::NodeInfo;
using framework::PodInfo;
using framework::Status;

enum class Strategy : uint8_t { kLeastAllocated, kMostAllocated, kRequestedToCapacityRatio };

// Interned once; the Filter hands these out without allocating.
struct Reasons {
  Symbol too_many_pods = Symbol::Intern("Too many pods");
  Symbol cpu = Symbol::Intern("Insufficient cpu");
  Symbol memory = Symbol::Intern("Insufficient memory");
  Symbol ephemeral_storage = Symbol::Intern("Insufficient ephemeral-storage");
};
const Reasons& R() {
  static const Reasons r;
  return r;
}

Symbol PreFilterKey() {
  static const Symbol k = Symbol::Intern("PreFilterNodeResourcesFit");
  return k;
}
Symbol PreScoreKey() {
  static const Symbol k = Symbol::Intern("PreScoreNodeResourcesFit");
  return k;
}

// The pod's requests as the filter checks them (upstream preFilterState):
// scalar resources with a zero request or ignored by the args are dropped,
// the rest sorted by name so rejection reasons come in a stable order.
struct FitRequest {
  struct Scalar {
    Symbol name;
    int64_t amount = 0;
    Symbol reason;  // "Insufficient <name>"
    // A DeviceClass stands for it (DRAExtendedResource): a node that does
    // not offer it in its allocatable leaves it to DynamicResources.
    bool dra_backed = false;
  };
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral_storage = 0;
  absl::InlinedVector<Scalar, 2> scalars;
};

struct IgnoredResources {
  absl::flat_hash_set<std::string> resources;
  absl::flat_hash_set<std::string> groups;

  // Upstream ignores only extended resources, by full name or by the part
  // before the '/'.
  bool Ignores(std::string_view name) const {
    if (!framework::IsExtendedResourceName(name)) return false;
    if (resources.contains(absl::string_view(name.data(), name.size()))) return true;
    const std::string_view group = name.substr(0, name.find('/'));
    return !groups.empty() && groups.contains(absl::string_view(group.data(), group.size()));
  }
};

// The classes backing extended resources, read only for a pod that asks for
// one (most pods do not, and then no class is listed).
std::optional<dra::ExtendedResourceClasses> ClassesFor(const PodInfo& pod, const api::ObjectLister* objects) {
  if (objects == nullptr || !AsksForDraExtendedResourceName(pod.spec_requests())) return std::nullopt;
  return dra::ExtendedResourceClasses(objects->List<api::v1::DeviceClass>());
}

FitRequest ComputeFitRequest(const PodInfo& pod, const IgnoredResources* ignored,
                             const dra::ExtendedResourceClasses* classes) {
  const framework::Resource& req = pod.spec_requests();
  FitRequest out;
  out.milli_cpu = req.milli_cpu;
  out.memory = req.memory;
  out.ephemeral_storage = req.ephemeral_storage;
  for (const framework::Resource::Scalar& s : req.scalars) {
    if (s.amount == 0) continue;
    const std::string_view name = s.name.str();
    if (ignored != nullptr && ignored->Ignores(name)) continue;
    out.scalars.push_back({s.name, s.amount, Symbol::Intern(schedkit::StrCat("Insufficient ", name)),
                           classes != nullptr && classes->Find(name) != nullptr});
  }
  std::sort(
      out.scalars.begin(), out.scalars.end(),
      [](const FitRequest::Scalar& a, const FitRequest::Scalar& b) { return a.name.str() < b.name.str(); });
  return out;
}

// Calls fn(resource, reason, requested, used, capacity, unresolvable) for
// each resource the node lacks, in upstream's order (upstream fitsRequest).
// The pod, cpu and memory checks read the node's first line only: a failing
// pass over every node (preemption's) builds a status for each, and the full
// resource lists would cost it three more lines per node. fn's used and
// capacity pod counts are read only where fn reads them.
template <typename Fn>
inline void VisitInsufficient(const FitRequest& req, const NodeInfo& node, Fn&& fn) {
  if (node.free_pod_slots() < 1) {  // the saturating form of pods + 1 > allowed
    fn(schedkit::well_known::ResourcePods(), R().too_many_pods, 1, node.num_pods(),
       node.allocatable().allowed_pod_number, false);
  }
  const int64_t alloc_cpu = node.allocatable_milli_cpu();
  const int64_t used_cpu = node.requested_milli_cpu();
  if (req.milli_cpu > 0 && req.milli_cpu > alloc_cpu - used_cpu) {
    fn(schedkit::well_known::ResourceCpu(), R().cpu, req.milli_cpu, used_cpu, alloc_cpu, req.milli_cpu > alloc_cpu);
  }
  const int64_t alloc_memory = node.allocatable_memory();
  const int64_t used_memory = node.requested_memory();
  if (req.memory > 0 && req.memory > alloc_memory - used_memory) {
    fn(schedkit::well_known::ResourceMemory(), R().memory, req.memory, used_memory, alloc_memory,
       req.memory > alloc_memory);
  }
  const framework::Resource& alloc = node.allocatable();
  const framework::Resource& used = node.requested();
  if (req.ephemeral_storage > 0 && req.ephemeral_storage > alloc.ephemeral_storage - used.ephemeral_storage) {
    fn(schedkit::well_known::ResourceEphemeralStorage(), R().ephemeral_storage, req.ephemeral_storage,
       used.ephemeral_storage, alloc.ephemeral_storage, req.ephemeral_storage > alloc.ephemeral_storage);
  }
  for (const FitRequest::Scalar& s : req.scalars) {
    const int64_t capacity = alloc.GetScalar(s.name);
    if (s.dra_backed && capacity <= 0) continue;
    const int64_t in_use = used.GetScalar(s.name);
    if (s.amount > capacity - in_use) fn(s.name, s.reason, s.amount, in_use, capacity, s.amount > capacity);
  }
}

// Whether the node has room for one more pod and the given cpu, memory and
// ephemeral storage: VisitInsufficient's first four checks, as a predicate
// (an amount of 0 or less always fits). The first line's checks are combined
// without a branch each; the ephemeral storage figures, further out, are read
// only when the pod asks for some.
inline bool HasRoomForCore(int64_t cpu, int64_t memory, int64_t ephemeral, const NodeInfo& node) {
  const bool first_line = (node.free_pod_slots() >= 1) &
                          ((cpu <= 0) | (cpu <= node.allocatable_milli_cpu() - node.requested_milli_cpu())) &
                          ((memory <= 0) | (memory <= node.allocatable_memory() - node.requested_memory()));
  return first_line &&
         (ephemeral <= 0 || ephemeral <= node.allocatable().ephemeral_storage - node.requested().ephemeral_storage);
}

// Whether the node has room for every resource of the request (no resource
// VisitInsufficient would report).
inline bool HasRoomFor(const FitRequest& req, const NodeInfo& node) {
  if (!HasRoomForCore(req.milli_cpu, req.memory, req.ephemeral_storage, node)) return false;
  for (const FitRequest::Scalar& s : req.scalars) {
    const int64_t capacity = node.allocatable().GetScalar(s.name);
    if (s.dra_backed && capacity <= 0) continue;
    if (s.amount > capacity - node.requested().GetScalar(s.name)) return false;
  }
  return true;
}

// Filter's status for a node without room: every missing resource's reason,
// unresolvable when one of them exceeds the node's capacity.
Status InsufficientStatus(const FitRequest& req, const NodeInfo& node) {
  absl::InlinedVector<Symbol, 4> reasons;
  bool unresolvable = false;
  VisitInsufficient(req, node, [&](Symbol, Symbol reason, int64_t, int64_t, int64_t, bool resource_unresolvable) {
    reasons.push_back(reason);
    unresolvable = unresolvable || resource_unresolvable;
  });
  Status status(unresolvable ? Code::kUnschedulableAndUnresolvable : Code::kUnschedulable, reasons[0]);
  for (size_t i = 1; i < reasons.size(); ++i) status.AppendReason(reasons[i]);
  return status;
}

std::vector<InsufficientResource> CollectInsufficient(const FitRequest& req, const NodeInfo& node) {
  std::vector<InsufficientResource> out;
  VisitInsufficient(req, node,
                    [&](Symbol resource, Symbol reason, int64_t requested, int64_t used, int64_t capacity,
                        bool unresolvable) {
                      out.push_back({std::string(resource.str()), std::string(reason.str()), requested, used,
                                     capacity, unresolvable});
                    });
  return out;
}

class PreFilterState final : public framework::StateData {
 public:
  explicit PreFilterState(FitRequest req) : req_(std::move(req)) {}
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
  const FitRequest& request() const { return req_; }

 private:
  FitRequest req_;
};

// --- queueing hints ---

// Upstream haveEnoughRelevantResourcesDecreased (an assigned pod scaled
// down), with each pod's requests as its resize status makes them.
absl::StatusOr<bool> ScaledDownForPod(const PodInfo& target, const api::v1::Pod& original,
                                      const api::v1::Pod& modified) {
  if (modified.spec().node_name().empty()) return false;
  SCHEDKIT_ASSIGN_OR_RETURN(framework::PodRequests before, framework::ComputePodRequests(original));
  SCHEDKIT_ASSIGN_OR_RETURN(framework::PodRequests after, framework::ComputePodRequests(modified));
  const framework::Resource& want = target.requests();
  const framework::Resource& b = before.requests;
  const framework::Resource& a = after.requests;
  if (want.milli_cpu != 0 && b.milli_cpu > a.milli_cpu) return true;
  if (want.memory != 0 && b.memory > a.memory) return true;
  if (want.ephemeral_storage != 0 && b.ephemeral_storage > a.ephemeral_storage) return true;
  for (const framework::Resource::Scalar& s : want.scalars) {
    if (s.amount != 0 && b.GetScalar(s.name) > a.GetScalar(s.name)) return true;
  }
  return false;
}

// Upstream isSchedulableAfterAssignedPodDelete: a deleted pod frees
// resources only if it was bound (or about to be).
absl::StatusOr<framework::QueueingHint> HintAfterAssignedPodDelete(const PodInfo&,
                                                                   const framework::EventObjects& event) {
  using framework::QueueingHint;
  const api::v1::Pod* deleted = event.Old<api::v1::Pod>();
  if (deleted == nullptr) return absl::InvalidArgumentError("pod deletion without the pod");
  if (deleted->spec().node_name().empty() && deleted->status().nominated_node_name().empty()) {
    return QueueingHint::kSkip;
  }
  return QueueingHint::kQueue;
}

// Upstream isSchedulableAfterAssignedPodScaleDown.
absl::StatusOr<framework::QueueingHint> HintAfterAssignedPodScaleDown(const PodInfo& pod,
                                                                      const framework::EventObjects& event) {
  using framework::QueueingHint;
  if (event.Old<api::v1::Pod>() == nullptr || event.New<api::v1::Pod>() == nullptr) {
    return absl::InvalidArgumentError("pod update without both pods");
  }
  SCHEDKIT_ASSIGN_OR_RETURN(bool scaled_down, ScaledDownForPod(pod, *event.Old<api::v1::Pod>(), *event.New<api::v1::Pod>()));
  return scaled_down ? QueueingHint::kQueue : QueueingHint::kSkip;
}

absl::StatusOr<framework::QueueingHint> HintAfterNodeChange(const PodInfo& pod, const framework::EventObjects& event,
                                                            const api::ObjectLister* objects) {
  using framework::QueueingHint;
  if (event.New<api::v1::Node>() == nullptr) return absl::InvalidArgumentError("node event without the new node");
  const std::optional<dra::ExtendedResourceClasses> classes = ClassesFor(pod, objects);
  const dra::ExtendedResourceClasses* backing = classes ? &*classes : nullptr;
  SCHEDKIT_ASSIGN_OR_RETURN(bool fits, IsFit(pod, event.New<api::v1::Node>(), backing));
  if (!fits) return QueueingHint::kSkip;
  if (event.Old<api::v1::Node>() == nullptr) return QueueingHint::kQueue;
  SCHEDKIT_ASSIGN_OR_RETURN(bool increased, HaveAnyRequestedResourcesIncreased(pod, *event.Old<api::v1::Node>(),
                                                                               *event.New<api::v1::Node>(), backing));
  return increased ? QueueingHint::kQueue : QueueingHint::kSkip;
}

// Upstream isSchedulableAfterDeviceClassEvent: a class that newly stands for
// an extended resource the pod asks for (a changed explicit name, or on
// creation the implicit one).
absl::StatusOr<framework::QueueingHint> HintAfterDeviceClassChange(const PodInfo& pod,
                                                                   const framework::EventObjects& event) {
  using framework::QueueingHint;
  const api::v1::DeviceClass* before = event.Old<api::v1::DeviceClass>();
  const api::v1::DeviceClass* after = event.New<api::v1::DeviceClass>();
  if (after == nullptr) return absl::InvalidArgumentError("device class event without the new class");
  const framework::Resource& req = pod.spec_requests();
  auto asks_for = [&](std::string_view name) {
    for (const framework::Resource::Scalar& s : req.scalars) {
      if (s.name.str() == name) return true;
    }
    return false;
  };
  if (before != nullptr) {
    if (before->spec().extended_resource_name() == after->spec().extended_resource_name()) return QueueingHint::kSkip;
  } else if (asks_for(schedkit::StrCat(dra::kDeviceClassResourcePrefix, after->metadata().name()))) {
    return QueueingHint::kQueue;
  }
  if (after->spec().has_extended_resource_name() && asks_for(after->spec().extended_resource_name())) {
    return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

class Fit final : public framework::PreFilterPlugin,
                  public framework::FilterPlugin,
                  public framework::PreScorePlugin,
                  public framework::ScorePlugin,
                  public framework::EnqueueExtensions, public framework::SignPlugin {
 public:
  Fit(IgnoredResources ignored, Strategy strategy, ScoredResources resources,
      RequestedToCapacityRatioTable table, FitFeatures features, const api::ObjectLister& objects,
      std::shared_ptr<internal::ClaimTracker> tracker)
      : objects_(objects),
        dra_{&objects, std::move(tracker), features.dra_consumable_capacity, &selectors_},
        ignored_(std::move(ignored)),
        strategy_(strategy),
        resources_(std::move(resources)),
        table_(table),
        features_(features) {}

  std::string_view Name() const override { return names::kNodeResourcesFit; }
  // The pod's computed request, as Filter and Score read it.
  Status SignPod(const PodInfo& pod, framework::BatchSignatureBuilder& signature) const override {
    if (objects() != nullptr && AsksForDraBackedResource(pod, *objects())) {
      return Status::WithText(Code::kUnschedulable, std::string(kDraSignatureDeclined));
    }
    signature.Add(framework::kResourcesSigner, ResourcesSignature(pod.spec_requests()));
    return Status();
  }
  bool OutcomesArePerNode() const override { return true; }

  Result PreFilter(CycleState& state, const PodInfo& pod,
                   std::span<const NodeInfo* const> /*nodes*/) override {
    const std::optional<dra::ExtendedResourceClasses> classes = ClassesFor(pod, objects());
    state.Write(PreFilterKey(),
                std::make_unique<PreFilterState>(ComputeFitRequest(pod, &ignored_, classes ? &*classes : nullptr)));
    return {};
  }

  Status Filter(const CycleState& state, const PodInfo& /*pod*/, const NodeInfo& node) const override {
    const auto* s = state.Read<PreFilterState>(PreFilterKey());
    if (s == nullptr) {
      return Status::Error(
          schedkit::StrCat("error reading \"", PreFilterKey().str(), "\" from cycleState: not found"));
    }
    // Most nodes fit: check that first, and collect reasons only for a node
    // that does not.
    if (HasRoomFor(s->request(), node)) return Status();
    return InsufficientStatus(s->request(), node);
  }

  void FilterNodes(const CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                   std::span<uint8_t> passing, std::span<Status> statuses) const override {
    const auto* s = state.Read<PreFilterState>(PreFilterKey());
    if (s == nullptr) return FilterPlugin::FilterNodes(state, pod, nodes, passing, statuses);
    const FitRequest& request = s->request();
    // The request in locals, so the loop reads only the nodes; a request
    // without scalar resources (the usual case) needs no scalar lookups.
    const int64_t cpu = request.milli_cpu;
    const int64_t memory = request.memory;
    const int64_t ephemeral = request.ephemeral_storage;
    // A node without room gets its reasons here rather than through Filter,
    // which would look the request up again: preemption's failing passes
    // reject every node.
    auto status_of = [&](const NodeInfo& node) { return InsufficientStatus(request, node); };
    if (!request.scalars.empty()) {
      FilterNodesWithQuickPass(
          nodes, passing, statuses, [&](const NodeInfo& node) { return HasRoomFor(request, node); }, status_of);
      return;
    }
    FilterNodesWithQuickPass(
        nodes, passing, statuses,
        [&](const NodeInfo& node) { return HasRoomForCore(cpu, memory, ephemeral, node); }, status_of);
  }

  Status PreScore(CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes) override {
    ScoredResources rs = resources_;
    FillPodRequests(pod, /*use_requested=*/false, rs);
    std::shared_ptr<const DraDeviceCounts> counts = DraCounts(nodes, rs);
    state.Write(PreScoreKey(), std::make_unique<ScoredResourcesState>(std::move(rs), std::move(counts)));
    return Status();
  }

  Status Score(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
               int64_t& score) const override {
    if (const auto* s = state.Read<ScoredResourcesState>(PreScoreKey()); s != nullptr) {
      return ScoreNode(node, s->resources(), score);
    }
    // Upstream computes the requests here when PreScore did not run.
    ScoredResources rs = resources_;
    FillPodRequests(pod, /*use_requested=*/false, rs);
    const NodeInfo* one[] = {&node};
    std::shared_ptr<const DraDeviceCounts> counts = DraCounts(one, rs);
    return ScoreNode(node, rs, score);
  }

  Status ScoreNodes(const CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                    std::span<int64_t> scores) const override {
    const auto* s = state.Read<ScoredResourcesState>(PreScoreKey());
    if (s == nullptr) return ScorePlugin::ScoreNodes(state, pod, nodes, scores);
    const std::span<const ScoredResource> rs = s->resources();
    if (rs.empty()) return Status::Error("resources not found");
    // One loop per strategy, so the per-node call is direct.
    switch (strategy_) {
      case Strategy::kLeastAllocated:
        if (IsCpuThenMemory(rs)) {
          LeastAllocatedCpuMemoryRun(nodes, rs[0], rs[1], scores);
          break;
        }
        for (size_t i = 0; i < nodes.size(); ++i) scores[i] = LeastAllocatedScore(*nodes[i], rs, false);
        break;
      case Strategy::kMostAllocated:
        for (size_t i = 0; i < nodes.size(); ++i) scores[i] = MostAllocatedScore(*nodes[i], rs, false);
        break;
      case Strategy::kRequestedToCapacityRatio:
        for (size_t i = 0; i < nodes.size(); ++i) {
          scores[i] = RequestedToCapacityRatioScore(*nodes[i], rs, false, table_);
        }
        break;
    }
    return Status();
  }

  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override {
    using framework::EventResource;
    std::vector<framework::ClusterEventWithHint> events = {
        {{EventResource::AssignedPod(), framework::kActionDelete, "AssignedPodDelete"}, HintAfterAssignedPodDelete},
        {{EventResource::Node(), framework::kActionAdd | framework::kActionUpdateNodeAllocatable, "Node"},
         [this](const PodInfo& pod, const framework::EventObjects& e) { return HintAfterNodeChange(pod, e, objects()); }},
    };
    if (features_.enable_dra_extended_resource) {
      // A pod may wait for a class to stand for its extended resource.
      events.push_back(
          {{EventResource::Of<api::v1::DeviceClass>(), framework::kActionAdd | framework::kActionUpdate, "DeviceClass"},
           HintAfterDeviceClassChange});
    }
    // A pod resized in place may free resources: another one on a node, or
    // the pod itself asking for less.
    if (features_.enable_in_place_pod_vertical_scaling) {
      events.push_back({{EventResource::AssignedPod(), framework::kActionUpdatePodScaleDown,
                         "AssignedPodUpdatePodScaleDown"},
                        HintAfterAssignedPodScaleDown});
      events.push_back({{EventResource::TargetPod(), framework::kActionUpdatePodScaleDown,
                         "TargetPodUpdatePodScaleDown"},
                        [](const PodInfo&, const framework::EventObjects&) -> absl::StatusOr<framework::QueueingHint> {
                          return framework::QueueingHint::kQueue;
                        }});
    }
    return events;
  }

  std::vector<InsufficientResource> InsufficientResources(const PodInfo& pod, const NodeInfo& node) const {
    const std::optional<dra::ExtendedResourceClasses> classes = ClassesFor(pod, objects());
    return CollectInsufficient(ComputeFitRequest(pod, &ignored_, classes ? &*classes : nullptr), node);
  }

 private:
  Status ScoreNode(const NodeInfo& node, std::span<const ScoredResource> rs, int64_t& score) const {
    if (rs.empty()) return Status::Error("resources not found");
    switch (strategy_) {
      case Strategy::kLeastAllocated:
        score = LeastAllocatedScore(node, rs, /*use_requested=*/false);
        break;
      case Strategy::kMostAllocated:
        score = MostAllocatedScore(node, rs, /*use_requested=*/false);
        break;
      case Strategy::kRequestedToCapacityRatio:
        score = RequestedToCapacityRatioScore(node, rs, /*use_requested=*/false, table_);
        break;
    }
    return Status();
  }

  // The devices backing scored extended resources (attached to `rs`), or
  // null when none is.
  std::shared_ptr<const DraDeviceCounts> DraCounts(std::span<const NodeInfo* const> nodes, ScoredResources& rs) const {
    if (!features_.enable_dra_extended_resource) return nullptr;
    return DraDeviceCounts::CountAndAttach(dra_, nodes, rs);
  }

  // The DeviceClasses, read only with DRAExtendedResource on.
  const api::ObjectLister* objects() const { return features_.enable_dra_extended_resource ? &objects_ : nullptr; }

  const api::ObjectLister& objects_;
  // Upstream's scorer keeps a cache of ten compiled class selectors.
  mutable dra::SelectorCache selectors_{10};
  const DraScoringSources dra_;
  const IgnoredResources ignored_;
  const Strategy strategy_;
  const ScoredResources resources_;  // pod_request unset; copied per pod
  const RequestedToCapacityRatioTable table_;
  const FitFeatures features_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewFit(const NodeResourcesFitArgs& args,
                                                          framework::Handle& handle,
                                                          const FitFeatures& features) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateNodeResourcesFitArgs(args));
  if (!args.scoring_strategy.has_value()) {
    return absl::InvalidArgumentError("NodeResourcesFit args: scoring strategy not specified");
  }
  const ScoringStrategy& s = *args.scoring_strategy;
  Strategy strategy = Strategy::kLeastAllocated;
  RequestedToCapacityRatioTable table;
  if (s.type == kMostAllocated) {
    strategy = Strategy::kMostAllocated;
  } else if (s.type == kRequestedToCapacityRatio) {
    strategy = Strategy::kRequestedToCapacityRatio;
    // Upstream dereferences the missing param and panics; refuse instead.
    if (!s.requested_to_capacity_ratio.has_value()) {
      return absl::InvalidArgumentError(
          "NodeResourcesFit args: scoringStrategy.requestedToCapacityRatio: Required value: the "
          "RequestedToCapacityRatio strategy needs a shape");
    }
    table = RequestedToCapacityRatioTable(s.requested_to_capacity_ratio->shape);
  }
  IgnoredResources ignored;
  ignored.resources.insert(args.ignored_resources.begin(), args.ignored_resources.end());
  ignored.groups.insert(args.ignored_resource_groups.begin(), args.ignored_resource_groups.end());
  SCHEDKIT_ASSIGN_OR_RETURN(std::shared_ptr<internal::ClaimTracker> tracker, internal::ClaimTracker::Shared(handle));
  return std::make_unique<Fit>(std::move(ignored), strategy, CompileResources(s.resources), table, features,
                               handle.objects(), std::move(tracker));
}

std::vector<InsufficientResource> Fits(const PodInfo& pod, const NodeInfo& node,
                                       const dra::ExtendedResourceClasses* classes) {
  return CollectInsufficient(ComputeFitRequest(pod, nullptr, classes), node);
}

absl::StatusOr<bool> IsFit(const PodInfo& pod, const api::v1::Node* node, const dra::ExtendedResourceClasses* classes) {
  if (node == nullptr) return false;
  SCHEDKIT_ASSIGN_OR_RETURN(NodeInfo info, NodeInfo::Create(*node));
  bool fits = true;
  VisitInsufficient(ComputeFitRequest(pod, nullptr, classes), info,
                    [&](Symbol, Symbol, int64_t, int64_t, int64_t, bool) { fits = false; });
  return fits;
}

absl::StatusOr<bool> HaveAnyRequestedResourcesIncreased(const PodInfo& pod, const api::v1::Node& original,
                                                        const api::v1::Node& modified,
                                                        const dra::ExtendedResourceClasses* classes) {
  SCHEDKIT_ASSIGN_OR_RETURN(framework::Resource before,
                            framework::Resource::FromList(original.status().allocatable()));
  SCHEDKIT_ASSIGN_OR_RETURN(framework::Resource after,
                            framework::Resource::FromList(modified.status().allocatable()));
  if (after.allowed_pod_number > before.allowed_pod_number) return true;
  const framework::Resource& req = pod.spec_requests();
  if (req.milli_cpu == 0 && req.memory == 0 && req.ephemeral_storage == 0 && req.scalars.empty())
    return false;
  if ((req.milli_cpu > 0 && after.milli_cpu > before.milli_cpu) ||
      (req.memory > 0 && after.memory > before.memory) ||
      (req.ephemeral_storage > 0 && after.ephemeral_storage > before.ephemeral_storage)) {
    return true;
  }
  for (const framework::Resource::Scalar& s : req.scalars) {
    if (s.amount == 0) continue;
    if (after.GetScalar(s.name) > before.GetScalar(s.name)) return true;
    // A resource DRA serves on the modified node.
    if (classes != nullptr && after.GetScalar(s.name) <= 0 && classes->Find(s.name.str()) != nullptr) return true;
  }
  return false;
}

std::vector<InsufficientResource> InsufficientResourcesFor(const framework::Plugin& fit, const PodInfo& pod,
                                                           const NodeInfo& node) {
  return dynamic_cast<const Fit&>(fit).InsufficientResources(pod, node);
}

}  // namespace noderesources

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeResourcesFit(const framework::PluginArgs& args,
                                                                       framework::Handle& handle) {
  SCHEDKIT_ASSIGN_OR_RETURN(noderesources::NodeResourcesFitArgs parsed,
                            noderesources::ParseNodeResourcesFitArgs(args));
  noderesources::FitFeatures features;
  features.dra_consumable_capacity = args.gates().Enabled("DRAConsumableCapacity");
  return noderesources::NewFit(parsed, handle, features);
}

}  // namespace schedkit::plugins
