// resource.k8s.io/v1 DeviceTaintRule (a taint on the devices a selector picks): the kind's
// message (v1/device_taint_rule.proto) and its traits. Code that reads the kind includes this header rather than the
// generated one.
#ifndef SCHEDKIT_API_V1_DEVICE_TAINT_RULE_H_
#define SCHEDKIT_API_V1_DEVICE_TAINT_RULE_H_

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/device_taint_rule.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::DeviceTaintRule> {
  static constexpr KindName kName = {.group = "resource.k8s.io", .version = "v1", .kind = "DeviceTaintRule",
                                     .resource = "devicetaintrules", .namespaced = false};
  static absl::Status Validate(const v1::DeviceTaintRule& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_DEVICE_TAINT_RULE_H_
