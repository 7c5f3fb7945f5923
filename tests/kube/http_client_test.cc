// HttpClient against a real HTTP server on 127.0.0.1 (cpp-httplib), and
// against a socket that answers garbage or nothing: replies, streams, stops,
// timeouts, cancellation, credentials, and transport failures named by server.
#include "schedkit/kube/http_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "kube/local_http_server.h"

namespace schedkit::kube {
namespace {

// The routes the tests below use, on a LocalHttpServer.
class TestServer {
 public:
  TestServer() {
    httplib::Server& routes = local_.routes();
    routes.Get("/hello", [this](const httplib::Request& req, httplib::Response& res) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        authorization_ = req.get_header_value("Authorization");
        user_agent_ = req.get_header_value("User-Agent");
        host_ = req.get_header_value("Host");
      }
      res.set_content("hi", "text/plain");
    });
    auto echo = [](const httplib::Request& req, httplib::Response& res) {
      res.set_content(req.method + " " + req.get_header_value("Content-Type") + " " + req.body, "text/plain");
    };
    routes.Post("/echo", echo);
    routes.Patch("/echo", echo);
    routes.Put("/echo", echo);
    routes.Delete("/echo", echo);
    routes.Get("/missing", [](const httplib::Request&, httplib::Response& res) {
      res.status = 404;
      res.set_content("{\"reason\":\"NotFound\"}", "application/json");
    });
    // Three lines, one at a time.
    routes.Get("/stream", [](const httplib::Request&, httplib::Response& res) {
      res.set_chunked_content_provider("application/json", [](size_t offset, httplib::DataSink& sink) {
        static const char* const kLines[] = {"a\n", "b\n", "c\n"};
        const size_t i = offset / 2;
        if (i >= 3) {
          sink.done();
          return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        return sink.write(kLines[i], 2);
      });
    });
    // A line every 50 ms, for at most 10 s.
    routes.Get("/forever", [](const httplib::Request&, httplib::Response& res) {
      res.set_chunked_content_provider("application/json", [](size_t offset, httplib::DataSink& sink) {
        if (offset >= 200 * 2) {
          sink.done();
          return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        return sink.write("x\n", 2);
      });
    });
    local_.Start();
  }
  std::string url() const { return local_.url(); }
  int port() const { return local_.port(); }
  std::string authorization() const {
    std::lock_guard<std::mutex> lock(mu_);
    return authorization_;
  }
  std::string user_agent() const {
    std::lock_guard<std::mutex> lock(mu_);
    return user_agent_;
  }
  std::string host() const {
    std::lock_guard<std::mutex> lock(mu_);
    return host_;
  }

 private:
  mutable std::mutex mu_;
  std::string authorization_, user_agent_, host_;
  // Last: stopped first, while the handlers' members still exist.
  testing::LocalHttpServer local_;
};

// A listening socket on 127.0.0.1 that answers each connection with `reply`
// and closes it (or, with an empty reply, closes without a word).
class RawServer {
 public:
  explicit RawServer(std::string reply) : reply_(std::move(reply)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0);
    socklen_t len = sizeof(addr);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    REQUIRE(::listen(fd_, 4) == 0);
    thread_ = std::thread([this] {
      // One connection is all a test makes; bounded so a failed test ends.
      int conn = ::accept(fd_, nullptr, nullptr);
      if (conn < 0) return;
      char buf[4096];
      (void)::recv(conn, buf, sizeof(buf), 0);
      if (!reply_.empty()) (void)::send(conn, reply_.data(), reply_.size(), MSG_NOSIGNAL);
      ::close(conn);
    });
  }
  ~RawServer() {
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  std::string reply_;
  int fd_ = -1;
  int port_ = 0;
  std::thread thread_;
};

HttpRequest Get(std::string path, absl::Duration timeout = absl::Seconds(30)) {
  HttpRequest r;
  r.path = std::move(path);
  r.timeout = timeout;
  return r;
}

HttpRequest WithBody(std::string method, std::string path, std::string body, std::string content_type) {
  HttpRequest r = Get(std::move(path));
  r.method = std::move(method);
  r.body = std::move(body);
  r.content_type = std::move(content_type);
  return r;
}

std::unique_ptr<HttpClient> MustCreate(const std::string& server, const TransportConfig& transport = {}) {
  auto client = HttpClient::Create(server, transport, "schedkit-test/1");
  REQUIRE(client.ok());
  return *std::move(client);
}

TEST_CASE("HttpClient sends methods, bodies and credentials and reads replies", "[kube]") {
  TestServer server;
  TransportConfig transport;
  transport.bearer_token = "tok-1";
  auto client = MustCreate(server.url() + "/", transport);
  auto hello = client->Send(Get("/hello"));
  REQUIRE(hello.ok());
  CHECK(hello->status == 200);
  CHECK(hello->body == "hi");
  CHECK(server.authorization() == "Bearer tok-1");
  CHECK(server.user_agent() == "schedkit-test/1");
  for (const char* method : {"POST", "PUT", "PATCH", "DELETE"}) {
    CAPTURE(method);
    auto echoed = client->Send(WithBody(method, "/echo", "{\"a\":1}", "application/merge-patch+json"));
    REQUIRE(echoed.ok());
    CHECK(echoed->body == std::string(method) + " application/merge-patch+json {\"a\":1}");
  }
  auto missing = client->Send(Get("/missing"));
  REQUIRE(missing.ok());
  CHECK(missing->status == 404);
  CHECK(missing->body == "{\"reason\":\"NotFound\"}");
}

TEST_CASE("HttpClient reads a token file and reads it again after the refresh period", "[kube]") {
  TestServer server;
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("schedkit-token-" + std::to_string(::getpid())))
                               .string();
  std::ofstream(path) << "first\n";
  TransportConfig transport;
  transport.bearer_token_file = path;
  transport.token_file_refresh = absl::Milliseconds(100);
  auto client = MustCreate(server.url(), transport);
  REQUIRE(client->Send(Get("/hello")).ok());
  CHECK(server.authorization() == "Bearer first");
  std::ofstream(path) << "second\n";
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  REQUIRE(client->Send(Get("/hello")).ok());
  CHECK(server.authorization() == "Bearer second");
  // The file gone: the token read before stays in use, as client-go's.
  std::filesystem::remove(path);
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  REQUIRE(client->Send(Get("/hello")).ok());
  CHECK(server.authorization() == "Bearer second");

