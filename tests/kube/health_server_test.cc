// The serving endpoints as upstream's healthz package answers them, over
// plain HTTP and HTTPS with the self-signed certificate.
#include "kube/health_server.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <string>

#include "httplib.h"

namespace schedkit::kube::internal {
namespace {

struct Served {
  std::atomic<bool> synced{false};
  std::unique_ptr<HealthServer> server;

  explicit Served(int secure_port) {
    HealthServerOptions o;
    o.bind_address = "127.0.0.1";
    o.secure_port = secure_port;
    o.http_port = -1;
    const HealthCheck ping{"ping", [] { return absl::OkStatus(); }};
    o.livez = {ping};
    o.readyz = {ping, {"sched-handler-sync", [this] {
                         return synced.load() ? absl::OkStatus() : absl::UnavailableError("not yet");
                       }}};
    o.healthz = {ping};
    o.metrics = [] { return std::string("scheduler_schedule_attempts_total{profile=\"p\",result=\"scheduled\"} 3\n"); };
    auto s = HealthServer::Start(std::move(o));
    REQUIRE(s.ok());
    server = *std::move(s);
  }
};

TEST_CASE("HealthServer: livez, readyz and healthz answer as upstream's healthz", "[kube][serving]") {
  Served served(0);
  httplib::Client client("127.0.0.1", served.server->http_port());
  auto livez = client.Get("/livez");
  REQUIRE(livez);
  CHECK(livez->status == 200);
  CHECK(livez->body == "ok");

  // Not ready until the handlers synced: every check listed, the failed one
  // without its reason.
  auto readyz = client.Get("/readyz");
  REQUIRE(readyz);
  CHECK(readyz->status == 500);
  CHECK(readyz->body == "[+]ping ok\n[-]sched-handler-sync failed: reason withheld\nreadyz check failed\n");
  auto excluded = client.Get("/readyz?exclude=sched-handler-sync");
  REQUIRE(excluded);
  CHECK(excluded->status == 200);
  auto one = client.Get("/readyz/sched-handler-sync");
  REQUIRE(one);
  CHECK(one->status == 500);
  CHECK(client.Get("/readyz/no-such-check")->status == 404);

  served.synced = true;
  CHECK(client.Get("/readyz")->body == "ok");
  auto verbose = client.Get("/readyz?verbose");
  REQUIRE(verbose);
  CHECK(verbose->body == "[+]ping ok\n[+]sched-handler-sync ok\nreadyz check passed\n");
  CHECK(client.Get("/healthz")->status == 200);

  auto metrics = client.Get("/metrics");
  REQUIRE(metrics);
  CHECK(metrics->status == 200);
  CHECK(metrics->get_header_value("Content-Type").starts_with("text/plain; version=0.0.4"));
  CHECK(metrics->body.find("scheduler_schedule_attempts_total") != std::string::npos);
}

TEST_CASE("HealthServer: HTTPS with a self-signed certificate for 127.0.0.1", "[kube][serving]") {
  Served served(-1);
  REQUIRE(served.server->secure_port() > 0);
  httplib::SSLClient client("127.0.0.1", served.server->secure_port());
  client.enable_server_certificate_verification(false);
  auto livez = client.Get("/livez");
  REQUIRE(livez);
  CHECK(livez->status == 200);
  CHECK(livez->body == "ok");
}

TEST_CASE("HealthServer: a port in use is an error naming the address", "[kube][serving]") {
  Served first(0);
  HealthServerOptions o;
  o.bind_address = "127.0.0.1";
  o.http_port = first.server->http_port();
  auto second = HealthServer::Start(std::move(o));
  REQUIRE_FALSE(second.ok());
  CHECK(second.status().message() ==
        "failed to listen on http://127.0.0.1:" + std::to_string(first.server->http_port()));
}

}  // namespace
}  // namespace schedkit::kube::internal
