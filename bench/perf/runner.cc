#include "runner.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "schedkit/api/encode.h"
#include "schedkit/api/lister.h"
#include "schedkit/api/str_cat.h"
#include "schedkit/api/symbol.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/scheduler/scheduler.h"

namespace schedkit::perf {
namespace {

using SteadyClock = std::chrono::steady_clock;

double Seconds(SteadyClock::duration d) { return std::chrono::duration<double>(d).count(); }

int64_t NowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(SteadyClock::now().time_since_epoch()).count();
}

// The in-memory API server: every bind succeeds and is counted by the pod's
// namespace (upstream's throughput collector counts pods of the measured
// namespace whose spec.nodeName gets set); evicted victims are deleted at
// once, as the API server would.
class PerfHost : public scheduler::Host {
 public:
  PerfHost(std::string measured_ns, const std::vector<PodOp>& init_ops) : measured_ns_(std::move(measured_ns)) {
    for (const PodOp& op : init_ops) init_ns_.insert(op.ns);
  }
  void set_scheduler(scheduler::Scheduler* s) { sched_ = s; }

  absl::Status Bind(const api::v1::Pod& pod, std::string_view node) override {
    const std::string& ns = pod.metadata().namespace_();
    if (ns == measured_ns_) {
      measured_bound_.fetch_add(1);
      last_measured_bind_nanos_.store(NowNanos());
    } else if (init_ns_.contains(ns)) {
      if (record_init_) {
        std::lock_guard<std::mutex> lock(init_mu_);
        api::v1::Pod& bound = *init_placed_.add_pods();
        bound = pod;
        bound.mutable_spec()->set_node_name(std::string(node));
      }
      init_bound_.fetch_add(1);
    }
    return absl::OkStatus();
  }

  // Keeps a copy of every init pod as bound (for --vs-upstream); set before
  // any pod is added.
  void RecordInitPlacements() { record_init_ = true; }
  // The init pods bound so far, with spec.nodeName set.
  api::v1::Cluster TakeInitPlacements() {
    std::lock_guard<std::mutex> lock(init_mu_);
    return std::move(init_placed_);
  }

  absl::Status Evict(const api::v1::Pod& victim, const api::v1::Pod&, std::string_view) override {
    victims_.fetch_add(1);
    return sched_->DeletePod(victim.metadata().namespace_(), victim.metadata().name());
  }

  int measured_bound() const { return measured_bound_.load(); }
  int init_bound() const { return init_bound_.load(); }
  int victims() const { return victims_.load(); }
  int64_t last_measured_bind_nanos() const { return last_measured_bind_nanos_.load(); }

