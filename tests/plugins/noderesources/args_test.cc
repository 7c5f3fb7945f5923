// NodeResourcesFitArgs: decoding with v1 defaults, and upstream v1.35.8
// validation_pluginargs_test.go's Fit cases (TestValidateFitArgs,
// TestValidate{Least,Most}AllocatedScoringStrategy,
// TestValidateRequestedToCapacityRatioScoringStrategy), ported as facts on
// the internal args (no v1 defaulting), as upstream runs them.
#include "plugins/noderesources/args.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "plugins/noderesources/fit.h"
#include "plugins/noderesources/test_util.h"
#include "schedkit/testing/fake_handle.h"

namespace schedkit::plugins::noderesources {
namespace {

using namespace testutil;  // NOLINT: the upstream helpers, by their upstream names

std::string Message(const absl::Status& s) { return std::string(s.message()); }

TEST_CASE("TestValidateFitArgs", "[noderesources][args]") {
  const std::optional<ScoringStrategy> default_strategy =
      ScoringStrategy{std::string(kLeastAllocated), DefaultResourceSet(), std::nullopt};
  struct Case {
    std::string name;
    NodeResourcesFitArgs args;
    std::string expect;  // substring of the error; empty: valid
  };
  std::vector<Case> cases = {
      {"IgnoredResources: too long value",
       {{"longvalue" + std::string(64, 'a')}, {}, default_strategy},
       "name part must be no more than 63 bytes"},
      {"IgnoredResources: name is empty",
       {{"example.com/"}, {}, default_strategy},
       "name part must be non-empty"},
      {"IgnoredResources: name has too many slash",
       {{"example.com/aaa/bbb"}, {}, default_strategy},
       "a valid label key must consist of"},
      {"IgnoredResources: valid args", {{"example.com"}, {}, default_strategy}, ""},
      {"IgnoredResourceGroups: valid args ", {{}, {"example.com"}, default_strategy}, ""},
      {"IgnoredResourceGroups: illegal args",
       {{}, {"example.com/"}, default_strategy},
       "name part must be non-empty"},
      {"IgnoredResourceGroups: name is too long",
       {{}, {std::string(64, 'a')}, default_strategy},
       "name part must be no more than 63 bytes"},
      {"IgnoredResourceGroups: name cannot be contain slash",
       {{}, {"example.com/aa"}, default_strategy},
       "resource group name can't contain '/'"},
      // Upstream's validation accepts a nil strategy; NewFit then refuses it.
      {"ScoringStrategy: field is required", {}, ""},
      {"ScoringStrategy: type is unsupported",
       {{}, {}, ScoringStrategy{"Invalid", {}, std::nullopt}},
       "Unsupported value: \"Invalid\""},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestValidateFitArgs/" << tc.name) {
      absl::Status s = ValidateNodeResourcesFitArgs(tc.args);
      if (tc.expect.empty()) {
        CHECK(s.ok());
      } else {
        CHECK_THAT(Message(s), Catch::Contains(tc.expect));
      }
    }
  }
  SECTION("NewFit refuses a missing strategy (upstream: \"scoring strategy not specified\")") {
    testing::FakeHandle h;
    auto p = NewFit(NodeResourcesFitArgs{}, h);
    REQUIRE(!p.ok());
    CHECK_THAT(Message(p.status()), Catch::Contains("scoring strategy not specified"));
  }
}

struct FieldCase {
  std::string name;
  std::vector<ResourceSpec> resources;
  std::vector<std::string> want_fields;  // "<field>: <error type>", in order; empty: valid
};

void RunWeightCases(const std::string& test, std::string_view type) {
  std::vector<FieldCase> cases = {
      {"default config", {}, {}},
      {"multi valid resources", {{"cpu", 1}, {"memory", 10}}, {}},
      {"weight less than min", {{"cpu", 0}}, {"scoringStrategy.resources[0].weight: Invalid value"}},
      {"weight greater than max", {{"cpu", 101}}, {"scoringStrategy.resources[0].weight: Invalid value"}},
      {"multi invalid resources",
       {{"cpu", 0}, {"memory", 101}},
       {"scoringStrategy.resources[0].weight: Invalid value",
        "scoringStrategy.resources[1].weight: Invalid value"}},
  };
  for (const FieldCase& tc : cases) {
    DYNAMIC_SECTION(test << "/" << tc.name) {
      absl::Status s = ValidateNodeResourcesFitArgs(FitArgs(std::string(type), tc.resources));
      CHECK(s.ok() == tc.want_fields.empty());
      size_t pos = 0;
      for (const std::string& f : tc.want_fields) {
        pos = Message(s).find(f, pos);
        CHECK(pos != std::string::npos);
      }
    }
  }
}

TEST_CASE("TestValidateLeastAllocatedScoringStrategy", "[noderesources][args]") {
  RunWeightCases("TestValidateLeastAllocatedScoringStrategy", kLeastAllocated);
}

TEST_CASE("TestValidateMostAllocatedScoringStrategy", "[noderesources][args]") {
  RunWeightCases("TestValidateMostAllocatedScoringStrategy", kMostAllocated);
}

TEST_CASE("TestValidateRequestedToCapacityRatioScoringStrategy", "[noderesources][args]") {
  const std::vector<UtilizationShapePoint> default_shape = {{30, 3}};
  struct Case {
    std::string name;
    std::vector<ResourceSpec> resources;
    std::vector<UtilizationShapePoint> shape;
    std::vector<std::string> want_fields;
  };
  std::vector<Case> cases = {
      {"no shapes", {}, {}, {"scoringStrategy.shape: Required value"}},
      {"weight greater than max",
       {{"cpu", 101}},
       default_shape,
       {"scoringStrategy.resources[0].weight: Invalid value"}},
      {"weight less than min",
       {{"cpu", 0}},
       default_shape,
       {"scoringStrategy.resources[0].weight: Invalid value"}},
      {"valid shapes", {}, default_shape, {}},
      {"utilization less than min", {}, {{-1, 3}}, {"scoringStrategy.shape[0].utilization: Invalid value"}},
      {"utilization greater than max",
       {},
       {{101, 3}},
       {"scoringStrategy.shape[0].utilization: Invalid value"}},
      {"duplicated utilization values",
       {},
       {{10, 3}, {10, 3}},
       {"scoringStrategy.shape[1].utilization: Invalid value"}},
      {"increasing utilization values", {}, {{10, 3}, {20, 3}, {30, 3}}, {}},
      {"non-increasing utilization values",
       {},
       {{10, 3}, {20, 3}, {15, 3}},
       {"scoringStrategy.shape[2].utilization: Invalid value"}},
      {"score less than min", {}, {{10, -1}}, {"scoringStrategy.shape[0].score: Invalid value"}},
      {"score greater than max", {}, {{10, 11}}, {"scoringStrategy.shape[0].score: Invalid value"}},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestValidateRequestedToCapacityRatioScoringStrategy/" << tc.name) {
      absl::Status s = ValidateNodeResourcesFitArgs(
          FitArgs(std::string(kRequestedToCapacityRatio), tc.resources, tc.shape));
      CHECK(s.ok() == tc.want_fields.empty());
      for (const std::string& f : tc.want_fields) CHECK_THAT(Message(s), Catch::Contains(f));
    }
  }
}

