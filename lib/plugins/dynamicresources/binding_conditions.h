// Internal: the binding conditions of allocated devices (DRA's device
// binding, on with v1.37's DRADeviceBindingConditions and
// DRAResourceClaimDeviceStatus): a device whose allocation result lists
// binding conditions is ready once the driver has set each of them True in
// the claim's status.devices, and has failed once one of its binding failure
// conditions is True. Pure functions; any thread.
#ifndef SCHEDKIT_LIB_PLUGINS_DYNAMICRESOURCES_BINDING_CONDITIONS_H_
#define SCHEDKIT_LIB_PLUGINS_DYNAMICRESOURCES_BINDING_CONDITIONS_H_

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "schedkit/api/v1/resource_claim.h"

namespace schedkit::plugins::dynamicresources {

// Whether every device of the claim's allocation is ready (true also for an
// allocation without binding conditions; false without an allocation).
// FailedPrecondition "device binding failed: claim=<name>, reason=<r>,
// message=\"<m>\"" when a failure condition is True (upstream's
// ErrDeviceBindingFailed).
absl::StatusOr<bool> IsClaimReadyForBinding(const api::v1::ResourceClaim& claim);

// Whether some device with binding conditions has waited past `timeout`
// since status.allocation.allocationTimestamp (none: never).
bool IsClaimBindingTimedOut(const api::v1::ResourceClaim& claim, absl::Duration timeout, absl::Time now);

// Whether any result of the claim's allocation has binding conditions.
bool HasBindingConditions(const api::v1::ResourceClaim& claim);

}  // namespace schedkit::plugins::dynamicresources

#endif  // SCHEDKIT_LIB_PLUGINS_DYNAMICRESOURCES_BINDING_CONDITIONS_H_
