#include "plugins/nodevolumelimits/csi.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "plugins/internal/signers.h"
#include "plugins/internal/storage_lookup.h"
#include "plugins/nodevolumelimits/csi_translation.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::Status;

Symbol StateKey() {
  static const Symbol key = Symbol::Intern("PreFilterNodeVolumeLimits");
  return key;
}

// The pod's own volumes, or the errors resolving them, computed once.
struct PodVolumesState : framework::StateData {
  NodeVolumeLimits::PodVolumes volumes;
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PodVolumesState>(*this);
  }
};

// Upstream stands an unbound claim for a volume "<prefix>-<ns>/<claim>", the
// prefix random per plugin instance so that it never equals a real handle.
constexpr std::string_view kUnboundPrefix = "schedkit-unbound";

bool UsesClaim(const api::v1::Volume& v) { return v.has_persistent_volume_claim() || v.has_ephemeral(); }
bool IsInlineMigratable(const api::v1::Volume& v) {
  return v.has_gce_persistent_disk() || v.has_aws_elastic_block_store();
}

// The map of `out` for volumes migrated as `plugin` is; null when never.
NodeVolumeLimits::Volumes* MigratedMap(const csi_translation::InTreePlugin& plugin,
                                       NodeVolumeLimits::PodVolumes& out) {
  switch (plugin.on) {
    case csi_translation::MigratedOn::kCSINode:
      return &out.migrated;
    case csi_translation::MigratedOn::kNever:
      break;
  }
  return nullptr;
}

// Upstream's TranslateInTreeInlineVolumeToCSI for the inline sources
// schedkit has: the CSI handle of an inline GCE PD or AWS EBS disk.
absl::StatusOr<std::string> InlineHandle(const api::v1::Volume& v) {
  if (v.has_gce_persistent_disk()) {
    return csi_translation::GCEPDInlineHandle(v.gce_persistent_disk().pd_name());
  }
  auto id = csi_translation::EBSVolumeID(v.aws_elastic_block_store().volume_id());
  if (!id.ok()) {
    return absl::InvalidArgumentError(schedkit::StrCat("converting volume(", v.name(),
                                                       ") from inline to csi: failed to translate Kubernetes "
                                                       "ID to EBS Volume ID ",
                                                       id.status().message()));
  }
  return id;
}

std::string_view InlineDriver(const api::v1::Volume& v) {
  return v.has_gce_persistent_disk() ? csi_translation::kGCEPDDriver : csi_translation::kAWSEBSDriver;
}

// Upstream's getCSIDriverInfo for a bound claim's PV: its CSI source, or the
// CSI volume an in-tree GCE PD or AWS EBS source translates to (migrated
// wherever a CSINode is). Nothing (empty driver) for other sources and for
// sources that do not translate, which upstream drops without an error.
struct BoundVolume {
  std::string driver, handle;
  bool migrated = false;  // an in-tree source: counts only with a CSINode
};
BoundVolume ResolveBound(const api::v1::PersistentVolume& pv) {
  const api::v1::PersistentVolumeSpec& spec = pv.spec();
  if (spec.has_csi()) return {spec.csi().driver(), spec.csi().volume_handle()};
  absl::StatusOr<std::string> handle;
  std::string_view driver;
  if (spec.has_gce_persistent_disk()) {
    handle = csi_translation::GCEPDVolumeHandle(pv);
    driver = csi_translation::kGCEPDDriver;
  } else if (spec.has_aws_elastic_block_store()) {
    handle = csi_translation::EBSVolumeID(spec.aws_elastic_block_store().volume_id());
    driver = csi_translation::kAWSEBSDriver;
  } else {
    return {};
  }
  if (!handle.ok()) return {};
  return {std::string(driver), *std::move(handle), /*migrated=*/true};
}

}  // namespace

std::string_view NodeVolumeLimits::Name() const { return names::kNodeVolumeLimits; }

