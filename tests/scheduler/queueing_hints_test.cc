// Queueing hints and PreEnqueue gating (upstream's
// scheduling_queue_test.go: isPodWorthRequeuing, buildQueueingHintMap,
// MoveAllToActiveOrBackoffQueue with hints, and the gated-pod cases): which
// events move a pod out of the unschedulable pool, and how soon.
#include <catch2/catch.hpp>

#include "scheduler/queue_test_world.h"

namespace schedkit::scheduler::queue_test {
namespace {

TEST_CASE("TestPriorityQueue_moveToActiveQ: PreEnqueue gates pods on the way to activeQ", "[queue]") {
  World w;
  const PodInfoPtr p = MakePod().Name("p").Label("p", "").Info();
  const PodInfoPtr bar = MakePod().Name("bar").Label("bar", "").Info();
  auto check_update_keeps = [&](SchedulingQueue& q, const PodInfoPtr& pod, int want_gated) {
    q.Update(pod, WithAnnotation(pod, "foo", ""));
    CHECK(q.counts().gated == want_gated);
  };

  SECTION("no plugins registered") {
    SchedulingQueue& q = w.Build();
    q.Add(p);
    CHECK(q.counts().active == 1);
    CHECK(q.counts().gated == 0);
  }
  SECTION("preEnqueue plugin registered, pod name not in allowlists") {
    w.Plugin(PluginSpec{"preEnqueuePlugin1", {{kWildcard, {}}}, AllowLabels({})});
    w.Plugin(PluginSpec{"preEnqueuePlugin2", {{kWildcard, {}}}, AllowLabels({})});
    SchedulingQueue& q = w.Build();
    q.Add(p);
    CHECK(q.counts().gated == 1);
    CHECK(q.GetPod(p->uid())->gating_plugin == S("preEnqueuePlugin1"));
    check_update_keeps(q, p, 1);
  }
  SECTION("preEnqueue plugin registered, pod failed one preEnqueue plugin") {
    w.Plugin(PluginSpec{"preEnqueuePlugin1", {{kWildcard, {}}}, AllowLabels({"foo", "bar"})});
    w.Plugin(PluginSpec{"preEnqueuePlugin2", {{kWildcard, {}}}, AllowLabels({"foo"})});
    SchedulingQueue& q = w.Build();
    q.Add(bar);
    CHECK(q.counts().gated == 1);
    std::optional<QueuedPodInfo> info = q.GetPod(bar->uid());
    CHECK(info->gated);
    CHECK(info->gating_plugin == S("preEnqueuePlugin2"));
    CHECK(info->unschedulable_plugins.contains(S("preEnqueuePlugin2")));
    check_update_keeps(q, bar, 1);
  }
  SECTION("preEnqueue plugin registered, pod passed all preEnqueue plugins") {
    w.Plugin(PluginSpec{"preEnqueuePlugin1", {{kWildcard, {}}}, AllowLabels({"foo", "bar"})});
    w.Plugin(PluginSpec{"preEnqueuePlugin2", {{kWildcard, {}}}, AllowLabels({"bar"})});
    SchedulingQueue& q = w.Build();
    q.Add(bar);
    CHECK(q.counts().active == 1);
    check_update_keeps(q, bar, 0);
  }

  // A plugin whose verdict the test flips, to tell whether PreEnqueue ran.
  auto reject = std::make_shared<std::atomic<bool>>(false);
  auto toggled = [reject](const PodInfo&) {
    return reject->load() ? Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"rejected"}) : Status();
  };
  SECTION("pod moved from backoffQ after completing backoff: PreEnqueue is not executed again") {
    w.Plugin(PluginSpec{"toggle", {{kWildcard, {}}}, toggled});
    SchedulingQueue& q = w.Build();
    q.Add(bar);
    PopExpect(q, bar);
    q.AddUnschedulableIfNotPresent(Lookup(bar));  // error: backoffQ, PreEnqueue passed
    REQUIRE(q.Locate(bar->uid()) == SubQueue::kBackoff);
    reject->store(true);
    w.clock.Advance(absl::Seconds(2));
    q.FlushBackoffQCompleted();
    CHECK(q.Locate(bar->uid()) == SubQueue::kActive);
  }
  SECTION("pod activated from backoffQ: PreEnqueue is not executed again") {
    w.Plugin(PluginSpec{"toggle", {{kWildcard, {}}}, toggled});
    SchedulingQueue& q = w.Build();
    q.Add(bar);
    PopExpect(q, bar);
    q.AddUnschedulableIfNotPresent(Lookup(bar));
    reject->store(true);
    q.Activate({bar->uid()});
    CHECK(q.Locate(bar->uid()) == SubQueue::kActive);
  }
  SECTION("pod activated from unschedulablePods: PreEnqueue runs and gates it") {
    w.Plugin(PluginSpec{"toggle", {{kWildcard, {}}}, toggled});
    SchedulingQueue& q = w.Build();
    q.Add(bar);
    PopExpect(q, bar);
    q.AddUnschedulableIfNotPresent(Lookup(bar, {"toggle"}));
    REQUIRE(q.Locate(bar->uid()) == SubQueue::kUnschedulable);
    reject->store(true);
    q.Activate({bar->uid()});
    CHECK(q.Locate(bar->uid()) == SubQueue::kGated);
  }
}

