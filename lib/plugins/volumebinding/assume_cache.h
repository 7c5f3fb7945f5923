// The PersistentVolumes and claims as VolumeBinding sees them: the
// scheduler's objects (read through the ClusterClient) with the bindings
// Reserve assumed laid over them, as upstream's PV and PVC assume caches.
// An assumption stands until the scheduler holds a newer object than the
// one it was made on (the host reported the write back, or anything else
// changed the object), or until Restore drops it after a failed binding.
//
//   AssumeCache cache(handle);
//   cache.AssumeVolume(bound_to_claim);        // Reserve
//   cache.GetVolume("pv-1");                   // the assumed copy, for other pods
//   cache.RestoreVolume(bound_to_claim);       // Unreserve
//
// Thread-safe: Reserve and reads run on the scheduling thread, Restore also
// on binding threads.
#ifndef SCHEDKIT_LIB_PLUGINS_VOLUMEBINDING_ASSUME_CACHE_H_
#define SCHEDKIT_LIB_PLUGINS_VOLUMEBINDING_ASSUME_CACHE_H_

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "schedkit/api/v1/persistent_volume.h"
#include "schedkit/api/v1/persistent_volume_claim.h"
#include "schedkit/framework/handle.h"

namespace schedkit::plugins::volumebinding {

class AssumeCache {
 public:
  explicit AssumeCache(const framework::Handle& handle) : handle_(handle) {}

  // The latest object: the assumed one while it stands, else the scheduler's
  // (null when it holds none).
  std::shared_ptr<const api::v1::PersistentVolume> GetVolume(std::string_view name) const;
  std::shared_ptr<const api::v1::PersistentVolumeClaim> GetClaim(std::string_view namespace_name,
                                                                 std::string_view name) const;
  // The latest PersistentVolumes of `class_name` (the beta class annotation
  // first, as upstream's index), sorted by name. Upstream lists them in map
  // order, so only ties it breaks at random can differ.
  std::vector<std::shared_ptr<const api::v1::PersistentVolume>> ListVolumes(std::string_view class_name) const;

  // Lays `object` over the scheduler's object of the same name, which must
  // exist (NotFound otherwise) and have the same resourceVersion
  // (FailedPrecondition otherwise: the assumption would be made on data the
  // scheduler no longer holds).
  absl::Status AssumeVolume(std::shared_ptr<const api::v1::PersistentVolume> pv);
  absl::Status AssumeClaim(std::shared_ptr<const api::v1::PersistentVolumeClaim> claim);
  // Drops the assumption of `object`'s name when it is `object` or has its
  // resourceVersion (non-empty), as upstream. Another pod's later assumption
  // on a newer version stays, and so does this one when `object` is what the
  // API server stored for it (the write landed; the scheduler will hold it).
  void RestoreVolume(const std::shared_ptr<const api::v1::PersistentVolume>& pv);
  void RestoreClaim(const std::shared_ptr<const api::v1::PersistentVolumeClaim>& claim);

 private:
  template <typename T>
  struct Assumed {
    std::shared_ptr<const T> base;  // the scheduler's object when assumed
    std::shared_ptr<const T> assumed;
  };

  const framework::Handle& handle_;
  mutable std::mutex mu_;
  absl::flat_hash_map<std::string, Assumed<api::v1::PersistentVolume>> volumes_ ABSL_GUARDED_BY(mu_);
  // By "namespace/name".
  absl::flat_hash_map<std::string, Assumed<api::v1::PersistentVolumeClaim>> claims_ ABSL_GUARDED_BY(mu_);
};

// The volume's class: the beta annotation volume.beta.kubernetes.io/storage-class
// when present, else spec.storageClassName.
const std::string& VolumeClass(const api::v1::PersistentVolume& pv);

}  // namespace schedkit::plugins::volumebinding

#endif  // SCHEDKIT_LIB_PLUGINS_VOLUMEBINDING_ASSUME_CACHE_H_
