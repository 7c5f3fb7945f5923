// framework::FeatureGates: kube-scheduler's --feature-gates, its table and its
// rules. The messages are what kube-scheduler v1.35.8 prints for the same
// flags (run by hand against tests/kube/.bin/kube-scheduler; the rules are
// component-base featuregate's, TestFeatureGateFlag and
// TestFeatureGateSetFromMap in feature_gate_test.go).
#include "schedkit/framework/feature_gates.h"

#include <catch2/catch.hpp>

#include <string>

namespace schedkit::framework {
namespace {

using Catch::Matchers::Contains;

std::string SetError(std::string_view flag) {
  FeatureGates g;
  const absl::Status s = g.Set(flag);
  INFO(flag);
  REQUIRE_FALSE(s.ok());
  CHECK(s.code() == absl::StatusCode::kInvalidArgument);
  // Nothing changes on an error.
  CHECK(g.Changed().empty());
  return std::string(s.message());
}

TEST_CASE("FeatureGates knows kube-scheduler's gates at their defaults", "[config][gates]") {
  const FeatureGates g;
  CHECK(g.Enabled("SchedulerQueueingHints"));
  CHECK(g.Enabled("OpportunisticBatching"));
  CHECK_FALSE(g.Enabled("GenericWorkload"));
  CHECK_FALSE(g.Enabled("NoSuchGate"));
  CHECK(g.Changed().empty());
  const FeatureGateSpec* hints = FindFeatureGate("SchedulerQueueingHints");
  REQUIRE(hints != nullptr);
  CHECK(hints->locked);
  CHECK(hints->stage == GateStage::kGA);
  CHECK(hints->scheduler);
  // An API server gate kube-scheduler accepts but never reads.
  const FeatureGateSpec* compression = FindFeatureGate("APIResponseCompression");
  REQUIRE(compression != nullptr);
  CHECK_FALSE(compression->scheduler);
  CHECK(KnownFeatureGates().size() > 200);
}

TEST_CASE("FeatureGates::Set reads the flag and refuses as kube-scheduler", "[config][gates]") {
  CHECK(SetError("Foo=true") == "unrecognized feature gate: Foo");
  CHECK(SetError("SchedulerQueueingHints=false") ==
        "cannot set feature gate SchedulerQueueingHints to false, feature is locked to true");
  CHECK(SetError("DRAAdminAccess=maybe") ==
        "invalid value of DRAAdminAccess=maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax");
  CHECK(SetError("DRAAdminAccess") == "missing bool value for DRAAdminAccess");
  CHECK(SetError("DRADeviceTaintRules=true") ==
        "DRADeviceTaintRules is enabled, but depends on features that are disabled: [DRADeviceTaints]");
  CHECK(SetError("DRADeviceTaintRules=true,DRAConsumableCapacity=true,DynamicResourceAllocation=true") ==
        "DRADeviceTaintRules is enabled, but depends on features that are disabled: [DRADeviceTaints]");
  // Several errors aggregate (upstream's order is its map's; ours is by name).
  const std::string two = SetError("SchedulerQueueingHints=false,DynamicResourceAllocation=false");
  CHECK(two == "[cannot set feature gate DynamicResourceAllocation to false, feature is locked to true, cannot set "
               "feature gate SchedulerQueueingHints to false, feature is locked to true]");
}

TEST_CASE("FeatureGates::Set takes spaces, Go's booleans, later values and All gates", "[config][gates]") {
  FeatureGates g;
  REQUIRE(g.Set(" GenericWorkload = true ,GangScheduling=T").ok());
  CHECK(g.Enabled("GenericWorkload"));
  CHECK(g.Enabled("GangScheduling"));
  // A later flag adds to the earlier ones; its value for a gate wins.
  REQUIRE(g.Set("GangScheduling=0,DRAAdminAccess=False").ok());
  CHECK(g.Enabled("GenericWorkload"));
  CHECK_FALSE(g.Enabled("GangScheduling"));
  CHECK_FALSE(g.Enabled("DRAAdminAccess"));
  CHECK(g.Changed() == std::vector<std::string>{"DRAAdminAccess=false", "GenericWorkload=true"});

  // AllBeta=false turns every beta gate off but those set by name.
  FeatureGates beta;
  REQUIRE(beta.Set("AllBeta=false,OpportunisticBatching=true").ok());
  CHECK_FALSE(beta.Enabled("SchedulerAsyncPreemption"));
  CHECK(beta.Enabled("OpportunisticBatching"));
  CHECK(beta.Enabled("SchedulerQueueingHints"));  // GA
  FeatureGates alpha;
  REQUIRE(alpha.Set("AllAlpha=true").ok());
  CHECK(alpha.Enabled("DRADeviceTaintRules"));
  CHECK(alpha.Enabled("DRADeviceTaints"));

  // A GA gate set to its value is allowed, with upstream's warning.
  FeatureGates ga;
  REQUIRE(ga.Set("SchedulerQueueingHints=true").ok());
  CHECK(ga.warnings() ==
        std::vector<std::string>{"Setting GA feature gate SchedulerQueueingHints=true. It will be removed in a future "
                                 "release."});
}

TEST_CASE("CheckModeled refuses a scheduler gate away from its default, and lets others be", "[config][gates]") {
  CHECK(CheckModeled(FeatureGates()).ok());
  FeatureGates apiserver;
  REQUIRE(apiserver.Set("APIResponseCompression=false").ok());
  CHECK(CheckModeled(apiserver).ok());

  FeatureGates scoring;
  REQUIRE(scoring.Set("StorageCapacityScoring=true").ok());
  const absl::Status s = CheckModeled(scoring);
  CHECK(s.code() == absl::StatusCode::kFailedPrecondition);
  CHECK(s.message() ==
        "feature gate StorageCapacityScoring=true: schedkit does not model it (kube-scheduler v1.35.8 defaults it to "
        "false); leave it at its default");
  FeatureGates all;
  REQUIRE(all.Set("AllAlpha=true").ok());
  CHECK_THAT(std::string(CheckModeled(all).message()), Contains("schedkit does not model it"));
}

}  // namespace
}  // namespace schedkit::framework
