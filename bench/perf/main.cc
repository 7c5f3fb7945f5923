// schedkit-perf: upstream kube-scheduler's scheduler_perf workloads run
// against schedkit's real scheduler in memory, reporting upstream's
// SchedulingThroughput (1-second samples of pods bound: Average, Perc50/90/
// 95/99), pods/s over the whole measured phase, scheduling-attempt latency,
// peak RSS and a memory-read floor to quote the figures against.
//
//   schedkit-perf --workload NAME [--nodes N] [--init-pods N] [--pods N]
//                 [--config PATH] [--output table|json] [--threads N]
//                 [--stall-timeout SECONDS] [--progress] [--bind-on-pool] [--no-memo] [--list]
//                 [--vs-upstream [--oracle PATH]]
//
// Defaults are upstream's sizes for the workload (--list shows them);
// --init-pods is per init createPods op, as upstream's initPods param.
// Binding cycles run on the scheduling thread (the in-memory host binds at
// once); --bind-on-pool runs them on the default executor's thread pool.
// --no-memo turns off the reuse of per-node plugin outcomes across pods of
// one signature (FrameworkOptions::memoize_per_node_outcomes), to show what
// it saves; decisions are the same either way.
// --vs-upstream then runs upstream's scheduler (the conformance oracle, built
// by `make oracle`) on the identical cluster and pods and prints both figures.
// Exit codes: 0 when every init and measured pod was bound (by both, with
// --vs-upstream), 1 when a run stalled or upstream left pods unbound (the
// report is still printed) or on internal errors, 2 for bad usage.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <optional>
#include <string>

#include "absl/strings/numbers.h"
#include "floor.h"
#include "report.h"
#include "runner.h"
#include "upstream.h"
#include "schedkit/api/str_cat.h"
#include "schedkit/config/configuration.h"
#include "schedkit/framework/framework.h"
#include "workloads.h"

namespace {

using schedkit::perf::Workload;

constexpr char kUsage[] =
    "usage: schedkit-perf --workload NAME [--nodes N] [--init-pods N] [--pods N] [--config PATH]\n"
    "                     [--output table|json] [--threads N] [--stall-timeout SECONDS] [--progress]\n"
    "                     [--bind-on-pool] [--no-memo]\n"
    "                     [--vs-upstream [--oracle PATH]]\n"
    "       schedkit-perf --list\n";

struct Flags {
  std::string workload;
  std::optional<int> nodes, init_pods, pods;
  std::string config;
  std::string output = "table";
  int threads = 2;
  int stall_timeout_seconds = 120;
  bool progress = false;
  bool bind_on_pool = false;
  bool memoize = true;
  bool list = false;
  bool vs_upstream = false;
  // Default: $SCHEDKIT_ORACLE, else where `make oracle` puts it.
  std::string oracle;
};

[[noreturn]] void Fail(int code, const std::string& message) {
  std::fprintf(stderr, "schedkit-perf: %s\n", message.c_str());
  std::exit(code);
}

int ParseInt(const std::string& flag, const std::string& value, int min) {
  int v = 0;
  if (!absl::SimpleAtoi(value, &v) || v < min) {
    Fail(2, schedkit::StrCat(flag, " must be an integer of at least ", min, ", got \"", value, "\""));
  }
  return v;
}

Flags ParseFlags(int argc, char** argv) {
  Flags f;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool has_value = false;
    if (auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_value = true;
    }
    auto next = [&]() -> std::string {
      if (has_value) return value;
      if (i + 1 >= argc) Fail(2, schedkit::StrCat(arg, " needs a value\n", kUsage));
      return argv[++i];
    };
    if (arg == "--workload") {
      f.workload = next();
    } else if (arg == "--nodes") {
      f.nodes = ParseInt(arg, next(), 1);
    } else if (arg == "--init-pods") {
      f.init_pods = ParseInt(arg, next(), 0);
    } else if (arg == "--pods") {
      f.pods = ParseInt(arg, next(), 1);
    } else if (arg == "--config") {
      f.config = next();
    } else if (arg == "--output") {
      f.output = next();
      if (f.output != "table" && f.output != "json") {
        Fail(2, schedkit::StrCat("--output must be table or json, got \"", f.output, "\""));
      }
    } else if (arg == "--threads") {
      f.threads = ParseInt(arg, next(), 1);
    } else if (arg == "--stall-timeout") {
      f.stall_timeout_seconds = ParseInt(arg, next(), 1);
    } else if (arg == "--progress") {
      f.progress = true;
    } else if (arg == "--bind-on-pool") {
      f.bind_on_pool = true;
    } else if (arg == "--no-memo") {
      f.memoize = false;
    } else if (arg == "--vs-upstream") {
      f.vs_upstream = true;
    } else if (arg == "--oracle") {
      f.oracle = next();
    } else if (arg == "--list") {
      f.list = true;
    } else if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else {
      Fail(2, schedkit::StrCat("unknown argument \"", arg, "\"\n", kUsage));
    }
  }
  if (!f.list && f.workload.empty()) Fail(2, schedkit::StrCat("--workload is required\n", kUsage));
  if (!f.oracle.empty() && !f.vs_upstream) Fail(2, "--oracle needs --vs-upstream");
  if (f.vs_upstream && f.oracle.empty()) {
    const char* env = std::getenv("SCHEDKIT_ORACLE");
    f.oracle = env != nullptr && *env != '\0' ? env : "tests/conformance/.bin/schedkit-oracle";
  }
  return f;
}

