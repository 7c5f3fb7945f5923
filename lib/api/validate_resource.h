// Internal: the field checks the resource.k8s.io kinds share (driver, pool,
// device and request names, qualified attribute names, selectors, opaque
// configuration, device taints and tolerations), as the API server's
// pkg/apis/resource/validation does them. Each returns InvalidArgument
// "<field.path>: <problem>" (see validate_fields.h), the first problem found.
#ifndef SCHEDKIT_LIB_API_VALIDATE_RESOURCE_H_
#define SCHEDKIT_LIB_API_VALIDATE_RESOURCE_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "google/protobuf/repeated_ptr_field.h"
#include "schedkit/api/v1/resource_types.pb.h"

namespace schedkit::api::internal {

// resource.k8s.io's limits (pkg/apis/resource/types.go, v1.37).
inline constexpr size_t kDriverNameMaxLength = 63;
inline constexpr size_t kDeviceMaxIdLength = 32;
inline constexpr size_t kDeviceAttributeMaxValueLength = 64;
inline constexpr size_t kCELSelectorExpressionMaxLength = 10 * 1024;
inline constexpr size_t kOpaqueParametersMaxLength = 10 * 1024;
inline constexpr int kDeviceSelectorsMaxSize = 32;
inline constexpr int kDeviceConfigMaxSize = 32;
inline constexpr int kDeviceTolerationsMaxLength = 16;

// A driver name: a lowercase DNS-1123 subdomain of at most 63 bytes.
absl::Status ValidateDriverName(std::string_view path, const std::string& driver);
// A DNS-1123 label (a device, request or counter name).
absl::Status ValidateDns1123Label(std::string_view path, const std::string& name);
// A pool name: at most 253 bytes of '/'-separated DNS-1123 subdomains.
absl::Status ValidatePoolName(std::string_view path, const std::string& name);
// A qualified name: a C identifier, or "<driver name>/<C identifier>".
absl::Status ValidateQualifiedName(std::string_view path, const std::string& name);
// A qualified name that has its domain.
absl::Status ValidateFullyQualifiedName(std::string_view path, const std::string& name);
absl::Status ValidateSelectors(std::string_view path, const google::protobuf::RepeatedPtrField<v1::DeviceSelector>& selectors);
absl::Status ValidateOpaqueConfiguration(std::string_view path, const v1::OpaqueDeviceConfiguration& opaque);
absl::Status ValidateDeviceTaint(std::string_view path, const v1::DeviceTaint& taint);
absl::Status ValidateDeviceToleration(std::string_view path, const v1::DeviceToleration& toleration);
// A claim's spec.devices (a ResourceClaim's or a template's).
absl::Status ValidateDeviceClaim(std::string_view path, const v1::DeviceClaim& claim);
// The API server's defaults for a claim spec: a request's allocationMode
// ExactCount and then count 1, a toleration's operator Equal.
void ApplyDeviceClaimDefaults(v1::DeviceClaim& claim);

}  // namespace schedkit::api::internal

#endif  // SCHEDKIT_LIB_API_VALIDATE_RESOURCE_H_