  transport.bearer_token_file = path + "-absent";
  auto unreadable = MustCreate(server.url(), transport)->Send(Get("/hello"));
  REQUIRE_FALSE(unreadable.ok());
  CHECK(unreadable.status().code() == absl::StatusCode::kUnauthenticated);
  CHECK(unreadable.status().message() ==
        server.url() + ": token file " + path + "-absent: cannot open file");
}

TEST_CASE("HttpClient with tls-server-name dials the server's address under that name", "[kube]") {
  TestServer server;
  TransportConfig transport;
  transport.tls_server_name = "apiserver.test";
  auto client = MustCreate(server.url(), transport);
  auto hello = client->Send(Get("/hello"));
  REQUIRE(hello.ok());
  CHECK(hello->body == "hi");
  CHECK(server.host() == "apiserver.test:" + std::to_string(server.port()));
}

TEST_CASE("HttpClient streams a reply, stops when told, and ends a stream at its timeout", "[kube]") {
  TestServer server;
  auto client = MustCreate(server.url());
  std::string got;
  auto all = client->Stream(Get("/stream"), [&](std::string_view data) {
    got.append(data);
    return true;
  });
  REQUIRE(all.ok());
  CHECK(all->status == 200);
  CHECK(got == "a\nb\nc\n");

  got.clear();
  auto stopped = client->Stream(Get("/forever"), [&](std::string_view data) {
    got.append(data);
    return false;
  });
  REQUIRE(stopped.ok());
  CHECK(stopped->status == 200);
  CHECK(got == "x\n");

  int pieces = 0;
  const auto begin = std::chrono::steady_clock::now();
  auto cut = client->Stream(Get("/forever", absl::Milliseconds(400)), [&](std::string_view) {
    ++pieces;
    return true;
  });
  REQUIRE(cut.ok());
  CHECK(cut->status == 200);
  CHECK(pieces >= 1);
  CHECK(std::chrono::steady_clock::now() - begin < std::chrono::seconds(5));

  // A status other than 2xx is not streamed: its body comes back whole.
  bool called = false;
  auto missing = client->Stream(Get("/missing"), [&](std::string_view) {
    called = true;
    return true;
  });
  REQUIRE(missing.ok());
  CHECK(missing->status == 404);
  CHECK(missing->body == "{\"reason\":\"NotFound\"}");
  CHECK_FALSE(called);
}

TEST_CASE("HttpClient serves many threads at once over its pooled connections", "[kube]") {
  TestServer server;
  TransportConfig transport;
  transport.bearer_token = "shared";
  auto client = MustCreate(server.url(), transport);
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 15; ++i) {
        auto reply = client->Send(WithBody("POST", "/echo", std::to_string(t * 100 + i), "text/plain"));
        if (reply.ok() && reply->body == "POST text/plain " + std::to_string(t * 100 + i)) ++ok;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(ok == 6 * 15);
}

TEST_CASE("HttpClient gives up a request within a second of its cancel flag", "[kube]") {
  TestServer server;
  auto client = MustCreate(server.url());
  std::atomic<bool> cancel{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancel = true;
  });
  const auto begin = std::chrono::steady_clock::now();
  HttpRequest request = Get("/forever");
  request.cancel = &cancel;
  auto reply = client->Send(request);
  canceller.join();
  REQUIRE_FALSE(reply.ok());
  CHECK(reply.status().code() == absl::StatusCode::kCancelled);
  CHECK(reply.status().message() == server.url() + ": request cancelled");
  CHECK(std::chrono::steady_clock::now() - begin < std::chrono::seconds(5));
}

