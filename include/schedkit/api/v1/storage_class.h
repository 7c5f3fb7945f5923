// storage.k8s.io/v1 StorageClass: the kind's message (v1/storage_class.proto) and its traits.
// Code that reads the kind includes this header rather than the generated one.
#ifndef SCHEDKIT_API_V1_STORAGE_CLASS_H_
#define SCHEDKIT_API_V1_STORAGE_CLASS_H_

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/storage_class.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::StorageClass> {
  static constexpr KindName kName = {.group = "storage.k8s.io", .version = "v1", .kind = "StorageClass",
                                     .resource = "storageclasses", .namespaced = false};
  static void ApplyDefaults(v1::StorageClass& object);
  static absl::Status Validate(const v1::StorageClass& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_STORAGE_CLASS_H_