void NodeVolumeLimits::AttachableVolumes(const api::v1::Pod& pod, bool new_pod, PodVolumes& out) const {
  const api::ObjectLister& objects = handle_.objects();
  const std::string& ns = pod.metadata().namespace_();
  for (const api::v1::Volume& v : pod.spec().volumes()) {
    if (!UsesClaim(v)) {
      if (!IsInlineMigratable(v)) continue;
      auto handle = InlineHandle(v);
      if (handle.ok()) {
        const std::string_view driver = InlineDriver(v);
        out.migrated[schedkit::StrCat(driver, "/", *handle)] = std::string(driver);
      } else if (out.migration_error.IsSuccess()) {
        // Only nodes with a CSINode translate, so a node without one goes on
        // to the next volume: the scan does too.
        out.migration_error = Status::Error(std::string(handle.status().message()));
      }
      continue;
    }
    const std::string claim_name = internal::ClaimNameOf(pod, v);
    if (claim_name.empty()) {
      static const Symbol no_name = Symbol::Intern("PersistentVolumeClaim had no name");
      out.error = Status(Code::kError, no_name);
      return;
    }
    auto claim = internal::GetClaim(objects, ns, claim_name);
    if (!claim.ok()) {
      if (!new_pod) continue;  // no guarantee the claim belongs to the running pod
      out.error = internal::LookupStatus(absl::Status(
          claim.status().code(), schedkit::StrCat("looking up PVC ", ns, "/", claim_name, ": ",
                                                  claim.status().message())));
      return;
    }
    const api::v1::PersistentVolumeClaim& c = **claim;
    if (v.has_ephemeral()) {
      if (absl::Status owned = internal::CheckClaimIsForPod(c, pod); !owned.ok()) {
        out.error = Status::Error(std::string(owned.message()));
        return;
      }
    }
    // Upstream's getCSIDriverInfo: the bound volume, else the class.
    Volumes* target = &out.volumes;
    std::string driver, handle;
    const std::string& pv_name = c.spec().volume_name();
    std::shared_ptr<const api::v1::PersistentVolume> pv;
    if (!pv_name.empty()) pv = internal::GetVolume(objects, pv_name).value_or(nullptr);
    if (pv != nullptr) {
      BoundVolume bound = ResolveBound(*pv);
      driver = std::move(bound.driver);
      handle = std::move(bound.handle);
      if (bound.migrated) target = &out.migrated;
    } else {
      const std::string& class_name = internal::ClaimClass(c);
      if (class_name.empty()) continue;
      auto sc = internal::GetClass(objects, class_name);
      if (!sc.ok()) continue;
      driver = (*sc)->provisioner();
      if (const auto* in_tree = csi_translation::FindInTreePlugin(driver)) {
        target = MigratedMap(*in_tree, out);
        if (target == nullptr) continue;
        driver = std::string(in_tree->driver);
      }
      handle = schedkit::StrCat(kUnboundPrefix, "-", ns, "/", claim_name);
    }
    if (driver.empty() || handle.empty()) continue;
    std::string name = schedkit::StrCat(driver, "/", handle);
    (*target)[std::move(name)] = std::move(driver);
  }
}

framework::PreFilterPlugin::Result NodeVolumeLimits::PreFilter(
    framework::CycleState& state, const framework::PodInfo& pod,
    std::span<const framework::NodeInfo* const> /*nodes*/) {
  bool relevant = false;
  for (const api::v1::Volume& v : pod.pod().spec().volumes()) {
    relevant = relevant || UsesClaim(v) || IsInlineMigratable(v);
  }
  if (!relevant) return {{}, Status::Skip()};
  auto s = std::make_unique<PodVolumesState>();
  AttachableVolumes(pod.pod(), /*new_pod=*/true, s->volumes);
  RequireInstalled(s->volumes);
  state.Write(StateKey(), std::move(s));
  return {{}, Status()};
}

void NodeVolumeLimits::RequireInstalled(PodVolumes& own) const {
  if (!require_installed_) return;
  const api::ObjectLister& objects = handle_.objects();
  auto collect = [&](const Volumes& volumes, std::vector<std::string>& out) {
    for (const auto& [name, driver] : volumes) {
      if (std::find(out.begin(), out.end(), driver) != out.end()) continue;
      auto d = objects.Get<api::v1::CSIDriver>(driver);
      if (d != nullptr && d->spec().has_prevent_pod_scheduling_if_missing() &&
          d->spec().prevent_pod_scheduling_if_missing()) {
        out.push_back(driver);
      }
    }
    std::sort(out.begin(), out.end());
  };
  collect(own.volumes, own.required);
  collect(own.migrated, own.required_migrated);
}

