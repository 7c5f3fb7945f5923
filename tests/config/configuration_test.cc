// Tests for ParseConfiguration / LoadConfiguration: the v1 document shape in
// YAML and JSON (which must decode the same), plugin-set merging as users
// write it, typed YAML scalars in plugin args, and a clear error naming the
// source and field for every kind of bad input.
#include "schedkit/config/configuration.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "config/typed_yaml.h"
#include "nlohmann/json.hpp"

namespace {

namespace config = schedkit::config;
using Catch::Contains;
using Catch::StartsWith;
using schedkit::framework::PluginRef;
using schedkit::framework::PluginSet;
using schedkit::framework::Profile;
using schedkit::framework::ProfilePlugins;

std::string TestData(std::string_view name) {
  return std::string(SCHEDKIT_TESTS_DIR) + "/config/testdata/" + std::string(name);
}

config::SchedulerConfiguration MustParse(std::string_view text, std::string_view source = "test.yaml") {
  absl::StatusOr<config::SchedulerConfiguration> parsed = config::ParseConfiguration(text, source);
  INFO(parsed.status().ToString());
  REQUIRE(parsed.ok());
  return *std::move(parsed);
}

// The message of the error ParseConfiguration gives for `text`.
std::string ParseError(std::string_view text, std::string_view source = "bad.yaml") {
  absl::StatusOr<config::SchedulerConfiguration> parsed = config::ParseConfiguration(text, source);
  REQUIRE_FALSE(parsed.ok());
  CHECK(parsed.status().code() == absl::StatusCode::kInvalidArgument);
  return std::string(parsed.status().message());
}

void CheckSameProfiles(const config::SchedulerConfiguration& a, const config::SchedulerConfiguration& b) {
  CHECK(a.parallelism == b.parallelism);
  CHECK(a.percentage_of_nodes_to_score == b.percentage_of_nodes_to_score);
  CHECK(a.pod_initial_backoff_seconds == b.pod_initial_backoff_seconds);
  CHECK(a.pod_max_backoff_seconds == b.pod_max_backoff_seconds);
  REQUIRE(a.profiles.size() == b.profiles.size());
  for (size_t i = 0; i < a.profiles.size(); ++i) {
    INFO("profile " << i);
    CHECK(a.profiles[i].scheduler_name == b.profiles[i].scheduler_name);
    CHECK(a.profiles[i].percentage_of_nodes_to_score == b.profiles[i].percentage_of_nodes_to_score);
    CHECK(a.profiles[i].plugins == b.profiles[i].plugins);
    CHECK(a.profiles[i].plugin_args == b.profiles[i].plugin_args);
  }
}

std::vector<PluginRef> DefaultMultiPoint() { return config::DefaultPlugins().multi_point.enabled; }

// ---- the full document -------------------------------------------------------

TEST_CASE("LoadConfiguration: every supported field, YAML and JSON decode the same", "[config][parse]") {
  absl::StatusOr<config::SchedulerConfiguration> yaml = config::LoadConfiguration(TestData("custom.yaml"));
  absl::StatusOr<config::SchedulerConfiguration> json = config::LoadConfiguration(TestData("custom.json"));
  INFO(yaml.status().ToString() << " / " << json.status().ToString());
  REQUIRE(yaml.ok());
  REQUIRE(json.ok());
  CheckSameProfiles(*yaml, *json);

  const config::SchedulerConfiguration& c = *yaml;
  CHECK(c.parallelism == 8);
  CHECK(c.percentage_of_nodes_to_score == 30);
  CHECK(c.pod_initial_backoff_seconds == 2);
  CHECK(c.pod_max_backoff_seconds == 20);
  REQUIRE(c.profiles.size() == 2);

  const Profile& first = c.profiles[0];
  CHECK(first.scheduler_name == "default-scheduler");
  CHECK_FALSE(first.percentage_of_nodes_to_score.has_value());
  // multiPoint: NodeResourcesFit re-weighted in place, ImageLocality gone,
  // MyPlugin appended.
  std::vector<PluginRef> multi_point;
  for (PluginRef p : DefaultMultiPoint()) {
    if (p.name == "ImageLocality") continue;
    if (p.name == "NodeResourcesFit") p.weight = 2;
    multi_point.push_back(p);
  }
  multi_point.push_back({"MyPlugin", 0});
  CHECK(first.plugins.multi_point.enabled == multi_point);
  CHECK(first.plugins.multi_point.disabled == std::vector<std::string>{"ImageLocality"});
  CHECK(first.plugins.score == PluginSet{{{"PodTopologySpread", 5}}, {}});
  CHECK(first.plugins.queue_sort == PluginSet{});
  CHECK(first.plugins.post_bind == PluginSet{});
  CHECK(first.plugin_args.size() == 3);
  CHECK(
      first.plugin_args.at("NodeResourcesFit") ==
      R"({"scoringStrategy":{"resources":[{"name":"cpu","weight":1},{"name":"memory","weight":1}],"type":"MostAllocated"}})");
  CHECK(first.plugin_args.at("DefaultPreemption") ==
        R"({"minCandidateNodesAbsolute":50,"minCandidateNodesPercentage":20})");
  // YAML scalars keep their JSON types: a quoted "10" stays a string.
  CHECK(first.plugin_args.at("MyPlugin") ==
        R"({"enabled":true,"label":"10","nothing":null,"ratio":0.5,"values":["a","b"]})");

  const Profile& packer = c.profiles[1];
  CHECK(packer.scheduler_name == "packer");
  CHECK(packer.percentage_of_nodes_to_score == 100);
  CHECK(packer.plugins.multi_point.enabled == DefaultMultiPoint());
  CHECK(packer.plugins.score == PluginSet{{{"NodeResourcesFit", 10}}, {"*"}});
  CHECK(packer.plugin_args.empty());
}

TEST_CASE("ParseConfiguration: an empty document is the default configuration", "[config][parse]") {
  for (std::string_view text : {"", "\n", "---\n", "# only a comment\n", "{}", "  {}  "}) {
    INFO("text: '" << text << "'");
    const config::SchedulerConfiguration c = MustParse(text);
    const config::SchedulerConfiguration want = config::DefaultConfiguration();
    CheckSameProfiles(c, want);
  }
}

TEST_CASE("ParseConfiguration: null fields take their defaults", "[config][parse]") {
  const config::SchedulerConfiguration c = MustParse(R"(
parallelism:
percentageOfNodesToScore: ~
podInitialBackoffSeconds: null
profiles:
  - schedulerName:
    plugins:
    pluginConfig:
)");
  CheckSameProfiles(c, config::DefaultConfiguration());
  const config::SchedulerConfiguration j =
      MustParse(R"({"parallelism": null, "profiles": [{"schedulerName": null, "plugins": null}]})", "t.json");
  CheckSameProfiles(j, config::DefaultConfiguration());
}

// ---- merging as users write it ------------------------------------------------

TEST_CASE("ParseConfiguration: disable \"*\" then enable one", "[config][parse][merge]") {
  SECTION("at a specific point") {
    const config::SchedulerConfiguration c = MustParse(R"(
profiles:
  - plugins:
      filter:
        disabled: [{name: "*"}]
        enabled: [{name: NodeName}]
)");
    CHECK(c.profiles[0].plugins.filter == PluginSet{{{"NodeName", 0}}, {"*"}});
    CHECK(c.profiles[0].plugins.multi_point.enabled == DefaultMultiPoint());
  }
  SECTION("at multiPoint") {
    const config::SchedulerConfiguration c = MustParse(R"(
profiles:
  - plugins:
      multiPoint:
        disabled: [{name: "*"}]
        enabled: [{name: PrioritySort}, {name: DefaultBinder}]
)");
    CHECK(c.profiles[0].plugins.multi_point == PluginSet{{{"PrioritySort", 0}, {"DefaultBinder", 0}}, {"*"}});
  }
}

TEST_CASE("ParseConfiguration: multiPoint with a per-point override", "[config][parse][merge]") {
  const config::SchedulerConfiguration c = MustParse(R"(
profiles:
  - plugins:
      multiPoint:
        enabled:
          - {name: MyPlugin, weight: 3}
      score:
        enabled:
          - {name: MyPlugin, weight: 7}
        disabled:
          - {name: ImageLocality}
)");
  const ProfilePlugins& p = c.profiles[0].plugins;
  std::vector<PluginRef> multi_point = DefaultMultiPoint();
  multi_point.push_back({"MyPlugin", 3});
  CHECK(p.multi_point.enabled == multi_point);
  CHECK(p.multi_point.disabled.empty());
  // The score entry is kept apart: the Framework lets it take precedence over
  // the multiPoint weight at the score point.
  CHECK(p.score == PluginSet{{{"MyPlugin", 7}}, {"ImageLocality"}});
}

TEST_CASE("ParseConfiguration: a weight on multiPoint replaces the default in place",
          "[config][parse][merge]") {
  const config::SchedulerConfiguration c = MustParse(R"(
profiles:
  - plugins:
      multiPoint:
        enabled:
          - name: TaintToleration
            weight: 10
          - name: NodeAffinity
)");
  std::vector<PluginRef> want = DefaultMultiPoint();
  REQUIRE(want[4].name == "TaintToleration");
  want[4].weight = 10;
  REQUIRE(want[5].name == "NodeAffinity");
  want[5].weight = 0;  // re-listed without a weight: the custom entry wins as written
  CHECK(c.profiles[0].plugins.multi_point.enabled == want);
}

TEST_CASE("ParseConfiguration: per-profile percentageOfNodesToScore", "[config][parse]") {
  const config::SchedulerConfiguration c = MustParse(R"(
percentageOfNodesToScore: 40
profiles:
  - schedulerName: a
    percentageOfNodesToScore: 0
  - schedulerName: b
  - schedulerName: c
    percentageOfNodesToScore: 100
)");
  CHECK(c.percentage_of_nodes_to_score == 40);
  REQUIRE(c.profiles.size() == 3);
  CHECK(c.profiles[0].percentage_of_nodes_to_score == 0);
  CHECK_FALSE(c.profiles[1].percentage_of_nodes_to_score.has_value());
  CHECK(c.profiles[2].percentage_of_nodes_to_score == 100);
  CHECK_THAT(
      ParseError("profiles:\n- percentageOfNodesToScore: 101\n"),
      Contains(
          "bad.yaml: profiles[0].percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]"));
}

TEST_CASE("ParseConfiguration: scheduler names", "[config][parse]") {
  SECTION("several profiles without names are each rejected") {
    CHECK(ParseError("profiles:\n- {}\n- {}\n") ==
          "bad.yaml: profiles[0].schedulerName: Required value; profiles[1].schedulerName: Required value; "
          "profiles[1].schedulerName: Duplicate value: \"\"");
  }
  SECTION("an explicit empty name is not defaulted") {
    CHECK(ParseError("profiles:\n- schedulerName: \"\"\n") ==
          "bad.yaml: profiles[0].schedulerName: Required value");
  }
  SECTION("duplicates name the later profile") {
    CHECK(ParseError("profiles:\n- schedulerName: a\n- schedulerName: b\n- schedulerName: a\n") ==
          "bad.yaml: profiles[2].schedulerName: Duplicate value: \"a\"");
  }
}

TEST_CASE("ParseConfiguration: pluginConfig given twice (upstream duplicated-plugin-config)",
          "[config][parse]") {
  CHECK(ParseError(R"(
profiles:
  - pluginConfig:
      - name: config
      - name: config
)") == "bad.yaml: profiles[0].pluginConfig[1]: Duplicate value: \"config\"");
}

// ---- typed YAML scalars ------------------------------------------------------

TEST_CASE("ResolvePlainScalar types YAML plain scalars as go-yaml v2 does", "[config][yaml]") {
  using config::internal::ResolvePlainScalar;
  using nlohmann::json;
  CHECK(ResolvePlainScalar("") == json(nullptr));
  CHECK(ResolvePlainScalar("~") == json(nullptr));
  CHECK(ResolvePlainScalar("Null") == json(nullptr));
  CHECK(ResolvePlainScalar("true") == json(true));
  CHECK(ResolvePlainScalar("False") == json(false));
  CHECK(ResolvePlainScalar("yes") == json(true));
  CHECK(ResolvePlainScalar("off") == json(false));
  CHECK(ResolvePlainScalar("y") == json(true));
  CHECK(ResolvePlainScalar("10").is_number_integer());
  CHECK(ResolvePlainScalar("10") == json(10));
  CHECK(ResolvePlainScalar("-7") == json(-7));
  CHECK(ResolvePlainScalar("+7") == json(7));
  CHECK(ResolvePlainScalar("1_000") == json(1000));
  CHECK(ResolvePlainScalar("0x1F") == json(31));
  CHECK(ResolvePlainScalar("0o17") == json(15));
  CHECK(ResolvePlainScalar("017") == json(15));
  CHECK(ResolvePlainScalar("0b101") == json(5));
  CHECK(ResolvePlainScalar("9223372036854775807") == json(INT64_MAX));
  CHECK(ResolvePlainScalar("-9223372036854775808") == json(INT64_MIN));
  CHECK(ResolvePlainScalar("18446744073709551615") == json(UINT64_MAX));
  CHECK(ResolvePlainScalar("0.5") == json(0.5));
  CHECK(ResolvePlainScalar(".5") == json(0.5));
  CHECK(ResolvePlainScalar("1e3") == json(1000));
  CHECK(ResolvePlainScalar("1e3").is_number_integer());
  CHECK(ResolvePlainScalar("2.0").is_number_integer());
  CHECK(ResolvePlainScalar("1e300").is_number_float());
  CHECK(ResolvePlainScalar("15s") == json("15s"));
  CHECK(ResolvePlainScalar("1.2.3") == json("1.2.3"));
  CHECK(ResolvePlainScalar("0x") == json("0x"));
  CHECK(ResolvePlainScalar("09") == json(9));  // not octal, but a float per the YAML float pattern
  CHECK(ResolvePlainScalar("-") == json("-"));
  CHECK(ResolvePlainScalar("cpu") == json("cpu"));
  CHECK(ResolvePlainScalar(".inf") == json(".inf"));
}

TEST_CASE("ParseConfiguration: plugin args from YAML are typed, quoted scalars stay strings",
          "[config][yaml]") {
  const config::SchedulerConfiguration c = MustParse(R"(
profiles:
  - pluginConfig:
      - name: Custom
        args:
          int: 10
          quoted: "10"
          single: '10'
          bool: yes
          quotedBool: "true"
          hex: 0x10
          float: 1.5
          sci: 1e3
          none: ~
          str: !!str 42
          list: [1, "1", true]
          nested: {a: {b: 2}}
)");
  const nlohmann::json args = nlohmann::json::parse(c.profiles[0].plugin_args.at("Custom").json());
  CHECK(args ==
        nlohmann::json::parse(R"({"int":10,"quoted":"10","single":"10","bool":true,"quotedBool":"true",
      "hex":16,"float":1.5,"sci":1000,"none":null,"str":"42","list":[1,"1",true],"nested":{"a":{"b":2}}})"));
}

TEST_CASE("ParseConfiguration: numbers and booleans in YAML fields", "[config][yaml]") {
  const config::SchedulerConfiguration c =
      MustParse("parallelism: 0x10\npodMaxBackoffSeconds: 1e2\nenableProfiling: no\n");
  CHECK(c.parallelism == 16);
  CHECK(c.pod_max_backoff_seconds == 100);
  // A quoted number is a string, as for kube-scheduler.
  CHECK(ParseError("parallelism: \"16\"\n") == "bad.yaml: parallelism: expected an integer, got a string");
}

// ---- bad input -----------------------------------------------------------------

TEST_CASE("ParseConfiguration: malformed input names the source and position", "[config][errors]") {
  CHECK_THAT(ParseError("profiles: [\n  - a\n", "bad.yaml"), StartsWith("bad.yaml: line "));
  CHECK_THAT(ParseError("profiles: [\n  - a\n", "bad.yaml"), Contains("malformed YAML"));
  CHECK_THAT(ParseError("key: \"unterminated\n", "bad.yaml"), Contains("malformed YAML"));
  CHECK_THAT(ParseError("{\"parallelism\": }", "bad.json"), StartsWith("bad.json: line 1 column "));
  CHECK_THAT(ParseError("{\"parallelism\": }", "bad.json"), Contains("malformed JSON"));
  CHECK_THAT(ParseError("a: 1\n  b: 2\n", "indent.yaml"), StartsWith("indent.yaml: line "));
}

TEST_CASE("ParseConfiguration: wrong types name the field", "[config][errors]") {
  CHECK(ParseError("parallelism: abc\n") == "bad.yaml: parallelism: expected an integer, got a string");
  CHECK(ParseError("parallelism: 1.5\n") == "bad.yaml: parallelism: expected an integer, got a number");
  CHECK(ParseError("parallelism: 3000000000\n") ==
        "bad.yaml: parallelism: value 3000000000 does not fit in int32");
  CHECK(ParseError("podMaxBackoffSeconds: 18446744073709551615\n") ==
        "bad.yaml: podMaxBackoffSeconds: value 18446744073709551615 does not fit in int64");
  CHECK(ParseError(R"({"parallelism": "16"})", "bad.json") ==
        "bad.json: parallelism: expected an integer, got a string");
  CHECK(ParseError(R"({"parallelism": 16.0})", "bad.json") ==
        "bad.json: parallelism: expected an integer, got a number");
  CHECK(ParseError("profiles: {}\n") == "bad.yaml: profiles: expected a list, got an object");
  CHECK(ParseError("profiles: [7]\n") == "bad.yaml: profiles[0]: expected an object, got an integer");
  CHECK(ParseError("profiles:\n- schedulerName: [a]\n") ==
        "bad.yaml: profiles[0].schedulerName: expected a string, got a list");
  CHECK(ParseError("profiles:\n- plugins: []\n") ==
        "bad.yaml: profiles[0].plugins: expected an object, got a list");
  CHECK(ParseError("profiles:\n- plugins:\n    score: [NodeAffinity]\n") ==
        "bad.yaml: profiles[0].plugins.score: expected an object, got a list");
  CHECK(ParseError("profiles:\n- plugins:\n    score:\n      enabled: {name: A}\n") ==
        "bad.yaml: profiles[0].plugins.score.enabled: expected a list, got an object");
  CHECK(ParseError("profiles:\n- plugins:\n    score:\n      enabled: [NodeAffinity]\n") ==
        "bad.yaml: profiles[0].plugins.score.enabled[0]: expected an object, got a string");
  CHECK(ParseError("profiles:\n- plugins:\n    score:\n      enabled: [{name: A, weight: \"2\"}]\n") ==
        "bad.yaml: profiles[0].plugins.score.enabled[0].weight: expected an integer, got a string");
  CHECK(ParseError("profiles:\n- plugins:\n    score:\n      enabled: [{weight: 2}]\n") ==
        "bad.yaml: profiles[0].plugins.score.enabled[0].name: Required value");
  CHECK(ParseError("profiles:\n- plugins:\n    filter:\n      disabled: [{name: 5}]\n") ==
        "bad.yaml: profiles[0].plugins.filter.disabled[0].name: expected a string, got an integer");
  CHECK(ParseError("profiles:\n- pluginConfig: {name: A}\n") ==
        "bad.yaml: profiles[0].pluginConfig: expected a list, got an object");
  CHECK(ParseError("profiles:\n- pluginConfig:\n  - args: {}\n") ==
        "bad.yaml: profiles[0].pluginConfig[0].name: Required value");
  CHECK(ParseError("profiles:\n- pluginConfig:\n  - name: A\n    args: [1]\n") ==
        "bad.yaml: profiles[0].pluginConfig[0].args: expected an object, got a list");
  CHECK(ParseError("enableProfiling: 3\n") ==
        "bad.yaml: enableProfiling: expected a boolean, got an integer");
  CHECK(ParseError("leaderElection: true\n") ==
        "bad.yaml: leaderElection: expected an object, got a boolean");
  CHECK(ParseError("leaderElection:\n  leaseDuration: 15\n") ==
        "bad.yaml: leaderElection.leaseDuration: expected a string, got an integer");
  CHECK(ParseError("clientConnection:\n  qps: fast\n") ==
        "bad.yaml: clientConnection.qps: expected a number, got a string");
  CHECK(ParseError("- a\n- b\n") == "bad.yaml: expected a KubeSchedulerConfiguration object, got a list");
  CHECK(ParseError("just text\n") == "bad.yaml: expected a KubeSchedulerConfiguration object, got a string");
}

TEST_CASE("ParseConfiguration: clientConnection and leaderElection are read with v1 defaults", "[config]") {
  // Defaults from upstream's pkg/scheduler/apis/config/v1/defaults.go.
  auto defaults = config::ParseConfiguration("{}", "d.yaml");
  REQUIRE(defaults.ok());
  CHECK(defaults->client_connection.qps == 50);
  CHECK(defaults->client_connection.burst == 100);
  CHECK(defaults->client_connection.content_type == "application/vnd.kubernetes.protobuf");
  CHECK(defaults->leader_election.leader_elect);
  CHECK(defaults->leader_election.lease_duration == absl::Seconds(15));
  CHECK(defaults->leader_election.renew_deadline == absl::Seconds(10));
  CHECK(defaults->leader_election.retry_period == absl::Seconds(2));
  CHECK(defaults->leader_election.resource_name == "kube-scheduler");
  CHECK(defaults->leader_election.resource_namespace == "kube-system");

  auto set = config::ParseConfiguration(
      "clientConnection: {kubeconfig: /etc/k.conf, qps: 200.5, burst: 400, contentType: application/json}\n"
      "leaderElection: {leaderElect: false, leaseDuration: 1m30s, renewDeadline: 500ms, retryPeriod: 1s,\n"
      "  resourceName: my-scheduler, resourceNamespace: sched}\n",
      "s.yaml");
  REQUIRE(set.ok());
  CHECK(set->client_connection.kubeconfig == "/etc/k.conf");
  CHECK(set->client_connection.qps == 200.5f);
  CHECK(set->client_connection.burst == 400);
  CHECK(set->client_connection.content_type == "application/json");
  CHECK_FALSE(set->leader_election.leader_elect);
  CHECK(set->leader_election.lease_duration == absl::Seconds(90));
  CHECK(set->leader_election.renew_deadline == absl::Milliseconds(500));
  CHECK(set->leader_election.retry_period == absl::Seconds(1));
  CHECK(set->leader_election.resource_name == "my-scheduler");
  CHECK(set->leader_election.resource_namespace == "sched");

  CHECK(ParseError("leaderElection:\n  renewDeadline: soon\n") ==
        "bad.yaml: leaderElection.renewDeadline: invalid duration \"soon\"");
}

TEST_CASE("ParseConfiguration: unknown fields anywhere name their path", "[config][errors]") {
  CHECK(ParseError("parallelizm: 4\n") == "bad.yaml: parallelizm: unknown field");
  // v1beta2 fields are not part of v1.
  CHECK(ParseError("healthzBindAddress: 0.0.0.0:10251\n") == "bad.yaml: healthzBindAddress: unknown field");
  CHECK(ParseError("leaderElection:\n  leaderElected: true\n") ==
        "bad.yaml: leaderElection.leaderElected: unknown field");
  CHECK(ParseError("clientConnection:\n  QPS: 5\n") == "bad.yaml: clientConnection.QPS: unknown field");
  CHECK(ParseError("profiles:\n- name: x\n") == "bad.yaml: profiles[0].name: unknown field");
  CHECK(ParseError("profiles:\n- plugins:\n    scores: {}\n") ==
        "bad.yaml: profiles[0].plugins.scores: unknown field");
  CHECK(ParseError("profiles:\n- plugins:\n    score: {enable: []}\n") ==
        "bad.yaml: profiles[0].plugins.score.enable: unknown field");
  CHECK(ParseError("profiles:\n- schedulerName: a\n- plugins:\n    multiPoint:\n      disabled: [{name: A, "
                   "why: x}]\n") ==
        "bad.yaml: profiles[1].plugins.multiPoint.disabled[0].why: unknown field");
  CHECK(ParseError("profiles:\n- pluginConfig:\n  - name: A\n    argz: {}\n") ==
        "bad.yaml: profiles[0].pluginConfig[0].argz: unknown field");
  // Field names are case-sensitive, as in kube-scheduler's strict decoding.
  CHECK(ParseError(R"({"Parallelism": 4})", "bad.json") == "bad.json: Parallelism: unknown field");

  absl::StatusOr<config::SchedulerConfiguration> loaded =
      config::LoadConfiguration(TestData("unknown_field.yaml"));
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.status().message() ==
        TestData("unknown_field.yaml") + ": profiles[0].plugins.score.enabled[0].wieght: unknown field");
}

