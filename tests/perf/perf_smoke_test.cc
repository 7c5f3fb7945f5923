// schedkit-perf smoke test: every workload at tiny sizes runs to the end
// (exit 0) and binds every init and measured pod, reported in its
// DataItems JSON. It never asserts speed: timing belongs in bench/.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "schedkit/api/v1/kinds.h"
#include "schedkit/api/decode.h"
#include "scratch_dir.h"
#include "testing/run_command.h"

namespace {

using Run = schedkit::testing::CommandRun;
using schedkit::perf::testing::ScratchDir;

// Runs schedkit-perf with `args`, after `env` (shell variable assignments).
Run Perf(const std::string& args, const std::string& env = "") {
  return schedkit::testing::RunCommand(env + " " + std::string(SCHEDKIT_PERF_BINARY) + " " + args);
}

const nlohmann::json* ItemFor(const nlohmann::json& j, const std::string& metric) {
  for (const auto& item : j["dataItems"]) {
    if (item["labels"]["Metric"] == metric) return &item;
  }
  return nullptr;
}

struct Tiny {
  const char* workload;
  int nodes, init_pods, pods;
};

// Sizes where every pod fits: anti-affinity pods need a node each,
// PreemptionBasic keeps upstream's 1 : 4 : 1 ratio (4 low-priority pods fill
// a node, one preemptor per node).
const std::vector<Tiny> kTiny = {
    {"SchedulingBasic", 20, 20, 40},
    {"SchedulingPodAntiAffinity", 20, 5, 10},
    {"SchedulingPodAffinity", 20, 20, 40},
    {"SchedulingPreferredPodAffinity", 20, 20, 40},
    {"SchedulingPreferredPodAntiAffinity", 20, 20, 40},
    {"SchedulingNodeAffinity", 20, 20, 40},
    {"TopologySpreading", 20, 20, 40},
    {"PreferredTopologySpreading", 20, 20, 40},
    {"MixedSchedulingBasePod", 20, 4, 40},
    {"PreemptionBasic", 20, 80, 20},
    {"Unschedulable", 20, 20, 40},
    {"SchedulingWithMixedChurn", 20, 0, 40},
    {"SchedulingDaemonset", 20, 0, 40},
};

}  // namespace

TEST_CASE("every workload completes at tiny sizes and binds every pod", "[perf]") {
  for (const Tiny& t : kTiny) {
    for (const bool distinct : {false, true}) {
      DYNAMIC_SECTION(t.workload << (distinct ? " --distinct-pods" : "")) {
        const std::string args = std::string("--workload ") + t.workload + " --nodes " + std::to_string(t.nodes) +
                                 " --init-pods " + std::to_string(t.init_pods) + " --pods " + std::to_string(t.pods) +
                                 " --output json --stall-timeout 60" + (distinct ? " --distinct-pods" : "");
        const Run r = Perf(args);
        INFO("args: " << args << "\nstderr: " << r.err << "\nstdout: " << r.out);
        REQUIRE(r.exit_code == 0);
        const auto j = nlohmann::json::parse(r.out, nullptr, false);
        REQUIRE_FALSE(j.is_discarded());
        CHECK(j["version"] == "v1");

        const nlohmann::json* summary = ItemFor(j, "Summary");
        REQUIRE(summary != nullptr);
        const auto& s = (*summary)["data"];
        CHECK(s["Complete"] == true);
        CHECK(s["MeasuredPods"] == t.pods);
        CHECK(s["MeasuredScheduled"] == s["MeasuredSchedulable"]);
        CHECK(s["MeasuredScheduled"] == t.pods);
        CHECK(s["InitScheduled"] == s["InitPods"]);
        CHECK(s["DistinctPods"] == distinct);

        // The shapes a dashboard reads (values may be absent for so short a run).
        const nlohmann::json* tp = ItemFor(j, "SchedulingThroughput");
        REQUIRE(tp != nullptr);
        CHECK((*tp)["unit"] == "pods/s");
        CHECK((*tp)["labels"]["Name"] == std::string(t.workload) + "/" + std::to_string(t.nodes) + "Nodes_" +
                                             std::to_string(t.pods) + "Pods" + (distinct ? "/DistinctPods" : ""));
        const nlohmann::json* whole = ItemFor(j, "SchedulingThroughputWholeRun");
        REQUIRE(whole != nullptr);
        CHECK((*whole)["data"].contains("Average"));
        const nlohmann::json* attempts = ItemFor(j, "SchedulingAttemptDuration");
        REQUIRE(attempts != nullptr);
        CHECK((*attempts)["unit"] == "ms");
        CHECK(ItemFor(j, "PeakRSS") != nullptr);
        CHECK(ItemFor(j, "MemoryReadFloor") != nullptr);
        const nlohmann::json* memory = ItemFor(j, "Memory");
        REQUIRE(memory != nullptr);
        CHECK((*memory)["data"]["BytesPerNode"].get<double>() >= 0);
      }
    }
  }
}