Status NodeVolumeLimits::Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                                const framework::NodeInfo& node) const {
  if (pod.pod().spec().volumes().empty()) return Status();
  // Upstream's Filter reads no state; without it, resolve here.
  PodVolumesState computed;
  const PodVolumesState* state_data = state.Read<PodVolumesState>(StateKey());
  if (state_data == nullptr) {
    AttachableVolumes(pod.pod(), /*new_pod=*/true, computed.volumes);
    RequireInstalled(computed.volumes);
    state_data = &computed;
  }
  const PodVolumes& own = state_data->volumes;
  // Decided without the node: an error every node returns, or nothing to
  // count anywhere.
  if (own.migration_error.IsSuccess()) {
    if (!own.error.IsSuccess()) return own.error;
    if (own.Empty()) return Status();
  }

  const api::ObjectLister& objects = handle_.objects();
  auto csi_node = objects.Get<api::v1::CSINode>(node.name().str());
  if (const Status& error = own.ErrorOn(csi_node != nullptr); !error.IsSuccess()) return error;
  // Without a CSINode nothing migrates.
  if (own.volumes.empty() && (csi_node == nullptr || own.migrated.empty())) return Status();
  // VolumeLimitScaling: the drivers that ask must be on the node.
  auto installed = [&](const std::string& driver) {
    if (csi_node == nullptr) return false;
    for (const api::v1::CSINodeDriver& d : csi_node->spec().drivers()) {
      if (d.name() == driver) return true;
    }
    return false;
  };
  auto not_installed = [](const std::string& driver) {
    return Status::WithText(Code::kUnschedulable, schedkit::StrCat(driver, " CSI driver is not installed on the node"));
  };
  for (const std::string& driver : own.required) {
    if (!installed(driver)) return not_installed(driver);
  }
  if (csi_node != nullptr) {
    for (const std::string& driver : own.required_migrated) {
      if (!installed(driver)) return not_installed(driver);
    }
  }
  // Without a CSINode no driver has a limit.
  if (csi_node == nullptr) return Status();
  absl::flat_hash_map<std::string_view, int64_t> limits;
  for (const api::v1::CSINodeDriver& d : csi_node->spec().drivers()) {
    if (d.allocatable().has_count()) limits[d.name()] = d.allocatable().count();
  }
  if (limits.empty()) return Status();

  PodVolumes on_node;
  for (const framework::PodInfoPtr& existing : node.pods()) {
    AttachableVolumes(existing->pod(), /*new_pod=*/false, on_node);
    if (const Status& error = on_node.ErrorOn(true); !error.IsSuccess()) {
      // Upstream returns an existing pod's error as an Error status.
      return Status::Error(std::string(error.Message()));
    }
  }
  Volumes& attached = on_node.volumes;
  attached.insert(on_node.migrated.begin(), on_node.migrated.end());
  absl::flat_hash_map<std::string_view, int64_t> attached_count;
  for (const auto& [name, driver] : attached) ++attached_count[driver];
  // VolumeAttachments to the node of CSI volumes no pod on it uses.
  const auto attachments = objects.ListBy<api::v1::VolumeAttachment>(
      api::KindTraits<api::v1::VolumeAttachment>::kByNode, node.name().str());
  for (const auto& va : attachments) {
    if (va->spec().attacher().empty() || !va->spec().source().has_persistent_volume_name()) continue;
    auto pv = internal::GetVolume(objects, va->spec().source().persistent_volume_name());
    if (!pv.ok() || !(*pv)->spec().has_csi()) continue;
    const std::string name =
        schedkit::StrCat(va->spec().attacher(), "/", (*pv)->spec().csi().volume_handle());
    if (!attached.contains(name)) ++attached_count[va->spec().attacher()];
  }
  // The pod's volumes on this node, each once, less those already attached.
  absl::flat_hash_map<std::string_view, int64_t> new_count;
  for (const auto& [name, driver] : own.volumes) {
    if (!attached.contains(name)) ++new_count[driver];
  }
  for (const auto& [name, driver] : own.migrated) {
    if (!attached.contains(name) && !own.volumes.contains(name)) ++new_count[driver];
  }
  for (const auto& [driver, count] : new_count) {
    auto limit = limits.find(driver);
    if (limit == limits.end()) continue;
    if (attached_count[driver] + count > limit->second) {
      static const Symbol reason = Symbol::Intern(kErrReasonMaxVolumeCountExceeded);
      return Status(Code::kUnschedulable, reason);
    }
  }
  return Status();
}

