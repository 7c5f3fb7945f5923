#include "plugins/volumezone/volume_zone.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "plugins/internal/signers.h"
#include "plugins/internal/storage_lookup.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::Status;

Symbol StateKey() {
  static const Symbol key = Symbol::Intern("PreFilterVolumeZone");
  return key;
}

// The labels upstream reads, in its order, with the GA key of each.
struct TopologyLabel {
  Symbol key;
  Symbol ga_key;
};
const std::array<TopologyLabel, 4>& TopologyLabels() {
  static const std::array<TopologyLabel, 4> labels = [] {
    const Symbol zone = Symbol::Intern("topology.kubernetes.io/zone");
    const Symbol region = Symbol::Intern("topology.kubernetes.io/region");
    return std::array<TopologyLabel, 4>{{
        {Symbol::Intern("failure-domain.beta.kubernetes.io/zone"), zone},
        {Symbol::Intern("failure-domain.beta.kubernetes.io/region"), region},
        {zone, zone},
        {region, region},
    }};
  }();
  return labels;
}

struct ZoneState : framework::StateData {
  std::vector<VolumeTopology> topologies;
  std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<ZoneState>(*this); }
};

Status Unresolvable(std::string text) {
  return Status::WithText(Code::kUnschedulableAndUnresolvable, std::move(text));
}

// Upstream's getPVbyPod: the topologies of the pod's bound volumes.
Status PodVolumeTopologies(const api::ObjectLister& objects, const framework::PodInfo& pod,
                           std::vector<VolumeTopology>& out) {
  const api::v1::Pod& p = pod.pod();
  for (const api::v1::Volume& v : p.spec().volumes()) {
    if (!v.has_persistent_volume_claim()) continue;
    const std::string& claim_name = v.persistent_volume_claim().claim_name();
    if (claim_name.empty()) {
      static const Symbol no_name = Symbol::Intern("PersistentVolumeClaim had no name");
      return Status(Code::kUnschedulableAndUnresolvable, no_name);
    }
    auto claim = internal::GetClaim(objects, p.metadata().namespace_(), claim_name);
    if (!claim.ok()) return internal::LookupStatus(claim.status());
    const std::string& pv_name = (*claim)->spec().volume_name();
    if (pv_name.empty()) {
      const std::string& class_name = internal::ClaimClass(**claim);
      if (class_name.empty()) return Unresolvable("PersistentVolumeClaim had no pv name and storageClass name");
      auto sc = internal::GetClass(objects, class_name);
      if (!sc.ok()) return internal::LookupStatus(sc.status());
      if (!(*sc)->has_volume_binding_mode()) {
        return Unresolvable(schedkit::StrCat("VolumeBindingMode not set for StorageClass \"", class_name, "\""));
      }
      if ((*sc)->volume_binding_mode() == "WaitForFirstConsumer") continue;
      return Unresolvable("PersistentVolume had no name");
    }
    auto pv = internal::GetVolume(objects, pv_name);
    if (!pv.ok()) return internal::LookupStatus(pv.status());
    std::vector<VolumeTopology> t = VolumeTopologies(**pv);
    out.insert(out.end(), std::make_move_iterator(t.begin()), std::make_move_iterator(t.end()));
  }
  return Status();
}

}  // namespace

std::vector<VolumeTopology> VolumeTopologies(const api::v1::PersistentVolume& pv) {
  std::vector<VolumeTopology> out;
  const auto& labels = pv.metadata().labels();
  for (const TopologyLabel& label : TopologyLabels()) {
    auto it = labels.find(std::string(label.key.str()));
    if (it == labels.end()) continue;
    VolumeTopology t{label.key, label.ga_key, {}};
    bool valid = true;
    for (absl::string_view zone : absl::StrSplit(it->second, "__")) {
      zone = absl::StripAsciiWhitespace(zone);
      if (zone.empty()) {
        valid = false;
        break;
      }
      t.values.push_back(Symbol::Intern(std::string_view(zone.data(), zone.size())));
    }
    if (!valid) continue;
    std::sort(t.values.begin(), t.values.end(), [](Symbol a, Symbol b) { return a.str() < b.str(); });
    t.values.erase(std::unique(t.values.begin(), t.values.end()), t.values.end());
    out.push_back(std::move(t));
  }
  return out;
}

std::string_view VolumeZone::Name() const { return names::kVolumeZone; }

framework::PreFilterPlugin::Result VolumeZone::PreFilter(
    framework::CycleState& state, const framework::PodInfo& pod,
    std::span<const framework::NodeInfo* const> /*nodes*/) {
  auto s = std::make_unique<ZoneState>();
  Status status = PodVolumeTopologies(handle_.objects(), pod, s->topologies);
  if (!status.IsSuccess()) return {{}, std::move(status)};
  if (s->topologies.empty()) return {{}, Status::Skip()};
  state.Write(StateKey(), std::move(s));
  return {{}, Status()};
}

