// resource.k8s.io/v1 ResourceSlice (devices a driver publishes for one pool): the kind's
// message (v1/resource_slice.proto) and its traits. Code that reads the kind includes this header rather than the
// generated one.
#ifndef SCHEDKIT_API_V1_RESOURCE_SLICE_H_
#define SCHEDKIT_API_V1_RESOURCE_SLICE_H_

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/resource_slice.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::ResourceSlice> {
  static constexpr KindName kName = {.group = "resource.k8s.io", .version = "v1", .kind = "ResourceSlice",
                                     .resource = "resourceslices", .namespaced = false};
  static absl::Status Validate(const v1::ResourceSlice& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_RESOURCE_SLICE_H_
