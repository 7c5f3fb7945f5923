// Two replicas of schedkit-kube with leader election (upstream's defaults:
// 15 s lease, 10 s renew deadline, 2 s retry) against the real API server,
// each through a proxy of its own that records what it sends. The leader is
// killed (SIGKILL), or paused (SIGSTOP) longer than its lease, while pods
// keep arriving. The standby must take over within the lease duration and
// two jittered retry periods, a paused leader that wakes must exit non-zero
// without a single write, and afterwards every pod is bound exactly once
// with no node over-committed.
#include <signal.h>

#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "e2e/fault_proxy.h"
#include "e2e/kube_fixtures.h"
#include "e2e/kube_process.h"
#include "e2e/shared_apiserver.h"
#include "nlohmann/json.hpp"
#include "schedkit/base/str_cat.h"

namespace schedkit::e2e {
namespace {

using nlohmann::json;

constexpr char kSchedulerName[] = "failover-scheduler";
constexpr int kNodes = 4;
constexpr int kNodeCpu = 8;  // cores; pods ask 1
const absl::Duration kLease = absl::Seconds(15);
const absl::Duration kRetryJittered = absl::Seconds(2) * 2.2;
// The standby's last read before the lease ran out may come up to one
// jittered retry after the leader's last renewal, and its takeover up to one
// after the expiry; a second covers the requests themselves.
const absl::Duration kFailoverBound = kLease + 2 * kRetryJittered + absl::Seconds(1);
// Leader election with upstream's defaults, on the default Lease
// (kube-system/kube-scheduler, the only one the scheduler user may update).
constexpr char kConfig[] =
    "leaderElection:\n  leaderElect: true\n"
    "profiles:\n- schedulerName: failover-scheduler\n";

constexpr char kLeasePath[] = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler";

bool IsLeaseWrite(const FaultProxy::Record& r) {
  return (r.request.method == "PUT" || r.request.method == "POST") &&
         r.request.target.find("/leases") != std::string::npos && r.status >= 200 && r.status < 300;
}

// The first time after `since` that the proxy passed a successful lease
// write (an acquisition or renewal), or nullopt.
std::optional<absl::Time> FirstLeaseWrite(const FaultProxy& proxy, absl::Time since) {
  for (const FaultProxy::Record& r : proxy.records()) {
    if (IsLeaseWrite(r) && r.request.received > since) return r.request.received;
  }
  return std::nullopt;
}

json FailoverPod(const std::string& ns, const std::string& name, const std::string& group) {
  json pod = PodJson(ns, name, "1", 0, group);
  pod["spec"]["schedulerName"] = kSchedulerName;
  return pod;
}

// Creates pods `from`..`to`-1, one every 400 ms, on a thread.
std::thread Feed(const std::string& ns, const std::string& group, int from, int to) {
  return std::thread([ns, group, from, to] {
    auto admin = Admin();
    for (int i = from; i < to; ++i) {
      Create(*admin, schedkit::StrCat("/api/v1/namespaces/", ns, "/pods"),
             FailoverPod(ns, schedkit::StrCat("p-", i), group));
      std::this_thread::sleep_for(std::chrono::milliseconds(400));
    }
  });
}

// Every pod bound, one Binding accepted per pod over both replicas, and no
// node holding more than its cores.
void CheckAllBoundOnce(kube::ApiClient& admin, const std::string& ns, int pods, KubeProcess& a, KubeProcess& b) {
  REQUIRE(Eventually(absl::Seconds(60), [&] {
    const auto placed = Placements(admin, ns);
    if (placed.size() != static_cast<size_t>(pods)) return false;
    for (const auto& [pod, node] : placed) {
      if (node.empty()) return false;
    }
    return true;
  }));
  std::map<std::string, int> accepted = a.proxy().AcceptedBindings();
  for (const auto& [pod, n] : b.proxy().AcceptedBindings()) accepted[pod] += n;
  std::map<std::string, int> per_node;
  for (const auto& [pod, node] : Placements(admin, ns)) {
    INFO(pod);
    CHECK(accepted[schedkit::StrCat(ns, "/", pod)] == 1);
    ++per_node[node];
  }
  for (const auto& [node, count] : per_node) {
    INFO(node);
    CHECK(count <= kNodeCpu);
  }
}

void SetUpGroup(kube::ApiClient& admin, const std::string& ns, const std::string& group) {
  CreateNamespace(admin, ns);
  for (int i = 0; i < kNodes; ++i) {
    Create(admin, "/api/v1/nodes", NodeJson(schedkit::StrCat(group, "-", i), std::to_string(kNodeCpu), group));
  }
}

// Namespace `ns` with its own nodes; replica A started and holding the
// lease, then B started as its standby; the first 4 pods bound by A.
struct LeaderAndStandby {
  explicit LeaderAndStandby(const std::string& name)
      : admin(Admin()), ns(name), a(name + "-a", kConfig), b(name + "-b", kConfig) {
    SetUpGroup(*admin, ns, ns);
    const absl::Time before = absl::Now();
    a.Start();
    REQUIRE(Eventually(absl::Seconds(30), [&] { return FirstLeaseWrite(a.proxy(), before).has_value(); }));
    b.Start();
    Feed(ns, ns, 0, 4).join();
    REQUIRE(Eventually(absl::Seconds(30), [&] { return a.proxy().AcceptedBindings().size() == 4; }));
  }

