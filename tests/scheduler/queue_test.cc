// SchedulingQueue: upstream v1.35's scheduling_queue_test.go and
// active_queue_test.go, ported as facts — adding, popping, updating,
// deleting and activating pods, the unschedulable pool and its flush, and the
// queue under concurrent use. Each TEST_CASE names the upstream test it ports.
//
// Upstream tests often poke pods straight into a sub-queue; here every pod
// gets there through the public API (Add, Pop, AddUnschedulableIfNotPresent,
// events, Activate), which is how the scheduler drives the queue.
#include <catch2/catch.hpp>

#include "scheduler/queue_test_world.h"

namespace schedkit::scheduler::queue_test {
namespace {

TEST_CASE("TestPriorityQueue_Add: pops by priority; pods with a nominatedNodeName are nominated", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  q.Add(MedPriorityPod());
  q.Add(UnschedulablePod());
  q.Add(HighPriorityPod());
  CHECK(Nominated(q, "node1") == Strings{"mpp", "up"});
  PopExpect(q, HighPriorityPod());
  PopExpect(q, MedPriorityPod());
  PopExpect(q, UnschedulablePod());
  // Popping does not drop nominations.
  CHECK(Nominated(q, "node1").size() == 2);
}

TEST_CASE("TestPriorityQueue_AddWithReversePriorityLessFunc", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  q.Add(MedPriorityPod());
  q.Add(HighPriorityPod());
  PopExpect(q, HighPriorityPod());
  PopExpect(q, MedPriorityPod());
}

TEST_CASE("TestPop: a popped pod has no pending plugins", "[queue]") {
  const PodInfoPtr pod = MakePod().Name("targetpod").UID("pod1").Info();
  World w;
  w.Plugin("fooPlugin1", kPvAdd, kQueue);
  SchedulingQueue& q = w.Build();
  q.Add(pod);
  QueuedPodInfo popped = PopExpect(q, pod);
  popped.pending_plugins = {S("fooPlugin1")};
  q.AddUnschedulableIfNotPresent(popped);
  q.OnClusterEvent(kPvAdd, {});
  popped = PopExpect(q, pod);
  CHECK(popped.pending_plugins.empty());
}

TEST_CASE("TestPriorityQueue_AddUnschedulableIfNotPresent", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  q.Add(UnschedulablePod());
  PopExpect(q, UnschedulablePod());
  q.Add(HighPriNominatedPod());
  q.AddUnschedulableIfNotPresent(Lookup(UnschedulablePod(), {"plugin"}));
  PopExpect(q, HighPriNominatedPod());
  CHECK(Nominated(q, "node1") == Strings{"up", "hpp"});
  // No event arrived while it was being scheduled.
  CHECK(q.Locate("upns1") == SubQueue::kUnschedulable);
  CHECK(q.GetPod("upns1")->pod == q.PodsIn(SubQueue::kUnschedulable)[0]);
}

TEST_CASE("TestPriorityQueue_Pop: an idle queue pops from backoffQ but not from the error backoffQ",
          "[queue]") {
  const PodInfoPtr hpp2 = Pod("hpp2", "ns1", "hpp2ns1", kHighPriority);
  World w;
  SchedulingQueue& q = w.Build();
  for (const auto& p : {HighPriorityPod(), hpp2, UnschedulablePod()}) {
    q.Add(p);
    PopExpect(q, p);
  }
  // An Activate for an in-flight pod sends it to backoffQ when it comes back.
  q.Activate({"hppns1"});
  q.AddUnschedulableIfNotPresent(Lookup(HighPriorityPod(), {"plugin"}));
  q.AddUnschedulableIfNotPresent(Lookup(hpp2));                            // error backoffQ
  q.AddUnschedulableIfNotPresent(Lookup(UnschedulablePod(), {"plugin"}));  // pool
  q.Add(MedPriorityPod());
  CHECK(q.counts().backoff == 2);
  std::vector<std::string> got;
  while (auto p = q.Pop()) got.emplace_back(p->pod->name().str());
  CHECK(got == Strings{"mpp", "hpp"});
}

TEST_CASE("TestPriorityQueue_Update", "[queue]") {
  World w;
  w.Plugin("queuePlugin", kTargetPodUpdate, kQueue);
  w.Plugin("skipPlugin", kTargetPodUpdate, kSkip);
  SchedulingQueue& q = w.Build();
  const PodInfoPtr med = MedPriorityPod();
  auto into_pool = [&](const PodInfoPtr& p, const std::string& plugin) {
    q.Add(p);
    PopExpect(q, p);
    q.AddUnschedulableIfNotPresent(Lookup(p, {plugin}));
    REQUIRE(q.Locate(p->uid()) == SubQueue::kUnschedulable);
  };

  SECTION("Update pod that didn't exist in the queue") {
    PodInfoPtr updated = WithAnnotation(med, "foo", "test");
    q.Update(med, updated);
    CHECK(q.Locate(med->uid()) == SubQueue::kActive);
    CHECK(q.GetPod(med->uid())->pod == updated);
  }
  SECTION("Update highPriorityPodInfo and add a nominatedNodeName to it") {
    q.Update(HighPriorityPod(), HighPriNominatedPod());
    CHECK(q.Locate("hppns1") == SubQueue::kActive);
    CHECK(Nominated(q, "node1") == Strings{"hpp"});
  }
  SECTION("When updating a pod that is already in activeQ, the pod should remain in activeQ after Update()") {
    q.Add(HighPriorityPod());
    PodInfoPtr updated = HighPriorityPod();
    q.Update(HighPriorityPod(), updated);
    CHECK(q.Locate("hppns1") == SubQueue::kActive);
    CHECK(q.GetPod("hppns1")->pod == updated);
  }
  SECTION(
      "When updating a pod that is in backoff queue and is still backing off, it will be updated in backoff "
      "queue") {
    q.Add(med);
    PopExpect(q, med);
    q.AddUnschedulableIfNotPresent(Lookup(med));
    REQUIRE(q.Locate(med->uid()) == SubQueue::kBackoff);
    PodInfoPtr updated = MedPriorityPod();
    q.Update(med, updated);
    CHECK(q.Locate(med->uid()) == SubQueue::kBackoff);
    CHECK(q.GetPod(med->uid())->pod == updated);
  }
  SECTION(
      "when updating a pod which is in unschedulable queue and is backing off, it will be moved to backoff "
      "queue") {
    into_pool(med, "queuePlugin");
    PodInfoPtr updated = WithAnnotation(med, "foo", "test");
    q.Update(med, updated);
    CHECK(q.Locate(med->uid()) == SubQueue::kBackoff);
    CHECK(q.GetPod(med->uid())->pod == updated);
  }
  SECTION(
      "when updating a pod which is in unschedulable queue and is not backing off, it will be moved to "
      "active "
      "queue") {
    into_pool(med, "queuePlugin");
    PodInfoPtr updated = WithAnnotation(med, "foo", "test1");
    w.clock.Advance(absl::Seconds(10));
    q.Update(med, updated);
    CHECK(q.Locate(med->uid()) == SubQueue::kActive);
    CHECK(q.GetPod(med->uid())->pod == updated);
  }
  SECTION(
      "when updating a pod which is in unschedulable pods but the plugin returns skip, it will remain in "
      "unschedulablePods") {
    into_pool(med, "skipPlugin");
    PodInfoPtr updated = WithAnnotation(med, "foo", "test1");
    q.Update(med, updated);
    CHECK(q.Locate(med->uid()) == SubQueue::kUnschedulable);
    CHECK(q.GetPod(med->uid())->pod == updated);
  }
  SECTION("when updating a pod which is in flightPods, the pod will not be added to any queue") {
    q.Add(med);
    PopExpect(q, med);
    q.Update(med, WithAnnotation(med, "foo", "bar"));
    CHECK(q.Locate(med->uid()) == SubQueue::kInFlight);
    CHECK(q.counts().active + q.counts().backoff + q.counts().unschedulable == 0);
  }
}

TEST_CASE("TestPriorityQueue_Delete", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  q.Update(HighPriorityPod(), HighPriNominatedPod());
  q.Add(UnschedulablePod());
  q.Delete(*HighPriNominatedPod());
  CHECK(q.Locate("upns1") == SubQueue::kActive);
  CHECK(!q.Locate("hppns1").has_value());
  CHECK(Nominated(q, "node1") == Strings{"up"});
  q.Delete(*UnschedulablePod());
  CHECK(Nominated(q, "node1").empty());
  CHECK(q.counts().active == 0);
}

TEST_CASE("TestPriorityQueue_Activate", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod = HighPriNominatedPod();

  SECTION("pod already in activeQ") {
    q.Add(pod);
    q.Activate({pod->uid()});
    CHECK(q.counts().active == 1);
  }
  SECTION("pod not in unschedulablePods/backoffQ") {
    q.Activate({pod->uid()});
    CHECK(q.counts().active == 0);
  }
  SECTION("[QHint] pod not in unschedulablePods/backoffQ but in-flight") {
    q.Add(pod);
    PopExpect(q, pod);
    q.Activate({pod->uid()});
    CHECK(q.counts().active == 0);
    // A ForceActivate aimed at it is kept for its return.
    CHECK(q.counts().in_flight_events == 1);
    q.AddUnschedulableIfNotPresent(Lookup(pod, {"plugin"}));
    CHECK(q.Locate(pod->uid()) == SubQueue::kBackoff);
  }
  SECTION("[QHint] pod not in unschedulablePods/backoffQ and not in-flight") {
    q.Add(MedPriorityPod());
    PopExpect(q, MedPriorityPod());
    q.Activate({pod->uid()});
    CHECK(q.counts().active == 0);
    CHECK(q.counts().in_flight_events == 0);
  }
  SECTION("pod in unschedulablePods") {
    q.Add(pod);
    PopExpect(q, pod);
    q.AddUnschedulableIfNotPresent(Lookup(pod, {"plugin"}));
    REQUIRE(q.Locate(pod->uid()) == SubQueue::kUnschedulable);
    q.Activate({pod->uid()});
    CHECK(q.Locate(pod->uid()) == SubQueue::kActive);
  }
  SECTION("pod in backoffQ") {
    q.Add(pod);
    PopExpect(q, pod);
    q.AddUnschedulableIfNotPresent(Lookup(pod));
    REQUIRE(q.Locate(pod->uid()) == SubQueue::kBackoff);
    q.Activate({pod->uid()});
    CHECK(q.Locate(pod->uid()) == SubQueue::kActive);
  }
}

TEST_CASE("TestPriorityQueue_PendingPods", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  q.Add(UnschedulablePod());
  PopExpect(q, UnschedulablePod());
  q.Add(HighPriorityPod());
  PopExpect(q, HighPriorityPod());
  q.Add(MedPriorityPod());
  q.AddUnschedulableIfNotPresent(Lookup(UnschedulablePod(), {"plugin"}));
  q.AddUnschedulableIfNotPresent(Lookup(HighPriorityPod(), {"plugin"}));
  const Strings want{"hpp", "mpp", "up"};
  CHECK(Names(q.PendingPods()) == want);
  SchedulingQueue::Counts c = q.counts();
  CHECK((c.active == 1 && c.backoff == 0 && c.unschedulable == 2));
  q.OnClusterEvent(kUnschedulableTimeout, {});
  CHECK(Names(q.PendingPods()) == want);
  c = q.counts();
  CHECK((c.active == 1 && c.backoff == 2 && c.unschedulable == 0));
}

TEST_CASE("TestSchedulingQueue_Close: PopWait returns nothing once closed", "[queue][tsan]") {
  World w;
  SchedulingQueue& q = w.Build();
  std::optional<QueuedPodInfo> got = Lookup(HighPriorityPod());
  std::thread t([&] { got = q.PopWait(absl::Now() + absl::Seconds(60)); });
  absl::SleepFor(absl::Milliseconds(20));
  q.Close();
  t.join();
  CHECK(!got.has_value());
  q.Add(HighPriorityPod());
  CHECK(!q.Pop().has_value());
}

TEST_CASE("PopWait blocks until a pod arrives or the deadline passes", "[queue][tsan]") {
  World w;
  SchedulingQueue& q = w.Build();
  CHECK(!q.PopWait(absl::Now() + absl::Milliseconds(30)).has_value());
  std::optional<QueuedPodInfo> got;
  std::thread t([&] { got = q.PopWait(absl::Now() + absl::Seconds(60)); });
  absl::SleepFor(absl::Milliseconds(20));
  q.Add(HighPriorityPod());
  t.join();
  REQUIRE(got.has_value());
  CHECK(got->pod->name() == S("hpp"));
}

TEST_CASE("TestRecentlyTriedPodsGoBack", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  for (int i = 0; i < 5; ++i) {
    q.Add(Pod(StrCat("test-pod-", i), "ns1", StrCat("tp00", i), kHighPriority, "node1"));
  }
  w.clock.Advance(absl::Microseconds(1));
  QueuedPodInfo p1 = *q.Pop();
  p1.unschedulable_plugins = {S("plugin")};
  q.AddUnschedulableIfNotPresent(p1);
  w.clock.Advance(absl::Seconds(10));
  q.OnClusterEvent(kUnschedulableTimeout, {});
  for (int i = 0; i < 5; ++i) {
    std::optional<QueuedPodInfo> p = q.Pop();
    REQUIRE(p.has_value());
    CHECK((i == 4) == (p->pod->uid() == p1.pod->uid()));
  }
}

TEST_CASE("TestPodFailedSchedulingMultipleTimesDoesNotBlockNewerPod", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  const PodInfoPtr unsched = Pod("test-pod-unscheduled", "ns1", "tp001", kHighPriority, "node1");
  q.Add(unsched);
  PopExpect(q, unsched);
  q.AddUnschedulableIfNotPresent(Lookup(unsched, {"plugin"}));
  w.clock.Advance(absl::Seconds(2));
  q.OnClusterEvent(kUnschedulableTimeout, {});
  PopExpect(q, unsched);
  // A newer pod arrives while the old one is being scheduled...
  const PodInfoPtr newer = Pod("test-newer-pod", "ns1", "tp002", kHighPriority, "node1");
  q.Add(newer);
  // ...which fails again.
  q.AddUnschedulableIfNotPresent(Lookup(unsched, {"plugin"}));
  w.clock.Advance(absl::Seconds(2));
  q.OnClusterEvent(kUnschedulableTimeout, {});
  PopExpect(q, newer);
}

TEST_CASE("TestHighPriorityFlushUnschedulablePodsLeftover", "[queue]") {
  World w;
  w.Plugin("fakePlugin", kNodeAdd, kQueue);
  SchedulingQueue& q = w.Build();
  const PodInfoPtr mid = Pod("test-midpod", "ns1", "tp-mid", kMidPriority, "node1");
  const PodInfoPtr high = Pod("test-highpod", "ns1", "tp-high", kHighPriority, "node1");
  q.Add(high);
  PopExpect(q, high);
  q.Add(mid);
  PopExpect(q, mid);
  q.AddUnschedulableIfNotPresent(Lookup(high, {"fakePlugin"}));
  q.AddUnschedulableIfNotPresent(Lookup(mid, {"fakePlugin"}));
  w.clock.Advance(absl::Minutes(5) + absl::Seconds(1));
  q.FlushUnschedulablePodsLeftover();
  PopExpect(q, high);
  PopExpect(q, mid);
}

TEST_CASE("TestPriorityQueue_initPodMaxInUnschedulablePodsDuration", "[queue]") {
  for (absl::Duration max : {absl::Minutes(5), absl::Seconds(30)}) {
    World w;
    w.options.pod_max_in_unschedulable_pods = max;
    SchedulingQueue& q = w.Build();
    const PodInfoPtr pod1 = Pod("test-pod-1", "ns1", "tp-1", 0, "node1");
    const PodInfoPtr pod2 = Pod("test-pod-2", "ns2", "tp-2", 0, "node2");
    q.Add(pod1);
    q.Add(pod2);
    QueuedPodInfo info1 = PopExpect(q, pod1);
    QueuedPodInfo info2 = PopExpect(q, pod2);
    info1.unschedulable_plugins = {S("plugin")};
    info2.unschedulable_plugins = {S("plugin")};
    q.AddUnschedulableIfNotPresent(info2);  // pod2 fails first: older
    w.clock.Advance(absl::Seconds(1));
    q.AddUnschedulableIfNotPresent(info1);
    w.clock.Advance(max);
    q.FlushUnschedulablePodsLeftover();
    CHECK(q.counts().active == 1);  // only pod2 stayed longer than max
    w.clock.Advance(absl::Seconds(1));
    q.FlushUnschedulablePodsLeftover();
    CHECK(q.counts().active == 2);
    QueuedPodInfo first = PopExpect(q, pod2);
    PopExpect(q, pod1);
    CHECK(first.attempts == 2);
  }
}

TEST_CASE("TestPodTimestamp: pods moved back to activeQ keep the order of their timestamps", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod1 = Pod("test-pod-1", "ns1", "tp-1", 0, "node1");
  const PodInfoPtr pod2 = Pod("test-pod-2", "ns2", "tp-2", 0, "node2");
  q.Add(pod2);
  q.Add(pod1);
  PopExpect(q, pod2);
  PopExpect(q, pod1);
  const absl::Time t0 = w.clock.Now();
  q.AddUnschedulableIfNotPresent(Lookup(pod1, {"plugin"}));
  w.clock.Advance(absl::Seconds(1));
  q.AddUnschedulableIfNotPresent(Lookup(pod2, {"plugin"}));
  CHECK(q.GetPod("tp-1")->timestamp == t0);
  CHECK(q.GetPod("tp-2")->timestamp == t0 + absl::Seconds(1));
  CHECK(q.GetPod("tp-2")->last_failure == t0 + absl::Seconds(1));
  w.clock.Advance(absl::Seconds(3));
  q.OnClusterEvent(kUnschedulableTimeout, {});
  CHECK(Names(q.PodsIn(SubQueue::kActive), false) == Strings{"test-pod-1", "test-pod-2"});
  // Moving to activeQ does not refresh the timestamp.
  CHECK(q.GetPod("tp-1")->timestamp == t0);
}

// schedkit-specific, from a conformance failure
// (regressions/backoff-ties-by-last-failure): upstream stamps a pod when it
// enters the queue and when it fails, so among equal priorities and equal
// clocks the pod that failed first leaves backoffQ, and then activeQ, first,
// whatever the order the pods were first added in.
TEST_CASE("Equal timestamps: pods leave backoffQ and activeQ in the order of their last failures", "[queue]") {
  World w;
  w.Plugin("plugin", kPvAdd, kQueue);
  SchedulingQueue& q = w.Build();
  const PodInfoPtr a = Pod("a", "ns1", "a", kHighPriority);
  const PodInfoPtr b = Pod("b", "ns1", "b", kHighPriority);
  const PodInfoPtr c = Pod("c", "ns1", "c", kHighPriority);
  for (const auto& p : {a, b, c}) q.Add(p);
  QueuedPodInfo ia = PopExpect(q, a);
  QueuedPodInfo ib = PopExpect(q, b);
  QueuedPodInfo ic = PopExpect(q, c);
  // The clock stands still; b fails, then c, then a.
  for (QueuedPodInfo* info : {&ib, &ic, &ia}) {
    info->unschedulable_plugins = {S("plugin")};
    q.AddUnschedulableIfNotPresent(*info);
  }
  q.OnClusterEvent(kPvAdd, {});
  REQUIRE(q.counts().backoff == 3);
  SECTION("backoffQ, popped while activeQ is empty") {
    std::vector<std::string> got;
    while (auto p = q.Pop()) got.emplace_back(p->pod->name().str());
    CHECK(got == Strings{"b", "c", "a"});
  }
  SECTION("activeQ, once their backoff is over") {
    w.clock.Advance(absl::Seconds(20));
    q.FlushBackoffQCompleted();
    REQUIRE(q.counts().active == 3);
    CHECK(Names(q.PodsIn(SubQueue::kActive), false) == Strings{"b", "c", "a"});
    std::vector<std::string> got;
    while (auto p = q.Pop()) got.emplace_back(p->pod->name().str());
    CHECK(got == Strings{"b", "c", "a"});
  }
}

TEST_CASE("TestPriorityQueue_GetPod", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  const PodInfoPtr active = MakePod().Name("pod1").Info();
  const PodInfoPtr backoff = MakePod().Name("pod2").Info();
  const PodInfoPtr unsched = MakePod().Name("pod3").Info();
  q.Add(backoff);
  PopExpect(q, backoff);
  q.AddUnschedulableIfNotPresent(Lookup(backoff));
  q.Add(unsched);
  PopExpect(q, unsched);
  q.AddUnschedulableIfNotPresent(Lookup(unsched, {"plugin"}));
  q.Add(active);
  CHECK(q.GetPod("pod1")->pod == active);
  CHECK(q.GetPod("pod2")->pod == backoff);
  CHECK(q.GetPod("pod3")->pod == unsched);
  CHECK(!q.GetPod("pod4").has_value());
}

TEST_CASE("QueuedPodInfo bookkeeping across attempts", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod = HighPriorityPod();
  const absl::Time t0 = w.clock.Now();
  q.Add(pod);
  CHECK(q.GetPod(pod->uid())->timestamp == t0);
  CHECK(q.GetPod(pod->uid())->initial_attempt_timestamp == t0);
  w.clock.Advance(absl::Seconds(5));
  QueuedPodInfo info = PopExpect(q, pod);
  CHECK(info.attempts == 1);
  // An error counts consecutive errors only.
  q.AddUnschedulableIfNotPresent(info);
  info = *q.GetPod(pod->uid());
  CHECK((info.consecutive_errors == 1 && info.unschedulable_count == 0));
  CHECK(info.timestamp == t0 + absl::Seconds(5));
  CHECK(info.last_failure == t0 + absl::Seconds(5));
  w.clock.Advance(absl::Seconds(5));
  q.FlushBackoffQCompleted();
  info = PopExpect(q, pod);
  CHECK(info.attempts == 2);
  // A rejection resets the error count.
  info.unschedulable_plugins = {S("plugin")};
  q.AddUnschedulableIfNotPresent(info);
  info = *q.GetPod(pod->uid());
  CHECK((info.consecutive_errors == 0 && info.unschedulable_count == 1));
  CHECK(info.initial_attempt_timestamp == t0);
  // Adding it again while held does not duplicate it.
  q.AddUnschedulableIfNotPresent(info);
  CHECK(q.counts().unschedulable == 1);
}

// schedkit-specific: a QueueSort plugin that gives ranks leads to the same pop
// order as one that only answers Less, through adds, priority updates in
// activeQ and backoffQ, failures, backoff and events.
TEST_CASE("Cached QueueSort ranks pop in Less's order", "[queue]") {
  auto run = [](bool ranked) {
    World w;
    w.sort.ranked = ranked;
    w.Plugin("fooPlugin", kNodeAdd, kQueue);
    SchedulingQueue& q = w.Build();
    std::vector<std::string> order;
    std::map<std::string, PodInfoPtr> live;
    uint32_t x = 12345;
    auto next = [&x](uint32_t mod) {
      x = x * 1103515245u + 12345u;
      return (x >> 16) % mod;
    };
    for (int step = 0; step < 600; ++step) {
      switch (next(6)) {
        case 0:
        case 1: {
          const std::string name = StrCat("p", step);
          PodInfoPtr p = MakePod().Name(name).Namespace("ns").UID(name).Priority(
              static_cast<int32_t>(next(4)) - 1).Info();
          live[name] = p;
          q.Add(p);
          break;
        }
        case 2: {  // a priority change of a waiting pod
          if (live.empty()) break;
          auto it = std::next(live.begin(), next(static_cast<uint32_t>(live.size())));
          api::v1::Pod copy = it->second->pod();
          copy.mutable_spec()->set_priority(static_cast<int32_t>(next(4)) - 1);
          PodInfoPtr updated = *PodInfo::Create(copy);
          q.Update(it->second, updated);
          it->second = updated;
          break;
        }
        case 3: {  // pop and fail: back through backoff or the pool
          std::optional<QueuedPodInfo> p = q.Pop();
          if (!p) break;
          order.push_back(StrCat("fail:", p->pod->name().str()));
          if (next(2) == 0) p->unschedulable_plugins.insert(S("fooPlugin"));
          live[std::string(p->pod->name().str())] = p->pod;
          q.AddUnschedulableIfNotPresent(*std::move(p));
          break;
        }
        case 4: {  // pop and schedule
          std::optional<QueuedPodInfo> p = q.Pop();
          if (!p) break;
          order.emplace_back(p->pod->name().str());
          live.erase(std::string(p->pod->name().str()));
          q.Done(p->pod->uid());
          break;
        }
        default:
          w.clock.Advance(absl::Milliseconds(700));
          if (next(3) == 0) q.OnClusterEvent(kNodeAdd, {});
          q.FlushBackoffQCompleted();
          break;
      }
    }
    return order;
  };
  const std::vector<std::string> with_less = run(false);
  const std::vector<std::string> with_ranks = run(true);
  CHECK(with_less.size() > 150);
  CHECK(with_ranks == with_less);
}

// Several threads add, pop, fail and finish pods while events, activations
// and flushes run; every pod must come out scheduled exactly once.
TEST_CASE("Concurrent adds, pops, failures and events", "[queue][tsan]") {
  constexpr int kProducers = 2, kPodsPerProducer = 300, kWorkers = 3, kMaxFailures = 3;
  constexpr int kTotal = kProducers * kPodsPerProducer;
  std::atomic<int> hint_calls{0};
  World w;
  w.Plugin(PluginSpec{"fooPlugin",
                      {{kNodeAdd,
                        [&hint_calls](const PodInfo&, const EventObjects&) -> absl::StatusOr<QueueingHint> {
                          hint_calls.fetch_add(1, std::memory_order_relaxed);
                          return QueueingHint::kQueue;
                        }}},
                      {}});
  SchedulingQueue& q = w.Build();

  std::atomic<int> scheduled{0};
  std::atomic<int> failures{0};
  std::atomic<bool> stop{false};
  std::mutex seen_mu;
  std::set<std::string> seen;
  bool duplicate = false;

  std::vector<std::thread> threads;
  for (int p = 0; p < kProducers; ++p) {
    threads.emplace_back([&, p] {
      for (int i = 0; i < kPodsPerProducer; ++i) {
        const std::string name = StrCat("pod-", p, "-", i);
        q.Add(MakePod()
                  .Name(name)
                  .Namespace("ns")
                  .Priority(i % 7)
                  .NominatedNodeName(i % 5 == 0 ? "n1" : "")
                  .Info());
      }
    });
  }
  for (int k = 0; k < kWorkers; ++k) {
    threads.emplace_back([&, k] {
      int n = 0;
      while (!stop.load()) {
        std::optional<QueuedPodInfo> info = q.PopWait(absl::Now() + absl::Milliseconds(5));
        if (!info.has_value()) continue;
        (void)q.NominatedPodsForNode(S("n1"));
        ++n;
        if (info->attempts <= kMaxFailures && (n + k) % 3 != 0) {
          if ((n + k) % 2 == 0) info->unschedulable_plugins.insert(S("fooPlugin"));
          q.AddUnschedulableIfNotPresent(*std::move(info));
          failures.fetch_add(1);
          continue;
        }
        {
          std::lock_guard<std::mutex> lock(seen_mu);
          duplicate |= !seen.insert(info->pod->key()).second;
        }
        q.DeleteNominatedPodIfExists(*info->pod);
        q.Done(info->pod->uid());
        scheduled.fetch_add(1);
      }
    });
  }
  threads.emplace_back([&] {
    int round = 0;
    while (!stop.load()) {
      q.OnClusterEvent(kNodeAdd, {});
      if (++round % 4 == 0) {
        std::vector<framework::PodInfoPtr> pending = q.PendingPods();
        std::vector<std::string> uids;
        for (size_t i = 0; i < pending.size(); i += 3) uids.push_back(pending[i]->uid());
        q.Activate(uids);
      }
      w.clock.Advance(absl::Seconds(1));
      q.FlushBackoffQCompleted();
      q.FlushUnschedulablePodsLeftover();
      (void)q.counts();
      absl::SleepFor(absl::Microseconds(200));
    }
  });

  const absl::Time give_up = absl::Now() + absl::Seconds(120);
  while (scheduled.load() < kTotal && absl::Now() < give_up) absl::SleepFor(absl::Milliseconds(5));
  stop.store(true);
  for (auto& t : threads) t.join();
  q.Close();

  CHECK(scheduled.load() == kTotal);
  CHECK(!duplicate);
  const SchedulingQueue::Counts c = q.counts();
  CHECK(c.active + c.backoff + c.unschedulable + c.gated == 0);
  CHECK(failures.load() > kTotal / 2);
  CHECK(hint_calls.load() > 0);
}

}  // namespace
}  // namespace schedkit::scheduler::queue_test
