// NodeResourcesBalancedAllocation: upstream v1.37.2 balanced_allocation_test.go,
// ported as facts, plus args parsing and validation
// (validation_pluginargs_test.go's TestValidateNodeResourcesBalancedAllocationArgs).
#include "plugins/noderesources/balanced_allocation.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "plugins/noderesources/test_util.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"

namespace schedkit::plugins::noderesources {
namespace {

using framework::Code;
using testing::MakePod;
using namespace testutil;  // NOLINT: the upstream helpers, by their upstream names

TEST_CASE("TestNodeResourcesBalancedAllocation", "[noderesources][balanced]") {
  auto cpu_and_memory_and_gpu = [](const std::string& node) {
    return MakePod()
        .Node(node)
        .Req({{"cpu", "1000m"}, {"memory", "2000"}})
        .Req({{"cpu", "2000m"}, {"memory", "3000"}, {"nvidia.com/gpu", "3"}})
        .Obj();
  };
  auto cpu_only = [](const std::string& node) {
    return MakePod()
        .Node(node)
        .Req({{"cpu", "1000m"}, {"memory", "0"}})
        .Req({{"cpu", "2000m"}, {"memory", "0"}})
        .Obj();
  };
  auto cpu_and_memory = [](const std::string& node) {
    return MakePod()
        .Node(node)
        .Req({{"cpu", "1000m"}, {"memory", "2000"}})
        .Req({{"cpu", "2000m"}, {"memory", "3000"}})
        .Obj();
  };
  const std::map<std::string, int64_t> scalar = {{"nvidia.com/gpu", 8}};
  const std::string default_args =
      R"({"resources": [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}]})";
  const std::string gpu_args =
      R"({"resources": [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}, {"name": "nvidia.com/gpu", "weight": 1}]})";

  struct Case {
    api::v1::Pod pod;
    std::vector<api::v1::Pod> pods;
    std::vector<api::v1::Node> nodes;
    std::vector<int64_t> expected;
    std::string name;
    std::string args;
    bool run_prescore;
    Code want_prescore_code;
  };
  // Each score is 50 + (50 + balance with the pod - balance without) / 2.
  std::vector<Case> cases = {
      {MakePod().Obj(),
       {},
       {MakeScoreNode("node1", 4000, 10000), MakeScoreNode("node2", 4000, 10000)},
       {},
       "nothing scheduled, nothing requested, skip in PreScore",
       default_args,
       true,
       Code::kSkip},
      {cpu_and_memory(""),
       {},
       {MakeScoreNode("node1", 4000, 10000), MakeScoreNode("node2", 6000, 10000)},
       {68, 75},  // 100 -> 87, 100 -> 100
       "nothing scheduled, resources requested, differently sized nodes",
       default_args,
       true,
       Code::kSuccess},
      {cpu_and_memory(""),
       {cpu_only("node1"), cpu_and_memory("node2")},
       {MakeScoreNode("node1", 10000, 20000), MakeScoreNode("node2", 10000, 20000)},
       {73, 74},  // 85 -> 82, 97 -> 95
       "resources requested, pods scheduled with resources",
       default_args,
       true,
       Code::kSuccess},
      {cpu_and_memory(""),
       {cpu_only("node1"), cpu_and_memory("node2")},
       {MakeScoreNode("node1", 10000, 20000), MakeScoreNode("node2", 10000, 50000)},
       {73, 70},  // 85 -> 82, 90 -> 80
       "resources requested, pods scheduled with resources, differently sized nodes",
       default_args,
       true,
       Code::kSuccess},
      {MakePod().Req({{"memory", "2000"}}).Req({{"memory", "3000"}}).Obj(),
       {cpu_only("node1")},
       {MakeScoreNode("node1", 3000, 5000), MakeScoreNode("node2", 3000, 5000)},
       {100, 50},  // 50 -> 100, 100 -> 50
       "resources requested, pods scheduled with resources, nodes to reach min/max score",
       default_args,
       true,
       Code::kSuccess},
      {cpu_only(""),
       {cpu_only("node1"), cpu_and_memory("node2")},
       {MakeScoreNode("node1", 6000, 10000), MakeScoreNode("node2", 6000, 10000)},
       {62, 62},  // 75 -> 50, 100 -> 75
       "requested resources at node capacity",
       default_args,
       true,
       Code::kSuccess},
      {MakePod().Req({{"cpu", "0"}, {"memory", "0"}, {"nvidia.com/gpu", "1"}}).Obj(),
       {cpu_and_memory_and_gpu("node1"), cpu_and_memory("node2")},
       {MakeScoreNode("node1", 3500, 40000, scalar), MakeScoreNode("node2", 3500, 40000, scalar)},
       {75, 76},  // 69 -> 70, 62 -> 65
       "scalar resource is included in the score computation if pod requests the scalar resource",
       gpu_args,
       true,
       Code::kSuccess},
      {cpu_and_memory(""),
       {},
       {MakeScoreNode("node1", 3500, 40000, scalar), MakeScoreNode("node2", 3500, 40000)},
       {56, 56},  // 100 -> 63
       "scalar resource is not included in the score computation if pod doesn't request the scalar resource",
       gpu_args,
       true,
       Code::kSuccess},
      {cpu_and_memory(""),
       {cpu_only("node1"), cpu_and_memory("node2")},
       {MakeScoreNode("node1", 10000, 20000), MakeScoreNode("node2", 10000, 20000)},
       {73, 74},
       "resources requested, pods scheduled with resources if PreScore not called",
       default_args,
       false,
       Code::kSuccess},
  };
  // Upstream's two DRA rows wait for Dynamic Resource Allocation's objects.
  REQUIRE(cases.size() == 9);
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestNodeResourcesBalancedAllocation/" << tc.name) {
      testing::FakeHandle h;
      h.SetCluster(tc.nodes, NameAll(tc.pods));
      auto p = NewNodeResourcesBalancedAllocation(framework::PluginArgs(tc.args), h);
      REQUIRE(p.ok());
      framework::Status prescore;
      ScoreResult got = RunScore(**p, h, tc.pod, {"node1", "node2"}, tc.run_prescore, &prescore);
      if (tc.run_prescore) CHECK(prescore.code() == tc.want_prescore_code);
      if (tc.want_prescore_code == Code::kSkip) continue;
      CHECK(got.scores == tc.expected);
      CHECK(got.codes == std::vector<Code>(2, Code::kSuccess));
    }
  }
}

