#include "kube/bench_run.h"

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "e2e/child_process.h"
#include "e2e/test_apiserver.h"
#include "kube/placement_check.h"
#include "kube/pod_watch.h"
#include "nlohmann/json.hpp"
#include "schedkit/api/encode.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/kube/api_client.h"
#include "schedkit/kube/client_config.h"
#include "summary.h"

namespace schedkit::bench {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr int kCreateThreads = 8;

// The objects of `cluster` as the API takes them.
std::vector<json> Items(const api::ObjectSet& cluster) {
  json list = json::parse(api::EncodeClusterJson(cluster), nullptr, /*allow_exceptions=*/false);
  std::vector<json> out;
  if (list.is_object() && list.contains("items")) {
    for (json& o : list["items"]) out.push_back(std::move(o));
  }
  return out;
}

json Namespace(const std::string& name) {
  return {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}};
}

// POSTs every object on kCreateThreads threads; the first error wins (each
// thread stops at its first error).
absl::Status CreateAll(const kube::ApiClient& admin, const std::vector<json>& objects) {
  std::mutex mu;
  absl::Status first;
  std::vector<std::thread> workers;
  for (int w = 0; w < kCreateThreads; ++w) {
    workers.emplace_back([&, w] {
      for (size_t i = static_cast<size_t>(w); i < objects.size(); i += kCreateThreads) {
        const json& o = objects[i];
        const std::string kind = o.value("kind", "");
        const std::string path =
            kind == "Node"        ? std::string("/api/v1/nodes")
            : kind == "Namespace" ? std::string("/api/v1/namespaces")
                                  : schedkit::StrCat("/api/v1/namespaces/", o["metadata"].value("namespace", ""),
                                                     "/pods");
        auto r = admin.Do("POST", path, o.dump());
        if (!r.ok()) {
          std::lock_guard<std::mutex> lock(mu);
          if (first.ok()) first = r.status();
          return;
        }
      }
    });
  }
  for (auto& t : workers) t.join();
  return first;
}

