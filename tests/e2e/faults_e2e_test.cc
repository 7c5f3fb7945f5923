// schedkit-kube under faults, against the real API server (through a
// fault-injecting proxy where a fault must be placed exactly): the API
// server restarted mid-run, watches answered with 410, a Binding answered
// 409, a pod deleted while its binding is in flight, a node deleted under
// assumed pods. After each: every pod that still exists is bound exactly
// once (the API server accepted one Binding for it), and no node holds more
// than it has (from the API server's own objects).
#include <catch2/catch.hpp>
#include <map>
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

// Nodes of a group, all in the API server.
void CreateNodes(kube::ApiClient& admin, const std::string& group, int count, const std::string& cpu) {
  for (int i = 0; i < count; ++i) {
    Create(admin, "/api/v1/nodes",
           NodeJson(schedkit::StrCat(group, "-", i), cpu, group, schedkit::StrCat("zone-", i % 3)));
  }
}

void CreatePods(kube::ApiClient& admin, const std::string& ns, const std::string& prefix, int from, int to,
                const std::string& cpu, const std::string& group) {
  for (int i = from; i < to; ++i) {
    Create(admin, schedkit::StrCat("/api/v1/namespaces/", ns, "/pods"),
           PodJson(ns, schedkit::StrCat(prefix, i), cpu, 0, group));
  }
}

bool AllBound(kube::ApiClient& admin, const std::string& ns, size_t expected) {
  const auto placed = Placements(admin, ns);
  if (placed.size() != expected) return false;
  for (const auto& [pod, node] : placed) {
    if (node.empty()) return false;
  }
  return true;
}

// The invariants: no node of the group holds more cpu than it has, and the
// API server accepted exactly one Binding for every pod that exists.
void CheckInvariants(kube::ApiClient& admin, const std::string& ns, const FaultProxy& proxy,
                     const std::map<std::string, int64_t>& pod_millis, int64_t node_millis) {
  std::map<std::string, int64_t> used;
  const auto placed = Placements(admin, ns);
  for (const auto& [pod, node] : placed) {
    if (!node.empty()) used[node] += pod_millis.at(pod);
  }
  for (const auto& [node, millis] : used) {
    INFO(node);
    CHECK(millis <= node_millis);
  }
  const auto accepted = proxy.AcceptedBindings();
  for (const auto& [pod, node] : placed) {
    INFO(pod);
    const auto it = accepted.find(schedkit::StrCat(ns, "/", pod));
    CHECK((it == accepted.end() ? 0 : it->second) == (node.empty() ? 0 : 1));
  }
}

TEST_CASE("faults: the API server restarts mid-run; the scheduler relists and carries on", "[e2e][faults]") {
  auto admin = Admin();
  const std::string ns = "e2e-restart";
  const std::string group = "restart";
  CreateNamespace(*admin, ns);
  CreateNodes(*admin, group, 6, "2");
  KubeProcess sched("restart");
  sched.Start();
  CreatePods(*admin, ns, "before-", 0, 15, "300m", group);
  REQUIRE(Eventually(absl::Seconds(60), [&] { return AllBound(*admin, ns, 15); }));

  REQUIRE(Server().Restart().ok());
  admin = Admin();
  CreatePods(*admin, ns, "after-", 0, 15, "300m", group);
  INFO(sched.Output());
  REQUIRE(Eventually(absl::Seconds(90), [&] { return AllBound(*admin, ns, 30); }));

  std::map<std::string, int64_t> millis;
  for (const auto& [pod, node] : Placements(*admin, ns)) millis[pod] = 300;
  CheckInvariants(*admin, ns, sched.proxy(), millis, 2000);
  // The watches broke and were made again.
  int watches = 0;
  for (const auto& r : sched.proxy().records()) {
    watches += r.request.target.starts_with("/api/v1/pods?") && r.request.target.find("watch=true") != std::string::npos;
  }
  CHECK(watches >= 2);
}

TEST_CASE("faults: watches answered with 410 (as a status and as an ERROR event) make it relist", "[e2e][faults]") {
  auto admin = Admin();
  const std::string ns = "e2e-watch-410";
  const std::string group = "watch-410";
  CreateNamespace(*admin, ns);
  CreateNodes(*admin, group, 3, "2");
  KubeProcess sched("watch-410");
  // The first watch of pods: an ERROR event with code 410 in a 200 stream;
  // the first watch of nodes: HTTP 410.
  sched.proxy().AddRule(WatchErrorOnce("/api/v1/pods?", 410, "Expired"));
  sched.proxy().AddRule(RespondOnce(
      "GET", "/api/v1/nodes?", 410,
      R"j({"kind":"Status","apiVersion":"v1","status":"Failure","message":"too old resource version: 1 (2)",)j"
      R"j("reason":"Expired","code":410})j"));
  sched.Start();
  CreatePods(*admin, ns, "p-", 0, 12, "400m", group);
  INFO(sched.Output());
  REQUIRE(Eventually(absl::Seconds(60), [&] { return AllBound(*admin, ns, 12); }));

  // Both kinds were listed again after their broken watch.
  int pod_lists = 0;
  int node_lists = 0;
  for (const auto& r : sched.proxy().records()) {
    const std::string& t = r.request.target;
    if (t.find("watch=true") != std::string::npos) continue;
    pod_lists += t.starts_with("/api/v1/pods?");
    node_lists += t.starts_with("/api/v1/nodes?");
  }
  CHECK(pod_lists >= 2);
  CHECK(node_lists >= 2);
  std::map<std::string, int64_t> millis;
  for (const auto& [pod, node] : Placements(*admin, ns)) millis[pod] = 400;
  CheckInvariants(*admin, ns, sched.proxy(), millis, 2000);
}

