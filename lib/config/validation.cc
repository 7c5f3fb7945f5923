// ValidateConfiguration: upstream's ValidateKubeSchedulerConfiguration for
// the parts schedkit keeps, plus the score-weight checks that upstream makes
// when it builds a profile's Framework. Error texts follow upstream's field
// errors ("<path>: Invalid value: <v>: <detail>", "<path>: Required value").

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_join.h"
#include "api/go_format.h"
#include "config/decode.h"
#include "config/default_plugins.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/config/configuration.h"

namespace schedkit::config {
namespace {

using framework::PluginRef;
using framework::PluginSet;
using framework::Profile;

// Upstream's MaxNodeScore: a score plugin's weight multiplies scores of at
// most this much.
constexpr int64_t kMaxNodeScore = 100;

// Plugins removed from kube-scheduler by v1 (in-tree volume limits).
constexpr std::string_view kRemovedPlugins[] = {"AzureDiskLimits", "CinderLimits", "EBSLimits",
                                                "GCEPDLimits"};

bool IsRemovedPlugin(std::string_view name) {
  for (std::string_view removed : kRemovedPlugins) {
    if (name == removed) return true;
  }
  return false;
}

std::string RemovedPluginDetail() {
  return schedkit::StrCat("was invalid in version \"", internal::kApiVersion,
                          "\" (KubeSchedulerConfiguration is version \"", internal::kApiVersion, "\")");
}

// A plugin set written compactly, for "must be the same" errors.
std::string Describe(const PluginSet& set) {
  std::vector<std::string> enabled;
  for (const PluginRef& p : set.enabled) {
    enabled.push_back(p.weight == 0 ? p.name : schedkit::StrCat(p.name, "(weight ", p.weight, ")"));
  }
  return schedkit::StrCat("{enabled: [", absl::StrJoin(enabled, ", "), "], disabled: [",
                          absl::StrJoin(set.disabled, ", "), "]}");
}

class Validator {
 public:
  std::vector<std::string> Run(const SchedulerConfiguration& config) {
    if (config.parallelism <= 0) {
      Invalid("parallelism", config.parallelism, "should be an integer value greater than zero");
    }
    if (config.profiles.empty()) {
      errors_.push_back("profiles: Required value");
    } else {
      std::unordered_map<std::string, size_t> seen_names;
      for (size_t i = 0; i < config.profiles.size(); ++i) {
        const Profile& profile = config.profiles[i];
        const std::string path = schedkit::StrCat("profiles[", i, "]");
        ValidateProfile(profile, path);
        if (seen_names.contains(profile.scheduler_name)) {
          errors_.push_back(
              schedkit::StrCat(path, ".schedulerName: Duplicate value: ", GoQuote(profile.scheduler_name)));
        }
        seen_names[profile.scheduler_name] = i;
      }
      ValidateCommonQueueSort(config.profiles);
    }
    ValidatePercentage("percentageOfNodesToScore", config.percentage_of_nodes_to_score);
    if (config.pod_initial_backoff_seconds <= 0) {
      Invalid("podInitialBackoffSeconds", config.pod_initial_backoff_seconds, "must be greater than 0");
    }
    if (config.pod_max_backoff_seconds < config.pod_initial_backoff_seconds) {
      Invalid("podMaxBackoffSeconds", config.pod_max_backoff_seconds,
              "must be greater than or equal to PodInitialBackoffSeconds");
    }
    return std::move(errors_);
  }

 private:
  void Invalid(std::string_view path, int64_t value, std::string_view detail) {
    errors_.push_back(schedkit::StrCat(path, ": Invalid value: ", value, ": ", detail));
  }

  void ValidatePercentage(std::string_view path, int32_t value) {
    if (value < 0 || value > 100) Invalid(path, value, "not in valid range [0-100]");
  }

