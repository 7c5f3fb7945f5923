// policy/v1 PodDisruptionBudget: the kind's message (v1/pod_disruption_budget.proto) and its traits.
// Code that reads the kind includes this header rather than the generated one.
#ifndef SCHEDKIT_API_V1_POD_DISRUPTION_BUDGET_H_
#define SCHEDKIT_API_V1_POD_DISRUPTION_BUDGET_H_

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/pod_disruption_budget.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::PodDisruptionBudget> {
  static constexpr KindName kName = {.group = "policy", .version = "v1", .kind = "PodDisruptionBudget",
                                     .resource = "poddisruptionbudgets", .namespaced = true};
  static absl::Status Validate(const v1::PodDisruptionBudget& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_POD_DISRUPTION_BUDGET_H_
