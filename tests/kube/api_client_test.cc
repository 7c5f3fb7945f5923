// ApiClient against a local HTTP server: API errors keep their HTTP status
// and reason, odd replies stay readable, and the rate limit holds.
#include "schedkit/kube/api_client.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "kube/local_http_server.h"

namespace schedkit::kube {
namespace {

// A Status object as the API server writes it.
std::string StatusBody(int code, const std::string& reason, const std::string& message) {
  return R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":")" + message +
         R"(","reason":")" + reason + R"(","code":)" + std::to_string(code) + "}";
}

class ApiServer {
 public:
  ApiServer() {
    httplib::Server& routes = local_.routes();
    routes.Get("/ok", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"kind":"PodList"})", "application/json");
    });
    auto error = [](int code, std::string reason, std::string message) {
      return [=](const httplib::Request&, httplib::Response& res) {
        res.status = code;
        res.set_content(StatusBody(code, reason, message), "application/json");
      };
    };
    routes.Post("/exists", error(409, "AlreadyExists", "pods \\\"p\\\" already exists"));
    routes.Post("/conflict", error(409, "Conflict", "Operation cannot be fulfilled on pods \\\"p\\\""));
    routes.Get("/expired", error(410, "Expired", "too old resource version: 5 (9)"));
    routes.Get("/forbidden", error(403, "Forbidden", "nope"));
    routes.Get("/broken", [](const httplib::Request&, httplib::Response& res) {
      res.status = 502;
      res.set_content("<html>bad gateway</html>", "text/html");
    });
    routes.Get("/watch", [](const httplib::Request&, httplib::Response& res) {
      res.set_chunked_content_provider("application/json", [](size_t offset, httplib::DataSink& sink) {
        if (offset > 0) {
          sink.done();
          return true;
        }
        return sink.write("{\"type\":\"ADDED\"}\n", 17);
      });
    });
    local_.Start();
  }
  std::string url() const { return local_.url(); }

 private:
  testing::LocalHttpServer local_;
};

std::unique_ptr<ApiClient> MustCreate(const std::string& server, double qps = 50, int burst = 100) {
  ClientConfig config;
  config.server = server;
  config.qps = qps;
  config.burst = burst;
  auto client = ApiClient::Create(config);
  REQUIRE(client.ok());
  return *std::move(client);
}

TEST_CASE("ApiClient turns API errors into statuses that keep the HTTP status and reason", "[kube]") {
  ApiServer server;
  auto client = MustCreate(server.url());
  auto ok = client->Do("GET", "/ok");
  REQUIRE(ok.ok());
  CHECK(*ok == R"({"kind":"PodList"})");

  struct Case {
    std::string method, path;
    absl::StatusCode code;
    int http;
    std::string reason, message;
  };
  const std::vector<Case> cases = {
      {"POST", "/exists", absl::StatusCode::kAlreadyExists, 409, "AlreadyExists",
       "409 AlreadyExists: pods \"p\" already exists"},
      {"POST", "/conflict", absl::StatusCode::kAborted, 409, "Conflict",
       "409 Conflict: Operation cannot be fulfilled on pods \"p\""},
      {"GET", "/expired", absl::StatusCode::kOutOfRange, 410, "Expired",
       "410 Expired: too old resource version: 5 (9)"},
      {"GET", "/forbidden", absl::StatusCode::kPermissionDenied, 403, "Forbidden", "403 Forbidden: nope"},
      {"GET", "/broken", absl::StatusCode::kUnavailable, 502, "", "502: <html>bad gateway</html>"},
      {"GET", "/nothing-here", absl::StatusCode::kNotFound, 404, "", "404"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.path);
    auto reply = client->Do(c.method, c.path, c.method == "POST" ? "{}" : "");
    REQUIRE_FALSE(reply.ok());
    CHECK(reply.status().code() == c.code);
    CHECK(HttpStatusOf(reply.status()) == c.http);
    CHECK(ReasonOf(reply.status()) == c.reason);
    CHECK(std::string(reply.status().message()).starts_with(c.method + " " + server.url() + c.path + ": " +
                                                             c.message));
  }
  // A transport error carries no HTTP status.
  CHECK(HttpStatusOf(absl::UnavailableError("x")) == 0);
  CHECK(ReasonOf(absl::UnavailableError("x")).empty());
}

TEST_CASE("ApiClient streams a watch and reports a refused one as an error", "[kube]") {
  ApiServer server;
  auto client = MustCreate(server.url());
  std::string got;
  absl::Status done = client->Stream("/watch", absl::Seconds(5), nullptr, [&](std::string_view data) {
    got.append(data);
    return true;
  });
  REQUIRE(done.ok());
  CHECK(got == "{\"type\":\"ADDED\"}\n");
  absl::Status expired = client->Stream("/expired", absl::Seconds(5), nullptr, [](std::string_view) {
    return true;
  });
  CHECK(expired.code() == absl::StatusCode::kOutOfRange);
  CHECK(ReasonOf(expired) == "Expired");
}

TEST_CASE("ApiClient holds requests to qps after the first burst, and a wait can be cancelled", "[kube]") {
  ApiServer server;
  // Burst 2 at 20 per second: the 3rd..6th requests wait 50 ms each.
  auto client = MustCreate(server.url(), 20, 2);
  const auto begin = std::chrono::steady_clock::now();
  for (int i = 0; i < 6; ++i) REQUIRE(client->Do("GET", "/ok").ok());
  CHECK(std::chrono::steady_clock::now() - begin >= std::chrono::milliseconds(190));

  // At 0.5 per second the next request waits two seconds: cancelled first.
  auto slow = MustCreate(server.url(), 0.5, 1);
  REQUIRE(slow->Do("GET", "/ok").ok());
  std::atomic<bool> cancel{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel = true;
  });
  auto cancelled = slow->Do("GET", "/ok", "", "application/json", absl::Seconds(30), &cancel);
  canceller.join();
  REQUIRE_FALSE(cancelled.ok());
  CHECK(cancelled.status().code() == absl::StatusCode::kCancelled);
}

}  // namespace
}  // namespace schedkit::kube