// The classic sample-scheduler tutorial's ConfigMap is v1alpha1: the version
// is reported before its fields (top-level schedulerName, lockObjectName),
// with how v1 spells them.
TEST_CASE("ParseConfiguration: an older apiVersion is reported first, with how v1 spells it",
          "[config][errors]") {
  const std::string tutorial = R"(apiVersion: kubescheduler.config.k8s.io/v1alpha1
kind: KubeSchedulerConfiguration
schedulerName: sample-scheduler
leaderElection:
  leaderElect: true
  lockObjectName: sample-scheduler
  lockObjectNamespace: kube-system
plugins:
  preFilter:
    enabled:
    - name: "sample-plugin"
pluginConfig:
- name: "sample-plugin"
  args:
    favorite_color: "#326CE5"
)";
  CHECK(ParseError(tutorial) ==
        "bad.yaml: apiVersion: Unsupported value: \"kubescheduler.config.k8s.io/v1alpha1\": supported values: "
        "\"kubescheduler.config.k8s.io/v1\"; v1 spells v1alpha1's configuration differently: schedulerName, "
        "plugins and pluginConfig go under profiles[] (profiles[].schedulerName, profiles[].plugins, "
        "profiles[].pluginConfig), and leaderElection.lockObjectName and lockObjectNamespace are "
        "leaderElection.resourceName and resourceNamespace");
  // Fields of no version are still unknown fields under v1.
  CHECK(ParseError("apiVersion: kubescheduler.config.k8s.io/v1\nschedulerName: x\n") ==
        "bad.yaml: schedulerName: unknown field");
}

