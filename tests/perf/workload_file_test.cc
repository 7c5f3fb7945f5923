// schedkit-perf --workload-file and --from-kubectl: the shipped MixedDistinct
// file runs to the end at a tiny scale, a kubectl dump becomes a workload
// that runs, what --vs-upstream hands the oracle (cluster and timeline) is the
// same run, and bad files are refused naming the file and the field. No
// speed is asserted.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "schedkit/api/v1/kinds.h"
#include "schedkit/api/decode.h"
#include "scratch_dir.h"
#include "testing/run_command.h"

namespace {

namespace fs = std::filesystem;
using Run = schedkit::testing::CommandRun;

Run Perf(const std::string& args, const std::string& env = "") {
  return schedkit::testing::RunCommand(env + " " + std::string(SCHEDKIT_PERF_BINARY) + " " + args);
}

std::string Source(const std::string& relative) { return std::string(SCHEDKIT_TESTS_DIR) + "/../" + relative; }

nlohmann::json SummaryOf(const std::string& out) {
  const auto j = nlohmann::json::parse(out, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  for (const auto& item : j["dataItems"]) {
    if (item["labels"]["Metric"] == "Summary") return item["data"];
  }
  FAIL("no Summary item");
  return {};
}

using Dir = schedkit::perf::testing::ScratchDir;

// A fake oracle that keeps the cluster and timeline it was given and says it
// bound `binds` pods.
std::string FakeOracle(const Dir& dir, int binds) {
  return dir.WriteCapturingOracle("{\"pendingPods\": 1, \"scheduled\": 1, \"binds\": " + std::to_string(binds) +
                                  ", \"seconds\": 2.0}");
}

// schedkit-perf with --vs-upstream against FakeOracle: the oracle's input
// lands in `dir` (cluster.json, timeline.json), the run's scratch in dir/tmp.
Run PerfVsFakeOracle(const Dir& dir, const std::string& args, int binds) {
  const std::string oracle = FakeOracle(dir, binds);
  fs::create_directories(dir.path / "tmp");
  return Perf(args + " --output json --vs-upstream --oracle " + oracle,
              "CAPTURE=" + dir.path.string() + " TMPDIR=" + (dir.path / "tmp").string());
}

// The timeline the fake oracle was last given.
nlohmann::json OracleTimeline(const Dir& dir) {
  std::ifstream in(dir.path / "timeline.json");
  return nlohmann::json::parse(in);
}

const char kMinimal[] = R"(apiVersion: perf.schedkit.io/v1
kind: Workload
name: Tiny
nodeGroups:
- {name: n, count: 4, zones: [a, b], allocatable: {cpu: "4", memory: 8Gi, pods: "10"}}
podGroups:
- name: resident
  pods:
  - pod: {metadata: {name: old, namespace: apps}, spec: {nodeName: n-0, containers: [{name: c, image: i, resources: {requests: {cpu: "1"}}}]}}
- {name: base, namespace: apps, phase: init, count: 4,
   template: {spec: {containers: [{name: c, image: i, resources: {requests: {cpu: 500m}}}]}}}
- {name: web, namespace: apps, count: 6, at: 1, every: 0.5, lifetime: 2,
   template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: i, resources: {requests: {cpu: 250m, memory: 1Gi}}}]}},
   vary: {cpu: [100m, 300m], memory: [512Mi, 1Gi]}}
)";

}  // namespace

TEST_CASE("MixedDistinct, shipped as a workload file, runs to the end at a tiny scale", "[perf][workload-file]") {
  const Run r = Perf("--workload-file " + Source("bench/perf/workloads/mixed-distinct.yaml") +
                     " --scale 0.05 --output json --stall-timeout 60");
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json s = SummaryOf(r.out);
  CHECK(s["Complete"] == true);
  CHECK(s["Nodes"] == 51);  // 30 + 13 + 5 + 3 (counts x 0.05, rounded)
  CHECK(s["InitPods"] == 250);
  CHECK(s["InitScheduled"] == 250);
  CHECK(s["MeasuredPods"].get<int>() > 500);
  CHECK(s["Batches"].get<int>() > 100);
  CHECK(s["TraceDeletions"].get<int>() > 0);
  // Every measured pod was bound, is still pending, or was deleted first.
  CHECK(s["MeasuredScheduled"].get<int>() + s["PendingAtEnd"].get<int>() <= s["MeasuredPods"].get<int>());
  CHECK(s["MeasuredScheduled"].get<int>() > 0);
  CHECK_FALSE(s.contains("MeasuredSchedulable"));
}

