// core/v1 PersistentVolume: the kind's message (v1/persistent_volume.proto) and its traits.
// Code that reads the kind includes this header rather than the generated one.
#ifndef SCHEDKIT_API_V1_PERSISTENT_VOLUME_H_
#define SCHEDKIT_API_V1_PERSISTENT_VOLUME_H_

#include <string_view>

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/persistent_volume.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::PersistentVolume> {
  static constexpr KindName kName = {.group = "", .version = "v1", .kind = "PersistentVolume",
                                     .resource = "persistentvolumes", .namespaced = false};
  // VolumeBinding lists the volumes of one storage class: the beta
  // annotation volume.beta.kubernetes.io/storage-class when present, else
  // spec.storageClassName.
  static std::string_view StorageClassOf(const v1::PersistentVolume& pv) {
    const auto& annotations = pv.metadata().annotations();
    if (auto it = annotations.find("volume.beta.kubernetes.io/storage-class"); it != annotations.end()) {
      return it->second;
    }
    return pv.spec().storage_class_name();
  }
  static constexpr std::string_view kByStorageClass = "storageClass";
  static constexpr IndexSpec<v1::PersistentVolume> kIndexes[] = {{kByStorageClass, &StorageClassOf}};
  static absl::Status Validate(const v1::PersistentVolume& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_PERSISTENT_VOLUME_H_
