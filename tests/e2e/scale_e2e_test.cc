// schedkit-kube at scale against the real API server, compared with
// schedkit-sim on the same objects: 100 nodes in 3 zones and 1,005 pods
// created through the API (requests, a zone spread, hostname anti-affinity,
// a PodDisruptionBudget, priorities, pods that fit nowhere, then a burst of
// high-priority pods that must preempt). Both run deterministically (ties
// to the lowest node name, one seed); the first 905 pods are all pending
// when the scheduler starts, the 100 preemptors arrive one at a time, each
// awaited, as `schedkit-sim --one-at-a-time` has them. Every pod ends bound
// or with upstream's PodScheduled=False, no node is over-committed (from
// the API server's objects), and every placement, failure message and
// victim is the simulator's.
#include <signal.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "e2e/child_process.h"
#include "e2e/kube_fixtures.h"
#include "e2e/test_apiserver.h"
#include "httplib.h"
#include "nlohmann/json.hpp"
#include "schedkit/base/str_cat.h"

namespace schedkit::e2e {
namespace {

using nlohmann::json;
using schedkit::StrCat;

constexpr char kNs[] = "e2e-scale";
constexpr char kGroup[] = "scale";

std::string Padded(int i) {
  char buf[8];
  std::snprintf(buf, sizeof(buf), "%03d", i);
  return buf;
}

json ZoneSpread(const std::string& app) {
  return json::array({{{"maxSkew", 1},
                       {"topologyKey", "topology.kubernetes.io/zone"},
                       {"whenUnsatisfiable", "DoNotSchedule"},
                       {"labelSelector", {{"matchLabels", {{"app", app}}}}}}});
}

json HostnameAntiAffinity(const std::string& app) {
  return {{"podAntiAffinity",
           {{"requiredDuringSchedulingIgnoredDuringExecution",
             json::array({{{"topologyKey", "kubernetes.io/hostname"},
                           {"labelSelector", {{"matchLabels", {{"app", app}}}}}}})}}}};
}

// The pods of the first wave, in name order (the order the API server lists
// them, and so the order both schedulers queue pods of equal priority).
std::vector<json> FirstWave() {
  std::vector<json> pods;
  for (int i = 0; i < 500; ++i) {
    json p = PodJson(kNs, "batch-" + Padded(i), "250m", i % 2 == 0 ? 0 : 5, kGroup);
    p["metadata"]["labels"] = {{"app", "batch"}};
    pods.push_back(std::move(p));
  }
  for (int i = 0; i < 100; ++i) {
    json p = PodJson(kNs, "db-" + Padded(i), "1", 100, kGroup);
    p["metadata"]["labels"] = {{"app", "db"}};
    p["spec"]["affinity"] = HostnameAntiAffinity("db");
    pods.push_back(std::move(p));
  }
  for (int i = 0; i < 5; ++i) {
    // Fits nowhere, and may not preempt (so it draws nothing random).
    json p = PodJson(kNs, "huge-" + Padded(i), "64", 0, kGroup);
    p["spec"]["preemptionPolicy"] = "Never";
    pods.push_back(std::move(p));
  }
  for (int i = 0; i < 300; ++i) {
    json p = PodJson(kNs, "web-" + Padded(i), "500m", 10, kGroup);
    p["metadata"]["labels"] = {{"app", "web"}, {"tier", i < 30 ? "critical" : "normal"}};
    p["spec"]["topologySpreadConstraints"] = ZoneSpread("web");
    pods.push_back(std::move(p));
  }
  return pods;
}

json Pdb() {
  return {{"apiVersion", "policy/v1"},
          {"kind", "PodDisruptionBudget"},
          {"metadata", {{"namespace", kNs}, {"name", "web-critical"}}},
          {"spec", {{"minAvailable", 30}, {"selector", {{"matchLabels", {{"tier", "critical"}}}}}}}};
}

// Each pod's outcome as the API server has it: its node, or its
// PodScheduled=False message; and whether it still exists.
struct Outcome {
  std::string node;
  std::string unschedulable;  // PodScheduled=False message
  std::string nominated;
};

std::map<std::string, Outcome> Outcomes(kube::ApiClient& admin) {
  std::map<std::string, Outcome> out;
  const json list = Get(admin, StrCat("/api/v1/namespaces/", kNs, "/pods"));
  for (const json& pod : list["items"]) {
    Outcome o;
    o.node = pod["spec"].value("nodeName", "");
    o.nominated = pod["status"].value("nominatedNodeName", "");
    const json conditions = pod["status"].value("conditions", json::array());
    for (const json& c : conditions) {
      if (c["type"] == "PodScheduled" && c["status"] == "False") o.unschedulable = c.value("message", "");
    }
    out[pod["metadata"]["name"].get<std::string>()] = o;
  }
  return out;
}

bool Settled(const Outcome& o) { return !o.node.empty() || (!o.unschedulable.empty() && o.nominated.empty()); }

// schedkit-sim's verdicts (--output json) on `objects`, by pod name.
std::map<std::string, json> Simulate(const TestApiServer& server, const std::vector<json>& objects,
                                     bool one_at_a_time) {
  // Next to the API server's log, kept after the run.
  const std::string input = StrCat(server.dir(), one_at_a_time ? "-scale-wave2.json" : "-scale-wave1.json");
  WriteFile(input, json{{"apiVersion", "v1"}, {"kind", "List"}, {"items", objects}}.dump());
  std::vector<std::string> argv = {SchedkitSimBinary(), "--cluster", input, "--output", "json",
                                   "--tie-break",       "name",      "--seed", "7"};
  if (one_at_a_time) argv.push_back("--one-at-a-time");
  const std::string log = input + ".out";
  auto child = ChildProcess::Start(argv, log);
  REQUIRE(child.ok());
  REQUIRE((*child)->Wait(absl::Seconds(120)) == std::optional<int>(0));
  const std::string text = (*child)->Output();
  const json result = json::parse(text.substr(text.find('{')));
  std::map<std::string, json> by_name;
  for (const json& p : result["pods"]) by_name[p["name"].get<std::string>()] = p;
  return by_name;
}

TEST_CASE("schedkit-kube at scale places what schedkit-sim places, preemption included", "[e2e][scale]") {
  REQUIRE_FALSE(SchedkitKubeBinary().empty());
  REQUIRE_FALSE(SchedkitSimBinary().empty());
  // A server of its own: the simulator must see every node the scheduler
  // sees, and other cases leave theirs in the shared one.
  auto server = TestApiServer::Start();
  REQUIRE(server.ok());
  auto admin = Admin(server->get());
  CreateNamespace(*admin, kNs);
  std::vector<json> nodes;
  for (int i = 0; i < 100; ++i) nodes.push_back(NodeJson("scale-" + Padded(i), "4", kGroup, StrCat("zone-", i % 3)));
  for (const json& n : nodes) Create(*admin, "/api/v1/nodes", n);
  Create(*admin, StrCat("/apis/policy/v1/namespaces/", kNs, "/poddisruptionbudgets"), Pdb());
  const std::vector<json> wave1 = FirstWave();
  for (const json& p : wave1) Create(*admin, StrCat("/api/v1/namespaces/", kNs, "/pods"), p);

  const int port = FreeLoopbackPort();
  auto child = ChildProcess::Start(
      {SchedkitKubeBinary(), "--kubeconfig", (*server)->scheduler_kubeconfig(), "--leader-elect=false",
       "--bind-address=127.0.0.1", "--secure-port=0", StrCat("--http-port=", port), "--tie-break=name",
       "--seed=7", "--kube-api-qps=1000", "--kube-api-burst=1000"},
      (*server)->dir() + "-scale.log");
  REQUIRE(child.ok());
  INFO((*child)->Output());

  // Wave 1: all pending at the start.
  std::map<std::string, Outcome> outcomes;
  REQUIRE(Eventually(absl::Seconds(120), [&] {
    outcomes = Outcomes(*admin);
    if (outcomes.size() != wave1.size()) return false;
    for (const auto& [name, o] : outcomes) {
      if (!Settled(o)) return false;
    }
    return true;
  }));
  std::vector<json> sim_input = nodes;
  sim_input.push_back(Pdb());
  for (const json& p : wave1) sim_input.push_back(p);
  const auto sim1 = Simulate(**server, sim_input, false);
  int bound1 = 0;
  for (const auto& [name, o] : outcomes) {
    INFO(name);
    REQUIRE(sim1.contains(name));
    const json& s = sim1.at(name);
    if (!o.node.empty()) {
      ++bound1;
      CHECK(s["status"] == "Scheduled");
      CHECK(s["node"] == o.node);
    } else {
      CHECK(s["status"] == "Unschedulable");
      CHECK(s["message"] == o.unschedulable);
    }
  }
  CHECK(bound1 == 900);

  // The running pods start, as a kubelet would report: a distinct time
  // each, so that preemption's last criterion (the candidate whose victims
  // started latest) decides and no tie is left to the random start of the
  // candidate scan, whose draws depend on how often a preemptor is retried
  // before its victims' deletions reach the scheduler (a race of upstream's
  // too).
  int started = 0;
  for (const auto& [name, o] : outcomes) {
    if (o.node.empty()) continue;
    const std::string time = absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::FromUnixSeconds(1764547200 + started++),
                                              absl::UTCTimeZone());
    auto patched = admin->Do("PATCH", StrCat("/api/v1/namespaces/", kNs, "/pods/", name, "/status"),
                             json{{"status", {{"startTime", time}}}}.dump(), "application/merge-patch+json");
    REQUIRE(patched.ok());
  }
  // The scheduler's watch delivers them within milliseconds.
  std::this_thread::sleep_for(std::chrono::seconds(2));

