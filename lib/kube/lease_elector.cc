#include "kube/lease_elector.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>

#include "absl/time/clock.h"
#include "kube/log.h"
#include "kube/status_patch.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::kube::internal {
namespace {

using nlohmann::json;

constexpr double kJitterFactor = 1.2;  // client-go's JitterFactor
constexpr char kWhere[] = "leaderelection";

std::string GoDuration(absl::Duration d) { return d == absl::ZeroDuration() ? "0s" : absl::FormatDuration(d); }

absl::Duration Since(std::chrono::steady_clock::time_point then) {
  return absl::FromChrono(std::chrono::steady_clock::now() - then);
}

// A lease duration past this (about 11 days) is read as this, so that
// adding it to a clock reading cannot overflow.
constexpr int64_t kMaxLeaseSeconds = 1'000'000;

// Reads of a spec that WellTyped accepted (or that this process wrote).
std::string StringField(const json& spec, const char* key) {
  auto it = spec.find(key);
  return it != spec.end() && it->is_string() ? it->get<std::string>() : std::string();
}
int64_t IntField(const json& spec, const char* key) {
  auto it = spec.find(key);
  return it != spec.end() && it->is_number_integer() ? it->get<int64_t>() : 0;
}

// A Lease spec whose fields have the API's types (absent or null is fine).
// A garbled one fails the round: read leniently, a holder of the wrong type
// would look like no holder and invite a takeover.
bool WellTyped(const json& spec) {
  if (!spec.is_object()) return false;
  for (const char* key : {"holderIdentity", "acquireTime", "renewTime"}) {
    auto it = spec.find(key);
    if (it != spec.end() && !it->is_null() && !it->is_string()) return false;
  }
  for (const char* key : {"leaseDurationSeconds", "leaseTransitions"}) {
    auto it = spec.find(key);
    if (it != spec.end() && !it->is_null() && !it->is_number_integer()) return false;
  }
  return true;
}

}  // namespace

absl::Status ValidateLeaseElectorOptions(const LeaseElectorOptions& o) {
  auto invalid = [](std::string_view field, absl::Duration d, std::string_view detail) {
    return absl::InvalidArgumentError(
        schedkit::StrCat("leaderElection.", field, ": Invalid value: ", GoDuration(d), ": ", detail));
  };
  if (o.lease_duration <= absl::ZeroDuration()) {
    return invalid("leaseDuration", o.lease_duration, "must be greater than zero");
  }
  if (o.renew_deadline <= absl::ZeroDuration()) {
    return invalid("renewDeadline", o.renew_deadline, "must be greater than zero");
  }
  if (o.retry_period <= absl::ZeroDuration()) {
    return invalid("retryPeriod", o.retry_period, "must be greater than zero");
  }
  if (o.lease_duration <= o.renew_deadline) {
    return invalid("leaseDuration", o.lease_duration, "LeaseDuration must be greater than RenewDeadline");
  }
  if (o.renew_deadline <= o.retry_period * kJitterFactor) {
    return invalid("renewDeadline", o.renew_deadline, "renewDeadline must be greater than retryPeriod*JitterFactor");
  }
  if (o.lease_namespace.empty()) return absl::InvalidArgumentError("leaderElection.resourceNamespace: Required value");
  if (o.lease_name.empty()) return absl::InvalidArgumentError("leaderElection.resourceName: Required value");
  if (o.identity.empty()) return absl::InvalidArgumentError("leader election: the identity is empty");
  return absl::OkStatus();
}

std::string NewLeaseIdentity(std::string_view hostname) {
  std::random_device rd;
  std::uniform_int_distribution<int> nibble(0, 15);
  static constexpr char kHex[] = "0123456789abcdef";
  // A version-4 UUID: 8-4-4-4-12 hex digits, "4" and one of 8..b fixed.
  std::string uuid;
  for (int i = 0; i < 32; ++i) {
    if (i == 8 || i == 12 || i == 16 || i == 20) uuid += '-';
    int v = nibble(rd);
    if (i == 12) v = 4;
    if (i == 16) v = 8 + (v & 3);
    uuid += kHex[v];
  }
  return schedkit::StrCat(hostname, "_", uuid);
}

