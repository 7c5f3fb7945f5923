#include "plugins/nodevolumelimits/csi.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "plugins/internal/storage_lookup.h"
#include "schedkit/api/str_cat.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::Status;

Symbol StateKey() {
  static const Symbol key = Symbol::Intern("PreFilterNodeVolumeLimits");
  return key;
}

// The pod's own volumes, or the error resolving them, computed once.
struct PodVolumesState : framework::StateData {
  Status error;
  NodeVolumeLimits::Volumes volumes;
  // The pod's inline in-tree disks as their CSI drivers' volumes, counted
  // only on nodes with a CSINode (where upstream turns CSI migration on).
  NodeVolumeLimits::Volumes inline_volumes;
  std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<PodVolumesState>(*this); }
};

// Upstream stands an unbound claim for a volume "<prefix>-<ns>/<claim>", the
// prefix random per plugin instance so that it never equals a real handle.
constexpr std::string_view kUnboundPrefix = "schedkit-unbound";

bool UsesClaim(const api::v1::Volume& v) { return v.has_persistent_volume_claim() || v.has_ephemeral(); }

// The CSI volume an inline GCE PD or AWS EBS disk migrates to (upstream's
// csi-translation-lib): "<driver>/<handle>" and the driver, or an error for
// an EBS volume ID it cannot translate. Other sources: nothing.
Status InlineVolume(const api::v1::Volume& v, NodeVolumeLimits::Volumes& out) {
  if (v.has_gce_persistent_disk()) {
    constexpr std::string_view kDriver = "pd.csi.storage.gke.io";
    out[schedkit::StrCat(kDriver, "/projects/UNSPECIFIED/zones/UNSPECIFIED/disks/", v.gce_persistent_disk().pd_name())] =
        std::string(kDriver);
  } else if (v.has_aws_elastic_block_store()) {
    constexpr std::string_view kDriver = "ebs.csi.aws.com";
    std::string_view id = v.aws_elastic_block_store().volume_id();
    std::string handle(id);
    if (id.starts_with("aws://")) {
      // aws://<zone>/<vol-id>: the URL's path, which must be a vol- ID.
      std::string_view rest = id.substr(6);
      const size_t slash = rest.find('/');
      std::string_view path = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
      while (!path.empty() && path.front() == '/') path.remove_prefix(1);
      while (!path.empty() && path.back() == '/') path.remove_suffix(1);
      if (!path.starts_with("vol-") || path.find('/') != std::string_view::npos) {
        return Status::Error(schedkit::StrCat("converting volume(", v.name(),
                                              ") from inline to csi: failed to translate Kubernetes ID to EBS "
                                              "Volume ID Invalid format for AWS volume (",
                                              id, ")"));
      }
      handle = std::string(path);
    }
    out[schedkit::StrCat(kDriver, "/", handle)] = std::string(kDriver);
  }
  return Status();
}

}  // namespace

std::string_view NodeVolumeLimits::Name() const { return names::kNodeVolumeLimits; }

