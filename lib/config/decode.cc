// Strict decoding of the KubeSchedulerConfiguration v1 shape: every field
// kube-scheduler v1.37 knows is accepted (the ones schedkit has no use for
// are type-checked and dropped), anything else is an error naming its path.

#include "config/decode.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "api/go_format.h"
#include "api/json_documents.h"
#include "config/default_plugins.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/config/plugin_names.h"

namespace schedkit::config::internal {
namespace {

using nlohmann::json;

// A profile as written, before defaulting: absent fields stay absent,
// because upstream's defaults depend on it (a missing schedulerName is
// filled in only when there is a single profile; missing plugins take the
// default set untouched).
struct WrittenProfile {
  std::optional<std::string> scheduler_name;
  std::optional<int32_t> percentage_of_nodes_to_score;
  std::optional<framework::ProfilePlugins> plugins;
  std::map<std::string, framework::PluginArgs> plugin_args;
};

std::string Child(std::string_view path, std::string_view key) {
  return path.empty() ? std::string(key) : schedkit::StrCat(path, ".", key);
}

std::string Index(std::string_view path, size_t i) { return schedkit::StrCat(path, "[", i, "]"); }

absl::Status Error(std::string_view path, std::string_view problem) {
  return absl::InvalidArgumentError(schedkit::StrCat(path, ": ", problem));
}

absl::Status TypeError(std::string_view path, std::string_view want, const json& got) {
  return Error(path, schedkit::StrCat("expected ", want, ", got ", api::internal::DescribeType(got)));
}

// The value of `key` in `obj`, or nullptr when it is absent or null (which
// upstream's decoder treats alike for every field here).
const json* Field(const json& obj, std::string_view key) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return nullptr;
  return &*it;
}

absl::Status CheckObject(const json& value, std::string_view path,
                         std::initializer_list<std::string_view> known) {
  if (!value.is_object()) return TypeError(path, "an object", value);
  for (auto it = value.begin(); it != value.end(); ++it) {
    bool ok = false;
    for (std::string_view k : known) ok = ok || it.key() == k;
    if (!ok) return Error(Child(path, it.key()), "unknown field");
  }
  return absl::OkStatus();
}

absl::Status ReadInteger(const json& value, std::string_view path, int64_t min, int64_t max,
                         std::string_view type_name, int64_t& out) {
  if (!value.is_number_integer()) return TypeError(path, "an integer", value);
  const bool fits = value.is_number_unsigned() ? value.get<uint64_t>() <= static_cast<uint64_t>(max)
                                               : value.get<int64_t>() >= min && value.get<int64_t>() <= max;
  if (!fits) return Error(path, schedkit::StrCat("value ", value.dump(), " does not fit in ", type_name));
  out = value.get<int64_t>();
  return absl::OkStatus();
}

absl::Status ReadInt32(const json& value, std::string_view path, int32_t& out) {
  int64_t v = 0;
  SCHEDKIT_RETURN_IF_ERROR(ReadInteger(value, path, std::numeric_limits<int32_t>::min(),
                                       std::numeric_limits<int32_t>::max(), "int32", v));
  out = static_cast<int32_t>(v);
  return absl::OkStatus();
}

absl::Status ReadInt64(const json& value, std::string_view path, int64_t& out) {
  return ReadInteger(value, path, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
                     "int64", out);
}

absl::Status ReadString(const json& value, std::string_view path, std::string& out) {
  if (!value.is_string()) return TypeError(path, "a string", value);
  out = value.get<std::string>();
  return absl::OkStatus();
}

// Type check for fields that are accepted and then ignored.
absl::Status CheckBool(const json& obj, std::string_view path, std::string_view key) {
  const json* v = Field(obj, key);
  if (v != nullptr && !v->is_boolean()) return TypeError(Child(path, key), "a boolean", *v);
  return absl::OkStatus();
}

// A Go duration string ("15s", "1m30s", "500ms").
absl::Status ReadDuration(const json& obj, std::string_view path, std::string_view key, absl::Duration& out) {
  const json* v = Field(obj, key);
  if (v == nullptr) return absl::OkStatus();
  std::string text;
  SCHEDKIT_RETURN_IF_ERROR(ReadString(*v, Child(path, key), text));
  if (!ParseGoDuration(text, &out)) {
    return Error(Child(path, key), schedkit::StrCat("invalid duration \"", text, "\""));
  }
  return absl::OkStatus();
}

absl::Status ReadOptionalString(const json& obj, std::string_view path, std::string_view key, std::string& out) {
  const json* v = Field(obj, key);
  return v == nullptr ? absl::OkStatus() : ReadString(*v, Child(path, key), out);
}

absl::Status ReadLeaderElection(const json& value, std::string_view path, LeaderElection& out) {
  SCHEDKIT_RETURN_IF_ERROR(CheckObject(value, path,
                                       {"leaderElect", "leaseDuration", "renewDeadline", "retryPeriod",
                                        "resourceLock", "resourceName", "resourceNamespace"}));
  SCHEDKIT_RETURN_IF_ERROR(CheckBool(value, path, "leaderElect"));
  if (const json* v = Field(value, "leaderElect"); v != nullptr) out.leader_elect = v->get<bool>();
  SCHEDKIT_RETURN_IF_ERROR(ReadDuration(value, path, "leaseDuration", out.lease_duration));
  SCHEDKIT_RETURN_IF_ERROR(ReadDuration(value, path, "renewDeadline", out.renew_deadline));
  SCHEDKIT_RETURN_IF_ERROR(ReadDuration(value, path, "retryPeriod", out.retry_period));
  SCHEDKIT_RETURN_IF_ERROR(ReadOptionalString(value, path, "resourceLock", out.resource_lock));
  SCHEDKIT_RETURN_IF_ERROR(ReadOptionalString(value, path, "resourceName", out.resource_name));
  return ReadOptionalString(value, path, "resourceNamespace", out.resource_namespace);
}

absl::Status ReadClientConnection(const json& value, std::string_view path, ClientConnection& out) {
  SCHEDKIT_RETURN_IF_ERROR(
      CheckObject(value, path, {"kubeconfig", "acceptContentTypes", "contentType", "qps", "burst"}));
  SCHEDKIT_RETURN_IF_ERROR(ReadOptionalString(value, path, "kubeconfig", out.kubeconfig));
  SCHEDKIT_RETURN_IF_ERROR(ReadOptionalString(value, path, "acceptContentTypes", out.accept_content_types));
  SCHEDKIT_RETURN_IF_ERROR(ReadOptionalString(value, path, "contentType", out.content_type));
  if (const json* qps = Field(value, "qps"); qps != nullptr) {
    if (!qps->is_number()) return TypeError(Child(path, "qps"), "a number", *qps);
    out.qps = qps->get<float>();
  }
  if (const json* burst = Field(value, "burst"); burst != nullptr) {
    SCHEDKIT_RETURN_IF_ERROR(ReadInt32(*burst, Child(path, "burst"), out.burst));
  }
  return absl::OkStatus();
}

// enabled[] and disabled[] entries are both upstream's Plugin {name, weight};
// a weight on a disabled entry means nothing and is dropped.
absl::Status ReadPluginRef(const json& value, std::string_view path, framework::PluginRef& out) {
  SCHEDKIT_RETURN_IF_ERROR(CheckObject(value, path, {"name", "weight"}));
  const json* name = Field(value, "name");
  if (name == nullptr) return Error(Child(path, "name"), "Required value");
  SCHEDKIT_RETURN_IF_ERROR(ReadString(*name, Child(path, "name"), out.name));
  if (out.name.empty()) return Error(Child(path, "name"), "Required value");
  if (const json* weight = Field(value, "weight"); weight != nullptr) {
    SCHEDKIT_RETURN_IF_ERROR(ReadInt32(*weight, Child(path, "weight"), out.weight));
  }
  return absl::OkStatus();
}

absl::Status ReadPluginSet(const json& value, std::string_view path, framework::PluginSet& out) {
  SCHEDKIT_RETURN_IF_ERROR(CheckObject(value, path, {"enabled", "disabled"}));
  if (const json* enabled = Field(value, "enabled"); enabled != nullptr) {
    const std::string list_path = Child(path, "enabled");
    if (!enabled->is_array()) return TypeError(list_path, "a list", *enabled);
    for (size_t i = 0; i < enabled->size(); ++i) {
      framework::PluginRef ref;
      SCHEDKIT_RETURN_IF_ERROR(ReadPluginRef((*enabled)[i], Index(list_path, i), ref));
      out.enabled.push_back(std::move(ref));
    }
  }
  if (const json* disabled = Field(value, "disabled"); disabled != nullptr) {
    const std::string list_path = Child(path, "disabled");
    if (!disabled->is_array()) return TypeError(list_path, "a list", *disabled);
    for (size_t i = 0; i < disabled->size(); ++i) {
      framework::PluginRef ref;
      SCHEDKIT_RETURN_IF_ERROR(ReadPluginRef((*disabled)[i], Index(list_path, i), ref));
      out.disabled.push_back(std::move(ref.name));
    }
  }
  return absl::OkStatus();
}

absl::Status ReadPlugins(const json& value, std::string_view path, framework::ProfilePlugins& out) {
  if (!value.is_object()) return TypeError(path, "an object", value);
  for (auto it = value.begin(); it != value.end(); ++it) {
    const ExtensionPoint* point = nullptr;
    for (const ExtensionPoint& p : kExtensionPoints) {
      if (it.key() == p.field) point = &p;
    }
    const std::string point_path = Child(path, it.key());
    if (point == nullptr) return Error(point_path, "unknown field");
    if (it->is_null()) continue;
    SCHEDKIT_RETURN_IF_ERROR(ReadPluginSet(*it, point_path, out.*point->set));
    if (IsWorkloadPoint(point->field) && !(out.*point->set).enabled.empty()) {
      return Error(Child(point_path, "enabled"),
                   "schedkit does not model workload-aware scheduling (the GenericWorkload gate's extension "
                   "points) yet; leave it empty");
    }
  }
  return absl::OkStatus();
}

// In-tree plugins whose args upstream decodes into a typed <Name>Args; for
// them an explicit apiVersion or kind inside the args must match. Args of
// any other plugin pass through untouched.
bool HasTypedArgs(std::string_view plugin) {
  namespace names = plugin_names;
  for (std::string_view p : {names::kDefaultPreemption, names::kDynamicResources, names::kInterPodAffinity,
                             names::kNodeAffinity, names::kNodeResourcesBalancedAllocation,
                             names::kNodeResourcesFit, names::kPodTopologySpread, names::kVolumeBinding}) {
    if (plugin == p) return true;
  }
  return false;
}

absl::Status CheckArgsType(const json& args, std::string_view path, std::string_view plugin) {
  if (const json* api_version = Field(args, "apiVersion"); api_version != nullptr) {
    std::string v;
    SCHEDKIT_RETURN_IF_ERROR(ReadString(*api_version, Child(path, "apiVersion"), v));
    if (v != kApiVersion) {
      return Error(Child(path, "apiVersion"), schedkit::StrCat("Invalid value: \"", v, "\": args for plugin ",
                                                               plugin, " must be version ", kApiVersion));
    }
  }
  if (const json* kind = Field(args, "kind"); kind != nullptr) {
    std::string v;
    SCHEDKIT_RETURN_IF_ERROR(ReadString(*kind, Child(path, "kind"), v));
    if (v != schedkit::StrCat(plugin, "Args")) {
      return Error(Child(path, "kind"), schedkit::StrCat("Invalid value: \"", v, "\": args for plugin ",
                                                         plugin, " must be of kind ", plugin, "Args"));
    }
  }
  return absl::OkStatus();
}

// The path of the first key or string under `value` that is not valid
// UTF-8, or "" when all are: such bytes cannot reach a plugin as JSON text.
std::string FindInvalidUtf8(const json& value, const std::string& path) {
  if (value.is_string()) return IsValidUtf8(value.get_ref<const std::string&>()) ? "" : path;
  if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i) {
      if (std::string bad = FindInvalidUtf8(value[i], Index(path, i)); !bad.empty()) return bad;
    }
  }
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (!IsValidUtf8(it.key())) return path;
      if (std::string bad = FindInvalidUtf8(it.value(), Child(path, it.key())); !bad.empty()) return bad;
    }
  }
  return "";
}

