// The deployment under examples/schedkit-kube/deploy against the real API
// server: every object passes a server-side dry run with strict field
// validation (what `kubectl apply --dry-run=server` asks), and schedkit-kube
// running as the ServiceAccount those manifests create, with the
// configuration their ConfigMap holds, wins, renews and releases its Lease
// and schedules a pod, while the API server refuses that account anything
// outside its role.
#include <signal.h>

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "api/json_documents.h"
#include "e2e/child_process.h"
#include "e2e/kube_fixtures.h"
#include "e2e/kube_process.h"
#include "e2e/shared_apiserver.h"
#include "nlohmann/json.hpp"
#include "schedkit/base/str_cat.h"
#include "schedkit/kube/api_client.h"

namespace schedkit::e2e {
namespace {

using nlohmann::json;

const std::string kDeployDir = std::string(SCHEDKIT_SOURCE_DIR) + "/examples/schedkit-kube/deploy/";
const std::string kSampleDeployDir = std::string(SCHEDKIT_SOURCE_DIR) + "/examples/sample-plugin/deploy/";

// YAML's core schema for plain scalars, as kubectl reads manifests.
json PlainScalar(std::string_view text) {
  if (text.empty() || text == "~" || text == "null") return nullptr;
  if (text == "true") return true;
  if (text == "false") return false;
  if (int64_t n; absl::SimpleAtoi(absl::string_view(text.data(), text.size()), &n)) return n;
  return std::string(text);
}

std::vector<json> Manifests(const std::string& file, const std::string& dir = kDeployDir) {
  const std::string path = dir + file;
  api::internal::YamlScalars scalars;
  scalars.plain = PlainScalar;
  auto docs = api::internal::ParseDocuments(ReadFile(path), path, scalars);
  INFO(docs.status().message());
  REQUIRE(docs.ok());
  return *docs;
}

// The collection an object is created in.
std::string CollectionOf(const json& object) {
  const std::string kind = object["kind"];
  const std::string ns = object["metadata"].value("namespace", "");
  static const std::map<std::string, std::pair<std::string, std::string>> kPaths = {
      {"ServiceAccount", {"/api/v1", "serviceaccounts"}},
      {"ConfigMap", {"/api/v1", "configmaps"}},
      {"ClusterRole", {"/apis/rbac.authorization.k8s.io/v1", "clusterroles"}},
      {"ClusterRoleBinding", {"/apis/rbac.authorization.k8s.io/v1", "clusterrolebindings"}},
      {"Role", {"/apis/rbac.authorization.k8s.io/v1", "roles"}},
      {"RoleBinding", {"/apis/rbac.authorization.k8s.io/v1", "rolebindings"}},
      {"Deployment", {"/apis/apps/v1", "deployments"}},
  };
  const auto it = kPaths.find(kind);
  INFO(kind);
  REQUIRE(it != kPaths.end());
  return ns.empty() ? schedkit::StrCat(it->second.first, "/", it->second.second)
                    : schedkit::StrCat(it->second.first, "/namespaces/", ns, "/", it->second.second);
}

absl::StatusOr<std::string> DryRun(kube::ApiClient& admin, const json& object) {
  return admin.Do("POST", CollectionOf(object) + "?dryRun=All&fieldValidation=Strict", object.dump());
}

// A token of kube-system's ServiceAccount `name` (a TokenRequest, as the
// kubelet asks for a pod's).
std::string ServiceAccountToken(kube::ApiClient& admin, const std::string& name) {
  auto reply = admin.Do("POST", schedkit::StrCat("/api/v1/namespaces/kube-system/serviceaccounts/", name, "/token"),
                        json{{"apiVersion", "authentication.k8s.io/v1"},
                             {"kind", "TokenRequest"},
                             {"spec", {{"expirationSeconds", 3600}}}}
                            .dump());
  INFO(reply.status().message());
  REQUIRE(reply.ok());
  return json::parse(*reply)["status"]["token"];
}

std::unique_ptr<kube::ApiClient> ClientWithToken(const std::string& token) {
  kube::ClientConfig config;
  config.server = Server().url();
  config.transport.ca_pem = ReadFile(Server().ca_file());
  config.transport.bearer_token = token;
  auto client = kube::ApiClient::Create(config);
  REQUIRE(client.ok());
  return *std::move(client);
}

TEST_CASE("deploy: the manifests pass a strict server-side dry run", "[e2e][deploy]") {
  auto admin = Admin();
  int objects = 0;
  for (const std::string file : {"rbac.yaml", "configmap.yaml", "deployment.yaml"}) {
    for (const json& object : Manifests(file)) {
      INFO(file << ": " << object["kind"] << " " << object["metadata"]["name"]);
      auto reply = DryRun(*admin, object);
      INFO(reply.status().message());
      CHECK(reply.ok());
      ++objects;
    }
  }
  CHECK(objects == 7);
  // A dry run stores nothing...
  const std::string deployment = "/apis/apps/v1/namespaces/kube-system/deployments/schedkit-kube";
  CHECK(kube::HttpStatusOf(admin->Do("GET", deployment).status()) == 404);
  // ...and would catch a misspelt field.
  json broken = Manifests("deployment.yaml").front();
  broken["spec"]["template"]["spec"]["containers"][0]["imagePullPolcy"] = "Always";
  auto refused = DryRun(*admin, broken);
  CHECK(kube::HttpStatusOf(refused.status()) == 400);
  CHECK_THAT(std::string(refused.status().message()), Catch::Contains("imagePullPolcy"));
}

TEST_CASE("deploy: schedkit-kube as the ServiceAccount schedules, and may do nothing outside its role",
          "[e2e][deploy]") {
  auto admin = Admin();
  for (const json& object : Manifests("rbac.yaml")) {
    Create(*admin, CollectionOf(object), object);
  }
  const std::string config = Manifests("configmap.yaml").front()["data"]["config.yaml"];
  const std::string token = ServiceAccountToken(*admin, "schedkit-kube");

  const std::string ns = "deploy";
  CreateNamespace(*admin, ns);
  Create(*admin, "/api/v1/nodes", NodeJson("deploy-0", "4", "deploy"));
  KubeProcess sched("deploy", config, token);
  sched.Start();
  json pod = PodJson(ns, "web", "1", 0, "deploy");
  pod["spec"]["schedulerName"] = "schedkit-kube";
  const std::string pods = schedkit::StrCat("/api/v1/namespaces/", ns, "/pods");
  Create(*admin, pods, pod);
  INFO(sched.Output());
  REQUIRE(Eventually(absl::Seconds(40), [&] { return Placements(*admin, ns)["web"] == "deploy-0"; }));
  const std::string leases = "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/";
  const json lease = Get(*admin, leases + "schedkit-kube")["spec"];
  CHECK_THAT(lease.value("holderIdentity", ""), Catch::Contains("_"));
  // Its LeaderElection event, a core Event its Role lets it create.
  CHECK(Eventually(absl::Seconds(10),
                   [&] { return HasLeaderEvent(*admin, "schedkit-kube", lease.value("holderIdentity", "")); }));
  // It renews the Lease (an update, which its Role grants on that name only)...
  const std::string acquired = lease.value("renewTime", "");
  CHECK(Eventually(absl::Seconds(15), [&] {
    return Get(*admin, leases + "schedkit-kube")["spec"].value("renewTime", "") != acquired;
  }));
  // Its events were accepted too.
  const std::string events = schedkit::StrCat("/apis/events.k8s.io/v1/namespaces/", ns, "/events");
  REQUIRE(Eventually(absl::Seconds(20), [&] { return !Get(*admin, events)["items"].empty(); }));

  // What the role allows, and what it does not.
  auto as_sa = ClientWithToken(token);
  CHECK(as_sa->Do("GET", "/api/v1/nodes").ok());
  CHECK(kube::HttpStatusOf(as_sa->Do("DELETE", "/api/v1/nodes/deploy-0").status()) == 403);
  CHECK(kube::HttpStatusOf(as_sa->Do("GET", "/api/v1/namespaces/kube-system/secrets").status()) == 403);
  CHECK(kube::HttpStatusOf(as_sa->Do("POST", pods, PodJson(ns, "x", "1", 0, "d").dump()).status()) == 403);
  // Only its own Lease.
  CHECK(kube::HttpStatusOf(as_sa->Do("GET", leases + "kube-scheduler").status()) == 403);
  CHECK(Get(*admin, "/api/v1/nodes/deploy-0")["metadata"]["name"] == "deploy-0");

  sched.Signal(SIGTERM);
  CHECK(sched.Wait(absl::Seconds(30)) == std::optional<int>(0));
  // ...and releases it on the way out, so that a standby need not wait.
  CHECK(Get(*admin, leases + "schedkit-kube")["spec"].value("holderIdentity", "") == "");
}

// examples/sample-plugin's sample-scheduler, an out-of-tree plugin built
// against an install of this tree, deployed with its own manifests: it
// schedules pods that ask for it, its plugin reading its args from the
// ConfigMap's file; with bad args it refuses to start, in one line.
TEST_CASE("deploy: sample-scheduler schedules with its plugin's args from its ConfigMap", "[e2e][deploy][sample]") {
  REQUIRE_FALSE(SampleSchedulerBinary().empty());
  auto admin = Admin();
  for (const json& object : Manifests("rbac.yaml", kSampleDeployDir)) {
    Create(*admin, CollectionOf(object), object);
  }
  const std::string config = Manifests("configmap.yaml", kSampleDeployDir).front()["data"]["scheduler-config.yaml"];
  const std::string token = ServiceAccountToken(*admin, "sample-scheduler");

  // Two nodes alike but for the plugin's label (sample.schedkit.io/color).
  const std::string ns = "sample";
  CreateNamespace(*admin, ns);
  json red = NodeJson("sample-red", "4", "sample");
  red["metadata"]["labels"]["sample.schedkit.io/color"] = "red";
  Create(*admin, "/api/v1/nodes", red);
  Create(*admin, "/api/v1/nodes", NodeJson("sample-plain", "4", "sample"));
  KubeProcess sched("sample", config, token);
  sched.set_binary(SampleSchedulerBinary());
  sched.Start();
  const std::string pods = schedkit::StrCat("/api/v1/namespaces/", ns, "/pods");
  // One pod takes the ConfigMap's favorite_color ("#326CE5": no node is that
  // color, so the red node refuses it), one asks for red itself, one for a
  // color no node has.
  for (const auto& [name, color] : std::vector<std::pair<std::string, std::string>>{
           {"favorite", ""}, {"wants-red", "red"}, {"wants-green", "green"}}) {
    json pod = PodJson(ns, name, "1", 0, "sample");
    pod["spec"]["schedulerName"] = "sample-scheduler";
    if (!color.empty()) pod["metadata"]["labels"]["sample.schedkit.io/color"] = color;
    Create(*admin, pods, pod);
  }
  INFO(sched.Output());
  REQUIRE(Eventually(absl::Seconds(40), [&] {
    int bound = 0;
    for (const auto& [pod, node] : Placements(*admin, ns)) bound += node.empty() ? 0 : 1;
    return bound == 3;
  }));
  const std::map<std::string, std::string> placed = Placements(*admin, ns);
  CHECK(placed.at("favorite") == "sample-plain");
  CHECK(placed.at("wants-red") == "sample-red");
  CHECK(placed.at("wants-green") == "sample-plain");
  sched.Signal(SIGTERM);
  CHECK(sched.Wait(absl::Seconds(30)) == std::optional<int>(0));

  // The same ConfigMap with a favorite_number out of range: exit 1 and one
  // line naming the file, the field, the plugin and the profile.
  std::string bad = config;
  const size_t at = bad.find("favorite_number: 7");
  REQUIRE(at != std::string::npos);
  bad.replace(at, std::string("favorite_number: 7").size(), "favorite_number: 101");
  const std::string bad_path = Server().dir() + "/sample-bad-args.yaml";
  WriteFile(bad_path, bad);
  auto child = ChildProcess::Start({SampleSchedulerBinary(), "--config", bad_path, "--secure-port=0"},
                                   Server().dir() + "/sample-bad-args.log");
  REQUIRE(child.ok());
  CHECK((*child)->Wait(absl::Seconds(30)) == std::optional<int>(1));
  CHECK((*child)->Output() ==
        schedkit::StrCat("sample-scheduler: ", bad_path,
                         ": profiles[0].pluginConfig[0].args.favorite_number: Invalid value: 101: must be between 0 "
                         "and 100, inclusive (plugin \"sample-plugin\", profile \"sample-scheduler\")\n"));
}

}  // namespace
}  // namespace schedkit::e2e