Status NodeVolumeLimits::AttachableVolumes(const api::v1::Pod& pod, bool new_pod, Volumes& out,
                                           Volumes* inline_out) const {
  const framework::ClusterClient* client = handle_.client();
  const std::string& ns = pod.metadata().namespace_();
  for (const api::v1::Volume& v : pod.spec().volumes()) {
    if (!UsesClaim(v)) {
      // Inline in-tree disks count only through CSI migration.
      if (inline_out != nullptr) {
        if (Status st = InlineVolume(v, *inline_out); !st.IsSuccess()) return st;
      }
      continue;
    }
    const std::string claim_name = internal::ClaimNameOf(pod, v);
    if (claim_name.empty()) {
      static const Symbol no_name = Symbol::Intern("PersistentVolumeClaim had no name");
      return Status(Code::kError, no_name);
    }
    auto claim = internal::GetClaim(client, ns, claim_name);
    if (!claim.ok()) {
      if (!new_pod) continue;  // no guarantee the claim belongs to the running pod
      return internal::LookupStatus(absl::Status(
          claim.status().code(), schedkit::StrCat("looking up PVC ", ns, "/", claim_name, ": ",
                                                  claim.status().message())));
    }
    const api::v1::PersistentVolumeClaim& c = **claim;
    if (v.has_ephemeral()) {
      if (absl::Status owned = internal::CheckClaimIsForPod(c, pod); !owned.ok()) {
        return Status::Error(std::string(owned.message()));
      }
    }
    // Upstream's getCSIDriverInfo: the bound CSI volume, else the class.
    std::string driver, handle;
    const std::string& pv_name = c.spec().volume_name();
    std::shared_ptr<const api::v1::PersistentVolume> pv;
    if (!pv_name.empty()) pv = internal::GetVolume(client, pv_name).value_or(nullptr);
    if (pv != nullptr) {
      if (!pv->spec().has_csi()) continue;
      driver = pv->spec().csi().driver();
      handle = pv->spec().csi().volume_handle();
    } else {
      const std::string& class_name = internal::ClaimClass(c);
      if (class_name.empty()) continue;
      auto sc = internal::GetClass(client, class_name);
      if (!sc.ok()) continue;
      driver = (*sc)->provisioner();
      handle = schedkit::StrCat(kUnboundPrefix, "-", ns, "/", claim_name);
    }
    if (driver.empty() || handle.empty()) continue;
    out[schedkit::StrCat(driver, "/", handle)] = driver;
  }
  return Status();
}

framework::PreFilterPlugin::Result NodeVolumeLimits::PreFilter(
    framework::CycleState& state, const framework::PodInfo& pod,
    std::span<const framework::NodeInfo* const> /*nodes*/) {
  bool relevant = false;
  for (const api::v1::Volume& v : pod.pod().spec().volumes()) {
    relevant = relevant || UsesClaim(v) || v.has_gce_persistent_disk() || v.has_aws_elastic_block_store();
  }
  if (!relevant) return {{}, Status::Skip()};
  auto s = std::make_unique<PodVolumesState>();
  s->error = AttachableVolumes(pod.pod(), /*new_pod=*/true, s->volumes, &s->inline_volumes);
  state.Write(StateKey(), std::move(s));
  return {{}, Status()};
}

