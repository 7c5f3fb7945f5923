// The queue's in-flight pods and the events recorded while they are being
// scheduled (upstream's Test_InFlightPods and its neighbours in
// scheduling_queue_test.go): a pod that comes back unschedulable replays the
// events it missed through its rejectors' hints.
#include <catch2/catch.hpp>

#include "scheduler/queue_test_world.h"

namespace schedkit::scheduler::queue_test {
namespace {

TEST_CASE("Test_InFlightPods", "[queue]") {
  const PodInfoPtr pod1 = MakePod().Name("targetpod").UID("pod1").Info();
  const PodInfoPtr pod2 = MakePod().Name("targetpod2").UID("pod2").Info();
  const PodInfoPtr pod3 = MakePod().Name("targetpod3").UID("pod3").Info();
  World w;
  auto build = [&](std::vector<PodInfoPtr> initial) -> SchedulingQueue& {
    SchedulingQueue& q = w.Build();
    for (const auto& p : initial) {
      q.Add(p);
      w.clock.Advance(absl::Seconds(1));
    }
    return q;
  };
  auto fire = [&](const ClusterEvent& e) { w.queue->OnClusterEvent(e, {}); };

  SECTION("Pod and interested events are registered in inFlightPods/inFlightEvents") {
    w.Plugin("fooPlugin1", kPvAdd, kQueue);
    SchedulingQueue& q = build({pod1});
    fire(kPvcAdd);  // nothing in flight: not recorded
    PopExpect(q, pod1);
    fire(kPvAdd);
    fire(kPvUpdate);  // no plugin is interested
    CHECK(Names(q.PodsIn(SubQueue::kInFlight)) == Strings{"targetpod"});
    CHECK(q.counts().in_flight_events == 1);
  }
  SECTION("Pod, registered in inFlightPods, is enqueued back to backoffQ") {
    w.Plugin(PluginSpec{"fooPlugin1", {{kPvAdd, kQueue}, {kNodeAdd, kQueue}, {kPvcAdd, kQueue}}, {}});
    SchedulingQueue& q = build({pod1, pod2});
    fire(kPvcAdd);
    PopExpect(q, pod1);
    fire(kPvAdd);
    PopExpect(q, pod2);
    fire(kNodeAdd);
    // No rejector: an error, retried after backoff.
    q.AddUnschedulableIfNotPresent(Lookup(pod1));
    CHECK(Names(q.PodsIn(SubQueue::kBackoff)) == Strings{"targetpod"});
    CHECK(Names(q.PodsIn(SubQueue::kInFlight)) == Strings{"targetpod2"});
    // pvAdd predates pod2 and was pruned when pod1 finished.
    CHECK(q.counts().in_flight_events == 1);
  }
  SECTION("All Pods registered in inFlightPods are enqueued back to activeQ") {
    w.Plugin(PluginSpec{"fooPlugin1",
                        {{kPvAdd, kQueue}, {kNodeAdd, kQueue}, {kPvcAdd, kQueue}, {kCsiNodeUpdate, kQueue}},
                        {}});
    SchedulingQueue& q = build({pod1, pod2});
    fire(kPvcAdd);
    PopExpect(q, pod1);
    fire(kPvAdd);
    PopExpect(q, pod2);
    fire(kNodeAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod1));
    fire(kCsiNodeUpdate);
    q.AddUnschedulableIfNotPresent(Lookup(pod2));
    CHECK(Names(q.PodsIn(SubQueue::kBackoff)) == Strings{"targetpod", "targetpod2"});
    CHECK(q.PodsIn(SubQueue::kInFlight).empty());
    CHECK(q.counts().in_flight_events == 0);
  }
  SECTION("One intermediate Pod registered in inFlightPods is enqueued back to activeQ") {
    w.Plugin(PluginSpec{"fooPlugin1", {{kPvAdd, kQueue}, {kNodeAdd, kQueue}, {kAssignedPodAdd, kQueue}}, {}});
    SchedulingQueue& q = build({pod1, pod2, pod3});
    fire(kPvcAdd);
    PopExpect(q, pod1);
    fire(kPvAdd);
    PopExpect(q, pod2);
    fire(kNodeAdd);
    PopExpect(q, pod3);
    fire(kAssignedPodAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod2));
    CHECK(Names(q.PodsIn(SubQueue::kBackoff)) == Strings{"targetpod2"});
    CHECK(Names(q.PodsIn(SubQueue::kInFlight), false) == Strings{"targetpod", "targetpod3"});
    // [pod1, pvAdd, nodeAdd, pod3, assignedPodAdd]
    CHECK(q.counts().in_flight_events == 3);
  }
  SECTION("events before popping Pod are ignored when Pod is enqueued back to queue") {
    w.Plugin("fooPlugin1", kAssignedPodAdd, kSkip);
    SchedulingQueue& q = build({pod1});
    fire(kUnschedulableTimeout);
    PopExpect(q, pod1);
    fire(kAssignedPodAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod1, {"fooPlugin1"}));
    CHECK(q.Locate("pod1") == SubQueue::kUnschedulable);
    CHECK(q.counts().in_flight == 0);
    CHECK(q.counts().in_flight_events == 0);
  }
  SECTION("pod is enqueued to backoff if no failed plugin") {
    w.Plugin("fooPlugin1", kAssignedPodAdd, kQueue);
    SchedulingQueue& q = build({pod1});
    PopExpect(q, pod1);
    fire(kAssignedPodAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod1));
    CHECK(Names(q.PodsIn(SubQueue::kBackoff)) == Strings{"targetpod"});
    CHECK(q.counts().in_flight_events == 0);
  }
  SECTION("pod is enqueued to unschedulable pod pool if no events that can make the pod schedulable") {
    w.Plugin("fooPlugin1", kAssignedPodAdd, kQueue);
    SchedulingQueue& q = build({pod1});
    PopExpect(q, pod1);
    fire(kNodeAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod1, {"fooPlugin1"}));
    CHECK(q.Locate("pod1") == SubQueue::kUnschedulable);
  }
  SECTION(
      "pod is enqueued to unschedulable pod pool because the failed plugin has a hint fn but it returns "
      "Skip") {
    w.Plugin("fooPlugin1", kAssignedPodAdd, kSkip);
    SchedulingQueue& q = build({pod1});
    PopExpect(q, pod1);
    fire(kAssignedPodAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod1, {"fooPlugin1"}));
    CHECK(q.Locate("pod1") == SubQueue::kUnschedulable);
  }
  SECTION("pod is enqueued to activeQ because the Pending plugins has a hint fn and it returns Queue") {
    w.Plugin("fooPlugin3", kAssignedPodAdd, kSkip);
    w.Plugin("fooPlugin2", kAssignedPodAdd, kQueue);
    w.Plugin("fooPlugin1", kAssignedPodAdd, kQueue);
    SchedulingQueue& q = build({pod1});
    PopExpect(q, pod1);
    fire(kAssignedPodAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod1, {"fooPlugin2", "fooPlugin3"}, {"fooPlugin1"}));
    CHECK(Names(q.PodsIn(SubQueue::kActive)) == Strings{"targetpod"});
  }
  SECTION("pod is enqueued to backoffQ because the failed plugin has a hint fn and it returns Queue") {
    w.Plugin("fooPlugin2", kAssignedPodAdd, kSkip);
    w.Plugin("fooPlugin1", kAssignedPodAdd, kQueue);
    SchedulingQueue& q = build({pod1});
    PopExpect(q, pod1);
    fire(kAssignedPodAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod1, {"fooPlugin1", "fooPlugin2"}));
    CHECK(Names(q.PodsIn(SubQueue::kBackoff)) == Strings{"targetpod"});
  }
  SECTION(
      "pod is enqueued to activeQ because the pending plugin returns Queue for an event received while "
      "another "
      "pod was in flight") {
    w.Plugin("fooPlugin3", kAssignedPodAdd, kSkip);
    w.Plugin("fooPlugin2", kAssignedPodAdd, kQueue);
    w.Plugin("fooPlugin1", kAssignedPodAdd, kQueue);
    SchedulingQueue& q = build({pod1, pod2});
    QueuedPodInfo popped1 = PopExpect(q, pod1);
    fire(kNodeAdd);
    QueuedPodInfo popped2 = PopExpect(q, pod2);
    fire(kAssignedPodAdd);
    q.AddUnschedulableIfNotPresent(popped1);
    popped2.unschedulable_plugins = {S("fooPlugin2"), S("fooPlugin3")};
    popped2.pending_plugins = {S("fooPlugin1")};
    q.AddUnschedulableIfNotPresent(popped2);
    CHECK(Names(q.PodsIn(SubQueue::kActive)) == Strings{"targetpod2"});
    CHECK(Names(q.PodsIn(SubQueue::kBackoff)) == Strings{"targetpod"});
    CHECK(q.counts().in_flight == 0);
    CHECK(q.counts().in_flight_events == 0);
  }
  SECTION("popped pod must have empty UnschedulablePlugins and PendingPlugins") {
    w.Plugin("fooPlugin1", kPvAdd, kQueue);
    SchedulingQueue& q = build({pod1});
    QueuedPodInfo popped = PopExpect(q, pod1);
    popped.pending_plugins = {S("fooPlugin1")};
    popped.unschedulable_plugins = {S("fooPlugin2")};
    q.AddUnschedulableIfNotPresent(popped);
    CHECK(q.Locate("pod1") == SubQueue::kUnschedulable);
    fire(kPvAdd);  // Pending plugin says Queue: straight to activeQ
    CHECK(q.Locate("pod1") == SubQueue::kActive);
    popped = PopExpect(q, pod1);
    CHECK(popped.unschedulable_plugins.empty());
    CHECK(popped.pending_plugins.empty());
    q.AddUnschedulableIfNotPresent(popped);
    CHECK(q.Locate("pod1") == SubQueue::kBackoff);
  }
  SECTION("Pop is made twice for the same Pod, but the cleanup still happens correctly") {
    w.Plugin(PluginSpec{"fooPlugin1",
                        {{kPvAdd, kQueue}, {kNodeAdd, kQueue}, {kPvcAdd, kQueue}, {kCsiNodeUpdate, kQueue}},
                        {}});
    SchedulingQueue& q = build({pod1, pod2});
    fire(kPvcAdd);
    PopExpect(q, pod1);
    fire(kPvAdd);
    PopExpect(q, pod2);
    // The bug being guarded against: pod1 enters activeQ while in flight.
    q.Add(pod1);
    q.Add(pod3);
    // pod1 is discarded by Pop, pod3 comes out.
    PopExpect(q, pod3);
    CHECK(q.PodsIn(SubQueue::kActive).empty());
    fire(kNodeAdd);
    q.AddUnschedulableIfNotPresent(Lookup(pod1));
    fire(kCsiNodeUpdate);
    q.AddUnschedulableIfNotPresent(Lookup(pod2));
    q.AddUnschedulableIfNotPresent(Lookup(pod3));
    CHECK(Names(q.PodsIn(SubQueue::kBackoff)) == Strings{"targetpod", "targetpod2", "targetpod3"});
    CHECK(q.counts().in_flight == 0);
    CHECK(q.counts().in_flight_events == 0);
  }
}