LeaseElector::LeaseElector(const ApiClient& client, LeaseElectorOptions options)
    : client_(client), options_(std::move(options)) {}

std::string LeaseElector::LeasePath() const {
  return schedkit::StrCat("/apis/coordination.k8s.io/v1/namespaces/", options_.lease_namespace, "/leases/",
                          options_.lease_name);
}

bool LeaseElector::IsLeader() const {
  if (stopping_.load(std::memory_order_acquire)) return false;
  const Clock::time_point renewed{Clock::duration(renewed_at_.load(std::memory_order_acquire))};
  if (renewed == Clock::time_point::min()) return false;
  return Clock::now() - renewed < absl::ToChronoNanoseconds(options_.renew_deadline);
}

absl::Status LeaseElector::Check(absl::Duration tolerance) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (StringField(observed_record_, "holderIdentity") != options_.identity) {
    return absl::OkStatus();
  }
  if (Since(observed_at_) > options_.lease_duration + tolerance) {
    return absl::UnavailableError(
        schedkit::StrCat("failed election to renew leadership on lease ", options_.lease_name));
  }
  return absl::OkStatus();
}

std::string LeaseElector::ObservedHolder() const {
  std::lock_guard<std::mutex> lock(mu_);
  return StringField(observed_record_, "holderIdentity");
}

std::pair<std::string, std::string> LeaseElector::LeaseUidAndVersion() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (!lease_.is_object() || !lease_.contains("metadata")) return {};
  return {StringField(lease_["metadata"], "uid"), StringField(lease_["metadata"], "resourceVersion")};
}

void LeaseElector::Observe(const json& spec, Clock::time_point now) {
  std::string raw = spec.dump();
  if (raw == observed_spec_) return;
  const std::string before = StringField(observed_record_, "holderIdentity");
  observed_spec_ = std::move(raw);
  observed_record_ = spec;
  observed_at_ = now;
  const std::string holder = StringField(spec, "holderIdentity");
  if (holder != before && !holder.empty() && holder != options_.identity) {
    LogInfo(2, kWhere, schedkit::StrCat("new leader elected: ", holder));
  }
}

absl::StatusOr<json> LeaseElector::ReadLease(absl::Duration timeout, const std::atomic<bool>* cancel) const {
  SCHEDKIT_ASSIGN_OR_RETURN(std::string reply,
                            client_.Do("GET", LeasePath(), "", "application/json", timeout, cancel));
  json lease = json::parse(reply, nullptr, /*allow_exceptions=*/false);
  if (!lease.is_object() || !lease.contains("metadata") || !lease["metadata"].is_object()) {
    return absl::DataLossError("the API server's lease is not an object");
  }
  if (!lease.contains("spec") || lease["spec"].is_null()) lease["spec"] = json::object();
  if (!WellTyped(lease["spec"])) return absl::DataLossError("the API server's lease has fields of the wrong type");
  return lease;
}

absl::Status LeaseElector::Write(json lease, const json& spec, bool create, absl::Duration timeout,
                                 const std::atomic<bool>* cancel) {
  lease["spec"] = spec;
  const std::string path = create ? schedkit::StrCat("/apis/coordination.k8s.io/v1/namespaces/",
                                                     options_.lease_namespace, "/leases")
                                  : LeasePath();
  auto reply = client_.Do(create ? "POST" : "PUT", path, lease.dump(), "application/json", timeout, cancel);
  if (!reply.ok()) {
    LogInfo(4, kWhere, schedkit::StrCat("lease write failed: ", reply.status().message()));
    return reply.status();
  }
  json stored = json::parse(*reply, nullptr, /*allow_exceptions=*/false);
  if (!stored.is_object() || !stored.contains("spec") || !WellTyped(stored["spec"])) {
    Log(Severity::kWarning, kWhere, schedkit::StrCat("the API server answered the lease write with an unreadable "
                                                     "object (", reply->size(), " bytes)"));
    return absl::DataLossError("unreadable lease");
  }
  std::lock_guard<std::mutex> lock(mu_);
  lease_ = stored;
  Observe(stored["spec"], Clock::now());
  return absl::OkStatus();
}

