// schedkit-sim end to end: runs the binary on fixture clusters and checks its
// JSON (placements, upstream's message text, hand-computed explain scores),
// determinism, and that every class of bad input exits 2 naming the culprit.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>

#include "nlohmann/json.hpp"
#include "testing/run_command.h"

namespace {

using Run = schedkit::testing::CommandRun;

std::string TestData(const std::string& name) { return std::string(SCHEDKIT_TESTS_DIR) + "/sim/testdata/" + name; }

Run Sim(const std::string& args) { return schedkit::testing::RunCommand(std::string(SCHEDKIT_SIM_BINARY) + " " + args); }

nlohmann::json Json(const Run& r) {
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  auto j = nlohmann::json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  return j;
}

const nlohmann::json& PodNamed(const nlohmann::json& j, const std::string& name) {
  for (const auto& p : j["pods"]) {
    if (p["name"] == name) return p;
  }
  FAIL("no pod " << name);
  static nlohmann::json none;
  return none;
}

TEST_CASE("placements and upstream's failure text", "[sim]") {
  auto j = Json(Sim("--cluster " + TestData("basic.yaml") + " --output json --tie-break name"));
  CHECK(j["summary"]["nodes"] == 3);
  CHECK(j["summary"]["pendingPods"] == 4);
  CHECK(j["summary"]["scheduled"] == 3);
  CHECK(j["summary"]["unschedulable"] == 1);
  CHECK(PodNamed(j, "web")["node"] == "node-a");
  CHECK(PodNamed(j, "hdd-only")["node"] == "node-b");
  CHECK(PodNamed(j, "tolerant")["node"] == "node-c");
  const auto& big = PodNamed(j, "too-big");
  CHECK(big["status"] == "Unschedulable");
  CHECK(big["node"].is_null());
  CHECK(big["message"] ==
        "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. "
        "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.");
  CHECK(big["victims"].empty());
  // Pods are reported in input order.
  CHECK(j["pods"][0]["name"] == "web");
  CHECK(j["pods"][3]["name"] == "tolerant");
}

TEST_CASE("explain: filter verdicts and hand-computed scores", "[sim]") {
  auto j = Json(Sim("--cluster " + TestData("explain.yaml") + " --output json --explain --tie-break name"));
  const auto& p = PodNamed(j, "p");
  CHECK(p["node"] == "node-a");
  CHECK(p["filter"]["node-a"]["code"] == "Success");
  CHECK(p["filter"]["node-b"]["code"] == "Success");
  const auto& a = p["scores"]["node-a"]["plugins"];
  const auto& b = p["scores"]["node-b"]["plugins"];
  // LeastAllocated: a = ((4000-1000)*100/4000 + (8Gi-1Gi)*100/8Gi) / 2 = (75 + 87) / 2 = 81;
  //                 b = (0 + (8Gi-3Gi)*100/8Gi) / 2 = (0 + 62) / 2 = 31.
  CHECK(a["NodeResourcesFit"]["score"] == 81);
  CHECK(b["NodeResourcesFit"]["score"] == 31);
  CHECK(a["NodeResourcesFit"]["weight"] == 1);
  // BalancedAllocation (v1.37): 50 + (50 + balance with the pod - balance without) / 2.
  // a: with |0.25 - 0.125| / 2 = 0.0625 → 93, without (empty) → 100: 50 + 43 / 2 = 71.
  // b: with |1 - 0.375| / 2 → 68, without |0.5 - 0.25| / 2 → 87: 50 + 31 / 2 = 65.
  CHECK(a["NodeResourcesBalancedAllocation"]["score"] == 71);
  CHECK(b["NodeResourcesBalancedAllocation"]["score"] == 65);
  // TaintToleration: no PreferNoSchedule taints → raw 0, reversed to 100, weight 3.
  CHECK(a["TaintToleration"]["score"] == 0);
  CHECK(a["TaintToleration"]["normalized"] == 100);
  CHECK(a["TaintToleration"]["weight"] == 3);
  // Totals are Σ normalized × weight over the plugins listed.
  for (const char* node : {"node-a", "node-b"}) {
    int64_t sum = 0;
    for (const auto& [name, s] : p["scores"][node]["plugins"].items()) {
      sum += s["normalized"].get<int64_t>() * s["weight"].get<int64_t>();
    }
    CHECK(p["scores"][node]["total"] == sum);
  }
  CHECK(p["scores"]["node-a"]["total"].get<int64_t>() > p["scores"]["node-b"]["total"].get<int64_t>());
}

TEST_CASE("deterministic with --tie-break name and with a fixed --seed", "[sim]") {
  const std::string base = "--cluster " + TestData("ties.yaml") + " --output json";
  auto a = Json(Sim(base + " --tie-break name"));
  auto b = Json(Sim(base + " --tie-break name"));
  CHECK(a["pods"] == b["pods"]);
  // Lowest name first: p0 goes to node-0 (all equal), and so on as nodes fill.
  CHECK(PodNamed(a, "p0")["node"] == "node-0");
  auto s1 = Json(Sim(base + " --seed 42"));
  auto s2 = Json(Sim(base + " --seed 42"));
  CHECK(s1["pods"] == s2["pods"]);
}

TEST_CASE("--help lists every flag; --cluster repeats", "[sim]") {
  const Run help = Sim("--help");
  CHECK(help.exit_code == 0);
  for (const char* flag : {"--cluster", "--config", "--output", "--explain", "--tie-break", "--seed"}) {
    CHECK(help.out.find(flag) != std::string::npos);
  }
  // Each --cluster adds its objects (3 + 8 nodes), in either spelling.
  auto j = Json(Sim("--cluster " + TestData("basic.yaml") + " --cluster=" + TestData("ties.yaml") + " --output=json"));
  CHECK(j["summary"]["nodes"] == 11);
  CHECK(j["summary"]["pendingPods"] == 12);
}

TEST_CASE("objects of kinds schedkit does not model are named, in one line and in the summary", "[sim]") {
  const Run r = Sim("--cluster " + TestData("unmodeled.yaml") + " --output json");
  auto j = Json(r);
  CHECK(j["summary"]["scheduled"] == 1);
  CHECK(j["summary"]["skippedKinds"] == nlohmann::json{{"ConfigMap", 2}, {"Deployment", 1}});
  CHECK(r.err == "schedkit-sim: warning: left out 3 object(s) of kinds it does not model: ConfigMap (2), "
                 "Deployment (1)\n");
  // Nothing left out: an empty object, and no warning.
  const Run basic = Sim("--cluster " + TestData("basic.yaml") + " --output json");
  CHECK(Json(basic)["summary"]["skippedKinds"] == nlohmann::json::object());
  CHECK(basic.err.empty());
}

// The regression scenario the upstream oracle agrees on: a ReplicaSet's six
// replicas, with no constraints of their own, spread one per node over the
// three zones (PodTopologySpread's system defaults, with the selector taken
// from the ReplicaSet and the Service), where the one big node would
// otherwise take them all; a pod nothing selects or owns is not spread.
TEST_CASE("default spreading follows the workloads that own and select pods", "[sim]") {
  const std::string dir = std::string(SCHEDKIT_TESTS_DIR) + "/conformance/regressions/default-spreading-workloads";
  auto j = Json(Sim("--cluster " + dir + " --output json --tie-break name"));
  std::set<std::string> nodes;
  for (int i = 0; i < 6; ++i) {
    const auto& pod = PodNamed(j, "web-5d8f-" + std::to_string(i));
    REQUIRE(pod["node"].is_string());
    nodes.insert(pod["node"].get<std::string>());
  }
  CHECK(nodes.size() == 6);
  CHECK(PodNamed(j, "loner")["node"] == "n1");
  CHECK(j["summary"]["skippedKinds"] == nlohmann::json::object());
}

TEST_CASE("a StatefulSet's claims follow its pods, or its pods their volumes", "[sim][storage]") {
  const std::string dir = TestData("statefulset");
  auto zones_of = [](const nlohmann::json& j) {
    std::set<std::string> zones;
    for (int i = 0; i < 3; ++i) {
      const auto& pod = PodNamed(j, "db-" + std::to_string(i));
      REQUIRE(pod["status"] == "Scheduled");
      zones.insert(pod["node"].get<std::string>().substr(0, 6));  // "node-b1" -> "node-b"
    }
    return zones;
  };
  SECTION("WaitForFirstConsumer: three zones, each claim provisioned on its pod's node") {
    for (const std::string tie : {"name", "random"}) {
      auto j = Json(Sim("--cluster " + dir + "/cluster.yaml --cluster " + dir + "/wffc --output json --tie-break " + tie));
      CHECK(zones_of(j).size() == 3);
      REQUIRE(j["claims"].size() == 3);
      for (int i = 0; i < 3; ++i) {
        const auto& claim = j["claims"][i];
        CHECK(claim["name"] == "data-db-" + std::to_string(i));
        CHECK(claim["node"] == PodNamed(j, "db-" + std::to_string(i))["node"]);
        CHECK(claim["volume"] == "pvc-uid-default-data-db-" + std::to_string(i));
      }
    }
  }
  SECTION("Immediate: the claims bind to the volumes in zone-b, and the pods follow") {
    auto j = Json(Sim("--cluster " + dir + "/cluster.yaml --cluster " + dir + "/immediate --output json"));
    CHECK(zones_of(j) == std::set<std::string>{"node-b"});
    REQUIRE(j["claims"].size() == 3);
    for (int i = 0; i < 3; ++i) {
      CHECK(j["claims"][i]["volume"] == "disk-b-" + std::to_string(i));
      CHECK_FALSE(j["claims"][i].contains("node"));
    }
  }
}

TEST_CASE("a dump naming objects it lacks is simulated, with one warning line", "[sim]") {
  // Was: exit 2 on the pod bound to a missing node, and on the missing class.
  const Run r = Sim("--cluster " + TestData("missing/dump.yaml") + " --output json --tie-break name");
  auto j = Json(r);
  CHECK(r.err ==
        "schedkit-sim: warning: the cluster lacks 2 objects that others name: Node \"nowhere\" (Pod default/lost: "
        "spec.nodeName), StorageClass \"nowhere\" (StatefulSet default/db: "
        "spec.volumeClaimTemplates[0].spec.storageClassName); scheduling the rest as kube-scheduler would\n");
  // The pod on the missing node takes no room on n1.
  CHECK(PodNamed(j, "web")["node"] == "n1");
  // The claim of the missing class is never provisioned: upstream's text
  // (regressions/dump-missing-node-and-class holds both programs to it).
  const auto& db = PodNamed(j, "db-0");
  CHECK(db["status"] == "Unschedulable");
  CHECK(db["message"] == "0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims. not found");
}

TEST_CASE("check-per-node-outcomes finds a plugin that breaks its promise", "[sim]") {
  const std::string args = " --cluster " + TestData("label_reading/cluster.yaml") + " --config " +
                           TestData("label_reading/scheduler.conf") + " --output json --tie-break name";
  const std::string sim = LABEL_READING_SIM_BINARY;
  // Unchecked, c reuses b's verdict on n2 and lands where its label forbids.
  auto j = Json(schedkit::testing::RunCommand(sim + args));
  CHECK(PodNamed(j, "c")["node"] == "n2");
  // Checked, the run fails naming the first outcome that differs.
  const Run checked = schedkit::testing::RunCommand(sim + args + " --check-per-node-outcomes");
  CHECK(checked.exit_code == 1);
  CHECK(checked.err ==
        "label_reading_sim: plugin \"ReadsPodLabels\" promises per-node outcomes (OutcomesArePerNode), but its "
        "Filter of pod default/c on node \"n2\" gives Unschedulable \"avoided\" where it passed a pod of the same "
        "signature on the node unchanged\n");
  // The in-tree plugins keep theirs on the demo cluster.
  const Run demo = Sim("--output json --check-per-node-outcomes");
  CHECK(demo.exit_code == 0);
  CHECK(demo.err.empty());
}

TEST_CASE("bad input exits 2 with one line naming the culprit", "[sim]") {
  struct Case {
    std::string args;
    std::vector<std::string> mentions;
  };
  const std::vector<Case> cases = {
      {"--cluster " + TestData("bad/quantity.yaml"), {"quantity.yaml", "Pod default/p", "spec.containers[0].resources.requests.cpu", "1.5.5"}},
      {"--cluster " + TestData("bad/malformed.yaml"), {"malformed.yaml", "line"}},
      // What the API server refuses in the DRA kinds: a selector that does
      // not compile (the in-tree registry's objects check), a malformed counter.
      {"--cluster " + TestData("bad/dra_selector.yaml"),
       {"dra_selector.yaml: document 1 (ResourceClaim default/gpu): "
        "spec.devices.requests[0].exactly.selectors[0].cel.expression: Invalid value: \"device.foo == 1\": "
        "compilation failed: ERROR: <input>:1:7: undefined field 'foo'"}},
      {"--cluster " + TestData("bad/dra_counter.yaml"),
       {"dra_counter.yaml: document 1 (ResourceSlice node-1-counters)", "spec.sharedCounters[0].counters[memory].value",
        "80Gx"}},
      {"--cluster " + TestData("bad/template_quantity.yaml"),
       {"template_quantity.yaml", "ReplicaSet default/web", "spec.template.spec.containers[0].resources.requests.cpu",
        "2..5"}},
      {"--cluster " + TestData("basic.yaml") + " --config " + TestData("bad/unknown_plugin_config.yaml"),
       {"FilterPlugin \"NoSuchPlugin\" does not exist; registered plugins: ", "NodeResourcesFit",
        "(add yours with registry.Add)"}},
      {"--cluster " + TestData("basic.yaml") + " --config " + TestData("bad/coscheduling_config.yaml"),
       {"\"Coscheduling\" does not exist; Coscheduling is an out-of-tree plugin (kubernetes-sigs/scheduler-plugins)",
        "registry.Add(\"Coscheduling\", factory)"}},
      {"--cluster " + TestData("basic.yaml") + " --config " + TestData("bad/plugin_args_config.yaml"),
       {"plugin_args_config.yaml: profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 900: "
        "not in valid range [0, 100] (plugin \"DefaultPreemption\", profile \"default-scheduler\")"}},
      {"--cluster " + TestData("basic.yaml") + " --config " + TestData("bad/plugin_args_utf8_config.yaml"),
       {"plugin_args_utf8_config.yaml: profiles[0].pluginConfig[0].args.scoringStrategy.type: invalid UTF-8 "
        "(plugin \"NodeResourcesFit\")"}},
      {"--feature-gates=Foo=true", {"--feature-gates: unrecognized feature gate: Foo"}},
      {"--feature-gates=SchedulerPopFromBackoffQ=false",
       {"--feature-gates: feature gate SchedulerPopFromBackoffQ=false: schedkit does not model it"}},
      {"--cluster " + TestData("does-not-exist.yaml"), {"does-not-exist.yaml"}},
      {"--cluster " + TestData("basic.yaml") + " --output xml", {"--output"}},
      {"--tie-break sometimes", {"--tie-break"}},
      {"--seed minus-one", {"--seed"}},
      {"--frobnicate", {"--frobnicate"}},
      {"--seed", {"--seed", "needs a value"}},
      {"stray-argument", {"stray-argument"}},
  };
  for (const Case& c : cases) {
    INFO(c.args);
    Run r = Sim(c.args);
    CHECK(r.exit_code == 2);
    INFO("stderr: " << r.err);
    CHECK(r.out.empty());
    for (const auto& m : c.mentions) CHECK_THAT(r.err, Catch::Contains(m));
  }
}

TEST_CASE("the bundled demo runs, schedules and preempts", "[sim]") {
  auto j = Json(Sim("--output json --tie-break name"));
  CHECK(j["summary"]["nodes"] == 20);
  CHECK(j["summary"]["pendingPods"] == 108);
  // The StatefulSet's replicas are made from its template, and their claims provisioned where they run.
  REQUIRE(j["claims"].size() == 3);
  for (int i = 0; i < 3; ++i) {
    CHECK(j["claims"][i]["node"] == PodNamed(j, "orders-db-" + std::to_string(i))["node"]);
  }
  CHECK(j["summary"]["scheduled"].get<int>() >= 95);
  // The GPU pool (DRA): three fine-tuning pods get two GPUs of one PCIe
  // root each, from their claim templates, and two inference pods share one
  // claim. Pods of one template are alike but their claims are not: each
  // pod's cycle allocates afresh (no outcome is reused).
  std::map<std::string, std::string> node_of_claim;
  for (const auto& c : j["resourceClaims"]) {
    INFO(c.dump());
    REQUIRE(c["allocation"].is_array());
    const std::string node = c["allocation"][0]["pool"];
    for (const auto& d : c["allocation"]) CHECK(d["pool"] == node);
    if (c["allocation"].size() == 2) {
      // Same root: gpu-0/gpu-1 or gpu-2/gpu-3.
      CHECK(c["allocation"][0]["device"].get<std::string>().back() / 2 ==
            c["allocation"][1]["device"].get<std::string>().back() / 2);
    }
    for (const auto& pod : c["reservedFor"]) CHECK(PodNamed(j, pod)["node"] == node);
    node_of_claim[c["name"]] = node;
  }
  CHECK(j["resourceClaims"].size() == 4);
  CHECK(node_of_claim.contains("inference-gpu"));
  for (const std::string pod : {"finetune-0", "finetune-1", "finetune-2", "inference-0", "inference-1"}) {
    CHECK(PodNamed(j, pod)["status"] == "Scheduled");
  }
  CHECK(PodNamed(j, "giant")["status"] == "Unschedulable");
  int victims = 0;
  for (const auto& p : j["pods"]) victims += static_cast<int>(p["victims"].size());
  CHECK(victims > 0);
  Run table = Sim("--output table --tie-break name");
  CHECK(table.exit_code == 0);
  CHECK_THAT(table.out, Catch::Contains("batch/giant"));
  CHECK_THAT(table.out, Catch::Contains("pending pods on 20 nodes"));
}

// `make demo` runs the simulator without flags: the same placements on
// every run (a fixed seed, printed), and a summary that counts the victims.
TEST_CASE("the demo repeats itself and its summary counts the victims", "[sim]") {
  auto a = Json(Sim("--output json"));
  auto b = Json(Sim("--output json"));
  CHECK(a["pods"] == b["pods"]);
  CHECK(a["summary"]["seed"] == 1);
  int victims = 0;
  for (const auto& p : a["pods"]) victims += static_cast<int>(p["victims"].size());
  CHECK(victims > 0);
  CHECK(a["summary"]["preempted"] == victims);
  Run table = Sim("--output table");
  CHECK(table.exit_code == 0);
  CHECK_THAT(table.out, Catch::Contains(std::to_string(victims) + " preempted in "));
  CHECK_THAT(table.out, Catch::Contains(", seed 1)"));
  // --seed 0 picks a seed and says which.
  auto r = Json(Sim("--output json --seed 0"));
  CHECK(r["summary"]["seed"].get<uint64_t>() != 0);
}

// The README's excerpt of `make demo` is what the demo prints: every row it
// shows, and the summary up to its timing.
TEST_CASE("the README's demo excerpt matches the demo", "[sim]") {
  std::ifstream in(std::string(SCHEDKIT_TESTS_DIR) + "/../README.md");
  REQUIRE(in);
  std::string readme((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t start = readme.find("```\nPOD ");
  REQUIRE(start != std::string::npos);
  const size_t end = readme.find("```", start + 4);
  REQUIRE(end != std::string::npos);
  const Run demo = Sim("--output table");
  REQUIRE(demo.exit_code == 0);
  auto trimmed = [](std::string line) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line;
  };
  std::set<std::string> printed;
  std::istringstream out(demo.out);
  for (std::string line; std::getline(out, line);) printed.insert(trimmed(line));
  std::istringstream excerpt(readme.substr(start + 4, end - start - 4));
  int rows = 0;
  for (std::string line; std::getline(excerpt, line);) {
    line = trimmed(line);
    if (line.empty() || line == "...") continue;
    INFO(line);
    if (line.find(" pending pods on ") != std::string::npos) {
      const std::string summary = line.substr(0, line.find(" in "));
      CHECK_THAT(demo.out, Catch::Contains(summary + " in "));
      CHECK_THAT(line, Catch::EndsWith(", seed 1)"));
    } else {
      CHECK(printed.count(line) == 1);
    }
    ++rows;
  }
  CHECK(rows >= 8);
}

}  // namespace
