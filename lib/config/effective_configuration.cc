// EffectiveConfiguration: the configuration as kube-scheduler prints it for
// --write-config-to and /configz. Upstream converts its internal
// configuration to v1 and encodes it: every pointer the defaulting set is
// written, empty plugin sets as {}, weights as 0 when unset, keys sorted (the
// YAML goes through JSON); each profile is the one its framework captured —
// the merged plugin sets, and the args of the plugins it instantiated,
// sorted by name.
#include <cctype>
#include <cmath>
#include <set>
#include <string>
#include <utility>

#include "api/go_format.h"
#include "config/decode.h"
#include "config/default_plugins.h"
#include "nlohmann/json.hpp"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/config/configuration.h"

namespace schedkit::config {
namespace {

using nlohmann::json;

json PluginList(const std::vector<framework::PluginRef>& refs) {
  json list = json::array();
  for (const framework::PluginRef& r : refs) list.push_back({{"name", r.name}, {"weight", r.weight}});
  return list;
}

json PluginSetJson(const framework::PluginSet& set) {
  json out = json::object();
  if (!set.enabled.empty()) out["enabled"] = PluginList(set.enabled);
  if (!set.disabled.empty()) {
    json list = json::array();
    for (const std::string& name : set.disabled) list.push_back({{"name", name}, {"weight", 0}});
    out["disabled"] = std::move(list);
  }
  return out;
}

// The names enabled at any point: the plugins the profile's framework
// instantiates (upstream's pluginsNeeded).
std::set<std::string> PluginsNeeded(const framework::ProfilePlugins& plugins) {
  std::set<std::string> names;
  for (const internal::ExtensionPoint& p : internal::kExtensionPoints) {
    for (const framework::PluginRef& r : (plugins.*p.set).enabled) names.insert(r.name);
  }
  return names;
}

absl::StatusOr<json> PluginConfigJson(const framework::Profile& profile, const framework::Registry& registry,
                                      const framework::FeatureGates& gates) {
  json list = json::array();
  for (const std::string& name : PluginsNeeded(profile.plugins)) {
    const framework::ArgsDefaulter* defaulted = registry.FindArgs(name);
    auto given = profile.plugin_args.find(name);
    if (defaulted == nullptr && given == profile.plugin_args.end()) continue;
    json args;
    if (defaulted != nullptr) {
      framework::PluginArgs in = given != profile.plugin_args.end() ? given->second : framework::PluginArgs();
      in.set_owner(profile.scheduler_name, name);
      in.set_gates(&gates);
      SCHEDKIT_ASSIGN_OR_RETURN(std::string text, (*defaulted)(in));
      args = json::parse(text);
      args["apiVersion"] = internal::kApiVersion;
      args["kind"] = schedkit::StrCat(name, "Args");
    } else {
      args = json::parse(given->second.json(), nullptr, /*allow_exceptions=*/false);
      if (args.is_discarded()) args = json::object();
    }
    list.push_back({{"name", name}, {"args", std::move(args)}});
  }
  return list;
}

// Go writes a float32 without a fraction when it has none (qps: 50).
json Number(float v) {
  if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < 1e15f) return static_cast<int64_t>(v);
  return static_cast<double>(v);
}

absl::StatusOr<json> ConfigurationJson(const SchedulerConfiguration& c, const framework::Registry& registry,
                                       const framework::FeatureGates& gates) {
  json doc = json::object();
  doc["apiVersion"] = internal::kApiVersion;
  doc["kind"] = internal::kKind;
  const ClientConnection& cc = c.client_connection;
  doc["clientConnection"] = {{"acceptContentTypes", cc.accept_content_types},
                             {"burst", cc.burst},
                             {"contentType", cc.content_type},
                             {"kubeconfig", cc.kubeconfig},
                             {"qps", Number(cc.qps)}};
  const LeaderElection& le = c.leader_election;
  doc["leaderElection"] = {{"leaderElect", le.leader_elect},
                           {"leaseDuration", FormatGoDuration(le.lease_duration)},
                           {"renewDeadline", FormatGoDuration(le.renew_deadline)},
                           {"resourceLock", le.resource_lock},
                           {"resourceName", le.resource_name},
                           {"resourceNamespace", le.resource_namespace},
                           {"retryPeriod", FormatGoDuration(le.retry_period)}};
  doc["enableProfiling"] = c.enable_profiling;
  doc["enableContentionProfiling"] = c.enable_contention_profiling;
  if (c.delay_cache_until_active) doc["delayCacheUntilActive"] = true;
  doc["parallelism"] = c.parallelism;
  doc["percentageOfNodesToScore"] = c.percentage_of_nodes_to_score;
  doc["podInitialBackoffSeconds"] = c.pod_initial_backoff_seconds;
  doc["podMaxBackoffSeconds"] = c.pod_max_backoff_seconds;
  json profiles = json::array();
  for (const framework::Profile& p : c.profiles) {
    json profile = json::object();
    profile["schedulerName"] = p.scheduler_name;
    if (p.percentage_of_nodes_to_score) profile["percentageOfNodesToScore"] = *p.percentage_of_nodes_to_score;
    json plugins = json::object();
    for (const internal::ExtensionPoint& point : internal::kExtensionPoints) {
      plugins[std::string(point.field)] = PluginSetJson(p.plugins.*point.set);
    }
    profile["plugins"] = std::move(plugins);
    SCHEDKIT_ASSIGN_OR_RETURN(json config, PluginConfigJson(p, registry, gates));
    if (!config.empty()) profile["pluginConfig"] = std::move(config);
    profiles.push_back(std::move(profile));
  }
  if (!profiles.empty()) doc["profiles"] = std::move(profiles);
  return doc;
}

// Block YAML for a JSON document: keys in the document's (sorted) order,
// strings double-quoted (JSON's escapes are YAML's), empty maps and lists
// in flow style, as sigs.k8s.io/yaml writes them.
void EmitYaml(const json& v, int indent, std::string& out);

// A key written bare when YAML reads it back as the same string.
std::string Key(const std::string& key) {
  bool bare = !key.empty() && std::isalpha(static_cast<unsigned char>(key[0]));
  for (char ch : key) {
    bare = bare && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.' || ch == '/');
  }
  return bare ? key : json(key).dump();
}

bool IsCollection(const json& v) { return (v.is_object() || v.is_array()) && !v.empty(); }

void EmitScalar(const json& v, std::string& out) {
  if (v.is_object()) {
    out += "{}";
  } else if (v.is_array()) {
    out += "[]";
  } else {
    out += v.dump();
  }
}

void EmitYaml(const json& v, int indent, std::string& out) {
  const std::string pad(indent, ' ');
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) {
      out += pad + Key(it.key()) + ":";
      if (IsCollection(*it)) {
        out += "\n";
        EmitYaml(*it, it->is_array() ? indent : indent + 2, out);
      } else {
        out += " ";
        EmitScalar(*it, out);
        out += "\n";
      }
    }
  } else if (v.is_array()) {
    for (const json& e : v) {
      out += pad + "-";
      if (e.is_object() && !e.empty()) {
        // The first key on the dash's line, the others under it.
        std::string item;
        EmitYaml(e, indent + 2, item);
        out += item.substr(static_cast<size_t>(indent + 1));
      } else if (IsCollection(e)) {
        out += "\n";
        EmitYaml(e, indent + 2, out);
      } else {
        out += " ";
        EmitScalar(e, out);
        out += "\n";
      }
    }
  }
}

}  // namespace

absl::StatusOr<std::string> EffectiveConfiguration(const SchedulerConfiguration& config,
                                                   const framework::Registry& registry,
                                                   const framework::FeatureGates& gates, ConfigFormat format) {
  SCHEDKIT_ASSIGN_OR_RETURN(json doc, ConfigurationJson(config, registry, gates));
  if (format == ConfigFormat::kJson) return doc.dump();
  std::string out;
  EmitYaml(doc, 0, out);
  return out;
}

}  // namespace schedkit::config
