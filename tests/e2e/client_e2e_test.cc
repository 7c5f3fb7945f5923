// schedkit::kube's client against a real kube-apiserver v1.35 with etcd on
// 127.0.0.1: verified TLS, credentials and RBAC, watches, and a server
// restart under a live client.
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "schedkit/base/upstream_version.h"
#include "e2e/shared_apiserver.h"
#include "nlohmann/json.hpp"
#include "schedkit/kube/client_config.h"
#include "schedkit/kube/http_client.h"

namespace schedkit::e2e {
namespace {

using kube::HttpClient;
using kube::HttpRequest;

kube::ClientConfig MustLoad(const std::string& kubeconfig) {
  auto config = kube::LoadKubeconfig({kubeconfig});
  if (!config.ok()) FAIL(std::string(config.status().message()));
  return *config;
}

std::unique_ptr<HttpClient> MustClient(const kube::ClientConfig& config) {
  auto client = HttpClient::Create(config.server, config.transport, "schedkit-e2e");
  if (!client.ok()) FAIL(std::string(client.status().message()));
  return *std::move(client);
}

HttpRequest Request(std::string method, std::string path, std::string body = "") {
  HttpRequest r;
  r.method = std::move(method);
  r.path = std::move(path);
  r.body = std::move(body);
  if (!r.body.empty()) r.content_type = "application/json";
  return r;
}

std::string NamespaceJson(const std::string& name) {
  return R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + name + R"("}})";
}

// A CA no one signed the server's certificate with.
std::string UnrelatedCaPem() {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  REQUIRE(key != nullptr);
  X509* cert = X509_new();
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), 0);
  X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  const auto* cn = reinterpret_cast<const unsigned char*>("unrelated-ca");
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, cn, -1, -1, 0);
  X509_set_issuer_name(cert, name);
  REQUIRE(X509_sign(cert, key, EVP_sha256()) > 0);
  BIO* bio = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(bio, cert);
  char* data = nullptr;
  const long len = BIO_get_mem_data(bio, &data);
  std::string pem(data, static_cast<size_t>(len));
  BIO_free(bio);
  X509_free(cert);
  EVP_PKEY_free(key);
  return pem;
}

TEST_CASE("the admin kubeconfig reaches the real API server over verified TLS", "[e2e]") {
  auto client = MustClient(MustLoad(Server().admin_kubeconfig()));
  auto version = client->Send(Request("GET", "/version"));
  REQUIRE(version.ok());
  REQUIRE(version->status == 200);
  // The test API server is stamped from the one line that names the release.
  CHECK(nlohmann::json::parse(version->body)["gitVersion"] == std::string(schedkit::kUpstreamVersion));
  auto ns = client->Send(Request("GET", "/api/v1/namespaces/default"));
  REQUIRE(ns.ok());
  REQUIRE(ns->status == 200);
  CHECK(nlohmann::json::parse(ns->body)["metadata"]["name"] == "default");
}

TEST_CASE("a CA that did not sign the server's certificate is a TLS error naming the server", "[e2e]") {
  kube::ClientConfig config = MustLoad(Server().admin_kubeconfig());
  config.transport.ca_pem = UnrelatedCaPem();
  auto reply = MustClient(config)->Send(Request("GET", "/version"));
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.status().code() == absl::StatusCode::kUnavailable);
  CAPTURE(reply.status().message());
  CHECK(absl::StartsWith(reply.status().message(), Server().url() + ": TLS: "));

  // The system's roots do not know the test server's CA either.
  config.transport.ca_pem.clear();
  auto system_roots = MustClient(config)->Send(Request("GET", "/version"));
  REQUIRE_FALSE(system_roots.ok());
  CHECK(absl::StartsWith(system_roots.status().message(), Server().url() + ": TLS: "));
}

TEST_CASE("a tls-server-name that the certificate does not carry is refused", "[e2e]") {
  kube::ClientConfig config = MustLoad(Server().admin_kubeconfig());
  config.transport.tls_server_name = "not-this-server.example";
  auto reply = MustClient(config)->Send(Request("GET", "/version"));
  REQUIRE_FALSE(reply.ok());
  CAPTURE(reply.status().message());
  CHECK(absl::StartsWith(reply.status().message(), Server().url() + ": TLS: "));
}