TEST_CASE("a workload file's pods, groups, times and ranges become the run and the oracle's input",
          "[perf][workload-file]") {
  Dir dir;
  const std::string file = dir.Write("tiny.yaml", kMinimal);
  const Run r = PerfVsFakeOracle(dir, "--workload-file " + file, 6);
  INFO("stderr: " << r.err << "\nstdout: " << r.out);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json s = SummaryOf(r.out);
  CHECK(s["Nodes"] == 4);
  CHECK(s["InitScheduled"] == 4);
  CHECK(s["MeasuredPods"] == 6);
  CHECK(s["MeasuredScheduled"] == 6);
  CHECK(s["TraceDeletions"] == 6);
  // Arrivals at 1, 1.5, ..., 3.5 and deletions 2 s later: 1..5.5 in 0.5 steps.
  CHECK(s["Batches"] == 10);

  // The oracle's cluster: 4 nodes, the resident pod and the init pods bound,
  // the 6 measured pods pending with requests of their own.
  auto cluster = schedkit::api::LoadPaths({(dir.path / "cluster.json").string()});
  REQUIRE(cluster.ok());
  CHECK(cluster->objects.Of<schedkit::api::v1::Node>().size() == 4);
  int bound = 0;
  std::set<std::string> sizes;
  for (const auto& pod : cluster->objects.Of<schedkit::api::v1::Pod>()) {
    if (!pod.spec().node_name().empty()) {
      ++bound;
      continue;
    }
    const auto& req = pod.spec().containers(0).resources().requests();
    sizes.insert(req.at("cpu") + "/" + req.at("memory"));
    CHECK(pod.metadata().uid().rfind("measured:", 0) == 0);
  }
  CHECK(bound == 5);
  CHECK(sizes.size() == 6);
  // The timeline: deletions before arrivals within an instant, in time order.
  const nlohmann::json timeline = OracleTimeline(dir);
  REQUIRE(timeline["batches"].size() == 10);
  CHECK(timeline["batches"][0]["at"] == 1.0);
  CHECK(timeline["batches"][0]["create"] == nlohmann::json::array({"apps/web-0"}));
  CHECK(timeline["batches"][4]["at"] == 3.0);
  CHECK(timeline["batches"][4]["delete"] == nlohmann::json::array({"apps/web-0"}));
  CHECK(timeline["batches"][4]["create"] == nlohmann::json::array({"apps/web-4"}));
  CHECK(timeline["batches"][9]["delete"] == nlohmann::json::array({"apps/web-5"}));
  CHECK(fs::is_empty(dir.path / "tmp"));
}

TEST_CASE("the scale flag multiplies node and templated pod counts, at the file's instants",
          "[perf][workload-file]") {
  Dir dir;
  const std::string file = dir.Write("tiny.yaml", kMinimal);
  const Run r = PerfVsFakeOracle(dir, "--workload-file " + file + " --scale 2", 12);
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json s = SummaryOf(r.out);
  CHECK(s["Nodes"] == 8);
  CHECK(s["InitPods"] == 8);
  CHECK(s["MeasuredPods"] == 12);
  CHECK(s["TraceDeletions"] == 12);
  // Two pods at each of scale 1's instants: still 10 batches.
  CHECK(s["Batches"] == 10);
  const nlohmann::json timeline = OracleTimeline(dir);
  REQUIRE(timeline["batches"].size() == 10);
  CHECK(timeline["batches"][0]["at"] == 1.0);
  CHECK(timeline["batches"][0]["create"] == nlohmann::json::array({"apps/web-0", "apps/web-1"}));
  CHECK(timeline["batches"][4]["at"] == 3.0);
  CHECK(timeline["batches"][4]["delete"] == nlohmann::json::array({"apps/web-0", "apps/web-1"}));
  CHECK(timeline["batches"][4]["create"] == nlohmann::json::array({"apps/web-8", "apps/web-9"}));

  // Below 1, the pods take every other instant: at 0.5, 3 pods at 1, 2 and 3,
  // deleted at 3, 4 and 5.
  const Run half = PerfVsFakeOracle(dir, "--workload-file " + file + " --scale 0.5", 3);
  REQUIRE(half.exit_code == 0);
  const nlohmann::json half_timeline = OracleTimeline(dir);
  REQUIRE(half_timeline["batches"].size() == 5);
  CHECK(half_timeline["batches"][0]["at"] == 1.0);
  CHECK(half_timeline["batches"][1]["at"] == 2.0);
  CHECK(half_timeline["batches"][1]["create"] == nlohmann::json::array({"apps/web-1"}));
  CHECK(half_timeline["batches"][2]["delete"] == nlohmann::json::array({"apps/web-0"}));
  CHECK(half_timeline["batches"][2]["create"] == nlohmann::json::array({"apps/web-2"}));
}

