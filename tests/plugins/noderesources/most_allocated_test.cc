// NodeResourcesFit's MostAllocated strategy: upstream v1.35.8
// most_allocated_test.go, ported as facts. Args are built as upstream's
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

TEST_CASE("TestMostAllocatedScoringStrategy", "[noderesources][fit][most]") {
  const auto pod_two =
      MakePod().Req({{"cpu", "1000"}, {"memory", "2000"}}).Req({{"cpu", "2000"}, {"memory", "3000"}}).Obj();
  // Upstream has two cases with this name; Go's t.Run names the second "#01".
  std::vector<StrategyCase> cases = {
      {"nothing scheduled, nothing requested",
       MakePod().Obj(),
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {},
       {0, 0},
       DefaultResourceSet()},
      {"nothing scheduled, resources requested, differently sized nodes",
       pod_two,
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {},
       {62, 50},
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
      {"no resources requested, pods scheduled with resources",
       MakePod().Obj(),
       {N("node1", {{"cpu", "10000"}, {"memory", "20000"}}),
        N("node2", {{"cpu", "10000"}, {"memory", "20000"}})},
       {MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj()},
       {30, 42},
       DefaultResourceSet()},
      {"resources requested, pods scheduled with resources",
       pod_two,
       {N("node1", {{"cpu", "10000"}, {"memory", "20000"}}),
        N("node2", {{"cpu", "10000"}, {"memory", "20000"}})},
       {MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "0"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj()},
       {42, 55},
       DefaultResourceSet()},
      {"resources requested equal node capacity",
       MakePod().Req({{"cpu", "2000"}, {"memory", "4000"}}).Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj(),
       {N("node1", {{"cpu", "5000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "10000"}, {"memory", "9000"}})},
       {},
       {95, 75},
       DefaultResourceSet()},
      {"nothing scheduled, resources requested, differently sized nodes#01",
       pod_two,
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {},
       {58, 50},
       {{"memory", 2}, {"cpu", 1}}},
      {"no resources requested, pods scheduled, nonzero request for resource",
       MakePod().Container("container").Obj(),
       {N("node1", {{"cpu", "250m"}, {"memory", "1000Mi"}}),
        N("node2", {{"cpu", "250m"}, {"memory", "1000Mi"}})},
       {MakePod().Node("node1").Container("container").Obj(),
        MakePod().Node("node1").Container("container").Obj()},
       {80, 30},
       DefaultResourceSet()},
      {"resource with negative weight",
       pod_two,
       {N("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {},
       {},
       {{"memory", -1}, {"cpu", 1}},
       "scoringStrategy.resources[0].weight: Invalid value"},
      {"resource with zero weight",
       pod_two,
       {N("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {},
       {},
       {{"memory", 1}, {"cpu", 0}},
       "scoringStrategy.resources[1].weight: Invalid value"},
      {"resource weight larger than MaxNodeScore",
       pod_two,
       {N("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {},
       {},
       {{"memory", 101}},
       "scoringStrategy.resources[0].weight: Invalid value"},
      {"bypass extended resource if the pod does not request",
       pod_two,
       {N("node1", {{"cpu", "6000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}})},
       {},
       {50, 50},
       ExtendedResourceSet()},
      {"honor extended resource if the pod request",
       MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "5000"}, {kExtendedRes, "2"}}).Obj(),
       {N("node1", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "10"}})},
       {},
       {50, 40},
       ExtendedResourceSet()},
      {"if the node doesn't have a resource",
       MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "4000"}}).Obj(),
       {N("node1", {{"cpu", "6000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}, {kExtendedRes, "4"}})},
       {},
       {45, 45},
       {{kExtendedRes, 2}, {"cpu", 1}, {"memory", 1}}},
  };
  REQUIRE(cases.size() == 14);
  RunStrategyCases("TestMostAllocatedScoringStrategy", std::string(kMostAllocated), cases);
}

}  // namespace
}  // namespace schedkit::plugins::noderesources