TEST_CASE("TestPriorityQueue_moveToBackoffQ: PreEnqueue runs on the way into backoffQ", "[queue]") {
  auto reject = std::make_shared<std::atomic<bool>>(false);
  World w;
  w.Plugin(PluginSpec{"toggle", {{kNodeAdd, kQueue}}, [reject](const PodInfo&) {
                        return reject->load()
                                   ? Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"no"})
                                   : Status();
                      }});
  SchedulingQueue& q = w.Build();
  const PodInfoPtr bar = MakePod().Name("bar").Label("bar", "").Info();
  q.Add(bar);
  PopExpect(q, bar);
  q.OnClusterEvent(kNodeAdd, {});

  SECTION("pod passed all preEnqueue plugins") {
    q.AddUnschedulableIfNotPresent(Lookup(bar, {"toggle"}));
    CHECK(q.Locate(bar->uid()) == SubQueue::kBackoff);
  }
  SECTION("pod failed one preEnqueue plugin") {
    reject->store(true);
    q.AddUnschedulableIfNotPresent(Lookup(bar, {"toggle"}));
    CHECK(q.Locate(bar->uid()) == SubQueue::kGated);
    CHECK(q.counts().backoff == 0);
  }
}

TEST_CASE("TestPriorityQueue_MoveAllToActiveOrBackoffQueueWithQueueingHint", "[queue]") {
  const PodInfoPtr p = MakePod().Name("pod1").Namespace("ns1").UID("1").Label("foo", "bar").Info();
  const PodInfoPtr gated_pod = MakePod().Name("pod1").Namespace("ns1").UID("1").Info();
  int calls = 0;
  QueueingHintFn must_not_run = ReturnsError(&calls);

  struct Case {
    QueuedPodInfo info;
    QueueingHintFn hint;
    absl::Duration wait = absl::ZeroDuration();
    ClusterEvent event = kNodeAdd;
    SubQueue want;
    bool hint_may_run = true;
  };
  auto gated_by = [](QueuedPodInfo info, const std::string& plugin) {
    info.gating_plugin = S(plugin);
    info.gated = true;
    info.unschedulable_plugins = {S(plugin)};
    return info;
  };
  auto run = [&](Case c) {
    World w;
    w.Plugin(PluginSpec{"foo", {{kNodeAdd, c.hint}}, AllowLabels({"foo"})});
    PluginSpec gates = SchedulingGatesSpec();
    gates.events = {{kTargetPodUpdate, kQueue}};
    w.Plugin(gates);
    SchedulingQueue& q = w.Build();
    q.Add(c.info.pod);
    if (q.counts().active > 0) {
      PopExpect(q, c.info.pod);
      q.AddUnschedulableIfNotPresent(c.info);
    }  // else gated by "foo" on the way in
    w.clock.Advance(c.wait);
    q.OnClusterEvent(c.event, {});
    CHECK(q.Locate("1") == c.want);
    if (!c.hint_may_run) CHECK(calls == 0);
  };

  SECTION("Queue queues pod to activeQ") {
    run({Lookup(p, {}, {"foo"}), kQueue, absl::ZeroDuration(), kNodeAdd, SubQueue::kActive});
  }
  SECTION("Queue queues pod to backoffQ if Pod is backing off") {
    run({Lookup(p, {"foo"}), kQueue, absl::ZeroDuration(), kNodeAdd, SubQueue::kBackoff});
  }
  SECTION("Queue queues pod to activeQ if Pod is not backing off") {
    // 1 s of backoff, plus the ordering window its expiry falls in.
    run({Lookup(p, {"foo"}), kQueue, absl::Seconds(2), kNodeAdd, SubQueue::kActive});
  }
  SECTION("Skip queues pod to unschedulablePods") {
    run({Lookup(p, {"foo"}), kSkip, absl::ZeroDuration(), kNodeAdd, SubQueue::kUnschedulable});
  }
  SECTION("Queue queues pod to backoffQ if Pod is not gated and the event is wildcard") {
    run({Lookup(p, {"foo"}), must_not_run, absl::ZeroDuration(), kUnschedulableTimeout, SubQueue::kBackoff,
         false});
  }
  SECTION("Queue queues pod to backoffQ when Pod is no longer gated and the event is wildcard") {
    run({gated_by(Lookup(p), "foo"), must_not_run, absl::ZeroDuration(), kUnschedulableTimeout,
         SubQueue::kBackoff, false});
  }
  SECTION("Queue queues pod to unschedulableQ when Pod is gated and the event is wildcard") {
    run({gated_by(Lookup(gated_pod), "foo"), must_not_run, absl::ZeroDuration(), kUnschedulableTimeout,
         SubQueue::kGated, false});
  }
  SECTION(
      "QueueHintFunction is not called when Pod is gated by the plugin that isn't interested in the event") {
    run({gated_by(Lookup(p), "SchedulingGates"), must_not_run, absl::ZeroDuration(), kNodeAdd,
         SubQueue::kGated, false});
  }
  SECTION("QueueHintFunction is called when Pod is gated by the plugin that is interested in the event") {
    run({gated_by(Lookup(p), "foo"), kQueue, absl::ZeroDuration(), kNodeAdd, SubQueue::kBackoff});
  }
}