// A queue whose plugin "foo" answers AssignedPodAdd with `hint`, holding
// `pod` popped (in flight).
SchedulingQueue& BuildWithPoppedPod(World& w, const PodInfoPtr& pod, QueueingHintFn hint) {
  w.Plugin(PluginSpec{"foo", {{kAssignedPodAdd, std::move(hint)}}, {}});
  SchedulingQueue& q = w.Build();
  q.Add(pod);
  PopExpect(q, pod);
  return q;
}

TEST_CASE("In-flight events keep shared objects and copy borrowed ones", "[queue]") {
  // Not upstream (Go's garbage collector keeps the objects alive): an event
  // recorded for an in-flight pod is replayed to the hints later, so the
  // queue keeps shared owners as they are and copies objects it only borrows.
  const PodInfoPtr pod = MakePod().Name("waiting").UID("w").Info();
  const PodInfoPtr assigned = MakePod().Name("assigned").UID("a").Node("n1").Info();
  for (bool shared : {true, false}) {
    const api::v1::Pod* seen = nullptr;
    std::string seen_node;
    QueueingHintFn hint = [&](const PodInfo&, const EventObjects& e) -> absl::StatusOr<QueueingHint> {
      seen = e.New<api::v1::Pod>();
      if (seen != nullptr) seen_node = seen->spec().node_name();
      return QueueingHint::kQueue;
    };
    World w;
    SchedulingQueue& q = BuildWithPoppedPod(w, pod, hint);
    if (shared) {
      q.OnClusterEventShared(kAssignedPodAdd, SharedEventObjects::Of<api::v1::Pod>(nullptr, assigned->pod_ptr()));
    } else {
      api::v1::Pod borrowed = assigned->pod();
      q.OnClusterEvent(kAssignedPodAdd, EventObjects::Added(borrowed));
      borrowed.mutable_spec()->set_node_name("changed after the call");
    }
    CHECK(q.counts().in_flight_events == 1);
    q.AddUnschedulableIfNotPresent(Lookup(pod, {"foo"}));
    CHECK(seen_node == "n1");
    if (shared) CHECK(seen == &assigned->pod());
    CHECK(q.Locate("w") != SubQueue::kUnschedulable);
  }
}

