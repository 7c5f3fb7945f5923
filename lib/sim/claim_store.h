// The simulator's stand-in for the API server's ResourceClaim storage, which
// DynamicResources writes through: PreBind adds the finalizer (an update),
// then status.allocation and status.reservedFor (a status update); PostFilter
// and Unreserve take them back. As the API server: each write names the
// resourceVersion it was made on and fails with a conflict (Aborted) when
// the claim has moved on; an update keeps the stored status and a status
// update keeps the stored metadata and spec; each stored write gets the next
// resourceVersion.
//
//   ClaimStore claims(cluster);                          // every ResourceClaim
//   absl::StatusOr<std::shared_ptr<const ResourceClaim>> stored = claims.UpdateStatus(claim);
//   claims.All();                                        // for the result
//
// Thread-safe: writes come from binding threads and the scheduling thread.
#ifndef SCHEDKIT_LIB_SIM_CLAIM_STORE_H_
#define SCHEDKIT_LIB_SIM_CLAIM_STORE_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "schedkit/api/object_set.h"
#include "schedkit/api/v1/resource_claim.h"

namespace schedkit::sim {

class ClaimStore {
 public:
  using Claim = api::v1::ResourceClaim;

  // Holds `cluster`'s claims, giving resourceVersion "1" to those without one.
  explicit ClaimStore(api::ObjectSet& cluster);

  absl::StatusOr<std::shared_ptr<const Claim>> Update(const Claim& claim);
  absl::StatusOr<std::shared_ptr<const Claim>> UpdateStatus(const Claim& claim);

  // Every claim as stored now, by "namespace/name".
  std::map<std::string, std::shared_ptr<const Claim>> All() const;

 private:
  absl::StatusOr<std::shared_ptr<const Claim>> Write(const Claim& claim, bool status);

  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<const Claim>> claims_ ABSL_GUARDED_BY(mu_);
};

}  // namespace schedkit::sim

#endif  // SCHEDKIT_LIB_SIM_CLAIM_STORE_H_
