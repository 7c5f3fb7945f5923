// The queue's nominator (upstream's nominator in backend/queue and its cases
// in scheduling_queue_test.go): pods nominated to nodes by preemption, seen in
// their latest version, kept across updates.
#include <catch2/catch.hpp>

#include "scheduler/queue_test_world.h"

namespace schedkit::scheduler::queue_test {
namespace {

TEST_CASE("TestPriorityQueue_NominatedPodsForNode", "[queue][nominator]") {
  World w;
  SchedulingQueue& q = w.Build();
  q.Add(MedPriorityPod());
  q.Add(UnschedulablePod());
  q.Add(HighPriorityPod());
  PopExpect(q, HighPriorityPod());
  CHECK(Nominated(q, "node1") == Strings{"mpp", "up"});
  CHECK(Nominated(q, "node2").empty());
}

TEST_CASE("TestPriorityQueue_NominatedPodDeleted (no pod lister in schedkit)", "[queue][nominator]") {
  World w;
  SchedulingQueue& q = w.Build();
  SECTION("alive pod gets added into PodNominator") {
    q.AddNominatedPod(MedPriorityPod(), Symbol());
    CHECK(Nominated(q, "node1").size() == 1);
  }
  SECTION("pod without .status.nominatedNodeName specified shouldn't be added into PodNominator") {
    q.AddNominatedPod(HighPriorityPod(), Symbol());
    CHECK(q.NominatedPodsForNode(Symbol()).empty());
  }
}

TEST_CASE("TestPriorityQueue_UpdateNominatedPodForNode", "[queue][nominator]") {
  World w;
  SchedulingQueue& q = w.Build();
  q.Add(MedPriorityPod());
  q.AddNominatedPod(UnschedulablePod(), S("node5"));
  q.AddNominatedPod(HighPriorityPod(), S("node2"));
  auto check = [&](const std::map<std::string, Strings>& want) {
    for (const auto& [node, pods] : want) CHECK(Nominated(q, node) == pods);
  };
  check({{"node1", {"mpp"}}, {"node2", {"hpp"}}, {"node5", {"up"}}});
  PopExpect(q, MedPriorityPod());
  check({{"node1", {"mpp"}}, {"node2", {"hpp"}}, {"node5", {"up"}}});
  q.AddNominatedPod(HighPriorityPod(), S("node4"));
  check({{"node1", {"mpp"}}, {"node2", {}}, {"node4", {"hpp"}}, {"node5", {"up"}}});
  // An already scheduled pod is not nominated.
  q.AddNominatedPod(MakePod().Name("sp").Namespace("ns1").UID("spns1").Node("foo").Info(), S("node1"));
  check({{"node1", {"mpp"}}, {"node4", {"hpp"}}, {"node5", {"up"}}});
  q.DeleteNominatedPodIfExists(*HighPriorityPod());
  check({{"node1", {"mpp"}}, {"node4", {}}, {"node5", {"up"}}});
}

TEST_CASE("Nominator: Update keeps an in-memory nomination and follows status changes (UpdateNominatedPod)",
          "[queue][nominator]") {
  World w;
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod = HighPriorityPod();
  q.Add(pod);
  q.AddNominatedPod(pod, S("node3"));  // preemption nominated it; the status patch is not seen yet
  const PodInfoPtr relabelled = WithLabel(pod, "a", "b");
  q.Update(pod, relabelled);
  CHECK(Nominated(q, "node3") == Strings{"hpp"});
  CHECK(q.NominatedPodsForNode(S("node3"))[0] == relabelled);  // the queue's latest version
  // The status now names another node.
  q.Update(relabelled, HighPriNominatedPod());
  CHECK(Nominated(q, "node3").empty());
  CHECK(Nominated(q, "node1") == Strings{"hpp"});
  // The status clears it.
  q.Update(HighPriNominatedPod(), pod);
  CHECK(Nominated(q, "node1").empty());
}

}  // namespace
}  // namespace schedkit::scheduler::queue_test
