// A kind schedkit does not model, registered beside a plugin (the install
// test's toy PodGroup CRD): the API server serves it from a
// CustomResourceDefinition, and the informers a Scheduler runs under
// schedkit::kube list and watch it into the scheduler's store as they do any
// built-in kind, with nothing in schedkit naming it.
#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "e2e/shared_apiserver.h"
#include "kube/api_host.h"
#include "kube/informers.h"
#include "nlohmann/json.hpp"
#include "pod_group.pb.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/lister.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/config/configuration.h"
#include "schedkit/kube/api_client.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/scheduler/scheduler.h"

template <>
struct schedkit::api::KindTraits<consumer::v1alpha1::PodGroup> {
  static constexpr KindName kName = {.group = "scheduling.x-k8s.io", .version = "v1alpha1", .kind = "PodGroup",
                                     .resource = "podgroups", .namespaced = true};
};

namespace schedkit::e2e {
namespace {

using consumer::v1alpha1::PodGroup;
using nlohmann::json;

json Group(const std::string& ns, const std::string& name, int min_member) {
  return {{"apiVersion", "scheduling.x-k8s.io/v1alpha1"},
          {"kind", "PodGroup"},
          {"metadata", {{"namespace", ns}, {"name", name}}},
          {"spec", {{"minMember", min_member}}}};
}

// Creates namespace `ns` (if it is not there) and returns the path of its
// PodGroups.
std::string GroupsIn(kube::ApiClient& client, const std::string& ns) {
  (void)client.Do("POST", "/api/v1/namespaces",
                  json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}}.dump());
  return schedkit::StrCat("/apis/scheduling.x-k8s.io/v1alpha1/namespaces/", ns, "/podgroups");
}