Status VolumeZone::Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                          const framework::NodeInfo& node) const {
  if (pod.pod().spec().volumes().empty()) return Status();
  const std::vector<VolumeTopology>* topologies = nullptr;
  std::vector<VolumeTopology> recomputed;
  if (const auto* s = state.Read<ZoneState>(StateKey()); s != nullptr) {
    topologies = &s->topologies;
  } else {
    // Upstream's fallback without PreFilter state: compute them here.
    Status status = PodVolumeTopologies(handle_.objects(), pod, recomputed);
    if (!status.IsSuccess()) return status;
    topologies = &recomputed;
  }
  const api::LabelSet& labels = node.labels();
  bool constrained = false;
  for (const TopologyLabel& label : TopologyLabels()) constrained = constrained || labels.Has(label.key);
  // A node without zone or region labels (a single-zone cluster) fits.
  if (!constrained) return Status();
  for (const VolumeTopology& t : *topologies) {
    const Symbol* value = labels.Find(t.key);
    if (value == nullptr) value = labels.Find(t.ga_key);
    if (value == nullptr || std::find(t.values.begin(), t.values.end(), *value) == t.values.end()) {
      static const Symbol conflict = Symbol::Intern(kErrReasonConflict);
      return Status(Code::kUnschedulableAndUnresolvable, conflict);
    }
  }
  return Status();
}

std::vector<framework::ClusterEventWithHint> VolumeZone::EventsToRegister() const {
  using framework::EventResource;
  // Queueing hints are on (GA) in v1.37, so UpdateNodeTaint is not needed.
  return {
      {{EventResource::Of<api::v1::StorageClass>(), framework::kActionAdd, "StorageClassAdd"},
       [](const framework::PodInfo&, const framework::EventObjects& e) -> absl::StatusOr<framework::QueueingHint> {
         if (e.New<api::v1::StorageClass>() == nullptr) {
           return absl::InvalidArgumentError("unexpected objects in isSchedulableAfterStorageClassAdded");
         }
         // Only a WaitForFirstConsumer class can let an unbound claim pass.
         const bool wffc = e.New<api::v1::StorageClass>()->has_volume_binding_mode() &&
                           e.New<api::v1::StorageClass>()->volume_binding_mode() == "WaitForFirstConsumer";
         return wffc ? framework::QueueingHint::kQueue : framework::QueueingHint::kSkip;
       }},
      {{EventResource::Node(), framework::kActionAdd | framework::kActionUpdateNodeLabel, "Node"}, {}},
      {{EventResource::Of<api::v1::PersistentVolumeClaim>(), framework::kActionAdd | framework::kActionUpdate,
        "PersistentVolumeClaim"},
       [](const framework::PodInfo& pod, const framework::EventObjects& e) -> absl::StatusOr<framework::QueueingHint> {
         if (e.New<api::v1::PersistentVolumeClaim>() == nullptr) {
           return absl::InvalidArgumentError("unexpected objects in isSchedulableAfterPersistentVolumeClaimChange");
         }
         return internal::PodUsesClaim(pod.pod(), *e.New<api::v1::PersistentVolumeClaim>(), /*with_ephemeral=*/false)
                    ? framework::QueueingHint::kQueue
                    : framework::QueueingHint::kSkip;
       }},
      {{EventResource::Of<api::v1::PersistentVolume>(), framework::kActionAdd | framework::kActionUpdate, "PersistentVolume"},
       [](const framework::PodInfo&, const framework::EventObjects& e) -> absl::StatusOr<framework::QueueingHint> {
         if (e.New<api::v1::PersistentVolume>() == nullptr) {
           return absl::InvalidArgumentError("unexpected objects in isSchedulableAfterPersistentVolumeChange");
         }
         if (e.Old<api::v1::PersistentVolume>() == nullptr) return framework::QueueingHint::kQueue;
         return VolumeTopologies(*e.Old<api::v1::PersistentVolume>()) != VolumeTopologies(*e.New<api::v1::PersistentVolume>()) ? framework::QueueingHint::kQueue
                                                                           : framework::QueueingHint::kSkip;
       }},
  };
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewVolumeZone(const framework::PluginArgs& /*args*/,
                                                                 framework::Handle& handle) {
  return std::make_unique<VolumeZone>(handle);
}

framework::Status VolumeZone::SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const {
  signature.Add(framework::kVolumesSigner, VolumesSignature(pod));
  return framework::Status();
}

}  // namespace schedkit::plugins
