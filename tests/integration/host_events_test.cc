// What a Scheduler tells its host besides binds: every event upstream's
// scheduler records (Scheduled, FailedScheduling, Preempted with the
// preemptor as related object, "skip schedule deleting pod"), each with the
// profile as reportingController, and the status each failure writes
// (reason, message, nomination).
#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "schedkit/api/lister.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/config/configuration.h"
#include "schedkit/framework/clock.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/scheduler/scheduler.h"
#include "schedkit/testing/builders.h"

namespace schedkit::scheduler {
namespace {

using testing::MakeNode;
using testing::MakePod;

struct RecordedEvent {
  std::string regarding, related, controller, type, reason, action, note;
};

struct RecordedFailure {
  std::string reason, message;
  std::optional<std::string> nominated_node;
};

class RecordingHost : public Host {
 public:
  Scheduler* sched = nullptr;

  absl::Status Bind(const api::v1::Pod&, std::string_view) override { return absl::OkStatus(); }
  absl::Status Evict(const api::v1::Pod& victim, const api::v1::Pod&, std::string_view) override {
    return sched->DeletePod(victim.metadata().namespace_(), victim.metadata().name());
  }
  void OnFailedScheduling(const api::v1::Pod& pod, const SchedulingFailure& f) override {
    std::lock_guard<std::mutex> lock(mu);
    failures[pod.metadata().name()].push_back(
        {std::string(f.reason), std::string(f.message),
         f.nominated_node ? std::optional<std::string>(std::string(*f.nominated_node)) : std::nullopt});
  }
  void OnEvent(const PodEvent& e) override {
    std::lock_guard<std::mutex> lock(mu);
    events.push_back({e.regarding.metadata().name(), e.related != nullptr ? e.related->metadata().name() : "",
                      std::string(e.reporting_controller), std::string(e.type), std::string(e.reason),
                      std::string(e.action), std::string(e.note)});
  }
  std::vector<RecordedEvent> EventsOf(const std::string& pod) {
    std::lock_guard<std::mutex> lock(mu);
    std::vector<RecordedEvent> out;
    for (const auto& e : events) {
      if (e.regarding == pod) out.push_back(e);
    }
    return out;
  }

  std::mutex mu;
  std::vector<RecordedEvent> events;
  std::map<std::string, std::vector<RecordedFailure>> failures;
};

TEST_CASE("the host hears upstream's events and status writes, preemption included", "[integration][events]") {
  api::ObjectSet cluster;
  cluster.Add(MakeNode().Name("n1").Capacity({{"cpu", "2"}, {"pods", "110"}}).Obj());
  cluster.Add(MakePod().Name("low").UID("uid-low").Node("n1").Priority(0).Req({{"cpu", "2"}}).Obj());
  cluster.Add(MakePod().Name("high").UID("uid-high").Priority(100).Req({{"cpu", "2"}}).Obj());
  cluster.Add(MakePod().Name("huge").UID("uid-huge").Priority(100).Req({{"cpu", "10"}}).Obj());
  cluster.Add(MakePod().Name("gone").UID("uid-gone").Terminating().Req({{"cpu", "1"}}).Obj());

  framework::FakeClock clock;
  InlineExecutor executor;
  RecordingHost host;
  SchedulerOptions o;
  o.clock = &clock;
  o.executor = &executor;
  api::StaticClusterLister lister(cluster);
  auto s = Scheduler::Create(config::DefaultConfiguration(), plugins::NewInTreeRegistry(), host, lister, o);
  REQUIRE(s.ok());
  host.sched = s->get();
  for (int round = 0; round < 5; ++round) {
    (*s)->RunUntilIdle();
    clock.Advance(absl::Seconds(11));
  }

  // The victim: Preempted, related to its preemptor (preemption.go's note).
  const auto low = host.EventsOf("low");
  REQUIRE(low.size() == 1);
  CHECK(low[0].reason == "Preempted");
  CHECK(low[0].type == "Normal");
  CHECK(low[0].action == "Preempting");
  CHECK(low[0].related == "high");
  CHECK(low[0].controller == "default-scheduler");
  CHECK(low[0].note == "Preempted by pod uid-high on node n1");

  // The preemptor: a failure nominating n1, then Scheduled there.
  const auto high = host.EventsOf("high");
  REQUIRE(high.size() == 2);
  CHECK(high[0].reason == "FailedScheduling");
  CHECK(high[0].type == "Warning");
  CHECK(high[0].action == "Scheduling");
  CHECK_THAT(high[0].note, Catch::StartsWith("0/1 nodes are available: 1 Insufficient cpu."));
  CHECK(high[1].reason == "Scheduled");
  CHECK(high[1].action == "Binding");
  CHECK(high[1].note == "Successfully assigned default/high to n1");
  REQUIRE(host.failures["high"].size() == 1);
  CHECK(host.failures["high"][0].reason == "Unschedulable");
  CHECK(host.failures["high"][0].nominated_node == "n1");

  // A pod preemption cannot help: its failures name no node to nominate.
  REQUIRE_FALSE(host.failures["huge"].empty());
  CHECK(host.failures["huge"][0].reason == "Unschedulable");
  CHECK_FALSE(host.failures["huge"][0].nominated_node.has_value());
  CHECK(host.EventsOf("huge").front().reason == "FailedScheduling");

  // A pod being deleted is not scheduled, as upstream's skipPodSchedule.
  const auto gone = host.EventsOf("gone");
  REQUIRE(gone.size() == 1);
  CHECK(gone[0].note == "skip schedule deleting pod: default/gone");
  CHECK(host.failures["gone"].empty());
}

}  // namespace
}  // namespace schedkit::scheduler
