// Events as upstream's recorder writes them (events.k8s.io/v1), posted by
// EventSink against a local server: retried on server errors, dropped when
// refused or when the queue is full, never blocking the recorder.
#include "kube/event_sink.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <mutex>
#include <string>
#include <vector>

#include "kube/local_http_server.h"
#include "nlohmann/json.hpp"

namespace schedkit::kube::internal {
namespace {

using nlohmann::json;

api::v1::Pod MakePod(const std::string& ns, const std::string& name, const std::string& uid) {
  api::v1::Pod pod;
  pod.mutable_metadata()->set_namespace_(ns);
  pod.mutable_metadata()->set_name(name);
  pod.mutable_metadata()->set_uid(uid);
  pod.mutable_metadata()->set_resource_version("42");
  return pod;
}

TEST_CASE("EventJson: a Preempted event as upstream's recorder makes it", "[kube][events]") {
  const api::v1::Pod victim = MakePod("team", "low", "uid-low");
  const api::v1::Pod preemptor = MakePod("team", "high", "uid-high");
  const scheduler::PodEvent event{.regarding = victim,
                                  .related = &preemptor,
                                  .reporting_controller = "default-scheduler",
                                  .type = "Normal",
                                  .reason = "Preempted",
                                  .action = "Preempting",
                                  .note = "Preempted by pod uid-high on node n1"};
  const absl::Time at = absl::FromUnixNanos(1764892800123456789);
  const json e = json::parse(EventJson(event, "host-1", at));
  CHECK(e["apiVersion"] == "events.k8s.io/v1");
  CHECK(e["kind"] == "Event");
  // "<name>.<hex of UnixNano>", in the regarding object's namespace.
  CHECK(e["metadata"]["name"] == "low.187e28a6a200cd15");
  CHECK(e["metadata"]["namespace"] == "team");
  CHECK(e["eventTime"] == "2025-12-05T00:00:00.123456Z");
  CHECK(e["reportingController"] == "default-scheduler");
  CHECK(e["reportingInstance"] == "default-scheduler-host-1");
  CHECK(e["reason"] == "Preempted");
  CHECK(e["action"] == "Preempting");
  CHECK(e["type"] == "Normal");
  CHECK(e["note"] == "Preempted by pod uid-high on node n1");
  CHECK(e["regarding"] == json::parse(R"({"kind":"Pod","namespace":"team","name":"low","uid":"uid-low",
                                          "apiVersion":"v1","resourceVersion":"42"})"));
  CHECK(e["related"]["uid"] == "uid-high");
  // The deprecated fields must stay unset on create (validation/events.go).
  CHECK_FALSE(e.contains("deprecatedCount"));
  CHECK_FALSE(e.contains("series"));
}

TEST_CASE("LeaseEventJson: the LeaderElection event client-go's Lease lock records", "[kube][events]") {
  const LeaseEvent event{.lease_namespace = "kube-system",
                         .lease_name = "kube-scheduler",
                         .lease_uid = "uid-lease",
                         .lease_resource_version = "7",
                         .component = "default-scheduler",
                         .message = "host_0f8e became leader"};
  const absl::Time at = absl::FromUnixNanos(1764892800123456789);
  const json e = json::parse(LeaseEventJson(event, at));
  // A core/v1 Event from the legacy recorder: second-resolution timestamps,
  // a count, a source, and no eventTime.
  CHECK(e["apiVersion"] == "v1");
  CHECK(e["kind"] == "Event");
  CHECK(e["metadata"]["name"] == "kube-scheduler.187e28a6a200cd15");
  CHECK(e["metadata"]["namespace"] == "kube-system");
  CHECK(e["involvedObject"] == json::parse(R"({"kind":"Lease","namespace":"kube-system","name":"kube-scheduler",
      "uid":"uid-lease","apiVersion":"coordination.k8s.io/v1","resourceVersion":"7"})"));
  CHECK(e["reason"] == "LeaderElection");
  CHECK(e["message"] == "host_0f8e became leader");
  CHECK(e["type"] == "Normal");
  CHECK(e["source"] == json::parse(R"({"component":"default-scheduler"})"));
  CHECK(e["firstTimestamp"] == "2025-12-05T00:00:00Z");
  CHECK(e["lastTimestamp"] == "2025-12-05T00:00:00Z");
  CHECK(e["count"] == 1);
  CHECK_FALSE(e.contains("eventTime"));
}

struct EventServer {
  std::mutex mu;
  std::vector<json> received;
  std::atomic<int> failures_left{0};
  std::atomic<int> refused{0};
  testing::LocalHttpServer http;

