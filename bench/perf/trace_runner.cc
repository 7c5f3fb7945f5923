#include "trace_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "harness.h"
#include "nlohmann/json.hpp"
#include "schedkit/api/encode.h"
#include "schedkit/api/lister.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/framework/clock.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/scheduler/scheduler.h"

namespace schedkit::perf {
namespace {

bool HasPrefix(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

PodRole RoleOf(std::string_view uid) {
  if (HasPrefix(uid, kMeasuredUidPrefix)) return PodRole::kMeasured;
  if (HasPrefix(uid, kInitUidPrefix)) return PodRole::kInit;
  return PodRole::kOther;
}

// Feeds the measured timeline from the scheduling thread: each call, made
// when no pod is ready, moves the scheduler's clock to the next batch's
// instant (ClockInstants) and applies the batch; false once none is left.
class Feeder {
 public:
  Feeder(const Trace& trace, std::vector<double> instants, scheduler::Scheduler& sched, framework::FakeClock& clock,
         bool wait_for_bindings)
      : trace_(trace),
        instants_(std::move(instants)),
        sched_(sched),
        clock_(clock),
        start_(clock.Now()),
        wait_for_bindings_(wait_for_bindings) {}

  void Start() { started_.store(true); }
  bool OnIdle() {
    if (!started_.load(std::memory_order_acquire) || done_.load(std::memory_order_relaxed)) return false;
    // Binding cycles on the pool may still be at work: the batch must meet
    // the cluster they leave, as in upstream's sequential run.
    if (wait_for_bindings_) sched_.WaitForBindings();
    if (next_ == trace_.batches.size()) {
      done_.store(true);
      return false;
    }
    const TraceBatch& batch = trace_.batches[next_];
    // Runs the queue's flushes that fall due on the way (FakeClock::Advance
    // runs its timers on this thread).
    if (const absl::Duration ahead = start_ + absl::Seconds(instants_[next_]) - clock_.Now();
        ahead > absl::ZeroDuration()) {
      clock_.Advance(ahead);
    }
    for (const auto& [ns, name] : batch.deletions) {
      // A preemption victim is gone already.
      if (sched_.DeletePod(ns, name).ok()) deleted_.fetch_add(1, std::memory_order_relaxed);
    }
    for (int i : batch.arrivals) (void)sched_.AddPod(trace_.measured[static_cast<size_t>(i)]);
    ++next_;
    applied_.store(static_cast<int>(next_), std::memory_order_relaxed);
    return true;
  }

  bool done() const { return done_.load(); }
  int applied() const { return applied_.load(); }
  int deleted() const { return deleted_.load(); }

 private:
  const Trace& trace_;
  const std::vector<double> instants_;
  scheduler::Scheduler& sched_;
  framework::FakeClock& clock_;
  const absl::Time start_;  // the trace's instant 0
  const bool wait_for_bindings_;
  std::atomic<bool> started_{false};
  std::atomic<bool> done_{false};
  std::atomic<int> applied_{0};
  std::atomic<int> deleted_{0};
  size_t next_ = 0;  // scheduling thread only
};

}  // namespace

std::vector<double> ClockInstants(const Trace& trace, int64_t pod_max_backoff_seconds) {
  // Long enough for the 30-second flush to retry every pod that waited its
  // 5 minutes, and for the longest backoff to end; a whole number of flush
  // periods, so that the flush's ticks and the 1-second backoff windows stay
  // in phase after a shortened gap.
  constexpr double kFlushPeriod = 30;
  const double longest_wait = std::max<double>(5 * 60, static_cast<double>(pod_max_backoff_seconds)) + 2 * kFlushPeriod;
  const double settled = std::ceil(longest_wait / kFlushPeriod) * kFlushPeriod;
  std::vector<double> out;
  out.reserve(trace.batches.size());
  double cut = 0, last = 0;
  for (const TraceBatch& b : trace.batches) {
    if (const double gap = b.at - last; gap > settled) cut += std::floor((gap - settled) / kFlushPeriod) * kFlushPeriod;
    last = b.at;
    out.push_back(b.at - cut);
  }
  return out;
}

std::string TimelineJson(const Trace& trace, std::span<const double> instants) {
  nlohmann::ordered_json batches = nlohmann::ordered_json::array();
  for (size_t bi = 0; bi < trace.batches.size(); ++bi) {
    const TraceBatch& b = trace.batches[bi];
    nlohmann::ordered_json del = nlohmann::ordered_json::array();
    for (const auto& [ns, name] : b.deletions) del.push_back(ns + "/" + name);
    nlohmann::ordered_json create = nlohmann::ordered_json::array();
    for (int i : b.arrivals) {
      const api::v1::ObjectMeta& m = trace.measured[static_cast<size_t>(i)]->metadata();
      create.push_back(m.namespace_() + "/" + m.name());
    }
    batches.push_back({{"at", instants[bi]}, {"delete", std::move(del)}, {"create", std::move(create)}});
  }
  return nlohmann::ordered_json{{"batches", std::move(batches)}}.dump() + "\n";
}

absl::StatusOr<RunResult> RunTrace(const TraceRunOptions& options) {
  const Trace& trace = *options.trace;
  RunResult result;
  result.trace = true;
  result.init_pods = static_cast<int>(trace.init_pods.size());
  result.measured_pods = static_cast<int>(trace.measured.size());
  result.nodes = static_cast<int>(trace.initial.Of<api::v1::Node>().size());
  result.rss_start_kb = ResidentKb();

  auto lister = std::make_unique<api::StaticClusterLister>(trace.initial);
  PerfHost host([](const api::v1::Pod& pod) { return RoleOf(pod.metadata().uid()); });
  if (!options.upstream_cluster_path.empty()) host.RecordInitPlacements();
  const framework::Registry in_tree = plugins::NewInTreeRegistry();
  const framework::Registry& registry = options.registry != nullptr ? *options.registry : in_tree;
  framework::FakeClock trace_clock;
  scheduler::SchedulerOptions scheduler_options;
  scheduler_options.clock = &trace_clock;
  scheduler_options.bind_on_scheduling_thread = !options.bind_on_pool;
  scheduler_options.memoize_per_node_outcomes = options.memoize;
  auto created = scheduler::Scheduler::Create(options.config, registry, host, *lister, scheduler_options);
  if (!created.ok()) return created.status();
  std::unique_ptr<scheduler::Scheduler> sched = *std::move(created);
  host.set_scheduler(sched.get());
  result.rss_nodes_kb = ResidentKb();

  const std::vector<double> instants = ClockInstants(trace, options.config.pod_max_backoff_seconds);
  Feeder feeder(trace, instants, *sched, trace_clock, options.bind_on_pool);
  std::atomic<int64_t> last_idle_nanos{0};
  SchedulingLoop loop(
      *sched, [](const framework::PodInfo& pod) { return RoleOf(pod.uid()) == PodRole::kMeasured; },
      [&] {
        last_idle_nanos.store(NowNanos(), std::memory_order_relaxed);
        return feeder.OnIdle();
      });
  loop.Start();

  // Init pods: until all are bound, or the scheduler went idle after the
  // last was added with some left over (they fit nowhere).
  const auto init_start = SteadyClock::now();
  for (const auto& pod : trace.init_pods) {
    if (absl::Status s = sched->AddPod(pod); !s.ok()) return s;
  }
  const int64_t init_added = NowNanos();
  auto last_progress = SteadyClock::now();
  int last_bound = -1;
  while (host.init_bound() < result.init_pods) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (last_idle_nanos.load() > init_added + 20'000'000) break;  // idle for real, not between two adds
    if (host.init_bound() != last_bound) {
      last_bound = host.init_bound();
      last_progress = SteadyClock::now();
      if (options.progress) std::fprintf(stderr, "schedkit-perf: init: %d/%d pods bound\n", last_bound, result.init_pods);
    } else if (SteadyClock::now() - last_progress > absl::ToChronoNanoseconds(options.stall_timeout)) {
      result.error = schedkit::StrCat("init pods: ", last_bound, " of ", result.init_pods, " bound, none in the last ",
                                      absl::FormatDuration(options.stall_timeout));
      break;
    }
  }
  sched->WaitForBindings();
  result.init_seconds = Seconds(SteadyClock::now() - init_start);
  result.init_scheduled = host.init_bound();
  // Init pods that fit nowhere leave before measuring, so that the measured
  // phase starts from the cluster the oracle gets (--vs-upstream): nodes and
  // the init pods where they bound.
  for (const framework::PodInfoPtr& p : sched->queue().PendingPods()) {
    if (RoleOf(p->uid()) == PodRole::kInit) (void)sched->DeletePod(p->namespace_().str(), p->name().str());
  }
  result.rss_init_kb = ResidentKb();

