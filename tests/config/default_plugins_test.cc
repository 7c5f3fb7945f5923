// Tests for the default plugin set, the merge of a profile's plugins into it
// and v1 defaulting, ported as facts from kube-scheduler v1.37.2
// pkg/scheduler/apis/config: v1/default_plugins_test.go (TestApplyFeatureGates,
// TestMergePlugins), v1/defaults_test.go (TestSchedulerDefaults),
// scheme/scheme_test.go (TestCodecsDecodePluginConfig) and
// testing/defaults/defaults.go (PluginsV1).
#include "config/default_plugins.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "schedkit/config/configuration.h"

namespace {

namespace config = schedkit::config;
using schedkit::framework::PluginRef;
using schedkit::framework::PluginSet;
using schedkit::framework::Profile;
using schedkit::framework::ProfilePlugins;

config::SchedulerConfiguration MustParse(std::string_view text) {
  absl::StatusOr<config::SchedulerConfiguration> parsed = config::ParseConfiguration(text, "test.yaml");
  INFO(parsed.status().ToString());
  REQUIRE(parsed.ok());
  return *std::move(parsed);
}

// testing/defaults PluginsV1, the v1.37 default set with DynamicResourceAllocation
// and NodeDeclaredFeatures on (both GA and locked on).
const std::vector<PluginRef> kPluginsV1 = {
    {"SchedulingGates", 0},
    {"PrioritySort", 0},
    {"NodeName", 0},
    {"NodeUnschedulable", 0},
    {"TaintToleration", 3},
    {"NodeAffinity", 2},
    {"NodePorts", 0},
    {"NodeResourcesFit", 1},
    {"VolumeRestrictions", 0},
    {"NodeVolumeLimits", 0},
    {"VolumeBinding", 0},
    {"VolumeZone", 0},
    {"PodTopologySpread", 2},
    {"InterPodAffinity", 2},
    {"DynamicResources", 2},
    {"DefaultPreemption", 0},
    {"NodeResourcesBalancedAllocation", 1},
    {"ImageLocality", 1},
    {"DefaultBinder", 0},
    {"NodeDeclaredFeatures", 0},
};

TEST_CASE("DefaultPlugins equals upstream v1.37 getDefaultPlugins with default feature gates",
          "[config][defaults]") {
  // TestApplyFeatureGates with v1.37's default gates: DynamicResourceAllocation
  // and NodeDeclaredFeatures on; GenericWorkload (GangScheduling) and the
  // alpha topology and deferred-scheduling gates off.
  ProfilePlugins want;
  want.multi_point.enabled = kPluginsV1;
  const ProfilePlugins got = config::DefaultPlugins();
  CHECK(got == want);
  // Nothing outside multiPoint, nothing disabled.
  CHECK(got.multi_point.disabled.empty());
  CHECK(got.score == PluginSet{});
  CHECK(got.queue_sort == PluginSet{});
}

TEST_CASE("DefaultConfiguration is one default-scheduler profile with the upstream top-level defaults",
          "[config][defaults]") {
  const config::SchedulerConfiguration c = config::DefaultConfiguration();
  CHECK(c.parallelism == 16);
  CHECK(c.percentage_of_nodes_to_score == 0);
  CHECK(c.pod_initial_backoff_seconds == 1);
  CHECK(c.pod_max_backoff_seconds == 10);
  REQUIRE(c.profiles.size() == 1);
  CHECK(c.profiles[0].scheduler_name == "default-scheduler");
  CHECK(c.profiles[0].plugins == config::DefaultPlugins());
  CHECK(c.profiles[0].plugin_args.empty());
  CHECK_FALSE(c.profiles[0].percentage_of_nodes_to_score.has_value());
  CHECK(config::ValidateConfiguration(c).ok());
}

// ---- TestMergePlugins -------------------------------------------------------

struct MergeCase {
  std::string name;
  ProfilePlugins custom;
  bool custom_is_nil = false;
  ProfilePlugins defaults;
  ProfilePlugins want;
};

PluginSet Enabled(std::vector<PluginRef> enabled, std::vector<std::string> disabled = {}) {
  return PluginSet{std::move(enabled), std::move(disabled)};
}

std::vector<MergeCase> MergeCases() {
  std::vector<MergeCase> cases;
  {
    MergeCase c;
    c.name = "AppendCustomPlugin";
    c.custom.filter = Enabled({{"CustomPlugin", 0}});
    c.defaults.filter = Enabled({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}});
    c.want.filter = Enabled({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}, {"CustomPlugin", 0}});
    cases.push_back(c);
  }
  {
    MergeCase c;
    c.name = "InsertAfterDefaultPlugins2";
    c.custom.filter = Enabled({{"CustomPlugin", 0}, {"DefaultPlugin2", 0}}, {"DefaultPlugin2"});
    c.defaults.filter = Enabled({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}});
    c.want.filter =
        Enabled({{"DefaultPlugin1", 0}, {"CustomPlugin", 0}, {"DefaultPlugin2", 0}}, {"DefaultPlugin2"});
    cases.push_back(c);
  }
  {
    MergeCase c;
    c.name = "InsertBeforeAllPlugins";
    c.custom.filter = Enabled({{"CustomPlugin", 0}, {"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}}, {"*"});
    c.defaults.filter = Enabled({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}});
    c.want.filter = Enabled({{"CustomPlugin", 0}, {"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}}, {"*"});
    cases.push_back(c);
  }
  {
    MergeCase c;
    c.name = "ReorderDefaultPlugins";
    c.custom.filter = Enabled({{"DefaultPlugin2", 0}, {"DefaultPlugin1", 0}}, {"*"});
    c.defaults.filter = Enabled({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}});
    c.want.filter = Enabled({{"DefaultPlugin2", 0}, {"DefaultPlugin1", 0}}, {"*"});
    cases.push_back(c);
  }
  {
    MergeCase c;
    c.name = "ApplyNilCustomPlugin";
    c.custom_is_nil = true;
    c.defaults.filter = Enabled({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}});
    c.want.filter = Enabled({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}});
    cases.push_back(c);
  }
  {
    MergeCase c;
    c.name = "CustomPluginOverrideDefaultPlugin";
    c.custom.filter = Enabled({{"Plugin1", 2}, {"Plugin3", 3}});
    c.defaults.filter = Enabled({{"Plugin1", 0}, {"Plugin2", 0}, {"Plugin3", 0}});
    c.want.filter = Enabled({{"Plugin1", 2}, {"Plugin2", 0}, {"Plugin3", 3}});
    cases.push_back(c);
  }
  {
    MergeCase c;
    c.name = "OrderPreserveAfterOverride";
    c.custom.filter = Enabled({{"Plugin2", 2}, {"Plugin1", 1}});
    c.defaults.filter = Enabled({{"Plugin1", 0}, {"Plugin2", 0}, {"Plugin3", 0}});
    c.want.filter = Enabled({{"Plugin1", 1}, {"Plugin2", 2}, {"Plugin3", 0}});
    cases.push_back(c);
  }
  {
    MergeCase c;
    c.name = "RepeatedCustomPlugin";
    c.custom.filter = Enabled({{"Plugin1", 0}, {"Plugin2", 2}, {"Plugin3", 0}, {"Plugin2", 4}});
    c.defaults.filter = Enabled({{"Plugin1", 0}, {"Plugin2", 0}, {"Plugin3", 0}});
    c.want.filter = Enabled({{"Plugin1", 0}, {"Plugin2", 4}, {"Plugin3", 0}, {"Plugin2", 2}});
    cases.push_back(c);
  }
  {
    MergeCase c;
    c.name = "Append custom MultiPoint plugin";
    c.custom.multi_point = Enabled({{"CustomPlugin", 0}});
    c.defaults.multi_point = Enabled({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}});
    c.want.multi_point = Enabled({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}, {"CustomPlugin", 0}});
    cases.push_back(c);
  }
  {
    MergeCase c;
    c.name = "Append disabled Multipoint plugins";
    c.custom.multi_point = Enabled({{"CustomPlugin", 0}, {"CustomPlugin2", 0}}, {"DefaultPlugin2"});
    c.custom.score = Enabled({}, {"CustomPlugin2"});
    c.defaults.multi_point = Enabled({{"DefaultPlugin1", 0}, {"DefaultPlugin2", 0}});
    c.want.multi_point =
        Enabled({{"DefaultPlugin1", 0}, {"CustomPlugin", 0}, {"CustomPlugin2", 0}}, {"DefaultPlugin2"});
    c.want.score = Enabled({}, {"CustomPlugin2"});
    cases.push_back(c);
  }
  {
    MergeCase c;
    c.name = "override default MultiPoint plugins with custom value";
    c.custom.multi_point = Enabled({{"DefaultPlugin", 5}});
    c.defaults.multi_point = Enabled({{"DefaultPlugin", 0}});
    c.want.multi_point = Enabled({{"DefaultPlugin", 5}});
    cases.push_back(c);
  }
  {
    MergeCase c;
    c.name = "disabled MultiPoint plugin in default set";
    c.defaults.multi_point = Enabled({{"DefaultPlugin", 0}}, {"DefaultPlugin2"});
    c.custom.multi_point = Enabled({{"CustomPlugin", 0}});
    c.want.multi_point = Enabled({{"DefaultPlugin", 0}, {"CustomPlugin", 0}}, {"DefaultPlugin2"});
    cases.push_back(c);
  }
  {
    MergeCase c;
    c.name = "disabled MultiPoint plugin in default set for specific extension point";
    c.defaults.multi_point = Enabled({{"DefaultPlugin", 0}});
    c.defaults.score = Enabled({}, {"DefaultPlugin2"});
    c.custom.multi_point = Enabled({{"CustomPlugin", 0}});
    c.want.multi_point = Enabled({{"DefaultPlugin", 0}, {"CustomPlugin", 0}});
    c.want.score = Enabled({}, {"DefaultPlugin2"});
    cases.push_back(c);
  }
  {
    MergeCase c;
    c.name = "multipoint with only disabled gets merged";
    c.defaults.multi_point = Enabled({{"DefaultPlugin", 0}});
    c.custom.multi_point = Enabled({}, {"DefaultPlugin"});
    c.want.multi_point = Enabled({}, {"DefaultPlugin"});
    cases.push_back(c);
  }
  return cases;
}