TEST_CASE("ParseConfiguration: apiVersion and kind", "[config][errors]") {
  CHECK(MustParse("apiVersion: kubescheduler.config.k8s.io/v1\n").parallelism == 16);
  CHECK(MustParse("kind: KubeSchedulerConfiguration\n").parallelism == 16);
  CHECK(ParseError("apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n") ==
        "bad.yaml: apiVersion: Unsupported value: \"kubescheduler.config.k8s.io/v1beta3\": supported values: "
        "\"kubescheduler.config.k8s.io/v1\"; v1 reads v1beta3's fields the same: set apiVersion to "
        "kubescheduler.config.k8s.io/v1 (a field v1 removed is then named)");
  CHECK(ParseError("apiVersion: v1\n") ==
        "bad.yaml: apiVersion: Unsupported value: \"v1\": supported values: "
        "\"kubescheduler.config.k8s.io/v1\"");
  CHECK(ParseError("kind: Pod\n") ==
        "bad.yaml: kind: Unsupported value: \"Pod\": supported values: \"KubeSchedulerConfiguration\"");
  CHECK(ParseError("apiVersion: 1\n") == "bad.yaml: apiVersion: expected a string, got an integer");
}

TEST_CASE("ParseConfiguration: in-tree plugin args must carry their own apiVersion and kind",
          "[config][errors]") {
  CHECK(ParseError("profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      apiVersion: "
                   "kubescheduler.config.k8s.io/v1beta3\n") ==
        "bad.yaml: profiles[0].pluginConfig[0].args.apiVersion: Invalid value: "
        "\"kubescheduler.config.k8s.io/v1beta3\": args for plugin NodeResourcesFit must be version "
        "kubescheduler.config.k8s.io/v1");
  // Out-of-tree args are passed through untouched.
  const config::SchedulerConfiguration c =
      MustParse("profiles:\n- pluginConfig:\n  - name: Mine\n    args: {kind: Anything, apiVersion: x/v9}\n");
  CHECK(c.profiles[0].plugin_args.at("Mine") == R"({"apiVersion":"x/v9","kind":"Anything"})");
}

