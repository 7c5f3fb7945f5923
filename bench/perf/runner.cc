#include "runner.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "harness.h"
#include "schedkit/api/encode.h"
#include "schedkit/api/lister.h"
#include "schedkit/api/str_cat.h"
#include "schedkit/api/symbol.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/scheduler/scheduler.h"

namespace schedkit::perf {
namespace {

// The --vs-upstream input: the initial objects, the init pods where schedkit
// bound them, and the measured pods as they will be created.
absl::Status WriteUpstreamCluster(const std::string& path, api::v1::Cluster cluster, api::v1::Cluster init_placed,
                                  const Workload& w, int pods, bool distinct) {
  for (api::v1::Pod& p : *init_placed.mutable_pods()) *cluster.add_pods() = std::move(p);
  for (int i = 0; i < pods; ++i) *cluster.add_pods() = MakeMeasuredPod(w, i, distinct);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << api::EncodeClusterJson(cluster);
  out.close();
  if (!out) return absl::UnavailableError(schedkit::StrCat(path, ": cannot write the cluster for the upstream run"));
  return absl::OkStatus();
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

  absl::flat_hash_set<std::string> init_namespaces;
  for (const PodOp& op : w.init_ops) init_namespaces.insert(op.ns);
  PerfHost host([&](const api::v1::Pod& pod) {
    const std::string& ns = pod.metadata().namespace_();
    if (ns == w.measured.ns) return PodRole::kMeasured;
    return init_namespaces.contains(ns) ? PodRole::kInit : PodRole::kOther;
  });
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

  if (result.complete() && !options.upstream_cluster_path.empty()) {
    if (absl::Status s = WriteUpstreamCluster(options.upstream_cluster_path, std::move(initial_for_upstream),
                                              host.TakeInitPlacements(), w, options.pods,
                                              options.distinct_pods);
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
  }
  loop.Stop();
  sched->Stop();

  TakeMeasuredCounts(host, loop, result);
  return result;
}

}  // namespace schedkit::perf
