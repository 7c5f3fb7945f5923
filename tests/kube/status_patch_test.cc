// The status patches upstream's scheduler sends (util.PatchPodStatus's
// two-way strategic merge diff) for the shapes it writes: PodScheduled=False
// on failure, DisruptionTarget on preemption, and nominatedNodeName.
#include "kube/status_patch.h"

#include <catch2/catch.hpp>

#include "nlohmann/json.hpp"

namespace schedkit::kube::internal {
namespace {

using nlohmann::json;

const absl::Time kNow = absl::FromUnixSeconds(1764892800);  // 2025-12-05T00:00:00Z

api::v1::Pod PodWith(std::initializer_list<api::v1::PodCondition> conditions, std::string nominated = "") {
  api::v1::Pod pod;
  pod.mutable_metadata()->set_name("p");
  for (const auto& c : conditions) *pod.mutable_status()->add_conditions() = c;
  pod.mutable_status()->set_nominated_node_name(nominated);
  return pod;
}

api::v1::PodCondition Condition(std::string type, std::string status, std::string reason, std::string message,
                                std::string time = "2025-12-01T00:00:00Z") {
  api::v1::PodCondition c;
  c.set_type(type);
  c.set_status(status);
  c.set_reason(reason);
  c.set_message(message);
  c.set_last_transition_time(time);
  return c;
}

const ConditionUpdate kUnschedulable{"PodScheduled", "False", "Unschedulable", "0/3 nodes are available: x."};

TEST_CASE("PodStatusPatch: a new PodScheduled condition goes in whole, after the others", "[kube][patch]") {
  const api::v1::Pod pod = PodWith({Condition("Ready", "False", "", "")});
  const auto patch = PodStatusPatch(pod, &kUnschedulable, std::nullopt, kNow);
  REQUIRE(patch);
  CHECK(json::parse(*patch) == json::parse(R"({"status":{
      "$setElementOrder/conditions":[{"type":"Ready"},{"type":"PodScheduled"}],
      "conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable",
                     "message":"0/3 nodes are available: x.","lastProbeTime":null,
                     "lastTransitionTime":"2025-12-05T00:00:00Z"}]}})"));
}

TEST_CASE("PodStatusPatch: the same condition again sends nothing", "[kube][patch]") {
  // Upstream's UpdatePodCondition keeps lastTransitionTime when the status
  // does not flip, so nothing differs.
  const api::v1::Pod pod =
      PodWith({Condition("PodScheduled", "False", "Unschedulable", "0/3 nodes are available: x.")});
  CHECK_FALSE(PodStatusPatch(pod, &kUnschedulable, std::nullopt, kNow));
  // Nor does a nomination equal to the one held.
  const api::v1::Pod nominated =
      PodWith({Condition("PodScheduled", "False", "Unschedulable", "0/3 nodes are available: x.")}, "n1");
  CHECK_FALSE(PodStatusPatch(nominated, &kUnschedulable, "n1", kNow));
}

TEST_CASE("PodStatusPatch: a new message changes only the message", "[kube][patch]") {
  const api::v1::Pod pod = PodWith({Condition("PodScheduled", "False", "Unschedulable", "old")});
  const auto patch = PodStatusPatch(pod, &kUnschedulable, std::nullopt, kNow);
  REQUIRE(patch);
  CHECK(json::parse(*patch) == json::parse(R"({"status":{
      "$setElementOrder/conditions":[{"type":"PodScheduled"}],
      "conditions":[{"type":"PodScheduled","message":"0/3 nodes are available: x."}]}})"));
}

TEST_CASE("PodStatusPatch: a flipped status gets a new transition time", "[kube][patch]") {
  const api::v1::Pod pod = PodWith({Condition("PodScheduled", "True", "", "")});
  const auto patch = PodStatusPatch(pod, &kUnschedulable, std::nullopt, kNow);
  REQUIRE(patch);
  const json conditions = json::parse(*patch)["status"]["conditions"];
  REQUIRE(conditions.size() == 1);
  CHECK(conditions[0]["status"] == "False");
  CHECK(conditions[0]["reason"] == "Unschedulable");
  CHECK(conditions[0]["lastTransitionTime"] == "2025-12-05T00:00:00Z");
}

TEST_CASE("PodStatusPatch: nominatedNodeName is set, or deleted when cleared", "[kube][patch]") {
  const api::v1::Pod pod = PodWith({}, "old-node");
  CHECK(json::parse(*PodStatusPatch(pod, nullptr, "n2", kNow)) ==
        json::parse(R"({"status":{"nominatedNodeName":"n2"}})"));
  CHECK(json::parse(*PodStatusPatch(pod, nullptr, "", kNow)) ==
        json::parse(R"({"status":{"nominatedNodeName":null}})"));
  CHECK_FALSE(PodStatusPatch(PodWith({}), nullptr, "", kNow));
  // Condition and nomination in one patch, as upstream's updatePod.
  const auto both = PodStatusPatch(pod, &kUnschedulable, "n3", kNow);
  REQUIRE(both);
  const json status = json::parse(*both)["status"];
  CHECK(status["nominatedNodeName"] == "n3");
  CHECK(status["conditions"][0]["type"] == "PodScheduled");
}

TEST_CASE("FormatApiTime and FormatApiMicroTime write metav1's forms", "[kube][patch]") {
  CHECK(FormatApiTime(kNow + absl::Microseconds(1500)) == "2025-12-05T00:00:00Z");
  CHECK(FormatApiMicroTime(kNow + absl::Microseconds(1500)) == "2025-12-05T00:00:00.001500Z");
}

}  // namespace
}  // namespace schedkit::kube::internal
