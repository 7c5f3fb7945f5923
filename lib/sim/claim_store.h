// The simulator's stand-in for the API server's ResourceClaim storage, which
// DynamicResources writes through: PreBind adds the finalizer (an update),
// then status.allocation and status.reservedFor (a status update); PostFilter
// and Unreserve take them back. As the API server: each write names the
// resourceVersion it was made on and fails with a conflict (Aborted) when
// the claim has moved on; an update keeps the stored status and a status
// update keeps the stored metadata and spec; each stored write gets the next
// resourceVersion. DynamicResources also creates the claim for a pod's
// extended resources (metadata.generateName: the name gets five characters
// as the API server gives them, generate_name.h) and deletes it again when
// its binding fails; a claim with finalizers is only marked deleted.
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
#include <string_view>

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

  // An update of a deleted claim that removes its last finalizer removes it
  // (the result has deletionTimestamp set and no finalizers).
  absl::StatusOr<std::shared_ptr<const Claim>> Update(const Claim& claim);
  absl::StatusOr<std::shared_ptr<const Claim>> UpdateStatus(const Claim& claim);
  // Stores a new claim (status dropped, resourceVersion "1", uid
  // "uid-<namespace>-<name>"); AlreadyExists when the name is taken.
  absl::StatusOr<std::shared_ptr<const Claim>> Create(const Claim& claim);
  // Removes the claim, or with finalizers marks it deleted (`deletion_time`
  // as its deletionTimestamp) and returns it; NotFound when there is none.
  struct Deleted {
    std::shared_ptr<const Claim> marked;  // null when removed
  };
  absl::StatusOr<Deleted> Delete(std::string_view namespace_name, std::string_view name, std::string_view deletion_time);

  // Every claim as stored now, by "namespace/name".
  std::map<std::string, std::shared_ptr<const Claim>> All() const;

 private:
  absl::StatusOr<std::shared_ptr<const Claim>> Write(const Claim& claim, bool status);

  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<const Claim>> claims_ ABSL_GUARDED_BY(mu_);
};

}  // namespace schedkit::sim

#endif  // SCHEDKIT_LIB_SIM_CLAIM_STORE_H_
