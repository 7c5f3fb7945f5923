#include "plugins/volumebinding/volume_binding.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "plugins/internal/args.h"
#include "plugins/internal/signers.h"
#include "plugins/internal/storage_lookup.h"
#include "plugins/volumebinding/bind_volumes.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::Status;

Symbol StateKey() {
  static const Symbol key = Symbol::Intern("VolumeBinding");
  return key;
}

// Upstream reads its state through CycleState.Read, whose miss is
// fwk.ErrNotFound ("not found"), turned into an Error status.
Status StateNotFound() {
  static const Symbol not_found = Symbol::Intern("not found");
  return Status(Code::kError, not_found);
}

Status NoPodVolumeForNode(Symbol node) {
  return Status::Error(schedkit::StrCat("no pod volume found for node \"", node.str(), "\""));
}

}  // namespace

namespace {

constexpr std::string_view kStorageCapacityScoring = "StorageCapacityScoring";

// Go's %v of a shape: "[{0 10} {100 0}]".
std::string ShapeText(const std::vector<UtilizationShapePoint>& shape) {
  std::string out = "[";
  for (const UtilizationShapePoint& p : shape) {
    schedkit::StrAppend(&out, out.size() > 1 ? " " : "", "{", p.utilization, " ", p.score, "}");
  }
  return out + "]";
}

// Upstream's validateFunctionShape: points sorted by utilization, each in range.
void ValidateShape(const std::vector<UtilizationShapePoint>& shape, framework::ArgsErrors& errs) {
  if (shape.empty()) {
    errs.Required("shape", "at least one point must be specified");
    return;
  }
  for (size_t i = 1; i < shape.size(); ++i) {
    if (shape[i - 1].utilization >= shape[i].utilization) {
      errs.Invalid(framework::ArgsPath(framework::ArgsPath("shape", i), "utilization"), shape[i].utilization,
                   "values must be sorted in increasing order");
      break;
    }
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    const std::string at = framework::ArgsPath("shape", i);
    if (shape[i].utilization < 0 || shape[i].utilization > 100) {
      errs.Invalid(framework::ArgsPath(at, "utilization"), shape[i].utilization, "not in valid range [0, 100]");
    }
    if (shape[i].score < 0 || shape[i].score > 10) {
      errs.Invalid(framework::ArgsPath(at, "score"), shape[i].score, "not in valid range [0, 10]");
    }
  }
}

}  // namespace

const framework::ArgsSpec<VolumeBindingArgs>& VolumeBindingArgsSpec() {
  static const auto* point = framework::ArgsSpec<UtilizationShapePoint>(std::string(names::kVolumeBinding))
                                 .Field("utilization", &UtilizationShapePoint::utilization)
                                 .Field("score", &UtilizationShapePoint::score)
                                 .Leak();
  static const auto* spec =
      framework::ArgsSpec<VolumeBindingArgs>(std::string(names::kVolumeBinding))
          .Field("bindTimeoutSeconds", &VolumeBindingArgs::bind_timeout_seconds)
          .Field("shape", &VolumeBindingArgs::shape, *point)
          .OmitEmpty()
          .Defaults([](VolumeBindingArgs& a, const framework::FeatureGates& gates) {
            if ((!a.shape || a.shape->empty()) && gates.Enabled(kStorageCapacityScoring)) {
              a.shape = std::vector<UtilizationShapePoint>{{0, 10}, {100, 0}};
            }
          })
          .Validate([](const VolumeBindingArgs& a, const framework::FeatureGates& gates, framework::ArgsErrors& errs) {
            if (a.bind_timeout_seconds < 0) {
              errs.Invalid("bindTimeoutSeconds", a.bind_timeout_seconds,
                           "invalid BindTimeoutSeconds, should not be a negative value");
            }
            if (gates.Enabled(kStorageCapacityScoring)) {
              ValidateShape(a.shape.value_or(std::vector<UtilizationShapePoint>{}), errs);
            } else if (a.shape.has_value()) {
              // Refused while the gate is off, so that it cannot silently
              // take effect once the gate turns on.
              errs.Add("shape", schedkit::StrCat("Invalid value: ", ShapeText(*a.shape),
                                                 ": unexpected field `shape`, remove it or turn on the feature gate "
                                                 "StorageCapacityScoring"));
            }
          })
          .Leak();
  return *spec;
}

absl::StatusOr<VolumeBindingArgs> ParseVolumeBindingArgs(const framework::PluginArgs& args) {
  return framework::DecodeArgs(args, VolumeBindingArgsSpec());
}