 private:
  const std::string measured_ns_;
  absl::flat_hash_set<std::string> init_ns_;
  scheduler::Scheduler* sched_ = nullptr;
  std::atomic<int> measured_bound_{0};
  std::atomic<int> init_bound_{0};
  std::atomic<int> victims_{0};
  std::atomic<int64_t> last_measured_bind_nanos_{0};
  bool record_init_ = false;
  std::mutex init_mu_;
  api::v1::Cluster init_placed_ ABSL_GUARDED_BY(init_mu_);
};

// The --vs-upstream input: the initial objects, the init pods where schedkit
// bound them, and the measured pods as they will be created.
absl::Status WriteUpstreamCluster(const std::string& path, api::v1::Cluster cluster, api::v1::Cluster init_placed,
                                  const Workload& w, int pods) {
  for (api::v1::Pod& p : *init_placed.mutable_pods()) *cluster.add_pods() = std::move(p);
  for (int i = 0; i < pods; ++i) {
    *cluster.add_pods() = MakePod(w.measured.tmpl, w.measured.ns, schedkit::StrCat(GenerateName(w.measured.tmpl), i));
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << api::EncodeClusterJson(cluster);
  out.close();
  if (!out) return absl::UnavailableError(schedkit::StrCat(path, ": cannot write the cluster for the upstream run"));
  return absl::OkStatus();
}

// A thread that runs `tick` every `interval` (as Go's time.Ticker: the first
// tick one interval after Start) until Stop.
class Ticker {
 public:
  Ticker() = default;
  Ticker(const Ticker&) = delete;
  Ticker& operator=(const Ticker&) = delete;
  ~Ticker() { Stop(); }

  void Start(std::chrono::milliseconds interval, std::function<void()> tick) {
    thread_ = std::thread([this, interval, tick = std::move(tick)] {
      auto next = SteadyClock::now() + interval;
      std::unique_lock<std::mutex> lock(mu_);
      while (!cv_.wait_until(lock, next, [this] { return stopped_; })) {
        lock.unlock();
        tick();
        lock.lock();
        // A late tick is not made up for, as a Go ticker drops missed ticks.
        next += interval;
        const auto now = SteadyClock::now();
        while (next <= now) next += interval;
      }
    });
  }
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopped_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopped_ = false;
  std::thread thread_;
};

// Upstream's throughputCollector (scheduler_perf/util.go): every second,
// the number of measured pods bound since the last sample over the measured
// interval. Ticks before the first bind are ignored, the first non-zero tick
// only sets the baseline, and intervals with no new bind are folded into the
// next sample, recorded once per interval it covers.
class ThroughputSampler {
 public:
  explicit ThroughputSampler(std::function<int()> count) : count_(std::move(count)) {}

  void Start() {
    last_time_ = SteadyClock::now();
    ticker_.Start(std::chrono::seconds(1), [this] { Tick(); });
  }
  std::vector<double> Stop() {
    ticker_.Stop();
    return samples_;
  }

 private:
  void Tick() {
    const auto now = SteadyClock::now();
    const int scheduled = count_();
    if (scheduled == 0) return;
    if (!started_) {
      started_ = true;
      last_count_ = scheduled;
      last_time_ = now;
      return;
    }
    const int added = scheduled - last_count_;
    if (added == 0) {
      ++skipped_;
      return;
    }
    const double rate = added / Seconds(now - last_time_);
    for (int i = 0; i <= skipped_; ++i) samples_.push_back(rate);
    last_count_ = scheduled;
    last_time_ = now;
    skipped_ = 0;
  }

  std::function<int()> count_;
  Ticker ticker_;
  // Ticker thread only (Stop joins it before samples_ is read).
  bool started_ = false;
  int last_count_ = 0;
  int skipped_ = 0;
  SteadyClock::time_point last_time_;
  std::vector<double> samples_;
};

// The scheduling thread: ScheduleOne in a loop, each call timed; the cycle
// observer (called on this thread inside ScheduleOne) says whose attempt it was.
class SchedulingLoop {
 public:
  SchedulingLoop(scheduler::Scheduler& sched, Symbol measured_ns) : sched_(sched), measured_ns_(measured_ns) {
    sched_.SetCycleObserver([this](const scheduler::CycleReport& r) {
      attempts_.fetch_add(1, std::memory_order_relaxed);
      if (r.pod->namespace_() != measured_ns_) return;
      attempt_measured_ = true;
      if (!r.node.empty()) {
        measured_scheduled_.fetch_add(1, std::memory_order_relaxed);
      } else if (r.code == framework::Code::kError) {
        measured_error_.fetch_add(1, std::memory_order_relaxed);
      } else {
        measured_unschedulable_.fetch_add(1, std::memory_order_relaxed);
      }
    });
  }
  ~SchedulingLoop() { Stop(); }

  void Start() {
    thread_ = std::thread([this] { Loop(); });
  }
  // Joins the thread; attempt_ms() is then safe to read.
  void Stop() {
    stop_.store(true);
    if (thread_.joinable()) thread_.join();
    sched_.SetCycleObserver(nullptr);
  }

  int64_t attempts() const { return attempts_.load(); }
  int64_t measured_scheduled() const { return measured_scheduled_.load(); }
  int64_t measured_unschedulable() const { return measured_unschedulable_.load(); }
  int64_t measured_error() const { return measured_error_.load(); }
  std::vector<double>& attempt_ms() { return attempt_ms_; }

 private:
  void Loop() {
    int idle_us = 0;
    while (!stop_.load(std::memory_order_relaxed)) {
      attempt_measured_ = false;
      const auto start = SteadyClock::now();
      if (sched_.ScheduleOne()) {
        idle_us = 0;
        if (attempt_measured_) attempt_ms_.push_back(Seconds(SteadyClock::now() - start) * 1e3);
        continue;
      }
      // Nothing ready: back off from 10 us up to 1 ms, so a pod added while
      // idle waits at most about that long (upstream blocks in Pop instead).
      idle_us = std::min(idle_us * 2 + 10, 1000);
      std::this_thread::sleep_for(std::chrono::microseconds(idle_us));
    }
  }

  scheduler::Scheduler& sched_;
  const Symbol measured_ns_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> attempts_{0};
  std::atomic<int64_t> measured_scheduled_{0};
  std::atomic<int64_t> measured_unschedulable_{0};
  std::atomic<int64_t> measured_error_{0};
  // Scheduling thread only.
  bool attempt_measured_ = false;
  std::vector<double> attempt_ms_;
};

// Waits until count() reaches `target`; an error text when no progress was
// made for `stall` (or the count can no longer grow).
std::string WaitForCount(const std::function<int()>& count, int target, absl::Duration stall,
                         const std::function<void(int)>& progress, const char* what) {
  int last = count();
  auto last_change = SteadyClock::now();
  auto last_report = SteadyClock::now();
  const auto stall_after = absl::ToChronoNanoseconds(stall);
  while (last < target) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const int now_count = count();
    const auto now = SteadyClock::now();
    if (now_count != last) {
      last = now_count;
      last_change = now;
    } else if (now - last_change > stall_after) {
      return schedkit::StrCat(what, ": ", last, " of ", target, " pods bound, none in the last ",
                              absl::FormatDuration(stall));
    }
    if (progress && now - last_report >= std::chrono::seconds(1)) {
      last_report = now;
      progress(last);
    }
  }
  return "";
}

std::shared_ptr<const api::v1::Pod> NewPod(PodTemplate tmpl, const std::string& ns, int index) {
  return std::make_shared<const api::v1::Pod>(MakePod(tmpl, ns, schedkit::StrCat(GenerateName(tmpl), index)));
}

// The churn op: objects added and deleted through the scheduler's event
// methods on the churn thread.
class Churner {
 public:
  Churner(const Workload& w, scheduler::Scheduler& sched) : w_(w), sched_(sched) {}
  ~Churner() { Stop(); }

