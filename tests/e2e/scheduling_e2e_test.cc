// A schedkit Scheduler fed by informers from a real kube-apiserver binds
// the pods created there through the API, and the API server's own objects
// show every pod bound and no node over-committed.
#include <atomic>
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <thread>

#include "e2e/shared_apiserver.h"
#include "kube/api_host.h"
#include "kube/informers.h"
#include "nlohmann/json.hpp"
#include "schedkit/api/lister.h"
#include "schedkit/api/v1/kinds.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/config/configuration.h"
#include "schedkit/kube/api_client.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/scheduler/scheduler.h"

namespace schedkit::e2e {
namespace {

using nlohmann::json;

std::unique_ptr<kube::ApiClient> AdminClient() {
  auto config = kube::LoadKubeconfig({Server().admin_kubeconfig()});
  REQUIRE(config.ok());
  auto client = kube::ApiClient::Create(*config);
  REQUIRE(client.ok());
  return *std::move(client);
}

json NodeObject(const std::string& name, const std::string& zone, const std::string& cpu) {
  const json resources = {{"cpu", cpu}, {"memory", "8Gi"}, {"pods", "110"}};
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata",
           {{"name", name},
            {"labels", {{"kubernetes.io/hostname", name}, {"topology.kubernetes.io/zone", zone}}}}},
          {"status",
           {{"capacity", resources},
            {"allocatable", resources},
            {"conditions", json::array({{{"type", "Ready"}, {"status", "True"}}})}}}};
}

json PodObject(const std::string& ns, const std::string& name, const std::string& cpu) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"namespace", ns}, {"name", name}, {"labels", {{"app", "web"}}}}},
          {"spec",
           {{"containers", json::array({{{"name", "c"},
                                         {"image", "registry.k8s.io/pause:3.10"},
                                         {"resources", {{"requests", {{"cpu", cpu}}}}}}})}}}};
}

// Millicores of a quantity the test writes ("500m", "2").
int64_t Millis(const std::string& q) {
  return q.ends_with("m") ? std::stoll(q.substr(0, q.size() - 1)) : std::stoll(q) * 1000;
}

TEST_CASE("a Scheduler fed by the API server binds pods created through it", "[e2e]") {
  auto client = AdminClient();
  const std::string ns = "e2e-scheduling";
  REQUIRE(client->Do("POST", "/api/v1/namespaces",
                     json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}}.dump())
              .ok());
  const std::map<std::string, std::string> node_cpu = {{"sched-a", "2"}, {"sched-b", "2"}, {"sched-c", "1"}};
  int zone = 0;
  for (const auto& [name, cpu] : node_cpu) {
    const json node = NodeObject(name, "zone-" + std::to_string(zone++ % 2), cpu);
    auto created = client->Do("POST", "/api/v1/nodes", node.dump());
    REQUIRE(created.ok());
  }
  // 9 pods of 500m: 10 fit on 5 cores, so all bind.
  for (int i = 0; i < 9; ++i) {
    auto created = client->Do("POST", schedkit::StrCat("/api/v1/namespaces/", ns, "/pods"),
                              PodObject(ns, "web-" + std::to_string(i), "500m").dump());
    REQUIRE(created.ok());
  }

  kube::internal::ApiHost host(*client, nullptr);
  api::StaticClusterLister empty(api::ObjectSet{});
  const framework::Registry registry = plugins::NewInTreeRegistry();
  auto sched = scheduler::Scheduler::Create(config::DefaultConfiguration(), registry, host, empty);
  REQUIRE(sched.ok());
  kube::internal::SchedulerInformers informers(*client, **sched, {"default-scheduler"});
  informers.Start();
  REQUIRE(informers.WaitForCacheSync(absl::Seconds(30)));
  std::thread runner([&] { (*sched)->Run(); });

  // Every pod bound, as the API server says (bounded: 60 s).
  std::map<std::string, std::string> placed;
  for (int i = 0; i < 600 && placed.size() < 9; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto pods = client->Do("GET", schedkit::StrCat("/api/v1/namespaces/", ns, "/pods"));
    REQUIRE(pods.ok());
    placed.clear();
    const json list = json::parse(*pods);
    for (const json& pod : list["items"]) {
      const std::string node = pod["spec"].value("nodeName", "");
      if (!node.empty()) placed[pod["metadata"]["name"]] = node;
    }
  }
  (*sched)->Stop();
  runner.join();
  informers.Stop();
  CHECK(informers.rejected_objects() == 0);
  REQUIRE(placed.size() == 9);
  std::map<std::string, int64_t> used;
  for (const auto& [pod, node] : placed) used[node] += 500;
  for (const auto& [node, millis] : used) {
    CAPTURE(node);
    REQUIRE(node_cpu.contains(node));
    CHECK(millis <= Millis(node_cpu.at(node)));
  }
}

