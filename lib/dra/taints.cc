// Device taints and the request's tolerations (DRADeviceTaints): a device
// with a NoSchedule or NoExecute taint is allocated only to requests that
// tolerate it. DeviceTaintRules reach the allocator as taints the slice
// tracker already wrote into the slices.
#include "dra/allocator_internal.h"

namespace schedkit::dra::internal {
namespace {

// Upstream's resourceclaim.ToleratesTaint: an empty effect or key matches
// any; an empty operator means Equal.
bool Tolerates(const api::v1::DeviceToleration& t, const api::v1::DeviceTaint& taint) {
  if (!t.effect().empty() && t.effect() != taint.effect()) return false;
  if (!t.key().empty() && t.key() != taint.key()) return false;
  if (t.operator_().empty() || t.operator_() == "Equal") return t.value() == taint.value();
  return t.operator_() == "Exists";
}

}  // namespace

bool TaintPreventsAllocation(const api::v1::Device& device,
                             const google::protobuf::RepeatedPtrField<api::v1::DeviceToleration>& tolerations) {
  for (const api::v1::DeviceTaint& taint : device.taints()) {
    // Only the known effects keep a device from being allocated; None and
    // future effects do not.
    if (taint.effect() != "NoSchedule" && taint.effect() != "NoExecute") continue;
    bool tolerated = false;
    for (const api::v1::DeviceToleration& t : tolerations) tolerated = tolerated || Tolerates(t, taint);
    if (!tolerated) return true;
  }
  return false;
}

}  // namespace schedkit::dra::internal
