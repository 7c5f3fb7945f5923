// Several schedulers on one cluster, as upstream's multiple-schedulers
// pattern runs them: two schedkit-kube processes with different
// schedulerNames, and schedkit-kube beside upstream's kube-scheduler v1.35,
// each bind only their own pods (each through a proxy that records its
// writes), leave a pod naming neither untouched, and count the other's pods
// against node capacity once their bindings arrive over the watch.
#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "e2e/fault_proxy.h"
#include "e2e/kube_fixtures.h"
#include "e2e/kube_process.h"
#include "nlohmann/json.hpp"
#include "schedkit/base/str_cat.h"

namespace schedkit::e2e {
namespace {

using nlohmann::json;

json NamedPod(const std::string& ns, const std::string& name, const std::string& cpu, const std::string& group,
              const std::string& scheduler) {
  json pod = PodJson(ns, name, cpu, 0, group);
  pod["spec"]["schedulerName"] = scheduler;
  return pod;
}

// "ns/pod" of every write a proxy passed with a 2xx (bindings, status
// patches, events' regarding objects).
std::map<std::string, int> PodWrites(const FaultProxy& proxy, const std::string& ns) {
  std::map<std::string, int> out;
  const std::string prefix = schedkit::StrCat("/api/v1/namespaces/", ns, "/pods/");
  for (const FaultProxy::Record& r : proxy.records()) {
    if (r.request.method == "GET" || r.status < 200 || r.status >= 300) continue;
    if (r.request.target.rfind(prefix, 0) == 0) {
      const std::string rest = r.request.target.substr(prefix.size());
      ++out[rest.substr(0, rest.find('/'))];
    }
  }
  return out;
}

std::string Profile(const std::string& name) {
  return schedkit::StrCat("leaderElection:\n  leaderElect: false\nprofiles:\n- schedulerName: ", name, "\n");
}

// `first` (profile `first_name`) places three 2-core pods on two 4-core
// nodes; then `second` (`second_name`) gets two: one fits in what is left,
// the other must be found unschedulable. A pod naming neither stays
// untouched, and each process wrote only to its own pods.
void TakeOnlyTheirOwn(const std::string& ns, KubeProcess& first, const std::string& first_name,
                      KubeProcess& second, const std::string& second_name) {
  auto admin = Admin();
  const std::string group = ns;
  CreateNamespace(*admin, ns);
  for (int i = 0; i < 2; ++i) Create(*admin, "/api/v1/nodes", NodeJson(schedkit::StrCat(group, "-", i), "4", group));
  const std::string pods = schedkit::StrCat("/api/v1/namespaces/", ns, "/pods");
  for (int i = 0; i < 3; ++i) Create(*admin, pods, NamedPod(ns, schedkit::StrCat("a-", i), "2", group, first_name));
  Create(*admin, pods, NamedPod(ns, "nobody", "100m", group, "nobody"));
  REQUIRE(Eventually(absl::Seconds(60), [&] {
    const auto placed = Placements(*admin, ns);
    return !placed.at("a-0").empty() && !placed.at("a-1").empty() && !placed.at("a-2").empty();
  }));
  // The second sees the first's pods: of its two 2-core pods one fits.
  Create(*admin, pods, NamedPod(ns, "b-0", "2", group, second_name));
  REQUIRE(Eventually(absl::Seconds(60), [&] { return !Placements(*admin, ns).at("b-0").empty(); }));
  Create(*admin, pods, NamedPod(ns, "b-1", "2", group, second_name));
  REQUIRE(Eventually(absl::Seconds(60), [&] {
    const json pod = Get(*admin, pods + "/b-1");
    for (const json& c : pod["status"].value("conditions", json::array())) {
      if (c.value("type", "") == "PodScheduled" && c.value("reason", "") == "Unschedulable") return true;
    }
    return false;
  }));

  const auto placed = Placements(*admin, ns);
  CHECK(placed.at("b-1").empty());
  CHECK(placed.at("nobody").empty());
  std::map<std::string, int> used;
  for (const auto& [pod, node] : placed) {
    if (!node.empty()) used[node] += 2;
  }
  for (const auto& [node, cores] : used) CHECK(cores <= 4);

  // Each wrote only to its own pods; nobody's pod has no status and no event.
  for (const auto& [pod, n] : PodWrites(first.proxy(), ns)) {
    INFO(pod);
    CHECK(pod.rfind("a-", 0) == 0);
  }
  for (const auto& [pod, n] : PodWrites(second.proxy(), ns)) {
    INFO(pod);
    CHECK(pod.rfind("b-", 0) == 0);
  }
  auto bindings_in_ns = [&](const FaultProxy& proxy) {
    int n = 0;
    for (const auto& [pod, count] : proxy.AcceptedBindings()) n += pod.rfind(ns + "/", 0) == 0 ? count : 0;
    return n;
  };
  CHECK(bindings_in_ns(first.proxy()) == 3);
  CHECK(bindings_in_ns(second.proxy()) == 1);
  CHECK_FALSE(Get(*admin, pods + "/nobody")["status"].contains("conditions"));
  // Events can trail the bindings.
  REQUIRE(Eventually(absl::Seconds(20), [&] {
    return Get(*admin, schedkit::StrCat("/apis/events.k8s.io/v1/namespaces/", ns, "/events"))["items"].size() >= 5;
  }));
  for (const json& e : Get(*admin, schedkit::StrCat("/apis/events.k8s.io/v1/namespaces/", ns, "/events"))["items"]) {
    const std::string regarding = e["regarding"].value("name", "");
    const std::string controller = e.value("reportingController", "");
    INFO(regarding << " " << controller);
    CHECK(regarding != "nobody");
    CHECK(controller == (regarding.rfind("a-", 0) == 0 ? first_name : second_name));
  }
  // Out of the way of later cases' schedulers.
  CHECK(admin->Do("DELETE", pods + "/nobody").ok());
}

TEST_CASE("two schedkit-kube processes with different names each take only their own pods", "[e2e][side-by-side]") {
  KubeProcess alpha("alpha", Profile("alpha"));
  KubeProcess beta("beta", Profile("beta"));
  alpha.Start();
  beta.Start();
  TakeOnlyTheirOwn("side-by-side", alpha, "alpha", beta, "beta");
}

TEST_CASE("schedkit-kube beside upstream's kube-scheduler: each takes only its own pods", "[e2e][side-by-side]") {
  auto upstream = KubeProcess::Upstream("kube-scheduler", Profile("upstream"));
  KubeProcess schedkit("schedkit", Profile("schedkit"));
  upstream->Start();
  schedkit.Start();
  // kube-scheduler first, schedkit second; then the other way round.
  TakeOnlyTheirOwn("beside-upstream", *upstream, "upstream", schedkit, "schedkit");
  TakeOnlyTheirOwn("beside-upstream-2", schedkit, "schedkit", *upstream, "upstream");
}

}  // namespace
}  // namespace schedkit::e2e
