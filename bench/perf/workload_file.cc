#include "workload_file.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "schedkit/api/decode.h"
#include "schedkit/api/quantity.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::perf {
namespace {

constexpr char kZoneLabel[] = "topology.kubernetes.io/zone";
constexpr char kHostnameLabel[] = "kubernetes.io/hostname";

// Where a value sits, for error messages: "file: podGroups[2].vary.cpu".
class Where {
 public:
  Where(const std::string& file, std::string field) : file_(&file), field_(std::move(field)) {}
  Where operator[](const std::string& key) const { return Where(*file_, field_.empty() ? key : field_ + "." + key); }
  Where operator[](size_t i) const { return Where(*file_, schedkit::StrCat(field_, "[", i, "]")); }
  absl::Status Bad(const std::string& what) const {
    return absl::InvalidArgumentError(schedkit::StrCat(*file_, ": ", field_.empty() ? "" : field_ + ": ", what));
  }
  std::string Text() const { return schedkit::StrCat(*file_, ": ", field_); }

 private:
  const std::string* file_;
  std::string field_;
};

// The fields a mapping may have; any other is a misspelling.
absl::Status OnlyFields(const YAML::Node& n, const Where& at, std::initializer_list<const char*> allowed) {
  if (!n.IsMap()) return at.Bad("must be a mapping");
  for (const auto& kv : n) {
    const std::string key = kv.first.as<std::string>();
    if (std::find_if(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; }) == allowed.end()) {
      return at[key].Bad("unknown field");
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> String(const YAML::Node& n, const Where& at) {
  if (!n.IsScalar()) return at.Bad("must be a string");
  return n.Scalar();
}

absl::StatusOr<double> Number(const YAML::Node& n, const Where& at, double min) {
  double v = 0;
  if (!n.IsScalar() || !YAML::convert<double>::decode(n, v) || !std::isfinite(v)) {
    return at.Bad(schedkit::StrCat("must be a number, got \"", n.IsScalar() ? n.Scalar() : "a collection", "\""));
  }
  if (v < min) return at.Bad(schedkit::StrCat("must be at least ", min, ", got ", v));
  return v;
}

absl::StatusOr<int64_t> Count(const YAML::Node& n, const Where& at) {
  int64_t v = 0;
  if (!n.IsScalar() || !YAML::convert<int64_t>::decode(n, v)) return at.Bad("must be an integer");
  if (v < 1) return at.Bad(schedkit::StrCat("must be at least 1, got ", v));
  return v;
}

absl::StatusOr<std::vector<std::string>> Strings(const YAML::Node& n, const Where& at) {
  if (!n.IsSequence()) return at.Bad("must be a list of strings");
  std::vector<std::string> out;
  for (size_t i = 0; i < n.size(); ++i) {
    SCHEDKIT_ASSIGN_OR_RETURN(std::string s, String(n[i], at[i]));
    out.push_back(std::move(s));
  }
  return out;
}

// Decodes a Kubernetes object written inline (its apiVersion and kind set
// when missing) with schedkit's own decoder, which validates every field.
template <typename T>
absl::StatusOr<T> DecodeObject(const YAML::Node& n, const Where& at) {
  const api::Kind& kind = api::KindOf<T>();
  if (!n.IsMap()) return at.Bad(schedkit::StrCat("must be a ", kind.kind(), " object"));
  YAML::Node copy = YAML::Clone(n);
  if (!copy["apiVersion"]) copy["apiVersion"] = kind.api_version();
  if (!copy["kind"]) copy["kind"] = std::string(kind.kind());
  YAML::Emitter out;
  out << YAML::DoubleQuoted << copy;  // quoted scalars stay strings ("8" cpu, "true" labels)
  auto decoded = api::Decode(out.c_str(), at.Text());
  if (!decoded.ok()) return decoded.status();
  const api::ObjectsOf<T> objects = decoded->objects.Of<T>();
  if (objects.size() != 1 || decoded->objects.size() != 1) {
    return at.Bad(schedkit::StrCat("must be a ", kind.kind(), " object"));
  }
  return objects[0];
}

// `vary`: the first container's requests drawn per pod from [lo, hi], all
// different while the range allows (an odd stride through the range).
struct Vary {
  std::string resource;
  int64_t lo = 0, hi = 0;
};

absl::StatusOr<std::vector<Vary>> ParseVary(const YAML::Node& n, const Where& at) {
  if (!n.IsMap()) return at.Bad("must map resource names to [low, high]");
  std::vector<Vary> out;
  for (const auto& kv : n) {
    const std::string resource = kv.first.as<std::string>();
    const Where r = at[resource];
    if (!kv.second.IsSequence() || kv.second.size() != 2) return r.Bad("must be [low, high]");
    Vary v{resource};
    for (size_t i = 0; i < 2; ++i) {
      SCHEDKIT_ASSIGN_OR_RETURN(std::string text, String(kv.second[i], r[i]));
      auto q = api::ParseResourceQuantity(resource, text);
      if (!q.ok()) return r[i].Bad(std::string(q.status().message()));
      (i == 0 ? v.lo : v.hi) = *q;
    }
    if (v.lo < 0 || v.hi < v.lo) return r.Bad("must be [low, high] with 0 <= low <= high");
    out.push_back(v);
  }
  return out;
}

std::string FormatQuantity(const std::string& resource, int64_t v) {
  return resource == "cpu" ? schedkit::StrCat(v, "m") : schedkit::StrCat(v);
}

void ApplyVary(api::v1::Pod& pod, const std::vector<Vary>& vary, int64_t index) {
  if (vary.empty() || pod.spec().containers().empty()) return;
  auto* res = pod.mutable_spec()->mutable_containers(0)->mutable_resources();
  for (size_t k = 0; k < vary.size(); ++k) {
    const Vary& v = vary[k];
    const int64_t span = v.hi - v.lo + 1;
    // A different odd stride per resource, so sizes do not move together.
    const int64_t stride = (k % 2 == 0 ? 2654435761LL : 2246822519LL) % span;
    const int64_t value = v.lo + static_cast<int64_t>((static_cast<__int128>(index) * (stride | 1)) % span);
    (*res->mutable_requests())[v.resource] = FormatQuantity(v.resource, value);
    if (res->limits().contains(v.resource)) (*res->mutable_limits())[v.resource] = FormatQuantity(v.resource, value);
  }
}

class Loader {
 public:
  Loader(std::string path, double scale) : path_(std::move(path)), scale_(scale) {}

  absl::StatusOr<Trace> Load() {
    YAML::Node root;
    try {
      std::ifstream in(path_);
      if (!in) return absl::NotFoundError(schedkit::StrCat(path_, ": cannot read the workload file"));
      std::stringstream text;
      text << in.rdbuf();
      root = YAML::Load(text.str());
    } catch (const YAML::Exception& e) {
      return absl::InvalidArgumentError(schedkit::StrCat(path_, ": line ", e.mark.line + 1, ", column ",
                                                         e.mark.column + 1, ": ", e.msg));
    }
    try {
      SCHEDKIT_RETURN_IF_ERROR(LoadRoot(root));
    } catch (const YAML::Exception& e) {
      return absl::InvalidArgumentError(schedkit::StrCat(path_, ": ", e.what()));
    }
    return std::move(trace_);
  }

 private:
  absl::Status LoadRoot(const YAML::Node& root) {
    const Where at(path_, "");
    SCHEDKIT_RETURN_IF_ERROR(OnlyFields(root, at, {"apiVersion", "kind", "name", "description", "namespaces",
                                                   "priorityClasses", "nodeGroups", "nodes", "podGroups"}));
    if (root["apiVersion"] && root["apiVersion"].as<std::string>() != "perf.schedkit.io/v1") {
      return at["apiVersion"].Bad("must be perf.schedkit.io/v1");
    }
    if (root["kind"] && root["kind"].as<std::string>() != "Workload") return at["kind"].Bad("must be Workload");
    trace_.path = path_;
    trace_.name = root["name"] ? root["name"].as<std::string>() : path_;

    if (const YAML::Node& list = root["namespaces"]) {
      if (!list.IsSequence()) return at["namespaces"].Bad("must be a list of Namespace objects");
      for (size_t i = 0; i < list.size(); ++i) {
        SCHEDKIT_ASSIGN_OR_RETURN(api::v1::Namespace ns, DecodeObject<api::v1::Namespace>(list[i], at["namespaces"][i]));
        namespaces_.insert(ns.metadata().name());
        trace_.initial.Add(std::move(ns));
      }
    }
    if (const YAML::Node& list = root["priorityClasses"]) {
      if (!list.IsSequence()) return at["priorityClasses"].Bad("must be a list of PriorityClass objects");
      for (size_t i = 0; i < list.size(); ++i) {
        SCHEDKIT_ASSIGN_OR_RETURN(
            api::v1::PriorityClass pc,
            DecodeObject<api::v1::PriorityClass>(list[i], at["priorityClasses"][i]));
        priorities_[pc.metadata().name()] = pc.value();
        trace_.initial.Add(std::move(pc));
      }
    }
    if (const YAML::Node& groups = root["nodeGroups"]) {
      if (!groups.IsSequence()) return at["nodeGroups"].Bad("must be a list");
      for (size_t i = 0; i < groups.size(); ++i) SCHEDKIT_RETURN_IF_ERROR(NodeGroup(groups[i], at["nodeGroups"][i]));
    }
    if (const YAML::Node& list = root["nodes"]) {
      if (!list.IsSequence()) return at["nodes"].Bad("must be a list of Node objects");
      for (size_t i = 0; i < list.size(); ++i) {
        SCHEDKIT_ASSIGN_OR_RETURN(api::v1::Node node,
                                  DecodeObject<api::v1::Node>(list[i], at["nodes"][i]));
        SCHEDKIT_RETURN_IF_ERROR(AddNode(std::move(node), at["nodes"][i]));
      }
    }
    if (trace_.initial.Of<api::v1::Node>().empty()) return at.Bad("no nodes: give nodeGroups or nodes");
    if (const YAML::Node& groups = root["podGroups"]) {
      if (!groups.IsSequence()) return at["podGroups"].Bad("must be a list");
      for (size_t i = 0; i < groups.size(); ++i) SCHEDKIT_RETURN_IF_ERROR(PodGroup(groups[i], at["podGroups"][i]));
    }
    if (trace_.measured.empty()) return at["podGroups"].Bad("no measured pods");
    for (const std::string& ns : pod_namespaces_) {
      if (namespaces_.contains(ns)) continue;
      api::v1::Namespace n;
      n.set_api_version("v1");
      n.set_kind("Namespace");
      n.mutable_metadata()->set_name(ns);
      trace_.initial.Add(std::move(n));
    }
    return BuildBatches();
  }

  int64_t Scaled(int64_t count) const {
    return std::max<int64_t>(1, std::llround(static_cast<double>(count) * scale_));
  }

  absl::Status AddNode(api::v1::Node node, const Where& at) {
    if (!node_names_.insert(node.metadata().name()).second) {
      return at.Bad(schedkit::StrCat("node \"", node.metadata().name(), "\" is defined twice"));
    }
    trace_.initial.Add(std::move(node));
    return absl::OkStatus();
  }

  absl::Status NodeGroup(const YAML::Node& g, const Where& at) {
    SCHEDKIT_RETURN_IF_ERROR(OnlyFields(g, at, {"name", "count", "zones", "labels", "taints", "allocatable"}));
    if (!g["name"]) return at["name"].Bad("required");
    SCHEDKIT_ASSIGN_OR_RETURN(const std::string name, String(g["name"], at["name"]));
    if (!g["count"]) return at["count"].Bad("required");
    SCHEDKIT_ASSIGN_OR_RETURN(const int64_t count, Count(g["count"], at["count"]));
    if (!g["allocatable"]) return at["allocatable"].Bad("required (cpu, memory, pods, ...)");
    std::vector<std::string> zones;
    if (g["zones"]) {
      SCHEDKIT_ASSIGN_OR_RETURN(zones, Strings(g["zones"], at["zones"]));
    }

    // One Node object decoded (so validated) per group, copied per node.
    YAML::Node object;
    object["metadata"]["name"] = name + "-template";
    if (g["labels"]) object["metadata"]["labels"] = g["labels"];
    if (g["taints"]) object["spec"]["taints"] = g["taints"];
    object["status"]["capacity"] = g["allocatable"];
    object["status"]["allocatable"] = g["allocatable"];
    YAML::Node ready;
    ready["type"] = "Ready";
    ready["status"] = "True";
    object["status"]["conditions"].push_back(ready);
    SCHEDKIT_ASSIGN_OR_RETURN(const api::v1::Node tmpl, DecodeObject<api::v1::Node>(object, at));
    const int64_t n = Scaled(count);
    for (int64_t i = 0; i < n; ++i) {
      api::v1::Node node = tmpl;
      const std::string node_name = schedkit::StrCat(name, "-", i);
      node.mutable_metadata()->set_name(node_name);
      node.mutable_metadata()->set_uid(node_name);
      auto& labels = *node.mutable_metadata()->mutable_labels();
      labels[kHostnameLabel] = node_name;
      if (!zones.empty()) labels[kZoneLabel] = zones[static_cast<size_t>(i) % zones.size()];
      SCHEDKIT_RETURN_IF_ERROR(AddNode(std::move(node), at));
    }
    return absl::OkStatus();
  }

  // The pod as the API server would hold it: uid by role, priority resolved
  // from its class (as the Priority admission plugin does).
  absl::Status Admit(api::v1::Pod& pod, bool init, const Where& at) {
    const std::string& cls = pod.spec().priority_class_name();
    if (!cls.empty() && !pod.spec().has_priority()) {
      auto it = priorities_.find(cls);
      if (it == priorities_.end()) {
        return at.Bad(schedkit::StrCat("spec.priorityClassName \"", cls, "\" is not among priorityClasses"));
      }
      pod.mutable_spec()->set_priority(it->second);
    }
    if (pod.spec().scheduler_name().empty()) pod.mutable_spec()->set_scheduler_name("default-scheduler");
    if (pod.metadata().namespace_().empty()) pod.mutable_metadata()->set_namespace_("default");
    const std::string key = schedkit::StrCat(pod.metadata().namespace_(), "/", pod.metadata().name());
    if (!pod_keys_.insert(key).second) return at.Bad(schedkit::StrCat("pod ", key, " is defined twice"));
    pod_namespaces_.insert(pod.metadata().namespace_());
    if (!pod.spec().node_name().empty()) {
      if (!node_names_.contains(pod.spec().node_name())) {
        return at.Bad(schedkit::StrCat("pod ", key, ": spec.nodeName \"", pod.spec().node_name(), "\" is no node"));
      }
      if (pod.metadata().uid().empty()) pod.mutable_metadata()->set_uid(key);
      return absl::OkStatus();
    }
    pod.mutable_metadata()->set_uid(schedkit::StrCat(init ? kInitUidPrefix : kMeasuredUidPrefix, key));
    return absl::OkStatus();
  }

  // A measured pod with its times, before batching.
  struct Timed {
    double at = 0;
    std::optional<double> delete_at;
  };

  absl::Status Place(api::v1::Pod pod, bool init, Timed t, const Where& at) {
    SCHEDKIT_RETURN_IF_ERROR(Admit(pod, init, at));
    if (!pod.spec().node_name().empty()) {
      trace_.initial.Add(std::move(pod));  // already bound: part of the cluster
      return absl::OkStatus();
    }
    auto shared = std::make_shared<const api::v1::Pod>(std::move(pod));
    if (init) {
      trace_.init_pods.push_back(std::move(shared));
      return absl::OkStatus();
    }
    if (t.delete_at && *t.delete_at <= t.at) {
      return at.Bad(schedkit::StrCat("deleted at ", *t.delete_at, " s, not after its arrival at ", t.at, " s"));
    }
    trace_.measured.push_back(std::move(shared));
    timed_.push_back(t);
    return absl::OkStatus();
  }

  absl::Status PodGroup(const YAML::Node& g, const Where& at) {
    SCHEDKIT_RETURN_IF_ERROR(OnlyFields(
        g, at, {"name", "namespace", "phase", "count", "at", "every", "lifetime", "template", "vary", "pods"}));
    bool init = false;
    if (g["phase"]) {
      SCHEDKIT_ASSIGN_OR_RETURN(const std::string phase, String(g["phase"], at["phase"]));
      if (phase != "init" && phase != "measured") return at["phase"].Bad("must be init or measured");
      init = phase == "init";
    }
    if (g["pods"]) {
      if (g["template"] || g["count"] || g["vary"] || g["every"]) {
        return at["pods"].Bad("a group lists pods or has a template and count, not both");
      }
      return PodList(g["pods"], init, at["pods"]);
    }
    if (!g["name"]) return at["name"].Bad("required");
    SCHEDKIT_ASSIGN_OR_RETURN(const std::string name, String(g["name"], at["name"]));
    if (!g["count"]) return at["count"].Bad("required with a template");
    SCHEDKIT_ASSIGN_OR_RETURN(const int64_t count, Count(g["count"], at["count"]));
    if (!g["template"]) return at["template"].Bad("required (a Pod: metadata.labels, spec)");
    std::string ns = "default";
    if (g["namespace"]) {
      SCHEDKIT_ASSIGN_OR_RETURN(ns, String(g["namespace"], at["namespace"]));
    }
    double start = 0, every = 0;
    std::optional<double> lifetime;
    if (g["at"]) {
      SCHEDKIT_ASSIGN_OR_RETURN(start, Number(g["at"], at["at"], 0));
    }
    if (g["every"]) {
      SCHEDKIT_ASSIGN_OR_RETURN(every, Number(g["every"], at["every"], 0));
    }
    if (g["lifetime"]) {
      SCHEDKIT_ASSIGN_OR_RETURN(const double l, Number(g["lifetime"], at["lifetime"], 0));
      if (l <= 0) return at["lifetime"].Bad("must be more than 0");
      lifetime = l;
    }
    std::vector<Vary> vary;
    if (g["vary"]) {
      SCHEDKIT_ASSIGN_OR_RETURN(vary, ParseVary(g["vary"], at["vary"]));
    }

    YAML::Node object = YAML::Clone(g["template"]);
    if (!object.IsMap()) return at["template"].Bad("must be a Pod object");
    object["metadata"]["name"] = name + "-template";
    object["metadata"]["namespace"] = ns;
    SCHEDKIT_ASSIGN_OR_RETURN(const api::v1::Pod tmpl,
                              DecodeObject<api::v1::Pod>(object, at["template"]));
    if (!tmpl.spec().node_name().empty()) return at["template"]["spec"]["nodeName"].Bad("a template is not bound");
    if (!vary.empty() && tmpl.spec().containers().empty()) return at["vary"].Bad("the template has no container");
    const int64_t n = Scaled(count);
    for (int64_t i = 0; i < n; ++i) {
      api::v1::Pod pod = tmpl;
      pod.mutable_metadata()->set_name(schedkit::StrCat(name, "-", i));
      ApplyVary(pod, vary, i);
      // Scaled, a group keeps its instants: N pods arrive at each (one every
      // 1/N-th of them below 1), so the trace keeps its number of batches and
      // retry rounds, and a cluster N times larger meets N times the traffic.
      // (The nudge keeps i / N on its integer where the division rounds below.)
      Timed t{start + every * std::floor(static_cast<double>(i) / scale_ + 1e-9), std::nullopt};
      if (lifetime) t.delete_at = t.at + *lifetime;
      SCHEDKIT_RETURN_IF_ERROR(Place(std::move(pod), init, t, at));
    }
    return absl::OkStatus();
  }

  absl::Status PodList(const YAML::Node& list, bool init, const Where& at) {
    if (!list.IsSequence()) return at.Bad("must be a list of {at, deleteAt, pod}");
    for (size_t i = 0; i < list.size(); ++i) {
      const YAML::Node& e = list[i];
      SCHEDKIT_RETURN_IF_ERROR(OnlyFields(e, at[i], {"at", "deleteAt", "pod"}));
      if (!e["pod"]) return at[i]["pod"].Bad("required (a Pod object)");
      Timed t;
      if (e["at"]) {
        SCHEDKIT_ASSIGN_OR_RETURN(t.at, Number(e["at"], at[i]["at"], 0));
      }
      if (e["deleteAt"]) {
        SCHEDKIT_ASSIGN_OR_RETURN(t.delete_at, Number(e["deleteAt"], at[i]["deleteAt"], 0));
      }
      SCHEDKIT_ASSIGN_OR_RETURN(api::v1::Pod pod, DecodeObject<api::v1::Pod>(e["pod"], at[i]["pod"]));
      SCHEDKIT_RETURN_IF_ERROR(Place(std::move(pod), init, t, at[i]));
    }
    return absl::OkStatus();
  }

  // Orders the measured pods by arrival (stable: file order within an
  // instant) and groups arrivals and deletions by instant.
  absl::Status BuildBatches() {
    std::vector<int> order(trace_.measured.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return timed_[a].at < timed_[b].at; });
    std::vector<std::shared_ptr<const api::v1::Pod>> measured;
    std::map<double, TraceBatch> by_time;
    for (int i : order) {
      const int index = static_cast<int>(measured.size());
      measured.push_back(trace_.measured[i]);
      by_time[timed_[i].at].arrivals.push_back(index);
      if (timed_[i].delete_at) {
        const api::v1::ObjectMeta& meta = trace_.measured[i]->metadata();
        by_time[*timed_[i].delete_at].deletions.emplace_back(meta.namespace_(), meta.name());
        ++trace_.deletions;
      }
    }
    trace_.measured = std::move(measured);
    for (auto& [at, batch] : by_time) {
      batch.at = at;
      trace_.batches.push_back(std::move(batch));
    }
    return absl::OkStatus();
  }

  const std::string path_;
  const double scale_;
  Trace trace_;
  std::vector<Timed> timed_;  // parallel to trace_.measured until BuildBatches
  absl::flat_hash_set<std::string> node_names_, pod_keys_, namespaces_;
  std::set<std::string> pod_namespaces_;  // ordered: namespaces are added sorted
  absl::flat_hash_map<std::string, int32_t> priorities_;
};

}  // namespace

void KeepUntil(Trace& trace, double until) {
  // Batches are in time order and the measured pods in arrival order, so the
  // kept arrivals are a prefix of `measured`.
  size_t kept_batches = 0, kept_pods = 0;
  int deletions = 0;
  while (kept_batches < trace.batches.size() && trace.batches[kept_batches].at < until) {
    kept_pods += trace.batches[kept_batches].arrivals.size();
    deletions += static_cast<int>(trace.batches[kept_batches].deletions.size());
    ++kept_batches;
  }
  trace.batches.resize(kept_batches);
  trace.measured.resize(kept_pods);
  trace.deletions = deletions;
}

absl::StatusOr<Trace> LoadWorkloadFile(const std::string& path, double scale) {
  if (!(scale > 0) || !std::isfinite(scale)) {
    return absl::InvalidArgumentError(schedkit::StrCat("--scale must be more than 0, got ", scale));
  }
  return Loader(path, scale).Load();
}

}  // namespace schedkit::perf
