// core/v1 PersistentVolumeClaim: the kind's message (v1/persistent_volume_claim.proto) and its traits.
// Code that reads the kind includes this header rather than the generated one.
#ifndef SCHEDKIT_API_V1_PERSISTENT_VOLUME_CLAIM_H_
#define SCHEDKIT_API_V1_PERSISTENT_VOLUME_CLAIM_H_

#include "absl/status/status.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/v1/persistent_volume_claim.pb.h"

namespace schedkit::api {

template <>
struct KindTraits<v1::PersistentVolumeClaim> {
  static constexpr KindName kName = {.group = "", .version = "v1", .kind = "PersistentVolumeClaim",
                                     .resource = "persistentvolumeclaims", .namespaced = true};
  static absl::Status Validate(const v1::PersistentVolumeClaim& object);
};

}  // namespace schedkit::api

#endif  // SCHEDKIT_API_V1_PERSISTENT_VOLUME_CLAIM_H_