TEST_CASE("binding on the pool (--bind-on-pool) also binds every pod, and the report says where", "[perf]") {
  for (const char* workload : {"SchedulingBasic", "PreemptionBasic"}) {
    DYNAMIC_SECTION(workload) {
      const std::string sizes = std::string(workload) == "PreemptionBasic" ? " --nodes 10 --init-pods 40 --pods 10"
                                                                            : " --nodes 20 --init-pods 20 --pods 40";
      for (const bool pool : {false, true}) {
        const Run r = Perf(std::string("--workload ") + workload + sizes + " --output json --stall-timeout 60" +
                           (pool ? " --bind-on-pool" : ""));
        INFO("pool: " << pool << "\nstderr: " << r.err << "\nstdout: " << r.out);
        REQUIRE(r.exit_code == 0);
        const auto j = nlohmann::json::parse(r.out, nullptr, false);
        REQUIRE_FALSE(j.is_discarded());
        const nlohmann::json* summary = ItemFor(j, "Summary");
        REQUIRE(summary != nullptr);
        CHECK((*summary)["data"]["Binding"] == (pool ? "pool" : "scheduling thread"));
        CHECK((*summary)["data"]["Complete"] == true);
        CHECK((*summary)["data"]["MeasuredScheduled"] == (*summary)["data"]["MeasuredPods"]);
      }
    }
  }
}

TEST_CASE("PreemptionBasic preempts for every measured pod", "[perf]") {
  const Run r = Perf("--workload PreemptionBasic --nodes 10 --init-pods 40 --pods 10 --output json --stall-timeout 60");
  INFO("stderr: " << r.err);
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  const auto& s = (*ItemFor(j, "Summary"))["data"];
  // Each 3-cpu pod needs 3 of its node's 4 low-priority 900m pods gone.
  CHECK(s["PreemptionVictims"] == 30);
  CHECK(s["MeasuredScheduled"] == 10);
}

TEST_CASE("the shipped score-all-nodes configuration loads and schedules every pod", "[perf]") {
  const std::string config = std::string(SCHEDKIT_TESTS_DIR) + "/../bench/perf/configs/score-all-nodes.yaml";
  const Run r = Perf("--workload SchedulingBasic --nodes 20 --init-pods 20 --pods 40 --output json --config " + config);
  INFO("stderr: " << r.err << "\nstdout: " << r.out);
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  const nlohmann::json* summary = ItemFor(j, "Summary");
  REQUIRE(summary != nullptr);
  CHECK((*summary)["data"]["MeasuredScheduled"] == 40);
}

TEST_CASE("the workload list names every workload", "[perf]") {
  const Run r = Perf("--list");
  REQUIRE(r.exit_code == 0);
  for (const Tiny& t : kTiny) CHECK(r.out.find(t.workload) != std::string::npos);
}

TEST_CASE("bad usage exits 2 naming the problem", "[perf]") {
  Run r = Perf("--workload NoSuchWorkload");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("NoSuchWorkload") != std::string::npos);
  // More anti-affinity pods than nodes could never all be bound.
  r = Perf("--workload SchedulingPodAntiAffinity --nodes 5 --init-pods 3 --pods 3");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("anti-affinity") != std::string::npos);
  r = Perf("--workload SchedulingBasic --output xml");
  CHECK(r.exit_code == 2);
}