  EventServer() {
    http.routes().Post(R"(/apis/events.k8s.io/v1/namespaces/([a-z0-9-]+)/events)",
                       [this](const httplib::Request& req, httplib::Response& res) {
                         if (failures_left.fetch_sub(1) > 0) {
                           res.status = 503;
                           res.set_content(R"({"kind":"Status","code":503,"reason":"ServiceUnavailable"})",
                                           "application/json");
                           return;
                         }
                         json body = json::parse(req.body);
                         if (body["reason"] == "Refused") {
                           ++refused;
                           res.status = 422;
                           res.set_content(R"({"kind":"Status","code":422,"reason":"Invalid"})", "application/json");
                           return;
                         }
                         std::lock_guard<std::mutex> lock(mu);
                         received.push_back(std::move(body));
                         res.status = 201;
                         res.set_content("{}", "application/json");
                       });
    http.Start();
  }
  std::unique_ptr<ApiClient> Client() { return http.Client(); }
};

scheduler::PodEvent Event(const api::v1::Pod& pod, std::string_view reason) {
  return {.regarding = pod,
          .related = nullptr,
          .reporting_controller = "default-scheduler",
          .type = "Warning",
          .reason = reason,
          .action = "Scheduling",
          .note = "0/1 nodes are available"};
}

TEST_CASE("EventSink posts events, retrying server errors and dropping refusals", "[kube][events]") {
  EventServer server;
  server.failures_left = 2;  // the first event needs three tries
  auto client = server.Client();
  EventSink sink(*client, {.hostname = "h", .max_queued = 10, .max_attempts = 5,
                           .retry_interval = absl::Milliseconds(10)});
  const api::v1::Pod pod = MakePod("ns1", "p", "u1");
  sink.Record(Event(pod, "FailedScheduling"));
  sink.Record(Event(pod, "Refused"));
  sink.Record(Event(pod, "Scheduled"));
  sink.Stop(absl::Seconds(10));
  CHECK(sink.posted() == 2);
  CHECK(sink.dropped() == 1);
  CHECK(server.refused == 1);
  std::lock_guard<std::mutex> lock(server.mu);
  REQUIRE(server.received.size() == 2);
  CHECK(server.received[0]["reason"] == "FailedScheduling");
  CHECK(server.received[1]["reason"] == "Scheduled");
}

TEST_CASE("EventSink drops what does not fit its queue instead of blocking", "[kube][events]") {
  EventServer server;
  server.failures_left = 1000000;  // never accepts: the worker keeps retrying the first
  auto client = server.Client();
  EventSink sink(*client, {.hostname = "h", .max_queued = 3, .max_attempts = 1000,
                           .retry_interval = absl::Milliseconds(50)});
  const api::v1::Pod pod = MakePod("ns1", "p", "u1");
  for (int i = 0; i < 20; ++i) sink.Record(Event(pod, "FailedScheduling"));
  // At most the one in flight and three queued survive; Stop gives up at
  // its deadline and counts the rest as dropped.
  sink.Stop(absl::Milliseconds(200));
  CHECK(sink.posted() == 0);
  CHECK(sink.dropped() == 20);
}

}  // namespace
}  // namespace schedkit::kube::internal