  // Wave 2: 100 preemptors, one at a time, each settled before the next.
  std::vector<json> sim_input2 = nodes;
  sim_input2.push_back(Pdb());
  const json listed = Get(*admin, StrCat("/api/v1/namespaces/", kNs, "/pods"));
  for (json p : listed["items"]) {
    // A list's items carry no kind of their own.
    p["apiVersion"] = "v1";
    p["kind"] = "Pod";
    sim_input2.push_back(std::move(p));
  }
  const std::set<std::string> before = [&] {
    std::set<std::string> names;
    for (const auto& [name, o] : outcomes) names.insert(name);
    return names;
  }();
  for (int i = 0; i < 100; ++i) {
    const std::string name = "high-" + Padded(i);
    json p = PodJson(kNs, name, "1", 1000, kGroup);
    sim_input2.push_back(p);
    Create(*admin, StrCat("/api/v1/namespaces/", kNs, "/pods"), p);
    INFO(name);
    REQUIRE(Eventually(absl::Seconds(30), [&] {
      const json pod = Get(*admin, StrCat("/api/v1/namespaces/", kNs, "/pods/", name));
      Outcome o;
      o.node = pod["spec"].value("nodeName", "");
      o.nominated = pod["status"].value("nominatedNodeName", "");
      const json conditions = pod["status"].value("conditions", json::array());
      for (const json& c : conditions) {
        if (c["type"] == "PodScheduled" && c["status"] == "False") o.unschedulable = c.value("message", "");
      }
      return Settled(o);
    }));
  }
  outcomes = Outcomes(*admin);
  // What kube did, kept for a failing comparison: its Preempted events.
  WriteFile(StrCat((*server)->dir(), "-scale-events.json"),
            Get(*admin, StrCat("/apis/events.k8s.io/v1/namespaces/", kNs, "/events")).dump());
  const auto sim2 = Simulate(**server, sim_input2, true);
  std::set<std::string> kube_victims;
  for (const std::string& name : before) {
    if (!outcomes.contains(name)) kube_victims.insert(name);
  }
  std::set<std::string> sim_victims;
  for (int i = 0; i < 100; ++i) {
    const std::string name = "high-" + Padded(i);
    INFO(name);
    REQUIRE(sim2.contains(name));
    REQUIRE(outcomes.contains(name));
    const json& s = sim2.at(name);
    for (const json& v : s["victims"]) {
      const std::string key = v.get<std::string>();
      sim_victims.insert(key.substr(key.find('/') + 1));
    }
    if (!outcomes[name].node.empty()) {
      CHECK(s["status"] == "Scheduled");
      CHECK(s["node"] == outcomes[name].node);
    } else {
      CHECK(s["status"] == "Unschedulable");
      CHECK(s["message"] == outcomes[name].unschedulable);
    }
  }
  CHECK(kube_victims == sim_victims);
  CHECK(kube_victims.size() >= 50);  // the burst had to preempt
  // The PDB kept its 30 critical web pods.
  for (int i = 0; i < 30; ++i) CHECK(outcomes.contains("web-" + Padded(i)));

  // No node holds more cpu than it has, from the API server's objects.
  std::map<std::string, int64_t> used;
  const json final_list = Get(*admin, StrCat("/api/v1/namespaces/", kNs, "/pods"));
  for (const json& pod : final_list["items"]) {
    const std::string node = pod["spec"].value("nodeName", "");
    if (node.empty()) continue;
    const std::string cpu = pod["spec"]["containers"][0]["resources"]["requests"]["cpu"];
    used[node] += cpu.ends_with("m") ? std::stoll(cpu.substr(0, cpu.size() - 1)) : std::stoll(cpu) * 1000;
  }
  for (const auto& [node, millis] : used) {
    INFO(node);
    CHECK(millis <= 4000);
  }

  (*child)->Signal(SIGTERM);
  CHECK((*child)->Wait(absl::Seconds(30)) == std::optional<int>(0));
}

}  // namespace
}  // namespace schedkit::e2e
