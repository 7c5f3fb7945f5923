#include "plugins/volumerestrictions/volume_restrictions.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "plugins/internal/signers.h"
#include "plugins/internal/storage_lookup.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::Status;

Symbol StateKey() {
  static const Symbol key = Symbol::Intern("PreFilterVolumeRestrictions");
  return key;
}

Symbol ReasonReadWriteOncePodConflict() {
  static const Symbol reason = Symbol::Intern(VolumeRestrictions::kErrReasonReadWriteOncePodConflict);
  return reason;
}

Symbol ReasonDiskConflict() {
  static const Symbol reason = Symbol::Intern(VolumeRestrictions::kErrReasonDiskConflict);
  return reason;
}

Status StateNotFound() {
  static const Symbol text = Symbol::Intern("cannot read \"PreFilterVolumeRestrictions\" from cycleState");
  return Status(Code::kError, text);
}

Status UpdateWithPod(framework::CycleState& state, const framework::PodInfo& pod, int multiplier) {
  auto* s = state.Mutable<VolumeRestrictionsState>(StateKey());
  if (s == nullptr) return StateNotFound();
  s->conflicting_pvc_ref_count += multiplier * s->ConflictingRefsOf(pod);
  return Status();
}

bool IsDisk(const api::v1::Volume& v) {
  return v.has_gce_persistent_disk() || v.has_aws_elastic_block_store() || v.has_rbd() || v.has_iscsi();
}

// An RBD volume's pool, with the API server's default.
const std::string& RbdPool(const api::v1::RBDVolumeSource& rbd) {
  static const std::string kDefault = "rbd";
  return rbd.has_pool() ? rbd.pool() : kDefault;
}

bool SharesMonitor(const api::v1::RBDVolumeSource& a, const api::v1::RBDVolumeSource& b) {
  for (const std::string& m : a.monitors()) {
    for (const std::string& n : b.monitors()) {
      if (m == n) return true;
    }
  }
  return false;
}

// Whether any of the pod's disk volumes conflicts with one of `existing`'s.
bool PodDisksConflict(const api::v1::Pod& pod, const api::v1::Pod& existing) {
  if (existing.spec().volumes().empty()) return false;
  for (const api::v1::Volume& v : pod.spec().volumes()) {
    if (IsDisk(v) && DiskConflicts(v, existing)) return true;
  }
  return false;
}

}  // namespace

bool DiskConflicts(const api::v1::Volume& volume, const api::v1::Pod& existing) {
  for (const api::v1::Volume& e : existing.spec().volumes()) {
    if (volume.has_gce_persistent_disk() && e.has_gce_persistent_disk()) {
      const auto& a = volume.gce_persistent_disk();
      const auto& b = e.gce_persistent_disk();
      if (a.pd_name() == b.pd_name() && !(a.read_only() && b.read_only())) return true;
    }
    if (volume.has_aws_elastic_block_store() && e.has_aws_elastic_block_store() &&
        volume.aws_elastic_block_store().volume_id() == e.aws_elastic_block_store().volume_id()) {
      return true;
    }
    if (volume.has_iscsi() && e.has_iscsi()) {
      const auto& a = volume.iscsi();
      const auto& b = e.iscsi();
      if (a.iqn() == b.iqn() && !(a.read_only() && b.read_only())) return true;
    }
    if (volume.has_rbd() && e.has_rbd()) {
      const auto& a = volume.rbd();
      const auto& b = e.rbd();
      if (SharesMonitor(a, b) && RbdPool(a) == RbdPool(b) && a.image() == b.image() &&
          !(a.read_only() && b.read_only())) {
        return true;
      }
    }
  }
  return false;
}

int VolumeRestrictionsState::ConflictingRefsOf(const framework::PodInfo& pod) const {
  if (read_write_once_pod_pvcs.empty()) return 0;
  int conflicts = 0;
  for (const api::v1::Volume& v : pod.pod().spec().volumes()) {
    if (v.has_persistent_volume_claim() &&
        read_write_once_pod_pvcs.contains(v.persistent_volume_claim().claim_name())) {
      ++conflicts;
    }
  }
  return conflicts;
}

std::string_view VolumeRestrictions::Name() const { return names::kVolumeRestrictions; }

framework::PreFilterPlugin::Result VolumeRestrictions::PreFilter(
    framework::CycleState& state, const framework::PodInfo& pod,
    std::span<const framework::NodeInfo* const> /*nodes*/) {
  auto s = std::make_unique<VolumeRestrictionsState>();
  const api::v1::Pod& p = pod.pod();
  const api::ObjectLister& objects = handle_.objects();
  for (const api::v1::Volume& v : p.spec().volumes()) {
    s->check_disks = s->check_disks || IsDisk(v);
    if (!v.has_persistent_volume_claim()) continue;
    auto claim = internal::GetClaim(objects, p.metadata().namespace_(), v.persistent_volume_claim().claim_name());
    if (!claim.ok()) return {{}, internal::LookupStatus(claim.status())};
    if (internal::HasAccessMode((*claim)->spec().access_modes(), "ReadWriteOncePod")) {
      s->read_write_once_pod_pvcs.insert((*claim)->metadata().name());
    }
  }
  // Upstream counts each ReadWriteOncePod claim that pods in the snapshot use
  // (its StorageInfos().IsPVCUsedByPods), once per claim.
  if (!s->read_write_once_pod_pvcs.empty()) {
    absl::flat_hash_set<std::string> used;
    for (const framework::NodeInfo* node : handle_.snapshot().nodes()) {
      for (const framework::PodInfoPtr& other : node->pods()) {
        if (other->pod().metadata().namespace_() != p.metadata().namespace_()) continue;
        for (const api::v1::Volume& v : other->pod().spec().volumes()) {
          if (!v.has_persistent_volume_claim()) continue;
          const std::string& name = v.persistent_volume_claim().claim_name();
          if (s->read_write_once_pod_pvcs.contains(name)) used.insert(name);
        }
      }
    }
    s->conflicting_pvc_ref_count = static_cast<int>(used.size());
  }
  if (!s->check_disks && s->conflicting_pvc_ref_count == 0) return {{}, Status::Skip()};
  state.Write(StateKey(), std::move(s));
  return {{}, Status()};
}

