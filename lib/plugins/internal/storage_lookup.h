// Internal to the plugins: the volume plugins' reads of the storage objects,
// as upstream's informer listers answer them. A miss is absl NotFound with
// the API server's text ("persistentvolumeclaim \"data\" not found"), which
// upstream's plugins turn into UnschedulableAndUnresolvable; NotFoundStatus
// does that here.
#ifndef SCHEDKIT_LIB_PLUGINS_INTERNAL_STORAGE_LOOKUP_H_
#define SCHEDKIT_LIB_PLUGINS_INTERNAL_STORAGE_LOOKUP_H_

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "schedkit/api/v1/persistent_volume.h"
#include "schedkit/api/v1/persistent_volume_claim.h"
#include "schedkit/api/v1/storage_class.h"
#include "schedkit/api/object_store.h"
#include "schedkit/framework/status.h"

namespace schedkit::plugins::internal {

absl::StatusOr<std::shared_ptr<const api::v1::PersistentVolumeClaim>> GetClaim(const api::ObjectLister& objects,
                                                                                std::string_view namespace_name,
                                                                                std::string_view name);
absl::StatusOr<std::shared_ptr<const api::v1::PersistentVolume>> GetVolume(const api::ObjectLister& objects,
                                                                            std::string_view name);
absl::StatusOr<std::shared_ptr<const api::v1::StorageClass>> GetClass(const api::ObjectLister& objects,
                                                                      std::string_view name);

// A lookup error as upstream's plugins return it: NotFound →
// UnschedulableAndUnresolvable with the text, anything else → Error.
framework::Status LookupStatus(const absl::Status& error);

// The claim's class: the beta annotation volume.beta.kubernetes.io/storage-class
// when present, else spec.storageClassName ("" for none).
const std::string& ClaimClass(const api::v1::PersistentVolumeClaim& claim);

// The claim a pod volume uses: a persistentVolumeClaim's name, or a generic
// ephemeral volume's "<pod>-<volume>"; empty for other sources.
std::string ClaimNameOf(const api::v1::Pod& pod, const api::v1::Volume& volume);

// Whether `pod`, in the claim's namespace, uses `claim` through a
// persistentVolumeClaim volume, or also through an ephemeral one when
// `with_ephemeral` (the plugins' PersistentVolumeClaim/Add hints differ so).
bool PodUsesClaim(const api::v1::Pod& pod, const api::v1::PersistentVolumeClaim& claim, bool with_ephemeral);

// Upstream's ephemeral.VolumeIsForPod: OK when the pod controls the claim,
// else FailedPrecondition "PVC <ns>/<claim> was not created for pod
// <ns>/<pod> (pod is not owner)".
absl::Status CheckClaimIsForPod(const api::v1::PersistentVolumeClaim& claim, const api::v1::Pod& pod);

// The API server's access-mode check (v1helper.ContainsAccessMode).
template <typename Modes>
bool HasAccessMode(const Modes& modes, std::string_view mode) {
  for (const auto& m : modes) {
    if (m == mode) return true;
  }
  return false;
}

}  // namespace schedkit::plugins::internal

#endif  // SCHEDKIT_LIB_PLUGINS_INTERNAL_STORAGE_LOOKUP_H_
