// Internal: what the API server's validation refuses in the DRA kinds that needs CEL,
// which the api layer's decoding cannot check: every device selector (of a
// DeviceClass, a ResourceClaim, a ResourceClaimTemplate) must compile in the
// selector environment of DynamicResources (the stored-expressions one of
// k8s.io/dynamic-resource-allocation's cel package, v1.37.2).
//
// The in-tree registry adds it as an objects check (Registry::AddObjectsCheck),
// so hosts that read files run it after decoding.
//
// The error is one line naming the file and document, the object and the
// field, with the API server's words, e.g.
//   claims.yaml: document 2 (ResourceClaim default/gpu): spec.devices.requests[0].exactly.selectors[0].cel.expression:
//   Invalid value: "device.foo": compilation failed: ERROR: <input>:1:7: undefined field 'foo'
// (cel-go's caret lines are left out to keep it one line). The estimated cost
// limit the API server also checks is not.
//
// Thread-safe; compiles each distinct expression once per call.
#ifndef SCHEDKIT_LIB_PLUGINS_DYNAMICRESOURCES_VALIDATE_SELECTORS_H_
#define SCHEDKIT_LIB_PLUGINS_DYNAMICRESOURCES_VALIDATE_SELECTORS_H_

#include "absl/status/status.h"
#include "schedkit/api/decode.h"

namespace schedkit::plugins {

// InvalidArgument for the first selector, in object order, that does not compile.
absl::Status ValidateDeviceSelectors(const api::DecodedCluster& cluster);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_DYNAMICRESOURCES_VALIDATE_SELECTORS_H_
