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
#include "absl/time/time.h"
#include "schedkit/framework/feature_gates.h"
#include "schedkit/framework/profile.h"
#include "schedkit/framework/registry.h"

namespace schedkit::config {

// clientConnection: how a kube-scheduler reaches its API server (used by
// schedkit::kube; the in-memory scheduler ignores it). Upstream's v1
// defaults.
struct ClientConnection {
  // Empty: --kubeconfig, in-cluster, then KUBECONFIG.
  std::string kubeconfig;
  std::string accept_content_types;
  std::string content_type = "application/vnd.kubernetes.protobuf";
  float qps = 50;
  int32_t burst = 100;
};

// leaderElection (component-base's LeaderElectionConfiguration), with the
// scheduler's v1 defaults.
struct LeaderElection {
  bool leader_elect = true;
  absl::Duration lease_duration = absl::Seconds(15);
  absl::Duration renew_deadline = absl::Seconds(10);
  absl::Duration retry_period = absl::Seconds(2);
  std::string resource_lock = "leases";
  std::string resource_name = "kube-scheduler";
  std::string resource_namespace = "kube-system";
};

struct SchedulerConfiguration {
  int32_t parallelism = 16;
  // 0 means adaptive (50 − nodes/125 percent, at least 5 %, at least 100 nodes).
  int32_t percentage_of_nodes_to_score = 0;
  int64_t pod_initial_backoff_seconds = 1;
  int64_t pod_max_backoff_seconds = 10;
  std::vector<framework::Profile> profiles;
  ClientConnection client_connection;
  LeaderElection leader_election;
  // Read and written back (EffectiveConfiguration); schedkit serves no
  // profiling endpoints and starts its informers as upstream does.
  bool enable_profiling = true;
  bool enable_contention_profiling = true;
  bool delay_cache_until_active = false;
};

// Upstream v1.37's default plugin set (multiPoint, in order, with weights),
// with the feature gates at their v1.37 defaults: DynamicResources (weight 2)
// sits before DefaultPreemption, NodeDeclaredFeatures comes last; the
// workload plugins (GangScheduling, ...) are absent.
framework::ProfilePlugins DefaultPlugins();

// The configuration an empty KubeSchedulerConfiguration defaults to: one
// "default-scheduler" profile with DefaultPlugins().
SchedulerConfiguration DefaultConfiguration();

// The default configuration with NodeResourcesFit scoring MostAllocated (bin
// packing): what upstream's former ClusterAutoscalerProvider selected, for
// clusters that scale nodes down when they empty.
SchedulerConfiguration MostAllocatedConfiguration();

// Parses a KubeSchedulerConfiguration document (JSON or YAML), applies
// defaults and validates it. apiVersion and kind are optional but must be
// kubescheduler.config.k8s.io/v1 and KubeSchedulerConfiguration when given;
// an empty document is DefaultConfiguration(). YAML scalars are typed as
// kube-scheduler types them (`10` a number, `"10"` a string), which matters
// for pluginConfig args, kept as compact JSON text in Profile::plugin_args.
// leaderElection and clientConnection are read (durations as Go writes
// them, "15s"), and so are enableProfiling, enableContentionProfiling and
// delayCacheUntilActive (kept for EffectiveConfiguration); a non-empty
// extenders list is an error, and so is a plugin enabled at one of
// workload-aware scheduling's points (placementGenerate, placementScore,
// podGroupPostFilter), which schedkit does not model yet. Errors are
// InvalidArgument naming `source` and the field path
// ("sched.yaml: profiles[1].schedulerName: Duplicate value: \"x\"");
// unknown fields are errors, and validation errors are all reported, "; "-joined.
absl::StatusOr<SchedulerConfiguration> ParseConfiguration(std::string_view text,
                                                          std::string_view source = "<config>");
absl::StatusOr<SchedulerConfiguration> LoadConfiguration(const std::string& path);

// The configuration as kube-scheduler writes it with --write-config-to
// (YAML) and serves it at /configz (JSON, under "componentconfig"): v1,
// every default filled in, each profile's plugins as merged with the
// default set, and its pluginConfig the args of every plugin the profile
// runs, sorted by plugin name — defaulted for the plugins whose args are a
// kind of their own (Registry::Add with an ArgsDefaulter, with apiVersion
// and kind), as given for the others. Errors are the plugins' args errors.
enum class ConfigFormat { kYaml, kJson };
absl::StatusOr<std::string> EffectiveConfiguration(const SchedulerConfiguration& config,
                                                   const framework::Registry& registry,
                                                   const framework::FeatureGates& gates,
                                                   ConfigFormat format = ConfigFormat::kYaml);

// Checks what needs no plugin code: percentages in [0, 100], parallelism > 0,
// backoffs > 0 with max ≥ initial, at least one profile, schedulerNames
// non-empty and unique, score/multiPoint weights not negative (a schedkit
// rule; upstream accepts them) and their total × 100 within int64, the same
// explicit queueSort set and queueSort args in all profiles, no plugins
// removed by v1 (EBSLimits, GCEPDLimits, AzureDiskLimits, CinderLimits).
// pluginConfig names given twice are rejected by ParseConfiguration, as
// plugin_args cannot hold them. (Unknown plugins, plugins enabled at points
// they do not implement and plugin args are checked when the Framework
// builds a profile against a Registry.)
absl::Status ValidateConfiguration(const SchedulerConfiguration& config);

}  // namespace schedkit::config

#endif  // SCHEDKIT_CONFIG_CONFIGURATION_H_