  std::unique_ptr<kube::ApiClient> admin;
  std::string ns;
  KubeProcess a;
  KubeProcess b;
};

TEST_CASE("failover: the leader is killed; the standby takes over and binds the rest", "[e2e][failover]") {
  LeaderAndStandby pair("failover-kill");
  auto& [admin, ns, a, b] = pair;
  CHECK(b.proxy().AcceptedBindings().empty());  // a standby writes nothing
  for (const FaultProxy::Record& r : b.proxy().records()) {
    INFO(r.request.method << " " << r.request.target);
    CHECK(r.request.method == "GET");  // lists, watches and reads of the Lease
  }
  CHECK_THAT(b.Http("/metrics"), Catch::Contains("leader_election_master_status{name=\"kube-scheduler\"} 0\n"));
  CHECK_THAT(b.Http("/readyz"), Catch::Equals("ok"));  // ready while standing by

  std::thread feeder = Feed(ns, ns, 4, 24);
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const absl::Time killed = absl::Now();
  a.Signal(SIGKILL);
  CHECK(a.Wait(absl::Seconds(10)) == std::optional<int>(128 + SIGKILL));
  std::optional<absl::Time> took_over;
  REQUIRE(Eventually(kFailoverBound + absl::Seconds(5), [&] {
    took_over = FirstLeaseWrite(b.proxy(), killed);
    return took_over.has_value();
  }));
  const absl::Duration failover = *took_over - killed;
  UNSCOPED_INFO("SIGKILL failover took " << absl::FormatDuration(failover));
  CHECK(failover <= kFailoverBound);
  feeder.join();

  CheckAllBoundOnce(*admin, ns, 24, a, b);
  CHECK_THAT(b.Http("/healthz?verbose"), Catch::Contains("[+]leaderElection ok"));
  CHECK_THAT(b.Http("/metrics"), Catch::Contains("leader_election_master_status{name=\"kube-scheduler\"} 1\n"));
  // B said so as upstream does: a core Event on the Lease, from its profile.
  const std::string holder = Get(*admin, kLeasePath)["spec"].value("holderIdentity", "");
  CHECK(Eventually(absl::Seconds(10), [&] { return HasLeaderEvent(*admin, "kube-scheduler", holder); }));
  b.Signal(SIGTERM);
  CHECK(b.Wait(absl::Seconds(30)) == std::optional<int>(0));
  // Released on SIGTERM: no holder, a one-second lease.
  const json spec = Get(*admin, kLeasePath)["spec"];
  CHECK(spec.value("holderIdentity", "?") == "");
  CHECK(spec.value("leaseDurationSeconds", 0) == 1);
  WARN("SIGKILL failover: " << absl::FormatDuration(failover));
}

TEST_CASE("failover: the leader is paused past its lease; it wakes, writes nothing and exits 1",
          "[e2e][failover]") {
  LeaderAndStandby pair("failover-pause");
  auto& [admin, ns, a, b] = pair;

  std::thread feeder = Feed(ns, ns, 4, 24);
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const absl::Time paused = absl::Now();
  a.Signal(SIGSTOP);
  std::optional<absl::Time> took_over;
  REQUIRE(Eventually(kFailoverBound + absl::Seconds(5), [&] {
    took_over = FirstLeaseWrite(b.proxy(), paused);
    return took_over.has_value();
  }));
  const absl::Duration failover = *took_over - paused;
  CHECK(failover <= kFailoverBound);
  feeder.join();
  // Pods created while A sleeps, and after B leads, all go through B.
  CheckAllBoundOnce(*admin, ns, 24, a, b);

  // Wake A well past its lease, with pods still arriving: it must notice it
  // lost, exit 1, and send nothing that the API server accepts.
  const absl::Duration asleep = absl::Now() - paused;
  if (asleep < absl::Seconds(25)) std::this_thread::sleep_for(absl::ToChronoMilliseconds(absl::Seconds(25) - asleep));
  std::thread late = Feed(ns, ns, 24, 30);
  const absl::Time woken = absl::Now();
  a.Signal(SIGCONT);
  const auto code = a.Wait(absl::Seconds(15));
  const absl::Duration to_exit = absl::Now() - woken;
  INFO(a.Output());
  CHECK(code == std::optional<int>(1));
  CHECK_THAT(a.Output(), Catch::Contains("leaderelection lost"));
  late.join();
  int writes_after_pause = 0;
  for (const FaultProxy::Record& r : a.proxy().records()) {
    // A request sent just before SIGSTOP may reach the proxy just after;
    // anything later than that was sent after the wake-up.
    if (r.request.received < paused + absl::Milliseconds(500) || r.request.method == "GET") continue;
    INFO(r.request.method << " " << r.request.target << " -> " << r.status);
    // Only the failed renewal (a 409 on the lease) may leave it.
    CHECK((r.request.target.find("/leases/") != std::string::npos && r.status == 409));
    ++writes_after_pause;
  }
  CHECK(writes_after_pause <= 1);
  CheckAllBoundOnce(*admin, ns, 30, a, b);
  WARN("SIGSTOP failover: " << absl::FormatDuration(failover) << "; woken A exited after "
                            << absl::FormatDuration(to_exit));
  b.Signal(SIGTERM);
  CHECK(b.Wait(absl::Seconds(30)) == std::optional<int>(0));
}

}  // namespace
}  // namespace schedkit::e2e
