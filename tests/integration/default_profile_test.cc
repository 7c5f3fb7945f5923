// The default profile, expanded by the framework from DefaultPlugins() with
// the in-tree registry, equals upstream v1.37.2's ExpandedPluginsV1
// (pkg/scheduler/apis/config/testing/defaults/defaults.go): plugins per
// extension point, their order and score weights; and the in-tree plugins'
// default args are upstream's (PluginConfigsV1). Upstream's expansion also
// lists PlacementScore (NodeResourcesFit) and PodGroupPostFilter
// (DynamicResources, DefaultPreemption), the extension points of
// workload-aware scheduling, which schedkit does not have yet.
#include <catch2/catch.hpp>

#include "schedkit/config/configuration.h"
#include "schedkit/framework/framework.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"

namespace schedkit {
namespace {

using framework::ExtensionPoint;
using Names = std::vector<std::string>;

TEST_CASE("default profile equals upstream's ExpandedPluginsV1", "[integration][profile]") {
  config::SchedulerConfiguration cfg = config::DefaultConfiguration();
  REQUIRE(cfg.profiles.size() == 1);
  CHECK(cfg.profiles[0].scheduler_name == "default-scheduler");
  auto fw = framework::Framework::Create(plugins::NewInTreeRegistry(), cfg.profiles[0]);
  INFO(fw.status().ToString());
  REQUIRE(fw.ok());
  const framework::Framework& f = **fw;
  CHECK(f.PluginNames(ExtensionPoint::kPreEnqueue) == Names{"SchedulingGates", "DynamicResources", "DefaultPreemption"});
  CHECK(f.queue_sort().Name() == "PrioritySort");
  CHECK(f.PluginNames(ExtensionPoint::kPreFilter) ==
        Names{"NodeName", "NodeUnschedulable", "TaintToleration", "NodeAffinity", "NodePorts", "NodeResourcesFit",
              "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread",
              "InterPodAffinity", "DynamicResources", "NodeDeclaredFeatures"});
  CHECK(f.PluginNames(ExtensionPoint::kFilter) ==
        Names{"NodeName", "NodeUnschedulable", "TaintToleration", "NodeAffinity", "NodePorts", "NodeResourcesFit",
              "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone", "PodTopologySpread",
              "InterPodAffinity", "DynamicResources", "NodeDeclaredFeatures"});
  CHECK(f.PluginNames(ExtensionPoint::kPostFilter) == Names{"DynamicResources", "DefaultPreemption"});
  CHECK(f.PluginNames(ExtensionPoint::kPreScore) ==
        Names{"TaintToleration", "NodeAffinity", "NodeResourcesFit", "VolumeBinding", "PodTopologySpread",
              "InterPodAffinity", "NodeResourcesBalancedAllocation"});
  CHECK(f.PluginNames(ExtensionPoint::kScore) ==
        Names{"TaintToleration", "NodeAffinity", "NodeResourcesFit", "VolumeBinding", "PodTopologySpread",
              "InterPodAffinity", "DynamicResources", "NodeResourcesBalancedAllocation", "ImageLocality"});
  const std::vector<std::pair<std::string, int>> weights = {
      {"TaintToleration", 3}, {"NodeAffinity", 2},     {"NodeResourcesFit", 1},
      {"VolumeBinding", 1},   {"PodTopologySpread", 2}, {"InterPodAffinity", 2},
      {"DynamicResources", 2}, {"NodeResourcesBalancedAllocation", 1}, {"ImageLocality", 1}};
  for (const auto& [name, w] : weights) {
    INFO(name);
    CHECK(f.ScoreWeight(name) == w);
  }
  CHECK(f.PluginNames(ExtensionPoint::kReserve) == Names{"VolumeBinding", "DynamicResources"});
  CHECK(f.PluginNames(ExtensionPoint::kPermit).empty());
  CHECK(f.PluginNames(ExtensionPoint::kPreBind) == Names{"VolumeBinding", "DynamicResources"});
  CHECK(f.PluginNames(ExtensionPoint::kBind) == Names{"DefaultBinder"});
  CHECK(f.PluginNames(ExtensionPoint::kPostBind).empty());
}

TEST_CASE("in-tree plugins accept upstream's default args and reject unknown fields", "[integration][profile]") {
  // Upstream's PluginConfigsV1 values, written out: each must be accepted as is.
  const std::vector<std::pair<std::string, std::string>> defaults = {
      {"DefaultPreemption", R"({"minCandidateNodesPercentage":10,"minCandidateNodesAbsolute":100})"},
      {"DynamicResources", R"({"filterTimeout":"10s"})"},
      {"InterPodAffinity", R"({"hardPodAffinityWeight":1})"},
      {"NodeAffinity", R"({})"},
      {"NodeResourcesBalancedAllocation", R"({"resources":[{"name":"cpu","weight":1},{"name":"memory","weight":1}]})"},
      {"NodeResourcesFit",
       R"({"scoringStrategy":{"type":"LeastAllocated","resources":[{"name":"cpu","weight":1},{"name":"memory","weight":1}]}})"},
      {"PodTopologySpread", R"({"defaultingType":"System"})"},
      {"VolumeBinding", R"({"bindTimeoutSeconds":600})"},
  };
  testing::FakeHandle h;
  const framework::Registry registry = plugins::NewInTreeRegistry();
  for (const auto& [name, args] : defaults) {
    INFO(name << " " << args);
    auto p = h.NewPlugin(registry, name, args);
    CHECK(p.ok());
    auto bad = h.NewPlugin(registry, name, R"({"noSuchField":1})");
    CHECK_FALSE(bad.ok());
  }
}

TEST_CASE("MostAllocated preset (the cluster-autoscaler-friendly profile)", "[integration][profile]") {
  // Upstream's ClusterAutoscalerProvider scored with MostAllocated; in v1 it is
  // NodeResourcesFit's scoringStrategy.
  auto cfg = config::ParseConfiguration(R"({
    "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
    "profiles": [{"schedulerName": "default-scheduler",
      "pluginConfig": [{"name": "NodeResourcesFit", "args": {"scoringStrategy": {"type": "MostAllocated",
        "resources": [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}]}}}]}]})");
  REQUIRE(cfg.ok());
  auto fw = framework::Framework::Create(plugins::NewInTreeRegistry(), cfg->profiles[0]);
  INFO(fw.status().ToString());
  REQUIRE(fw.ok());
  CHECK((*fw)->ScoreWeight("NodeResourcesFit") == 1);
}

