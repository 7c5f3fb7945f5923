// storage.k8s.io/v1 CSIStorageCapacity: the kind's message (v1/csi_storage_capacity.proto) and its traits.
// Code that reads the kind includes this header rather than the generated one.
#ifndef SCHEDKIT_API_V1_CSI_STORAGE_CAPACITY_H_
#define SCHEDKIT_API_V1_CSI_STORAGE_CAPACITY_H_

#include <string_view>

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/csi_storage_capacity.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::CSIStorageCapacity> {
  static constexpr KindName kName = {.group = "storage.k8s.io", .version = "v1", .kind = "CSIStorageCapacity",
                                     .resource = "csistoragecapacities", .namespaced = true};
  // VolumeBinding reads the capacities of one storage class.
  static constexpr std::string_view kByStorageClass = "storageClassName";
  static constexpr IndexSpec<v1::CSIStorageCapacity> kIndexes[] = {
      {kByStorageClass, [](const v1::CSIStorageCapacity& c) -> std::string_view { return c.storage_class_name(); }}};
  static absl::Status Validate(const v1::CSIStorageCapacity& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_CSI_STORAGE_CAPACITY_H_
