#include "runner.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "harness.h"
#include "nlohmann/json.hpp"
#include "schedkit/api/encode.h"
#include "schedkit/api/lister.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/base/symbol.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/scheduler/scheduler.h"

namespace schedkit::perf {

absl::Status WriteUpstreamFile(const std::string& path, const std::string& text, const char* what) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return absl::UnavailableError(schedkit::StrCat(path, ": cannot write ", what, " for the upstream run"));
  return absl::OkStatus();
}

namespace {

// The --vs-upstream input: the initial objects, the init pods where schedkit
// bound them, the measured pods as they will be created, and what the churn
// op created (held back by the timeline until its tick).
absl::Status WriteUpstreamCluster(const std::string& path, api::ObjectSet cluster, const api::ObjectSet& init_placed,
                                  const Workload& w, int pods, bool distinct, const api::ObjectSet& churned) {
  cluster.Append(init_placed);
  for (int i = 0; i < pods; ++i) cluster.Add(MakeMeasuredPod(w, i, distinct));
  cluster.Append(churned);
  return WriteUpstreamFile(path, api::EncodeClusterJson(cluster), "the cluster");
}

std::shared_ptr<const api::v1::Pod> NewPod(PodTemplate tmpl, const std::string& ns, int index) {
  return std::make_shared<const api::v1::Pod>(MakePod(tmpl, ns, schedkit::StrCat(GenerateName(tmpl), index)));
}

// The churn op: objects added and deleted through the scheduler's event
// methods on the churn thread. With `attempts` set (--vs-upstream) each tick
// is also recorded for the oracle's --timeline: what it created and deleted,
// after how many of the measured phase's scheduling attempts, so that
// upstream meets the same objects at the same point of its run.
class Churner {
 public:
  Churner(const Workload& w, scheduler::Scheduler& sched, absl::Duration every, std::function<int64_t()> attempts)
      : w_(w), sched_(sched), every_(every), attempts_(std::move(attempts)) {}
  ~Churner() { Stop(); }

  void Start() {
    start_ = SteadyClock::now();
    switch (w_.churn) {
      case Churn::kNone:
        return;
      case Churn::kCreateUnschedulableEvery200ms:
        ticker_.Start(Interval(std::chrono::milliseconds(200)), [this] {
          nlohmann::ordered_json tick = BeginTick();
          auto pod = NewPod(PodTemplate::kHighPriorityLargeCpu, w_.churn_ns, pods_++);
          Created(tick, *pod);
          (void)sched_.AddPod(std::move(pod));
          EndTick(std::move(tick));
        });
        return;
      case Churn::kRecreateNodeAndPodEvery1s:
        // Mode recreate, number 1: one slot per template, created on one
        // tick and deleted on the next.
        ticker_.Start(Interval(std::chrono::milliseconds(1000)), [this] {
          nlohmann::ordered_json tick = BeginTick();
          if (node_.empty()) {
            node_ = schedkit::StrCat("node-churn-", nodes_++);
            auto node = std::make_shared<const api::v1::Node>(MakeChurnNode(node_));
            if (attempts_) {
              created_.Add(node);
              tick["createNodes"].push_back(node_);
            }
            (void)sched_.AddNode(std::move(node));
          } else {
            if (attempts_) tick["deleteNodes"].push_back(node_);
            (void)sched_.DeleteNode(node_);
            node_.clear();
          }
          if (pod_.empty()) {
            auto pod = NewPod(PodTemplate::kHighPriorityLargeCpu, w_.churn_ns, pods_++);
            pod_ = pod->metadata().name();
            Created(tick, *pod);
            (void)sched_.AddPod(std::move(pod));
          } else {
            if (attempts_) tick["delete"].push_back(w_.churn_ns + "/" + pod_);
            (void)sched_.DeletePod(w_.churn_ns, pod_);
            pod_.clear();
          }
          EndTick(std::move(tick));
        });
        return;
    }
  }
  void Stop() { ticker_.Stop(); }

  // After Stop.
  int pods() const { return pods_; }
  int nodes() const { return nodes_; }
  int ticks() const { return ticks_; }
  // The recorded ticks, as schedkit-oracle --timeline reads them, and the
  // objects they created.
  std::string TimelineJson() const {
    return nlohmann::ordered_json{{"batches", batches_}}.dump() + "\n";
  }
  api::ObjectSet TakeCreated() { return std::move(created_); }

 private:
  std::chrono::milliseconds Interval(std::chrono::milliseconds upstream) const {
    if (every_ == absl::ZeroDuration()) return upstream;
    return std::chrono::milliseconds(absl::ToInt64Milliseconds(every_));
  }
  // A timeline batch for this tick (null when not recording).
  nlohmann::ordered_json BeginTick() {
    nlohmann::ordered_json tick;
    if (attempts_) {
      tick = {{"at", Seconds(SteadyClock::now() - start_)},
                    {"afterAttempts", attempts_()},
                    {"delete", nlohmann::ordered_json::array()},
                    {"create", nlohmann::ordered_json::array()},
                    {"deleteNodes", nlohmann::ordered_json::array()},
                    {"createNodes", nlohmann::ordered_json::array()}};
    }
    return tick;
  }
  void Created(nlohmann::ordered_json& tick, const api::v1::Pod& pod) {
    if (!attempts_) return;
    created_.Add(pod);
    tick["create"].push_back(w_.churn_ns + "/" + pod.metadata().name());
  }
  void EndTick(nlohmann::ordered_json tick) {
    ++ticks_;
    if (attempts_) batches_.push_back(std::move(tick));
  }

