#include "plugins/dynamicresources/binding_conditions.h"

#include <string>

#include "api/go_format.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::plugins::dynamicresources {
namespace {

const api::v1::AllocatedDeviceStatus* DeviceStatusOf(const api::v1::ResourceClaim& claim,
                                                     const api::v1::DeviceRequestAllocationResult& result) {
  for (const api::v1::AllocatedDeviceStatus& d : claim.status().devices()) {
    if (d.device() == result.device() && d.driver() == result.driver() && d.pool() == result.pool()) return &d;
  }
  return nullptr;
}

const api::v1::Condition* FindCondition(const api::v1::AllocatedDeviceStatus& status, const std::string& type) {
  for (const api::v1::Condition& c : status.conditions()) {
    if (c.type() == type) return &c;
  }
  return nullptr;
}

bool IsTrue(const api::v1::AllocatedDeviceStatus& status, const std::string& type) {
  const api::v1::Condition* c = FindCondition(status, type);
  return c != nullptr && c->status() == "True";
}

}  // namespace

absl::StatusOr<bool> IsClaimReadyForBinding(const api::v1::ResourceClaim& claim) {
  if (!claim.status().has_allocation()) return false;
  for (const api::v1::DeviceRequestAllocationResult& r : claim.status().allocation().devices().results()) {
    if (r.binding_conditions().empty()) continue;
    const api::v1::AllocatedDeviceStatus* status = DeviceStatusOf(claim, r);
    if (status == nullptr) return false;
    for (const std::string& failure : r.binding_failure_conditions()) {
      const api::v1::Condition* c = FindCondition(*status, failure);
      if (c != nullptr && c->status() == "True") {
        return absl::FailedPreconditionError(schedkit::StrCat("device binding failed: claim=", claim.metadata().name(),
                                                              ", reason=", c->reason(),
                                                              ", message=", GoQuote(c->message())));
      }
    }
    for (const std::string& condition : r.binding_conditions()) {
      if (!IsTrue(*status, condition)) return false;
    }
  }
  return true;
}

bool IsClaimBindingTimedOut(const api::v1::ResourceClaim& claim, absl::Duration timeout, absl::Time now) {
  if (!claim.status().has_allocation()) return false;
  const std::string& stamp = claim.status().allocation().allocation_timestamp();
  if (stamp.empty()) return false;
  absl::Time allocated;
  std::string err;
  if (!absl::ParseTime(absl::RFC3339_full, stamp, &allocated, &err)) return false;
  for (const api::v1::DeviceRequestAllocationResult& r : claim.status().allocation().devices().results()) {
    if (r.binding_conditions().empty()) continue;
    if (allocated + timeout < now) return true;
  }
  return false;
}

bool HasBindingConditions(const api::v1::ResourceClaim& claim) {
  if (!claim.status().has_allocation()) return false;
  for (const api::v1::DeviceRequestAllocationResult& r : claim.status().allocation().devices().results()) {
    if (!r.binding_conditions().empty()) return true;
  }
  return false;
}

}  // namespace schedkit::plugins::dynamicresources
