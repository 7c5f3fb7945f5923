#include "kube/placement_check.h"

#include <algorithm>
#include <array>
#include <map>

#include "nlohmann/json.hpp"
#include "schedkit/api/quantity.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::bench {
namespace {

using nlohmann::json;

constexpr std::array<const char*, 3> kResources = {"cpu", "memory", "pods"};

// cpu in millicores, memory in bytes, pods as a count.
struct Amounts {
  std::array<int64_t, 3> v{};
};

absl::StatusOr<int64_t> Quantity(const json& map, const char* resource) {
  if (!map.is_object() || !map.contains(resource) || !map[resource].is_string()) return 0;
  return api::ParseResourceQuantity(resource, map[resource].get<std::string>());
}

absl::StatusOr<json> Parse(const std::string& text, const char* what) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || !j.contains("items") || !j["items"].is_array()) {
    return absl::InvalidArgumentError(schedkit::StrCat("the ", what, " list is not a list"));
  }
  return j;
}

std::string Label(const json& object, const char* key) {
  const json& labels = object["metadata"].value("labels", json::object());
  return labels.is_object() && labels.contains(key) && labels[key].is_string() ? labels[key].get<std::string>()
                                                                               : "";
}

}  // namespace

absl::Status CheckPlacement(const std::string& node_list_json, const std::string& pod_list_json,
                            const PlacementRules& rules) {
  SCHEDKIT_ASSIGN_OR_RETURN(const json nodes, Parse(node_list_json, "node"));
  SCHEDKIT_ASSIGN_OR_RETURN(const json pods, Parse(pod_list_json, "pod"));

  std::map<std::string, Amounts> allocatable;
  std::map<std::string, std::string> zone_of;
  for (const json& node : nodes["items"]) {
    const std::string name = node["metadata"].value("name", "");
    const json& alloc = node.value("status", json::object()).value("allocatable", json::object());
    Amounts& a = allocatable[name];
    for (size_t r = 0; r < kResources.size(); ++r) {
      SCHEDKIT_ASSIGN_OR_RETURN(a.v[r], Quantity(alloc, kResources[r]));
    }
    zone_of[name] = Label(node, "topology.kubernetes.io/zone");
  }

  std::map<std::string, Amounts> used;
  std::map<std::string, int> green_on;
  std::map<std::string, int> measured_in_zone;
  for (const auto& [node, zone] : zone_of) measured_in_zone[zone] += 0;
  int measured_bound = 0;
  for (const json& pod : pods["items"]) {
    const std::string ns = pod["metadata"].value("namespace", "");
    const std::string key = schedkit::StrCat(ns, "/", pod["metadata"].value("name", ""));
    const std::string node = pod["spec"].value("nodeName", "");
    if (node.empty()) {
      if (ns == rules.measured_namespace) return absl::InternalError(schedkit::StrCat("pod ", key, " not bound"));
      continue;
    }
    if (!allocatable.contains(node)) {
      return absl::InternalError(schedkit::StrCat("pod ", key, " bound to ", node, ", not a node"));
    }
    Amounts& u = used[node];
    u.v[2] += 1;
    for (const json& c : pod["spec"].value("containers", json::array())) {
      const json& requests = c.value("resources", json::object()).value("requests", json::object());
      for (size_t r = 0; r < 2; ++r) {
        SCHEDKIT_ASSIGN_OR_RETURN(int64_t q, Quantity(requests, kResources[r]));
        u.v[r] += q;
      }
    }
    if (Label(pod, "color") == "green") ++green_on[node];
    if (ns == rules.measured_namespace) {
      ++measured_bound;
      if (Label(pod, "color") == "blue") ++measured_in_zone[zone_of[node]];
    }
  }
  if (measured_bound != rules.measured_pods) {
    return absl::InternalError(schedkit::StrCat(measured_bound, " pods of ", rules.measured_namespace,
                                                " bound, want ", rules.measured_pods));
  }
  for (const auto& [node, u] : used) {
    for (size_t r = 0; r < kResources.size(); ++r) {
      if (u.v[r] > allocatable[node].v[r]) {
        return absl::InternalError(schedkit::StrCat("node ", node, " over-committed on ", kResources[r], ": ",
                                                    u.v[r], " > ", allocatable[node].v[r]));
      }
    }
  }
  if (rules.one_green_pod_per_node) {
    for (const auto& [node, n] : green_on) {
      if (n > 1) return absl::InternalError(schedkit::StrCat("node ", node, " holds ", n, " anti-affine pods"));
    }
  }
  if (rules.zone_max_skew > 0 && !measured_in_zone.empty()) {
    const auto [lo, hi] = std::minmax_element(measured_in_zone.begin(), measured_in_zone.end(),
                                              [](const auto& a, const auto& b) { return a.second < b.second; });
    if (hi->second - lo->second > rules.zone_max_skew) {
      return absl::InternalError(schedkit::StrCat("zone skew ", hi->second - lo->second, " (", hi->first, ": ",
                                                  hi->second, ", ", lo->first, ": ", lo->second, ") > ",
                                                  rules.zone_max_skew));
    }
  }
  return absl::OkStatus();
}

}  // namespace schedkit::bench