TEST_CASE("MostAllocated preset packs pods onto the fullest node", "[integration][profile]") {
  // Two nodes, one already half full: LeastAllocated spreads to the empty one,
  // MostAllocated packs onto the busy one.
  testing::FakeHandle h;
  h.SetCluster({testing::MakeNode().Name("busy").Capacity({{"cpu", "4"}, {"memory", "8Gi"}}).Obj(),
                testing::MakeNode().Name("empty").Capacity({{"cpu", "4"}, {"memory", "8Gi"}}).Obj()},
               {testing::MakePod().Name("x").Node("busy").Req({{"cpu", "2"}, {"memory", "4Gi"}}).Obj()});
  auto pod = testing::MakePod().Name("p").Req({{"cpu", "1"}, {"memory", "1Gi"}}).Info();
  for (const auto& [cfg, want] : std::vector<std::pair<config::SchedulerConfiguration, std::string>>{
           {config::DefaultConfiguration(), "empty"}, {config::MostAllocatedConfiguration(), "busy"}}) {
    auto fw = framework::Framework::Create(plugins::NewInTreeRegistry(), cfg.profiles[0]);
    REQUIRE(fw.ok());
    framework::CycleState state;
    framework::SelectionState sel;
    sel.tie_break = framework::TieBreak::kLowestName;
    auto out = (*fw)->SchedulePod(state, pod, h.snapshot(), sel);
    REQUIRE(out.status.IsSuccess());
    CHECK(out.result.suggested_host.str() == want);
  }
}

}  // namespace
}  // namespace schedkit