VolumeBinding::VolumeBinding(const VolumeBindingArgs& args, framework::Handle& handle)
    : bind_timeout_(absl::Seconds(args.bind_timeout_seconds)), handle_(handle), cache_(handle) {
  // The args carry a shape exactly when StorageCapacityScoring is on (their
  // defaults and validation see to it).
  if (args.shape.has_value()) {
    std::vector<internal::BrokenLinearFunction::Point> points;
    points.reserve(args.shape->size());
    constexpr int64_t kScale = framework::kMaxNodeScore / 10;  // shape scores are 0..10
    for (const UtilizationShapePoint& p : *args.shape) points.push_back({p.utilization, p.score * kScale});
    scorer_.emplace(std::move(points));
  }
}

std::string_view VolumeBinding::Name() const { return names::kVolumeBinding; }

namespace {

Status Unresolvable(std::string text) {
  return Status::WithText(Code::kUnschedulableAndUnresolvable, std::move(text));
}

}  // namespace

framework::PreFilterPlugin::Result VolumeBinding::PreFilter(
    framework::CycleState& state, const framework::PodInfo& pod,
    std::span<const framework::NodeInfo* const> /*nodes*/) {
  const api::v1::Pod& p = pod.pod();
  const api::ObjectLister& objects = handle_.objects();
  // Upstream's podHasPVCs, through the claim lister: every claim must
  // exist, be usable, and (for an ephemeral volume) belong to the pod.
  std::vector<std::string> names;
  for (const api::v1::Volume& v : p.spec().volumes()) {
    if (!v.has_persistent_volume_claim() && !v.has_ephemeral()) continue;
    std::string name = internal::ClaimNameOf(p, v);
    auto claim = internal::GetClaim(objects, p.metadata().namespace_(), name);
    if (!claim.ok()) {
      if (v.has_ephemeral() && absl::IsNotFound(claim.status())) {
        return {{}, Unresolvable(schedkit::StrCat(
                        "waiting for ephemeral volume controller to create the persistentvolumeclaim \"", name,
                        "\""))};
      }
      return {{}, Unresolvable(std::string(claim.status().message()))};
    }
    const api::v1::PersistentVolumeClaim& c = **claim;
    if (c.status().phase() == "Lost") {
      return {{}, Unresolvable(schedkit::StrCat("persistentvolumeclaim \"", c.metadata().name(),
                                                "\" bound to non-existent persistentvolume \"",
                                                c.spec().volume_name(), "\""))};
    }
    if (!c.metadata().deletion_timestamp().empty()) {
      return {{}, Unresolvable(schedkit::StrCat("persistentvolumeclaim \"", c.metadata().name(),
                                                "\" is being deleted"))};
    }
    if (v.has_ephemeral()) {
      if (absl::Status owned = internal::CheckClaimIsForPod(c, p); !owned.ok()) {
        return {{}, Unresolvable(std::string(owned.message()))};
      }
    }
    names.push_back(std::move(name));
  }
  auto s = std::make_unique<VolumeBindingState>();
  if (names.empty()) {
    state.Write(StateKey(), std::move(s));
    return {{}, Status::Skip()};
  }
  // Upstream's GetPodVolumeClaims, through the assume cache: bound claims,
  // unbound ones of a WaitForFirstConsumer class, and the rest (immediate,
  // or pre-bound to a volume), which the PV controller must bind first.
  auto claims = std::make_shared<volumebinding::PodVolumeClaims>();
  // The volumes of each delayed claim's class, listed once per class as
  // upstream's unboundVolumesDelayBinding.
  absl::flat_hash_map<std::string, std::vector<std::shared_ptr<const api::v1::PersistentVolume>>> volumes_by_class;
  bool unbound_immediate = false;
  for (const std::string& name : names) {
    auto claim = cache_.GetClaim(p.metadata().namespace_(), name);
    if (claim == nullptr) {
      return {{}, Status::Error(schedkit::StrCat("error getting PVC \"", p.metadata().namespace_(), "/", name,
                                                 "\": could not find v1.PersistentVolumeClaim \"",
                                                 p.metadata().namespace_(), "/", name, "\""))};
    }
    if (volumebinding::FullyBound(*claim)) {
      volumebinding::BoundVolume bound;
      auto pv = cache_.GetVolume(claim->spec().volume_name());
      if (pv == nullptr) {
        bound.missing = true;
      } else {
        bound = volumebinding::VolumeAffinity(*pv);
      }
      claims->bound.push_back(std::move(bound));
      continue;
    }
    bool delayed = false;
    const std::string& class_name = internal::ClaimClass(*claim);
    if (!class_name.empty()) {
      auto sc = internal::GetClass(objects, class_name);
      if (sc.ok()) {
        if (!(*sc)->has_volume_binding_mode()) {
          return {{}, Status::Error(schedkit::StrCat("VolumeBindingMode not set for StorageClass \"", class_name,
                                                     "\""))};
        }
        delayed = (*sc)->volume_binding_mode() == "WaitForFirstConsumer";
      }
    }
    if (delayed && claim->spec().volume_name().empty()) {
      auto [listed, fresh] = volumes_by_class.try_emplace(class_name);
      if (fresh) listed->second = cache_.ListVolumes(class_name);
      claims->delayed.push_back(volumebinding::PrepareDelayedClaim(std::move(claim), listed->second, objects));
    } else {
      unbound_immediate = true;
    }
  }
  if (unbound_immediate) {
    static const Symbol reason = Symbol::Intern("pod has unbound immediate PersistentVolumeClaims");
    return {{}, Status(Code::kUnschedulableAndUnresolvable, reason)};
  }
  volumebinding::FinishPreparing(*claims);
  s->claims = std::move(claims);
  state.Write(StateKey(), std::move(s));
  return {{}, Status()};
}