// Polls the watch every 10 ms until every namespace has its count of bound
// pods, the watch ends, the scheduler exits, or `limit` passes.
absl::Status WaitBound(const PodWatch& watch, const std::vector<std::pair<std::string, int>>& want,
                       e2e::ChildProcess& scheduler, absl::Duration limit) {
  const absl::Time deadline = absl::Now() + limit;
  for (;;) {
    bool all = true;
    for (const auto& [ns, n] : want) all = all && watch.Bound(ns) >= n;
    if (all) return absl::OkStatus();
    SCHEDKIT_RETURN_IF_ERROR(watch.Ended());
    if (auto exit = scheduler.Wait(absl::ZeroDuration())) {
      return absl::InternalError(schedkit::StrCat("the scheduler exited (code ", *exit, ")"));
    }
    if (absl::Now() > deadline) {
      std::string detail;
      for (const auto& [ns, n] : want) schedkit::StrAppend(&detail, " ", ns, ": ", watch.Bound(ns), "/", n);
      return absl::DeadlineExceededError(
          schedkit::StrCat("pods still pending after ", absl::FormatDuration(limit), ":", detail));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Seconds from creationTimestamp to PodScheduled=True, per bound pod.
std::vector<double> ServerLatencies(const json& pod_list, const std::string& ns) {
  std::vector<double> out;
  for (const json& pod : pod_list.value("items", json::array())) {
    if (pod["metadata"].value("namespace", "") != ns) continue;
    absl::Time created, scheduled;
    std::string err;
    if (!absl::ParseTime(absl::RFC3339_full, pod["metadata"].value("creationTimestamp", ""), &created, &err)) {
      continue;
    }
    for (const json& c : pod.value("status", json::object()).value("conditions", json::array())) {
      if (c.value("type", "") == "PodScheduled" && c.value("status", "") == "True" &&
          absl::ParseTime(absl::RFC3339_full, c.value("lastTransitionTime", ""), &scheduled, &err)) {
        out.push_back(absl::ToDoubleSeconds(scheduled - created));
      }
    }
  }
  return out;
}

// What both binaries read: the scheduler user's kubeconfig, the client rate
// limit, no leader election; every other field at its default (the
// default-scheduler profile, parallelism 16, percentageOfNodesToScore
// adaptive).
absl::Status WriteSchedulerConfig(const std::string& path, const std::string& kubeconfig, int qps) {
  std::ofstream out(path);
  out << "apiVersion: kubescheduler.config.k8s.io/v1\n"
      << "kind: KubeSchedulerConfiguration\n"
      << "clientConnection:\n"
      << "  kubeconfig: " << kubeconfig << "\n"
      << "  qps: " << qps << "\n"
      << "  burst: " << qps << "\n"
      << "leaderElection:\n"
      << "  leaderElect: false\n";
  out.close();
  if (!out) return absl::InternalError(schedkit::StrCat("cannot write ", path));
  return absl::OkStatus();
}

struct Cluster {
  std::vector<json> namespaces, nodes, init_pods, measured_pods;
  std::vector<std::pair<std::string, int>> init_want;  // namespace → init pods in it
};

Cluster MakeCluster(const RunSpec& spec) {
  const perf::Workload& w = *spec.workload;
  api::ObjectSet nodes, init, measured;
  for (int i = 0; i < spec.nodes; ++i) {
    const std::string zone = w.zones.empty() ? "" : w.zones[static_cast<size_t>(i) % w.zones.size()];
    nodes.Add(perf::MakeDefaultNode(schedkit::StrCat("scheduler-perf-", i), zone));
  }
  Cluster c;
  std::vector<std::string> ns_names = {w.measured.ns};
  for (size_t op = 0; op < w.init_ops.size(); ++op) {
    const perf::PodOp& o = w.init_ops[op];
    for (int i = 0; i < spec.init_pods; ++i) {
      init.Add(perf::MakePod(o.tmpl, o.ns, schedkit::StrCat(perf::GenerateName(o.tmpl), op, "-", i)));
    }
    auto it = std::find_if(c.init_want.begin(), c.init_want.end(), [&](const auto& p) { return p.first == o.ns; });
    if (it == c.init_want.end()) {
      c.init_want.push_back({o.ns, spec.init_pods});
    } else {
      it->second += spec.init_pods;
    }
    ns_names.push_back(o.ns);
  }
  for (int i = 0; i < spec.pods; ++i) {
    measured.Add(
        perf::MakePod(w.measured.tmpl, w.measured.ns, schedkit::StrCat(perf::GenerateName(w.measured.tmpl), i)));
  }
  std::sort(ns_names.begin(), ns_names.end());
  ns_names.erase(std::unique(ns_names.begin(), ns_names.end()), ns_names.end());
  for (const std::string& ns : ns_names) c.namespaces.push_back(Namespace(ns));
  c.nodes = Items(nodes);
  c.init_pods = Items(init);
  c.measured_pods = Items(measured);
  return c;
}

}  // namespace

absl::StatusOr<RunResult> RunOnce(const RunSpec& spec) {
  const perf::Workload& w = *spec.workload;
  const Cluster cluster = MakeCluster(spec);
  if (static_cast<int>(cluster.measured_pods.size()) != spec.pods) {
    return absl::InternalError("the measured pods did not encode");
  }

  SCHEDKIT_ASSIGN_OR_RETURN(auto server, e2e::TestApiServer::Start());
  SCHEDKIT_ASSIGN_OR_RETURN(kube::ClientConfig config, kube::LoadKubeconfig({server->admin_kubeconfig()}));
  config.qps = 100000;  // the bench's own client is never the limit
  config.burst = 100000;
  SCHEDKIT_ASSIGN_OR_RETURN(auto admin, kube::ApiClient::Create(config));

  // 1. Nodes (and namespaces).
  SCHEDKIT_RETURN_IF_ERROR(CreateAll(*admin, cluster.namespaces));
  SCHEDKIT_RETURN_IF_ERROR(CreateAll(*admin, cluster.nodes));

  // 2. The scheduler.
  const std::string config_path = server->dir() + "/bench-scheduler.yaml";
  SCHEDKIT_RETURN_IF_ERROR(WriteSchedulerConfig(config_path, server->scheduler_kubeconfig(), spec.qps));
  RunResult result;
  result.log = schedkit::StrCat(server->dir(), "-", spec.scheduler, ".log");
  SCHEDKIT_ASSIGN_OR_RETURN(
      auto scheduler,
      e2e::ChildProcess::Start(
          {spec.binary, "--config", config_path, "--secure-port=0", "--bind-address=127.0.0.1"}, result.log));

  // 3. Init pods, watched from before their creation.
  SCHEDKIT_ASSIGN_OR_RETURN(std::string head, admin->Do("GET", "/api/v1/pods?limit=1"));
  const json head_list = json::parse(head, nullptr, /*allow_exceptions=*/false);
  if (!head_list.is_object() || !head_list.contains("metadata")) return absl::InternalError("bad pod list");
  PodWatch watch(*admin, head_list["metadata"].value("resourceVersion", ""));
  SCHEDKIT_RETURN_IF_ERROR(CreateAll(*admin, cluster.init_pods));
  SCHEDKIT_RETURN_IF_ERROR(WaitBound(watch, cluster.init_want, *scheduler, absl::Minutes(10)));

  // 4. The measured pods.
  const double cpu_before = scheduler->CpuSecondsSoFar();
  const Clock::time_point start = Clock::now();
  SCHEDKIT_RETURN_IF_ERROR(CreateAll(*admin, cluster.measured_pods));
  const Clock::time_point created = Clock::now();
  SCHEDKIT_RETURN_IF_ERROR(WaitBound(watch, {{w.measured.ns, spec.pods}}, *scheduler, absl::Minutes(15)));
  result.cpu_measured_seconds = scheduler->CpuSecondsSoFar() - cpu_before;

  Clock::time_point last = start;
  std::vector<double> latencies_ms;
  for (const auto& [key, seen] : watch.Snapshot()) {
    if (key.rfind(w.measured.ns + "/", 0) != 0 || seen.bound == Clock::time_point{}) continue;
    last = std::max(last, seen.bound);
    latencies_ms.push_back(std::chrono::duration<double, std::milli>(seen.bound - seen.added).count());
  }
  result.create_seconds = std::chrono::duration<double>(created - start).count();
  result.seconds = std::chrono::duration<double>(last - start).count();
  result.pods_per_second = result.seconds > 0 ? spec.pods / result.seconds : 0;
  const perf::Summary watched = perf::Summarize(std::move(latencies_ms));
  result.watch_p50_ms = watched.perc50;
  result.watch_p90_ms = watched.perc90;
  result.watch_p99_ms = watched.perc99;

  // 5. The final placement, then the scheduler's exit and rusage.
  SCHEDKIT_ASSIGN_OR_RETURN(std::string node_list, admin->Do("GET", "/api/v1/nodes"));
  SCHEDKIT_ASSIGN_OR_RETURN(std::string pod_list, admin->Do("GET", "/api/v1/pods"));
  PlacementRules rules;
  rules.measured_namespace = w.measured.ns;
  rules.measured_pods = spec.pods;
  rules.one_green_pod_per_node = w.measured.tmpl == perf::PodTemplate::kPodAntiAffinity;
  rules.zone_max_skew = w.measured.tmpl == perf::PodTemplate::kTopologySpreading ? 5 : 0;
  SCHEDKIT_RETURN_IF_ERROR(CheckPlacement(node_list, pod_list, rules));
  const perf::Summary stamped =
      perf::Summarize(ServerLatencies(json::parse(pod_list, nullptr, /*allow_exceptions=*/false), w.measured.ns));
  result.server_p50_s = stamped.perc50;
  result.server_p90_s = stamped.perc90;
  result.server_p99_s = stamped.perc99;

  scheduler->Signal(SIGTERM);
  if (!scheduler->Wait(absl::Seconds(30))) {
    return absl::InternalError("the scheduler did not stop within 30 s of SIGTERM");
  }
  const e2e::ChildProcess::Usage& used = *scheduler->usage();
  result.cpu_total_seconds = used.user_seconds + used.system_seconds;
  result.peak_rss_mb = used.max_rss_mb;
  return result;
}

}  // namespace schedkit::bench
