// The Lease election against a local server that keeps one Lease as the API
// server does (resourceVersion preconditions on PUT, 404 before it exists,
// 409 on a stale version): acquisition, renewal, release, takeover of an
// expired lease only, loss when renewals fail, and garbled replies.
#include "kube/lease_elector.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kube/local_http_server.h"
#include "nlohmann/json.hpp"
#include "schedkit/base/str_cat.h"

namespace schedkit::kube::internal {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr char kPath[] = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/sched";

class LeaseServer {
 public:
  LeaseServer() {
    local_.routes().Get(kPath, [this](const httplib::Request&, httplib::Response& res) {
      std::lock_guard<std::mutex> lock(mu_);
      ++gets_;
      if (Refuse(res)) return;
      if (lease_.is_null()) return Status(res, 404, "NotFound");
      res.set_content(lease_.dump(), "application/json");
    });
    local_.routes().Post("/apis/coordination.k8s.io/v1/namespaces/kube-system/leases",
                         [this](const httplib::Request& req, httplib::Response& res) {
                           std::lock_guard<std::mutex> lock(mu_);
                           if (Refuse(res)) return;
                           if (!lease_.is_null()) return Status(res, 409, "AlreadyExists");
                           Store(json::parse(req.body));
                           res.status = 201;
                           res.set_content(lease_.dump(), "application/json");
                         });
    local_.routes().Put(kPath, [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard<std::mutex> lock(mu_);
      if (Refuse(res)) return;
      const json body = json::parse(req.body);
      if (lease_.is_null()) return Status(res, 404, "NotFound");
      if (body["metadata"].value("resourceVersion", "") != lease_["metadata"]["resourceVersion"]) {
        return Status(res, 409, "Conflict");
      }
      Store(body);
      puts_.push_back(body["spec"]);
      res.set_content(lease_.dump(), "application/json");
    });
    local_.Start();
    client_ = local_.Client();
  }

  const ApiClient& client() const { return *client_; }

  // Another candidate's record, written directly.
  void Hold(const std::string& holder, int seconds, int transitions = 0) {
    std::lock_guard<std::mutex> lock(mu_);
    json lease = lease_.is_null() ? json{{"metadata", {{"name", "sched"}, {"namespace", "kube-system"}}}} : lease_;
    lease["spec"] = {{"holderIdentity", holder},
                     {"leaseDurationSeconds", seconds},
                     {"renewTime", schedkit::StrCat("2026-12-05T00:00:", 10 + version_ % 50, ".000000Z")},
                     {"leaseTransitions", transitions}};
    Store(lease);
  }
  void SetMode(int refuse_status, bool garbage) {
    std::lock_guard<std::mutex> lock(mu_);
    refuse_status_ = refuse_status;
    garbage_ = garbage;
  }
  // Every request then waits this long before it is answered.
  void SetDelay(std::chrono::milliseconds delay) { delay_ms_ = static_cast<int>(delay.count()); }
  // A spec stored as is (say, with fields of the wrong type).
  void SetSpec(json spec) {
    std::lock_guard<std::mutex> lock(mu_);
    json lease = lease_.is_null() ? json{{"metadata", {{"name", "sched"}, {"namespace", "kube-system"}}}} : lease_;
    lease["spec"] = std::move(spec);
    Store(lease);
  }
  // A new resourceVersion, the spec unchanged (another field was written).
  void Bump() {
    std::lock_guard<std::mutex> lock(mu_);
    Store(lease_);
  }
  json spec() const {
    std::lock_guard<std::mutex> lock(mu_);
    return lease_.is_null() ? json() : lease_["spec"];
  }
  std::vector<json> puts() const {
    std::lock_guard<std::mutex> lock(mu_);
    return puts_;
  }
  int gets() const {
    std::lock_guard<std::mutex> lock(mu_);
    return gets_;
  }

 private:
  void Store(json lease) {
    lease["metadata"]["resourceVersion"] = std::to_string(++version_);
    lease_ = std::move(lease);
  }
  static void Status(httplib::Response& res, int code, const std::string& reason) {
    res.status = code;
    res.set_content(json{{"kind", "Status"}, {"code", code}, {"reason", reason}}.dump(), "application/json");
  }
  bool Refuse(httplib::Response& res) {
    if (const int delay = delay_ms_.load(); delay > 0) {
      mu_.unlock();  // each handler holds mu_; let others in while this one waits
      std::this_thread::sleep_for(std::chrono::milliseconds(delay));
      mu_.lock();
    }
    if (garbage_) {
      res.set_content("{\"spec\": [1, 2", "application/json");
      return true;
    }
    if (refuse_status_ == 0) return false;
    Status(res, refuse_status_, "InternalError");
    return true;
  }

