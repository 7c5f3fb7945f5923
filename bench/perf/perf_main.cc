// schedkit-perf: upstream kube-scheduler's scheduler_perf workloads run
// against schedkit's real scheduler in memory, reporting upstream's
// SchedulingThroughput (1-second samples of pods bound: Average, Perc50/90/
// 95/99), pods/s over the whole measured phase, scheduling-attempt latency,
// peak RSS and a memory-read floor to quote the figures against.
//
//   schedkit-perf --workload NAME [--nodes N] [--init-pods N] [--pods N]
//                 [--config PATH] [--output table|json] [--threads N]
//                 [--stall-timeout SECONDS] [--progress] [--bind-on-pool] [--no-memo]
//                 [--distinct-pods] [--list]
//                 [--vs-upstream [--oracle PATH]]
//
// Defaults are upstream's sizes for the workload (--list shows them);
// --init-pods is per init createPods op, as upstream's initPods param.
// Binding cycles run on the scheduling thread (the in-memory host binds at
// once); --bind-on-pool runs them on the default executor's thread pool.
// --no-memo turns off the reuse of per-node plugin outcomes across pods of
// one signature (FrameworkOptions::memoize_per_node_outcomes), to show what
// it saves; decisions are the same either way. --distinct-pods gives every
// measured pod its own requests and labels, so the memo has nothing to reuse
// across them.
// --vs-upstream then runs upstream's scheduler (the conformance oracle, built
// by `make oracle`) on the identical cluster and pods and prints both figures.
// Exit codes: 0 when every init and measured pod was bound (by both, with
// --vs-upstream), 1 when a run stalled or upstream left pods unbound (the
// report is still printed) or on internal errors, 2 for bad usage.
#include "schedkit/bench/perf_main.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/flags/flag.h"
#include "command_line/command_line.h"
#include "floor.h"
#include "kubectl_dump.h"
#include "report.h"
#include "runner.h"
#include "trace_runner.h"
#include "upstream.h"
#include "workload_file.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/config/configuration.h"
#include "schedkit/framework/framework.h"
#include "workloads.h"

ABSL_FLAG(std::string, workload, "", "the workload to run (required unless --list or --workload-file)");
ABSL_FLAG(std::string, workload_file, "", "a workload file (JSON or YAML, bench/perf/README.md) to run instead");
ABSL_FLAG(double, scale, 1.0, "with --workload-file: multiply node and pod group counts by this");
ABSL_FLAG(double, until, 0,
          "with --workload-file: replay only the measured timeline's instants before this many seconds (0: all)");
ABSL_FLAG(std::vector<std::string>, from_kubectl, {},
          "print a workload file made from these kubectl dumps (files or directories, comma-separated) and exit");
ABSL_FLAG(bool, keep_bound, false, "with --from-kubectl: bound pods stay where they are; only pending pods replay");
ABSL_FLAG(std::string, name, "FromKubectl", "with --from-kubectl: the workload's name");
ABSL_FLAG(std::optional<int>, nodes, std::nullopt, "nodes (default: the workload's upstream size)");
ABSL_FLAG(std::optional<int>, init_pods, std::nullopt,
          "pods per init createPods op, as upstream's initPods (default: the workload's)");
ABSL_FLAG(std::optional<int>, pods, std::nullopt, "measured pods (default: the workload's)");
ABSL_FLAG(std::string, config, "", "a KubeSchedulerConfiguration for the scheduler (default: upstream's)");
ABSL_FLAG(schedkit::command_line::Output, output, schedkit::command_line::Output::kTable, "table or json (upstream's DataItems)");
ABSL_FLAG(int, threads, 2, "the scheduler's parallelism");
ABSL_FLAG(int, stall_timeout, 120, "seconds without a bind after which a run counts as stalled");
ABSL_FLAG(int, churn_every_ms, 0,
          "the churn op's tick interval in ms (default 0: the workload's, upstream's 200 or 1000)");
ABSL_FLAG(bool, progress, false, "print progress on stderr");
ABSL_FLAG(bool, bind_on_pool, false, "run binding cycles on the executor's threads, not the scheduling thread");
ABSL_FLAG(bool, no_memo, false, "turn off the reuse of per-node plugin outcomes across pods of one signature");
ABSL_FLAG(bool, distinct_pods, false,
          "give every measured pod its own requests and labels, so no two share an outcome-memo signature");