  const Workload& w_;
  scheduler::Scheduler& sched_;
  const absl::Duration every_;
  const std::function<int64_t()> attempts_;
  Ticker ticker_;
  SteadyClock::time_point start_;
  // Churn thread only until Stop.
  int pods_ = 0;
  int nodes_ = 0;
  int ticks_ = 0;
  std::string node_;
  std::string pod_;
  nlohmann::ordered_json batches_ = nlohmann::ordered_json::array();
  api::ObjectSet created_;
};

}  // namespace

void TakeMeasuredCounts(const PerfHost& host, SchedulingLoop& loop, RunResult& result) {
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
}

absl::StatusOr<RunResult> RunWorkload(const RunOptions& options) {
  const Workload& w = *options.workload;
  RunResult result;
  result.init_pods = options.init_pods * static_cast<int>(w.init_ops.size());
  result.measured_pods = options.pods;
  result.rss_start_kb = ResidentKb();

  // createNodes (and the namespaces createPods would create): the initial
  // state. The lister and --vs-upstream share the objects.
  std::unique_ptr<api::StaticClusterLister> lister;
  api::ObjectSet initial_for_upstream;
  {
    api::ObjectSet cluster;
    if (w.named_node) cluster.Add(MakeNamedNode());
    for (int i = 0; i < options.nodes; ++i) {
      const std::string zone = w.zones.empty() ? "" : w.zones[static_cast<size_t>(i) % w.zones.size()];
      cluster.Add(MakeDefaultNode(schedkit::StrCat("scheduler-perf-", i), zone));
    }
    std::vector<std::string> namespaces = {w.measured.ns};
    for (const PodOp& op : w.init_ops) namespaces.push_back(op.ns);
    if (!w.churn_ns.empty()) namespaces.push_back(w.churn_ns);
    std::sort(namespaces.begin(), namespaces.end());
    namespaces.erase(std::unique(namespaces.begin(), namespaces.end()), namespaces.end());
    for (const std::string& ns : namespaces) {
      api::v1::Namespace n;
      n.set_api_version("v1");
      n.set_kind("Namespace");
      n.mutable_metadata()->set_name(ns);
      cluster.Add(std::move(n));
    }
    result.nodes = static_cast<int>(cluster.Of<api::v1::Node>().size());
    if (!options.upstream_cluster_path.empty()) initial_for_upstream = cluster;
    lister = std::make_unique<api::StaticClusterLister>(std::move(cluster));
  }

  absl::flat_hash_set<std::string> init_namespaces;
  for (const PodOp& op : w.init_ops) init_namespaces.insert(op.ns);
  PerfHost host([&](const api::v1::Pod& pod) {
    const std::string& ns = pod.metadata().namespace_();
    if (ns == w.measured.ns) return PodRole::kMeasured;
    return init_namespaces.contains(ns) ? PodRole::kInit : PodRole::kOther;
  });
  if (!options.upstream_cluster_path.empty()) host.RecordInitPlacements();
  const framework::Registry in_tree = plugins::NewInTreeRegistry();
  const framework::Registry& registry = options.registry != nullptr ? *options.registry : in_tree;
  // Real clock, default binding executor (a thread pool), no-op metrics.
  scheduler::SchedulerOptions scheduler_options;
  scheduler_options.bind_on_scheduling_thread = !options.bind_on_pool;
  scheduler_options.memoize_per_node_outcomes = options.memoize;
  auto created = scheduler::Scheduler::Create(options.config, registry, host, *lister, scheduler_options);
  if (!created.ok()) return created.status();
  std::unique_ptr<scheduler::Scheduler> sched = *std::move(created);
  host.set_scheduler(sched.get());
  result.rss_nodes_kb = ResidentKb();

  const Symbol measured_ns = Symbol::Intern(w.measured.ns);
  SchedulingLoop loop(*sched, [measured_ns](const framework::PodInfo& pod) { return pod.namespace_() == measured_ns; });
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
  result.rss_init_kb = ResidentKb();

  const bool for_upstream = result.complete() && !options.upstream_cluster_path.empty();
  api::ObjectSet init_placed, churned;
  std::string churn_timeline;
  if (for_upstream) init_placed = host.TakeInitPlacements();

  if (result.complete()) {
    // The measured createPods op, with the churn op already running.
    const int64_t attempts_before = loop.attempts();
    ThroughputSampler sampler([&] { return host.measured_bound(); });
    Churner churner(w, *sched, options.churn_every,
                    for_upstream ? std::function<int64_t()>([&] { return loop.attempts() - attempts_before; })
                                 : nullptr);
    sampler.Start();
    churner.Start();
    const int64_t measured_start_nanos = NowNanos();
    for (int i = 0; i < options.pods; ++i) {
      auto pod = std::make_shared<const api::v1::Pod>(MakeMeasuredPod(w, i, options.distinct_pods));
      if (absl::Status s = sched->AddPod(std::move(pod)); !s.ok()) return s;
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
    if (for_upstream) {
      churned = churner.TakeCreated();
      churn_timeline = churner.TimelineJson();
    }
  }
  loop.Stop();
  sched->Stop();
  TakeMeasuredCounts(host, loop, result);

  // After the measured phase (the churn ticks are known now) and after the
  // peak RSS was read, so that building the files counts in neither.
  if (for_upstream && result.complete()) {
    if (absl::Status s = WriteUpstreamCluster(options.upstream_cluster_path, std::move(initial_for_upstream),
                                              std::move(init_placed), w, options.pods, options.distinct_pods,
                                              std::move(churned));
        !s.ok()) {
      return s;
    }
    if (!options.upstream_timeline_path.empty()) {
      if (absl::Status s = WriteUpstreamFile(options.upstream_timeline_path, churn_timeline, "the timeline"); !s.ok()) {
        return s;
      }
    }
  }
  return result;
}

}  // namespace schedkit::perf
