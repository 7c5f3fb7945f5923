// The reflector against a real kube-apiserver: it lists and watches nodes,
// and follows them across an API server restart.
#include <atomic>
#include <catch2/catch.hpp>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "e2e/shared_apiserver.h"
#include "kube/reflector.h"
#include "schedkit/kube/api_client.h"

namespace schedkit::e2e {
namespace {

using kube::internal::Reflector;
using kube::internal::ReflectorHandler;
using nlohmann::json;

// Records "ADD name" / "UPDATE name" / "DELETE name".
class Recorder : public ReflectorHandler {
 public:
  void OnAdd(const json& o) override { Record("ADD " + o["metadata"]["name"].get<std::string>()); }
  void OnUpdate(const json&, const json& o) override {
    Record("UPDATE " + o["metadata"]["name"].get<std::string>());
  }
  void OnDelete(const json& o) override { Record("DELETE " + o["metadata"]["name"].get<std::string>()); }
  bool Saw(const std::string& event) const {
    std::lock_guard<std::mutex> lock(mu_);
    return std::find(events_.begin(), events_.end(), event) != events_.end();
  }

 private:
  void Record(std::string e) {
    std::lock_guard<std::mutex> lock(mu_);
    events_.push_back(std::move(e));
  }
  mutable std::mutex mu_;
  std::vector<std::string> events_;
};

// Polls `done` every 100 ms, for at most `seconds`.
bool WaitUntil(const std::function<bool()>& done, int seconds) {
  for (int i = 0; i < seconds * 10; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

std::string NodeJson(const std::string& name) {
  return R"({"apiVersion":"v1","kind":"Node","metadata":{"name":")" + name + R"("}})";
}

// Creates the node, retrying while the API server comes back (bounded).
absl::Status CreateNode(const kube::ApiClient& client, const std::string& name) {
  absl::Status last;
  for (int attempt = 0; attempt < 30; ++attempt) {
    auto created = client.Do("POST", "/api/v1/nodes", NodeJson(name));
    if (created.ok()) return absl::OkStatus();
    last = created.status();
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  return last;
}

TEST_CASE("a reflector follows the API server's nodes across a restart", "[e2e]") {
  auto config = kube::LoadKubeconfig({Server().admin_kubeconfig()});
  REQUIRE(config.ok());
  auto client = kube::ApiClient::Create(*config);
  REQUIRE(client.ok());
  Recorder recorder;
  kube::internal::ReflectorOptions options;
  options.initial_backoff = absl::Milliseconds(200);
  options.max_backoff = absl::Seconds(2);
  Reflector reflector(**client, {"/api/v1/nodes", ""}, recorder, options);
  std::atomic<bool> stop{false};
  std::thread runner([&] { reflector.Run(stop); });

  REQUIRE(WaitUntil([&] { return reflector.HasSynced(); }, 30));
  REQUIRE(CreateNode(**client, "e2e-before").ok());
  CHECK(WaitUntil([&] { return recorder.Saw("ADD e2e-before"); }, 30));

  REQUIRE(Server().Restart().ok());
  REQUIRE(CreateNode(**client, "e2e-after").ok());
  CHECK(WaitUntil([&] { return recorder.Saw("ADD e2e-after"); }, 30));
  REQUIRE((*client)->Do("DELETE", "/api/v1/nodes/e2e-before").ok());
  CHECK(WaitUntil([&] { return recorder.Saw("DELETE e2e-before"); }, 30));

  stop = true;
  runner.join();
  CHECK(reflector.watches() >= 2);
}

}  // namespace
}  // namespace schedkit::e2e
