#include "schedkit/bench/chain_benchmark_main.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/config/configuration.h"
#include "schedkit/framework/framework.h"
#include "schedkit/framework/snapshot.h"
#include "schedkit/bench/templates.h"

namespace schedkit::bench {
namespace {

using perf::PodTemplate;

const std::map<std::string, PodTemplate, std::less<>>& Templates() {
  static const auto* templates = new std::map<std::string, PodTemplate, std::less<>>{
      {"default", PodTemplate::kDefault},
      {"anti-affinity", PodTemplate::kPodAntiAffinity},
      {"affinity", PodTemplate::kPodAffinity},
      {"preferred-affinity", PodTemplate::kPreferredPodAffinity},
      {"preferred-anti-affinity", PodTemplate::kPreferredPodAntiAffinity},
      {"node-affinity", PodTemplate::kNodeAffinity},
      {"spreading", PodTemplate::kTopologySpreading},
      {"preferred-spreading", PodTemplate::kPreferredTopologySpreading},
  };
  return *templates;
}

struct NodeLabel {
  std::string key;
  std::vector<std::string> values;  // given to the nodes in turn
};

struct Chain {
  std::string program = "chain_benchmark";
  framework::Registry registry;
  framework::Profile profile;
  // Where the profile came from, as the start line says it.
  std::string source;
  std::vector<NodeLabel> node_labels;
  int32_t percentage_of_nodes_to_score = 0;
  PodTemplate pod = PodTemplate::kDefault;
  int pods_per_node = 4;
  int threads = 2;
  // --iterations: a fixed count (smoke runs); 0 lets Google Benchmark decide.
  int iterations = 0;
};

// The chain from --plugins: those plugins at every extension point they
// implement, with a queue sort and a binder so that the profile is valid.
std::string PluginsConfig(std::string_view list) {
  std::vector<std::string> names = absl::StrSplit(std::string(list), ',', absl::SkipEmpty());
  auto has = [&](std::string_view n) { return std::find(names.begin(), names.end(), n) != names.end(); };
  if (!has("PrioritySort")) names.push_back("PrioritySort");
  if (!has("DefaultBinder")) names.push_back("DefaultBinder");
  std::string enabled;
  for (const std::string& n : names) schedkit::StrAppend(&enabled, enabled.empty() ? "" : ", ", "{name: ", n, "}");
  return schedkit::StrCat(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nprofiles:\n"
      "- schedulerName: default-scheduler\n  plugins:\n    multiPoint:\n      enabled: [",
      enabled, "]\n      disabled: [{name: \"*\"}]\n");
}

// Consumes our flags from argv (Google Benchmark rejects unknown ones).
absl::Status ParseFlags(int& argc, char** argv, Chain& chain) {
  config::SchedulerConfiguration cfg = config::DefaultConfiguration();
  std::string config_path, plugins, profile_name;
  std::map<std::string, std::string> plugin_args;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto value = [&](std::string_view flag) -> std::optional<std::string_view> {
      if (arg.substr(0, flag.size()) == flag && arg.size() > flag.size() && arg[flag.size()] == '=') {
        return arg.substr(flag.size() + 1);
      }
      return std::nullopt;
    };
    if (auto v = value("--config")) {
      config_path = std::string(*v);
    } else if (auto v = value("--plugins")) {
      plugins = std::string(*v);
    } else if (auto v = value("--profile")) {
      profile_name = std::string(*v);
    } else if (auto v = value("--plugin-args")) {
      const size_t eq = v->find('=');
      if (eq == std::string_view::npos || eq == 0) {
        return absl::InvalidArgumentError(schedkit::StrCat("--plugin-args: expected NAME=JSON, got \"", *v, "\""));
      }
      plugin_args[std::string(v->substr(0, eq))] = std::string(v->substr(eq + 1));
    } else if (auto v = value("--node-label")) {
      const size_t eq = v->find('=');
      if (eq == std::string_view::npos || eq == 0) {
        return absl::InvalidArgumentError(
            schedkit::StrCat("--node-label: expected KEY=VALUE[|VALUE...], got \"", *v, "\""));
      }
      chain.node_labels.push_back(
          {std::string(v->substr(0, eq)), absl::StrSplit(std::string(v->substr(eq + 1)), '|')});
    } else if (auto v = value("--pod")) {
      auto it = Templates().find(*v);
      if (it == Templates().end()) return absl::InvalidArgumentError(schedkit::StrCat("--pod: unknown template \"", *v, "\""));
      chain.pod = it->second;
    } else if (auto v = value("--pods-per-node")) {
      if (!absl::SimpleAtoi(std::string(*v), &chain.pods_per_node) || chain.pods_per_node < 0) {
        return absl::InvalidArgumentError(schedkit::StrCat("--pods-per-node: not a count: \"", *v, "\""));
      }
    } else if (auto v = value("--iterations")) {
      if (!absl::SimpleAtoi(std::string(*v), &chain.iterations) || chain.iterations < 1) {
        return absl::InvalidArgumentError(schedkit::StrCat("--iterations: not a positive count: \"", *v, "\""));
      }
    } else if (auto v = value("--threads")) {
      if (!absl::SimpleAtoi(std::string(*v), &chain.threads) || chain.threads < 1) {
        return absl::InvalidArgumentError(schedkit::StrCat("--threads: not a positive count: \"", *v, "\""));
      }
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  if (!config_path.empty() && !plugins.empty()) return absl::InvalidArgumentError("--config and --plugins exclude each other");
  chain.source = "the default configuration";
  if (!config_path.empty()) {
    auto loaded = config::LoadConfiguration(config_path);
    if (!loaded.ok()) return loaded.status();
    cfg = *std::move(loaded);
    chain.source = config_path;
  } else if (!plugins.empty()) {
    auto parsed = config::ParseConfiguration(PluginsConfig(plugins), "--plugins");
    if (!parsed.ok()) return parsed.status();
    cfg = *std::move(parsed);
    chain.source = "--plugins";
  }
  const framework::Profile* chosen = &cfg.profiles.front();
  if (!profile_name.empty()) {
    chosen = nullptr;
    std::string names;
    for (const framework::Profile& p : cfg.profiles) {
      if (p.scheduler_name == profile_name) chosen = &p;
      schedkit::StrAppend(&names, names.empty() ? "" : ", ", "\"", p.scheduler_name, "\"");
    }
    if (chosen == nullptr) {
      return absl::InvalidArgumentError(schedkit::StrCat("--profile: no profile \"", profile_name, "\" in ",
                                                         chain.source, " (it has ", names, ")"));
    }
  }
  chain.profile = *chosen;
  for (auto& [name, args] : plugin_args) chain.profile.plugin_args[name] = framework::PluginArgs(args);
  chain.percentage_of_nodes_to_score = cfg.percentage_of_nodes_to_score;
  return absl::OkStatus();
}

void BM_Cycle(benchmark::State& bench, const Chain* chain) {
  const int nodes = static_cast<int>(bench.range(0));
  framework::ClusterState cluster;
  static const std::vector<std::string> kZones = {"zone1", "zone2", "zone3"};
  for (int i = 0; i < nodes; ++i) {
    const std::string name = schedkit::StrCat("scheduler-perf-", i);
    api::v1::Node made = perf::MakeDefaultNode(name, kZones[i % kZones.size()]);
    for (const NodeLabel& l : chain->node_labels) {
      (*made.mutable_metadata()->mutable_labels())[l.key] = l.values[i % l.values.size()];
    }
    auto node = std::make_shared<const api::v1::Node>(std::move(made));
    if (!cluster.AddNode(node).ok()) return bench.SkipWithError("node rejected");
    for (int j = 0; j < chain->pods_per_node; ++j) {
      api::v1::Pod pod = perf::MakePod(chain->pod, "running", schedkit::StrCat("pod-", i, "-", j));
      pod.mutable_spec()->set_node_name(name);
      auto info = framework::PodInfo::Create(pod);
      if (!info.ok() || !cluster.AddPod(*info).ok()) return bench.SkipWithError("running pod rejected");
    }
  }
  framework::Snapshot snapshot;
  cluster.UpdateSnapshot(snapshot);
  framework::FrameworkOptions options;
  options.parallelism = chain->threads;
  options.percentage_of_nodes_to_score = chain->percentage_of_nodes_to_score;
  // Every iteration schedules the same pod on the same snapshot, so the
  // outcome memo would answer for the per-node plugins from the second one
  // on: off, so that the figures are the plugins' work.
  options.memoize_per_node_outcomes = false;
  auto fw = framework::Framework::Create(chain->registry, chain->profile, options);
  if (!fw.ok()) return bench.SkipWithError(std::string(fw.status().message()).c_str());
  auto pod = framework::PodInfo::Create(perf::MakePod(chain->pod, "incoming", "pod-0"));
  if (!pod.ok()) return bench.SkipWithError("incoming pod rejected");

  framework::SelectionState selection;
  int64_t evaluated = 0;
  int64_t scheduled = 0;
  for (auto _ : bench) {
    framework::CycleState state;
    framework::ScheduleOutcome out = (*fw)->SchedulePod(state, *pod, snapshot, selection);
    benchmark::DoNotOptimize(out.result.suggested_host);
    evaluated += out.result.evaluated_nodes;
    scheduled += out.status.IsSuccess() ? 1 : 0;
  }
  const auto iterations = static_cast<double>(bench.iterations());
  bench.counters["nodes_evaluated"] = static_cast<double>(evaluated) / iterations;
  // A cycle that finds no node still does all the work, but it is a
  // different workload; the counter makes that visible.
  bench.counters["feasible"] = static_cast<double>(scheduled) / iterations;
  bench.counters["ns_per_node"] =
      benchmark::Counter(static_cast<double>(nodes) * iterations, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  bench.SetItemsProcessed(bench.iterations());
}

}  // namespace

int ChainBenchmarkMain(int argc, char** argv, framework::Registry registry) {
  auto chain = std::make_unique<Chain>();
  if (argc > 0 && argv[0] != nullptr && argv[0][0] != '\0') {
    const std::string_view path(argv[0]);
    chain->program = std::string(path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1));
  }
  chain->registry = std::move(registry);
  if (absl::Status s = ParseFlags(argc, argv, *chain); !s.ok()) {
    std::fprintf(stderr, "%s: %s\n", chain->program.c_str(), std::string(s.message()).c_str());
    return 2;
  }
  // A chain that does not build is bad usage, not a benchmark error.
  if (auto fw = framework::Framework::Create(chain->registry, chain->profile, {}); !fw.ok()) {
    std::fprintf(stderr, "%s: %s\n", chain->program.c_str(), std::string(fw.status().message()).c_str());
    return 2;
  }
  std::fprintf(stderr, "%s: profile \"%s\" of %s\n", chain->program.c_str(), chain->profile.scheduler_name.c_str(),
               chain->source.c_str());
  benchmark::internal::Benchmark* bm = benchmark::RegisterBenchmark("BM_Cycle", BM_Cycle, chain.get())
                                          ->ArgName("nodes")
                                          ->Arg(1000)
                                          ->Arg(5000)
                                          ->Arg(15000)
                                          ->UseRealTime()  // the cycle fans out to other threads
                                          ->Unit(benchmark::kMicrosecond);
  if (chain->iterations > 0) bm->Iterations(chain->iterations);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace schedkit::bench
