// schedkit-kube end to end: a real kube-apiserver (the tests' helper) with
// NODES nodes and PODS pending pods created through the API, then
// schedkit-kube started against it; measured from its readiness (caches
// synced) until the API server shows every pod bound. Prints pods/s and the
// scheduler process's CPU seconds (user + system, from its rusage) per
// 1,000 pods. `make bench-kube` builds what it needs and runs it.
//
//   kube_bench [--nodes 500] [--pods 5000] [--qps 5000]
//
// --qps sets the scheduler's client rate limit (--kube-api-qps and burst):
// at kube-scheduler's default of 50 the figure would be the limiter's.
#include <sys/resource.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/time/clock.h"
#include "e2e/child_process.h"
#include "e2e/test_apiserver.h"
#include "httplib.h"
#include "nlohmann/json.hpp"
#include "schedkit/api/str_cat.h"
#include "schedkit/kube/api_client.h"
#include "schedkit/kube/client_config.h"

namespace {

using nlohmann::json;
using schedkit::StrCat;

[[noreturn]] void Die(std::string_view message) {
  std::fprintf(stderr, "kube_bench: %.*s\n", static_cast<int>(message.size()), message.data());
  std::exit(1);
}
[[noreturn]] void Die(const absl::Status& status) { Die(std::string(status.message())); }

json Node(int i) {
  const json resources = {{"cpu", "32"}, {"memory", "256Gi"}, {"pods", "110"}};
  const std::string name = StrCat("node-", i);
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata",
           {{"name", name},
            {"labels",
             {{"kubernetes.io/hostname", name}, {"topology.kubernetes.io/zone", StrCat("zone-", i % 3)}}}}},
          {"status",
           {{"capacity", resources},
            {"allocatable", resources},
            {"conditions", json::array({{{"type", "Ready"}, {"status", "True"}}})}}}};
}

// upstream scheduler_perf's pod-default: 100m cpu, 500Mi memory.
json Pod(int i) {
  const json container = {{"name", "c"},
                          {"image", "registry.k8s.io/pause:3.10"},
                          {"resources", {{"requests", {{"cpu", "100m"}, {"memory", "500Mi"}}}}}};
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"namespace", "bench"}, {"name", StrCat("pod-", i)}}},
          {"spec", {{"containers", json::array({container})}}}};
}

int Flag(int argc, char** argv, std::string_view name, int fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    int v = 0;
    if (argv[i] == name && absl::SimpleAtoi(argv[i + 1], &v)) return v;
  }
  return fallback;
}

int FreePort() { return schedkit::e2e::FreeLoopbackPort(); }

}  // namespace

int main(int argc, char** argv) {
  const int nodes = Flag(argc, argv, "--nodes", 500);
  const int pods = Flag(argc, argv, "--pods", 5000);
  const int qps = Flag(argc, argv, "--qps", 5000);
  if (schedkit::e2e::SchedkitKubeBinary().empty()) Die("set SCHEDKIT_KUBE to the schedkit-kube binary");

  auto server = schedkit::e2e::TestApiServer::Start();
  if (!server.ok()) Die(server.status());
  auto config = schedkit::kube::LoadKubeconfig({(*server)->admin_kubeconfig()});
  if (!config.ok()) Die(config.status());
  config->qps = 100000;
  config->burst = 100000;
  auto admin = schedkit::kube::ApiClient::Create(*config);
  if (!admin.ok()) Die(admin.status());

  // Objects first, on 4 threads; the scheduler starts on a full cluster.
  auto create = [&](const std::string& path, const json& object) {
    auto r = (*admin)->Do("POST", path, object.dump());
    if (!r.ok()) Die(r.status());
  };
  create("/api/v1/namespaces", json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "bench"}}}});
  const absl::Time created_start = absl::Now();
  {
    std::vector<std::thread> workers;
    for (int w = 0; w < 4; ++w) {
      workers.emplace_back([&, w] {
        for (int i = w; i < nodes; i += 4) create("/api/v1/nodes", Node(i));
        for (int i = w; i < pods; i += 4) create("/api/v1/namespaces/bench/pods", Pod(i));
      });
    }
    for (auto& t : workers) t.join();
  }
  std::fprintf(stderr, "created %d nodes and %d pods in %.1f s\n", nodes, pods,
               absl::ToDoubleSeconds(absl::Now() - created_start));

  const int port = FreePort();
  auto kube = schedkit::e2e::ChildProcess::Start(
      {schedkit::e2e::SchedkitKubeBinary(), "--kubeconfig", (*server)->scheduler_kubeconfig(),
       "--leader-elect=false", "--bind-address=127.0.0.1", "--secure-port=0", StrCat("--http-port=", port),
       StrCat("--kube-api-qps=", qps), StrCat("--kube-api-burst=", qps)},
      StrCat((*server)->dir(), "-kube-bench.log"));
  if (!kube.ok()) Die(kube.status());
  httplib::Client health("127.0.0.1", port);
  const absl::Time started = absl::Now();
  for (;;) {
    auto r = health.Get("/readyz");
    if (r && r->status == 200) break;
    if (absl::Now() - started > absl::Minutes(2)) Die("schedkit-kube did not become ready");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const absl::Time ready = absl::Now();

  // Count bound pods through a LIST every 100 ms (its own cost is small
  // next to 5,000 bindings).
  absl::Time done;
  for (;;) {
    auto list = (*admin)->Do("GET", "/api/v1/namespaces/bench/pods?fieldSelector=spec.nodeName%3D");
    if (!list.ok()) Die(list.status());
    const size_t pending = json::parse(*list)["items"].size();
    if (pending == 0) {
      done = absl::Now();
      break;
    }
    if (absl::Now() - ready > absl::Minutes(10)) Die(StrCat(pending, " pods still pending after 10 minutes"));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  (*kube)->Signal(SIGTERM);
  if ((*kube)->Wait(absl::Seconds(30)) != std::optional<int>(0)) Die("schedkit-kube did not exit cleanly");
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);  // the helper API server still runs: only schedkit-kube is reaped
  const double cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec +
                     usage.ru_stime.tv_usec / 1e6;
  const double seconds = absl::ToDoubleSeconds(done - ready);
  std::printf("schedkit-kube: %d pods on %d nodes in %.2f s: %.0f pods/s; %.2f CPU s per 1,000 pods "
              "(%.2f CPU s in all, startup and caches included; %.2f s from start to ready)\n",
              pods, nodes, seconds, pods / seconds, cpu * 1000.0 / pods, cpu,
              absl::ToDoubleSeconds(ready - started));
  return 0;
}