bool LeaseElector::TryAcquireOrRenew(Clock::time_point now, absl::Duration timeout) {
  const std::string stamp = FormatApiMicroTime(absl::Now());
  json record = {{"holderIdentity", options_.identity},
                 {"leaseDurationSeconds", absl::ToInt64Seconds(options_.lease_duration)},
                 {"acquireTime", stamp},
                 {"renewTime", stamp},
                 {"leaseTransitions", 0}};
  // Fast path: we hold a lease that has not expired by our clock; update
  // the object we last wrote, whose resourceVersion makes a lost race a 409.
  json cached;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (StringField(observed_record_, "holderIdentity") == options_.identity &&
        now - observed_at_ < absl::ToChronoNanoseconds(options_.lease_duration) && lease_.is_object()) {
      if (std::string t = StringField(observed_record_, "acquireTime"); !t.empty()) record["acquireTime"] = t;
      record["leaseTransitions"] = IntField(observed_record_, "leaseTransitions");
      cached = lease_;
    }
  }
  if (cached.is_object()) {
    if (Write(std::move(cached), record, /*create=*/false, timeout, &stopping_).ok()) return true;
    LogInfo(2, kWhere, "failed to update the lease optimistically, falling back to the slow path");
  }

  // What is left of `timeout` for the next request (none left fails it).
  const auto left = [&] { return timeout - Since(now); };
  absl::StatusOr<json> got = ReadLease(left(), &stopping_);
  if (absl::IsDataLoss(got.status())) {
    Log(Severity::kWarning, kWhere, schedkit::StrCat(got.status().message(), "; trying again"));
    return false;
  }
  if (!got.ok()) {
    if (HttpStatusOf(got.status()) != 404) {
      Log(Severity::kError, kWhere,
          schedkit::StrCat("error retrieving resource lock ", options_.lease_namespace, "/", options_.lease_name,
                           ": ", got.status().message()));
      return false;
    }
    const json fresh = {{"apiVersion", "coordination.k8s.io/v1"},
                        {"kind", "Lease"},
                        {"metadata", {{"name", options_.lease_name}, {"namespace", options_.lease_namespace}}}};
    return Write(fresh, record, /*create=*/true, left(), &stopping_).ok();
  }
  json lease = *std::move(got);
  const json& spec = lease["spec"];
  {
    std::lock_guard<std::mutex> lock(mu_);
    lease_ = lease;
    const Clock::time_point read_at = Clock::now();
    Observe(spec, read_at);
    const std::string holder = StringField(spec, "holderIdentity");
    const int64_t duration = std::clamp<int64_t>(IntField(spec, "leaseDurationSeconds"), 0, kMaxLeaseSeconds);
    const bool expired = observed_at_ + std::chrono::seconds(duration) < read_at;
    const bool ours = holder == options_.identity;
    if (!holder.empty() && !expired && !ours) {
      LogInfo(4, kWhere, schedkit::StrCat("lock is held by ", holder, " and has not yet expired"));
      return false;
    }
    const int64_t n = IntField(spec, "leaseTransitions");
    if (ours) {
      if (std::string t = StringField(spec, "acquireTime"); !t.empty()) record["acquireTime"] = t;
      record["leaseTransitions"] = n;
    } else {
      record["leaseTransitions"] = n + 1;
    }
  }
  return Write(std::move(lease), record, /*create=*/false, left(), &stopping_).ok();
}

bool LeaseElector::Sleep(absl::Duration d) {
  std::unique_lock<std::mutex> lock(mu_);
  wake_.wait_for(lock, absl::ToChronoNanoseconds(d), [this] { return stopping_.load(); });
  return !stopping_.load();
}

