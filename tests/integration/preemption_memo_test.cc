// Preemption with the outcome memo (the framework's nominated-pods verdicts
// and DefaultPreemption's DryRunMemo): a scheduler that keeps them decides
// every attempt exactly as one that recomputes everything, over waves of
// preemptors of a few templates on a full, changing cluster, with and
// without PodDisruptionBudgets.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "schedkit/api/v1/kinds.h"
#include "schedkit/api/lister.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/config/configuration.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/scheduler/scheduler.h"
#include "schedkit/testing/builders.h"

namespace schedkit::scheduler {
namespace {

using testing::MakeNode;
using testing::MakePod;

// Binds at once and evicts by deleting the victim; logs every call.
class LoggingHost : public Host {
 public:
  Scheduler* sched = nullptr;
  std::vector<std::string> log;

  absl::Status Bind(const api::v1::Pod& pod, std::string_view node) override {
    log.push_back(schedkit::StrCat("bind ", pod.metadata().name(), " ", node));
    return absl::OkStatus();
  }
  absl::Status Evict(const api::v1::Pod& victim, const api::v1::Pod& preemptor, std::string_view node) override {
    log.push_back(schedkit::StrCat("evict ", victim.metadata().name(), " for ", preemptor.metadata().name(), " on ", node));
    ++evictions;
    return sched->DeletePod(victim.metadata().namespace_(), victim.metadata().name());
  }
  int evictions = 0;
};

struct Run {
  std::vector<std::string> log;  // host calls and attempts, in order
  int bound_preemptors = 0;
  int evictions = 0;
  int nominations = 0;
  int deleted_nominated = 0;
};

std::string Cpu(int milli) { return schedkit::StrCat(milli, "m"); }

Run Simulate(uint64_t seed, bool memoize, bool with_pdbs) {
  std::mt19937_64 rng(seed);
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  api::ObjectSet cluster;
  constexpr int kNodes = 60;
  std::vector<std::string> nodes;
  for (int n = 0; n < kNodes; ++n) {
    nodes.push_back(schedkit::StrCat("n", n));
    const int cpu = 2 + 2 * pick(3);
    cluster.Add(MakeNode()
                               .Name(nodes.back())
                               .Label("kubernetes.io/hostname", nodes.back())
                               .Label("topology.kubernetes.io/zone", schedkit::StrCat("z", n % 3))
                               .Capacity({{"cpu", schedkit::StrCat(cpu)}, {"memory", "32Gi"}, {"pods", "110"}})
                               .Obj());
    // Fill the node with low-priority pods of mixed sizes and priorities.
    for (int used = 0, k = 0;; ++k) {
      const int req = 500 * (1 + pick(3));
      if (used + req > cpu * 1000) break;
      used += req;
      cluster.Add(MakePod()
                                .Name(schedkit::StrCat("low-", n, "-", k))
                                .Label("app", pick(2) == 0 ? "guarded" : "free")
                                .Node(nodes.back())
                                .Priority(5 * pick(3))
                                .StartTime(schedkit::StrCat("2024-01-01T00:00:", 10 + pick(40), "Z"))
                                .Req({{"cpu", Cpu(req)}})
                                .Obj());
    }
  }
  auto guard = std::make_shared<api::v1::PodDisruptionBudget>();
  guard->mutable_metadata()->set_name("guard");
  guard->mutable_metadata()->set_namespace_("default");
  (*guard->mutable_spec()->mutable_selector()->mutable_match_labels())["app"] = "guarded";
  guard->mutable_status()->set_disruptions_allowed(0);  // every guarded victim violates it
  framework::FakeClock clock;
  InlineExecutor executor;
  LoggingHost host;
  SchedulerOptions o;
  o.clock = &clock;
  o.executor = &executor;
  o.seed = seed;
  o.memoize_per_node_outcomes = memoize;
  api::StaticClusterLister lister(cluster);
  auto s = Scheduler::Create(config::DefaultConfiguration(), plugins::NewInTreeRegistry(), host, lister, o);
  REQUIRE(s.ok());
  Scheduler& sched = **s;
  host.sched = &sched;
  Run run;
  // Some nominated preemptors are deleted right after their attempt, before
  // they bind: their nodes keep their pods and lose the nomination.
  std::vector<std::string> to_delete;
  sched.SetCycleObserver([&](const CycleReport& r) {
    const std::string name(r.pod->name().str());
    host.log.push_back(schedkit::StrCat("attempt ", name, " -> ", r.node, " code ", static_cast<int>(r.code),
                                        " nominated ", r.nominated_node, ": ", r.message));
    run.nominations += r.nominated_node.empty() ? 0 : 1;
    if (!r.nominated_node.empty() && pick(4) == 0) to_delete.push_back(name);
  });
  auto drain = [&] {
    while (sched.ScheduleOne()) {
      for (const std::string& name : to_delete) {
        host.log.push_back(schedkit::StrCat("delete nominated ", name));
        REQUIRE(sched.DeletePod("default", name).ok());
      }
      to_delete.clear();
    }
    sched.RunUntilIdle();
  };

  // Waves of preemptors of three templates; between waves, pods and nodes
  // change under the kept outcomes.
  struct Template {
    int priority;
    int milli_cpu;
  };
  const std::vector<Template> templates = {{100, 1000}, {100, 1500}, {1000, 2000}};
  int next = 0;
  for (int wave = 0; wave < 6; ++wave) {
    // With budgets, the guarded pods are protected in waves 1, 2 and 5, so
    // that each template (two waves each) meets the budget coming or going:
    // victims found without it must not serve an attempt with it, nor the
    // other way round.
    const auto guarded = [](int w) { return w == 1 || w == 2 || w == 5; };
    if (with_pdbs && guarded(wave) && !guarded(wave - 1)) REQUIRE(sched.Upsert(guard).ok());
    if (with_pdbs && !guarded(wave) && guarded(wave - 1)) {
      REQUIRE(sched.Delete<api::v1::PodDisruptionBudget>("default", "guard").ok());
    }
    const int count = 10 + pick(10);
    for (int i = 0; i < count; ++i, ++next) {
      // The wave's template, two waves in a row, so that outcomes kept in
      // one wave meet the next one with the budget toggled; the last two
      // waves mix in the other templates.
      const bool mixed = wave >= 4 && pick(4) == 0;
      const Template& t = templates[static_cast<size_t>(mixed ? pick(3) : wave / 2 % 3)];
      REQUIRE(sched.AddPod(std::make_shared<const api::v1::Pod>(MakePod()
                                                                    .Name(schedkit::StrCat("high-", next))
                                                                    .UID(schedkit::StrCat("high-", next))
                                                                    .Priority(t.priority)
                                                                    .Req({{"cpu", Cpu(t.milli_cpu)}})
                                                                    .Obj()))
                  .ok());
    }
    for (int round = 0; round < 4; ++round) {
      drain();
      clock.Advance(absl::Seconds(11));
    }
    // A few low-priority pods go away by themselves; once, a node is
    // relabelled (a new node object, after which nothing kept is served).
    for (int k = 0; k < 3; ++k) {
      (void)sched.DeletePod("default", schedkit::StrCat("low-", pick(kNodes), "-", pick(3)));
    }
    if (wave != 3) continue;
    const std::string& n = nodes[static_cast<size_t>(pick(kNodes))];
    auto relabelled = std::make_shared<api::v1::Node>(cluster.Of<api::v1::Node>()[std::stoi(n.substr(1))]);
    (*relabelled->mutable_metadata()->mutable_labels())["wave"] = schedkit::StrCat(wave);
    REQUIRE(sched.UpdateNode(relabelled).ok());
  }
  drain();
  run.log = host.log;
  run.evictions = host.evictions;
  for (const std::string& line : host.log) {
    run.bound_preemptors += line.starts_with("bind high-") ? 1 : 0;
    run.deleted_nominated += line.starts_with("delete nominated ") ? 1 : 0;
  }
  return run;
}

TEST_CASE("Preemption decides the same with kept dry runs and nominated-pods verdicts as without",
          "[integration][memo][preemption]") {
  const uint64_t seed = GENERATE(1, 2, 3);
  const bool with_pdbs = GENERATE(false, true);
  INFO("seed " << seed << (with_pdbs ? ", with a PodDisruptionBudget" : ""));
  const Run kept = Simulate(seed, /*memoize=*/true, with_pdbs);
  const Run plain = Simulate(seed, /*memoize=*/false, with_pdbs);
  REQUIRE(kept.log.size() == plain.log.size());
  for (size_t i = 0; i < kept.log.size(); ++i) {
    INFO("entry " << i);
    REQUIRE(kept.log[i] == plain.log[i]);
  }
  // The run must have preempted, nominated and placed preemptors.
  CHECK(kept.evictions > 20);
  CHECK(kept.nominations > 20);
  CHECK(kept.bound_preemptors > 20);
  CHECK(kept.deleted_nominated >= 3);
}

}  // namespace
}  // namespace schedkit::scheduler
