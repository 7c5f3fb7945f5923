// SchedulerConfiguration: the KubeSchedulerConfiguration
// (kubescheduler.config.k8s.io/v1) that drives a scheduler — profiles with
// their plugin sets and plugin args, percentageOfNodesToScore, parallelism
// and backoff — loaded from JSON or YAML with upstream's defaults applied.
//
//   SCHEDKIT_ASSIGN_OR_RETURN(SchedulerConfiguration cfg, LoadConfiguration("sched.yaml"));
//   cfg.profiles[0].plugins.score.enabled;   // user entries merged into the defaults
//
// Defaulting follows upstream v1: each profile's plugins are the default
// plugin set (DefaultPlugins) merged with the user's (disabled entries removed,
// "*" removing all defaults of a point, enabled entries replacing a default of
// the same name in place or appended). MultiPoint expansion into extension
// points happens later, when the Framework instantiates the plugins.
// Thread-safe: plain values.
#ifndef SCHEDKIT_CONFIG_CONFIGURATION_H_
#define SCHEDKIT_CONFIG_CONFIGURATION_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "schedkit/framework/profile.h"

namespace schedkit::config {

struct SchedulerConfiguration {
  int32_t parallelism = 16;
  // 0 means adaptive (50 − nodes/125 percent, at least 5 %, at least 100 nodes).
  int32_t percentage_of_nodes_to_score = 0;
  int64_t pod_initial_backoff_seconds = 1;
  int64_t pod_max_backoff_seconds = 10;
  std::vector<framework::Profile> profiles;
};

// Upstream v1.35's default plugin set (multiPoint, in order, with weights).
framework::ProfilePlugins DefaultPlugins();

// The configuration an empty KubeSchedulerConfiguration defaults to: one
// "default-scheduler" profile with DefaultPlugins().
SchedulerConfiguration DefaultConfiguration();

// Parses a KubeSchedulerConfiguration document (JSON or YAML), applies
// defaults and validates it. Errors name `source` and the field path
// ("sched.yaml: profiles[1].schedulerName: duplicate value \"x\"").
absl::StatusOr<SchedulerConfiguration> ParseConfiguration(std::string_view text,
                                                          std::string_view source = "<config>");
absl::StatusOr<SchedulerConfiguration> LoadConfiguration(const std::string& path);

// Checks what needs no plugin code: percentages in [0, 100], parallelism > 0,
// backoffs > 0 with max ≥ initial, at least one profile, schedulerNames
// non-empty and unique, score weights in range, one queueSort plugin shared
// by all profiles, pluginConfig names unique per profile. (Unknown plugins and
// plugins enabled at points they do not implement are found when the
// Framework builds a profile against a Registry.)
absl::Status ValidateConfiguration(const SchedulerConfiguration& config);

}  // namespace schedkit::config

#endif  // SCHEDKIT_CONFIG_CONFIGURATION_H_
