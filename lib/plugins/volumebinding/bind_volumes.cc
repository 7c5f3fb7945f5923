#include "plugins/volumebinding/bind_volumes.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/time/clock.h"
#include "plugins/internal/storage_lookup.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::plugins::volumebinding {
namespace {

constexpr std::string_view kSelectedNode = "volume.kubernetes.io/selected-node";

// Upstream's isVolumeBound for every pod volume (arePodVolumesBound).
bool PodVolumesBound(const api::v1::Pod& pod, const AssumeCache& cache) {
  for (const api::v1::Volume& v : pod.spec().volumes()) {
    if (!v.has_persistent_volume_claim() && !v.has_ephemeral()) continue;
    auto claim = cache.GetClaim(pod.metadata().namespace_(), internal::ClaimNameOf(pod, v));
    if (claim == nullptr || !FullyBound(*claim)) return false;
    if (v.has_ephemeral() && !internal::CheckClaimIsForPod(*claim, pod).ok()) return false;
  }
  return true;
}

// Upstream's GetBindVolumeToClaim: the volume bound to the claim, or null
// when it already is.
std::shared_ptr<const api::v1::PersistentVolume> BindVolumeToClaim(const api::v1::PersistentVolume& pv,
                                                                   const api::v1::PersistentVolumeClaim& claim) {
  const api::v1::ObjectReference& ref = pv.spec().claim_ref();
  const bool bound_to_claim = BoundToClaim(pv, claim);
  bool dirty = false;
  auto out = std::make_shared<api::v1::PersistentVolume>(pv);
  if (!pv.spec().has_claim_ref() || ref.name() != claim.metadata().name() ||
      ref.namespace_() != claim.metadata().namespace_() || ref.uid() != claim.metadata().uid()) {
    api::v1::ObjectReference* r = out->mutable_spec()->mutable_claim_ref();
    r->Clear();
    r->set_kind("PersistentVolumeClaim");
    r->set_api_version("v1");
    r->set_namespace_(claim.metadata().namespace_());
    r->set_name(claim.metadata().name());
    r->set_uid(claim.metadata().uid());
    r->set_resource_version(claim.metadata().resource_version());
    dirty = true;
  }
  auto& annotations = *out->mutable_metadata()->mutable_annotations();
  if (!bound_to_claim && !annotations.contains("pv.kubernetes.io/bound-by-controller")) {
    annotations["pv.kubernetes.io/bound-by-controller"] = "yes";
    dirty = true;
  }
  return dirty ? out : nullptr;
}

// Whether `written` (what the host stored) is newer than `held` (what the
// scheduler holds): then the scheduler has not seen the write yet.
template <typename T>
bool NotSeenYet(const T& written, const T& held) {
  uint64_t w = 0, h = 0;
  if (!absl::SimpleAtoi(written.metadata().resource_version(), &w) ||
      !absl::SimpleAtoi(held.metadata().resource_version(), &h)) {
    return false;
  }
  return w > h;
}

absl::Status NodeAffinityMismatch(const api::v1::PersistentVolume& pv, Symbol node, const api::LabelSet& labels) {
  std::string why = "no matching NodeSelectorTerms";
  if (pv.spec().has_node_affinity() && pv.spec().node_affinity().has_required()) {
    auto selector = api::NodeSelector::Compile(pv.spec().node_affinity().required());
    if (!selector.ok()) {
      why = std::string(selector.status().message());
    } else if (selector->Matches(labels, Symbol::Intern(""))) {
      return absl::OkStatus();
    }
  } else {
    return absl::OkStatus();
  }
  return absl::FailedPreconditionError(schedkit::StrCat("pv \"", pv.metadata().name(),
                                                        "\" node affinity doesn't match node \"", node.str(),
                                                        "\": ", why));
}

// Upstream's checkBindings: true when every claim is fully bound, false
// while the PV controller is still at work, an error when the binding must
// be retried. Reads the scheduler's objects, not assumed ones.
absl::StatusOr<bool> CheckBindings(Symbol node, const api::LabelSet& labels, const PodVolumes& volumes,
                                   const api::ObjectLister& objects) {
  for (const PodVolumes::Binding& b : volumes.static_bindings) {
    const std::string& pv_name = b.pv->metadata().name();
    auto pv = objects.Get<api::v1::PersistentVolume>(pv_name);
    if (pv == nullptr) {
      return absl::NotFoundError(
          schedkit::StrCat("failed to check binding: could not find v1.PersistentVolume \"", pv_name, "\""));
    }
    const std::string& ns = b.claim->metadata().namespace_();
    const std::string& name = b.claim->metadata().name();
    auto claim = objects.Get<api::v1::PersistentVolumeClaim>(ns, name);
    if (claim == nullptr) {
      return absl::NotFoundError(schedkit::StrCat(
          "failed to check binding: could not find v1.PersistentVolumeClaim \"", ns, "/", name, "\""));
    }
    if (NotSeenYet(*b.pv, *pv)) return false;
    if (absl::Status s = NodeAffinityMismatch(*pv, node, labels); !s.ok()) return s;
    if (!pv->spec().has_claim_ref() || pv->spec().claim_ref().uid().empty()) {
      return absl::FailedPreconditionError(schedkit::StrCat("ClaimRef got reset for pv \"", pv_name, "\""));
    }
    if (!FullyBound(*claim)) return false;
  }
  for (const auto& provisioned : volumes.provisions) {
    const std::string& ns = provisioned->metadata().namespace_();
    const std::string& name = provisioned->metadata().name();
    auto claim = objects.Get<api::v1::PersistentVolumeClaim>(ns, name);
    if (claim == nullptr) {
      return absl::NotFoundError(schedkit::StrCat(
          "failed to check provisioning pvc: could not find v1.PersistentVolumeClaim \"", ns, "/", name, "\""));
    }
    if (NotSeenYet(*provisioned, *claim)) return false;
    const auto& annotations = claim->metadata().annotations();
    if (annotations.empty()) {
      return absl::FailedPreconditionError(schedkit::StrCat("selectedNode annotation reset for PVC \"", name, "\""));
    }
    auto it = annotations.find(std::string(kSelectedNode));
    if (it == annotations.end() || it->second != node.str()) {
      // A provisioner that fails removes the annotation to have the pod rescheduled.
      return absl::FailedPreconditionError(schedkit::StrCat("provisioning failed for PVC \"", name, "\""));
    }
    if (!claim->spec().volume_name().empty()) {
      auto pv = objects.Get<api::v1::PersistentVolume>(claim->spec().volume_name());
      if (pv == nullptr) return false;  // not reported yet
      if (absl::Status s = NodeAffinityMismatch(*pv, node, labels); !s.ok()) return s;
    }
    if (!FullyBound(*claim)) return false;
  }
  return true;
}

absl::Status Prefixed(const absl::Status& s) {
  return absl::Status(s.code(), schedkit::StrCat("binding volumes: ", s.message()));
}

}  // namespace