TEST_CASE("ParseConfiguration: extenders are not supported", "[config][errors]") {
  CHECK(MustParse("extenders: []\n").profiles.size() == 1);
  CHECK(MustParse("extenders:\n").profiles.size() == 1);
  CHECK(ParseError("extenders:\n- urlPrefix: http://127.0.0.1:8888/\n  filterVerb: filter\n") ==
        "bad.yaml: extenders: extenders are not supported");
  CHECK(ParseError(R"({"extenders": [{"urlPrefix": "http://x/"}]})", "bad.json") ==
        "bad.json: extenders: extenders are not supported");
  CHECK(ParseError("extenders: {}\n") == "bad.yaml: extenders: expected a list, got an object");
}

TEST_CASE("ParseConfiguration: one document, no repeated keys", "[config][errors]") {
  CHECK(ParseError("parallelism: 4\n---\nparallelism: 5\n") ==
        "bad.yaml: expected one KubeSchedulerConfiguration document, found 2");
  CHECK_THAT(ParseError("parallelism: 4\nparallelism: 5\n"), StartsWith("bad.yaml: line 2: duplicate field"));
  CHECK_THAT(ParseError("parallelism: 4\nparallelism: 5\n"), Contains("\"parallelism\""));
}

TEST_CASE("ParseConfiguration: validation errors carry the source", "[config][errors]") {
  CHECK(ParseError("parallelism: 0\npodInitialBackoffSeconds: 0\n", "s.yaml") ==
        "s.yaml: parallelism: Invalid value: 0: should be an integer value greater than zero; "
        "podInitialBackoffSeconds: Invalid value: 0: must be greater than 0");
  CHECK(
      ParseError(
          "profiles:\n- plugins:\n    score:\n      enabled: [{name: A}, {name: B}, {name: C, weight: -1}]\n",
          "w.yaml") ==
      "w.yaml: profiles[0].plugins.score.enabled[2].weight: Invalid value: -1: must not be "
      "negative");
  CHECK(
      ParseError("profiles:\n- plugins:\n    filter:\n      enabled: [{name: EBSLimits}]\n") ==
      "bad.yaml: profiles[0].plugins.filter.enabled[0]: Invalid value: \"EBSLimits\": was invalid in version "
      "\"kubescheduler.config.k8s.io/v1\" (KubeSchedulerConfiguration is version "
      "\"kubescheduler.config.k8s.io/v1\")");
  CHECK(ParseError(R"(
profiles:
  - schedulerName: a
    plugins: {queueSort: {enabled: [{name: PrioritySort}], disabled: [{name: "*"}]}}
  - schedulerName: b
)") == "bad.yaml: profiles[1].plugins.queueSort: Invalid value: {enabled: [], disabled: []}: must be the "
       "same for all "
       "profiles");
}

TEST_CASE("LoadConfiguration: a missing file", "[config][errors]") {
  absl::StatusOr<config::SchedulerConfiguration> loaded =
      config::LoadConfiguration(TestData("no-such-file.yaml"));
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.status().code() == absl::StatusCode::kNotFound);
  CHECK(loaded.status().message() == TestData("no-such-file.yaml") + ": cannot open file");
}