  void Start() {
    switch (w_.churn) {
      case Churn::kNone:
        return;
      case Churn::kCreateUnschedulableEvery200ms:
        ticker_.Start(std::chrono::milliseconds(200), [this] {
          (void)sched_.AddPod(NewPod(PodTemplate::kHighPriorityLargeCpu, w_.churn_ns, pods_));
          ++pods_;
          ++ticks_;
        });
        return;
      case Churn::kRecreateNodeAndPodEvery1s:
        // Mode recreate, number 1: one slot per template, created on one
        // tick and deleted on the next.
        ticker_.Start(std::chrono::milliseconds(1000), [this] {
          if (node_.empty()) {
            node_ = schedkit::StrCat("node-churn-", nodes_++);
            (void)sched_.AddNode(std::make_shared<const api::v1::Node>(MakeChurnNode(node_)));
          } else {
            (void)sched_.DeleteNode(node_);
            node_.clear();
          }
          if (pod_.empty()) {
            auto pod = NewPod(PodTemplate::kHighPriorityLargeCpu, w_.churn_ns, pods_++);
            pod_ = pod->metadata().name();
            (void)sched_.AddPod(std::move(pod));
          } else {
            (void)sched_.DeletePod(w_.churn_ns, pod_);
            pod_.clear();
          }
          ++ticks_;
        });
        return;
    }
  }
  void Stop() { ticker_.Stop(); }

  // After Stop.
  int pods() const { return pods_; }
  int nodes() const { return nodes_; }
  int ticks() const { return ticks_; }

 private:
  const Workload& w_;
  scheduler::Scheduler& sched_;
  Ticker ticker_;
  // Churn thread only until Stop.
  int pods_ = 0;
  int nodes_ = 0;
  int ticks_ = 0;
  std::string node_;
  std::string pod_;
};

}  // namespace