TEST_CASE("HttpClient fails a request given no time at once, never waiting without a limit", "[kube]") {
  TestServer server;
  auto client = MustCreate(server.url());
  const auto begin = std::chrono::steady_clock::now();
  for (absl::Duration t : {absl::ZeroDuration(), absl::Microseconds(999), absl::Seconds(-1)}) {
    HttpRequest request = Get("/forever");  // answered never: a missing limit would hang here
    request.timeout = t;
    auto reply = client->Send(request);
    REQUIRE_FALSE(reply.ok());
    CHECK(reply.status().code() == absl::StatusCode::kDeadlineExceeded);
    CHECK(reply.status().message() == server.url() + ": GET /forever: no time left for the request");
  }
  CHECK(std::chrono::steady_clock::now() - begin < std::chrono::seconds(1));
}

TEST_CASE("HttpClient names the server when the transport fails", "[kube]") {
  SECTION("nothing listens") {
    std::string url;
    {
      RawServer closed("");
      url = closed.url();
    }
    auto reply = MustCreate(url)->Send(Get("/", absl::Seconds(5)));
    REQUIRE_FALSE(reply.ok());
    CHECK(reply.status().code() == absl::StatusCode::kUnavailable);
    CHECK(absl::StartsWith(reply.status().message(), url + ": "));
  }
  SECTION("the reply is garbage") {
    RawServer garbage("this is not HTTP\r\n\r\n");
    auto reply = MustCreate(garbage.url())->Send(Get("/", absl::Seconds(5)));
    REQUIRE_FALSE(reply.ok());
    CHECK(reply.status().code() == absl::StatusCode::kUnavailable);
    CHECK(absl::StartsWith(reply.status().message(), garbage.url() + ": "));
  }
  SECTION("the connection closes without a reply") {
    RawServer silent("");
    auto reply = MustCreate(silent.url())->Send(Get("/", absl::Seconds(5)));
    REQUIRE_FALSE(reply.ok());
    CHECK(reply.status().code() == absl::StatusCode::kUnavailable);
    CHECK(absl::StartsWith(reply.status().message(), silent.url() + ": "));
  }
  SECTION("the server is too slow") {
    TestServer server;
    auto reply = MustCreate(server.url())->Send(Get("/forever", absl::Milliseconds(300)));
    REQUIRE_FALSE(reply.ok());
    CHECK(reply.status().code() == absl::StatusCode::kDeadlineExceeded);
    CHECK(absl::StartsWith(reply.status().message(), server.url() + ": "));
  }
}

TEST_CASE("HttpClient refuses a configuration it cannot use, naming the server", "[kube]") {
  struct Case {
    std::string server;
    TransportConfig transport;
    std::string want;
  };
  TransportConfig bad_ca;
  bad_ca.ca_pem = "not a certificate";
  TransportConfig bad_key;
  bad_key.client_key_pem = "not a key";
  const std::vector<Case> cases = {
      {"127.0.0.1:6443", {}, "127.0.0.1:6443: not a URL (want https://host:port)"},
      {"ftp://x", {}, "ftp://x: scheme must be https or http"},
      {"https://user:pw@x", {}, "https://user:pw@x: credentials do not belong in the URL"},
      {"https://[::1", {}, "https://[::1: unterminated IPv6 address"},
      {"https:///api", {}, "https:///api: no host"},
      {"https://x", bad_ca, "https://x: certificate-authority holds no PEM certificate"},
      {"https://x", bad_key, "https://x: client-key holds no PEM private key"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.server);
    auto client = HttpClient::Create(c.server, c.transport, "t");
    REQUIRE_FALSE(client.ok());
    CHECK(client.status().message() == c.want);
  }
}

}  // namespace
}  // namespace schedkit::kube