Status VolumeRestrictions::AddPod(framework::CycleState& state, const framework::PodInfo& /*pod_to_schedule*/,
                                  const framework::PodInfo& pod_to_add,
                                  const framework::NodeInfo& /*node*/) const {
  return UpdateWithPod(state, pod_to_add, 1);
}

Status VolumeRestrictions::RemovePod(framework::CycleState& state,
                                     const framework::PodInfo& /*pod_to_schedule*/,
                                     const framework::PodInfo& pod_to_remove,
                                     const framework::NodeInfo& /*node*/) const {
  return UpdateWithPod(state, pod_to_remove, -1);
}

Status VolumeRestrictions::Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                                  const framework::NodeInfo& node) const {
  const auto* s = state.Read<VolumeRestrictionsState>(StateKey());
  // Upstream checks disks before reading the state; without state there are
  // disks only if PreFilter was skipped, which it is not when there are.
  if (s != nullptr && s->check_disks) {
    for (const framework::PodInfoPtr& existing : node.pods()) {
      if (PodDisksConflict(pod.pod(), existing->pod())) return Status(Code::kUnschedulable, ReasonDiskConflict());
    }
  }
  if (s == nullptr) return StateNotFound();
  if (s->conflicting_pvc_ref_count > 0) return Status(Code::kUnschedulable, ReasonReadWriteOncePodConflict());
  return Status();
}

std::vector<framework::ClusterEventWithHint> VolumeRestrictions::EventsToRegister() const {
  // Queueing hints are on (GA) in v1.37, so Node/Add suffices.
  return {
      {{framework::EventResource::AssignedPod(), framework::kActionDelete, "AssignedPodDelete"},
       &VolumeRestrictions::IsSchedulableAfterPodDeleted},
      {{framework::EventResource::Node(), framework::kActionAdd, "NodeAdd"}, {}},
      {{framework::EventResource::Of<api::v1::PersistentVolumeClaim>(), framework::kActionAdd, "PersistentVolumeClaimAdd"},
       &VolumeRestrictions::IsSchedulableAfterClaimAdded},
  };
}

absl::StatusOr<framework::QueueingHint> VolumeRestrictions::IsSchedulableAfterPodDeleted(
    const framework::PodInfo& pod, const framework::EventObjects& event) {
  const api::v1::Pod* deleted = event.Old<api::v1::Pod>();
  if (deleted == nullptr) {
    return absl::InvalidArgumentError(
        "unexpected objects in isSchedulableAfterPodDeleted: expected the deleted pod, got none");
  }
  if (deleted->metadata().namespace_() != pod.namespace_().str()) return framework::QueueingHint::kSkip;
  if (PodDisksConflict(pod.pod(), *deleted)) return framework::QueueingHint::kQueue;
  // A deleted pod sharing a PVC may have held it with ReadWriteOncePod.
  for (const api::v1::Volume& dv : deleted->spec().volumes()) {
    if (!dv.has_persistent_volume_claim()) continue;
    for (const api::v1::Volume& v : pod.pod().spec().volumes()) {
      if (v.has_persistent_volume_claim() &&
          v.persistent_volume_claim().claim_name() == dv.persistent_volume_claim().claim_name()) {
        return framework::QueueingHint::kQueue;
      }
    }
  }
  return framework::QueueingHint::kSkip;
}

absl::StatusOr<framework::QueueingHint> VolumeRestrictions::IsSchedulableAfterClaimAdded(
    const framework::PodInfo& pod, const framework::EventObjects& event) {
  const api::v1::PersistentVolumeClaim* claim = event.New<api::v1::PersistentVolumeClaim>();
  if (claim == nullptr) {
    return absl::InvalidArgumentError(
        "unexpected objects in isSchedulableAfterPersistentVolumeClaimChange: expected the new claim, got none");
  }
  return internal::PodUsesClaim(pod.pod(), *claim, /*with_ephemeral=*/false) ? framework::QueueingHint::kQueue
                                                                             : framework::QueueingHint::kSkip;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewVolumeRestrictions(const framework::PluginArgs& /*args*/,
                                                                         framework::Handle& handle) {
  return std::make_unique<VolumeRestrictions>(handle);
}

framework::Status VolumeRestrictions::SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const {
  signature.Add(framework::kVolumesSigner, VolumesSignature(pod));
  return framework::Status();
}

}  // namespace schedkit::plugins