// Not upstream: Score without PreScore for a best-effort pod returns 0, as
// upstream's fallback does; and the plugin's name.
TEST_CASE("BalancedAllocation without PreScore for a best-effort pod scores 0", "[noderesources][balanced]") {
  testing::FakeHandle h;
  h.SetCluster({MakeScoreNode("node1", 4000, 10000)}, {});
  auto p = NewNodeResourcesBalancedAllocation(framework::PluginArgs(), h);
  REQUIRE(p.ok());
  CHECK((*p)->Name() == "NodeResourcesBalancedAllocation");
  ScoreResult got = RunScore(**p, h, MakePod().Obj(), {"node1"}, false);
  CHECK(got.scores == std::vector<int64_t>{0});
  CHECK(got.codes == std::vector<Code>{Code::kSuccess});
}

// Not upstream: more than two resources use the general standard deviation;
// the result is checked against a hand computation in the same float64 order.
TEST_CASE("BalancedAllocation with three resources", "[noderesources][balanced]") {
  testing::FakeHandle h;
  h.SetCluster({MakeScoreNode("node1", 3000, 3000, {{"example.com/x", 3}})}, {});
  auto p = NewNodeResourcesBalancedAllocation(
      framework::PluginArgs(
          R"({"resources": [{"name": "cpu"}, {"name": "memory"}, {"name": "example.com/x"}]})"),
      h);
  REQUIRE(p.ok());
  auto pod = MakePod().Req({{"cpu", "1"}, {"memory", "2000"}, {"example.com/x", "3"}}).Obj();
  const double f[3] = {1000.0 / 3000.0, 2000.0 / 3000.0, 1.0};  // cpu 1 of 3000m, memory, x
  const double mean = (f[0] + f[1] + f[2]) / 3;
  double sum = 0;
  for (double x : f) sum = sum + (x - mean) * (x - mean);
  const auto with_pod = static_cast<int64_t>((1 - std::sqrt(sum / 3)) * 100.0);
  CHECK(with_pod == 72);
  // Without the pod all three fractions are 0: balance 100.
  const int64_t want = 50 + (50 + with_pod - 100) / 2;
  CHECK(want == 61);
  CHECK(RunScore(**p, h, pod, {"node1"}, true).scores == std::vector<int64_t>{want});
}

