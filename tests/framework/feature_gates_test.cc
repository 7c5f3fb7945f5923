// framework::FeatureGates: kube-scheduler's --feature-gates, its table and its
// rules. The messages are what kube-scheduler v1.37.2 prints for the same
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
  CHECK(g.Enabled("NodeDeclaredFeatures"));
  CHECK(g.Enabled("OpportunisticBatching"));
  CHECK(g.Enabled("StorageCapacityScoring"));
  CHECK_FALSE(g.Enabled("GenericWorkload"));
  CHECK_FALSE(g.Enabled("NoSuchGate"));
  // Gone in v1.37: queueing hints are always on, gangs come with GenericWorkload.
  CHECK_FALSE(g.Enabled("SchedulerQueueingHints"));
  CHECK(FindFeatureGate("SchedulerQueueingHints") == nullptr);
  CHECK(FindFeatureGate("GangScheduling") == nullptr);
  CHECK(g.Changed().empty());
  const FeatureGateSpec* ndf = FindFeatureGate("NodeDeclaredFeatures");
  REQUIRE(ndf != nullptr);
  CHECK(ndf->locked);
  CHECK(ndf->stage == GateStage::kGA);
  CHECK(ndf->scheduler);
  // An API server gate kube-scheduler accepts but never reads.
  const FeatureGateSpec* compression = FindFeatureGate("APIResponseCompression");
  REQUIRE(compression != nullptr);
  CHECK_FALSE(compression->scheduler);
  CHECK(KnownFeatureGates().size() > 200);
}

TEST_CASE("FeatureGates::Set reads the flag and refuses as kube-scheduler", "[config][gates]") {
  CHECK(SetError("Foo=true") == "unrecognized feature gate: Foo");
  CHECK(SetError("SchedulerQueueingHints=true") == "unrecognized feature gate: SchedulerQueueingHints");
  CHECK(SetError("AllAlpha=true") ==
        "[CompositePodGroup is enabled, but depends on features that are disabled: [GenericWorkload], "
        "PodGroupPreemptionPolicy is enabled, but depends on features that are disabled: [GenericWorkload], "
        "TopologyAwareWorkloadScheduling is enabled, but depends on features that are disabled: [GenericWorkload], "
        "WorkloadWithJob is enabled, but depends on features that are disabled: [GenericWorkload]]");
  CHECK(SetError("NodeDeclaredFeatures=false") ==
        "cannot set feature gate NodeDeclaredFeatures to false, feature is locked to true");
  CHECK(SetError("DRAAdminAccess=maybe") ==
        "invalid value of DRAAdminAccess=maybe, err: strconv.ParseBool: parsing \"maybe\": invalid syntax");
  CHECK(SetError("DRAAdminAccess") == "missing bool value for DRAAdminAccess");
  CHECK(SetError("DRADeviceTaints=false") ==
        "DRADeviceTaintRules is enabled, but depends on features that are disabled: [DRADeviceTaints]");
  CHECK(SetError("DRAFractionalCapacityRange=true,DRAConsumableCapacity=false,DRAPartitionableDevices=true") ==
        "DRAFractionalCapacityRange is enabled, but depends on features that are disabled: [DRAConsumableCapacity]");
  // Several errors aggregate (upstream's order is its map's; ours is by name).
  const std::string two = SetError("NodeDeclaredFeatures=false,DynamicResourceAllocation=false");
  CHECK(two == "[cannot set feature gate DynamicResourceAllocation to false, feature is locked to true, cannot set "
               "feature gate NodeDeclaredFeatures to false, feature is locked to true]");
}

TEST_CASE("FeatureGates::Set takes spaces, Go's booleans, later values and All gates", "[config][gates]") {
  FeatureGates g;
  REQUIRE(g.Set(" GenericWorkload = true ,TopologyAwareWorkloadScheduling=T").ok());
  CHECK(g.Enabled("GenericWorkload"));
  CHECK(g.Enabled("TopologyAwareWorkloadScheduling"));
  // A later flag adds to the earlier ones; its value for a gate wins.
  REQUIRE(g.Set("TopologyAwareWorkloadScheduling=0,DRAPartitionableDevices=False").ok());
  CHECK(g.Enabled("GenericWorkload"));
  CHECK_FALSE(g.Enabled("TopologyAwareWorkloadScheduling"));
  CHECK_FALSE(g.Enabled("DRAPartitionableDevices"));
  CHECK(g.Changed() == std::vector<std::string>{"DRAPartitionableDevices=false", "GenericWorkload=true"});

  // AllBeta=false turns every beta gate off but those set by name.
  FeatureGates beta;
  REQUIRE(beta.Set("AllBeta=false,OpportunisticBatching=true").ok());
  CHECK_FALSE(beta.Enabled("SchedulerAsyncPreemption"));
  CHECK(beta.Enabled("OpportunisticBatching"));
  CHECK(beta.Enabled("NodeDeclaredFeatures"));  // GA
  FeatureGates alpha;
  // v1.37: alpha gates that build on GenericWorkload (beta, off) need it on.
  REQUIRE(alpha.Set("AllAlpha=true,GenericWorkload=true").ok());
  CHECK(alpha.Enabled("InterPodAffinityHostnameFastPath"));
  CHECK(alpha.Enabled("DRADerivedAttributes"));

  // A GA gate set to its value is allowed, with upstream's warning.
  FeatureGates ga;
  REQUIRE(ga.Set("NodeDeclaredFeatures=true").ok());
  CHECK(ga.warnings() ==
        std::vector<std::string>{"\"Warning: setting GA feature gate. It will be removed in a future release.\" "
                                 "featureGate=\"NodeDeclaredFeatures\" value=true"});
}

TEST_CASE("CheckModeled refuses a scheduler gate away from its default, and lets others be", "[config][gates]") {
  CHECK(CheckModeled(FeatureGates()).ok());
  FeatureGates apiserver;
  REQUIRE(apiserver.Set("APIResponseCompression=false").ok());
  CHECK(CheckModeled(apiserver).ok());

  // A gate schedkit models may go either way.
  FeatureGates scoring;
  REQUIRE(scoring.Set("StorageCapacityScoring=false").ok());
  CHECK(CheckModeled(scoring).ok());
  FeatureGates batching;
  REQUIRE(batching.Set("OpportunisticBatching=false").ok());
  CHECK(CheckModeled(batching).ok());

  FeatureGates limits;
  REQUIRE(limits.Set("VolumeLimitScaling=false").ok());
  CHECK(CheckModeled(limits).ok());

  FeatureGates pop;
  REQUIRE(pop.Set("SchedulerPopFromBackoffQ=false").ok());
  const absl::Status s = CheckModeled(pop);
  CHECK(s.code() == absl::StatusCode::kFailedPrecondition);
  CHECK(s.message() ==
        "feature gate SchedulerPopFromBackoffQ=false: schedkit does not model it (kube-scheduler v1.37.2 defaults it to "
        "true); leave it at its default");
  FeatureGates all;
  REQUIRE(all.Set("AllAlpha=true,GenericWorkload=true").ok());
  CHECK_THAT(std::string(CheckModeled(all).message()), Contains("schedkit does not model it"));
}

}  // namespace
}  // namespace schedkit::framework