TEST_CASE("faults: a Binding answered 409 is retried and the pod bound once", "[e2e][faults]") {
  auto admin = Admin();
  const std::string ns = "e2e-bind-409";
  const std::string group = "bind-409";
  CreateNamespace(*admin, ns);
  CreateNodes(*admin, group, 2, "2");
  KubeProcess sched("bind-409");
  sched.proxy().AddRule(RespondOnce(
      "POST", "/pods/p-0/binding", 409,
      R"j({"kind":"Status","apiVersion":"v1","status":"Failure","message":"Operation cannot be fulfilled on )j"
      R"j(pods/binding \"p-0\": injected","reason":"Conflict","code":409})j"));
  sched.Start();
  CreatePods(*admin, ns, "p-", 0, 4, "500m", group);
  INFO(sched.Output());
  REQUIRE(Eventually(absl::Seconds(60), [&] { return AllBound(*admin, ns, 4); }));
  int conflicts = 0;
  for (const auto& r : sched.proxy().records()) conflicts += r.status == 409;
  CHECK(conflicts == 1);
  std::map<std::string, int64_t> millis;
  for (const auto& [pod, node] : Placements(*admin, ns)) millis[pod] = 500;
  CheckInvariants(*admin, ns, sched.proxy(), millis, 2000);
}

TEST_CASE("faults: a pod deleted while its binding is in flight frees its room", "[e2e][faults]") {
  auto admin = Admin();
  const std::string ns = "e2e-delete-in-flight";
  const std::string group = "delete-in-flight";
  CreateNamespace(*admin, ns);
  CreateNodes(*admin, group, 1, "1");
  KubeProcess sched("delete-in-flight");
  sched.proxy().AddRule(DelayOnce("POST", "/pods/doomed/binding", absl::Seconds(3)));
  sched.Start();
  Create(*admin, schedkit::StrCat("/api/v1/namespaces/", ns, "/pods"), PodJson(ns, "doomed", "1", 0, group));
  // The binding is held at the proxy; the pod goes meanwhile.
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  REQUIRE(admin->Do("DELETE", schedkit::StrCat("/api/v1/namespaces/", ns, "/pods/doomed")).ok());
  // Its binding then fails (404); the node's whole cpu is free for the next.
  Create(*admin, schedkit::StrCat("/api/v1/namespaces/", ns, "/pods"), PodJson(ns, "next", "1", 0, group));
  INFO(sched.Output());
  REQUIRE(Eventually(absl::Seconds(60), [&] { return AllBound(*admin, ns, 1); }));
  CHECK(Placements(*admin, ns).at("next") == schedkit::StrCat(group, "-0"));
  bool doomed_refused = false;
  for (const auto& r : sched.proxy().records()) {
    if (r.request.target.ends_with("/pods/doomed/binding")) doomed_refused = r.status == 404;
  }
  CHECK(doomed_refused);
  CheckInvariants(*admin, ns, sched.proxy(), {{"next", 1000}}, 1000);
}

TEST_CASE("faults: a node deleted under assumed pods takes no more pods", "[e2e][faults]") {
  auto admin = Admin();
  const std::string ns = "e2e-node-deleted";
  const std::string group = "node-deleted";
  CreateNamespace(*admin, ns);
  Create(*admin, "/api/v1/nodes", NodeJson("node-deleted-old", "2", group));
  KubeProcess sched("node-deleted");
  sched.proxy().AddRule(DelayOnce("POST", "/binding", absl::Seconds(3), 2));
  sched.Start();
  CreatePods(*admin, ns, "early-", 0, 2, "1", group);
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  // Both pods are assumed on the node, their bindings held: the node goes.
  REQUIRE(admin->Do("DELETE", "/api/v1/nodes/node-deleted-old").ok());
  // The API server does not check the node: both bindings still succeed.
  REQUIRE(Eventually(absl::Seconds(30), [&] { return AllBound(*admin, ns, 2); }));
  Create(*admin, "/api/v1/nodes", NodeJson("node-deleted-new", "2", group));
  CreatePods(*admin, ns, "late-", 0, 2, "1", group);
  INFO(sched.Output());
  REQUIRE(Eventually(absl::Seconds(60), [&] { return AllBound(*admin, ns, 4); }));
  const auto placed = Placements(*admin, ns);
  CHECK(placed.at("early-0") == "node-deleted-old");
  CHECK(placed.at("early-1") == "node-deleted-old");
  CHECK(placed.at("late-0") == "node-deleted-new");
  CHECK(placed.at("late-1") == "node-deleted-new");
  CheckInvariants(*admin, ns, sched.proxy(),
                  {{"early-0", 1000}, {"early-1", 1000}, {"late-0", 1000}, {"late-1", 1000}}, 2000);
}

}  // namespace
}  // namespace schedkit::e2e
