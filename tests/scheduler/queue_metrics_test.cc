// The queue's metrics (upstream's TestPendingPodsMetric and
// TestPerPodSchedulingMetrics): pending pods per sub-queue and per-pod
// attempt bookkeeping.
#include <catch2/catch.hpp>

#include "scheduler/queue_test_world.h"

namespace schedkit::scheduler::queue_test {
namespace {

TEST_CASE("TestPendingPodsMetric", "[queue][metrics]") {
  World w;
  w.Plugin(PluginSpec{"preEnqueuePlugin", {{kTargetPodUpdate, kQueue}}, AllowLabels({"queueable"})});
  SchedulingQueue& q = w.Build();
  std::vector<PodInfoPtr> queueable, failme;
  for (int i = 1; i <= 50; ++i) {
    queueable.push_back(MakePod()
                            .Name(StrCat("x-", i))
                            .Namespace(StrCat("ns", i))
                            .UID(StrCat("x-", i))
                            .Label("queueable", "")
                            .Info());
  }
  for (int i = 1; i <= 10; ++i) {
    failme.push_back(MakePod()
                         .Name(StrCat("y-", i))
                         .Namespace(StrCat("ns", i))
                         .UID(StrCat("y-", i))
                         .Label("failme", "")
                         .Info());
  }
  // Into the pool after a rejection; failme pods are gated on Add.
  auto to_pool = [&](const PodInfoPtr& p) {
    q.Add(p);
    if (q.Locate(p->uid()) == SubQueue::kGated) return;
    PopExpect(q, p);
    q.AddUnschedulableIfNotPresent(Lookup(p, {"preEnqueuePlugin"}));
  };
  auto pending = [&] {
    auto m = w.metrics.pending();
    return std::vector<int64_t>{m["active"], m["backoff"], m["unschedulable"], m["gated"]};
  };
  using Ints = std::vector<int64_t>;

  SECTION("add pods to activeQ and unschedulablePods") {
    for (int i = 30; i < 50; ++i) to_pool(queueable[i]);
    for (const auto& p : failme) to_pool(p);
    for (int i = 0; i < 30; ++i) q.Add(queueable[i]);
    CHECK(pending() == Ints{30, 0, 20, 10});
  }
  SECTION("add pods to unschedulablePods and then move all to activeQ") {
    for (const auto& p : queueable) to_pool(p);
    for (const auto& p : failme) to_pool(p);
    w.clock.Advance(absl::Seconds(3));
    q.OnClusterEvent(kUnschedulableTimeout, {});
    CHECK(pending() == Ints{50, 0, 0, 10});
  }
  SECTION("make some pods subject to backoff, add pods to unschedulablePods, and then move all to activeQ") {
    for (int i = 20; i < 50; ++i) to_pool(queueable[i]);
    for (const auto& p : failme) to_pool(p);
    w.clock.Advance(absl::Seconds(3));
    for (int i = 0; i < 20; ++i) to_pool(queueable[i]);
    q.OnClusterEvent(kUnschedulableTimeout, {});
    CHECK(pending() == Ints{30, 20, 0, 10});
  }
  SECTION("add pods to activeQ/unschedulablePods and then delete some Pods") {
    for (int i = 30; i < 50; ++i) to_pool(queueable[i]);
    for (const auto& p : failme) to_pool(p);
    for (int i = 0; i < 30; ++i) q.Add(queueable[i]);
    for (int i : {0, 1, 30, 31, 32}) q.Delete(*queueable[i]);
    for (int i : {0, 1, 2, 3}) q.Delete(*failme[i]);
    CHECK(pending() == Ints{28, 0, 17, 6});
  }
  SECTION("add pods to activeQ/unschedulablePods and then update some Pods as queueable") {
    for (int i = 30; i < 50; ++i) to_pool(queueable[i]);
    for (const auto& p : failme) to_pool(p);
    for (int i = 0; i < 30; ++i) q.Add(queueable[i]);
    for (int i = 0; i < 5; ++i) q.Update(failme[i], WithLabel(failme[i], "queueable", ""));
    CHECK(pending() == Ints{35, 0, 20, 5});
  }
}

TEST_CASE("TestPerPodSchedulingMetrics", "[queue][metrics]") {
  World w;
  const PodInfoPtr pod = MakePod().Name("test-pod").Namespace("test-ns").UID("test-uid").Info();
  const absl::Time t0 = w.clock.Now();
  int want_attempts = 0;
  absl::Time want_initial;

  SECTION("pod is created and scheduled after 1 attempt") {
    SchedulingQueue& q = w.Build();
    q.Add(pod);
    want_attempts = 1;
    want_initial = t0;
  }
  SECTION("pod is created and scheduled after 2 attempts") {
    SchedulingQueue& q = w.Build();
    q.Add(pod);
    QueuedPodInfo info = *q.Pop();
    info.unschedulable_plugins = {S("plugin")};
    q.AddUnschedulableIfNotPresent(info);
    w.clock.Advance(absl::Minutes(5) + absl::Nanoseconds(1));
    q.FlushUnschedulablePodsLeftover();
    want_attempts = 2;
    want_initial = t0;
  }
  SECTION("pod is created and scheduled after 2 attempts but before the second pop, call update") {
    SchedulingQueue& q = w.Build();
    q.Add(pod);
    QueuedPodInfo info = *q.Pop();
    info.unschedulable_plugins = {S("plugin")};
    q.AddUnschedulableIfNotPresent(info);
    w.clock.Advance(absl::Minutes(5) + absl::Nanoseconds(1));
    q.FlushUnschedulablePodsLeftover();
    q.Update(pod, WithAnnotation(pod, "generation", "1"));
    want_attempts = 2;
    want_initial = t0;
  }
  SECTION("A gated pod is created and scheduled after lifting gate") {
    w.Plugin(PluginSpec{"preEnqueuePlugin", {{kWildcard, {}}}, AllowLabels({"foo"})});
    SchedulingQueue& q = w.Build();
    q.Add(pod);
    CHECK(q.Locate(pod->uid()) == SubQueue::kGated);
    w.clock.Advance(absl::Minutes(1));
    q.Update(pod, WithLabel(pod, "foo", ""));
    want_attempts = 1;
    want_initial = t0 + absl::Minutes(1);
  }
  std::optional<QueuedPodInfo> info = w.queue->Pop();
  REQUIRE(info.has_value());
  CHECK(info->attempts == want_attempts);
  CHECK(info->initial_attempt_timestamp == want_initial);
}

TEST_CASE("Pending-pod metrics follow every change", "[queue][metrics]") {
  World w;
  SchedulingQueue& q = w.Build();
  auto m = w.metrics.pending();
  CHECK(m ==
        std::map<std::string, int64_t>{{"active", 0}, {"backoff", 0}, {"gated", 0}, {"unschedulable", 0}});
  q.Add(HighPriorityPod());
  CHECK(w.metrics.pending()["active"] == 1);
  QueuedPodInfo info = *q.Pop();
  CHECK(w.metrics.pending()["active"] == 0);
  q.AddUnschedulableIfNotPresent(info);
  CHECK(w.metrics.pending()["backoff"] == 1);
  w.clock.Advance(absl::Seconds(2));
  q.FlushBackoffQCompleted();
  CHECK(w.metrics.pending()["backoff"] == 0);
  CHECK(w.metrics.pending()["active"] == 1);
}

}  // namespace
}  // namespace schedkit::scheduler::queue_test
