// The in-tree plugins' args from a configuration file: bad args are refused
// in one line naming the file, field, plugin and profile, when the profiles
// are built (before a scheduler talks to any cluster).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "schedkit/config/configuration.h"
#include "schedkit/framework/framework.h"
#include "schedkit/framework/registry.h"
#include "schedkit/plugins/in_tree.h"

namespace schedkit::framework {
namespace {

TEST_CASE("Typed args: in-tree plugins' bad args in a config file, one line each", "[framework][args]") {
  const Registry registry = plugins::NewInTreeRegistry();
  struct Case {
    std::string yaml;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"profiles:\n- schedulerName: a\n- schedulerName: b\n  pluginConfig:\n  - name: InterPodAffinity\n"
       "    args: {hardPodAffinityWeight: 101}\n",
       "sched.yaml: profiles[1].pluginConfig[0].args.hardPodAffinityWeight: Invalid value: 101: not in valid "
       "range [0, 100] (plugin \"InterPodAffinity\", profile \"b\")"},
      {"profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {typ: x}}\n",
       "sched.yaml: profiles[0].pluginConfig[0].args.scoringStrategy.typ: unknown field (plugin "
       "\"NodeResourcesFit\", profile \"default-scheduler\")"},
      {"profiles:\n- pluginConfig:\n  - name: DefaultPreemption\n    args: {minCandidateNodesAbsolute: \"1\"}\n",
       "sched.yaml: profiles[0].pluginConfig[0].args.minCandidateNodesAbsolute: expected an integer, got a string "
       "(plugin \"DefaultPreemption\", profile \"default-scheduler\")"},
      {"profiles:\n- pluginConfig:\n  - name: NodeName\n    args: {x: 1}\n",
       "sched.yaml: profiles[0].pluginConfig[0].args.x: unknown field (plugin \"NodeName\", profile "
       "\"default-scheduler\")"},
  };
  for (const Case& c : cases) {
    INFO(c.yaml);
    absl::StatusOr<config::SchedulerConfiguration> cfg = config::ParseConfiguration(c.yaml, "sched.yaml");
    REQUIRE(cfg.ok());
    std::string got = "<ok>";
    for (const Profile& p : cfg->profiles) {
      auto fw = Framework::Create(registry, p, FrameworkOptions{});
      if (!fw.ok()) {
        got = std::string(fw.status().message());
        break;
      }
    }
    CHECK(got == c.want);
  }
}

TEST_CASE("Typed args: a byte that is not UTF-8 is refused where it is written", "[framework][args]") {
  const std::string yaml =
      "profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: \"Least\xff\"}}\n";
  absl::StatusOr<config::SchedulerConfiguration> cfg = config::ParseConfiguration(yaml, "bad.yaml");
  REQUIRE_FALSE(cfg.ok());
  CHECK(cfg.status().message() ==
        "bad.yaml: profiles[0].pluginConfig[0].args.scoringStrategy.type: invalid UTF-8 (plugin "
        "\"NodeResourcesFit\")");
}

}  // namespace
}  // namespace schedkit::framework