// --vs-upstream's plumbing, with a stand-in for schedkit-oracle that keeps
// the files it was given and prints a fixed summary: 40 pods in 2 s.
TEST_CASE("vs-upstream: the oracle gets the post-init cluster and reports both figures", "[perf]") {
  namespace fs = std::filesystem;
  const ScratchDir scratch;
  const fs::path& dir = scratch.path;
  const std::string oracle = scratch.WriteScript(
      "fake-oracle",
      "#!/bin/sh\n"
      "[ \"$1\" = --throughput ] && [ \"$2\" = --cluster ] && [ \"$4\" = --config ] || exit 3\n"
      "cp \"$3\" \"$CAPTURE/cluster.json\" && cp \"$5\" \"$CAPTURE/config.yaml\" || exit 4\n"
      "[ -n \"$FAIL\" ] && { echo 'oracle broke' >&2; exit 1; }\n"
      "echo '{\"pods\": [], \"summary\": {\"pendingPods\": 40, \"scheduled\": 40, \"attempts\": 41, "
      "\"seconds\": 2.0}}'\n");
  const fs::path tmp = dir / "tmp";  // the run's TMPDIR, for its scratch directory
  fs::create_directories(tmp);
  const std::string env = "CAPTURE=" + dir.string() + " TMPDIR=" + tmp.string();
  const std::string args = "--workload SchedulingBasic --nodes 20 --init-pods 20 --pods 40 --output json --vs-upstream --oracle " + oracle;

  const Run r = Perf(args, env);
  INFO("stderr: " << r.err << "\nstdout: " << r.out);
  REQUIRE(r.exit_code == 0);
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(j.is_discarded());
  const nlohmann::json* ours = nullptr;
  const nlohmann::json* theirs = nullptr;
  for (const auto& item : j["dataItems"]) {
    if (item["labels"]["Metric"] != "SchedulingThroughputWholeRun") continue;
    (item["labels"].contains("Scheduler") ? theirs : ours) = &item;
  }
  REQUIRE(ours != nullptr);
  REQUIRE(theirs != nullptr);
  CHECK((*theirs)["labels"]["Scheduler"] == "kube-scheduler");
  CHECK((*theirs)["data"]["Average"] == 20.0);
  const nlohmann::json* vs = ItemFor(j, "VsUpstream");
  REQUIRE(vs != nullptr);
  CHECK((*vs)["data"]["UpstreamScheduled"] == 40);
  CHECK((*vs)["data"]["UpstreamAttempts"] == 41);
  CHECK((*vs)["data"]["Ratio"].get<double>() == Approx((*ours)["data"]["Average"].get<double>() / 20.0));

  // What the oracle got: the 20 nodes, the 20 init pods bound where schedkit
  // put them, the 40 measured pods pending, and parallelism = --threads.
  auto cluster = schedkit::api::LoadPaths({(dir / "cluster.json").string()});
  REQUIRE(cluster.ok());
  CHECK(cluster->objects.Of<schedkit::api::v1::Node>().size() == 20);
  int bound = 0, pending = 0;
  for (const auto& pod : cluster->objects.Of<schedkit::api::v1::Pod>()) {
    if (pod.spec().node_name().empty()) {
      ++pending;
      CHECK(pod.metadata().namespace_() == "namespace-2");
    } else {
      ++bound;
      CHECK(pod.metadata().namespace_() == "namespace-1");
    }
  }
  CHECK(bound == 20);
  CHECK(pending == 40);
  std::ifstream config(dir / "config.yaml");
  const std::string config_text((std::istreambuf_iterator<char>(config)), std::istreambuf_iterator<char>());
  CHECK(config_text.find("parallelism: 2") != std::string::npos);

  // The oracle failing fails the run, and leaves no scratch files behind.
  const Run failed = Perf(args, env + " FAIL=1");
  CHECK(failed.exit_code == 1);
  CHECK(failed.err.find("oracle broke") != std::string::npos);
  CHECK(fs::is_empty(tmp));
}

// --distinct-pods with --vs-upstream: upstream gets the same distinct pods.
TEST_CASE("vs-upstream with distinct pods: every measured pod has requests and a label of its own", "[perf]") {
  const ScratchDir scratch;
  const std::filesystem::path& dir = scratch.path;
  const std::string oracle = scratch.WriteScript(
      "fake-oracle",
      "#!/bin/sh\n"
      "cp \"$3\" \"$CAPTURE/cluster.json\" || exit 4\n"
      "echo \"{\\\"pods\\\": [], \\\"summary\\\": {\\\"pendingPods\\\": $PODS, \\\"scheduled\\\": $PODS, "
      "\\\"seconds\\\": 2.0}}\"\n");
  for (const char* workload : {"SchedulingBasic", "SchedulingPodAntiAffinity", "PreemptionBasic"}) {
    DYNAMIC_SECTION(workload) {
      const bool preemption = std::string(workload) == "PreemptionBasic";
      const int pods = preemption ? 10 : 40;
      const std::string sizes = preemption ? " --nodes 10 --init-pods 40 --pods 10" : " --nodes 40 --init-pods 0 --pods 40";
      const Run r = Perf(std::string("--workload ") + workload + sizes +
                             " --output json --distinct-pods --vs-upstream --oracle " + oracle,
                         "CAPTURE=" + dir.string() + " PODS=" + std::to_string(pods));
      INFO("stderr: " << r.err << "\nstdout: " << r.out);
      REQUIRE(r.exit_code == 0);
      auto cluster = schedkit::api::LoadPaths({(dir / "cluster.json").string()});
      REQUIRE(cluster.ok());
      std::set<std::string> specs, ids;
      int pending = 0;
      for (const auto& pod : cluster->objects.Of<schedkit::api::v1::Pod>()) {
        if (!pod.spec().node_name().empty()) continue;
        ++pending;
        std::string spec;
        REQUIRE(pod.spec().SerializeToString(&spec));
        specs.insert(pod.metadata().namespace_() + "/" + spec);
        ids.insert(pod.metadata().labels().at("perf.schedkit.io/pod"));
        // The template's constraints stay.
        if (!preemption) {
          CHECK(pod.metadata().labels().count("color") == (std::string(workload) == "SchedulingBasic" ? 0u : 1u));
        } else {
          CHECK(pod.spec().priority() == 10);
        }
      }
      CHECK(pending == pods);
      CHECK(specs.size() == static_cast<size_t>(pods));  // no two share a signature
      CHECK(ids.size() == static_cast<size_t>(pods));
    }
  }
}

