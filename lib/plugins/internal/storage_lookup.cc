#include "plugins/internal/storage_lookup.h"

#include <string>

#include "plugins/internal/controller_of.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::plugins::internal {
namespace {

// The API server's NotFound text: `<resource>[.<group>] "<name>" not found`.
absl::Status NotFound(std::string_view resource, std::string_view name) {
  return absl::NotFoundError(schedkit::StrCat(resource, " \"", name, "\" not found"));
}

}  // namespace

absl::StatusOr<std::shared_ptr<const api::v1::PersistentVolumeClaim>> GetClaim(const api::ObjectLister& objects,
                                                                                std::string_view namespace_name,
                                                                                std::string_view name) {
  auto claim = objects.Get<api::v1::PersistentVolumeClaim>(namespace_name, name);
  if (claim == nullptr) return NotFound("persistentvolumeclaim", name);
  return claim;
}

absl::StatusOr<std::shared_ptr<const api::v1::PersistentVolume>> GetVolume(const api::ObjectLister& objects,
                                                                            std::string_view name) {
  auto volume = objects.Get<api::v1::PersistentVolume>(name);
  if (volume == nullptr) return NotFound("persistentvolume", name);
  return volume;
}

absl::StatusOr<std::shared_ptr<const api::v1::StorageClass>> GetClass(const api::ObjectLister& objects,
                                                                      std::string_view name) {
  auto sc = objects.Get<api::v1::StorageClass>(name);
  if (sc == nullptr) return NotFound("storageclass.storage.k8s.io", name);
  return sc;
}

framework::Status LookupStatus(const absl::Status& error) {
  if (absl::IsNotFound(error)) {
    return framework::Status::WithText(framework::Code::kUnschedulableAndUnresolvable, std::string(error.message()));
  }
  return framework::Status::Error(std::string(error.message()));
}

std::string ClaimNameOf(const api::v1::Pod& pod, const api::v1::Volume& volume) {
  if (volume.has_persistent_volume_claim()) return volume.persistent_volume_claim().claim_name();
  if (volume.has_ephemeral()) return schedkit::StrCat(pod.metadata().name(), "-", volume.name());
  return "";
}

bool PodUsesClaim(const api::v1::Pod& pod, const api::v1::PersistentVolumeClaim& claim, bool with_ephemeral) {
  if (claim.metadata().namespace_() != pod.metadata().namespace_()) return false;
  for (const api::v1::Volume& v : pod.spec().volumes()) {
    if (!v.has_persistent_volume_claim() && !(with_ephemeral && v.has_ephemeral())) continue;
    if (ClaimNameOf(pod, v) == claim.metadata().name()) return true;
  }
  return false;
}

absl::Status CheckClaimIsForPod(const api::v1::PersistentVolumeClaim& claim, const api::v1::Pod& pod) {
  const api::v1::OwnerReference* controller = ControllerOf(claim.metadata());
  if (claim.metadata().namespace_() == pod.metadata().namespace_() && controller != nullptr &&
      controller->uid() == pod.metadata().uid()) {
    return absl::OkStatus();
  }
  return absl::FailedPreconditionError(schedkit::StrCat("PVC ", claim.metadata().namespace_(), "/",
                                                        claim.metadata().name(), " was not created for pod ",
                                                        pod.metadata().namespace_(), "/", pod.metadata().name(),
                                                        " (pod is not owner)"));
}

const std::string& ClaimClass(const api::v1::PersistentVolumeClaim& claim) {
  const auto& annotations = claim.metadata().annotations();
  if (auto it = annotations.find("volume.beta.kubernetes.io/storage-class"); it != annotations.end()) {
    return it->second;
  }
  return claim.spec().storage_class_name();
}

}  // namespace schedkit::plugins::internal
