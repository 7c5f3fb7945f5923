// Backoff: the pure functions of scheduler/backoff.h against upstream's
// backoff_queue_test.go tables, then backoffQ as the queue runs it — expiry,
// flush and the ordering window.
#include <catch2/catch.hpp>

#include "scheduler/backoff.h"
#include "scheduler/queue_test_world.h"

namespace schedkit::scheduler::queue_test {
namespace {

// ---- the pure functions

TEST_CASE("calculateBackoffDuration: initial doubled per failure, capped at max, without overflow",
          "[backoff]") {
  // Upstream's TestBackoffQueue_calculateBackoffDuration, on BackoffPolicy alone.
  struct Case {
    absl::Duration initial, max;
    int count;
    absl::Duration want;
  };
  const int64_t kMaxInt32 = std::numeric_limits<int32_t>::max();
  const int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();
  for (const Case& c : std::vector<Case>{
           {absl::Nanoseconds(1), absl::Nanoseconds(32), 0, absl::ZeroDuration()},     // no backoff
           {absl::Nanoseconds(3), absl::Nanoseconds(1000), 5, absl::Nanoseconds(48)},  // normal
           {absl::Nanoseconds(1), absl::Nanoseconds(32), 16, absl::Nanoseconds(32)},   // hitting max
           {absl::Nanoseconds(1), absl::Nanoseconds(kMaxInt32), 32, absl::Nanoseconds(kMaxInt32)},
           {absl::Nanoseconds(1), absl::Nanoseconds(kMaxInt64), 64, absl::Nanoseconds(kMaxInt64)},
           // schedkit's edges: a negative count, a shift of exactly 62 and far past 63.
           {absl::Seconds(1), absl::Seconds(10), -3, absl::ZeroDuration()},
           {absl::Nanoseconds(1), absl::Nanoseconds(kMaxInt64), 63, absl::Nanoseconds(int64_t{1} << 62)},
           {absl::Seconds(1), absl::Seconds(10), 1000, absl::Seconds(10)},
       }) {
    CAPTURE(c.count);
    CHECK(BackoffPolicy{c.initial, c.max}.DurationForCount(c.count) == c.want);
  }
}

TEST_CASE("BackoffCount: consecutive errors win over unschedulable attempts", "[backoff]") {
  QueuedPodInfo info;
  CHECK(BackoffCount(info) == 0);
  info.unschedulable_count = 5;
  CHECK(BackoffCount(info) == 5);
  info.consecutive_errors = 2;
  CHECK(BackoffCount(info) == 2);
}

TEST_CASE("Backoff expiry: counted from the timestamp, truncated to the ordering window", "[backoff]") {
  const BackoffPolicy policy{absl::Seconds(1), absl::Seconds(10)};
  QueuedPodInfo info;
  info.timestamp = absl::FromUnixMillis(100'300);
  CHECK(policy.Expiry(info) == absl::InfinitePast());  // no failure yet: no backoff owed
  info.unschedulable_count = 2;                         // 2 s
  CHECK(policy.Expiry(info) == absl::FromUnixSeconds(102));
  info.unschedulable_count = 9;  // capped at 10 s
  CHECK(policy.Expiry(info) == absl::FromUnixSeconds(110));
  // A max of zero turns backoff off.
  CHECK(BackoffPolicy{absl::Seconds(1), absl::ZeroDuration()}.Expiry(info) == absl::InfinitePast());

  CHECK(AlignToWindow(absl::FromUnixMillis(102'999)) == absl::FromUnixSeconds(102));
  CHECK(AlignToWindow(absl::FromUnixSeconds(102)) == absl::FromUnixSeconds(102));
  CHECK(AlignToWindow(absl::FromUnixMillis(-1)) == absl::FromUnixSeconds(-1));
}

TEST_CASE("BackingOffUntil: a pod backs off until the window after its expiry's begins", "[backoff]") {
  const absl::Time expiry = absl::FromUnixSeconds(102);
  CHECK(BackingOffUntil(expiry, absl::FromUnixMillis(101'999)));
  CHECK(BackingOffUntil(expiry, absl::FromUnixSeconds(102)));
  CHECK(BackingOffUntil(expiry, absl::FromUnixMillis(102'999)));
  CHECK_FALSE(BackingOffUntil(expiry, absl::FromUnixSeconds(103)));
  CHECK_FALSE(BackingOffUntil(absl::InfinitePast(), absl::FromUnixSeconds(0)));
}

// ---- backoffQ in the queue

TEST_CASE("TestPriorityQueue_AddUnschedulableIfNotPresent_Backoff", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  std::vector<PodInfoPtr> pods;
  for (int i = 0; i < 10; ++i) {
    pods.push_back(Pod(StrCat("pod", i), StrCat("ns", i), StrCat("upns", i), i));
    q.Add(pods.back());
  }
  for (int i = 9; i > 0; --i) PopExpect(q, pods[i]);
  // A move request while they are being scheduled.
  q.OnClusterEvent(kUnschedulableTimeout, {});
  PopExpect(q, pods[0]);
  for (int i = 1; i < 10; ++i) q.AddUnschedulableIfNotPresent(Lookup(pods[i], {"plugin"}));
  // The request is replayed: each goes to backoffQ instead of the pool.
  for (int i = 1; i < 10; ++i) CHECK(q.Locate(pods[i]->uid()) == SubQueue::kBackoff);
}

TEST_CASE("TestPriorityQueue_NewWithOptions", "[queue][backoff]") {
  World w;
  w.options.pod_initial_backoff = absl::Seconds(2);
  w.options.pod_max_backoff = absl::Seconds(20);
  SchedulingQueue& q = w.Build();
  QueuedPodInfo info = Lookup(HighPriorityPod());
  info.unschedulable_count = 1;
  CHECK(q.BackoffDuration(info) == absl::Seconds(2));
  info.unschedulable_count = 10;
  CHECK(q.BackoffDuration(info) == absl::Seconds(20));
}

TEST_CASE("TestHighPriorityBackoff", "[queue]") {
  World w;
  SchedulingQueue& q = w.Build();
  const PodInfoPtr mid = Pod("test-midpod", "ns1", "tp-mid", kMidPriority, "node1");
  const PodInfoPtr high = Pod("test-highpod", "ns1", "tp-high", kHighPriority, "node1");
  q.Add(mid);
  q.Add(high);
  PopExpect(q, high);
  q.AddUnschedulableIfNotPresent(Lookup(high, {"fooPlugin"}));
  q.OnClusterEvent(kUnschedulableTimeout, {});
  // high is backing off.
  PopExpect(q, mid);
}

TEST_CASE("TestBackOffFlow", "[queue][backoff]") {
  const std::vector<absl::Duration> steps = {absl::Seconds(1), absl::Seconds(2),  absl::Seconds(4),
                                             absl::Seconds(8), absl::Seconds(10), absl::Seconds(10),
                                             absl::Seconds(10)};
  World w;
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod = MakePod().Name("test-pod").Namespace("test-ns").UID("test-uid").Info();
  q.Add(pod);
  for (size_t i = 0; i < steps.size(); ++i) {
    INFO("step " << i);
    const absl::Time timestamp = w.clock.Now();
    QueuedPodInfo info = PopExpect(q, pod);
    CHECK(info.attempts == static_cast<int>(i) + 1);
    info.unschedulable_plugins.insert(S("unsched-plugin"));
    q.AddUnschedulableIfNotPresent(info);
    q.OnClusterEvent(kUnschedulableTimeout, {});
    REQUIRE(q.Locate("test-uid") == SubQueue::kBackoff);
    std::optional<QueuedPodInfo> queued = q.GetPod("test-uid");
    CHECK(queued->unschedulable_count == static_cast<int>(i) + 1);
    CHECK(q.BackoffDuration(*queued) == steps[i]);
    // The expiry is rounded to the ordering window, and the pod stays out
    // for the whole window its expiry falls in.
    CHECK(q.NextBackoffExpiry() - timestamp == steps[i] + absl::Seconds(1));
    w.clock.Advance(absl::Seconds(1));
    q.FlushBackoffQCompleted();
    CHECK(q.Locate("test-uid") == SubQueue::kBackoff);
    w.clock.Advance(steps[i]);
    q.FlushBackoffQCompleted();
    CHECK(q.Locate("test-uid") == SubQueue::kActive);
  }
}

TEST_CASE("TestBackoffQueue_getBackoffTime", "[queue][backoff]") {
  World w;
  w.options.pod_initial_backoff = absl::Seconds(1);
  w.options.pod_max_backoff = absl::Seconds(32);
  SchedulingQueue& q = w.Build();
  QueuedPodInfo info;
  CHECK(q.BackoffDuration(info) == absl::ZeroDuration());  // no backoff
  info.unschedulable_count = 16;
  CHECK(q.BackoffDuration(info) == absl::Seconds(32));  // by UnschedulableCount
  info.unschedulable_count = 5;
  info.consecutive_errors = 16;
  CHECK(q.BackoffDuration(info) == absl::Seconds(32));  // ConsecutiveErrorsCount wins
  info.consecutive_errors = 1;
  CHECK(q.BackoffDuration(info) == absl::Seconds(1));
}

TEST_CASE("TestBackoffQueue_getBackoffTime: zero maxBackoffDuration means no backoff", "[queue][backoff]") {
  World w;
  w.options.pod_initial_backoff = absl::ZeroDuration();
  w.options.pod_max_backoff = absl::ZeroDuration();
  SchedulingQueue& q = w.Build();
  const PodInfoPtr pod = HighPriorityPod();
  q.Add(pod);
  PopExpect(q, pod);
  q.Activate({pod->uid()});  // requeue it as soon as it comes back
  q.AddUnschedulableIfNotPresent(Lookup(pod, {"plugin"}));
  CHECK(q.Locate(pod->uid()) == SubQueue::kActive);
}

// Puts `pod` into backoffQ at the clock's current time: popped, then failed
// with an Activate replayed on its return (errors, when `error`).
void IntoBackoff(SchedulingQueue& q, const PodInfoPtr& pod, bool error = false) {
  q.Add(pod);
  PopExpect(q, pod);
  q.Activate({pod->uid()});
  q.AddUnschedulableIfNotPresent(error ? Lookup(pod) : Lookup(pod, {"plugin"}));
  REQUIRE(q.Locate(pod->uid()) == SubQueue::kBackoff);
}

TEST_CASE("TestBackoffQueue_popAllBackoffCompleted", "[queue][backoff]") {
  const PodInfoPtr pod0 = MakePod().Name("pod0").Info();  // unschedulable, failed 2 s before the flush
  const PodInfoPtr pod1 = MakePod().Name("pod1").Info();  // unschedulable, failed just now
  const PodInfoPtr pod2 = MakePod().Name("pod2").Info();  // error, 2 s before
  const PodInfoPtr pod3 = MakePod().Name("pod3").Info();  // error, just now
  auto run = [](std::vector<std::pair<PodInfoPtr, bool>> early, std::vector<std::pair<PodInfoPtr, bool>> late,
                Strings want) {
    World w;
    SchedulingQueue& q = w.Build();
    for (auto& [p, error] : early) IntoBackoff(q, p, error);
    w.clock.Advance(absl::Seconds(3));
    for (auto& [p, error] : late) IntoBackoff(q, p, error);
    q.FlushBackoffQCompleted();
    CHECK(Names(q.PodsIn(SubQueue::kActive)) == want);
    CHECK(q.counts().backoff == static_cast<int>(early.size() + late.size() - want.size()));
  };
  SECTION("Both queues empty, no pods moved to activeQ") { run({}, {}, {}); }
  SECTION("Pods only in backoffQ, some pods moved to activeQ") {
    run({{pod0, false}}, {{pod1, false}}, {"pod0"});
  }
  SECTION("Pods only in errorBackoffQ, some pods moved to activeQ") {
    run({{pod2, true}}, {{pod3, true}}, {"pod2"});
  }
  SECTION("Pods in both queues, some pods moved to activeQ") {
    run({{pod0, false}, {pod2, true}}, {{pod1, false}, {pod3, true}}, {"pod0", "pod2"});
  }
  SECTION("Pods in both queues, all pods moved to activeQ") {
    run({{pod0, false}, {pod2, true}}, {}, {"pod0", "pod2"});
  }
  SECTION("Pods in both queues, no pods moved to activeQ") { run({}, {{pod1, false}, {pod3, true}}, {}); }
}

TEST_CASE("TestBackoffQueueOrdering: within a window backoffQ orders like activeQ", "[queue][backoff]") {
  World w;
  SchedulingQueue& q = w.Build();
  auto pod = [](const std::string& name, int32_t prio) { return MakePod().Name(name).Priority(prio).Info(); };
  // Failures at T-3, T-2, T-2+1ms, T-1 and T (the clock starts on a whole second).
  IntoBackoff(q, pod("pod5", 1));
  w.clock.Advance(absl::Seconds(1));
  IntoBackoff(q, pod("pod3", 1));
  IntoBackoff(q, pod("pod4", 2));
  w.clock.Advance(absl::Milliseconds(1));
  IntoBackoff(q, pod("pod2", 2));
  w.clock.Advance(absl::Seconds(1) - absl::Milliseconds(1));
  IntoBackoff(q, pod("pod1", 1));
  w.clock.Advance(absl::Seconds(1));
  IntoBackoff(q, pod("pod0", 1));
  CHECK(Names(q.PodsIn(SubQueue::kBackoff), false) ==
        Strings{"pod5", "pod4", "pod2", "pod3", "pod1", "pod0"});
  // With activeQ empty, Pop takes backoffQ's head even before its backoff ends.
  std::vector<std::string> popped;
  while (auto p = q.Pop()) popped.emplace_back(p->pod->name().str());
  CHECK(popped == Strings{"pod5", "pod4", "pod2", "pod3", "pod1", "pod0"});
}

}  // namespace
}  // namespace schedkit::scheduler::queue_test
