// NodeResourcesFit's LeastAllocated strategy: upstream v1.35.8
// least_allocated_test.go, ported as facts. Args are built as upstream's
// internal config (no v1 defaulting) and given to NewFit, as upstream does.
#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "plugins/noderesources/fit.h"
#include "plugins/noderesources/test_util.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"

namespace schedkit::plugins::noderesources {
namespace {

using framework::Code;
using testing::MakeNode;
using testing::MakePod;
using namespace testutil;  // NOLINT: the upstream helpers, by their upstream names

TEST_CASE("TestLeastAllocatedScoringStrategy", "[noderesources][fit][least]") {
  const auto pod_two =
      MakePod().Req({{"cpu", "1000"}, {"memory", "2000"}}).Req({{"cpu", "2000"}, {"memory", "3000"}}).Obj();
  const auto pod_two_on_node1 = MakePod()
                                    .Node("node1")
                                    .Req({{"cpu", "1000"}, {"memory", "2000"}})
                                    .Req({{"cpu", "2000"}, {"memory", "3000"}})
                                    .Obj();
  std::vector<StrategyCase> cases = {
      {"nothing scheduled, nothing requested",
       MakePod().Obj(),
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {},
       {100, 100},
       DefaultResourceSet()},
      {"nothing scheduled, resources requested, differently sized nodes",
       pod_two,
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {},
       {37, 50},
       DefaultResourceSet()},
      {"Resources not set, pods scheduled with error",
       pod_two,
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {},
       {0, 0},
       {},
       "",
       Code::kError},
      {"no resources requested, pods scheduled",
       MakePod().Obj(),
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {MakePod().Node("node1").Obj(), MakePod().Node("node1").Obj(), MakePod().Node("node2").Obj(),
        MakePod().Node("node2").Obj()},
       {100, 100},
       DefaultResourceSet()},
      {"no resources requested, pods scheduled with resources",
       MakePod().Obj(),
       {N("node1", {{"cpu", "10000"}, {"memory", "20000"}}),
        N("node2", {{"cpu", "10000"}, {"memory", "20000"}})},
       {MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj()},
       {70, 57},
       DefaultResourceSet()},
      {"resources requested, pods scheduled with resources",
       pod_two,
       {N("node1", {{"cpu", "10000"}, {"memory", "20000"}}),
        N("node2", {{"cpu", "10000"}, {"memory", "20000"}})},
       {MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj()},
       {57, 45},
       DefaultResourceSet()},
      {"resources requested, pods scheduled with resources, differently sized nodes",
       pod_two,
       {N("node1", {{"cpu", "10000"}, {"memory", "20000"}}),
        N("node2", {{"cpu", "10000"}, {"memory", "50000"}})},
       {MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj()},
       {57, 60},
       DefaultResourceSet()},
      {"requested resources exceed node capacity",
       MakePod().Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj()},
       {50, 25},
       DefaultResourceSet()},
      {"zero node resources, pods scheduled with resources",
       MakePod().Obj(),
       {MakeNode().Name("node1").Obj(), MakeNode().Name("node2").Obj()},
       {MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj()},
       {0, 0},
       DefaultResourceSet()},
      {"nothing scheduled, resources requested with different weight on CPU and memory, differently sized "
       "nodes",
       pod_two_on_node1,
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {},
       {41, 50},
       {{"memory", 2}, {"cpu", 1}}},
      {"resource with negative weight",
       pod_two_on_node1,
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}})},
       {},
       {},
       {{"memory", -1}, {"cpu", 1}},
       "scoringStrategy.resources[0].weight: Invalid value"},
      {"resource with zero weight",
       pod_two_on_node1,
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}})},
       {},
       {41, 50},
       {{"memory", 1}, {"cpu", 0}},
       "scoringStrategy.resources[1].weight: Invalid value"},
      {"resource weight larger than MaxNodeScore",
       pod_two_on_node1,
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}})},
       {},
       {},
       {{"memory", 1}, {"cpu", 101}},
       "scoringStrategy.resources[1].weight: Invalid value"},
      {"bypass extended resource if the pod does not request",
       pod_two_on_node1,
       {N("node1", {{"cpu", "6000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}})},
       {},
       {50, 50},
       ExtendedResourceSet()},
      {"honor extended resource if the pod requests",
       MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "5000"}, {kExtendedRes, "2"}}).Obj(),
       {N("node1", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "10"}})},
       {},
       {50, 60},
       ExtendedResourceSet()},
      {"if the node doesn't have a resource",
       MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "4000"}}).Obj(),
       {N("node1", {{"cpu", "6000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}})},
       {},
       {55, 55},
       {{kExtendedRes, 2}, {"cpu", 1}, {"memory", 1}}},
  };
  REQUIRE(cases.size() == 16);
  RunStrategyCases("TestLeastAllocatedScoringStrategy", std::string(kLeastAllocated), cases);
}

// Not upstream: through the v1 JSON args, weight 0 is defaulted to 1 and an
// empty resource list to cpu and memory, so those two upstream error cases
// (built on the internal config type) cannot happen from a configuration.
TEST_CASE("v1 args default what the internal-config cases reject", "[noderesources][fit][least]") {
  testing::FakeHandle h;
  h.SetCluster({N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
                N("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
               {});
  const auto pod =
      MakePod().Req({{"cpu", "1000"}, {"memory", "2000"}}).Req({{"cpu", "2000"}, {"memory", "3000"}}).Obj();
  auto zero_weight = NewNodeResourcesFit(
      framework::PluginArgs(
          R"({"scoringStrategy": {"type": "LeastAllocated", "resources": [{"name": "memory", "weight": 2}, {"name": "cpu", "weight": 0}]}})"),
      h);
  REQUIRE(zero_weight.ok());
  // cpu weight 1: (25 * 1 + 50 * 2) / 3 = 41, (50 + 100) / 3 = 50.
  CHECK(RunScore(**zero_weight, h, pod, {"node1", "node2"}, true).scores == std::vector<int64_t>{41, 50});
  auto no_resources = NewNodeResourcesFit(
      framework::PluginArgs(R"({"scoringStrategy": {"type": "LeastAllocated", "resources": []}})"), h);
  REQUIRE(no_resources.ok());
  CHECK(RunScore(**no_resources, h, pod, {"node1", "node2"}, true).scores == std::vector<int64_t>{37, 50});
}

}  // namespace
}  // namespace schedkit::plugins::noderesources