TEST_CASE("TestPriorityQueue_MoveAllToActiveOrBackoffQueue", "[queue]") {
  World w;
  w.Plugin("fooPlugin", kNodeAdd, kQueue);
  SchedulingQueue& q = w.Build();
  const PodInfoPtr up = UnschedulablePod(), hpp = HighPriorityPod(), med = MedPriorityPod();
  const PodInfoPtr hpp1 = Pod("hpp1", "ns1", "hpp1", kHighPriority);
  const PodInfoPtr hpp2 = Pod("hpp2", "ns1", "hpp2", kHighPriority);
  auto in_flight = [&] { return Names(q.PodsIn(SubQueue::kInFlight)); };

  q.Add(up);
  PopExpect(q, up);
  q.Add(hpp);
  PopExpect(q, hpp);
  CHECK(in_flight() == Strings{"hpp", "up"});
  q.AddUnschedulableIfNotPresent(Lookup(up, {"fooPlugin"}));
  q.AddUnschedulableIfNotPresent(Lookup(hpp, {"fooPlugin"}));
  CHECK(in_flight().empty());
  // No rejector: backoffQ.
  q.Add(hpp1);
  PopExpect(q, hpp1);
  QueuedPodInfo hpp1_info = Lookup(hpp1);
  hpp1_info.unschedulable_count = 1;
  q.AddUnschedulableIfNotPresent(hpp1_info);
  // Rejected by a plugin no event registration names: the pool.
  q.Add(hpp2);
  PopExpect(q, hpp2);
  q.AddUnschedulableIfNotPresent(Lookup(hpp2, {"barPlugin"}));
  // NodeAdd moves up and hpp (fooPlugin says Queue) to backoffQ.
  q.OnClusterEvent(kNodeAdd, {});
  q.Add(med);
  CHECK(q.counts().active == 1);
  PopExpect(q, med);
  CHECK(in_flight() == Strings{"mpp"});
  CHECK(q.counts().backoff == 3);

  // Flushing backoffQ makes no pod in flight.
  w.clock.Advance(absl::Seconds(10));
  q.FlushBackoffQCompleted();
  CHECK(in_flight() == Strings{"mpp"});
  for (int i = 0; i < 3; ++i) REQUIRE(q.Pop().has_value());
  CHECK(in_flight() == Strings{"hpp", "hpp1", "mpp", "up"});
  q.AddUnschedulableIfNotPresent(Lookup(up, {"fooPlugin"}));
  q.AddUnschedulableIfNotPresent(Lookup(hpp, {"fooPlugin"}));
  q.AddUnschedulableIfNotPresent(Lookup(hpp1));
  CHECK(in_flight() == Strings{"mpp"});
  q.Add(med);
  for (const auto& pod : {up, hpp, hpp2}) CHECK(q.Locate(pod->uid()) == SubQueue::kUnschedulable);
  CHECK(q.Locate(hpp1->uid()) == SubQueue::kBackoff);
  CHECK(q.counts().active == 1);

  w.clock.Advance(absl::Seconds(10));
  q.FlushBackoffQCompleted();
  q.OnClusterEvent(kNodeAdd, {});
  CHECK(q.counts().active == 4);
  CHECK(q.counts().backoff == 0);
  CHECK(in_flight() == Strings{"mpp"});
  // hpp2 stays whatever its backoff.
  CHECK(q.counts().unschedulable == 1);
}

