// The engine's own cost per cycle: PreFilter → Filter → PreScore → Score →
// select, with plugins that do nothing, over 1k, 5k and 15k nodes. What is
// left is the framework's per-node overhead (dispatch, bookkeeping, fan-out).
//
//   ./build/bench/framework_benchmark --benchmark_filter=BM_NoopCycle
#include <benchmark/benchmark.h>

#include "schedkit/base/str_cat.h"
#include "schedkit/framework/framework.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/minimal_plugins.h"

namespace schedkit::framework {
namespace {

class NoopPlugin : public PreFilterPlugin, public FilterPlugin, public PreScorePlugin, public ScorePlugin {
 public:
  std::string_view Name() const override { return "Noop"; }
  PreFilterPlugin::Result PreFilter(CycleState&, const PodInfo&, std::span<const NodeInfo* const>) override {
    return {};
  }
  Status Filter(const CycleState&, const PodInfo&, const NodeInfo&) const override { return Status(); }
  Status PreScore(CycleState&, const PodInfo&, std::span<const NodeInfo* const>) override { return Status(); }
  Status Score(const CycleState&, const PodInfo&, const NodeInfo&, int64_t& score) const override {
    score = 0;
    return Status();
  }
};

template <typename T>
PluginFactory Factory() {
  return [](const PluginArgs&, Handle&) -> absl::StatusOr<std::unique_ptr<Plugin>> { return std::make_unique<T>(); };
}

// args: node count, percentageOfNodesToScore (0 = adaptive, as upstream's default).
void BM_NoopCycle(benchmark::State& bench) {
  const int nodes = static_cast<int>(bench.range(0));
  const int percentage = static_cast<int>(bench.range(1));
  ClusterState cluster;
  for (int i = 0; i < nodes; ++i) {
    auto n = testing::MakeNode()
                 .Name(schedkit::StrCat("node-", i))
                 .Label("topology.kubernetes.io/zone", schedkit::StrCat("zone-", i % 3))
                 .Capacity({{"cpu", "4"}, {"memory", "32Gi"}, {"pods", "110"}})
                 .Ptr();
    if (!cluster.AddNode(n).ok()) bench.SkipWithError("bad node");
  }
  Snapshot snapshot;
  cluster.UpdateSnapshot(snapshot);
  Registry registry;
  (void)registry.Add("Noop", Factory<NoopPlugin>());
  Profile profile;
  (void)testing::AddMinimalPlugins(registry, profile);
  profile.plugins.multi_point.enabled = {{"Noop"}};
  FrameworkOptions options;
  options.parallelism = 2;
  options.percentage_of_nodes_to_score = percentage;
  auto fw = Framework::Create(registry, profile, options);
  if (!fw.ok()) {
    bench.SkipWithError("framework");
    return;
  }
  auto pod = testing::MakePod().Name("p").Req({{"cpu", "100m"}, {"memory", "500Mi"}}).Info();
  SelectionState selection;
  int64_t evaluated = 0;
  for (auto _ : bench) {
    CycleState state;
    ScheduleOutcome out = (*fw)->SchedulePod(state, pod, snapshot, selection);
    benchmark::DoNotOptimize(out.result.suggested_host);
    evaluated += out.result.evaluated_nodes;
  }
  bench.counters["nodes_evaluated_per_cycle"] =
      benchmark::Counter(static_cast<double>(evaluated) / static_cast<double>(bench.iterations()));
  bench.counters["ns_per_evaluated_node"] = benchmark::Counter(
      static_cast<double>(evaluated), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  bench.SetItemsProcessed(bench.iterations());
}
BENCHMARK(BM_NoopCycle)
    ->ArgNames({"nodes", "pct"})
    ->Args({1000, 0})
    ->Args({5000, 0})
    ->Args({15000, 0})
    ->Args({1000, 100})
    ->Args({5000, 100})
    ->Args({15000, 100})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace schedkit::framework

BENCHMARK_MAIN();