TEST_CASE("NodeResourcesFit args: v1 defaults", "[noderesources][args]") {
  SECTION("empty args: LeastAllocated over cpu and memory, weight 1") {
    for (const char* json : {"", "{}", "null"}) {
      auto a = ParseNodeResourcesFitArgs(framework::PluginArgs(json));
      REQUIRE(a.ok());
      REQUIRE(a->scoring_strategy.has_value());
      CHECK(a->scoring_strategy->type == "LeastAllocated");
      REQUIRE(a->scoring_strategy->resources.size() == 2);
      CHECK(a->scoring_strategy->resources[0].name == "cpu");
      CHECK(a->scoring_strategy->resources[0].weight == 1);
      CHECK(a->scoring_strategy->resources[1].name == "memory");
      CHECK(a->scoring_strategy->resources[1].weight == 1);
      CHECK(!a->scoring_strategy->requested_to_capacity_ratio.has_value());
    }
  }
  SECTION("a strategy without resources gets cpu and memory; weight 0 becomes 1") {
    auto a =
        ParseNodeResourcesFitArgs(framework::PluginArgs(R"({"scoringStrategy": {"type": "MostAllocated"}})"));
    REQUIRE(a.ok());
    CHECK(a->scoring_strategy->type == "MostAllocated");
    CHECK(a->scoring_strategy->resources.size() == 2);
    auto b = ParseNodeResourcesFitArgs(framework::PluginArgs(
        R"({"scoringStrategy": {"type": "MostAllocated", "resources": [{"name": "example.com/gpu"}, {"name": "cpu", "weight": 0}, {"name": "memory", "weight": 7}]}})"));
    REQUIRE(b.ok());
    REQUIRE(b->scoring_strategy->resources.size() == 3);
    CHECK(b->scoring_strategy->resources[0].weight == 1);
    CHECK(b->scoring_strategy->resources[1].weight == 1);
    CHECK(b->scoring_strategy->resources[2].weight == 7);
  }
  SECTION("everything set") {
    auto a = ParseNodeResourcesFitArgs(framework::PluginArgs(R"({
        "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "NodeResourcesFitArgs",
        "ignoredResources": ["example.com/a"], "ignoredResourceGroups": ["example.org"],
        "scoringStrategy": {"type": "RequestedToCapacityRatio", "resources": [{"name": "cpu", "weight": 3}],
                            "requestedToCapacityRatio": {"shape": [{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}]}}})"));
    REQUIRE(a.ok());
    CHECK(a->ignored_resources == std::vector<std::string>{"example.com/a"});
    CHECK(a->ignored_resource_groups == std::vector<std::string>{"example.org"});
    REQUIRE(a->scoring_strategy->requested_to_capacity_ratio.has_value());
    REQUIRE(a->scoring_strategy->requested_to_capacity_ratio->shape.size() == 2);
    CHECK(a->scoring_strategy->requested_to_capacity_ratio->shape[1].utilization == 100);
    CHECK(a->scoring_strategy->requested_to_capacity_ratio->shape[1].score == 10);
    CHECK(ValidateNodeResourcesFitArgs(*a).ok());
  }
}

