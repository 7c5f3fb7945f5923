// Internal: kube-scheduler's command line, as its pflag flags read it
// (--name=value, --name value, bare bool flags, -v=N), for the flags that
// apply to schedkit-kube, and how they combine with the configuration file
// (upstream's Options.ApplyTo): with --config the file wins except for
// --master and the --leader-elect* flags; without it the deprecated
// --kubeconfig and --kube-api-* flags fill clientConnection.
#ifndef SCHEDKIT_LIB_KUBE_SCHEDULER_FLAGS_H_
#define SCHEDKIT_LIB_KUBE_SCHEDULER_FLAGS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "schedkit/config/configuration.h"

namespace schedkit::kube::internal {

struct SchedulerFlags {
  std::string config;
  // Write the effective configuration (config::EffectiveConfiguration) to
  // this file and exit, once the client is built, as kube-scheduler does.
  std::string write_config_to;
  std::string master;
  // Health and metrics: HTTPS on bind_address:secure_port (0 turns it
  // off), with a self-signed certificate unless the files are given; and
  // schedkit's plain-HTTP listener for loopback probes and tests
  // (--http-port, off when 0).
  std::string bind_address = "0.0.0.0";
  int secure_port = 10259;
  std::string tls_cert_file;
  std::string tls_private_key_file;
  int http_port = 0;
  int verbosity = 0;
  bool help = false;
  // Print the version (kube-scheduler's "Kubernetes vX.Y.Z", the release
  // whose decisions schedkit reproduces, then schedkit's own) and exit.
  bool version = false;
  // schedkit's, for reproducible runs (tests, comparisons with
  // schedkit-sim): how ties between top-scoring nodes break ("random" as
  // upstream, or "name": the lowest node name) and the seed of the random
  // choices (0: a random seed).
  std::string tie_break = "random";
  uint64_t seed = 0;
  // Set only when given on the command line.
  std::optional<std::string> kubeconfig;
  // Each --feature-gates flag's value, in order (framework::FeatureGates::Set).
  std::vector<std::string> feature_gates;
  std::optional<float> kube_api_qps;
  std::optional<int> kube_api_burst;
  std::optional<std::string> kube_api_content_type;
  std::optional<bool> leader_elect;
  std::optional<absl::Duration> lease_duration;
  std::optional<absl::Duration> renew_deadline;
  std::optional<absl::Duration> retry_period;
  std::optional<std::string> resource_lock;
  std::optional<std::string> resource_name;
  std::optional<std::string> resource_namespace;
};

// `args` without the program name. InvalidArgument naming the flag for an
// unknown flag, a missing or bad value, or a stray argument.
// `program` names the binary in messages (its argv[0] base name).
absl::StatusOr<SchedulerFlags> ParseSchedulerFlags(const std::vector<std::string>& args,
                                                   std::string_view program = "schedkit-kube");

// The flags' part of the configuration, applied to `config` (read from
// --config, or the defaults) as upstream's ApplyDeprecated and
// ApplyLeaderElectionTo do.
void ApplyFlags(const SchedulerFlags& flags, config::SchedulerConfiguration& config);

// What --help prints.
std::string SchedulerFlagsUsage(std::string_view program = "schedkit-kube");

// What --version prints: "Kubernetes v1.37.2 (schedkit 0.3.0)\n", the
// release whose decisions schedkit reproduces first, as kube-scheduler
// prints its own.
std::string SchedulerVersion();

}  // namespace schedkit::kube::internal

#endif  // SCHEDKIT_LIB_KUBE_SCHEDULER_FLAGS_H_
