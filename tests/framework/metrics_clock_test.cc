// PrometheusRecorder output shape and upstream metric names; FakeClock timers.
#include <catch2/catch.hpp>

#include <condition_variable>
#include <mutex>

#include "schedkit/framework/clock.h"
#include "schedkit/framework/metrics.h"

namespace schedkit::framework {
namespace {

TEST_CASE("Prometheus exposition uses upstream's names, labels and buckets", "[metrics]") {
  PrometheusRecorder m;
  m.ObserveExtensionPoint(ExtensionPoint::kFilter, Code::kSuccess, "default-scheduler", absl::Microseconds(150));
  m.ObservePlugin("NodeResourcesFit", ExtensionPoint::kScore, Code::kSuccess, absl::Microseconds(3));
  m.ObserveScheduleAttempt("scheduled", "default-scheduler", absl::Milliseconds(2));
  m.ObserveScheduleAttempt("unschedulable", "default-scheduler", absl::Milliseconds(1));
  m.SetPendingPods("active", 7);
  m.ObservePreemption(3);
  const std::string out = m.Render();
  CHECK_THAT(out, Catch::Contains("# TYPE scheduler_framework_extension_point_duration_seconds histogram"));
  CHECK_THAT(out, Catch::Contains(
      "scheduler_framework_extension_point_duration_seconds_bucket{extension_point=\"Filter\",profile=\"default-scheduler\",status=\"Success\",le=\"0.0001\"} 0"));
  CHECK_THAT(out, Catch::Contains(
      "scheduler_framework_extension_point_duration_seconds_bucket{extension_point=\"Filter\",profile=\"default-scheduler\",status=\"Success\",le=\"0.0002\"} 1"));
  CHECK_THAT(out, Catch::Contains(
      "scheduler_framework_extension_point_duration_seconds_count{extension_point=\"Filter\",profile=\"default-scheduler\",status=\"Success\"} 1"));
  CHECK_THAT(out, Catch::Contains(
      "scheduler_plugin_execution_duration_seconds_count{extension_point=\"Score\",plugin=\"NodeResourcesFit\",status=\"Success\"} 1"));
  CHECK_THAT(out, Catch::Contains("scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"scheduled\"} 1"));
  CHECK_THAT(out, Catch::Contains("scheduler_schedule_attempts_total{profile=\"default-scheduler\",result=\"unschedulable\"} 1"));
  CHECK_THAT(out, Catch::Contains("scheduler_pending_pods{queue=\"active\"} 7"));
  CHECK_THAT(out, Catch::Contains("scheduler_preemption_attempts_total 1"));
  CHECK_THAT(out, Catch::Contains("scheduler_preemption_victims_bucket{le=\"4\"} 1"));
  // Buckets are cumulative and end with +Inf equal to the count.
  CHECK_THAT(out, Catch::Contains("scheduler_scheduling_attempt_duration_seconds_bucket{profile=\"default-scheduler\",result=\"scheduled\",le=\"+Inf\"} 1"));
}

TEST_CASE("FakeClock runs timers in due order as time advances", "[clock]") {
  FakeClock clock;
  const absl::Time t0 = clock.Now();
  std::vector<std::pair<int, absl::Duration>> fired;
  auto a = clock.AfterFunc(absl::Seconds(5), [&] { fired.push_back({1, clock.Now() - t0}); });
  auto b = clock.AfterFunc(absl::Seconds(2), [&] { fired.push_back({2, clock.Now() - t0}); });
  auto c = clock.AfterFunc(absl::Seconds(3), [&] { fired.push_back({3, clock.Now() - t0}); });
  CHECK(c->Stop());
  CHECK_FALSE(c->Stop());
  CHECK(clock.NextTimer() == t0 + absl::Seconds(2));
  clock.Advance(absl::Seconds(1));
  CHECK(fired.empty());
  clock.Advance(absl::Seconds(10));
  REQUIRE(fired.size() == 2);
  CHECK(fired[0] == std::make_pair(2, absl::Seconds(2)));
  CHECK(fired[1] == std::make_pair(1, absl::Seconds(5)));
  CHECK(clock.Now() == t0 + absl::Seconds(11));
  CHECK_FALSE(a->Stop());  // already ran
  // A timer armed from a callback runs within the same Advance when due.
  int chained = 0;
  std::function<void()> tick = [&] {
    if (++chained < 3) clock.AfterFunc(absl::Seconds(1), tick);
  };
  clock.AfterFunc(absl::Seconds(1), tick);
  clock.Advance(absl::Seconds(5));
  CHECK(chained == 3);
}

TEST_CASE("the real clock fires AfterFunc", "[clock]") {
  std::mutex mu;
  std::condition_variable cv;
  bool fired = false;
  auto t = Clock::Real().AfterFunc(absl::Milliseconds(10), [&] {
    std::lock_guard<std::mutex> lock(mu);
    fired = true;
    cv.notify_all();
  });
  std::unique_lock<std::mutex> lock(mu);
  CHECK(cv.wait_for(lock, std::chrono::seconds(10), [&] { return fired; }));
}

}  // namespace
}  // namespace schedkit::framework