TEST_CASE("An event given as a PodInfo shows its hints the node-named object", "[queue]") {
  // Not upstream: the scheduler passes an assumed pod as a PodInfo, whose
  // node-named API object is made only once a hint needs it.
  const PodInfoPtr pod = MakePod().Name("waiting").UID("w").Info();
  const PodInfoPtr assigned = MakePod().Name("assigned").UID("a").Info()->WithNodeName(S("n1"));
  for (bool in_flight : {true, false}) {
    std::string seen_node = "not called";
    QueueingHintFn hint = [&](const PodInfo&, const EventObjects& e) -> absl::StatusOr<QueueingHint> {
      seen_node = e.New<api::v1::Pod>() != nullptr ? e.New<api::v1::Pod>()->spec().node_name() : "no pod";
      return QueueingHint::kQueue;
    };
    World w;
    SchedulingQueue& q = BuildWithPoppedPod(w, pod, hint);
    if (in_flight) {
      q.OnClusterEventShared(kAssignedPodAdd, SharedEventObjects::OfPodInfos(nullptr, assigned));
      CHECK(q.counts().in_flight_events == 1);
      q.AddUnschedulableIfNotPresent(Lookup(pod, {"foo"}));
    } else {
      q.AddUnschedulableIfNotPresent(Lookup(pod, {"foo"}));
      REQUIRE(q.Locate("w") == SubQueue::kUnschedulable);
      q.OnClusterEventShared(kAssignedPodAdd, SharedEventObjects::OfPodInfos(nullptr, assigned));
    }
    CHECK(seen_node == "n1");
    CHECK(q.Locate("w") != SubQueue::kUnschedulable);
  }
}

