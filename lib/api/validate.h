// Internal: the helpers of per-object validation, in the spirit of the API
// server's, so that nothing the scheduler later compiles can be malformed.
// Each kind's own check is its traits' Validate (validate.cc,
// validate_storage.cc). Errors read "<field.path>: <problem>".
#ifndef SCHEDKIT_LIB_API_VALIDATE_H_
#define SCHEDKIT_LIB_API_VALIDATE_H_

#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "schedkit/api/v1/pod.h"

namespace schedkit::api::internal {

// A claim's spec (a PVC's, or an ephemeral volume's template) under `path`.
absl::Status ValidateClaimSpec(std::string_view path, const v1::PersistentVolumeClaimSpec& spec);
// A pod's spec.volumes.
absl::Status ValidatePodVolumes(const google::protobuf::RepeatedPtrField<v1::Volume>& volumes);

// RFC 3339 as Kubernetes writes it ("2024-05-01T10:00:00Z").
absl::StatusOr<absl::Time> ParseTimestamp(std::string_view text);

}  // namespace schedkit::api::internal

#endif  // SCHEDKIT_LIB_API_VALIDATE_H_