TEST_CASE("TestValidateNodeResourcesBalancedAllocationArgs", "[noderesources][balanced][args]") {
  struct Case {
    std::string name;
    NodeResourcesBalancedAllocationArgs args;
    std::string want;  // empty: valid
  };
  std::vector<Case> cases = {
      {"valid config", {{{"cpu", 1}, {"memory", 1}}}, ""},
      {"invalid config",
       {{{"cpu", 2}, {"memory", 1}}},
       "NodeResourcesBalancedAllocation args: resources[0].weight: Invalid value: 2: must be 1"},
      {"repeated resources",
       {{{"cpu", 1}, {"cpu", 1}}},
       "NodeResourcesBalancedAllocation args: resources[1].name: Duplicate value: \"cpu\""},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestValidateNodeResourcesBalancedAllocationArgs/" << tc.name) {
      absl::Status s = ValidateNodeResourcesBalancedAllocationArgs(tc.args);
      CHECK(std::string(s.message()) == tc.want);
      CHECK(s.ok() == tc.want.empty());
    }
  }
}

TEST_CASE("NodeResourcesBalancedAllocation args: parsing, v1 defaults and errors",
          "[noderesources][balanced][args]") {
  SECTION("empty args default to cpu and memory with weight 1") {
    auto a = ParseNodeResourcesBalancedAllocationArgs(framework::PluginArgs());
    REQUIRE(a.ok());
    REQUIRE(a->resources.size() == 2);
    CHECK(a->resources[0].name == "cpu");
    CHECK(a->resources[0].weight == 1);
    CHECK(a->resources[1].name == "memory");
    CHECK(a->resources[1].weight == 1);
  }
  SECTION("weight 0 or absent defaults to 1") {
    auto a = ParseNodeResourcesBalancedAllocationArgs(
        framework::PluginArgs(R"({"resources": [{"name": "cpu", "weight": 0}, {"name": "example.com/x"}]})"));
    REQUIRE(a.ok());
    REQUIRE(a->resources.size() == 2);
    CHECK(a->resources[0].weight == 1);
    CHECK(a->resources[1].weight == 1);
  }
  testing::FakeHandle h;
  struct Bad {
    std::string json;
    std::string want;
  };
  std::vector<Bad> bad = {
      {R"({"resource": []})", "NodeResourcesBalancedAllocation args: resource: unknown field"},
      {R"({"resources": [{"name": "cpu", "wieght": 1}]})",
       "NodeResourcesBalancedAllocation args: resources[0].wieght: unknown field"},
      {R"({"resources": {"name": "cpu"}})",
       "NodeResourcesBalancedAllocation args: resources: expected an array"},
      {R"({"resources": [{"name": "cpu", "weight": "1"}]})",
       "NodeResourcesBalancedAllocation args: resources[0].weight: expected an integer"},
      {R"({"resources": [{"name": "cpu", "weight": 3}]})",
       "NodeResourcesBalancedAllocation args: resources[0].weight: Invalid value: 3: must be 1"},
      {R"({"resources": [{"name": "cpu"}, {"name": "cpu", "weight": -1}]})",
       "NodeResourcesBalancedAllocation args: [resources[1].name: Duplicate value: \"cpu\", "
       "resources[1].weight: "
       "Invalid value: -1: must be 1]"},
      {"[1]", "NodeResourcesBalancedAllocation args: expected an object"},
  };
  for (const Bad& b : bad) {
    DYNAMIC_SECTION("bad args " << b.json) {
      auto p = NewNodeResourcesBalancedAllocation(framework::PluginArgs(b.json), h);
      REQUIRE(!p.ok());
      CHECK(p.status().code() == absl::StatusCode::kInvalidArgument);
      CHECK_THAT(std::string(p.status().message()), Catch::StartsWith(b.want));
    }
  }
  SECTION("apiVersion and kind are accepted") {
    CHECK(
        NewNodeResourcesBalancedAllocation(
            framework::PluginArgs(
                R"({"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "NodeResourcesBalancedAllocationArgs"})"),
            h)
            .ok());
  }
}

}  // namespace
}  // namespace schedkit::plugins::noderesources
