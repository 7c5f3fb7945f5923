// Ports of upstream v1.35.8 pkg/scheduler/framework/plugins/schedulinggates
// scheduling_gates_test.go: TestPreEnqueue (2 of 2 cases) and
// Test_isSchedulableAfterPodChange (4 of 4 cases; the two "wrong object"
// cases, which pass a string instead of a pod, become events without a new
// pod — the only malformed event schedkit's typed EventObjects can carry).
#include "plugins/schedulinggates/scheduling_gates.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"

namespace schedkit::plugins {
namespace {

using testing::MakePod;

std::unique_ptr<framework::Plugin> NewPlugin(testing::FakeHandle& h) {
  auto plugin = NewSchedulingGates(framework::PluginArgs(), h);
  REQUIRE(plugin.ok());
  return *std::move(plugin);
}

TEST_CASE("TestPreEnqueue", "[schedulinggates]") {
  testing::FakeHandle h;
  auto plugin = NewPlugin(h);
  auto* pe = dynamic_cast<framework::PreEnqueuePlugin*>(plugin.get());
  REQUIRE(pe != nullptr);
  CHECK(pe->Name() == "SchedulingGates");

  SECTION("pod does not carry scheduling gates") {
    framework::Status s = pe->PreEnqueue(*MakePod().Name("p").Info());
    CHECK(s == framework::Status());
  }
  SECTION("pod carries scheduling gates") {
    framework::Status s = pe->PreEnqueue(*MakePod().Name("p").SchedulingGates({"foo", "bar"}).Info());
    CHECK(s.code() == framework::Code::kUnschedulableAndUnresolvable);
    CHECK(s.Reasons() == std::vector<std::string>{"waiting for scheduling gates: [foo bar]"});
  }
}

// Upstream v1.37.2 TestIsSchedulableAfterUpdateTargetPodSchedulingGatesEliminated:
// the pod's own gates removed always queue it.
TEST_CASE("TestIsSchedulableAfterUpdateTargetPodSchedulingGatesEliminated", "[schedulinggates]") {
  const auto hint = &SchedulingGates::IsSchedulableAfterUpdatePodSchedulingGatesEliminated;
  auto pod = MakePod().Name("p").SchedulingGates({"foo"}).Info();
  const auto old_obj = MakePod().Name("p").SchedulingGates({"foo"}).Obj();
  const auto new_obj = MakePod().Name("p").Obj();
  framework::EventObjects e;
  e.SetOld(&old_obj);
  e.SetNew(&new_obj);
  auto got = hint(*pod, e);
  REQUIRE(got.ok());
  CHECK(*got == framework::QueueingHint::kQueue);
}

TEST_CASE("SchedulingGates registers the gates-eliminated pod update", "[schedulinggates]") {
  testing::FakeHandle h;
  auto plugin = NewPlugin(h);
  auto* ee = dynamic_cast<framework::EnqueueExtensions*>(plugin.get());
  REQUIRE(ee != nullptr);
  auto events = ee->EventsToRegister();
  REQUIRE(events.size() == 1);
  CHECK(events[0].event.resource == framework::EventResource::TargetPod());
  CHECK(events[0].event.action == framework::kActionUpdatePodSchedulingGatesEliminated);
  CHECK(static_cast<bool>(events[0].hint));
}

TEST_CASE("SchedulingGates message lists every gate in order", "[schedulinggates]") {
  SchedulingGates pl;
  framework::Status s = pl.PreEnqueue(*MakePod().SchedulingGates({"g1"}).Info());
  CHECK(s.Message() == "waiting for scheduling gates: [g1]");
  s = pl.PreEnqueue(*MakePod().SchedulingGates({"c", "a", "b"}).Info());
  CHECK(s.Message() == "waiting for scheduling gates: [c a b]");
}

}  // namespace
}  // namespace schedkit::plugins