bool FullyBound(const api::v1::PersistentVolumeClaim& claim) {
  return !claim.spec().volume_name().empty() &&
         claim.metadata().annotations().contains("pv.kubernetes.io/bind-completed");
}

absl::StatusOr<bool> AssumePodVolumes(const api::v1::Pod& pod, Symbol node, PodVolumes& volumes,
                                      AssumeCache& cache) {
  if (PodVolumesBound(pod, cache)) return true;
  PodVolumes assumed;
  auto fail = [&](absl::Status s) {
    RevertAssumedPodVolumes(assumed, cache);
    return s;
  };
  for (const PodVolumes::Binding& b : volumes.static_bindings) {
    std::shared_ptr<const api::v1::PersistentVolume> pv = BindVolumeToClaim(*b.pv, *b.claim);
    if (pv != nullptr) {
      if (absl::Status s = cache.AssumeVolume(pv); !s.ok()) return fail(s);
    } else {
      pv = b.pv;
    }
    assumed.static_bindings.push_back({b.claim, std::move(pv)});
  }
  for (const auto& claim : volumes.provisions) {
    auto clone = std::make_shared<api::v1::PersistentVolumeClaim>(*claim);
    (*clone->mutable_metadata()->mutable_annotations())[std::string(kSelectedNode)] = std::string(node.str());
    if (absl::Status s = cache.AssumeClaim(clone); !s.ok()) return fail(s);
    assumed.provisions.push_back(std::move(clone));
  }
  volumes = std::move(assumed);
  return false;
}

void RevertAssumedPodVolumes(const PodVolumes& volumes, AssumeCache& cache) {
  for (const PodVolumes::Binding& b : volumes.static_bindings) cache.RestoreVolume(b.pv);
  for (const auto& claim : volumes.provisions) cache.RestoreClaim(claim);
}

absl::Status BindPodVolumes(const api::v1::Pod& /*pod*/, Symbol node, const api::LabelSet& node_labels,
                            PodVolumes& volumes, framework::ClusterClient& client,
                            const api::ObjectLister& objects, absl::Duration timeout) {
  // Read before writing, so that a change the writes cause is not missed.
  uint64_t generation = objects.Generation();
  for (PodVolumes::Binding& b : volumes.static_bindings) {
    auto stored = client.Update(*b.pv);
    if (!stored.ok()) return stored.status();
    b.pv = *std::move(stored);
  }
  for (auto& claim : volumes.provisions) {
    auto stored = client.Update(*claim);
    if (!stored.ok()) return stored.status();
    claim = *std::move(stored);
  }
  const absl::Time deadline = absl::Now() + timeout;
  while (true) {
    if (absl::Now() >= deadline) return absl::DeadlineExceededError("binding volumes: context deadline exceeded");
    absl::StatusOr<bool> done = CheckBindings(node, node_labels, volumes, objects);
    if (!done.ok()) return Prefixed(done.status());
    if (*done) return absl::OkStatus();
    absl::StatusOr<uint64_t> next = objects.WaitForChange(generation, deadline);
    if (!next.ok()) return Prefixed(next.status());
    generation = *next;
  }
}

}  // namespace schedkit::plugins::volumebinding