ABSL_FLAG(bool, list, false, "list the workloads and upstream's sizes");
ABSL_FLAG(bool, vs_upstream, false, "also run upstream's scheduler (the oracle) on the same cluster and pods");
ABSL_FLAG(std::string, oracle, "",
          "with --vs-upstream: the oracle binary (default: $SCHEDKIT_ORACLE, else "
          "tests/conformance/.bin/schedkit-oracle, which `make oracle` builds)");

namespace {

using schedkit::perf::Workload;

constexpr char kUsage[] =
    "usage: schedkit-perf --workload NAME [--nodes N] [--init-pods N] [--pods N] [--distinct-pods]\n"
    "                     [COMMON...]\n"
    "       schedkit-perf --workload-file FILE [--scale X] [--until SECONDS] [COMMON...]\n"
    "       schedkit-perf --list\n"
    "       schedkit-perf --from-kubectl DUMP[,DUMP...] [--keep-bound] [--name NAME] > workload.json\n"
    "COMMON: [--config PATH] [--output table|json] [--threads N] [--stall-timeout SECONDS] [--progress]\n"
    "        [--bind-on-pool] [--no-memo] [--vs-upstream [--oracle PATH]]\n";

// Set once, by PerfMain, before anything reads it.
schedkit::command_line::Program& Program() {
  static schedkit::command_line::Program* program =
      new schedkit::command_line::Program{"schedkit-perf", kUsage, {}};
  return *program;
}

// The process's allocator, for the report: a program that links oneTBB's
// malloc replacement (schedkit-perf does) has its symbols.
const char* Allocator() {
  return dlsym(RTLD_DEFAULT, "scalable_malloc") != nullptr ? "oneTBB scalable" : "glibc";
}

[[noreturn]] void Fail(int code, const std::string& message) {
  schedkit::command_line::Fail(Program(), code, message);
}

// The value of an integer flag that must be at least `min`.
template <typename T>
T AtLeast(const absl::Flag<T>& flag, std::string_view spelled, int min) {
  const T v = absl::GetFlag(flag);
  int value = 0;
  if constexpr (std::is_same_v<T, int>) {
    value = v;
  } else {
    if (!v.has_value()) return v;
    value = *v;
  }
  if (value < min) Fail(2, schedkit::StrCat(spelled, " must be at least ", min, ", got ", value));
  return v;
}

void List() {
  std::printf("%-36s %7s %9s %8s  %s\n", "WORKLOAD", "NODES", "INIT PODS", "PODS", "UPSTREAM");
  for (const Workload& w : schedkit::perf::AllWorkloads()) {
    std::printf("%-36s %7d %9d %8d  %s\n", w.name.c_str(), w.default_nodes, w.default_init_pods, w.default_pods,
                w.upstream.c_str());
  }
}

// The configuration from --config and --threads.
schedkit::config::SchedulerConfiguration Configuration(const std::string& config_path) {
  schedkit::config::SchedulerConfiguration config = schedkit::config::DefaultConfiguration();
  if (!config_path.empty()) {
    auto loaded = schedkit::config::LoadConfiguration(config_path);
    if (!loaded.ok()) Fail(2, std::string(loaded.status().message()));
    config = *std::move(loaded);
  }
  config.parallelism = AtLeast(FLAGS_threads, "--threads", 1);
  return config;
}

// A workload file's stand-in for the built-in workloads' description, for
// the report: its name, its path, no upstream threshold.
Workload FileWorkload(const schedkit::perf::Trace& trace) {
  Workload w;
  w.name = trace.name;
  w.upstream = "workload file " + trace.path;
  w.floor_columns = 3;
  w.floor_columns_doc = "NodeResourcesFit: free milli-cpu, free memory bytes, free pod slots";
  return w;
}

int Run(int argc, char** argv, const schedkit::framework::Registry& registry) {
  const std::vector<std::string> rest = schedkit::command_line::Parse(Program(), argc, argv);
  if (!rest.empty()) Fail(2, schedkit::StrCat("unexpected argument \"", rest[0], "\"\n", kUsage));
  if (absl::GetFlag(FLAGS_list)) {
    List();
    return 0;
  }
  if (const std::vector<std::string> dumps = absl::GetFlag(FLAGS_from_kubectl); !dumps.empty()) {
    auto text = schedkit::perf::WorkloadFromKubectl(
        dumps, {.name = absl::GetFlag(FLAGS_name), .keep_bound = absl::GetFlag(FLAGS_keep_bound)});
    if (!text.ok()) Fail(2, std::string(text.status().message()));
    std::cout << *text;
    return 0;
  }
  const std::string workload = absl::GetFlag(FLAGS_workload);
  const std::string workload_file = absl::GetFlag(FLAGS_workload_file);
  const std::string config_path = absl::GetFlag(FLAGS_config);
  const bool vs_upstream = absl::GetFlag(FLAGS_vs_upstream);
  std::string oracle = absl::GetFlag(FLAGS_oracle);
  if (workload.empty() == workload_file.empty()) {
    Fail(2, schedkit::StrCat("give one of --workload and --workload-file\n", kUsage));
  }
  if (!oracle.empty() && !vs_upstream) Fail(2, "--oracle needs --vs-upstream");
  if (vs_upstream && oracle.empty()) {
    const char* env = std::getenv("SCHEDKIT_ORACLE");
    oracle = env != nullptr && *env != '\0' ? env : "tests/conformance/.bin/schedkit-oracle";
  }
  const std::optional<int> nodes = AtLeast(FLAGS_nodes, "--nodes", 1);
  const std::optional<int> init_pods = AtLeast(FLAGS_init_pods, "--init-pods", 0);
  const std::optional<int> pods = AtLeast(FLAGS_pods, "--pods", 1);
  const double scale = absl::GetFlag(FLAGS_scale);
  const bool distinct = absl::GetFlag(FLAGS_distinct_pods);
  if (!workload_file.empty() && (nodes || init_pods || pods || distinct)) {
    Fail(2, "--nodes, --init-pods, --pods and --distinct-pods are for --workload; a workload file sets its own "
            "(use --scale)");
  }
  if (workload_file.empty() && scale != 1.0) Fail(2, "--scale needs --workload-file");
  const double until = absl::GetFlag(FLAGS_until);
  if (workload_file.empty() && until != 0) Fail(2, "--until needs --workload-file");
  if (!(until >= 0) || !std::isfinite(until)) Fail(2, "--until must be 0 (all) or more");

  // The built-in workload, or the file's stand-in.
  const Workload* w = nullptr;
  std::optional<schedkit::perf::Trace> trace;
  Workload file_workload;
  if (!workload_file.empty()) {
    auto loaded = schedkit::perf::LoadWorkloadFile(workload_file, scale);
    if (!loaded.ok()) Fail(2, std::string(loaded.status().message()));
    trace = *std::move(loaded);
    if (until > 0) schedkit::perf::KeepUntil(*trace, until);
    file_workload = FileWorkload(*trace);
    w = &file_workload;
  } else {
    w = schedkit::perf::FindWorkload(workload);
    if (w == nullptr) Fail(2, schedkit::StrCat("unknown workload \"", workload, "\" (see --list)"));
  }

  schedkit::perf::RunOptions options;
  options.workload = w;
  if (!trace) {
    options.nodes = nodes.value_or(w->default_nodes);
    options.init_pods = w->init_ops.empty() ? 0 : init_pods.value_or(w->default_init_pods);
    options.pods = pods.value_or(w->default_pods);
    if (absl::Status s = schedkit::perf::CheckSchedulable(*w, options.nodes, options.init_pods, options.pods);
        !s.ok()) {
      Fail(2, std::string(s.message()));
    }
  }
  options.config = Configuration(config_path);
  options.stall_timeout = absl::Seconds(AtLeast(FLAGS_stall_timeout, "--stall-timeout", 1));
  if (absl::GetFlag(FLAGS_churn_every_ms) != 0) {
    options.churn_every = absl::Milliseconds(AtLeast(FLAGS_churn_every_ms, "--churn-every-ms", 1));
  }
  options.progress = absl::GetFlag(FLAGS_progress);
  options.bind_on_pool = absl::GetFlag(FLAGS_bind_on_pool);
  options.memoize = !absl::GetFlag(FLAGS_no_memo);
  options.distinct_pods = distinct;
  std::optional<schedkit::perf::ScratchDir> scratch;
  std::string timeline_path;
  if (vs_upstream) {
    if (access(oracle.c_str(), X_OK) != 0) {
      Fail(2, schedkit::StrCat("--oracle ", oracle, ": not an executable; build it with `make oracle`"));
    }
    scratch.emplace();
    if (scratch->path().empty()) Fail(1, "cannot create a temporary directory");
    options.upstream_cluster_path = scratch->path() + "/cluster.json";
    // A workload file's timeline, or the churn op's ticks as schedkit's run met them.
    if (trace || w->churn != schedkit::perf::Churn::kNone) timeline_path = scratch->path() + "/timeline.json";
    options.upstream_timeline_path = timeline_path;
  }

  absl::StatusOr<schedkit::perf::RunResult> run;
  if (trace) {
    run = schedkit::perf::RunTrace({.trace = &*trace,
                                    .registry = &registry,
                                    .config = options.config,
                                    .bind_on_pool = options.bind_on_pool,
                                    .memoize = options.memoize,
                                    .stall_timeout = options.stall_timeout,
                                    .progress = options.progress,
                                    .upstream_cluster_path = options.upstream_cluster_path,
                                    .upstream_timeline_path = timeline_path});
  } else {
    options.registry = &registry;
    run = schedkit::perf::RunWorkload(options);
  }
  if (!run.ok()) {
    const bool bad_input = run.status().code() == absl::StatusCode::kInvalidArgument ||
                           run.status().code() == absl::StatusCode::kNotFound;
    scratch.reset();  // Fail exits without unwinding
    Fail(bad_input ? 2 : 1, std::string(run.status().message()));
  }

  // The floor, after the run so it does not compete with it.
  schedkit::perf::Report report;
  report.workload = w;
  report.nodes = trace ? run->nodes : options.nodes;
  report.init_pods = trace ? run->init_pods : options.init_pods;
  report.pods = trace ? run->measured_pods : options.pods;
  report.parallelism = options.config.parallelism;
  report.binding = options.bind_on_pool ? "pool" : "scheduling thread";
  report.memoize = options.memoize;
  report.distinct_pods = options.distinct_pods;
  report.allocator = Allocator();
  report.run = &*run;
  // Enough pods to time reliably, few enough to stay quick at 15000 nodes.
  const int floor_pods = std::clamp(report.pods, 1000, 5000);
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
  if (vs_upstream && run->complete()) {
    auto up = schedkit::perf::RunUpstream({.oracle = oracle,
                                           .cluster = options.upstream_cluster_path,
                                           .config = config_path,
                                           .parallelism = options.config.parallelism,
                                           .scratch_dir = scratch->path(),
                                           .timeline = timeline_path});
    if (!up.ok()) {
      scratch.reset();  // Fail exits without unwinding
      Fail(1, std::string(up.status().message()));
    }
    report.upstream = *up;
  }

  if (absl::GetFlag(FLAGS_output) == schedkit::command_line::Output::kJson) {
    std::cout << schedkit::perf::DataItemsJson(report).dump(2) << "\n";
  } else {
    std::cout << schedkit::perf::Table(report);
  }
  if (!run->complete()) {
    std::fprintf(stderr, "%s: %s\n", Program().name.c_str(), run->error.c_str());
    return 1;
  }
  // Every measured pod is schedulable (a churn op's pods never are), so the
  // comparison is void when upstream left one unbound.
  if (!trace && report.upstream && report.upstream->scheduled != report.pods) {
    std::fprintf(stderr, "%s: upstream bound %d of %d measured pods\n", Program().name.c_str(),
                 report.upstream->scheduled, report.pods);
    return 1;
  }
  return 0;
}

}  // namespace

namespace schedkit::bench {

int PerfMain(int argc, char** argv, const framework::Registry& registry) {
  Program().name = command_line::ProgramName(argc, argv, "schedkit-perf");
  try {
    return Run(argc, argv, registry);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: internal error: %s\n", Program().name.c_str(), e.what());
    return 1;
  } catch (...) {
    std::fprintf(stderr, "%s: internal error\n", Program().name.c_str());
    return 1;
  }
}

}  // namespace schedkit::bench