  if (result.complete() && !options.upstream_cluster_path.empty()) {
    api::ObjectSet cluster = trace.initial;
    cluster.Append(host.TakeInitPlacements());
    for (const auto& p : trace.measured) cluster.Add(p);
    if (absl::Status s = WriteUpstreamFile(options.upstream_cluster_path, api::EncodeClusterJson(cluster), "the cluster");
        !s.ok()) {
      return s;
    }
    if (absl::Status s = WriteUpstreamFile(options.upstream_timeline_path, TimelineJson(trace, instants), "the timeline");
        !s.ok()) {
      return s;
    }
  }

  if (result.complete()) {
    const int64_t attempts_before = loop.attempts();
    ThroughputSampler sampler([&] { return host.measured_bound(); });
    sampler.Start();
    const int64_t measured_start_nanos = NowNanos();
    feeder.Start();
    auto last_change = SteadyClock::now();
    auto last_report = SteadyClock::now();
    int seen_bound = -1, seen_batches = -1;
    while (!feeder.done()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      const auto now = SteadyClock::now();
      if (host.measured_bound() != seen_bound || feeder.applied() != seen_batches) {
        seen_bound = host.measured_bound();
        seen_batches = feeder.applied();
        last_change = now;
      } else if (now - last_change > absl::ToChronoNanoseconds(options.stall_timeout)) {
        result.error = schedkit::StrCat("measured pods: ", seen_bound, " bound and ", seen_batches, " of ",
                                        trace.batches.size(), " batches applied, nothing new in the last ",
                                        absl::FormatDuration(options.stall_timeout));
        break;
      }
      if (options.progress && now - last_report >= std::chrono::seconds(1)) {
        last_report = now;
        std::fprintf(stderr, "schedkit-perf: measured: %d/%d pods bound, %d/%zu batches\n", seen_bound,
                     result.measured_pods, seen_batches, trace.batches.size());
      }
    }
    result.throughput_samples = sampler.Stop();
    result.measured_seconds = host.last_measured_bind_nanos() > measured_start_nanos
                                  ? (host.last_measured_bind_nanos() - measured_start_nanos) * 1e-9
                                  : 0;
    result.attempts = loop.attempts() - attempts_before;
  }
  loop.Stop();
  sched->WaitForBindings();
  for (const framework::PodInfoPtr& p : sched->queue().PendingPods()) {
    if (RoleOf(p->uid()) == PodRole::kMeasured) ++result.pending_at_end;
  }
  sched->Stop();

  result.batches = feeder.applied();
  result.trace_deletions = feeder.deleted();
  TakeMeasuredCounts(host, loop, result);
  return result;
}

}  // namespace schedkit::perf