// --vs-upstream with a churn op: the oracle gets the churn's objects in the
// cluster and its ticks as a timeline, each after as many attempts as
// schedkit had made. --churn-every-ms 1 makes the ticks come within the
// short measured phase (2,000 pods take milliseconds); the oracle's replay
// is tested in tests/conformance/oracle (TestTimelineAfterAttempts).
TEST_CASE("vs-upstream with a churn op: the oracle replays the ticks schedkit's run met", "[perf]") {
  const ScratchDir scratch;
  const std::filesystem::path& dir = scratch.path;
  const std::string oracle =
      scratch.WriteCapturingOracle("{\"pendingPods\": 9999, \"binds\": 2000, \"seconds\": 2.0}");
  for (const char* workload : {"Unschedulable", "SchedulingWithMixedChurn"}) {
    DYNAMIC_SECTION(workload) {
      const bool recreate = std::string(workload) == "SchedulingWithMixedChurn";
      const Run r = Perf(std::string("--workload ") + workload +
                             " --nodes 60 --init-pods 20 --pods 2000 --threads 1 --churn-every-ms 1 --output json"
                             " --vs-upstream --oracle " +
                             oracle,
                         "CAPTURE=" + dir.string());
      INFO("stderr: " << r.err << "\nstdout: " << r.out);
      REQUIRE(r.exit_code == 0);
      const auto j = nlohmann::json::parse(r.out, nullptr, false);
      const nlohmann::json* summary = ItemFor(j, "Summary");
      REQUIRE(summary != nullptr);
      const nlohmann::json& s = (*summary)["data"];
      REQUIRE(s["ChurnTicks"].get<int>() >= 2);

      std::ifstream in(dir / "timeline.json");
      const nlohmann::json timeline = nlohmann::json::parse(in, nullptr, false);
      REQUIRE(timeline.contains("batches"));
      const nlohmann::json& batches = timeline["batches"];
      CHECK(batches.size() == s["ChurnTicks"].get<size_t>());
      auto cluster = schedkit::api::LoadPaths({(dir / "cluster.json").string()});
      REQUIRE(cluster.ok());
      std::set<std::string> pending, nodes;
      for (const auto& pod : cluster->objects.Of<schedkit::api::v1::Pod>()) {
        if (pod.spec().node_name().empty()) pending.insert(pod.metadata().namespace_() + "/" + pod.metadata().name());
      }
      for (const auto& node : cluster->objects.Of<schedkit::api::v1::Node>()) nodes.insert(node.metadata().name());
      // The measured pods and every churn pod, pending; the churn's nodes.
      CHECK(pending.size() == 2000u + s["ChurnPods"].get<size_t>());
      CHECK(nodes.size() == 60u + s["ChurnNodes"].get<size_t>());
      int64_t last = 0;
      size_t created = 0, deleted = 0, created_nodes = 0, deleted_nodes = 0;
      for (const auto& b : batches) {
        CHECK(b["afterAttempts"].get<int64_t>() >= last);
        last = b["afterAttempts"].get<int64_t>();
        for (const auto& k : b["create"]) CHECK(pending.count(k.get<std::string>()) == 1);
        for (const auto& n : b["createNodes"]) CHECK(nodes.count(n.get<std::string>()) == 1);
        created += b["create"].size();
        deleted += b["delete"].size();
        created_nodes += b["createNodes"].size();
        deleted_nodes += b["deleteNodes"].size();
      }
      CHECK(last <= s["Attempts"].get<int64_t>());
      CHECK(created == s["ChurnPods"].get<size_t>());
      CHECK(created_nodes == s["ChurnNodes"].get<size_t>());
      // Unschedulable only creates; recreate alternates a create and a delete.
      CHECK(deleted == (recreate ? batches.size() / 2 : 0u));
      CHECK(deleted_nodes == (recreate ? batches.size() / 2 : 0u));
    }
  }
}

TEST_CASE("vs-upstream refuses what it cannot compare", "[perf]") {
  Run r = Perf("--workload SchedulingBasic --vs-upstream --oracle /nonexistent/schedkit-oracle");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("make oracle") != std::string::npos);
  r = Perf("--workload SchedulingBasic --oracle /bin/true");
  CHECK(r.exit_code == 2);
}
