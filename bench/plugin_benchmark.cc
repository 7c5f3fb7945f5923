// Per-plugin cost: each in-tree Filter and Score plugin run over 5,000 (and
// 1k, 15k) nodes built from upstream scheduler_perf's templates (4 cpu, 32Gi,
// 110 pods, 3 zones, a few running pods each), with a pod that exercises the
// plugin. PreFilter/PreScore run once per iteration, as in a real cycle; the
// reported ns_per_node is the whole iteration divided by the node count.
//
//   ./build/bench/plugin_benchmark --benchmark_filter='Filter/NodeResourcesFit/5000'
#include <benchmark/benchmark.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "schedkit/base/str_cat.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"

namespace schedkit {
namespace {

using framework::CycleState;
using framework::NodeInfo;
using testing::AffinityKind;
using testing::MakeNode;
using testing::MakePod;

// The incoming pod each plugin is measured with.
api::v1::Pod PodFor(const std::string& plugin) {
  auto p = MakePod().Name("incoming").Label("app", "web").Req({{"cpu", "100m"}, {"memory", "500Mi"}});
  if (plugin == "NodeAffinity") {
    p.NodeAffinityIn("topology.kubernetes.io/zone", {"zone-0", "zone-1"});
    api::v1::NodeSelectorTerm t;
    auto* r = t.add_match_expressions();
    r->set_key("node.example.com/pool");
    r->set_operator_("In");
    r->add_values("a");
    p.PreferredNodeAffinity(10, t);
  } else if (plugin == "TaintToleration") {
    p.Toleration("dedicated", "Equal", "batch", "NoSchedule").Toleration("soft", "Exists", "", "PreferNoSchedule");
  } else if (plugin == "NodePorts") {
    p.HostPort(8080);
  } else if (plugin == "PodTopologySpread") {
    p.SpreadConstraint(1, "topology.kubernetes.io/zone", "DoNotSchedule", testing::Selector({{"app", "web"}}))
        .SpreadConstraint(1, "kubernetes.io/hostname", "ScheduleAnyway", testing::Selector({{"app", "web"}}));
  } else if (plugin == "InterPodAffinity") {
    p.PodAntiAffinityIn("app", "kubernetes.io/hostname", {"web"}, AffinityKind::kRequired)
        .PodAffinityIn("app", "topology.kubernetes.io/zone", {"db"}, AffinityKind::kPreferred);
  } else if (plugin == "ImageLocality") {
    p.Container("registry.example.com/app:1");
  }
  return p.Obj();
}

// One cluster per size, shared by every benchmark.
testing::FakeHandle& Cluster(int nodes) {
  static std::map<int, std::unique_ptr<testing::FakeHandle>> cache;
  auto& h = cache[nodes];
  if (h) return *h;
  h = std::make_unique<testing::FakeHandle>(1);
  std::vector<api::v1::Node> ns;
  std::vector<api::v1::Pod> ps;
  for (int i = 0; i < nodes; ++i) {
    const std::string name = schedkit::StrCat("node-", i);
    auto n = MakeNode()
                 .Name(name)
                 .Label("kubernetes.io/hostname", name)
                 .Label("topology.kubernetes.io/zone", schedkit::StrCat("zone-", i % 3))
                 .Label("node.example.com/pool", i % 2 == 0 ? "a" : "b")
                 .Capacity({{"cpu", "4"}, {"memory", "32Gi"}, {"pods", "110"}});
    if (i % 10 == 0) n.Taint("soft", "", "PreferNoSchedule");
    if (i % 7 == 0) n.Image({"registry.example.com/app:1"}, 300 << 20);
    ns.push_back(n.Obj());
    for (int k = 0; k < 4; ++k) {
      ps.push_back(MakePod()
                       .Name(schedkit::StrCat("run-", i, "-", k))
                       .Node(name)
                       .Label("app", k == 0 ? "web" : "db")
                       .Req({{"cpu", "100m"}, {"memory", "500Mi"}})
                       .Obj());
    }
  }
  h->SetCluster(ns, ps);
  return *h;
}

void BM_Filter(benchmark::State& bench, const std::string& name) {
  const int nodes = static_cast<int>(bench.range(0));
  testing::FakeHandle& h = Cluster(nodes);
  auto plugin = h.NewPlugin(plugins::NewInTreeRegistry(), name);
  if (!plugin.ok()) {
    bench.SkipWithError("plugin");
    return;
  }
  auto* pre = dynamic_cast<framework::PreFilterPlugin*>(plugin->get());
  auto* filter = dynamic_cast<framework::FilterPlugin*>(plugin->get());
  auto pod = framework::PodInfo::Create(PodFor(name)).value();
  std::span<const NodeInfo* const> all = h.snapshot().nodes();
  int64_t passed = 0;
  for (auto _ : bench) {
    CycleState state;
    bool skip = false;
    if (pre != nullptr) skip = pre->PreFilter(state, *pod, all).status.IsSkip();
    if (skip) continue;
    for (const NodeInfo* n : all) passed += filter->Filter(state, *pod, *n).IsSuccess();
  }
  benchmark::DoNotOptimize(passed);
  bench.counters["ns_per_node"] = benchmark::Counter(static_cast<double>(nodes) * bench.iterations(),
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_Score(benchmark::State& bench, const std::string& name) {
  const int nodes = static_cast<int>(bench.range(0));
  testing::FakeHandle& h = Cluster(nodes);
  auto plugin = h.NewPlugin(plugins::NewInTreeRegistry(), name);
  if (!plugin.ok()) {
    bench.SkipWithError("plugin");
    return;
  }
  auto* pre = dynamic_cast<framework::PreScorePlugin*>(plugin->get());
  auto* score = dynamic_cast<framework::ScorePlugin*>(plugin->get());
  const framework::ScoreExtensions* ext = score->GetScoreExtensions();
  auto pod = framework::PodInfo::Create(PodFor(name)).value();
  std::span<const NodeInfo* const> all = h.snapshot().nodes();
  std::vector<int64_t> scores(all.size());
  for (auto _ : bench) {
    CycleState state;
    if (pre != nullptr && pre->PreScore(state, *pod, all).IsSkip()) continue;
    for (size_t i = 0; i < all.size(); ++i) (void)score->Score(state, *pod, *all[i], scores[i]);
    if (ext != nullptr) (void)ext->NormalizeScore(state, *pod, all, scores);
  }
  benchmark::DoNotOptimize(scores.data());
  bench.counters["ns_per_node"] = benchmark::Counter(static_cast<double>(nodes) * bench.iterations(),
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

int Register() {
  for (const char* name : {"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity", "NodePorts",
                           "NodeResourcesFit", "PodTopologySpread", "InterPodAffinity"}) {
    benchmark::RegisterBenchmark(schedkit::StrCat("Filter/", name).c_str(), BM_Filter, std::string(name))
        ->Arg(1000)->Arg(5000)->Arg(15000)->Unit(benchmark::kMicrosecond);
  }
  for (const char* name : {"TaintToleration", "NodeAffinity", "NodeResourcesFit", "NodeResourcesBalancedAllocation",
                           "ImageLocality", "PodTopologySpread", "InterPodAffinity"}) {
    benchmark::RegisterBenchmark(schedkit::StrCat("Score/", name).c_str(), BM_Score, std::string(name))
        ->Arg(1000)->Arg(5000)->Arg(15000)->Unit(benchmark::kMicrosecond);
  }
  return 0;
}
const int registered = Register();

}  // namespace
}  // namespace schedkit

BENCHMARK_MAIN();
