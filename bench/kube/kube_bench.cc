// schedkit-kube and upstream's kube-scheduler v1.37, one after the other,
// against a real kube-apiserver (the tests' helper) on this machine. Each
// run gets a fresh API server, the workload's nodes and init pods, then its
// measured pods created while the scheduler runs (bench_run.h has the
// phases). Prints one table row per run: pods/s, creation-to-binding latency
// percentiles, the scheduler process's CPU seconds and peak RSS.
// `make bench-kube` builds what it needs and runs it (ARGS=... adds flags).
//
//   kube_bench [--workload all|SchedulingBasic|TopologySpreading|SchedulingPodAntiAffinity]
//              [--scheduler both|schedkit|kube-scheduler]
//              [--schedkit-kube PATH] [--kube-scheduler PATH]
//              [--nodes 500] [--init-pods N] [--pods N] [--qps 5000] [--repeat 1]
//
// Binaries: --schedkit-kube or $SCHEDKIT_KUBE, --kube-scheduler or
// $KUBE_SCHEDULER; the API server is $SCHEDKIT_TEST_APISERVER. --scheduler
// defaults to both when kube-scheduler's binary is known, else schedkit.
// Without --init-pods/--pods a workload takes the sizes of upstream's
// 500Nodes case (scheduler_perf at v1.35.8). --qps sets clientConnection qps
// and burst for both (scheduler_perf's client uses 5000). --repeat N runs
// everything N times, swapping the schedulers' order on every round.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "kube/bench_run.h"
#include "schedkit/base/str_cat.h"
#include "workloads.h"

namespace {

using schedkit::StrCat;

[[noreturn]] void Die(std::string_view message) {
  std::fprintf(stderr, "kube_bench: %.*s\n", static_cast<int>(message.size()), message.data());
  std::exit(1);
}

constexpr std::string_view kFlags[] = {"--workload", "--scheduler", "--schedkit-kube", "--kube-scheduler",
                                       "--nodes",    "--init-pods", "--pods",          "--qps",
                                       "--repeat"};

std::string Flag(int argc, char** argv, std::string_view name, std::string fallback) {
  for (int i = 1; i + 1 < argc; i += 2) {
    if (argv[i] == name) return argv[i + 1];
  }
  return fallback;
}

int IntFlag(int argc, char** argv, std::string_view name, int fallback) {
  const std::string v = Flag(argc, argv, name, "");
  int n = fallback;
  if (!v.empty() && (!absl::SimpleAtoi(v, &n) || n < 0)) Die(StrCat(name, ": not a count: ", v));
  return n;
}

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

// Upstream's 500Nodes case of each workload (init pods per init op).
struct Size {
  const char* workload;
  int init_pods;
  int pods;
};
constexpr Size kSizes[] = {
    {"SchedulingBasic", 500, 1000},
    {"TopologySpreading", 1000, 1000},
    {"SchedulingPodAntiAffinity", 100, 400},
};

struct Scheduler {
  std::string name;
  std::string binary;
};

struct Row {
  schedkit::bench::RunSpec spec;
  schedkit::bench::RunResult result;
};

void PrintTable(const std::vector<Row>& rows) {
  std::printf(
      "\n| workload | nodes / init / measured | scheduler | pods/s | pods created in s | "
      "latency ms p50 / p90 / p99 (watch) | "
      "latency s p50 / p90 / p99 (API server) | CPU s measured | CPU s per 1,000 pods | CPU s total | "
      "peak RSS MiB |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const Row& row : rows) {
    const auto& s = row.spec;
    const auto& r = row.result;
    const int init = s.init_pods * static_cast<int>(s.workload->init_ops.size());
    std::printf("| %s | %d / %d / %d | %s | %.0f | %.2f | %.0f / %.0f / %.0f | %.0f / %.0f / %.0f | %.2f | %.2f | "
                "%.2f | %.0f |\n",
                s.workload->name.c_str(), s.nodes, init, s.pods, s.scheduler.c_str(), r.pods_per_second,
                r.create_seconds,
                r.watch_p50_ms, r.watch_p90_ms, r.watch_p99_ms, r.server_p50_s, r.server_p90_s, r.server_p99_s,
                r.cpu_measured_seconds, s.pods > 0 ? r.cpu_measured_seconds * 1000.0 / s.pods : 0.0,
                r.cpu_total_seconds, r.peak_rss_mb);
  }
  std::printf(
      "\npods/s: measured pods / (first create request to last pod seen bound); pods created in: the 8 creating "
      "threads'\nlast reply (the API server's pace, a floor under the time). Latency: creation to binding; "
      "watch = this\nprocess's pod watch (µs clock), API server = creationTimestamp to PodScheduled "
      "lastTransitionTime (1 s resolution).\nCPU s measured: the scheduler's user+system during the measured "
      "phase (/proc); total and peak RSS: wait4's rusage\n(from start to exit: startup, caches, init pods).\n");
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; i += 2) {
    const std::string_view f = argv[i];
    if (std::find(std::begin(kFlags), std::end(kFlags), f) == std::end(kFlags) || i + 1 >= argc) {
      Die(StrCat("bad flag ", f, " (see the comment at the top of bench/kube/kube_bench.cc)"));
    }
  }
  const Scheduler schedkit{"schedkit-kube", Flag(argc, argv, "--schedkit-kube", Env("SCHEDKIT_KUBE"))};
  const Scheduler upstream{"kube-scheduler", Flag(argc, argv, "--kube-scheduler", Env("KUBE_SCHEDULER"))};
  const std::string which = Flag(argc, argv, "--scheduler", upstream.binary.empty() ? "schedkit" : "both");
  std::vector<Scheduler> schedulers;
  if (which == "both" || which == "schedkit") schedulers.push_back(schedkit);
  if (which == "both" || which == "kube-scheduler") schedulers.push_back(upstream);
  if (schedulers.empty()) Die("--scheduler: both, schedkit or kube-scheduler");
  for (const Scheduler& s : schedulers) {
    if (s.binary.empty()) Die(StrCat("no binary for ", s.name, ": --schedkit-kube / --kube-scheduler PATH"));
  }
  const std::string workload = Flag(argc, argv, "--workload", "all");
  std::vector<const Size*> sizes;
  for (const Size& size : kSizes) {
    if (workload == "all" || workload == size.workload) sizes.push_back(&size);
  }
  if (sizes.empty()) Die(StrCat("--workload: all, SchedulingBasic, TopologySpreading or SchedulingPodAntiAffinity"));
  const int repeat = IntFlag(argc, argv, "--repeat", 1);

