// storage.k8s.io/v1 CSINode, named as its node: the kind's message (v1/csi_node.proto) and its traits.
// Code that reads the kind includes this header rather than the generated one.
#ifndef SCHEDKIT_API_V1_CSI_NODE_H_
#define SCHEDKIT_API_V1_CSI_NODE_H_

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/csi_node.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::CSINode> {
  static constexpr KindName kName = {.group = "storage.k8s.io", .version = "v1", .kind = "CSINode",
                                     .resource = "csinodes", .namespaced = false};
  static absl::Status Validate(const v1::CSINode& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_CSI_NODE_H_