TEST_CASE("until keeps the timeline's instants before it, for schedkit and the oracle alike",
          "[perf][workload-file]") {
  Dir dir;
  const std::string file = dir.Write("tiny.yaml", kMinimal);
  // Arrivals at 1, 1.5 and 2 are kept; 2.5 and on, and every deletion (3 and on), are not.
  const Run r = PerfVsFakeOracle(dir, "--workload-file " + file + " --until 2.5", 3);
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json s = SummaryOf(r.out);
  CHECK(s["InitPods"] == 4);
  CHECK(s["MeasuredPods"] == 3);
  CHECK(s["MeasuredScheduled"] == 3);
  CHECK(s["Batches"] == 3);
  CHECK(s["TraceDeletions"] == 0);
  const nlohmann::json timeline = OracleTimeline(dir);
  REQUIRE(timeline["batches"].size() == 3);
  CHECK(timeline["batches"][2]["create"] == nlohmann::json::array({"apps/web-2"}));
  auto cluster = schedkit::api::LoadPaths({(dir.path / "cluster.json").string()});
  REQUIRE(cluster.ok());
  int pending = 0;
  for (const auto& pod : cluster->objects.Of<schedkit::api::v1::Pod>()) pending += pod.spec().node_name().empty() ? 1 : 0;
  CHECK(pending == 3);

  // 4 keeps the deletion at 3 of the pod that came at 1.
  const Run later = Perf("--workload-file " + file + " --until 4 --output json");
  REQUIRE(later.exit_code == 0);
  const nlohmann::json l = SummaryOf(later.out);
  CHECK(l["MeasuredPods"] == 6);
  CHECK(l["TraceDeletions"] == 2);  // at 3 and 3.5
  CHECK(l["Batches"] == 6);

  for (const std::string& bad :
       {std::string("--workload SchedulingBasic --until 5"), "--workload-file " + file + " --until -1"}) {
    const Run refused = Perf(bad);
    CHECK(refused.exit_code == 2);
    CHECK(refused.err.find("--until") != std::string::npos);
  }
}

// One node with 3 cpu: `a` (3 cpu, high) holds it from 0 until `delete_a_at`;
// x (2 cpu, no priority) arrives at 1 and y (2 cpu, high) at 2.1, neither
// fits, and each waits a 1 s backoff, which ends in the queue's 1-second
// windows: x's at the window of 2 s, y's at that of 3 s (a pod backs off
// while its window is not past). Whoever the deletion's requeue puts first
// binds; if that is x, y preempts it.
std::string BackoffWorkload(const std::string& delete_a_at) {
  auto pod = [](const char* name, const char* cpu, const char* priority_class) {
    return std::string("pod: {metadata: {name: ") + name + ", namespace: apps}, spec: {" + priority_class +
           "containers: [{name: c, image: i, resources: {requests: {cpu: \"" + cpu + "\"}}}]}}";
  };
  return "apiVersion: perf.schedkit.io/v1\nkind: Workload\nname: Backoff\n"
         "priorityClasses:\n"
         "- {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: high}, value: 1000}\n"
         "nodeGroups:\n- {name: n, count: 1, allocatable: {cpu: \"3\", memory: 8Gi, pods: \"10\"}}\n"
         "podGroups:\n- name: p\n  pods:\n"
         "  - {at: 0, deleteAt: " + delete_a_at + ", " + pod("a", "3", "priorityClassName: high, ") + "}\n"
         "  - {at: 1, " + pod("x", "2", "") + "}\n"
         "  - {at: 2.1, " + pod("y", "2", "priorityClassName: high, ") + "}\n";
}