Status NodeVolumeLimits::Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                                const framework::NodeInfo& node) const {
  if (pod.pod().spec().volumes().empty()) return Status();
  // Upstream's Filter reads no state; without it, resolve here.
  PodVolumesState computed;
  const PodVolumesState* s = state.Read<PodVolumesState>(StateKey());
  if (s == nullptr) {
    computed.error = AttachableVolumes(pod.pod(), /*new_pod=*/true, computed.volumes, &computed.inline_volumes);
    s = &computed;
  }
  if (!s->error.IsSuccess()) return s->error;
  if (s->volumes.empty() && s->inline_volumes.empty()) return Status();

  const framework::ClusterClient* client = handle_.client();
  auto csi_node = client != nullptr ? client->GetCSINode(node.name().str()) : nullptr;
  if (csi_node == nullptr) return Status();
  absl::flat_hash_map<std::string, int64_t> limits;
  for (const api::v1::CSINodeDriver& d : csi_node->spec().drivers()) {
    if (d.allocatable().has_count()) limits[d.name()] = d.allocatable().count();
  }
  if (limits.empty()) return Status();

  Volumes attached;
  for (const framework::PodInfoPtr& existing : node.pods()) {
    if (Status st = AttachableVolumes(existing->pod(), /*new_pod=*/false, attached, &attached);
        !st.IsSuccess()) {
      // Upstream returns an existing pod's error as an Error status.
      return Status::Error(std::string(st.Message()));
    }
  }
  Volumes fresh = s->volumes;
  fresh.insert(s->inline_volumes.begin(), s->inline_volumes.end());
  absl::flat_hash_map<std::string, int64_t> attached_count;
  for (const auto& [name, driver] : attached) {
    fresh.erase(name);  // a volume shared with a pod on the node is attached once
    ++attached_count[driver];
  }
  // VolumeAttachments to the node of CSI volumes no pod on it uses.
  for (const auto& va : client->ListVolumeAttachments()) {
    if (va->spec().node_name() != node.name().str() || va->spec().attacher().empty() ||
        !va->spec().source().has_persistent_volume_name()) {
      continue;
    }
    auto pv = internal::GetVolume(client, va->spec().source().persistent_volume_name());
    if (!pv.ok() || !(*pv)->spec().has_csi()) continue;
    const std::string name = schedkit::StrCat(va->spec().attacher(), "/", (*pv)->spec().csi().volume_handle());
    if (!attached.contains(name)) ++attached_count[va->spec().attacher()];
  }
  absl::flat_hash_map<std::string, int64_t> new_count;
  for (const auto& [name, driver] : fresh) ++new_count[driver];
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
      {{EventResource::kCSINode, framework::kActionAdd, "CSINodeAdd"}, {}},
      {{EventResource::kCSINode, framework::kActionUpdate, "CSINodeUpdate"},
       [](const framework::PodInfo&, const EventObjects& e) -> Hint {
         if (e.old_csi_node == nullptr || e.new_csi_node == nullptr) {
           return absl::InvalidArgumentError("unexpected objects in isSchedulableAfterCSINodeUpdated");
         }
         absl::flat_hash_map<std::string, int32_t> was;
         for (const auto& d : e.old_csi_node->spec().drivers()) was[d.name()] = d.allocatable().count();
         for (const auto& d : e.new_csi_node->spec().drivers()) {
           auto it = was.find(d.name());
           const int32_t old_limit = it == was.end() ? 0 : it->second;
           if (d.allocatable().count() > old_limit) return QueueingHint::kQueue;
         }
         return QueueingHint::kSkip;
       }},
      {{EventResource::kPod, framework::kActionDelete, "PodDelete"}, &NodeVolumeLimits::IsSchedulableAfterPodDeleted},
      {{EventResource::kPersistentVolumeClaim, framework::kActionAdd, "PersistentVolumeClaimAdd"},
       [](const framework::PodInfo& pod, const EventObjects& e) -> Hint {
         if (e.new_pvc == nullptr) return absl::InvalidArgumentError("unexpected objects in isSchedulableAfterPVCAdded");
         return internal::PodUsesClaim(pod.pod(), *e.new_pvc, /*with_ephemeral=*/true) ? QueueingHint::kQueue
                                                                                       : QueueingHint::kSkip;
       }},
      {{EventResource::kVolumeAttachment, framework::kActionDelete, "VolumeAttachmentDelete"},
       [](const framework::PodInfo& pod, const EventObjects&) -> Hint {
         // A pod with a claim may have waited for the attachment's slot;
         // inline disks would need CSI migration (not modelled).
         for (const api::v1::Volume& v : pod.pod().spec().volumes()) {
           if (v.has_persistent_volume_claim()) return QueueingHint::kQueue;
         }
         return QueueingHint::kSkip;
       }},
  };
}

absl::StatusOr<framework::QueueingHint> NodeVolumeLimits::IsSchedulableAfterPodDeleted(
    const framework::PodInfo& /*pod*/, const framework::EventObjects& event) {
  const api::v1::Pod* deleted = event.old_pod;
  if (deleted == nullptr) {
    return absl::InvalidArgumentError(
        "unexpected objects in isSchedulableAfterPodDeleted: expected the deleted pod, got none");
  }
  if (deleted->spec().volumes().empty()) return framework::QueueingHint::kSkip;
  if (deleted->spec().node_name().empty() && deleted->status().nominated_node_name().empty()) {
    return framework::QueueingHint::kSkip;
  }
  for (const api::v1::Volume& v : deleted->spec().volumes()) {
    if (UsesClaim(v) || v.has_gce_persistent_disk() || v.has_aws_elastic_block_store()) {
      return framework::QueueingHint::kQueue;
    }
  }
  return framework::QueueingHint::kSkip;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeVolumeLimits(const framework::PluginArgs& /*args*/,
                                                                       framework::Handle& handle) {
  return std::make_unique<NodeVolumeLimits>(handle);
}

}  // namespace schedkit::plugins