absl::StatusOr<RunResult> RunWorkload(const RunOptions& options) {
  const Workload& w = *options.workload;
  RunResult result;
  result.init_pods = options.init_pods * static_cast<int>(w.init_ops.size());
  result.measured_pods = options.pods;

  // createNodes (and the namespaces createPods would create): the initial
  // state. The Cluster message is dropped once the lister holds the objects,
  // unless --vs-upstream needs it again.
  std::unique_ptr<api::StaticClusterLister> lister;
  api::v1::Cluster initial_for_upstream;
  {
    api::v1::Cluster cluster;
    if (w.named_node) *cluster.add_nodes() = MakeNamedNode();
    for (int i = 0; i < options.nodes; ++i) {
      const std::string zone = w.zones.empty() ? "" : w.zones[static_cast<size_t>(i) % w.zones.size()];
      *cluster.add_nodes() = MakeDefaultNode(schedkit::StrCat("scheduler-perf-", i), zone);
    }
    std::vector<std::string> namespaces = {w.measured.ns};
    for (const PodOp& op : w.init_ops) namespaces.push_back(op.ns);
    if (!w.churn_ns.empty()) namespaces.push_back(w.churn_ns);
    std::sort(namespaces.begin(), namespaces.end());
    namespaces.erase(std::unique(namespaces.begin(), namespaces.end()), namespaces.end());
    for (const std::string& ns : namespaces) {
      api::v1::Namespace* n = cluster.add_namespaces();
      n->set_api_version("v1");
      n->set_kind("Namespace");
      n->mutable_metadata()->set_name(ns);
    }
    result.nodes = cluster.nodes_size();
    lister = std::make_unique<api::StaticClusterLister>(cluster);
    if (!options.upstream_cluster_path.empty()) initial_for_upstream = std::move(cluster);
  }

  PerfHost host(w.measured.ns, w.init_ops);
  if (!options.upstream_cluster_path.empty()) host.RecordInitPlacements();
  const framework::Registry registry = plugins::NewInTreeRegistry();
  // Real clock, default binding executor (a thread pool), no-op metrics.
  scheduler::SchedulerOptions scheduler_options;
  scheduler_options.bind_on_scheduling_thread = !options.bind_on_pool;
  scheduler_options.memoize_per_node_outcomes = options.memoize;
  auto created = scheduler::Scheduler::Create(options.config, registry, host, *lister, scheduler_options);
  if (!created.ok()) return created.status();
  std::unique_ptr<scheduler::Scheduler> sched = *std::move(created);
  host.set_scheduler(sched.get());

  SchedulingLoop loop(*sched, Symbol::Intern(w.measured.ns));
  loop.Start();

  auto progress = [&](const char* phase, int target) {
    return [&options, phase, target](int bound) {
      if (options.progress) std::fprintf(stderr, "schedkit-perf: %s: %d/%d pods bound\n", phase, bound, target);
    };
  };

  // Init pods: created and scheduled before measuring, as upstream's init
  // createPods ops (which wait for their pods to be scheduled).
  const auto init_start = SteadyClock::now();
  for (size_t op = 0; op < w.init_ops.size(); ++op) {
    for (int i = 0; i < options.init_pods; ++i) {
      if (absl::Status s = sched->AddPod(NewPod(w.init_ops[op].tmpl, w.init_ops[op].ns, i)); !s.ok()) return s;
    }
  }
  result.error = WaitForCount([&] { return host.init_bound(); }, result.init_pods, options.stall_timeout,
                              progress("init", result.init_pods), "init pods");
  result.init_seconds = Seconds(SteadyClock::now() - init_start);
  result.init_scheduled = host.init_bound();

  if (result.complete() && !options.upstream_cluster_path.empty()) {
    if (absl::Status s = WriteUpstreamCluster(options.upstream_cluster_path, std::move(initial_for_upstream),
                                              host.TakeInitPlacements(), w, options.pods);
        !s.ok()) {
      return s;
    }
  }

  if (result.complete()) {
    // The measured createPods op, with the churn op already running.
    const int64_t attempts_before = loop.attempts();
    ThroughputSampler sampler([&] { return host.measured_bound(); });
    Churner churner(w, *sched);
    sampler.Start();
    churner.Start();
    const int64_t measured_start_nanos = NowNanos();
    for (int i = 0; i < options.pods; ++i) {
      if (absl::Status s = sched->AddPod(NewPod(w.measured.tmpl, w.measured.ns, i)); !s.ok()) return s;
    }
    result.error = WaitForCount([&] { return host.measured_bound(); }, options.pods, options.stall_timeout,
                                progress("measured", options.pods), "measured pods");
    result.throughput_samples = sampler.Stop();
    churner.Stop();
    result.measured_seconds = host.last_measured_bind_nanos() > measured_start_nanos
                                  ? (host.last_measured_bind_nanos() - measured_start_nanos) * 1e-9
                                  : 0;
    result.attempts = loop.attempts() - attempts_before;
    result.churn_pods = churner.pods();
    result.churn_nodes = churner.nodes();
    result.churn_ticks = churner.ticks();
  }
  loop.Stop();
  sched->Stop();

  result.measured_scheduled = host.measured_bound();
  result.preemption_victims = host.victims();
  result.measured_attempts_scheduled = loop.measured_scheduled();
  result.measured_attempts_unschedulable = loop.measured_unschedulable();
  result.measured_attempts_error = loop.measured_error();
  result.measured_attempts = result.measured_attempts_scheduled + result.measured_attempts_unschedulable +
                             result.measured_attempts_error;
  result.attempt_ms = std::move(loop.attempt_ms());

  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0) result.peak_rss_kb = usage.ru_maxrss;
  return result;
}

}  // namespace schedkit::perf