std::vector<framework::ClusterEventWithHint> NodeVolumeLimits::EventsToRegister() const {
  using framework::EventObjects;
  using framework::EventResource;
  using framework::QueueingHint;
  using Hint = absl::StatusOr<QueueingHint>;
  return {
      // Any new CSINode may free pods that CSI volumes kept out.
      {{EventResource::Of<api::v1::CSINode>(), framework::kActionAdd, "CSINodeAdd"}, {}},
      {{EventResource::Of<api::v1::CSINode>(), framework::kActionUpdate, "CSINodeUpdate"},
       [](const framework::PodInfo&, const EventObjects& e) -> Hint {
         if (e.Old<api::v1::CSINode>() == nullptr || e.New<api::v1::CSINode>() == nullptr) {
           return absl::InvalidArgumentError("unexpected objects in isSchedulableAfterCSINodeUpdated");
         }
         absl::flat_hash_map<std::string, int32_t> was;
         for (const auto& d : e.Old<api::v1::CSINode>()->spec().drivers()) was[d.name()] = d.allocatable().count();
         for (const auto& d : e.New<api::v1::CSINode>()->spec().drivers()) {
           auto it = was.find(d.name());
           const int32_t old_limit = it == was.end() ? 0 : it->second;
           if (d.allocatable().count() > old_limit) return QueueingHint::kQueue;
         }
         return QueueingHint::kSkip;
       }},
      {{EventResource::AssignedPod(), framework::kActionDelete, "AssignedPodDelete"},
       &NodeVolumeLimits::IsSchedulableAfterPodDeleted},
      {{EventResource::Of<api::v1::PersistentVolumeClaim>(), framework::kActionAdd, "PersistentVolumeClaimAdd"},
       [](const framework::PodInfo& pod, const EventObjects& e) -> Hint {
         if (e.New<api::v1::PersistentVolumeClaim>() == nullptr) {
           return absl::InvalidArgumentError("unexpected objects in isSchedulableAfterPVCAdded");
         }
         return internal::PodUsesClaim(pod.pod(), *e.New<api::v1::PersistentVolumeClaim>(), /*with_ephemeral=*/true) ? QueueingHint::kQueue
                                                                                       : QueueingHint::kSkip;
       }},
      {{EventResource::Of<api::v1::VolumeAttachment>(), framework::kActionDelete, "VolumeAttachmentDelete"},
       &NodeVolumeLimits::IsSchedulableAfterVolumeAttachmentDeleted},
  };
}

absl::StatusOr<framework::QueueingHint> NodeVolumeLimits::IsSchedulableAfterPodDeleted(
    const framework::PodInfo& /*pod*/, const framework::EventObjects& event) {
  const api::v1::Pod* deleted = event.Old<api::v1::Pod>();
  if (deleted == nullptr) {
    return absl::InvalidArgumentError(
        "unexpected objects in isSchedulableAfterPodDeleted: expected the deleted pod, got none");
  }
  if (deleted->spec().volumes().empty()) return framework::QueueingHint::kSkip;
  if (deleted->spec().node_name().empty() && deleted->status().nominated_node_name().empty()) {
    return framework::QueueingHint::kSkip;
  }
  for (const api::v1::Volume& v : deleted->spec().volumes()) {
    if (UsesClaim(v) || IsInlineMigratable(v)) return framework::QueueingHint::kQueue;
  }
  return framework::QueueingHint::kSkip;
}

absl::StatusOr<framework::QueueingHint> NodeVolumeLimits::IsSchedulableAfterVolumeAttachmentDeleted(
    const framework::PodInfo& pod, const framework::EventObjects& event) {
  const std::string_view attacher =
      event.Old<api::v1::VolumeAttachment>() != nullptr ? std::string_view(event.Old<api::v1::VolumeAttachment>()->spec().attacher()) : "";
  for (const api::v1::Volume& v : pod.pod().spec().volumes()) {
    // A claim may have waited for the attachment's slot (its driver is not
    // looked up); an ephemeral volume does not queue, as upstream.
    if (v.has_persistent_volume_claim()) return framework::QueueingHint::kQueue;
    if (!IsInlineMigratable(v)) continue;
    auto handle = InlineHandle(v);
    if (!handle.ok()) return handle.status();
    if (InlineDriver(v) == attacher) return framework::QueueingHint::kQueue;
  }
  return framework::QueueingHint::kSkip;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeVolumeLimits(const framework::PluginArgs& args,
                                                                       framework::Handle& handle) {
  return std::make_unique<NodeVolumeLimits>(handle, args.gates().Enabled("VolumeLimitScaling"));
}

framework::Status NodeVolumeLimits::SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const {
  signature.Add(framework::kVolumesSigner, VolumesSignature(pod));
  return framework::Status();
}

}  // namespace schedkit::plugins