  void ValidateProfile(const Profile& profile, const std::string& path) {
    if (profile.scheduler_name.empty())
      errors_.push_back(schedkit::StrCat(path, ".schedulerName: Required value"));
    if (profile.percentage_of_nodes_to_score) {
      ValidatePercentage(schedkit::StrCat(path, ".percentageOfNodesToScore"),
                         *profile.percentage_of_nodes_to_score);
    }
    // Upstream checks removed plugins at every point but multiPoint.
    for (const internal::ExtensionPoint& point : internal::kExtensionPoints) {
      if (point.field == "multiPoint") continue;
      const PluginSet& set = profile.plugins.*point.set;
      for (size_t j = 0; j < set.enabled.size(); ++j) {
        if (IsRemovedPlugin(set.enabled[j].name)) {
          errors_.push_back(schedkit::StrCat(path, ".plugins.", point.field, ".enabled[", j,
                                             "]: Invalid value: ", GoQuote(set.enabled[j].name), ": ",
                                             RemovedPluginDetail()));
        }
      }
    }
    for (const auto& [name, args] : profile.plugin_args) {
      if (IsRemovedPlugin(name)) {
        errors_.push_back(schedkit::StrCat(path, ".pluginConfig: Invalid value: ", GoQuote(name), ": ",
                                           RemovedPluginDetail()));
      }
    }
    ValidateScoreWeights(profile, path);
  }

  // Upstream accepts any int32 weight in the configuration; only when it
  // builds the Framework does it count 0 as 1 and reject a total
  // (weight × MaxNodeScore summed over Score plugins) past int64. schedkit
  // also rejects negative weights, which would turn a preference around.
  void ValidateScoreWeights(const Profile& profile, const std::string& path) {
    const std::pair<std::string_view, const PluginSet*> weighted_points[] = {
        {"score", &profile.plugins.score}, {"multiPoint", &profile.plugins.multi_point}};
    for (const auto& [field, set] : weighted_points) {
      for (size_t j = 0; j < set->enabled.size(); ++j) {
        if (set->enabled[j].weight < 0) {
          Invalid(schedkit::StrCat(path, ".plugins.", field, ".enabled[", j, "].weight"),
                  set->enabled[j].weight, "must not be negative");
        }
      }
    }
    // Like upstream: score entries first, then multiPoint, the first weight
    // seen for a name wins. Which plugins implement Score is unknown here,
    // so every entry counts; with int32 weights the limit needs tens of
    // millions of entries, so this guards the arithmetic rather than users.
    std::unordered_set<std::string_view> counted;
    int64_t total = 0;
    for (const PluginSet* set : {&profile.plugins.score, &profile.plugins.multi_point}) {
      for (const PluginRef& p : set->enabled) {
        if (!counted.insert(p.name).second || p.weight < 0) continue;
        const int64_t weighted = (p.weight == 0 ? 1 : p.weight) * kMaxNodeScore;
        if (weighted > std::numeric_limits<int64_t>::max() - total) {
          errors_.push_back(schedkit::StrCat(path, ".plugins: total score of Score plugins could overflow"));
          return;
        }
        total += weighted;
      }
    }
  }

  // All profiles must name the same queueSort set (explicitly; multiPoint
  // expansion is checked when the Framework builds the profiles) and give
  // its plugin the same args.
  void ValidateCommonQueueSort(const std::vector<Profile>& profiles) {
    const PluginSet& canon = profiles[0].plugins.queue_sort;
    if (canon.enabled.size() > 1) {
      Invalid("profiles[0].plugins.queueSort.enabled", static_cast<int64_t>(canon.enabled.size()),
              "only one queue sort plugin can be enabled");
    }
    std::string queue_sort;
    std::optional<std::string> queue_sort_args;
    if (!canon.enabled.empty()) {
      queue_sort = canon.enabled[0].name;
      if (auto it = profiles[0].plugin_args.find(queue_sort); it != profiles[0].plugin_args.end()) {
        queue_sort_args = it->second.json();
      }
    }
    for (size_t i = 1; i < profiles.size(); ++i) {
      const PluginSet& current = profiles[i].plugins.queue_sort;
      if (current != canon) {
        errors_.push_back(schedkit::StrCat("profiles[", i, "].plugins.queueSort: Invalid value: ",
                                           Describe(current), ": must be the same for all profiles"));
      }
      if (queue_sort.empty()) continue;
      if (auto it = profiles[i].plugin_args.find(queue_sort);
          it != profiles[i].plugin_args.end() && it->second.json() != queue_sort_args) {
        errors_.push_back(schedkit::StrCat("profiles[", i, "].pluginConfig.args: Invalid value: ", it->second.json(),
                                           ": queueSort must be the same for all profiles"));
      }
    }
  }

  std::vector<std::string> errors_;
};

}  // namespace

absl::Status ValidateConfiguration(const SchedulerConfiguration& config) {
  std::vector<std::string> errors = Validator().Run(config);
  if (errors.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrJoin(errors, "; "));
}

}  // namespace schedkit::config
