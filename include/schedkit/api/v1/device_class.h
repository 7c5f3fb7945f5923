// resource.k8s.io/v1 DeviceClass: the kind's message (v1/device_class.proto) and its traits.
// Code that reads the kind includes this header rather than the generated one.
#ifndef SCHEDKIT_API_V1_DEVICE_CLASS_H_
#define SCHEDKIT_API_V1_DEVICE_CLASS_H_

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/device_class.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::DeviceClass> {
  static constexpr KindName kName = {.group = "resource.k8s.io", .version = "v1", .kind = "DeviceClass",
                                     .resource = "deviceclasses", .namespaced = false};
  static absl::Status Validate(const v1::DeviceClass& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_DEVICE_CLASS_H_