TEST_CASE("TestMoveAllToActiveOrBackoffQueue_PreEnqueueChecks: events no plugin registered are ignored",
          "[queue]") {
  World w;
  w.Plugin("plugin", kNodeAdd, kQueue);
  SchedulingQueue& q = w.Build();
  std::vector<PodInfoPtr> pods;
  for (int i = 0; i < 5; ++i) {
    pods.push_back(MakePod().Name(StrCat("p", i)).Priority(i).Info());
    q.Add(pods.back());
    PopExpect(q, pods.back());
    q.AddUnschedulableIfNotPresent(Lookup(pods.back(), {"plugin"}));
  }
  SECTION("not interesting") {
    q.Add(HighPriorityPod());
    REQUIRE(q.Pop().has_value());
    q.OnClusterEvent(kPvAdd, {});
    CHECK(q.counts().unschedulable == 5);
    CHECK(q.counts().in_flight_events == 0);  // nor kept for in-flight pods
  }
  SECTION("wildcard moves every pod") {
    q.OnClusterEvent(kUnschedulableTimeout, {});
    w.clock.Advance(absl::Seconds(20));
    q.FlushBackoffQCompleted();
    CHECK(Names(q.PodsIn(SubQueue::kActive)) == Strings{"p0", "p1", "p2", "p3", "p4"});
  }
}

