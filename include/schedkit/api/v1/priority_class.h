// scheduling.k8s.io/v1 PriorityClass: the kind's message (v1/priority_class.proto) and its traits.
// Code that reads the kind includes this header rather than the generated one.
#ifndef SCHEDKIT_API_V1_PRIORITY_CLASS_H_
#define SCHEDKIT_API_V1_PRIORITY_CLASS_H_

#include <string_view>

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/priority_class.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::PriorityClass> {
  static constexpr KindName kName = {.group = "scheduling.k8s.io", .version = "v1", .kind = "PriorityClass",
                                     .resource = "priorityclasses", .namespaced = false};
  // Admission resolves a pod's priority from it; kube-scheduler reads the
  // pod's spec.priority instead, so it neither holds nor watches the kind.
  static constexpr bool kSchedulerReads = false;
  static absl::Status Validate(const v1::PriorityClass& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_PRIORITY_CLASS_H_
