// An HTTP server on a free port of 127.0.0.1 for one test (cpp-httplib):
// register routes on routes(), then Start().
#ifndef SCHEDKIT_TESTS_KUBE_LOCAL_HTTP_SERVER_H_
#define SCHEDKIT_TESTS_KUBE_LOCAL_HTTP_SERVER_H_

#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "httplib.h"
#include "schedkit/kube/api_client.h"

namespace schedkit::kube::testing {

class LocalHttpServer {
 public:
  LocalHttpServer() = default;
  ~LocalHttpServer() {
    server_.stop();
    if (thread_.joinable()) thread_.join();
  }
  httplib::Server& routes() { return server_; }
  void Start() {
    port_ = server_.bind_to_any_port("127.0.0.1");
    REQUIRE(port_ > 0);
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    // Bounded wait for the listener thread (0.11 has no wait_until_ready).
    for (int i = 0; i < 500 && !server_.is_running(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    REQUIRE(server_.is_running());
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }
  // An ApiClient for this server whose rate limit (1,000 qps) stays out of
  // a test's way.
  std::unique_ptr<ApiClient> Client() const {
    ClientConfig config;
    config.server = url();
    config.qps = 1000;
    config.burst = 1000;
    auto client = ApiClient::Create(config);
    REQUIRE(client.ok());
    return *std::move(client);
  }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

}  // namespace schedkit::kube::testing

#endif  // SCHEDKIT_TESTS_KUBE_LOCAL_HTTP_SERVER_H_
