// NodeResourcesFit's RequestedToCapacityRatio strategy and its broken-linear
// shape: upstream v1.35.8 requested_to_capacity_ratio_test.go, ported as facts.
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "plugins/noderesources/fit.h"
#include "plugins/noderesources/resource_allocation.h"
#include "plugins/noderesources/test_util.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"

namespace schedkit::plugins::noderesources {
namespace {

using testing::MakePod;
using namespace testutil;  // NOLINT: the upstream helpers, by their upstream names

TEST_CASE("TestRequestedToCapacityRatioScoringStrategy", "[noderesources][fit][rtcr]") {
  const std::vector<UtilizationShapePoint> shape = {{0, 10}, {100, 0}};
  struct Case {
    std::string name;
    api::v1::Pod requested_pod;
    std::vector<api::v1::Node> nodes;
    std::vector<api::v1::Pod> existing_pods;
    std::vector<int64_t> expected;
  };
  std::vector<Case> cases = {
      {"nothing scheduled, nothing requested (default - least requested nodes have priority)",
       MakePod().Obj(),
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "4000"}, {"memory", "10000"}})},
       {MakePod().Node("node1").Obj(), MakePod().Node("node1").Obj()},
       {100, 100}},
      {"nothing scheduled, resources requested, differently sized nodes (default - least requested nodes "
       "have "
       "priority)",
       MakePod().Req({{"cpu", "1000"}, {"memory", "2000"}}).Req({{"cpu", "2000"}, {"memory", "3000"}}).Obj(),
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {MakePod().Node("node1").Obj(), MakePod().Node("node1").Obj()},
       {38, 50}},
      {"no resources requested, pods scheduled with resources (default - least requested nodes have "
       "priority)",
       MakePod().Obj(),
       {N("node1", {{"cpu", "4000"}, {"memory", "10000"}}),
        N("node2", {{"cpu", "6000"}, {"memory", "10000"}})},
       {MakePod().Node("node1").Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj(),
        MakePod().Node("node2").Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj()},
       {38, 50}},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestRequestedToCapacityRatioScoringStrategy/" << tc.name) {
      testing::FakeHandle h;
      h.SetCluster(tc.nodes, NameAll(tc.existing_pods));
      auto p = NewFit(FitArgs(std::string(kRequestedToCapacityRatio), DefaultResourceSet(), shape), h);
      REQUIRE(p.ok());
      ScoreResult got = RunScore(**p, h, tc.requested_pod, {"node1", "node2"}, true);
      CHECK(got.scores == tc.expected);
    }
  }
}

