#include "plugins/internal/storage_lookup.h"

#include <string>

#include "schedkit/api/str_cat.h"

namespace schedkit::plugins::internal {
namespace {

// The API server's NotFound text: `<resource>[.<group>] "<name>" not found`.
absl::Status NotFound(std::string_view resource, std::string_view name) {
  return absl::NotFoundError(schedkit::StrCat(resource, " \"", name, "\" not found"));
}

}  // namespace

absl::StatusOr<std::shared_ptr<const api::v1::PersistentVolumeClaim>> GetClaim(
    const framework::ClusterClient* client, std::string_view namespace_name, std::string_view name) {
  auto claim = client != nullptr ? client->GetPersistentVolumeClaim(namespace_name, name) : nullptr;
  if (claim == nullptr) return NotFound("persistentvolumeclaim", name);
  return claim;
}

absl::StatusOr<std::shared_ptr<const api::v1::PersistentVolume>> GetVolume(const framework::ClusterClient* client,
                                                                            std::string_view name) {
  auto volume = client != nullptr ? client->GetPersistentVolume(name) : nullptr;
  if (volume == nullptr) return NotFound("persistentvolume", name);
  return volume;
}

absl::StatusOr<std::shared_ptr<const api::v1::StorageClass>> GetClass(const framework::ClusterClient* client,
                                                                      std::string_view name) {
  auto sc = client != nullptr ? client->GetStorageClass(name) : nullptr;
  if (sc == nullptr) return NotFound("storageclass.storage.k8s.io", name);
  return sc;
}

framework::Status LookupStatus(const absl::Status& error) {
  if (absl::IsNotFound(error)) {
    return framework::Status::WithText(framework::Code::kUnschedulableAndUnresolvable, std::string(error.message()));
  }
  return framework::Status::Error(std::string(error.message()));
}

const std::string& ClaimClass(const api::v1::PersistentVolumeClaim& claim) {
  const auto& annotations = claim.metadata().annotations();
  if (auto it = annotations.find("volume.beta.kubernetes.io/storage-class"); it != annotations.end()) {
    return it->second;
  }
  return claim.spec().storage_class_name();
}

}  // namespace schedkit::plugins::internal