TEST_CASE("MergePlugins: upstream TestMergePlugins", "[config][merge]") {
  const std::vector<MergeCase> cases = MergeCases();
  REQUIRE(cases.size() == 14);
  for (const MergeCase& c : cases) {
    SECTION(c.name) {
      const ProfilePlugins got =
          config::internal::MergePlugins(c.defaults, c.custom_is_nil ? nullptr : &c.custom);
      CHECK(got == c.want);
    }
  }
}

TEST_CASE("MergePluginSet: a default listed twice is replaced at both places", "[config][merge]") {
  const PluginSet got =
      config::internal::MergePluginSet(Enabled({{"A", 0}, {"B", 0}, {"A", 0}}), Enabled({{"A", 7}}));
  CHECK(got == Enabled({{"A", 7}, {"B", 0}, {"A", 7}}));
}

// ---- TestSchedulerDefaults / TestCodecsDecodePluginConfig --------------------
// Upstream's cases expressed as documents; the args of in-tree plugins are
// defaulted by the plugins themselves in schedkit, so only the plugin sets,
// names and percentages are compared.

TEST_CASE("Defaults: upstream TestSchedulerDefaults", "[config][defaults]") {
  SECTION("empty config") {
    const config::SchedulerConfiguration c = MustParse("{}");
    CHECK(c.parallelism == 16);
    CHECK(c.percentage_of_nodes_to_score == 0);
    CHECK(c.pod_initial_backoff_seconds == 1);
    CHECK(c.pod_max_backoff_seconds == 10);
    REQUIRE(c.profiles.size() == 1);
    CHECK(c.profiles[0].scheduler_name == "default-scheduler");
    CHECK(c.profiles[0].plugins == config::DefaultPlugins());
  }
  SECTION("no scheduler name") {
    const config::SchedulerConfiguration c = MustParse("profiles:\n- {}\n");
    REQUIRE(c.profiles.size() == 1);
    CHECK(c.profiles[0].scheduler_name == "default-scheduler");
    CHECK(c.profiles[0].plugins == config::DefaultPlugins());
  }
  SECTION("two profiles") {
    // Upstream leaves the first profile's name unset (only a single profile
    // gets the default name), which validation then rejects; check the
    // defaulting alone through the decoder.
    absl::StatusOr<config::SchedulerConfiguration> parsed = config::ParseConfiguration(R"(
parallelism: 16
profiles:
- pluginConfig:
  - name: FooPlugin
- schedulerName: custom-scheduler
  plugins:
    bind:
      enabled:
      - name: BarPlugin
      disabled:
      - name: DefaultBinder
)",
                                                                                       "two.yaml");
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.status().message() == "two.yaml: profiles[0].schedulerName: Required value");
  }
  SECTION("Prallelism with no port") {
    const config::SchedulerConfiguration c = MustParse("parallelism: 16\n");
    CHECK(c.parallelism == 16);
    CHECK(c.profiles.size() == 1);
  }
  SECTION("set non default parallelism") {
    const config::SchedulerConfiguration c = MustParse("parallelism: 8\n");
    CHECK(c.parallelism == 8);
    CHECK(c.profiles[0].plugins == config::DefaultPlugins());
  }
  SECTION("set non default delayCacheUntilActive") {
    const config::SchedulerConfiguration c = MustParse("delayCacheUntilActive: true\n");
    CHECK(c.parallelism == 16);
    CHECK(c.profiles[0].scheduler_name == "default-scheduler");
  }
  SECTION("set non default global percentageOfNodesToScore") {
    const config::SchedulerConfiguration c = MustParse("percentageOfNodesToScore: 50\n");
    CHECK(c.percentage_of_nodes_to_score == 50);
    CHECK_FALSE(c.profiles[0].percentage_of_nodes_to_score.has_value());
  }
  SECTION("set non default profile percentageOfNodesToScore") {
    const config::SchedulerConfiguration c = MustParse("profiles:\n- percentageOfNodesToScore: 50\n");
    CHECK(c.percentage_of_nodes_to_score == 0);
    CHECK(c.profiles[0].percentage_of_nodes_to_score == 50);
    CHECK(c.profiles[0].scheduler_name == "default-scheduler");
  }
  SECTION("set non default global and profile percentageOfNodesToScore") {
    const config::SchedulerConfiguration c =
        MustParse("percentageOfNodesToScore: 10\nprofiles:\n- percentageOfNodesToScore: 50\n");
    CHECK(c.percentage_of_nodes_to_score == 10);
    CHECK(c.profiles[0].percentage_of_nodes_to_score == 50);
  }
}

