// Tests for ValidateConfiguration. The first test case ports the scenarios of
// kube-scheduler v1.35.8 apis/config/validation/validation_test.go
// (TestValidateKubeSchedulerConfigurationV1) that apply to schedkit, each
// SECTION named after its upstream scenario and comparing the same
// "<field>: <error type>" list. Not ported: the leaderElection scenarios
// (schedkit ignores leaderElection), the extender scenarios (extenders are
// rejected when parsing, see configuration_test.cc) and the plugin-args
// scenarios (args are validated by each plugin).
#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_split.h"
#include "schedkit/config/configuration.h"

namespace {

namespace config = schedkit::config;
using schedkit::framework::PluginRef;
using schedkit::framework::PluginSet;
using schedkit::framework::Profile;

// "<field>: <error type>" of every error in a ValidateConfiguration status,
// e.g. "profiles[1].schedulerName: Required value".
std::vector<std::string> FieldErrors(const absl::Status& status) {
  std::vector<std::string> out;
  if (status.ok()) return out;
  for (absl::string_view error : absl::StrSplit(status.message(), "; ")) {
    const size_t field_end = error.find(": ");
    const size_t type_end = error.find(':', field_end + 2);
    out.emplace_back(error.substr(0, type_end));
  }
  return out;
}

std::vector<std::string> FieldErrors(const config::SchedulerConfiguration& c) {
  return FieldErrors(config::ValidateConfiguration(c));
}

// validConfig of TestValidateKubeSchedulerConfigurationV1.
config::SchedulerConfiguration ValidConfig() {
  config::SchedulerConfiguration c;
  c.parallelism = 8;
  c.pod_initial_backoff_seconds = 1;
  c.pod_max_backoff_seconds = 1;
  Profile me;
  me.scheduler_name = "me";
  me.percentage_of_nodes_to_score = 35;
  me.plugins.queue_sort.enabled = {{"CustomSort", 0}};
  me.plugins.score.disabled = {"*"};
  me.plugin_args["DefaultPreemption"] =
      R"({"minCandidateNodesAbsolute":100,"minCandidateNodesPercentage":10})";
  Profile other;
  other.scheduler_name = "other";
  other.percentage_of_nodes_to_score = 35;
  other.plugins.queue_sort.enabled = {{"CustomSort", 0}};
  other.plugins.bind.enabled = {{"CustomBind", 0}};
  c.profiles = {me, other};
  return c;
}

using Errors = std::vector<std::string>;

TEST_CASE("ValidateConfiguration: upstream TestValidateKubeSchedulerConfigurationV1",
          "[config][validation]") {
  SECTION("good") { CHECK(FieldErrors(ValidConfig()).empty()); }
  SECTION("bad-parallelism-invalid-value") {
    config::SchedulerConfiguration c = ValidConfig();
    c.parallelism = 0;
    CHECK(FieldErrors(c) == Errors{"parallelism: Invalid value"});
  }
  SECTION("bad-percentage-of-nodes-to-score") {
    config::SchedulerConfiguration c = ValidConfig();
    c.percentage_of_nodes_to_score = 101;
    CHECK(FieldErrors(c) == Errors{"percentageOfNodesToScore: Invalid value"});
  }
  SECTION("negative-percentage-of-nodes-to-score") {
    config::SchedulerConfiguration c = ValidConfig();
    c.percentage_of_nodes_to_score = -1;
    CHECK(FieldErrors(c) == Errors{"percentageOfNodesToScore: Invalid value"});
  }
  SECTION("scheduler-name-not-set") {
    config::SchedulerConfiguration c = ValidConfig();
    c.profiles[1].scheduler_name = "";
    CHECK(FieldErrors(c) == Errors{"profiles[1].schedulerName: Required value"});
  }
  SECTION("repeated-scheduler-name") {
    config::SchedulerConfiguration c = ValidConfig();
    c.profiles[0].scheduler_name = "other";
    CHECK(FieldErrors(c) == Errors{"profiles[1].schedulerName: Duplicate value"});
  }
  SECTION("greater-than-100-profile-percentage-of-nodes-to-score") {
    config::SchedulerConfiguration c = ValidConfig();
    c.profiles[1].percentage_of_nodes_to_score = 101;
    CHECK(FieldErrors(c) == Errors{"profiles[1].percentageOfNodesToScore: Invalid value"});
  }
  SECTION("negative-profile-percentage-of-nodes-to-score") {
    config::SchedulerConfiguration c = ValidConfig();
    c.profiles[1].percentage_of_nodes_to_score = -1;
    CHECK(FieldErrors(c) == Errors{"profiles[1].percentageOfNodesToScore: Invalid value"});
  }
  SECTION("different-queue-sort") {
    config::SchedulerConfiguration c = ValidConfig();
    c.profiles[1].plugins.queue_sort.enabled[0].name = "AnotherSort";
    CHECK(FieldErrors(c) == Errors{"profiles[1].plugins.queueSort: Invalid value"});
  }
  SECTION("one-empty-queue-sort") {
    config::SchedulerConfiguration c = ValidConfig();
    c.profiles[0].plugins = {};
    CHECK(FieldErrors(c) == Errors{"profiles[1].plugins.queueSort: Invalid value"});
  }
  SECTION("mismatch-queue-sort") {
    config::SchedulerConfiguration c = ValidConfig();
    Profile me;
    me.scheduler_name = "me";
    me.plugins.queue_sort.enabled = {{"PrioritySort", 0}};
    me.plugin_args["PrioritySort"] = "{}";
    Profile other;
    other.scheduler_name = "other";
    other.plugins.queue_sort.enabled = {{"CustomSort", 0}};
    other.plugin_args["CustomSort"] = "{}";
    c.profiles = {me, other};
    CHECK(FieldErrors(c) == Errors{"profiles[1].plugins.queueSort: Invalid value"});
  }
  SECTION("invalid-plugins") {
    config::SchedulerConfiguration c = ValidConfig();
    for (const char* removed : {"AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits"}) {
      c.profiles[0].plugins.score.enabled.push_back({removed, 0});
    }
    CHECK(FieldErrors(c) == Errors{"profiles[0].plugins.score.enabled[0]: Invalid value",
                                   "profiles[0].plugins.score.enabled[1]: Invalid value",
                                   "profiles[0].plugins.score.enabled[2]: Invalid value",
                                   "profiles[0].plugins.score.enabled[3]: Invalid value"});
    const std::string message(config::ValidateConfiguration(c).message());
    CHECK_THAT(message,
               Catch::StartsWith(
                   "profiles[0].plugins.score.enabled[0]: Invalid value: \"AzureDiskLimits\": was invalid in "
                   "version \"kubescheduler.config.k8s.io/v1\" (KubeSchedulerConfiguration is version "
                   "\"kubescheduler.config.k8s.io/v1\")"));
  }
  SECTION("valid-plugins") {
    config::SchedulerConfiguration c = ValidConfig();
    c.profiles[0].plugins.score.enabled.push_back({"PodTopologySpread", 2});
    CHECK(FieldErrors(c).empty());
  }
}

TEST_CASE("ValidateConfiguration: messages in upstream's field-error form", "[config][validation]") {
  config::SchedulerConfiguration c = ValidConfig();
  c.parallelism = 0;
  CHECK(config::ValidateConfiguration(c).message() ==
        "parallelism: Invalid value: 0: should be an integer value greater than zero");
  c = ValidConfig();
  c.profiles[1].percentage_of_nodes_to_score = 101;
  CHECK(config::ValidateConfiguration(c).message() ==
        "profiles[1].percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]");
  c = ValidConfig();
  c.profiles[0].scheduler_name = "other";
  CHECK(config::ValidateConfiguration(c).message() ==
        "profiles[1].schedulerName: Duplicate value: \"other\"");
  c = ValidConfig();
  c.profiles[1].plugins.queue_sort.enabled[0].name = "AnotherSort";
  CHECK(config::ValidateConfiguration(c).message() ==
        "profiles[1].plugins.queueSort: Invalid value: {enabled: [AnotherSort], disabled: []}: must be the "
        "same "
        "for all profiles");
  CHECK(config::ValidateConfiguration(c).code() == absl::StatusCode::kInvalidArgument);
}

TEST_CASE("ValidateConfiguration: backoffs", "[config][validation]") {
  config::SchedulerConfiguration c = ValidConfig();
  SECTION("initial must be positive") {
    c.pod_initial_backoff_seconds = 0;
    CHECK(FieldErrors(c) == Errors{"podInitialBackoffSeconds: Invalid value"});
  }
  SECTION("max below initial") {
    c.pod_initial_backoff_seconds = 5;
    c.pod_max_backoff_seconds = 4;
    CHECK(
        config::ValidateConfiguration(c).message() ==
        "podMaxBackoffSeconds: Invalid value: 4: must be greater than or equal to PodInitialBackoffSeconds");
  }
  SECTION("max equal to initial is fine") {
    c.pod_initial_backoff_seconds = 5;
    c.pod_max_backoff_seconds = 5;
    CHECK(config::ValidateConfiguration(c).ok());
  }
}

TEST_CASE("ValidateConfiguration: profiles are required", "[config][validation]") {
  config::SchedulerConfiguration c = ValidConfig();
  c.profiles.clear();
  CHECK(config::ValidateConfiguration(c).message() == "profiles: Required value");
}

TEST_CASE("ValidateConfiguration: score weights", "[config][validation]") {
  config::SchedulerConfiguration c = config::DefaultConfiguration();
  SECTION("a negative score weight names its entry") {
    c.profiles[0].plugins.score.enabled = {{"A", 1}, {"B", 1}, {"C", -1}};
    CHECK(config::ValidateConfiguration(c).message() ==
          "profiles[0].plugins.score.enabled[2].weight: Invalid value: -1: must not be negative");
  }
  SECTION("a negative multiPoint weight names its entry") {
    c.profiles[0].plugins.multi_point.enabled[4].weight = -3;
    CHECK(FieldErrors(c) == Errors{"profiles[0].plugins.multiPoint.enabled[4].weight: Invalid value"});
  }
  SECTION("zero (unset) and large weights are fine") {
    c.profiles[0].plugins.score.enabled = {{"A", 0}, {"B", 2147483647}};
    c.profiles[0].plugins.multi_point.enabled[4].weight = 2147483647;
    CHECK(config::ValidateConfiguration(c).ok());
  }
}

TEST_CASE("ValidateConfiguration: queueSort", "[config][validation]") {
  config::SchedulerConfiguration c = ValidConfig();
  SECTION("only one queueSort plugin in the first profile") {
    c.profiles[0].plugins.queue_sort.enabled.push_back({"OtherSort", 0});
    c.profiles[1].plugins.queue_sort = c.profiles[0].plugins.queue_sort;
    CHECK(
        config::ValidateConfiguration(c).message() ==
        "profiles[0].plugins.queueSort.enabled: Invalid value: 2: only one queue sort plugin can be enabled");
  }
  SECTION("the queueSort plugin's args must match") {
    c.profiles[0].plugin_args["CustomSort"] = R"({"a":1})";
    c.profiles[1].plugin_args["CustomSort"] = R"({"a":2})";
    CHECK(config::ValidateConfiguration(c).message() ==
          "profiles[1].pluginConfig.args: Invalid value: {\"a\":2}: queueSort must be the same for all "
          "profiles");
  }
  SECTION("args only in a later profile differ from none") {
    c.profiles[1].plugin_args["CustomSort"] = "{}";
    CHECK(FieldErrors(c) == Errors{"profiles[1].pluginConfig.args: Invalid value"});
  }
  SECTION("the same args are fine") {
    c.profiles[0].plugin_args["CustomSort"] = R"({"a":1})";
    c.profiles[1].plugin_args["CustomSort"] = R"({"a":1})";
    CHECK(config::ValidateConfiguration(c).ok());
  }
  SECTION("a differing disabled list counts") {
    c.profiles[1].plugins.queue_sort.disabled = {"*"};
    CHECK(FieldErrors(c) == Errors{"profiles[1].plugins.queueSort: Invalid value"});
  }
}

TEST_CASE("ValidateConfiguration: removed plugins in pluginConfig", "[config][validation]") {
  config::SchedulerConfiguration c = ValidConfig();
  c.profiles[1].plugin_args["EBSLimits"] = "{}";
  CHECK(FieldErrors(c) == Errors{"profiles[1].pluginConfig: Invalid value"});
}

TEST_CASE("ValidateConfiguration: removed plugins under multiPoint are not checked, as upstream",
          "[config][validation]") {
  config::SchedulerConfiguration c = ValidConfig();
  c.profiles[0].plugins.multi_point.enabled.push_back({"EBSLimits", 0});
  CHECK(config::ValidateConfiguration(c).ok());
}

TEST_CASE("ValidateConfiguration: every error is reported", "[config][validation]") {
  config::SchedulerConfiguration c = ValidConfig();
  c.parallelism = -1;
  c.profiles[1].scheduler_name = "";
  c.percentage_of_nodes_to_score = 200;
  c.pod_initial_backoff_seconds = 0;
  c.pod_max_backoff_seconds = -1;
  CHECK(FieldErrors(c) == Errors{"parallelism: Invalid value", "profiles[1].schedulerName: Required value",
                                 "percentageOfNodesToScore: Invalid value",
                                 "podInitialBackoffSeconds: Invalid value",
                                 "podMaxBackoffSeconds: Invalid value"});
}

}  // namespace
