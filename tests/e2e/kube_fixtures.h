// What the end-to-end tests of schedkit-kube share: clients of the test API
// server, the objects they create (nodes tainted so that only their own
// pods go there), kubeconfigs for the binary, and a bounded wait.
#ifndef SCHEDKIT_TESTS_E2E_KUBE_FIXTURES_H_
#define SCHEDKIT_TESTS_E2E_KUBE_FIXTURES_H_

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "schedkit/kube/api_client.h"

namespace schedkit::e2e {

class TestApiServer;

// Full rights over `server` (the shared test API server by default).
std::unique_ptr<kube::ApiClient> Admin(TestApiServer* server = nullptr);

std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& text);

// The scheduler user's token, from the API server's token file.
std::string SchedulerToken();

// Writes a kubeconfig named `name` in the server's directory for `server`
// trusting `ca_file` (empty: none, for http://), with `user` (YAML lines
// under `user:`); returns its path.
std::string WriteKubeconfig(const std::string& name, const std::string& server, const std::string& ca_file,
                            const std::string& user);

// A node of `cpu` cores labelled and tainted e2e=<group>, in `zone`.
nlohmann::json NodeJson(const std::string& name, const std::string& cpu, const std::string& group,
                        const std::string& zone = "zone-a");
// A pod asking `cpu`, selecting and tolerating the nodes of `group`, with
// no termination grace period (no kubelet runs here to confirm a graceful
// one).
nlohmann::json PodJson(const std::string& ns, const std::string& name, const std::string& cpu, int priority,
                       const std::string& group);

// Creates an object; one that exists already is fine (Catch reruns a test
// case for each of its sections).
void Create(kube::ApiClient& admin, const std::string& path, const nlohmann::json& object);
void CreateNamespace(kube::ApiClient& admin, const std::string& ns);
nlohmann::json Get(kube::ApiClient& admin, const std::string& path);
// spec.nodeName of every pod of `ns`, by name ("" when pending).
std::map<std::string, std::string> Placements(kube::ApiClient& admin, const std::string& ns);
// Whether kube-system holds the core Event leader election records when
// `holder` wins the Lease `lease`: reason LeaderElection, "<holder> became
// leader", about that Lease.
bool HasLeaderEvent(kube::ApiClient& admin, const std::string& lease, const std::string& holder);

// Polls `done` every 100 ms for at most `limit`.
template <typename F>
bool Eventually(absl::Duration limit, F done) {
  const absl::Time deadline = absl::Now() + limit;
  while (absl::Now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return done();
}

}  // namespace schedkit::e2e

#endif  // SCHEDKIT_TESTS_E2E_KUBE_FIXTURES_H_