// Creates `group` once the API server serves the kind: a definition is
// established a moment after it is created (bounded: 30 s).
bool CreateOnceServed(kube::ApiClient& client, const std::string& in_ns, const json& group) {
  for (int i = 0; i < 300; ++i) {
    if (client.Do("POST", in_ns, group.dump()).ok()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

// The toy PodGroup's CustomResourceDefinition.
json PodGroupDefinition() {
  return {
      {"apiVersion", "apiextensions.k8s.io/v1"},
      {"kind", "CustomResourceDefinition"},
      {"metadata", {{"name", "podgroups.scheduling.x-k8s.io"}}},
      {"spec",
       {{"group", "scheduling.x-k8s.io"},
        {"scope", "Namespaced"},
        {"names", {{"kind", "PodGroup"}, {"listKind", "PodGroupList"}, {"plural", "podgroups"}, {"singular", "podgroup"}}},
        {"versions",
         json::array({{{"name", "v1alpha1"},
                       {"served", true},
                       {"storage", true},
                       {"schema",
                        {{"openAPIV3Schema",
                          {{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}}}}}})}}}};
}

// A scheduler of the default configuration that knows the PodGroup kind,
// writing through `client`; what it was built from lives as long as it.
struct PodGroupScheduler {
  explicit PodGroupScheduler(kube::ApiClient& client) : host(client, nullptr) {
    registry.AddKind<PodGroup>();
    auto created = scheduler::Scheduler::Create(config::DefaultConfiguration(), registry, host, empty);
    REQUIRE(created.ok());
    scheduler = *std::move(created);
  }
  scheduler::Scheduler* operator->() const { return scheduler.get(); }
  scheduler::Scheduler& operator*() const { return *scheduler; }

  kube::internal::ApiHost host;
  api::StaticClusterLister empty;
  framework::Registry registry = plugins::NewInTreeRegistry();
  std::unique_ptr<scheduler::Scheduler> scheduler;
};

TEST_CASE("a plugin's own kind is listed and watched from a CustomResourceDefinition", "[e2e]") {
  auto config = kube::LoadKubeconfig({Server().admin_kubeconfig()});
  REQUIRE(config.ok());
  auto created_client = kube::ApiClient::Create(*config);
  REQUIRE(created_client.ok());
  kube::ApiClient& client = **created_client;
  const api::Kind& kind = api::KindOf<PodGroup>();

  const json crd = PodGroupDefinition();
  REQUIRE(client.Do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd.dump()).ok());
  const std::string ns = "e2e-custom-kind";
  const std::string in_ns = GroupsIn(client, ns);
  REQUIRE(CreateOnceServed(client, in_ns, Group(ns, "gang-a", 3)));

  PodGroupScheduler sched(client);
  REQUIRE(sched->kinds().Contains(kind));
  kube::internal::SchedulerInformers informers(client, *sched, {"default-scheduler"});
  informers.Start();
  REQUIRE(informers.WaitForCacheSync(absl::Seconds(30)));
  // Listed at the start...
  auto held = sched->objects().Get<PodGroup>(ns, "gang-a");
  REQUIRE(held != nullptr);
  CHECK(held->spec().min_member() == 3);
  // ...then watched: one created, one changed, one deleted (bounded: 30 s).
  REQUIRE(client.Do("POST", in_ns, Group(ns, "gang-b", 2).dump()).ok());
  REQUIRE(client.Do("PATCH", in_ns + "/gang-a", json{{"spec", {{"minMember", 5}}}}.dump(),
                    "application/merge-patch+json")
              .ok());
  bool seen = false;
  for (int i = 0; i < 300 && !seen; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto a = sched->objects().Get<PodGroup>(ns, "gang-a");
    seen = a != nullptr && a->spec().min_member() == 5 && sched->objects().Get<PodGroup>(ns, "gang-b") != nullptr;
  }
  CHECK(seen);
  REQUIRE(client.Do("DELETE", in_ns + "/gang-b").ok());
  bool gone = false;
  for (int i = 0; i < 300 && !gone; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    gone = sched->objects().Get<PodGroup>(ns, "gang-b") == nullptr;
  }
  informers.Stop();
  CHECK(gone);
  CHECK(informers.rejected_objects() == 0);
  REQUIRE(client.Do("DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/podgroups.scheduling.x-k8s.io").ok());
}

// kube-scheduler's informers start on a server without the kind (the CRD
// not installed yet) and pick it up once it is served; schedkit's too.
TEST_CASE("a kind the API server does not serve yet: synced empty at once, listed once its CRD appears",
          "[e2e]") {
  auto config = kube::LoadKubeconfig({Server().admin_kubeconfig()});
  REQUIRE(config.ok());
  auto created_client = kube::ApiClient::Create(*config);
  REQUIRE(created_client.ok());
  kube::ApiClient& client = **created_client;
  const std::string definition = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/podgroups.scheduling.x-k8s.io";
  (void)client.Do("DELETE", definition);  // from an earlier case, if it is still there
  for (int i = 0; i < 300 && client.Do("GET", definition).ok(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  REQUIRE_FALSE(client.Do("GET", definition).ok());

  PodGroupScheduler sched(client);
  // A short back-off bound, so that the test does not wait 30 s for the retry.
  kube::internal::ReflectorOptions options;
  options.initial_backoff = absl::Milliseconds(100);
  options.max_backoff = absl::Seconds(1);
  kube::internal::SchedulerInformers informers(client, *sched, {"default-scheduler"}, options);
  informers.Start();
  REQUIRE(informers.WaitForCacheSync(absl::Seconds(30)));

  REQUIRE(client.Do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", PodGroupDefinition().dump()).ok());
  const std::string ns = "e2e-custom-kind-later";
  const std::string in_ns = GroupsIn(client, ns);
  REQUIRE(CreateOnceServed(client, in_ns, Group(ns, "late", 4)));
  bool seen = false;
  for (int i = 0; i < 300 && !seen; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    auto held = sched->objects().Get<PodGroup>(ns, "late");
    seen = held != nullptr && held->spec().min_member() == 4;
  }
  informers.Stop();
  CHECK(seen);
  CHECK(informers.rejected_objects() == 0);
  REQUIRE(client.Do("DELETE", definition).ok());
}

}  // namespace
}  // namespace schedkit::e2e
