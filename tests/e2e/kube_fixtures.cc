#include "e2e/kube_fixtures.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <sstream>

#include "e2e/shared_apiserver.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::e2e {

using nlohmann::json;

std::unique_ptr<kube::ApiClient> Admin(TestApiServer* server) {
  auto config = kube::LoadKubeconfig({(server != nullptr ? *server : Server()).admin_kubeconfig()});
  REQUIRE(config.ok());
  config->qps = 1000;
  config->burst = 1000;
  auto client = kube::ApiClient::Create(*config);
  REQUIRE(client.ok());
  return *std::move(client);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
}

std::string SchedulerToken() {
  std::istringstream lines(ReadFile(Server().dir() + "/tokens.csv"));
  for (std::string line; std::getline(lines, line);) {
    if (line.find(",system:kube-scheduler,") != std::string::npos) return line.substr(0, line.find(','));
  }
  FAIL("no scheduler token in tokens.csv");
  return "";
}

std::string WriteKubeconfig(const std::string& name, const std::string& server, const std::string& ca_file,
                            const std::string& user) {
  const std::string path = schedkit::StrCat(Server().dir(), "/", name);
  const std::string ca = ca_file.empty() ? "" : schedkit::StrCat("\n    certificate-authority: ", ca_file);
  WriteFile(path, schedkit::StrCat("apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n",
                                   "    server: ", server, ca, "\nusers:\n- name: u\n  user:\n", user,
                                   "\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\n",
                                   "current-context: x\n"));
  return path;
}

json NodeJson(const std::string& name, const std::string& cpu, const std::string& group, const std::string& zone) {
  const json resources = {{"cpu", cpu}, {"memory", "64Gi"}, {"pods", "110"}};
  const json labels = {
      {"kubernetes.io/hostname", name}, {"topology.kubernetes.io/zone", zone}, {"e2e", group}};
  return {{"apiVersion", "v1"},
          {"kind", "Node"},
          {"metadata", {{"name", name}, {"labels", labels}}},
          // Only the group's pods tolerate it: other cases' pods stay off.
          {"spec", {{"taints", json::array({{{"key", "e2e"}, {"value", group}, {"effect", "NoSchedule"}}})}}},
          {"status",
           {{"capacity", resources},
            {"allocatable", resources},
            {"conditions", json::array({{{"type", "Ready"}, {"status", "True"}}})}}}};
}

json PodJson(const std::string& ns, const std::string& name, const std::string& cpu, int priority,
             const std::string& group) {
  const json container = {
      {"name", "c"}, {"image", "registry.k8s.io/pause:3.10"}, {"resources", {{"requests", {{"cpu", cpu}}}}}};
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"namespace", ns}, {"name", name}, {"labels", {{"app", name}}}}},
          {"spec",
           {{"priority", priority},
            {"terminationGracePeriodSeconds", 0},
            {"nodeSelector", {{"e2e", group}}},
            {"tolerations", json::array({{{"key", "e2e"}, {"value", group}, {"effect", "NoSchedule"}}})},
            {"containers", json::array({container})}}}};
}

void Create(kube::ApiClient& admin, const std::string& path, const json& object) {
  auto created = admin.Do("POST", path, object.dump());
  INFO(created.status().message());
  REQUIRE((created.ok() || absl::IsAlreadyExists(created.status())));
}

void CreateNamespace(kube::ApiClient& admin, const std::string& ns) {
  Create(admin, "/api/v1/namespaces",
         json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
}

json Get(kube::ApiClient& admin, const std::string& path) {
  auto reply = admin.Do("GET", path);
  INFO(reply.status().message());
  REQUIRE(reply.ok());
  return json::parse(*reply);
}

std::map<std::string, std::string> Placements(kube::ApiClient& admin, const std::string& ns) {
  std::map<std::string, std::string> out;
  const json list = Get(admin, schedkit::StrCat("/api/v1/namespaces/", ns, "/pods"));
  for (const json& pod : list["items"]) {
    out[pod["metadata"]["name"].get<std::string>()] = pod["spec"].value("nodeName", "");
  }
  return out;
}

bool HasLeaderEvent(kube::ApiClient& admin, const std::string& lease, const std::string& holder) {
  if (holder.empty()) return false;
  for (const json& e : Get(admin, "/api/v1/namespaces/kube-system/events").value("items", json::array())) {
    const json& about = e.value("involvedObject", json::object());
    if (e.value("reason", "") == "LeaderElection" && e.value("message", "") == holder + " became leader" &&
        about.value("kind", "") == "Lease" && about.value("name", "") == lease && e.value("type", "") == "Normal") {
      return true;
    }
  }
  return false;
}

}  // namespace schedkit::e2e
