// EffectiveConfiguration (schedkit/config/configuration.h) with the in-tree
// registry: the document --write-config-to writes and /configz serves.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "nlohmann/json.hpp"
#include "schedkit/config/configuration.h"
#include "schedkit/plugins/in_tree.h"

namespace config = schedkit::config;

namespace {

nlohmann::json Effective(std::string_view text) {
  absl::StatusOr<config::SchedulerConfiguration> c = config::ParseConfiguration(text, "sched.yaml");
  INFO(c.status().message());
  REQUIRE(c.ok());
  absl::StatusOr<std::string> out = config::EffectiveConfiguration(
      *c, schedkit::plugins::NewInTreeRegistry(), schedkit::framework::FeatureGates::Default(),
      config::ConfigFormat::kJson);
  INFO(out.status().message());
  REQUIRE(out.ok());
  return nlohmann::json::parse(*out);
}

}  // namespace

// The figures of kube-scheduler v1.37.2's --write-config-to for an empty
// configuration (tests/e2e/write_config_e2e_test.cc compares whole
// documents against the real binary).
TEST_CASE("EffectiveConfiguration: the default configuration as kube-scheduler writes it", "[config][effective]") {
  const nlohmann::json doc = Effective("");
  CHECK(doc["apiVersion"] == "kubescheduler.config.k8s.io/v1");
  CHECK(doc["leaderElection"]["leaseDuration"] == "15s");
  CHECK(doc["clientConnection"]["qps"] == 50);
  CHECK(doc["enableContentionProfiling"] == true);
  const nlohmann::json& profile = doc["profiles"][0];
  CHECK(profile["plugins"]["filter"] == nlohmann::json::object());
  CHECK(profile["plugins"]["multiPoint"]["enabled"][4] == nlohmann::json{{"name", "TaintToleration"}, {"weight", 3}});
  std::vector<std::string> names;
  for (const nlohmann::json& pc : profile["pluginConfig"]) names.push_back(pc["name"]);
  CHECK(names == std::vector<std::string>{"DefaultPreemption", "DynamicResources", "InterPodAffinity", "NodeAffinity",
                                          "NodeResourcesBalancedAllocation", "NodeResourcesFit", "PodTopologySpread",
                                          "VolumeBinding"});
  CHECK(profile["pluginConfig"][1]["args"] == nlohmann::json{{"apiVersion", "kubescheduler.config.k8s.io/v1"},
                                                             {"kind", "DynamicResourcesArgs"},
                                                             {"bindingTimeout", "10m0s"},
                                                             {"filterTimeout", "10s"}});
  CHECK(profile["pluginConfig"][7]["args"]["shape"] ==
        nlohmann::json::parse(R"([{"score":10,"utilization":0},{"score":0,"utilization":100}])"));
}

TEST_CASE("EffectiveConfiguration: args of plugins not run are left out, others' args kept as given",
          "[config][effective]") {
  const nlohmann::json doc = Effective(R"(
profiles:
- plugins:
    multiPoint:
      disabled: [{name: PodTopologySpread}]
  pluginConfig:
  - name: PodTopologySpread
    args: {defaultingType: List}
  - name: NodeResourcesFit
    args: {scoringStrategy: {type: MostAllocated}}
)");
  const nlohmann::json& config = doc["profiles"][0]["pluginConfig"];
  for (const nlohmann::json& pc : config) CHECK(pc["name"] != "PodTopologySpread");
  CHECK(config[5]["name"] == "NodeResourcesFit");
  CHECK(config[5]["args"]["scoringStrategy"] ==
        nlohmann::json::parse(R"({"resources":[{"name":"cpu","weight":1},{"name":"memory","weight":1}],
                                  "type":"MostAllocated"})"));
}