Status VolumeBinding::Filter(const framework::CycleState& state, const framework::PodInfo& /*pod*/,
                             const framework::NodeInfo& node) const {
  const auto* s = state.Read<VolumeBindingState>(StateKey());
  if (s == nullptr) return StateNotFound();
  if (s->claims == nullptr) return Status();
  return volumebinding::FindPodVolumes(*s->claims, node, nullptr);
}

Status VolumeBinding::PreScore(framework::CycleState& state, const framework::PodInfo& /*pod*/,
                               std::span<const framework::NodeInfo* const> /*nodes*/) {
  if (!scorer_) return Status::Skip();
  if (state.Read<VolumeBindingState>(StateKey()) == nullptr) return StateNotFound();
  // Upstream scores when some claim binds statically or the gate is on; a
  // scorer exists only with the gate on, so always.
  return Status();
}

int64_t VolumeBinding::ClassScore(int64_t requested, int64_t capacity) const {
  constexpr int64_t kMaxUtilization = 100;
  if (capacity == 0 || requested > capacity) return (*scorer_)(kMaxUtilization);
  int64_t scaled = 0;
  (void)__builtin_mul_overflow(requested, kMaxUtilization, &scaled);  // wraps, as Go's int64
  return (*scorer_)(scaled / capacity);
}

Status VolumeBinding::Score(const framework::CycleState& state, const framework::PodInfo& /*pod*/,
                            const framework::NodeInfo& node, int64_t& score) const {
  score = 0;
  if (!scorer_) return Status();
  const auto* s = state.Read<VolumeBindingState>(StateKey());
  if (s == nullptr) return StateNotFound();
  // Upstream scores the volumes its Filter recorded for the node: none when
  // the profile disabled our Filter.
  if (s->claims == nullptr || !handle_.RunsFilter(Name())) return Status();
  // Upstream keeps each node's volumes from Filter; Filter here is read-only,
  // so the node's choice is made again, on the same inputs.
  volumebinding::VolumeUse use;
  if (!volumebinding::FindPodVolumes(*s->claims, node, nullptr, &use).IsSuccess()) return Status();
  const volumebinding::ClassUses& classes = use.has_static ? use.static_classes : use.dynamic_classes;
  if (classes.empty()) return Status();
  int64_t sum = 0;
  for (const volumebinding::ClassUse& c : classes) sum += ClassScore(c.requested, c.capacity);
  score = static_cast<int64_t>(std::round(static_cast<double>(sum) / static_cast<double>(classes.size())));
  return Status();
}

bool VolumeBinding::OutcomesArePerNodeFor(const framework::PodInfo& pod) const {
  for (const api::v1::Volume& v : pod.pod().spec().volumes()) {
    if (v.has_persistent_volume_claim() || v.has_ephemeral()) return false;
  }
  return true;
}