TEST_CASE("the informers hold what the API server holds of every kind the scheduler reads", "[e2e]") {
  auto client = AdminClient();
  const std::string path = api::KindOf<api::v1::DeviceClass>().collection_path();
  const json gpu = {{"apiVersion", "resource.k8s.io/v1"},
                    {"kind", "DeviceClass"},
                    {"metadata", {{"name", "e2e-gpu.example.com"}}},
                    {"spec", {{"selectors", json::array({{{"cel", {{"expression", "device.driver == \"gpu\""}}}}})}}}};
  REQUIRE(client->Do("POST", path, gpu.dump()).ok());

  kube::internal::ApiHost host(*client, nullptr);
  api::StaticClusterLister empty;
  const framework::Registry registry = plugins::NewInTreeRegistry();
  auto sched = scheduler::Scheduler::Create(config::DefaultConfiguration(), registry, host, empty);
  REQUIRE(sched.ok());
  REQUIRE((*sched)->kinds().Contains(api::KindOf<api::v1::DeviceClass>()));
  kube::internal::SchedulerInformers informers(*client, **sched, {"default-scheduler"});
  informers.Start();
  REQUIRE(informers.WaitForCacheSync(absl::Seconds(30)));
  // Listed at the start...
  auto held = (*sched)->objects().Get<api::v1::DeviceClass>("e2e-gpu.example.com");
  REQUIRE(held != nullptr);
  CHECK(held->spec().selectors(0).cel().expression() == "device.driver == \"gpu\"");
  // ...then watched: a class created and one deleted (bounded: 30 s).
  json cpu = gpu;
  cpu["metadata"]["name"] = "e2e-cpu.example.com";
  REQUIRE(client->Do("POST", path, cpu.dump()).ok());
  REQUIRE(client->Do("DELETE", path + "/e2e-gpu.example.com").ok());
  bool seen = false;
  for (int i = 0; i < 300 && !seen; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    seen = (*sched)->objects().Get<api::v1::DeviceClass>("e2e-cpu.example.com") != nullptr &&
           (*sched)->objects().Get<api::v1::DeviceClass>("e2e-gpu.example.com") == nullptr;
  }
  informers.Stop();
  CHECK(seen);
  CHECK(informers.rejected_objects() == 0);
  REQUIRE(client->Do("DELETE", path + "/e2e-cpu.example.com").ok());
}

TEST_CASE("the informers hold the DRA kinds the API server holds", "[e2e]") {
  auto client = AdminClient();
  const json slice = json::parse(R"({
    "apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice", "metadata": {"name": "e2e-node-1-gpus"},
    "spec": {"driver": "gpu.example.com", "pool": {"name": "e2e-node-1", "generation": 1, "resourceSliceCount": 1},
             "nodeName": "e2e-node-1",
             "devices": [{"name": "gpu-0", "attributes": {"model": {"string": "a100"}, "pcieRoot": {"string": "pci0"}},
                          "capacity": {"memory": {"value": "80Gi"}}}]}})");
  const json claim = json::parse(R"({
    "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "e2e-gpu", "namespace": "default"},
    "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com"}}],
                         "config": [{"opaque": {"driver": "gpu.example.com", "parameters": {"shared": true}}}]}}})");
  const json rule = json::parse(R"({
    "apiVersion": "resource.k8s.io/v1", "kind": "DeviceTaintRule", "metadata": {"name": "e2e-drain"},
    "spec": {"deviceSelector": {"driver": "gpu.example.com"}, "taint": {"key": "example.com/drain", "effect": "NoSchedule"}}})");
  const std::string slices = api::KindOf<api::v1::ResourceSlice>().collection_path();
  const std::string claims = "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims";
  const std::string rules = api::KindOf<api::v1::DeviceTaintRule>().collection_path();
  REQUIRE(client->Do("POST", slices, slice.dump()).ok());
  REQUIRE(client->Do("POST", claims, claim.dump()).ok());
  REQUIRE(client->Do("POST", rules, rule.dump()).ok());

  kube::internal::ApiHost host(*client, nullptr);
  api::StaticClusterLister empty;
  const framework::Registry registry = plugins::NewInTreeRegistry();
  auto sched = scheduler::Scheduler::Create(config::DefaultConfiguration(), registry, host, empty);
  REQUIRE(sched.ok());
  kube::internal::SchedulerInformers informers(*client, **sched, {"default-scheduler"});
  informers.Start();
  REQUIRE(informers.WaitForCacheSync(absl::Seconds(30)));
  auto held_slice = (*sched)->objects().Get<api::v1::ResourceSlice>("e2e-node-1-gpus");
  REQUIRE(held_slice != nullptr);
  CHECK(held_slice->spec().devices(0).attributes().at("model").string_value() == "a100");
  CHECK(held_slice->spec().devices(0).capacity().at("memory").value() == "80Gi");
  auto held_claim = (*sched)->objects().Get<api::v1::ResourceClaim>("default", "e2e-gpu");
  REQUIRE(held_claim != nullptr);
  // The API server's defaults arrive with the object.
  CHECK(held_claim->spec().devices().requests(0).exactly().allocation_mode() == "ExactCount");
  CHECK(held_claim->spec().devices().requests(0).exactly().count() == 1);
  CHECK(held_claim->spec().devices().config(0).opaque().parameters().json() == R"({"shared":true})");
  auto held_rule = (*sched)->objects().Get<api::v1::DeviceTaintRule>("e2e-drain");
  REQUIRE(held_rule != nullptr);
  CHECK(held_rule->spec().taint().effect() == "NoSchedule");
  // The template is the controller's to read, not the scheduler's.
  CHECK_FALSE((*sched)->kinds().Contains(api::KindOf<api::v1::ResourceClaimTemplate>()));
  informers.Stop();
  CHECK(informers.rejected_objects() == 0);
  REQUIRE(client->Do("DELETE", slices + "/e2e-node-1-gpus").ok());
  REQUIRE(client->Do("DELETE", claims + "/e2e-gpu").ok());
  REQUIRE(client->Do("DELETE", rules + "/e2e-drain").ok());
}

}  // namespace
}  // namespace schedkit::e2e