TEST_CASE("NodeResourcesFit args: bad args name the field", "[noderesources][args]") {
  testing::FakeHandle h;
  struct Bad {
    std::string json;
    std::string want;  // prefix of the message
  };
  std::vector<Bad> bad = {
      {R"({"ignoredResource": []})", "NodeResourcesFit args: ignoredResource: unknown field"},
      {R"({"scoringStrategy": {"typ": "LeastAllocated"}})",
       "NodeResourcesFit args: scoringStrategy.typ: unknown field"},
      {R"({"scoringStrategy": {"resources": [{"name": "cpu", "weigth": 1}]}})",
       "NodeResourcesFit args: scoringStrategy.resources[0].weigth: unknown field"},
      {R"({"scoringStrategy": {"type": "RequestedToCapacityRatio", "requestedToCapacityRatio": {"shape": [{"utilisation": 1}]}}})",
       "NodeResourcesFit args: scoringStrategy.requestedToCapacityRatio.shape[0].utilisation: unknown field"},
      {R"({"ignoredResources": "example.com/a"})",
       "NodeResourcesFit args: ignoredResources: expected an array"},
      {R"({"ignoredResources": [1]})", "NodeResourcesFit args: ignoredResources[0]: expected a string"},
      {R"({"scoringStrategy": "LeastAllocated"})",
       "NodeResourcesFit args: scoringStrategy: expected an object"},
      {R"({"scoringStrategy": {"type": 1}})",
       "NodeResourcesFit args: scoringStrategy.type: expected a string"},
      {R"({"scoringStrategy": {"resources": [{"name": "cpu", "weight": 1.5}]}})",
       "NodeResourcesFit args: scoringStrategy.resources[0].weight: expected an integer"},
      {R"({"scoringStrategy": {"type": "RequestedToCapacityRatio", "requestedToCapacityRatio": {"shape": [{"utilization": 4294967296, "score": 1}]}}})",
       "NodeResourcesFit args: scoringStrategy.requestedToCapacityRatio.shape[0].utilization: Invalid value: "
       "4294967296: not a 32-bit integer"},
      {R"({"scoringStrategy": {}})",
       "NodeResourcesFit args: scoringStrategy.type: Unsupported value: \"\": supported values: "
       "\"LeastAllocated\", "
       "\"MostAllocated\", \"RequestedToCapacityRatio\""},
      {R"({"scoringStrategy": {"type": "LeastAllocated", "resources": [{"name": "cpu", "weight": 101}]}})",
       "NodeResourcesFit args: scoringStrategy.resources[0].weight: Invalid value: 101: resource weight of "
       "cpu not in "
       "valid range (0, 100]"},
      {R"({"scoringStrategy": {"type": "LeastAllocated", "resources": [{"name": "cpu", "weight": -1}, {"name": "memory", "weight": 200}]}})",
       "NodeResourcesFit args: [scoringStrategy.resources[0].weight: Invalid value: -1: resource weight of "
       "cpu not in "
       "valid range (0, 100], scoringStrategy.resources[1].weight: Invalid value: 200: resource weight of "
       "memory not "
       "in valid range (0, 100]]"},
      {R"({"scoringStrategy": {"type": "RequestedToCapacityRatio", "requestedToCapacityRatio": {"shape": [{"utilization": 50, "score": 11}]}}})",
       "NodeResourcesFit args: scoringStrategy.shape[0].score: Invalid value: 11: not in valid range [0, "
       "10]"},
      {R"({"scoringStrategy": {"type": "RequestedToCapacityRatio", "requestedToCapacityRatio": {}}})",
       "NodeResourcesFit args: scoringStrategy.shape: Required value: at least one point must be specified"},
      // Upstream panics on this (nil RequestedToCapacityRatio); schedkit refuses it.
      {R"({"scoringStrategy": {"type": "RequestedToCapacityRatio"}})",
       "NodeResourcesFit args: scoringStrategy.requestedToCapacityRatio: Required value"},
      {R"({"ignoredResourceGroups": ["example.com/aa"]})",
       "NodeResourcesFit args: ignoredResourceGroups[0]: Invalid value: \"example.com/aa\": resource group "
       "name can't "
       "contain '/'"},
      {"{", "NodeResourcesFit args: malformed JSON"},
  };
  for (const Bad& b : bad) {
    DYNAMIC_SECTION("bad args " << b.json) {
      auto p = NewNodeResourcesFit(framework::PluginArgs(b.json), h);
      REQUIRE(!p.ok());
      CHECK(p.status().code() == absl::StatusCode::kInvalidArgument);
      CHECK_THAT(Message(p.status()), Catch::StartsWith(b.want));
    }
  }
  SECTION("the default plugin has the upstream name") {
    auto p = NewNodeResourcesFit(framework::PluginArgs(), h);
    REQUIRE(p.ok());
    CHECK((*p)->Name() == "NodeResourcesFit");
  }
}

}  // namespace
}  // namespace schedkit::plugins::noderesources