TEST_CASE("the API server refuses a wrong token, and RBAC holds the scheduler to its role", "[e2e]") {
  kube::ClientConfig wrong = MustLoad(Server().admin_kubeconfig());
  wrong.transport.bearer_token = "not-a-token";
  auto refused = MustClient(wrong)->Send(Request("GET", "/api/v1/pods"));
  REQUIRE(refused.ok());
  CHECK(refused->status == 401);

  auto scheduler = MustClient(MustLoad(Server().scheduler_kubeconfig()));
  auto pods = scheduler->Send(Request("GET", "/api/v1/pods?limit=10"));
  REQUIRE(pods.ok());
  CHECK(pods->status == 200);
  auto nodes = scheduler->Send(Request("GET", "/api/v1/nodes"));
  REQUIRE(nodes.ok());
  CHECK(nodes->status == 200);
  auto forbidden = scheduler->Send(Request("DELETE", "/api/v1/namespaces/default"));
  REQUIRE(forbidden.ok());
  CHECK(forbidden->status == 403);
}

TEST_CASE("a watch streams the events of objects created while it runs", "[e2e]") {
  auto client = MustClient(MustLoad(Server().admin_kubeconfig()));
  auto list = client->Send(Request("GET", "/api/v1/namespaces"));
  REQUIRE(list.ok());
  REQUIRE(list->status == 200);
  const std::string rv = nlohmann::json::parse(list->body)["metadata"]["resourceVersion"];

  std::atomic<bool> seen{false};
  std::string events;
  absl::StatusOr<kube::HttpResponse> done = absl::UnknownError("not run");
  std::thread watcher([&] {
    HttpRequest watch =
        Request("GET", "/api/v1/namespaces?watch=true&allowWatchBookmarks=true&resourceVersion=" + rv);
    watch.timeout = absl::Seconds(20);
    done = client->Stream(watch, [&](std::string_view data) {
      events.append(data);
      if (absl::StrContains(events, "\"e2e-watched\"")) {
        seen = true;
        return false;
      }
      return true;
    });
  });
  auto created = client->Send(Request("POST", "/api/v1/namespaces", NamespaceJson("e2e-watched")));
  REQUIRE(created.ok());
  CHECK(created->status == 201);
  watcher.join();
  REQUIRE(done.ok());
  CHECK(done->status == 200);
  CHECK(seen);
  // One JSON event per line: the first names its type and carries the object.
  const auto first = nlohmann::json::parse(events.substr(0, events.find('\n')));
  CHECK(first["type"] == "ADDED");
  CHECK(first["object"]["metadata"]["name"] == "e2e-watched");
}

TEST_CASE("after the API server restarts, a watch ends and the same client carries on", "[e2e]") {
  auto client = MustClient(MustLoad(Server().admin_kubeconfig()));
  auto created = client->Send(Request("POST", "/api/v1/namespaces", NamespaceJson("e2e-kept")));
  REQUIRE(created.ok());
  REQUIRE(created->status == 201);

  std::atomic<bool> watch_ended{false};
  std::thread watcher([&] {
    HttpRequest watch = Request("GET", "/api/v1/namespaces?watch=true");
    watch.timeout = absl::Seconds(60);
    (void)client->Stream(watch, [](std::string_view) { return true; });
    watch_ended = true;
  });
  REQUIRE(Server().Restart().ok());
  watcher.join();
  CHECK(watch_ended);

  // The first request may meet a connection the restart closed; a few
  // tries, a second apart, are enough.
  absl::StatusOr<kube::HttpResponse> kept = absl::UnknownError("not tried");
  for (int attempt = 0; attempt < 10; ++attempt) {
    kept = client->Send(Request("GET", "/api/v1/namespaces/e2e-kept"));
    if (kept.ok() && kept->status == 200) break;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  REQUIRE(kept.ok());
  CHECK(kept->status == 200);
}

}  // namespace
}  // namespace schedkit::e2e