TEST_CASE("Test_isPodWorthRequeuing", "[queue][hints]") {
  const PodInfoPtr pod1 = MakePod().Name("pod1").Namespace("ns1").UID("1").Info();
  const api::v1::Node node = testing::MakeNode().Name("n").Obj();
  int count = 0;
  World w;
  // Rejected by `unsched`/`pending`, then `event` arrives with a new node.
  auto run = [&](std::vector<std::string> unsched, std::vector<std::string> pending,
                 const ClusterEvent& event, std::optional<EventObjects> objects = std::nullopt) {
    SchedulingQueue& q = w.Build();
    q.Add(pod1);
    PopExpect(q, pod1);
    q.AddUnschedulableIfNotPresent(Lookup(pod1, unsched, pending));
    REQUIRE(q.Locate("1") == SubQueue::kUnschedulable);
    q.OnClusterEvent(event, objects.value_or(EventObjects::Added(node)));
    return q.Locate("1");  // kUnschedulable: skip; kBackoff: after backoff; kActive: immediately
  };
  const std::optional<SubQueue> kSkipped = SubQueue::kUnschedulable;
  const std::optional<SubQueue> kAfterBackoff = SubQueue::kBackoff;
  const std::optional<SubQueue> kImmediately = SubQueue::kActive;

  SECTION("return Skip when no queueing hint function is registered for the event") {
    w.Plugin("fooPlugin1", kAssignedPodAdd, Returns(QueueingHint::kQueue, &count));
    CHECK(run({"fooPlugin1"}, {}, kNodeAdd) == kSkipped);
    CHECK(count == 0);
  }
  SECTION("Treat the event as Queue when QueueHintFn returns error") {
    w.Plugin("fooPlugin1", kNodeAdd, ReturnsError(&count));
    CHECK(run({"fooPlugin1"}, {}, kNodeAdd) == kAfterBackoff);
    CHECK(count == 1);
  }
  SECTION("return Queue when the event is wildcard") {
    CHECK(run({"fooPlugin1"}, {}, kUnschedulableTimeout, EventObjects()) ==
          kAfterBackoff);
  }
  SECTION(
      "return Queue when the event is wildcard and the wildcard targets the pod to be requeued right now") {
    CHECK(run({"fooPlugin1"}, {}, kForceActivate, EventObjects::Added(pod1->pod())) ==
          kAfterBackoff);
  }
  SECTION("return Skip when the event is wildcard, but the wildcard targets a different pod") {
    const api::v1::Pod other = MakePod().Name("pod-different").Namespace("ns2").UID("2").Obj();
    CHECK(run({"fooPlugin1"}, {}, kForceActivate, EventObjects::Added(other)) ==
          kSkipped);
  }
  SECTION("interprets Queue from the Pending plugin as queueImmediately") {
    w.Plugin("fooPlugin1", kNodeAdd, Returns(QueueingHint::kQueue, &count));
    w.Plugin("fooPlugin2", kNodeAdd, Returns(QueueingHint::kQueue, &count));
    w.Plugin("fooPlugin3", kNodeAdd, Returns(QueueingHint::kQueue, &count));
    w.Plugin("fooPlugin4", kNodeAdd, ReturnsError(&count));
    CHECK(run({"fooPlugin1", "fooPlugin3"}, {"fooPlugin2"}, kNodeAdd) == kImmediately);
    CHECK(count == 2);
  }
  SECTION("interprets Queue from the Unschedulable plugin as queueAfterBackoff") {
    w.Plugin("fooPlugin1", kNodeAdd, Returns(QueueingHint::kSkip, &count));
    w.Plugin("fooPlugin2", kNodeAdd, Returns(QueueingHint::kQueue, &count));
    CHECK(run({"fooPlugin1", "fooPlugin2"}, {}, kNodeAdd) == kAfterBackoff);
    CHECK(count == 2);
  }
  SECTION(
      "Queueing hint function that isn't from the plugin in UnschedulablePlugins/PendingPlugins is ignored") {
    w.Plugin("fooPlugin1", kNodeAdd, Returns(QueueingHint::kSkip, &count));
    w.Plugin("fooPlugin2", kNodeAdd, Returns(QueueingHint::kSkip, &count));
    w.Plugin("fooPlugin3", kNodeAdd, Returns(QueueingHint::kQueue, &count));
    CHECK(run({"fooPlugin1", "fooPlugin2"}, {}, kNodeAdd) == kSkipped);
    CHECK(count == 2);
  }
  SECTION(
      "If event is specific Node update event, queueing hint function for NodeUpdate/UpdateNodeLabel is also "
      "executed") {
    const ClusterEvent label{EventResource::Node(), framework::kActionUpdateNodeLabel, "NodeUpdateNodeLabel"};
    const ClusterEvent update{EventResource::Node(), framework::kActionUpdate, "NodeUpdate"};
    w.Plugin(PluginSpec{"fooPlugin1",
                        {{label, Returns(QueueingHint::kQueue, &count)},
                         {update, Returns(QueueingHint::kQueue, &count)},
                         {kNodeAdd, Returns(QueueingHint::kQueue, &count)}},
                        {}});
    w.Plugin("fooPlugin2", label, Returns(QueueingHint::kQueue, &count));
    CHECK(run({"fooPlugin1", "fooPlugin2"}, {}, label) == kAfterBackoff);
    CHECK(count == 1);
  }
  SECTION("If event with '*' Resource, queueing hint function for specified Resource is also executed") {
    w.Plugin("fooPlugin1", ClusterEvent{EventResource::Wildcard(), framework::kActionAdd, "*Add"},
             Returns(QueueingHint::kQueue, &count));
    CHECK(run({"fooPlugin1"}, {}, kNodeAdd) == kAfterBackoff);
    CHECK(count == 1);
  }
  SECTION("If event is a wildcard one, queueing hint function for all kinds of events is executed") {
    w.Plugin("fooPlugin1", kWildcard, Returns(QueueingHint::kQueue, &count));
    const ClusterEvent ev{EventResource::Node(),
                          framework::kActionUpdateNodeLabel | framework::kActionUpdateNodeTaint,
                          "NodeUpdate"};
    CHECK(run({"fooPlugin1"}, {}, ev) == kAfterBackoff);
    CHECK(count == 1);
  }
}