Status VolumeBinding::ScoreNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                                 std::span<const framework::NodeInfo* const> nodes,
                                 std::span<int64_t> scores) const {
  const auto* s = scorer_ ? state.Read<VolumeBindingState>(StateKey()) : nullptr;
  if (!scorer_ || (s != nullptr && (s->claims == nullptr || !handle_.RunsFilter(Name())))) {
    std::fill(scores.begin(), scores.end(), int64_t{0});
    return Status();
  }
  return ScorePlugin::ScoreNodes(state, pod, nodes, scores);
}

Status VolumeBinding::Reserve(framework::CycleState& state, const framework::PodInfo& pod, Symbol node) {
  auto* s = state.Mutable<VolumeBindingState>(StateKey());
  if (s == nullptr) return StateNotFound();
  if (s->claims == nullptr || !handle_.RunsFilter(Name())) {
    // The pod has no claims, or (upstream's Reserve finding no volumes its
    // Filter recorded for the node) the profile disabled our Filter: the
    // claims are taken as bound and nothing is written.
    s->all_bound = true;
    return Status();
  }
  const framework::NodeInfo* info = handle_.snapshot().Get(node);
  if (info == nullptr) return NoPodVolumeForNode(node);
  volumebinding::PodVolumes volumes;
  if (Status found = volumebinding::FindPodVolumes(*s->claims, *info, &volumes); !found.IsSuccess()) {
    // Filter admitted the node on the same inputs, so this cannot happen.
    return NoPodVolumeForNode(node);
  }
  auto all_bound = volumebinding::AssumePodVolumes(pod.pod(), node, volumes, cache_);
  if (!all_bound.ok()) return Status::Error(std::string(all_bound.status().message()));
  s->all_bound = *all_bound;
  s->reserved_node = node;
  s->node_labels = info->labels();
  s->volumes = std::move(volumes);
  return Status();
}

void VolumeBinding::Unreserve(framework::CycleState& state, const framework::PodInfo& /*pod*/, Symbol node) {
  auto* s = state.Mutable<VolumeBindingState>(StateKey());
  if (s == nullptr || s->reserved_node != node) return;
  volumebinding::RevertAssumedPodVolumes(s->volumes, cache_);
}

Status VolumeBinding::PreBind(framework::CycleState& state, const framework::PodInfo& pod, Symbol node) {
  auto* s = state.Mutable<VolumeBindingState>(StateKey());
  if (s == nullptr) return StateNotFound();
  if (s->all_bound) return Status();
  if (s->reserved_node != node) return NoPodVolumeForNode(node);
  framework::ClusterClient* client = handle_.client();
  if (client == nullptr) return Status::Error("binding volumes: no ClusterClient to write volumes through");
  absl::Status bound =
      volumebinding::BindPodVolumes(pod.pod(), node, s->node_labels, s->volumes, *client, handle_.objects(),
                                    bind_timeout_);
  if (!bound.ok()) return Status::Error(std::string(bound.message()));
  return Status();
}

Status VolumeBinding::PreBindPreFlight(const framework::CycleState& state, const framework::PodInfo& /*pod*/,
                                       Symbol node) const {
  const auto* s = state.Read<VolumeBindingState>(StateKey());
  if (s == nullptr) return StateNotFound();
  if (s->all_bound) return Status::Skip();
  if (s->reserved_node != node) return NoPodVolumeForNode(node);
  return Status();
}

namespace {

using framework::EventObjects;
using framework::QueueingHint;

bool TopologiesEqual(const api::v1::StorageClass& a, const api::v1::StorageClass& b) {
  if (a.allowed_topologies_size() != b.allowed_topologies_size()) return false;
  for (int i = 0; i < a.allowed_topologies_size(); ++i) {
    if (a.allowed_topologies(i).SerializeAsString() != b.allowed_topologies(i).SerializeAsString()) return false;
  }
  return true;
}

}  // namespace

