// ApiHost's requests as the API server receives them, against a local
// server that records them: the Binding, the status patches (skipped when
// nothing changes, retried on server errors as upstream's retry.OnError),
// preemption's DisruptionTarget patch and UID-guarded DELETE, and
// VolumeBinding's writes as merge patches whose replies decode.
#include "kube/api_host.h"

#include <catch2/catch.hpp>
#include <mutex>
#include <string>
#include <vector>

#include "kube/local_http_server.h"
#include "nlohmann/json.hpp"
#include "schedkit/api/v1/kinds.h"

namespace schedkit::kube::internal {
namespace {

using nlohmann::json;

struct Seen {
  std::string method, path, content_type;
  json body;
};

// Answers every request with the next scripted status (201/200 once the
// script is used up) and records it.
class RecordingServer {
 public:
  RecordingServer() {
    auto handle = [this](const httplib::Request& req, httplib::Response& res) {
      std::lock_guard<std::mutex> lock(mu_);
      seen_.push_back({req.method, req.path, req.get_header_value("Content-Type"),
                       req.body.empty() ? json() : json::parse(req.body)});
      int status = req.method == "POST" ? 201 : 200;
      if (!script_.empty()) {
        status = script_.front();
        script_.erase(script_.begin());
      }
      res.status = status;
      if (status >= 300) {
        res.set_content(json{{"kind", "Status"}, {"code", status}, {"reason", "Scripted"}}.dump(), "application/json");
      } else {
        res.set_content(reply_.empty() ? "{}" : reply_, "application/json");
      }
    };
    local_.routes().Post(".*", handle);
    local_.routes().Patch(".*", handle);
    local_.routes().Delete(".*", handle);
    local_.Start();
    client_ = local_.Client();
  }
  void Script(std::vector<int> statuses) {
    std::lock_guard<std::mutex> lock(mu_);
    script_ = std::move(statuses);
  }
  void Reply(std::string body) {
    std::lock_guard<std::mutex> lock(mu_);
    reply_ = std::move(body);
  }
  std::vector<Seen> seen() {
    std::lock_guard<std::mutex> lock(mu_);
    return seen_;
  }
  const ApiClient& client() const { return *client_; }

 private:
  std::mutex mu_;
  std::vector<Seen> seen_;
  std::vector<int> script_;
  std::string reply_;
  testing::LocalHttpServer local_;
  std::unique_ptr<ApiClient> client_;
};

api::v1::Pod MakePod(const std::string& name) {
  api::v1::Pod pod;
  pod.mutable_metadata()->set_namespace_("ns");
  pod.mutable_metadata()->set_name(name);
  pod.mutable_metadata()->set_uid("uid-" + name);
  pod.mutable_spec()->set_scheduler_name("default-scheduler");
  return pod;
}

TEST_CASE("ApiHost binds through pods/binding with the pod's UID", "[kube][host]") {
  RecordingServer server;
  ApiHost host(server.client(), nullptr);
  REQUIRE(host.Bind(MakePod("p"), "n1").ok());
  const auto seen = server.seen();
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].method == "POST");
  CHECK(seen[0].path == "/api/v1/namespaces/ns/pods/p/binding");
  CHECK(seen[0].body == json::parse(R"({"apiVersion":"v1","kind":"Binding",
      "metadata":{"namespace":"ns","name":"p","uid":"uid-p"},"target":{"kind":"Node","name":"n1"}})"));
  // A 409 (bound already, or another pod of that name) comes back as such.
  server.Script({409});
  const absl::Status conflict = host.Bind(MakePod("p"), "n1");
  CHECK(HttpStatusOf(conflict) == 409);
}

TEST_CASE("ApiHost writes PodScheduled=False once, and retries server errors", "[kube][host]") {
  RecordingServer server;
  ApiHost host(server.client(), nullptr);
  const std::vector<std::string> plugins = {"NodeResourcesFit"};
  const scheduler::SchedulingFailure failure{.scheduler_name = "default-scheduler",
                                             .reason = "Unschedulable",
                                             .message = "0/1 nodes are available: 1 Insufficient cpu.",
                                             .unschedulable_plugins = plugins,
                                             .nominated_node = "n1"};
  // Two 503s, then success: three tries (upstream's DefaultBackoff allows 4).
  server.Script({503, 503});
  host.OnFailedScheduling(MakePod("p"), failure);
  auto seen = server.seen();
  REQUIRE(seen.size() == 3);
  for (const Seen& s : seen) {
    CHECK(s.method == "PATCH");
    CHECK(s.path == "/api/v1/namespaces/ns/pods/p/status");
    CHECK(s.content_type == "application/strategic-merge-patch+json");
  }
  CHECK(seen[0].body["status"]["nominatedNodeName"] == "n1");
  CHECK(seen[0].body["status"]["conditions"][0]["reason"] == "Unschedulable");

  // The pod as the informer then has it: nothing new to write.
  api::v1::Pod written = MakePod("p");
  auto* c = written.mutable_status()->add_conditions();
  c->set_type("PodScheduled");
  c->set_status("False");
  c->set_reason("Unschedulable");
  c->set_message("0/1 nodes are available: 1 Insufficient cpu.");
  written.mutable_status()->set_nominated_node_name("n1");
  host.OnFailedScheduling(written, failure);
  CHECK(server.seen().size() == 3);

  // A pod gone (404) is not retried; four 503s are the most it tries.
  server.Script({404});
  host.OnFailedScheduling(MakePod("gone"), failure);
  CHECK(server.seen().size() == 4);
  server.Script({503, 503, 503, 503, 503});
  host.OnFailedScheduling(MakePod("down"), failure);
  CHECK(server.seen().size() == 8);
}