absl::Status ReadPluginConfig(const json& value, std::string_view path,
                              std::map<std::string, framework::PluginArgs>& out) {
  if (!value.is_array()) return TypeError(path, "a list", value);
  for (size_t i = 0; i < value.size(); ++i) {
    const std::string entry_path = Index(path, i);
    const json& entry = value[i];
    SCHEDKIT_RETURN_IF_ERROR(CheckObject(entry, entry_path, {"name", "args"}));
    std::string name;
    const json* name_value = Field(entry, "name");
    if (name_value == nullptr) return Error(Child(entry_path, "name"), "Required value");
    SCHEDKIT_RETURN_IF_ERROR(ReadString(*name_value, Child(entry_path, "name"), name));
    if (name.empty()) return Error(Child(entry_path, "name"), "Required value");
    // Checked here, not in ValidateConfiguration: the map in Profile cannot
    // hold the second entry.
    if (out.contains(name)) return Error(entry_path, schedkit::StrCat("Duplicate value: \"", name, "\""));

    std::string args_text = "{}";
    const std::string args_path = Child(entry_path, "args");
    if (const json* args = Field(entry, "args"); args != nullptr) {
      if (!args->is_object()) return TypeError(args_path, "an object", *args);
      if (std::string bad = FindInvalidUtf8(*args, args_path); !bad.empty()) {
        return Error(bad, schedkit::StrCat("invalid UTF-8 (plugin \"", name, "\")"));
      }
      if (HasTypedArgs(name)) SCHEDKIT_RETURN_IF_ERROR(CheckArgsType(*args, args_path, name));
      args_text = args->dump();
    }
    framework::PluginArgs plugin_args(std::move(args_text));
    plugin_args.set_source(args_path);
    out.emplace(std::move(name), std::move(plugin_args));
  }
  return absl::OkStatus();
}

