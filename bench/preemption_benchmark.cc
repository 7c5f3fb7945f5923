// One preemption over 5,000 full nodes: DefaultPreemption's PostFilter (dry
// runs of NodeResourcesFit with lower-priority pods removed, candidate
// selection) for a pod that fits nowhere, as a real Framework runs it.
// Every node holds 4 or 32 pods of mixed priorities filling its cpu.
//
//   ./build/bench/preemption_benchmark --benchmark_min_time=0.2
//
// Args: pods per node, parallelism, outcome memo (1: on, the default, which
// serves the next preemptor of the same signature from DefaultPreemption's
// DryRunMemo; 0: off, every dry run anew). Each iteration is one PostFilter
// of the same pod on the same snapshot; PreFilter and Filter run untimed.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "schedkit/base/str_cat.h"
#include "schedkit/framework/framework.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/noop_cluster_client.h"

namespace schedkit {
namespace {

using testing::MakeNode;
using testing::MakePod;

constexpr int kNodes = 5000;

// Accepts every eviction and nomination: the cluster does not change between
// iterations.
using NoopClient = testing::NoopClusterClient;

// The cluster's snapshot for `pods_per_node`, built once.
const framework::Snapshot& Cluster(int pods_per_node) {
  static std::map<int, std::unique_ptr<framework::Snapshot>> cache;
  std::unique_ptr<framework::Snapshot>& snap = cache[pods_per_node];
  if (snap != nullptr) return *snap;
  framework::ClusterState state;
  const std::string pod_cpu = schedkit::StrCat(4000 / pods_per_node, "m");
  for (int i = 0; i < kNodes; ++i) {
    const std::string node = schedkit::StrCat("n", i);
    (void)state.AddNode(std::make_shared<const api::v1::Node>(
        MakeNode().Name(node).Capacity({{"cpu", "4"}, {"memory", "16Gi"}, {"pods", "110"}}).Obj()));
    for (int k = 0; k < pods_per_node; ++k) {
      auto pod = framework::PodInfo::Create(MakePod()
                                                .Name(schedkit::StrCat(node, "-p", k))
                                                .UID(schedkit::StrCat(node, "-p", k))
                                                .Node(node)
                                                .Priority((i * 7 + k * 13) % 500)
                                                .Req({{"cpu", pod_cpu}, {"memory", "100Mi"}})
                                                .StartTime(schedkit::StrCat("2024-01-01T00:00:", k % 60 < 10 ? "0" : "",
                                                                            k % 60, "Z"))
                                                .Obj());
      (void)state.AddPod(*std::move(pod));
    }
  }
  snap = std::make_unique<framework::Snapshot>();
  state.UpdateSnapshot(*snap);
  return *snap;
}

void BM_PreemptionPostFilter(benchmark::State& bench) {
  const int pods_per_node = static_cast<int>(bench.range(0));
  const framework::Snapshot& snap = Cluster(pods_per_node);
  framework::Profile profile;
  profile.scheduler_name = "default-scheduler";
  profile.plugins.queue_sort.enabled = {{"PrioritySort"}};
  profile.plugins.pre_filter.enabled = {{"NodeResourcesFit"}};
  profile.plugins.filter.enabled = {{"NodeResourcesFit"}};
  profile.plugins.post_filter.enabled = {{"DefaultPreemption"}};
  profile.plugins.bind.enabled = {{"DefaultBinder"}};
  NoopClient client;
  framework::FrameworkOptions options;
  options.parallelism = static_cast<int>(bench.range(1));
  options.memoize_per_node_outcomes = bench.range(2) != 0;
  options.client = &client;
  auto fw = framework::Framework::Create(plugins::NewInTreeRegistry(), profile, options);
  if (!fw.ok()) {
    bench.SkipWithError(std::string(fw.status().message()).c_str());
    return;
  }
  const framework::PodInfoPtr pod = *framework::PodInfo::Create(
      MakePod().Name("big").UID("big").Priority(1000).Req({{"cpu", "2000m"}, {"memory", "1Gi"}}).Obj());
  framework::SelectionState selection;
  selection.tie_break = framework::TieBreak::kLowestName;
  int64_t nominated = 0;
  for (auto _ : bench) {
    bench.PauseTiming();
    framework::CycleState state;
    framework::ScheduleOutcome out = (*fw)->SchedulePod(state, pod, snap, selection);
    if (out.fit_error == nullptr) {
      bench.SkipWithError("the preemptor fit without preemption");
      return;
    }
    bench.ResumeTiming();
    framework::PostFilterPlugin::Result r =
        (*fw)->RunPostFilterPlugins(state, *pod, out.fit_error->diagnosis.node_to_status);
    nominated += r.status.IsSuccess() && !r.nominating_info.node_name.empty();
  }
  if (nominated != bench.iterations()) bench.SkipWithError("a PostFilter found no candidate");
}

BENCHMARK(BM_PreemptionPostFilter)
    ->ArgNames({"pods_per_node", "threads", "memo"})
    ->ArgsProduct({{4, 32}, {1, 2}, {1, 0}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace schedkit

BENCHMARK_MAIN();