  mutable std::mutex mu_;
  json lease_;
  int version_ = 0;
  int refuse_status_ = 0;
  bool garbage_ = false;
  std::atomic<int> delay_ms_{0};
  int gets_ = 0;
  std::vector<json> puts_;
  testing::LocalHttpServer local_;
  std::unique_ptr<ApiClient> client_;
};

LeaseElectorOptions Fast(const std::string& identity) {
  LeaseElectorOptions o;
  o.lease_name = "sched";
  o.identity = identity;
  o.lease_duration = absl::Seconds(2);
  o.renew_deadline = absl::Milliseconds(1500);
  o.retry_period = absl::Milliseconds(300);
  return o;
}

// Runs an elector on a thread of its own.
struct Candidate {
  Candidate(const ApiClient& client, LeaseElectorOptions options) : elector(client, std::move(options)) {
    thread = std::thread([this] {
      status = elector.Run([this] { started_at = Clock::now(), started = true; });
      done = true;
    });
  }
  ~Candidate() {
    elector.Stop();
    thread.join();
  }
  bool WaitStarted(std::chrono::milliseconds limit) {
    const auto deadline = Clock::now() + limit;
    while (!started && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return started;
  }
  bool WaitDone(std::chrono::milliseconds limit) {
    const auto deadline = Clock::now() + limit;
    while (!done && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return done;
  }

  LeaseElector elector;
  std::atomic<bool> started{false};
  std::atomic<bool> done{false};
  Clock::time_point started_at;
  absl::Status status;
  std::thread thread;
};

TEST_CASE("LeaseElector creates the lease, renews it, and releases it on Stop", "[kube][leader][tsan]") {
  LeaseServer server;
  auto a = std::make_unique<Candidate>(server.client(), Fast("host_a"));
  REQUIRE(a->WaitStarted(std::chrono::seconds(5)));
  CHECK(a->elector.IsLeader());
  json spec = server.spec();
  CHECK(spec["holderIdentity"] == "host_a");
  CHECK(spec["leaseDurationSeconds"] == 2);
  CHECK(spec["leaseTransitions"] == 0);
  const std::string acquired = spec["acquireTime"];
  CHECK(acquired.size() == std::string("2026-12-05T00:00:00.000000Z").size());  // MicroTime
  CHECK(a->elector.Check(absl::ZeroDuration()).ok());

  std::this_thread::sleep_for(std::chrono::milliseconds(1300));
  const auto puts = server.puts();
  REQUIRE(puts.size() >= 2);  // renewed every 300 ms, by PUTs on the version last written
  CHECK(puts.back()["holderIdentity"] == "host_a");
  CHECK(puts.back()["acquireTime"] == acquired);  // kept while held
  CHECK(puts.back()["renewTime"] != acquired);
  CHECK(a->elector.IsLeader());

  a->elector.Stop();
  CHECK(!a->elector.IsLeader());  // the fence closes before the release is written
  REQUIRE(a->WaitDone(std::chrono::seconds(5)));
  CHECK(a->status.ok());
  spec = server.spec();
  CHECK(spec["holderIdentity"] == "");
  CHECK(spec["leaseDurationSeconds"] == 1);
  CHECK(spec["leaseTransitions"] == 0);

  // A released lease is taken at once, as a new transition.
  Candidate b(server.client(), Fast("host_b"));
  REQUIRE(b.WaitStarted(std::chrono::seconds(2)));
  CHECK(server.spec()["holderIdentity"] == "host_b");
  CHECK(server.spec()["leaseTransitions"] == 1);
}

TEST_CASE("LeaseElector takes a lease over only after it went unrenewed for its duration", "[kube][leader]") {
  LeaseServer server;
  server.Hold("other", 2, /*transitions=*/4);
  Candidate c(server.client(), Fast("host_c"));
  // The other holder renews every 500 ms for 2 s: never taken meanwhile.
  for (int i = 0; i < 4; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    server.Hold("other", 2, 4);
    CHECK(!c.started);
    CHECK(!c.elector.IsLeader());
  }
  CHECK(c.elector.ObservedHolder() == "other");
  const auto last_renewal = Clock::now();
  REQUIRE(c.WaitStarted(std::chrono::seconds(6)));
  // Not before the 2 s lease ran out on our clock; within a retry (≤ 2.2 ×
  // 300 ms) and some slack after it.
  const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(c.started_at - last_renewal);
  CHECK(waited.count() >= 2000);
  CHECK(waited.count() <= 2000 + 660 + 1000);
  CHECK(server.spec()["holderIdentity"] == "host_c");
  CHECK(server.spec()["leaseTransitions"] == 5);
}

TEST_CASE("LeaseElector loses when renewals fail for the renew deadline", "[kube][leader][tsan]") {
  LeaseServer server;
  Candidate a(server.client(), Fast("host_a"));
  REQUIRE(a.WaitStarted(std::chrono::seconds(5)));
  server.SetMode(500, false);
  const auto failing_since = Clock::now();
  REQUIRE(a.WaitDone(std::chrono::seconds(5)));
  const auto lost_after =
      std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - failing_since).count();
  CHECK(lost_after <= 1500 + 300 + 500);  // the deadline counts from the last renewal
  CHECK(!a.elector.IsLeader());
  CHECK(a.status.code() == absl::StatusCode::kAborted);
  CHECK_THAT(std::string(a.status.message()), Catch::Contains("failed to renew lease kube-system/sched"));
}

TEST_CASE("LeaseElector gives a renewal only what is left of the renew deadline", "[kube][leader]") {
  LeaseServer server;
  Candidate a(server.client(), Fast("host_a"));
  REQUIRE(a.WaitStarted(std::chrono::seconds(5)));
  // The server stops answering in time: without a bound per round, a GET
  // and a PUT of 1.5 s each would keep the loser in the race for 3 s+.
  server.SetDelay(std::chrono::milliseconds(4000));
  const auto slow_since = Clock::now();
  REQUIRE(a.WaitDone(std::chrono::seconds(6)));
  const auto lost_after = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - slow_since).count();
  CHECK(lost_after >= 1500 - 300);  // the last renewal began at most one retry earlier
  CHECK(lost_after <= 1500 + 700);
  CHECK(a.status.code() == absl::StatusCode::kAborted);
  server.SetDelay(std::chrono::milliseconds(0));
}

TEST_CASE("LeaseElector does not read a holder of the wrong type as no holder", "[kube][leader]") {
  LeaseServer server;
  server.SetSpec({{"holderIdentity", 42}, {"leaseDurationSeconds", 1}});
  Candidate c(server.client(), Fast("host_c"));
  // Well past the 1 s lease and several retries: each round fails.
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  CHECK(!c.started);
  CHECK(server.gets() >= 2);
  CHECK(server.spec()["holderIdentity"] == 42);
  // A huge lease duration neither overflows nor expires.
  server.SetSpec({{"holderIdentity", "other"}, {"leaseDurationSeconds", int64_t{1} << 62}});
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  CHECK(!c.started);
  CHECK(c.elector.ObservedHolder() == "other");
}

TEST_CASE("LeaseElector releases a lease whose version moved under it", "[kube][leader]") {
  LeaseServer server;
  Candidate a(server.client(), Fast("host_a"));
  REQUIRE(a.WaitStarted(std::chrono::seconds(5)));
  server.Bump();  // the cached object is now stale: its release PUT gets a 409
  a.elector.Stop();
  REQUIRE(a.WaitDone(std::chrono::seconds(5)));
  CHECK(server.spec()["holderIdentity"] == "");
}

TEST_CASE("LeaseElector survives garbled replies and a lease another wrote under it", "[kube][leader]") {
  LeaseServer server;
  server.SetMode(0, /*garbage=*/true);
  Candidate a(server.client(), Fast("host_a"));
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  CHECK(!a.started);
  CHECK(server.gets() >= 1);
  server.SetMode(0, false);
  REQUIRE(a.WaitStarted(std::chrono::seconds(5)));

  // Someone else overwrites the lease (as after a pause of ours): the fast
  // path's PUT gets a 409, the slow path sees a live holder, and within
  // the renew deadline this candidate has lost.
  for (int i = 0; i < 8 && !a.done; ++i) {
    server.Hold("usurper", 15);
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  REQUIRE(a.WaitDone(std::chrono::seconds(3)));
  CHECK(a.status.code() == absl::StatusCode::kAborted);
  CHECK(server.spec()["holderIdentity"] == "usurper");
}

TEST_CASE("LeaseElector options are checked as upstream's", "[kube][leader]") {
  LeaseElectorOptions o = Fast("id");
  CHECK(ValidateLeaseElectorOptions(o).ok());
  o.renew_deadline = absl::Seconds(2);
  CHECK(ValidateLeaseElectorOptions(o).message() ==
        "leaderElection.leaseDuration: Invalid value: 2s: LeaseDuration must be greater than RenewDeadline");
  o = Fast("id");
  o.retry_period = absl::Milliseconds(1250);
  CHECK(ValidateLeaseElectorOptions(o).message() ==
        "leaderElection.renewDeadline: Invalid value: 1.5s: renewDeadline must be greater than "
        "retryPeriod*JitterFactor");
  o = Fast("id");
  o.retry_period = absl::ZeroDuration();
  CHECK(ValidateLeaseElectorOptions(o).message() ==
        "leaderElection.retryPeriod: Invalid value: 0s: must be greater than zero");
  const std::string id = NewLeaseIdentity("host");
  CHECK(id.rfind("host_", 0) == 0);
  CHECK(id.size() == 5 + 36);
  CHECK(id[5 + 14] == '4');
  CHECK(NewLeaseIdentity("host") != id);
}

}  // namespace
}  // namespace schedkit::kube::internal