absl::Status ReadProfile(const json& value, std::string_view path, WrittenProfile& out) {
  SCHEDKIT_RETURN_IF_ERROR(
      CheckObject(value, path, {"schedulerName", "percentageOfNodesToScore", "plugins", "pluginConfig"}));
  if (const json* name = Field(value, "schedulerName"); name != nullptr) {
    out.scheduler_name.emplace();
    SCHEDKIT_RETURN_IF_ERROR(ReadString(*name, Child(path, "schedulerName"), *out.scheduler_name));
  }
  if (const json* pct = Field(value, "percentageOfNodesToScore"); pct != nullptr) {
    out.percentage_of_nodes_to_score.emplace();
    SCHEDKIT_RETURN_IF_ERROR(
        ReadInt32(*pct, Child(path, "percentageOfNodesToScore"), *out.percentage_of_nodes_to_score));
  }
  if (const json* plugins = Field(value, "plugins"); plugins != nullptr) {
    out.plugins.emplace();
    SCHEDKIT_RETURN_IF_ERROR(ReadPlugins(*plugins, Child(path, "plugins"), *out.plugins));
  }
  if (const json* config = Field(value, "pluginConfig"); config != nullptr) {
    SCHEDKIT_RETURN_IF_ERROR(ReadPluginConfig(*config, Child(path, "pluginConfig"), out.plugin_args));
  }
  return absl::OkStatus();
}

}  // namespace