  std::vector<Row> rows;
  for (int round = 0; round < repeat; ++round) {
    for (const Size* size : sizes) {
      const schedkit::perf::Workload* w = schedkit::perf::FindWorkload(size->workload);
      if (w == nullptr) Die(StrCat("no workload ", size->workload));
      for (size_t k = 0; k < schedulers.size(); ++k) {
        const Scheduler& s = schedulers[round % 2 == 0 ? k : schedulers.size() - 1 - k];
        Row row;
        row.spec.workload = w;
        row.spec.nodes = IntFlag(argc, argv, "--nodes", 500);
        row.spec.init_pods = IntFlag(argc, argv, "--init-pods", size->init_pods);
        row.spec.pods = IntFlag(argc, argv, "--pods", size->pods);
        row.spec.qps = IntFlag(argc, argv, "--qps", 5000);
        row.spec.scheduler = s.name;
        row.spec.binary = s.binary;
        const int total = row.spec.init_pods * static_cast<int>(w->init_ops.size()) + row.spec.pods;
        if (w->measured.tmpl == schedkit::perf::PodTemplate::kPodAntiAffinity && total > row.spec.nodes) {
          Die(StrCat(w->name, ": ", total, " pods anti-affine on the hostname cannot fit ", row.spec.nodes,
                     " nodes"));
        }
        std::fprintf(stderr, "kube_bench: %s, %s ...\n", w->name.c_str(), s.name.c_str());
        auto r = schedkit::bench::RunOnce(row.spec);
        if (!r.ok()) Die(StrCat(w->name, " with ", s.name, ": ", r.status().message()));
        row.result = *r;
        std::fprintf(stderr, "kube_bench: %s, %s: %.0f pods/s, %.2f CPU s (total %.2f), %.0f MiB; log %s\n",
                     w->name.c_str(), s.name.c_str(), r->pods_per_second, r->cpu_measured_seconds,
                     r->cpu_total_seconds, r->peak_rss_mb, r->log.c_str());
        rows.push_back(std::move(row));
      }
    }
  }
  PrintTable(rows);
  return 0;
}