std::vector<framework::ClusterEventWithHint> VolumeBinding::EventsToRegister() const {
  using framework::EventResource;
  using Hint = absl::StatusOr<QueueingHint>;
  // Queueing hints are on (GA) in v1.37, so UpdateNodeTaint is not needed.
  return {
      {{EventResource::Of<api::v1::StorageClass>(), framework::kActionAdd | framework::kActionUpdate, "StorageClass"},
       [](const framework::PodInfo&, const EventObjects& e) -> Hint {
         if (e.New<api::v1::StorageClass>() == nullptr) return absl::InvalidArgumentError("expected a StorageClass");
         if (e.Old<api::v1::StorageClass>() == nullptr) return QueueingHint::kQueue;
         return TopologiesEqual(*e.Old<api::v1::StorageClass>(), *e.New<api::v1::StorageClass>()) ? QueueingHint::kSkip
                                                                            : QueueingHint::kQueue;
       }},
      {{EventResource::Of<api::v1::PersistentVolumeClaim>(), framework::kActionAdd | framework::kActionUpdate,
        "PersistentVolumeClaim"},
       [](const framework::PodInfo& pod, const EventObjects& e) -> Hint {
         if (e.New<api::v1::PersistentVolumeClaim>() == nullptr) return absl::InvalidArgumentError("expected a PersistentVolumeClaim");
         return internal::PodUsesClaim(pod.pod(), *e.New<api::v1::PersistentVolumeClaim>(), /*with_ephemeral=*/true) ? QueueingHint::kQueue
                                                                                       : QueueingHint::kSkip;
       }},
      {{EventResource::Of<api::v1::PersistentVolume>(), framework::kActionAdd | framework::kActionUpdate, "PersistentVolume"},
       {}},
      {{EventResource::Node(), framework::kActionAdd | framework::kActionUpdateNodeLabel, "Node"}, {}},
      {{EventResource::Of<api::v1::CSINode>(), framework::kActionAdd | framework::kActionUpdate, "CSINode"},
       [](const framework::PodInfo&, const EventObjects& e) -> Hint {
         if (e.Old<api::v1::CSINode>() == nullptr) return QueueingHint::kQueue;
         if (e.New<api::v1::CSINode>() == nullptr) return absl::InvalidArgumentError("expected a CSINode");
         // Only a change of the migrated plugins can change what Filter sees.
         static const std::string kMigrated = "storage.alpha.kubernetes.io/migrated-plugins";
         auto annotation = [](const api::v1::CSINode& n) {
           auto it = n.metadata().annotations().find(kMigrated);
           return it == n.metadata().annotations().end() ? std::string() : it->second;
         };
         return annotation(*e.Old<api::v1::CSINode>()) != annotation(*e.New<api::v1::CSINode>()) ? QueueingHint::kQueue
                                                                          : QueueingHint::kSkip;
       }},
      {{EventResource::Of<api::v1::CSIDriver>(), framework::kActionUpdate, "CSIDriverUpdate"},
       [](const framework::PodInfo& pod, const EventObjects& e) -> Hint {
         if (e.Old<api::v1::CSIDriver>() == nullptr || e.New<api::v1::CSIDriver>() == nullptr) {
           return absl::InvalidArgumentError("expected the old and new CSIDriver");
         }
         for (const api::v1::Volume& v : pod.pod().spec().volumes()) {
           if (!v.has_csi() || v.csi().driver() != e.New<api::v1::CSIDriver>()->metadata().name()) continue;
           // Capacity tracking turned off can only free the pod.
           const auto& was = e.Old<api::v1::CSIDriver>()->spec();
           const auto& now = e.New<api::v1::CSIDriver>()->spec();
           if (was.has_storage_capacity() && was.storage_capacity() &&
               !(now.has_storage_capacity() && now.storage_capacity())) {
             return QueueingHint::kQueue;
           }
         }
         return QueueingHint::kSkip;
       }},
      {{EventResource::Of<api::v1::CSIStorageCapacity>(), framework::kActionAdd | framework::kActionUpdate,
        "CSIStorageCapacity"},
       [](const framework::PodInfo&, const EventObjects& e) -> Hint {
         if (e.New<api::v1::CSIStorageCapacity>() == nullptr) return absl::InvalidArgumentError("expected a CSIStorageCapacity");
         if (e.Old<api::v1::CSIStorageCapacity>() == nullptr) return QueueingHint::kQueue;
         const std::optional<int64_t> was = volumebinding::CapacityLimit(*e.Old<api::v1::CSIStorageCapacity>());
         const std::optional<int64_t> now = volumebinding::CapacityLimit(*e.New<api::v1::CSIStorageCapacity>());
         return now && (!was || *now > *was) ? QueueingHint::kQueue : QueueingHint::kSkip;
       }},
  };
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewVolumeBinding(const framework::PluginArgs& args,
                                                                    framework::Handle& handle) {
  SCHEDKIT_ASSIGN_OR_RETURN(VolumeBindingArgs parsed, ParseVolumeBindingArgs(args));
  return std::make_unique<VolumeBinding>(parsed, handle);
}

framework::Status VolumeBinding::SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const {
  signature.Add(framework::kVolumesSigner, VolumesSignature(pod));
  return framework::Status();
}

}  // namespace schedkit::plugins