// v1.37 dropped the synthetic Node/UpdateNodeTaint registration (v1.35's
// workaround for kubernetes#109437): a plugin hears only what it registers.
TEST_CASE("buildQueueingHintMap: a plugin registering Node/Add no longer hears Node/UpdateNodeTaint",
          "[queue][hints]") {
  World w;
  w.Plugin("fooPlugin1", kNodeAdd, kSkip);
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod = HighPriorityPod();
  q.Add(pod);
  PopExpect(q, pod);
  q.AddUnschedulableIfNotPresent(Lookup(pod, {"fooPlugin1"}));
  q.OnClusterEvent(kNodeAdd, {});
  CHECK(q.Locate(pod->uid()) == SubQueue::kUnschedulable);
  q.OnClusterEvent(
      ClusterEvent{EventResource::Node(), framework::kActionUpdateNodeTaint, "NodeUpdateNodeTaint"}, {});
  CHECK(q.Locate(pod->uid()) == SubQueue::kUnschedulable);
}

TEST_CASE("Test_queuedPodInfo_gatedSetUponCreationAndUnsetUponUpdate", "[queue][gated]") {
  World w;
  w.Plugin(SchedulingGatesSpec());
  SchedulingQueue& q = w.Build();
  const PodInfoPtr gated = MakePod().Name("p").UID("p").SchedulingGates({"hello world"}).Info();
  q.Add(gated);
  CHECK(q.Locate("p") == SubQueue::kGated);
  CHECK(q.GetPod("p")->gating_plugin == S("SchedulingGates"));
  CHECK(q.counts().gated == 1);
  // An unrelated update does not ungate it.
  const PodInfoPtr relabelled = WithLabel(gated, "a", "b");
  q.Update(gated, relabelled);
  CHECK(q.Locate("p") == SubQueue::kGated);
  const PodInfoPtr ungated = MakePod().Name("p").UID("p").Label("a", "b").Info();
  q.Update(relabelled, ungated);
  CHECK(q.Locate("p") == SubQueue::kActive);
  std::optional<QueuedPodInfo> info = q.Pop();
  REQUIRE(info.has_value());
  CHECK(!info->gated);
  CHECK(info->gating_plugin.empty());
  CHECK(info->pod == ungated);
}

TEST_CASE("Gated pods: only the gating plugin's events re-run PreEnqueue; a wildcard re-runs it for all",
          "[queue][gated]") {
  auto allow = std::make_shared<std::atomic<bool>>(false);
  int runs = 0;
  World w;
  w.Plugin(PluginSpec{"gate", {{kNodeAdd, kQueue}}, [allow, &runs](const PodInfo&) {
                        ++runs;
                        return allow->load() ? Status()
                                             : Status::WithReasons(Code::kUnschedulable, {"closed"});
                      }});
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod = HighPriorityPod();
  q.Add(pod);
  REQUIRE(q.Locate(pod->uid()) == SubQueue::kGated);
  CHECK(runs == 1);
  q.OnClusterEvent(kAssignedPodAdd, {});  // the gate did not register it
  CHECK(runs == 1);
  q.OnClusterEvent(kNodeAdd, {});  // still closed
  CHECK(runs == 2);
  CHECK(q.Locate(pod->uid()) == SubQueue::kGated);
  allow->store(true);
  q.FlushUnschedulablePodsLeftover();  // not stale yet: nothing happens
  CHECK(runs == 2);
  w.clock.Advance(absl::Minutes(6));
  q.FlushUnschedulablePodsLeftover();
  CHECK(runs == 3);
  CHECK(q.Locate(pod->uid()) == SubQueue::kActive);
  // A gated pod never attempted has no backoff: it goes straight to activeQ.
  CHECK(q.GetPod(pod->uid())->unschedulable_count == 0);
}

}  // namespace
}  // namespace schedkit::scheduler::queue_test