TEST_CASE("ApiHost evicts as upstream's preemption, guarded by the victim's UID", "[kube][host]") {
  RecordingServer server;
  ApiHost host(server.client(), nullptr);
  REQUIRE(host.Evict(MakePod("victim"), MakePod("preemptor"), "n1").ok());
  auto seen = server.seen();
  REQUIRE(seen.size() == 2);
  CHECK(seen[0].method == "PATCH");
  const json condition = seen[0].body["status"]["conditions"][0];
  CHECK(condition["type"] == "DisruptionTarget");
  CHECK(condition["status"] == "True");
  CHECK(condition["reason"] == "PreemptionByScheduler");
  CHECK(condition["message"] == "default-scheduler: preempting to accommodate a higher priority pod");
  CHECK(seen[1].method == "DELETE");
  CHECK(seen[1].path == "/api/v1/namespaces/ns/pods/victim");
  CHECK(seen[1].body["preconditions"]["uid"] == "uid-victim");

  // A re-created namesake fails the precondition (409): the victim is gone.
  server.Script({200, 409});
  CHECK(absl::IsNotFound(host.Evict(MakePod("victim"), MakePod("preemptor"), "n1")));
  // Gone before the patch: NotFound, and no DELETE.
  server.Script({404});
  CHECK(absl::IsNotFound(host.Evict(MakePod("victim"), MakePod("preemptor"), "n1")));
  CHECK(server.seen().size() == 5);
}

TEST_CASE("ApiHost writes VolumeBinding's changes as conditional merge patches", "[kube][host]") {
  RecordingServer server;
  ApiHost host(server.client(), nullptr);
  api::v1::PersistentVolume pv;
  pv.mutable_metadata()->set_name("pv-1");
  pv.mutable_metadata()->set_resource_version("17");
  (*pv.mutable_metadata()->mutable_annotations())["pv.kubernetes.io/bound-by-controller"] = "yes";
  pv.mutable_spec()->mutable_claim_ref()->set_namespace_("ns");
  pv.mutable_spec()->mutable_claim_ref()->set_name("data");
  pv.mutable_spec()->mutable_claim_ref()->set_uid("uid-data");
  (*pv.mutable_spec()->mutable_capacity())["storage"] = "1Gi";
  server.Reply(R"({"apiVersion":"v1","kind":"PersistentVolume","metadata":{"name":"pv-1","resourceVersion":"18"},
      "spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],"hostPath":{"path":"/d"},
              "claimRef":{"namespace":"ns","name":"data","uid":"uid-data"}}})");
  auto written = host.UpdateObject(api::KindOf<api::v1::PersistentVolume>(), pv);
  INFO(written.status().message());
  REQUIRE(written.ok());
  const auto& stored = static_cast<const api::v1::PersistentVolume&>(**written);
  CHECK(stored.metadata().resource_version() == "18");
  CHECK(stored.spec().claim_ref().name() == "data");
  auto seen = server.seen();
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].path == "/api/v1/persistentvolumes/pv-1");
  CHECK(seen[0].content_type == "application/merge-patch+json");
  CHECK(seen[0].body["metadata"]["resourceVersion"] == "17");
  CHECK(seen[0].body["metadata"]["annotations"]["pv.kubernetes.io/bound-by-controller"] == "yes");
  CHECK(seen[0].body["spec"]["claimRef"]["uid"] == "uid-data");

  api::v1::PersistentVolumeClaim claim;
  claim.mutable_metadata()->set_namespace_("ns");
  claim.mutable_metadata()->set_name("data");
  claim.mutable_metadata()->set_resource_version("5");
  (*claim.mutable_metadata()->mutable_annotations())["volume.kubernetes.io/selected-node"] = "n1";
  server.Reply("not json");
  auto bad = host.UpdateObject(api::KindOf<api::v1::PersistentVolumeClaim>(), claim);
  CHECK_FALSE(bad.ok());
  seen = server.seen();
  REQUIRE(seen.size() == 2);
  CHECK(seen[1].path == "/api/v1/namespaces/ns/persistentvolumeclaims/data");
  CHECK(seen[1].body == json::parse(R"({"metadata":{"resourceVersion":"5",
      "annotations":{"volume.kubernetes.io/selected-node":"n1"}}})"));
}

}  // namespace
}  // namespace schedkit::kube::internal