TEST_CASE("Defaults: the two-profile case's plugin merge", "[config][defaults]") {
  // TestSchedulerDefaults "two profiles" with names on both profiles, so that
  // validation passes: the first keeps the defaults untouched, the second gets
  // bind {enabled: [BarPlugin], disabled: [DefaultBinder]} beside them.
  const config::SchedulerConfiguration c = MustParse(R"(
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: FooPlugin
- schedulerName: custom-scheduler
  plugins:
    bind:
      enabled:
      - name: BarPlugin
      disabled:
      - name: DefaultBinder
)");
  REQUIRE(c.profiles.size() == 2);
  CHECK(c.profiles[0].plugins == config::DefaultPlugins());
  CHECK(c.profiles[0].plugin_args.at("FooPlugin") == "{}");
  ProfilePlugins want = config::DefaultPlugins();
  want.bind = Enabled({{"BarPlugin", 0}}, {"DefaultBinder"});
  CHECK(c.profiles[1].scheduler_name == "custom-scheduler");
  CHECK(c.profiles[1].plugins == want);
}

TEST_CASE("Decode: upstream TestCodecsDecodePluginConfig cases", "[config][defaults]") {
  SECTION("v1 with non-default global percentageOfNodesToScore") {
    const config::SchedulerConfiguration c = MustParse(R"(
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
percentageOfNodesToScore: 10
)");
    CHECK(c.percentage_of_nodes_to_score == 10);
    REQUIRE(c.profiles.size() == 1);
    CHECK(c.profiles[0].scheduler_name == "default-scheduler");
    CHECK_FALSE(c.profiles[0].percentage_of_nodes_to_score.has_value());
    CHECK(c.profiles[0].plugins.multi_point.enabled == kPluginsV1);
  }
  SECTION("v1 with non-default global and profile percentageOfNodesToScore") {
    const config::SchedulerConfiguration c = MustParse(R"(
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
percentageOfNodesToScore: 10
profiles:
- percentageOfNodesToScore: 20
)");
    CHECK(c.percentage_of_nodes_to_score == 10);
    CHECK(c.profiles[0].percentage_of_nodes_to_score == 20);
  }
  SECTION("v1 plugins can include version and kind") {
    const config::SchedulerConfiguration c = MustParse(R"(
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: DefaultPreemptionArgs
      minCandidateNodesPercentage: 50
)");
    CHECK(
        c.profiles[0].plugin_args.at("DefaultPreemption") ==
        R"({"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"DefaultPreemptionArgs","minCandidateNodesPercentage":50})");
  }
  SECTION("plugin group and kind should match the type") {
    absl::StatusOr<config::SchedulerConfiguration> parsed = config::ParseConfiguration(R"(
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: InterPodAffinityArgs
)",
                                                                                       "kind.yaml");
    REQUIRE_FALSE(parsed.ok());
    CHECK(
        parsed.status().message() ==
        "kind.yaml: profiles[0].pluginConfig[0].args.kind: Invalid value: \"InterPodAffinityArgs\": args for "
        "plugin DefaultPreemption must be of kind DefaultPreemptionArgs");
  }
  SECTION("out-of-tree plugin args") {
    const config::SchedulerConfiguration c = MustParse(R"(
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: OutOfTreePlugin
    args:
      foo: bar
)");
    CHECK(c.profiles[0].plugin_args.at("OutOfTreePlugin") == R"({"foo":"bar"})");
    CHECK(c.profiles[0].plugins.multi_point.enabled == kPluginsV1);
  }
  SECTION("empty and no plugin args") {
    const config::SchedulerConfiguration c = MustParse(R"(
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- pluginConfig:
  - name: DefaultPreemption
    args:
  - name: DynamicResources
    args:
  - name: InterPodAffinity
    args:
  - name: NodeResourcesFit
  - name: OutOfTreePlugin
    args:
  - name: VolumeBinding
    args:
  - name: PodTopologySpread
  - name: NodeAffinity
  - name: NodeResourcesBalancedAllocation
)");
    const auto& args = c.profiles[0].plugin_args;
    CHECK(args.size() == 9);
    for (const auto& [name, text] : args) {
      INFO(name);
      CHECK(text == "{}");
    }
  }
}

}  // namespace