TEST_CASE("TestBrokenLinearFunction", "[noderesources][fit][rtcr]") {
  struct Assertion {
    int64_t p;
    int64_t expected;
  };
  struct Case {
    std::vector<BrokenLinearFunction::Point> points;
    std::vector<Assertion> assertions;
  };
  std::vector<Case> cases = {
      {{{10, 1}, {90, 9}},
       {{-10, 1},
        {0, 1},
        {9, 1},
        {10, 1},
        {15, 1},
        {19, 1},
        {20, 2},
        {89, 8},
        {90, 9},
        {99, 9},
        {100, 9},
        {110, 9}}},
      {{{0, 2}, {40, 10}, {100, 0}},
       {{-10, 2}, {0, 2}, {20, 6}, {30, 8}, {40, 10}, {70, 5}, {100, 0}, {110, 0}}},
      {{{0, 2}, {40, 2}, {100, 2}},
       {{-10, 2}, {0, 2}, {20, 2}, {30, 2}, {40, 2}, {70, 2}, {100, 2}, {110, 2}}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    DYNAMIC_SECTION("TestBrokenLinearFunction/case_" << i) {
      BrokenLinearFunction f(cases[i].points);
      for (const Assertion& a : cases[i].assertions) {
        INFO("p=" << a.p);
        CHECK(f(a.p) == a.expected);
      }
    }
  }
}

// Not upstream: the tabulated per-resource score equals the function for
// every utilization, including a decreasing segment (negative slope
// truncates toward zero, as Go's division does).
TEST_CASE("RequestedToCapacityRatio table matches the broken linear function", "[noderesources][fit][rtcr]") {
  const std::vector<UtilizationShapePoint> shape = {{0, 2}, {33, 9}, {70, 1}, {90, 10}};
  RequestedToCapacityRatioTable table(shape);
  BrokenLinearFunction f({{0, 20}, {33, 90}, {70, 10}, {90, 100}});
  for (int64_t requested = 0; requested <= 1000; ++requested) {
    INFO("requested=" << requested);
    CHECK(table.ResourceScore(requested, 1000) == f(requested * 100 / 1000));
  }
  CHECK(table.ResourceScore(1001, 1000) == f(100));
  CHECK(table.ResourceScore(1, 0) == f(100));
}

TEST_CASE("TestResourceBinPackingSingleExtended", "[noderesources][fit][rtcr]") {
  const std::map<std::string, int64_t> extended1 = {{"intel.com/foo", 4}};
  const std::map<std::string, int64_t> extended2 = {{"intel.com/foo", 8}};
  const testing::ResourceMap extended3 = {{"intel.com/foo", "2"}};
  const testing::ResourceMap extended4 = {{"intel.com/foo", "4"}};
  const int64_t mem = 10000LL * 1024 * 1024;
  const std::vector<api::v1::Node> nodes = {MakeScoreNode("node1", 4000, mem, extended2),
                                            MakeScoreNode("node2", 4000, mem, extended1)};
  struct Case {
    api::v1::Pod pod;
    std::vector<api::v1::Pod> pods;
    std::vector<int64_t> expected;
    std::string name;
  };
  std::vector<Case> cases = {
      {MakePod().Obj(), {}, {0, 0}, "nothing scheduled, nothing requested"},
      {MakePod().Req(extended3).Obj(),
       {MakePod().Obj()},
       {2, 5},
       "resources requested, pods scheduled with less resources"},
      {MakePod().Req(extended3).Obj(),
       {MakePod().Req(extended3).Node("node2").Obj()},
       {2, 10},
       "resources requested, pods scheduled with resources, on node with existing pod running "},
      {MakePod().Req(extended4).Obj(),
       {MakePod().Obj()},
       {5, 10},
       "resources requested, pods scheduled with more resources"},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestResourceBinPackingSingleExtended/" << tc.name) {
      testing::FakeHandle h;
      h.SetCluster(nodes, NameAll(tc.pods));
      auto p = NewFit(
          FitArgs(std::string(kRequestedToCapacityRatio), {{"intel.com/foo", 1}}, {{{0, 0}, {100, 1}}}), h);
      REQUIRE(p.ok());
      CHECK(RunScore(**p, h, tc.pod, {"node1", "node2"}, true).scores == tc.expected);
    }
  }
}

TEST_CASE("TestResourceBinPackingMultipleExtended", "[noderesources][fit][rtcr]") {
  const std::map<std::string, int64_t> extended1 = {{"intel.com/foo", 4}, {"intel.com/bar", 8}};
  const std::map<std::string, int64_t> extended2 = {{"intel.com/foo", 8}, {"intel.com/bar", 4}};
  const testing::ResourceMap pod1 = {{"intel.com/foo", "2"}, {"intel.com/bar", "2"}};
  const testing::ResourceMap pod2 = {{"intel.com/foo", "4"}, {"intel.com/bar", "2"}};
  const int64_t mem = 10000LL * 1024 * 1024;
  const std::vector<api::v1::Node> nodes = {MakeScoreNode("node1", 4000, mem, extended2),
                                            MakeScoreNode("node2", 4000, mem, extended1)};
  struct Case {
    api::v1::Pod pod;
    std::vector<api::v1::Pod> pods;
    std::vector<int64_t> expected;
    std::string name;
  };
  std::vector<Case> cases = {
      {MakePod().Obj(), {}, {0, 0}, "nothing scheduled, nothing requested"},
      {MakePod().Req(pod1).Obj(),
       {MakePod().Obj()},
       {4, 3},
       "resources requested, pods scheduled with less resources"},
      {MakePod().Req(pod1).Obj(),
       {MakePod().Req(pod2).Node("node2").Obj()},
       {4, 7},
       "resources requested, pods scheduled with resources, on node with existing pod running "},
      {MakePod().Req(pod2).Obj(),
       {MakePod().Obj()},
       {5, 5},
       "resources requested, pods scheduled with more resources"},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestResourceBinPackingMultipleExtended/" << tc.name) {
      testing::FakeHandle h;
      h.SetCluster(nodes, NameAll(tc.pods));
      auto p = NewFit(FitArgs(std::string(kRequestedToCapacityRatio),
                              {{"intel.com/foo", 3}, {"intel.com/bar", 5}}, {{{0, 0}, {100, 1}}}),
                      h);
      REQUIRE(p.ok());
      CHECK(RunScore(**p, h, tc.pod, {"node1", "node2"}, true).scores == tc.expected);
    }
  }
}

}  // namespace
}  // namespace schedkit::plugins::noderesources
