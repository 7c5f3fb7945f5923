// schedkit::testing::RecordingHost under the whole scheduler: what it records
// of bindings, failures, evictions and events, and binds it refuses on demand.
#include "schedkit/testing/recording_host.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "schedkit/api/lister.h"
#include "schedkit/config/configuration.h"
#include "schedkit/framework/clock.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/scheduler/scheduler.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/must.h"

namespace schedkit {
namespace {

using testing::MakeNode;
using testing::MakePod;

class InlineExecutor : public scheduler::Executor {
 public:
  void Submit(std::function<void()> task) override { task(); }
};

bool AnyStartsWith(const std::vector<std::string>& lines, const std::string& prefix) {
  for (const std::string& l : lines) {
    if (l.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

TEST_CASE("RecordingHost records bindings, failures, evictions and events", "[integration][testing]") {
  api::ObjectSet cluster;
  cluster.Add(MakeNode().Name("n1").Capacity({{"cpu", "2"}, {"pods", "110"}}).Obj());
  cluster.Add(MakeNode().Name("n2").Capacity({{"cpu", "1"}, {"pods", "110"}}).Obj());
  cluster.Add(MakePod().Name("low").UID("uid-low").Node("n1").Priority(0).Req({{"cpu", "2"}}).Obj());
  cluster.Add(MakePod().Name("small").UID("uid-small").Req({{"cpu", "1"}}).Obj());
  cluster.Add(MakePod().Name("high").UID("uid-high").Priority(100).Req({{"cpu", "2"}}).Obj());
  cluster.Add(MakePod().Name("huge").UID("uid-huge").Priority(100).Req({{"cpu", "10"}}).Obj());

  framework::FakeClock clock;
  InlineExecutor executor;
  scheduler::SchedulerOptions o;
  o.clock = &clock;
  o.executor = &executor;
  api::StaticClusterLister lister(cluster);
  testing::RecordingHost host;
  host.FailBinds("default/small", absl::UnavailableError("the API server is away"));
  auto sched = testing::Must(
      scheduler::Scheduler::Create(config::DefaultConfiguration(), plugins::NewInTreeRegistry(), host, lister, o));
  sched->RunUntilIdle();

  // small's bind was refused; high preempted low; huge fits nowhere.
  CHECK_FALSE(host.NodeOf("default/small").has_value());
  // The host records the eviction; the victim stays until the test reports
  // its deletion, as a real host does, so high may evict it again meanwhile.
  const std::vector<testing::RecordingHost::Eviction> evictions = host.evictions();
  REQUIRE_FALSE(evictions.empty());
  for (const testing::RecordingHost::Eviction& e : evictions) {
    CHECK(e.victim == "default/low");
    CHECK(e.preemptor == "default/high");
    CHECK(e.node == "n1");
  }
  const std::map<std::string, std::string> failures = host.failures();
  REQUIRE(failures.contains("default/huge"));
  CHECK(failures.at("default/huge").find("Insufficient cpu") != std::string::npos);
  CHECK(AnyStartsWith(host.events(), "Preempted: "));
  CHECK(AnyStartsWith(host.events(), "FailedScheduling: "));

  // Binds succeed again: small binds on its retry.
  host.FailBinds("default/small", absl::OkStatus());
  for (int round = 0; round < 5 && !host.NodeOf("default/small"); ++round) {
    clock.Advance(absl::Seconds(11));
    sched->RunUntilIdle();
  }
  CHECK(host.NodeOf("default/small") == "n2");
  const std::vector<testing::RecordingHost::Binding> bindings = host.bindings();
  REQUIRE_FALSE(bindings.empty());
  CHECK(bindings.back().pod == "default/small");
}

}  // namespace
}  // namespace schedkit