// The scheduler runs on the trace's clock, whatever its speed: these runs
// take milliseconds, and the outcomes depend on seconds and minutes of trace.
TEST_CASE("a trace runs on its own clock: backoffs and the unschedulable pool's timeout follow trace time",
          "[perf][workload-file]") {
  Dir dir;
  SECTION("a backoff that has expired in trace time puts the pod in activeQ, ahead of one still backing off") {
    // At 3.5 x's backoff is over and y's is not: x goes to activeQ and
    // binds, then y preempts it and binds.
    Run r = Perf("--workload-file " + dir.Write("early.yaml", BackoffWorkload("3.5")) + " --output json");
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    nlohmann::json s = SummaryOf(r.out);
    CHECK(s["PreemptionVictims"] == 1);
    CHECK(s["MeasuredScheduled"] == 3);
    // At 4.5 both are over: both go to activeQ, where y's priority puts it first.
    r = Perf("--workload-file " + dir.Write("late.yaml", BackoffWorkload("4.5")) + " --output json");
    REQUIRE(r.exit_code == 0);
    s = SummaryOf(r.out);
    CHECK(s["PreemptionVictims"] == 0);
    CHECK(s["MeasuredScheduled"] == 2);
    CHECK(s["PendingAtEnd"] == 1);
  }
  SECTION("a pod left over five minutes of trace in the unschedulable pool is tried again") {
    // `big` fits nowhere; `small` binds, which wakes no one. The queue's
    // 30-second flush retries `big` once it has waited over 5 minutes (the
    // tick at 330 s), so only the later arrival sees a third attempt.
    auto file = [&](const char* small_at) {
      return dir.Write(
          std::string("leftover-") + small_at + ".yaml",
          std::string("apiVersion: perf.schedkit.io/v1\nkind: Workload\nname: Leftover\n"
                      "nodeGroups:\n- {name: n, count: 1, allocatable: {cpu: \"4\", memory: 8Gi, pods: \"10\"}}\n"
                      "podGroups:\n- name: p\n  pods:\n"
                      "  - {at: 0, pod: {metadata: {name: big, namespace: apps}, spec: {containers: [{name: c, "
                      "image: i, resources: {requests: {cpu: \"8\"}}}]}}}\n"
                      "  - {at: ") +
              small_at +
              ", pod: {metadata: {name: small, namespace: apps}, spec: {containers: [{name: c, image: i, "
              "resources: {requests: {cpu: \"1\"}}}]}}}\n");
    };
    // 11.6 days later is the same as 400 s: an idle gap is cut to 370 s
    // (ClockInstants), past every timer's effect.
    for (const auto& [small_at, attempts] :
         {std::pair{"200", 2}, std::pair{"400", 3}, std::pair{"1000000", 3}}) {
      const Run r = Perf("--workload-file " + file(small_at) + " --output json");
      INFO("small at " << small_at << "; stderr: " << r.err);
      REQUIRE(r.exit_code == 0);
      const nlohmann::json s = SummaryOf(r.out);
      CHECK(s["MeasuredScheduled"] == 1);
      CHECK(s["PendingAtEnd"] == 1);
      CHECK(s["MeasuredAttempts"] == attempts);
    }
    // The oracle's clock makes the same cut.
    const Run r = PerfVsFakeOracle(dir, "--workload-file " + file("1000000"), 1);
    REQUIRE(r.exit_code == 0);
    const nlohmann::json timeline = OracleTimeline(dir);
    REQUIRE(timeline["batches"].size() == 2);
    CHECK(timeline["batches"][0]["at"] == 0.0);
    CHECK(timeline["batches"][1]["at"] == 370.0);
  }
}

TEST_CASE("a kubectl dump becomes a workload that replays the cluster's pods", "[perf][workload-file]") {
  Dir dir;
  const Run converted = Perf("--from-kubectl " + Source("tests/perf/testdata/kubectl-dump.yaml") + " --name Shop");
  INFO("stderr: " << converted.err);
  REQUIRE(converted.exit_code == 0);
  const nlohmann::json w = nlohmann::json::parse(converted.out);
  CHECK(w["name"] == "Shop");
  CHECK(w["nodes"].size() == 3);
  // Staying: the mirror pod and the other scheduler's pod. Replayed, by
  // creationTimestamp: the DaemonSet pod, web-1, web-2, the pending batch pod.
  // Left out: the finished and the terminating pod.
  std::map<std::string, std::vector<nlohmann::json>> groups;
  for (const auto& g : w["podGroups"]) groups[g["name"]] = g["pods"];
  REQUIRE(groups["staying"].size() == 2);
  REQUIRE(groups["replayed"].size() == 4);
  std::vector<std::string> order;
  std::vector<double> at;
  for (const auto& e : groups["replayed"]) {
    order.push_back(e["pod"]["metadata"]["name"]);
    at.push_back(e["at"]);
    CHECK_FALSE(e["pod"]["spec"].contains("nodeName"));
  }
  CHECK(order == std::vector<std::string>{"agent-x1", "web-1", "web-2", "batch-7"});
  CHECK(at == std::vector<double>{0, 55, 57.5, 115});

  const std::string file = dir.Write("shop.json", converted.out);
  const Run r = Perf("--workload-file " + file + " --output json");
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json s = SummaryOf(r.out);
  CHECK(s["MeasuredPods"] == 4);
  CHECK(s["MeasuredScheduled"] == 4);
  CHECK(s["PendingAtEnd"] == 0);

  // --keep-bound: only the pending pod is replayed.
  const Run kept = Perf("--from-kubectl " + Source("tests/perf/testdata/kubectl-dump.yaml") + " --keep-bound");
  REQUIRE(kept.exit_code == 0);
  const nlohmann::json k = nlohmann::json::parse(kept.out);
  for (const auto& g : k["podGroups"]) {
    CHECK(g["pods"].size() == (g["name"] == "staying" ? 5u : 1u));
  }
}