TEST_CASE("ParseConfiguration: mutated documents give a result or an error, never a crash",
          "[config][errors]") {
  std::mt19937 rng(20250601);
  const std::string alphabet = "{}[]:,-\"' \n#&*!|>~0123456789abcxyz";
  for (const char* name : {"custom.yaml", "custom.json"}) {
    std::ifstream in(TestData(name), std::ios::binary);
    REQUIRE(in.good());
    const std::string original((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (int round = 0; round < 300; ++round) {
      std::string text = original;
      const int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits && !text.empty(); ++e) {
        const size_t at = rng() % text.size();
        switch (rng() % 3) {
          case 0:
            text[at] = alphabet[rng() % alphabet.size()];
            break;
          case 1:
            text.erase(at, 1 + rng() % 8);
            break;
          default:
            text.insert(at, 1, alphabet[rng() % alphabet.size()]);
            break;
        }
      }
      absl::StatusOr<config::SchedulerConfiguration> parsed = config::ParseConfiguration(text, name);
      if (!parsed.ok()) {
        CHECK_THAT(std::string(parsed.status().message()), StartsWith(std::string(name) + ": "));
      }
    }
  }
}

}  // namespace

TEST_CASE("ParseConfiguration: plugins at workload-aware scheduling's points are refused", "[config][parse]") {
  absl::StatusOr<config::SchedulerConfiguration> c = config::ParseConfiguration(R"(
profiles:
- plugins:
    placementGenerate:
      enabled: [{name: TopologyPlacement}]
)", "sched.yaml");
  REQUIRE_FALSE(c.ok());
  CHECK(c.status().message() ==
        "sched.yaml: profiles[0].plugins.placementGenerate.enabled: schedkit does not model workload-aware "
        "scheduling (the GenericWorkload gate's extension points) yet; leave it empty");
  // Empty, and disabling, is upstream's default and is accepted.
  CHECK(config::ParseConfiguration("profiles: [{plugins: {podGroupPostFilter: {disabled: [{name: '*'}]}}}]").ok());
}
