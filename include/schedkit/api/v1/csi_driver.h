// storage.k8s.io/v1 CSIDriver: the kind's message (v1/csi_driver.proto) and its traits.
// Code that reads the kind includes this header rather than the generated one.
#ifndef SCHEDKIT_API_V1_CSI_DRIVER_H_
#define SCHEDKIT_API_V1_CSI_DRIVER_H_

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/csi_driver.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::CSIDriver> {
  static constexpr KindName kName = {.group = "storage.k8s.io", .version = "v1", .kind = "CSIDriver",
                                     .resource = "csidrivers", .namespaced = false};
  static absl::Status Validate(const v1::CSIDriver& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_CSI_DRIVER_H_