TEST_CASE("bad workload files exit 2 naming the file and the field", "[perf][workload-file]") {
  Dir dir;
  struct Case {
    const char* what;
    std::string text;
    std::string expect;  // in stderr, after the file's path
  };
  const std::string nodes = "nodeGroups:\n- {name: n, count: 2, allocatable: {cpu: \"4\", memory: 8Gi, pods: \"10\"}}\n";
  const std::string pod = "template: {spec: {containers: [{name: c, image: i}]}}";
  const std::vector<Case> cases = {
      {"not YAML", "nodeGroups: [", "line"},
      {"an unknown field", nodes + "podGroups:\n- {name: w, count: 1, " + pod + ", colour: red}\n",
       "podGroups[0].colour: unknown field"},
      {"no count", nodes + "podGroups:\n- {name: w, " + pod + "}\n", "podGroups[0].count: required"},
      {"a count of 0", nodes + "podGroups:\n- {name: w, count: 0, " + pod + "}\n", "podGroups[0].count: must be at least 1"},
      {"a bad quantity in vary", nodes + "podGroups:\n- {name: w, count: 1, " + pod + ", vary: {cpu: [1x, 2]}}\n",
       "podGroups[0].vary.cpu[0]"},
      {"a range upside down", nodes + "podGroups:\n- {name: w, count: 1, " + pod + ", vary: {cpu: [2, 1]}}\n",
       "podGroups[0].vary.cpu: must be [low, high]"},
      {"a bad quantity in a template",
       nodes + "podGroups:\n- {name: w, count: 1, template: {spec: {containers: [{name: c, image: i, resources: "
               "{requests: {cpu: 1.5.5}}}]}}}\n",
       "podGroups[0].template"},
      {"an unknown priority class",
       nodes + "podGroups:\n- {name: w, count: 1, template: {spec: {priorityClassName: gold, containers: [{name: c, "
               "image: i}]}}}\n",
       "\"gold\" is not among priorityClasses"},
      {"a deletion before the arrival",
       nodes + "podGroups:\n- pods:\n  - {at: 5, deleteAt: 3, pod: {metadata: {name: p}, spec: {containers: [{name: "
               "c, image: i}]}}}\n",
       "podGroups[0].pods[0]: deleted at 3 s, not after its arrival at 5 s"},
      {"a bound pod on no node",
       nodes + "podGroups:\n- pods:\n  - pod: {metadata: {name: p}, spec: {nodeName: ghost, containers: [{name: c, "
               "image: i}]}}\n",
       "\"ghost\" is no node"},
      {"no nodes", "podGroups:\n- {name: w, count: 1, " + pod + "}\n", "no nodes"},
      {"no measured pods", nodes, "podGroups: no measured pods"},
      {"a node group without allocatable", "nodeGroups:\n- {name: n, count: 2}\n",
       "nodeGroups[0].allocatable: required"},
      {"the wrong apiVersion", "apiVersion: v2\n" + nodes, "apiVersion: must be perf.schedkit.io/v1"},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.what) {
      const std::string file = dir.Write("bad.yaml", c.text);
      const Run r = Perf("--workload-file " + file);
      INFO("stderr: " << r.err);
      CHECK(r.exit_code == 2);
      CHECK(r.err.find(file) != std::string::npos);
      CHECK(r.err.find(c.expect) != std::string::npos);
    }
  }
  const Run missing = Perf("--workload-file " + (dir.path / "absent.yaml").string());
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("absent.yaml") != std::string::npos);
  const Run both = Perf("--workload SchedulingBasic --workload-file x.yaml");
  CHECK(both.exit_code == 2);
  const Run sized = Perf("--workload-file x.yaml --nodes 5");
  CHECK(sized.exit_code == 2);
  CHECK(sized.err.find("--scale") != std::string::npos);
  const Run dump = Perf("--from-kubectl " + (dir.path / "absent.yaml").string());
  CHECK(dump.exit_code == 2);
}