void List() {
  std::printf("%-36s %7s %9s %8s  %s\n", "WORKLOAD", "NODES", "INIT PODS", "PODS", "UPSTREAM");
  for (const Workload& w : schedkit::perf::AllWorkloads()) {
    std::printf("%-36s %7d %9d %8d  %s\n", w.name.c_str(), w.default_nodes, w.default_init_pods, w.default_pods,
                w.upstream.c_str());
  }
}

int Run(int argc, char** argv) {
  const Flags flags = ParseFlags(argc, argv);
  if (flags.list) {
    List();
    return 0;
  }
  const Workload* w = schedkit::perf::FindWorkload(flags.workload);
  if (w == nullptr) Fail(2, schedkit::StrCat("unknown workload \"", flags.workload, "\" (see --list)"));

  schedkit::perf::RunOptions options;
  options.workload = w;
  options.nodes = flags.nodes.value_or(w->default_nodes);
  options.init_pods = w->init_ops.empty() ? 0 : flags.init_pods.value_or(w->default_init_pods);
  options.pods = flags.pods.value_or(w->default_pods);
  if (absl::Status s = schedkit::perf::CheckSchedulable(*w, options.nodes, options.init_pods, options.pods); !s.ok()) {
    Fail(2, std::string(s.message()));
  }
  options.config = schedkit::config::DefaultConfiguration();
  if (!flags.config.empty()) {
    auto loaded = schedkit::config::LoadConfiguration(flags.config);
    if (!loaded.ok()) Fail(2, std::string(loaded.status().message()));
    options.config = *std::move(loaded);
  }
  options.config.parallelism = flags.threads;
  options.stall_timeout = absl::Seconds(flags.stall_timeout_seconds);
  options.progress = flags.progress;
  options.bind_on_pool = flags.bind_on_pool;
  options.memoize = flags.memoize;
  std::optional<schedkit::perf::ScratchDir> scratch;
  if (flags.vs_upstream) {
    // The churn ops inject objects on a timer, which a run from files cannot replay.
    if (w->churn != schedkit::perf::Churn::kNone) {
      Fail(2, schedkit::StrCat("--vs-upstream: ", w->name, " has a churn op, which the upstream run cannot replay"));
    }
    if (access(flags.oracle.c_str(), X_OK) != 0) {
      Fail(2, schedkit::StrCat("--oracle ", flags.oracle, ": not an executable; build it with `make oracle`"));
    }
    scratch.emplace();
    if (scratch->path().empty()) Fail(1, "cannot create a temporary directory");
    options.upstream_cluster_path = scratch->path() + "/cluster.json";
  }

  auto run = schedkit::perf::RunWorkload(options);
  if (!run.ok()) {
    const bool bad_input = run.status().code() == absl::StatusCode::kInvalidArgument ||
                           run.status().code() == absl::StatusCode::kNotFound;
    scratch.reset();  // Fail exits without unwinding
    Fail(bad_input ? 2 : 1, std::string(run.status().message()));
  }

  // The floor, after the run so it does not compete with it.
  schedkit::perf::Report report;
  report.workload = w;
  report.nodes = options.nodes;
  report.init_pods = options.init_pods;
  report.pods = options.pods;
  report.parallelism = options.config.parallelism;
  report.binding = options.bind_on_pool ? "pool" : "scheduling thread";
  report.memoize = options.memoize;
  report.allocator = SCHEDKIT_PERF_ALLOCATOR;
  report.run = &*run;
  // Enough pods to time reliably, few enough to stay quick at 15000 nodes.
  const int floor_pods = std::clamp(options.pods, 1000, 5000);
  const auto& profile = options.config.profiles.front();
  const int sampled = w->floor_nodes_override > 0
                          ? w->floor_nodes_override
                          : schedkit::framework::NumFeasibleNodesToFind(profile.percentage_of_nodes_to_score,
                                                                        options.config.percentage_of_nodes_to_score,
                                                                        run->nodes);
  report.floor_sampled = schedkit::perf::MeasureFloor(
      {.nodes = run->nodes, .nodes_read = sampled, .columns = w->floor_columns, .pods = floor_pods});
  report.floor_all = schedkit::perf::MeasureFloor(
      {.nodes = run->nodes, .nodes_read = run->nodes, .columns = w->floor_columns, .pods = floor_pods});

  // Upstream last, so that nothing else competes with either run.
  if (flags.vs_upstream && run->complete()) {
    auto up = schedkit::perf::RunUpstream({.oracle = flags.oracle,
                                           .cluster = options.upstream_cluster_path,
                                           .config = flags.config,
                                           .parallelism = options.config.parallelism,
                                           .scratch_dir = scratch->path()});
    if (!up.ok()) {
      scratch.reset();  // Fail exits without unwinding
      Fail(1, std::string(up.status().message()));
    }
    report.upstream = *up;
  }

  if (flags.output == "json") {
    std::cout << schedkit::perf::DataItemsJson(report).dump(2) << "\n";
  } else {
    std::cout << schedkit::perf::Table(report);
  }
  if (!run->complete()) {
    std::fprintf(stderr, "schedkit-perf: %s\n", run->error.c_str());
    return 1;
  }
  if (report.upstream && report.upstream->scheduled != report.upstream->pods) {
    // Every measured pod is schedulable, so the comparison is void.
    std::fprintf(stderr, "schedkit-perf: upstream bound %d of %d measured pods\n", report.upstream->scheduled,
                 report.upstream->pods);
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return Run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "schedkit-perf: internal error: %s\n", e.what());
    return 1;
  } catch (...) {
    std::fprintf(stderr, "schedkit-perf: internal error\n");
    return 1;
  }
}