namespace {

// What to change in a configuration written for an older version: upstream
// removed v1alpha1 in v1.19, v1alpha2 and v1beta1 in v1.23 and v1.25,
// v1beta2 and v1beta3 in v1.28 and v1.29.
std::string OlderVersionHint(std::string_view api_version) {
  constexpr std::string_view kGroup = "kubescheduler.config.k8s.io/";
  if (!api_version.starts_with(kGroup)) return "";
  const std::string_view version = api_version.substr(kGroup.size());
  if (version == "v1alpha1") {
    return schedkit::StrCat(
        "; v1 spells v1alpha1's configuration differently: schedulerName, plugins and pluginConfig go "
        "under profiles[] (profiles[].schedulerName, profiles[].plugins, profiles[].pluginConfig), and "
        "leaderElection.lockObjectName and lockObjectNamespace are leaderElection.resourceName and "
        "resourceNamespace");
  }
  if (version.starts_with("v1alpha") || version.starts_with("v1beta")) {
    return schedkit::StrCat("; v1 reads ", version,
                            "'s fields the same: set apiVersion to kubescheduler.config.k8s.io/v1 (a field v1 "
                            "removed is then named)");
  }
  return "";
}

}  // namespace

absl::StatusOr<SchedulerConfiguration> DecodeConfiguration(const nlohmann::json& doc) {
  static const json kEmpty = json::object();
  const json& root = doc.is_null() ? kEmpty : doc;
  if (!root.is_object()) {
    return absl::InvalidArgumentError(
        schedkit::StrCat("expected a ", kKind, " object, got ", api::internal::DescribeType(root)));
  }
  // The version first: a document of another version fails on its fields
  // otherwise, which says nothing about what to change.
  if (const json* v = Field(root, "apiVersion"); v != nullptr) {
    std::string api_version;
    SCHEDKIT_RETURN_IF_ERROR(ReadString(*v, "apiVersion", api_version));
    if (api_version != kApiVersion) {
      return Error("apiVersion", schedkit::StrCat("Unsupported value: \"", api_version,
                                                  "\": supported values: \"", kApiVersion, "\"",
                                                  OlderVersionHint(api_version)));
    }
  }
  if (const json* v = Field(root, "kind"); v != nullptr) {
    std::string kind;
    SCHEDKIT_RETURN_IF_ERROR(ReadString(*v, "kind", kind));
    if (kind != kKind) {
      return Error("kind",
                   schedkit::StrCat("Unsupported value: \"", kind, "\": supported values: \"", kKind, "\""));
    }
  }
  SCHEDKIT_RETURN_IF_ERROR(CheckObject(
      root, "",
      {"apiVersion", "kind", "parallelism", "leaderElection", "clientConnection", "enableProfiling",
       "enableContentionProfiling", "percentageOfNodesToScore", "podInitialBackoffSeconds",
       "podMaxBackoffSeconds", "profiles", "extenders", "delayCacheUntilActive"}));

  SchedulerConfiguration config;
  if (const json* v = Field(root, "parallelism"); v != nullptr) {
    SCHEDKIT_RETURN_IF_ERROR(ReadInt32(*v, "parallelism", config.parallelism));
  }
  if (const json* v = Field(root, "percentageOfNodesToScore"); v != nullptr) {
    SCHEDKIT_RETURN_IF_ERROR(ReadInt32(*v, "percentageOfNodesToScore", config.percentage_of_nodes_to_score));
  }
  if (const json* v = Field(root, "podInitialBackoffSeconds"); v != nullptr) {
    SCHEDKIT_RETURN_IF_ERROR(ReadInt64(*v, "podInitialBackoffSeconds", config.pod_initial_backoff_seconds));
  }
  if (const json* v = Field(root, "podMaxBackoffSeconds"); v != nullptr) {
    SCHEDKIT_RETURN_IF_ERROR(ReadInt64(*v, "podMaxBackoffSeconds", config.pod_max_backoff_seconds));
  }

  // What schedkit::kube reads; then fields schedkit has no use for.
  if (const json* v = Field(root, "leaderElection"); v != nullptr) {
    SCHEDKIT_RETURN_IF_ERROR(ReadLeaderElection(*v, "leaderElection", config.leader_election));
  }
  if (const json* v = Field(root, "clientConnection"); v != nullptr) {
    SCHEDKIT_RETURN_IF_ERROR(ReadClientConnection(*v, "clientConnection", config.client_connection));
  }
  for (auto [key, member] : {std::pair{"enableProfiling", &SchedulerConfiguration::enable_profiling},
                              std::pair{"enableContentionProfiling", &SchedulerConfiguration::enable_contention_profiling},
                              std::pair{"delayCacheUntilActive", &SchedulerConfiguration::delay_cache_until_active}}) {
    SCHEDKIT_RETURN_IF_ERROR(CheckBool(root, "", key));
    if (const json* v = Field(root, key); v != nullptr) config.*member = v->get<bool>();
  }
  // Upstream defaults contention profiling on only where profiling is on.
  if (Field(root, "enableContentionProfiling") == nullptr) {
    config.enable_contention_profiling = config.enable_profiling;
  }
  if (const json* v = Field(root, "extenders"); v != nullptr) {
    if (!v->is_array()) return TypeError("extenders", "a list", *v);
    if (!v->empty()) return Error("extenders", "extenders are not supported");
  }

  std::vector<WrittenProfile> written;
  if (const json* v = Field(root, "profiles"); v != nullptr) {
    if (!v->is_array()) return TypeError("profiles", "a list", *v);
    written.resize(v->size());
    for (size_t i = 0; i < v->size(); ++i) {
      SCHEDKIT_RETURN_IF_ERROR(ReadProfile((*v)[i], Index("profiles", i), written[i]));
    }
  }

  // Upstream v1 defaulting.
  if (written.empty()) written.emplace_back();
  const bool single = written.size() == 1;
  const framework::ProfilePlugins defaults = DefaultPlugins();
  for (WrittenProfile& w : written) {
    framework::Profile profile;
    // With several profiles a missing name stays empty, for validation to
    // reject.
    profile.scheduler_name = w.scheduler_name.value_or(single ? "default-scheduler" : "");
    profile.percentage_of_nodes_to_score = w.percentage_of_nodes_to_score;
    profile.plugins = MergePlugins(defaults, w.plugins ? &*w.plugins : nullptr);
    profile.plugin_args = std::move(w.plugin_args);
    config.profiles.push_back(std::move(profile));
  }
  return config;
}

}  // namespace schedkit::config::internal