absl::Status LeaseElector::Run(const std::function<void()>& on_started_leading) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateLeaseElectorOptions(options_));
  const std::string desc = schedkit::StrCat(options_.lease_namespace, "/", options_.lease_name);
  Log(Severity::kInfo, kWhere, schedkit::StrCat("attempting to acquire leader lease ", desc, "..."));
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_real_distribution<double> jitter(0, kJitterFactor);
  for (;;) {
    if (stopping_.load()) return absl::OkStatus();
    const Clock::time_point start = Clock::now();
    if (TryAcquireOrRenew(start, options_.renew_deadline)) {
      renewed_at_.store(start.time_since_epoch().count(), std::memory_order_release);
      break;
    }
    if (!Sleep(options_.retry_period * (1 + jitter(rng)))) return absl::OkStatus();
  }
  Log(Severity::kInfo, kWhere, schedkit::StrCat("successfully acquired lease ", desc));
  if (stopping_.load()) {
    Release();
    return absl::OkStatus();
  }
  on_started_leading();

  // Renew every retry period; between failures retry every retry period
  // until the renew deadline has passed since the last renewal began.
  for (;;) {
    if (!Sleep(options_.retry_period)) break;
    for (;;) {
      const Clock::time_point start = Clock::now();
      const Clock::time_point renewed{Clock::duration(renewed_at_.load())};
      // A round may use what is left of the deadline and no more, so that a
      // leader that cannot renew learns it (and exits) by then, well before
      // a standby may take the Lease over (the lease duration).
      const absl::Duration left = options_.renew_deadline - absl::FromChrono(start - renewed);
      if (left <= absl::ZeroDuration()) {
        renewed_at_.store(Clock::time_point::min().time_since_epoch().count(), std::memory_order_release);
        return absl::AbortedError(
            schedkit::StrCat("leaderelection lost: failed to renew lease ", desc, ": timed out waiting for the "
                             "condition (renew deadline ", GoDuration(options_.renew_deadline), ")"));
      }
      if (TryAcquireOrRenew(start, left)) {
        renewed_at_.store(start.time_since_epoch().count(), std::memory_order_release);
        break;
      }
      if (!Sleep(options_.retry_period)) break;
    }
    if (stopping_.load()) break;
  }
  Release();
  return absl::OkStatus();
}

void LeaseElector::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_.store(true, std::memory_order_release);
  }
  wake_.notify_all();
}

// upstream's release: write the cached object back with no holder and a
// one-second lease, so that a standby takes over at its next try.
void LeaseElector::Release() {
  json lease;
  json record;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (StringField(observed_record_, "holderIdentity") != options_.identity || !lease_.is_object()) {
      return;
    }
    const std::string stamp = FormatApiMicroTime(absl::Now());
    record = {{"holderIdentity", ""},
              {"leaseDurationSeconds", 1},
              {"acquireTime", stamp},
              {"renewTime", stamp},
              {"leaseTransitions", IntField(observed_record_, "leaseTransitions")}};
    lease = lease_;
  }
  renewed_at_.store(Clock::time_point::min().time_since_epoch().count(), std::memory_order_release);
  const absl::Status written = Write(lease, record, /*create=*/false, options_.renew_deadline, nullptr);
  if (written.ok()) return;
  // A 409: our cached object is stale (say, a renewal that timed out here
  // was stored there). Read it again and release it if it is still ours.
  if (HttpStatusOf(written) == 409) {
    absl::StatusOr<json> fresh = ReadLease(options_.renew_deadline, nullptr);
    if (fresh.ok() && StringField((*fresh)["spec"], "holderIdentity") == options_.identity &&
        Write(*std::move(fresh), record, /*create=*/false, options_.renew_deadline, nullptr).ok()) {
      return;
    }
  }
  Log(Severity::kError, kWhere, "Failed to release lock");
}

}  // namespace schedkit::kube::internal