TEST_CASE("TestPriorityQueue_UpdateWhenInflight", "[queue]") {
  World w;
  w.Plugin("fakePlugin", kTargetPodUpdate, kQueue);
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod = MakePod().Name("test-pod").Namespace("test-ns").UID("test-uid").Info();
  q.Add(pod);
  PopExpect(q, pod);
  const PodInfoPtr updated = MakePod()
                                 .Name("test-pod")
                                 .Namespace("test-ns")
                                 .UID("test-uid")
                                 .Toleration("foo", "Exists", "", "NoSchedule")
                                 .Info();
  q.Update(pod, updated);
  // The update it got while being scheduled may fix what fakePlugin rejected.
  q.AddUnschedulableIfNotPresent(Lookup(updated, {"fakePlugin"}));
  CHECK(q.Locate("test-uid") == SubQueue::kBackoff);
  CHECK(q.GetPod("test-uid")->pod == updated);
}

TEST_CASE("TestClose: Close forgets in-flight pods and events", "[queue]") {
  World w;
  w.Plugin(PluginSpec{"fooPlugin1", {{kNodeAdd, kQueue}, {kCsiNodeUpdate, kQueue}}, {}});
  SchedulingQueue& q = w.Build();
  q.Add(MakePod().Name("p1").Namespace("foo").UID("p1").Info());
  q.Add(MakePod().Name("p2").Namespace("bar").UID("p2").Info());
  REQUIRE(q.Pop().has_value());
  REQUIRE(q.Pop().has_value());
  q.OnClusterEvent(kNodeAdd, {});
  q.OnClusterEvent(kCsiNodeUpdate, {});
  CHECK(q.counts().in_flight_events == 2);
  CHECK(q.counts().in_flight == 2);
  q.Close();
  CHECK(q.counts().in_flight_events == 0);
  CHECK(q.counts().in_flight == 0);
}

}  // namespace
}  // namespace schedkit::scheduler::queue_test
