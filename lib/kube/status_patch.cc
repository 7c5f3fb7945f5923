#include "kube/status_patch.h"

#include "nlohmann/json.hpp"

namespace schedkit::kube::internal {

using nlohmann::json;

std::string FormatApiTime(absl::Time t) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", t, absl::UTCTimeZone());
}

std::string FormatApiMicroTime(absl::Time t) {
  return absl::FormatTime("%Y-%m-%dT%H:%M:%E6SZ", t, absl::UTCTimeZone());
}

std::optional<std::string> PodStatusPatch(const api::v1::Pod& pod, const ConditionUpdate* condition,
                                          std::optional<std::string_view> nominated_node, absl::Time now) {
  const api::v1::PodStatus& status = pod.status();
  json patch_status = json::object();
  if (condition != nullptr) {
    const api::v1::PodCondition* old = nullptr;
    for (const api::v1::PodCondition& c : status.conditions()) {
      if (c.type() == condition->type) old = &c;
    }
    // The diff of one element of a list merged by "type": the key and the
    // fields that differ (all of them for a new element).
    json element = {{"type", condition->type}};
    if (old == nullptr) {
      element["status"] = condition->status;
      element["reason"] = condition->reason;
      element["message"] = condition->message;
      element["lastProbeTime"] = nullptr;
      element["lastTransitionTime"] = FormatApiTime(now);
    } else {
      if (old->status() != condition->status) {
        element["status"] = condition->status;
        element["lastTransitionTime"] = FormatApiTime(now);
      }
      if (old->reason() != condition->reason) element["reason"] = condition->reason;
      if (old->message() != condition->message) element["message"] = condition->message;
    }
    if (element.size() > 1) {
      // Upstream's diff also fixes the list's order: the old types, then a
      // new one at the end.
      json order = json::array();
      for (const api::v1::PodCondition& c : status.conditions()) order.push_back({{"type", c.type()}});
      if (old == nullptr) order.push_back({{"type", condition->type}});
      patch_status["$setElementOrder/conditions"] = std::move(order);
      patch_status["conditions"] = json::array({std::move(element)});
    }
  }
  if (nominated_node && *nominated_node != status.nominated_node_name()) {
    // Go omits an empty nominatedNodeName, so the diff deletes the field.
    patch_status["nominatedNodeName"] = nominated_node->empty() ? json(nullptr) : json(*nominated_node);
  }
  if (patch_status.empty()) return std::nullopt;
  return json{{"status", std::move(patch_status)}}.dump();
}

}  // namespace schedkit::kube::internal
