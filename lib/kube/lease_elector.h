// Internal: leader election on a coordination.k8s.io/v1 Lease, as
// client-go's leaderelection package runs it for kube-scheduler: acquire by
// creating or taking over an expired Lease, renew every retry period, and
// lose when no renewal succeeded within the renew deadline. Expiry is
// judged only by this process's monotonic clock (the time it last saw the
// Lease change, plus the holder's leaseDurationSeconds), never by the
// timestamps in the object, so clock skew between machines does not matter.
// Every write is a PUT carrying the resourceVersion last read: two
// candidates that race are told apart by the API server's 409.
#ifndef SCHEDKIT_LIB_KUBE_LEASE_ELECTOR_H_
#define SCHEDKIT_LIB_KUBE_LEASE_ELECTOR_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "schedkit/kube/api_client.h"
#include "schedkit/scheduler/leader_election.h"

namespace schedkit::kube::internal {

struct LeaseElectorOptions {
  std::string lease_namespace = "kube-system";
  std::string lease_name = "kube-scheduler";
  // "<hostname>_<uuid>" (NewLeaseIdentity); unique per process.
  std::string identity;
  absl::Duration lease_duration = absl::Seconds(15);
  absl::Duration renew_deadline = absl::Seconds(10);
  absl::Duration retry_period = absl::Seconds(2);
};

// upstream's checks: every duration positive, leaseDuration > renewDeadline
// > 1.2 × retryPeriod (the jitter factor), a name and a namespace.
absl::Status ValidateLeaseElectorOptions(const LeaseElectorOptions& options);

// "<hostname>_<random UUID>", as kube-scheduler's identity.
std::string NewLeaseIdentity(std::string_view hostname);

class LeaseElector : public scheduler::LeaderElector {
 public:
  // `client` (not owned) should be the election's own, so that its rate
  // limit never delays a renewal behind the scheduler's writes.
  LeaseElector(const ApiClient& client, LeaseElectorOptions options);

  absl::Status Run(const std::function<void()>& on_started_leading) override;
  void Stop() override;
  bool IsLeader() const override;

  // /healthz's "leaderElection" check (upstream's HealthzAdaptor): an error
  // when this process holds the Lease but has not seen it renewed for the
  // lease duration plus `tolerance`. Any thread.
  absl::Status Check(absl::Duration tolerance) const;

  // The holder last read from the Lease ("" if none yet). Any thread.
  std::string ObservedHolder() const;
  // The Lease's uid and resourceVersion as last read or written ("" before
  // that). Any thread.
  std::pair<std::string, std::string> LeaseUidAndVersion() const;

 private:
  using Clock = std::chrono::steady_clock;

  // One round of upstream's tryAcquireOrRenew, started at `now` and given
  // `timeout` for its requests together: true when this process holds the
  // Lease afterwards. Stop() cancels it.
  bool TryAcquireOrRenew(Clock::time_point now, absl::Duration timeout);
  // GETs the Lease: its object with a spec of the API's types (an absent
  // or null spec reads as empty); the API error as is (404 when there is
  // none yet); DataLoss for a reply that is not such a Lease.
  absl::StatusOr<nlohmann::json> ReadLease(absl::Duration timeout, const std::atomic<bool>* cancel) const;
  // PUTs (or POSTs, when `create`) `lease` with `spec`; on success it is
  // the cached object and the observed record. The API error as is, or
  // DataLoss for a reply it cannot read. Run's thread only.
  absl::Status Write(nlohmann::json lease, const nlohmann::json& spec, bool create, absl::Duration timeout,
                     const std::atomic<bool>* cancel);
  void Observe(const nlohmann::json& spec, Clock::time_point now) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void Release();
  // Sleeps up to `d`; false when Stop() came first.
  bool Sleep(absl::Duration d);
  std::string LeasePath() const;

  const ApiClient& client_;
  const LeaseElectorOptions options_;
  std::atomic<bool> stopping_{false};
  // Clock ticks at the start of the last round that renewed the Lease;
  // Clock::time_point::min() while this process does not hold it.
  std::atomic<Clock::rep> renewed_at_{Clock::time_point::min().time_since_epoch().count()};

  mutable std::mutex mu_;
  std::condition_variable wake_;
  nlohmann::json lease_ ABSL_GUARDED_BY(mu_);  // the object as last read or written
  std::string observed_spec_ ABSL_GUARDED_BY(mu_);
  nlohmann::json observed_record_ ABSL_GUARDED_BY(mu_);
  Clock::time_point observed_at_ ABSL_GUARDED_BY(mu_);
};

}  // namespace schedkit::kube::internal

#endif  // SCHEDKIT_LIB_KUBE_LEASE_ELECTOR_H_
