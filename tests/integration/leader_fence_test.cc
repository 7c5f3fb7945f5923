// SchedulerOptions::leader as a write fence: a replica that is not the
// leader (a standby, or a leader that may have been deposed) makes no write
// through its Host, and loses no pod; once it leads, it writes as before.
#include <catch2/catch.hpp>

#include <atomic>
#include <map>
#include <mutex>
#include <string>

#include "schedkit/api/lister.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/config/configuration.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/scheduler/leader_election.h"
#include "schedkit/scheduler/scheduler.h"
#include "schedkit/testing/builders.h"

namespace schedkit::scheduler {
namespace {

using testing::MakeNode;
using testing::MakePod;

class SwitchedElector : public LeaderElector {
 public:
  absl::Status Run(const std::function<void()>& on_started_leading) override {
    on_started_leading();
    return absl::OkStatus();
  }
  void Stop() override { leading = false; }
  bool IsLeader() const override { return leading.load(); }
  std::atomic<bool> leading{false};
};

// Counts every call the scheduler makes, writes or not.
class CountingHost : public Host {
 public:
  absl::Status Bind(const api::v1::Pod& pod, std::string_view node) override {
    Count("Bind");
    std::lock_guard<std::mutex> lock(mu_);
    bound_[pod.metadata().name()] = std::string(node);
    return absl::OkStatus();
  }
  void OnFailedScheduling(const api::v1::Pod&, const SchedulingFailure&) override { Count("OnFailedScheduling"); }
  absl::Status Evict(const api::v1::Pod&, const api::v1::Pod&, std::string_view) override {
    Count("Evict");
    return absl::OkStatus();
  }
  void OnNominatedNodeChanged(const api::v1::Pod&, std::string_view) override { Count("OnNominatedNodeChanged"); }
  void OnEvent(const PodEvent& event) override { Count(schedkit::StrCat("OnEvent ", event.reason)); }

  std::map<std::string, int> calls() const {
    std::lock_guard<std::mutex> lock(mu_);
    return calls_;
  }
  std::map<std::string, std::string> bound() const {
    std::lock_guard<std::mutex> lock(mu_);
    return bound_;
  }

 private:
  void Count(const std::string& what) {
    std::lock_guard<std::mutex> lock(mu_);
    ++calls_[what];
  }
  mutable std::mutex mu_;
  std::map<std::string, int> calls_;
  std::map<std::string, std::string> bound_;
};

struct FencedEnv {
  framework::FakeClock clock;
  InlineExecutor executor;
  SwitchedElector elector;
  CountingHost host;
  std::unique_ptr<Scheduler> sched;

  explicit FencedEnv(const api::ObjectSet& cluster) {
    SchedulerOptions o;
    o.clock = &clock;
    o.executor = &executor;
    o.seed = 1;
    o.leader = &elector;
    api::StaticClusterLister lister(cluster);
    auto s = Scheduler::Create(config::DefaultConfiguration(), plugins::NewInTreeRegistry(), host, lister, o);
    REQUIRE(s.ok());
    sched = *std::move(s);
  }
  void Drain() {
    for (int i = 0; i < 20; ++i) {
      sched->RunUntilIdle();
      clock.Advance(absl::Seconds(11));
    }
  }
  int Queued() {
    const auto c = sched->queue().counts();
    return static_cast<int>(c.active + c.backoff + c.unschedulable);
  }
};

TEST_CASE("a scheduler that does not lead writes nothing and keeps its pods", "[integration][leader]") {
  api::ObjectSet cluster;
  cluster.Add(MakeNode().Name("n").Capacity({{"cpu", "4"}, {"pods", "110"}}).Obj());
  cluster.Add(MakePod().Name("fits").Req({{"cpu", "1"}}).Obj());
  cluster.Add(MakePod().Name("too-big").Req({{"cpu", "8"}}).Obj());
  FencedEnv env(cluster);

  env.Drain();
  CHECK(env.host.calls().empty());  // no Bind, no status write, no event
  CHECK(env.host.bound().empty());
  CHECK(env.sched->cache().sizes().assumed_pods == 0);
  CHECK(env.Queued() == 2);  // neither pod lost

  env.elector.leading = true;
  env.Drain();
  CHECK(env.host.bound() == std::map<std::string, std::string>{{"fits", "n"}});
  const auto calls = env.host.calls();
  CHECK(calls.at("Bind") == 1);
  CHECK(calls.at("OnEvent Scheduled") == 1);
  // Failures found while fenced were not written (the pod waits in the
  // unschedulable pool); one found while leading is.
  CHECK(!calls.contains("OnFailedScheduling"));
  REQUIRE(env.sched->AddPod(std::make_shared<api::v1::Pod>(MakePod().Name("later").Req({{"cpu", "8"}}).Obj())).ok());
  env.Drain();
  CHECK(env.host.calls().at("OnFailedScheduling") >= 1);
  CHECK(env.host.calls().at("OnEvent FailedScheduling") >= 1);
}

TEST_CASE("a scheduler that does not lead evicts no victim", "[integration][leader]") {
  api::ObjectSet cluster;
  cluster.Add(MakeNode().Name("n").Capacity({{"cpu", "2"}, {"pods", "110"}}).Obj());
  cluster.Add(MakePod().Name("low").Node("n").Priority(1).Req({{"cpu", "2"}}).Obj());
  cluster.Add(MakePod().Name("high").Priority(100).Req({{"cpu", "2"}}).Obj());
  FencedEnv env(cluster);

  env.Drain();
  CHECK(env.host.calls().empty());
  CHECK(env.Queued() == 1);

  env.elector.leading = true;
  env.Drain();
  CHECK(env.host.calls().at("Evict") == 1);
}

}  // namespace
}  // namespace schedkit::scheduler
