#include "kubectl_dump.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "schedkit/api/decode.h"
#include "schedkit/api/encode.h"
#include "schedkit/api/v1/namespace.h"
#include "schedkit/api/v1/node.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/api/v1/priority_class.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::perf {
namespace {

constexpr char kMirrorAnnotation[] = "kubernetes.io/config.mirror";

// The items of EncodeClusterJson(cluster): each object as kubectl prints it.
nlohmann::ordered_json Items(const api::ObjectSet& cluster) {
  return nlohmann::ordered_json::parse(api::EncodeClusterJson(cluster))["items"];
}

bool Terminal(const api::v1::Pod& pod) {
  const std::string& phase = pod.status().phase();
  return phase == "Succeeded" || phase == "Failed" || !pod.metadata().deletion_timestamp().empty();
}

}  // namespace

absl::StatusOr<std::string> WorkloadFromKubectl(const std::vector<std::string>& paths,
                                                const KubectlDumpOptions& options) {
  auto loaded = api::LoadPaths(paths);
  if (!loaded.ok()) return loaded.status();
  const api::ObjectSet& in = loaded->objects;
  if (in.Of<api::v1::Node>().empty()) return absl::InvalidArgumentError("the dump has no nodes (kubectl get nodes,pods -A -o yaml)");

  // Pods that stay where they are, and pods replayed with their arrival.
  api::ObjectSet staying, replayed;
  std::vector<double> arrivals;
  std::optional<absl::Time> earliest;
  std::vector<std::pair<absl::Time, const api::v1::Pod*>> replay;
  for (const api::v1::Pod& pod : in.Of<api::v1::Pod>()) {
    if (Terminal(pod)) continue;
    const bool ours = std::find(options.scheduler_names.begin(), options.scheduler_names.end(),
                                pod.spec().scheduler_name().empty() ? "default-scheduler"
                                                                    : pod.spec().scheduler_name()) !=
                      options.scheduler_names.end();
    const bool bound = !pod.spec().node_name().empty();
    if (bound && (!ours || pod.metadata().annotations().contains(kMirrorAnnotation) || options.keep_bound)) {
      staying.Add(pod);
      continue;
    }
    if (!ours) continue;  // pending for another scheduler: not ours to place
    absl::Time created = absl::UnixEpoch();
    std::string error;
    if (!pod.metadata().creation_timestamp().empty() &&
        !absl::ParseTime(absl::RFC3339_full, pod.metadata().creation_timestamp(), &created, &error)) {
      return absl::InvalidArgumentError(schedkit::StrCat("pod ", pod.metadata().namespace_(), "/",
                                                         pod.metadata().name(), ": metadata.creationTimestamp \"",
                                                         pod.metadata().creation_timestamp(), "\": ", error));
    }
    earliest = earliest ? std::min(*earliest, created) : created;
    replay.emplace_back(created, &pod);
  }
  std::stable_sort(replay.begin(), replay.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [created, pod] : replay) {
    api::v1::Pod p = *pod;
    p.mutable_spec()->clear_node_name();
    p.clear_status();
    p.mutable_metadata()->clear_uid();
    p.mutable_metadata()->clear_resource_version();
    replayed.Add(std::move(p));
    arrivals.push_back(absl::ToDoubleSeconds(created - *earliest));
  }

  api::ObjectSet cluster_objects;
  for (const api::Kind* kind : {&api::KindOf<api::v1::Node>(), &api::KindOf<api::v1::Namespace>(),
                                &api::KindOf<api::v1::PriorityClass>()}) {
    for (const api::AnyObject& o : in.List(*kind)) cluster_objects.Add(*kind, o);
  }
  nlohmann::ordered_json out;
  out["apiVersion"] = "perf.schedkit.io/v1";
  out["kind"] = "Workload";
  out["name"] = options.name;
  out["description"] = schedkit::StrCat("from kubectl: ", in.Of<api::v1::Node>().size(), " nodes, ",
                                        staying.Of<api::v1::Pod>().size(), " pods staying, ",
                                        replayed.Of<api::v1::Pod>().size(), " pods replayed");
  nlohmann::ordered_json namespaces = nlohmann::ordered_json::array(), classes = nlohmann::ordered_json::array(),
                         nodes = nlohmann::ordered_json::array();
  for (auto& item : Items(cluster_objects)) {
    const std::string kind = item.value("kind", "");
    (kind == "Node" ? nodes : kind == "Namespace" ? namespaces : classes).push_back(std::move(item));
  }
  if (!namespaces.empty()) out["namespaces"] = std::move(namespaces);
  if (!classes.empty()) out["priorityClasses"] = std::move(classes);
  out["nodes"] = std::move(nodes);
  nlohmann::ordered_json groups = nlohmann::ordered_json::array();
  if (!staying.Of<api::v1::Pod>().empty()) {
    nlohmann::ordered_json pods = nlohmann::ordered_json::array();
    for (auto& item : Items(staying)) pods.push_back({{"pod", std::move(item)}});
    groups.push_back({{"name", "staying"}, {"pods", std::move(pods)}});
  }
  if (!replayed.Of<api::v1::Pod>().empty()) {
    nlohmann::ordered_json pods = nlohmann::ordered_json::array();
    size_t i = 0;
    for (auto& item : Items(replayed)) pods.push_back({{"at", arrivals[i++]}, {"pod", std::move(item)}});
    groups.push_back({{"name", "replayed"}, {"pods", std::move(pods)}});
  }
  out["podGroups"] = std::move(groups);
  return out.dump(1) + "\n";
}

}  // namespace schedkit::perf
