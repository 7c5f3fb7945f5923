// core/v1 Node: the kind's message (v1/node.proto) and its traits.
// Code that reads the kind includes this header rather than the generated one.
#ifndef SCHEDKIT_API_V1_NODE_H_
#define SCHEDKIT_API_V1_NODE_H_

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/node.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::Node> {
  static constexpr KindName kName = {.group = "", .version = "v1", .kind = "Node",
                                     .resource = "nodes", .namespaced = false};
  static absl::Status Validate(const v1::Node& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_NODE_H_
