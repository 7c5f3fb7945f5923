// The cluster events a pod's update amounts to (upstream's
// framework.PodSchedulingPropertiesChange, tested in framework/events_test.go),
// which the queue sends for pending pods and the event handlers for bound ones.
#include "scheduler/pod_update_events.h"

#include <catch2/catch.hpp>

#include "scheduler/queue_test_world.h"

namespace schedkit::scheduler::queue_test {
namespace {

TEST_CASE("TestPodSchedulingPropertiesChange (framework/events_test.go)", "[queue][events]") {
  const PodInfoPtr base = MakePod().Name("p").Req({{"cpu", "1"}}).Toleration("a").Info();
  auto actions = [](const std::vector<ClusterEvent>& events) {
    std::vector<framework::ActionType> out;
    for (const auto& e : events) {
      CHECK(e.resource == EventResource::UnscheduledPod());
      out.push_back(e.action);
    }
    return out;
  };
  using Actions = std::vector<framework::ActionType>;
  CHECK(actions(PodUpdateEvents(*base, *WithAnnotation(base, "x", "y"), false)) ==
        Actions{framework::kActionUpdate});
  CHECK(actions(PodUpdateEvents(*base, *WithLabel(base, "x", "y"), false)) ==
        Actions{framework::kActionUpdatePodLabel});
  CHECK(actions(PodUpdateEvents(*base, *MakePod().Name("p").Req({{"cpu", "500m"}}).Toleration("a").Info(), false)) ==
        Actions{framework::kActionUpdatePodScaleDown});
  // v1.37: a raised request is UpdatePodScaleUp.
  CHECK(actions(PodUpdateEvents(*base, *MakePod().Name("p").Req({{"cpu", "2"}}).Toleration("a").Info(), false)) ==
        Actions{framework::kActionUpdatePodScaleUp});
  CHECK(
      actions(PodUpdateEvents(
          *base,
          *MakePod().Name("p").Req({{"cpu", "1"}}).Toleration("a").Toleration("b").Label("l", "v").Info(), false)) ==
      Actions{framework::kActionUpdatePodLabel, framework::kActionUpdatePodToleration});
  const PodInfoPtr gated = MakePod().Name("p").SchedulingGates({"g"}).Info();
  CHECK(actions(PodUpdateEvents(*gated, *MakePod().Name("p").Info(), false)) ==
        Actions{framework::kActionUpdatePodSchedulingGatesEliminated});
  const std::vector<ClusterEvent> bound =
      PodUpdateEvents(*base, *MakePod().Name("p").Req({{"cpu", "1"}}).Toleration("a").Node("n1").Info(), true);
  REQUIRE(bound.size() == 1);
  CHECK(bound[0].resource == EventResource::AssignedPod());
  // The queue's own update of a pending pod: TargetPod (v1.37).
  const std::vector<ClusterEvent> target = PodUpdateEvents(*base, *WithLabel(base, "x", "y"), true);
  REQUIRE(target.size() == 1);
  CHECK(target[0].resource == EventResource::TargetPod());
  CHECK(target[0].label == "TargetPodUpdatePodLabel");
}

TEST_CASE("A bound pod's update is one AssignedPod event per change, as upstream labels them", "[events]") {
  const PodInfoPtr bound = MakePod().Name("p").Node("n1").Req({{"cpu", "1"}, {"example.com/gpu", "2"}}).Info();
  const std::vector<ClusterEvent> events = PodUpdateEvents(
      *bound, *WithLabel(MakePod().Name("p").Node("n1").Req({{"cpu", "1"}, {"example.com/gpu", "1"}}).Info(), "l", "v"),
      /*target=*/false);
  REQUIRE(events.size() == 2);
  CHECK(events[0].resource == EventResource::AssignedPod());
  CHECK(events[0].action == framework::kActionUpdatePodLabel);
  CHECK(events[0].label == "AssignedPodUpdatePodLabel");
  // A lowered extended resource is a scale-down too.
  CHECK(events[1].action == framework::kActionUpdatePodScaleDown);
  CHECK(events[1].label == "AssignedPodUpdatePodScaleDown");
}

}  // namespace
}  // namespace schedkit::scheduler::queue_test
