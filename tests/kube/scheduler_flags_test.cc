// kube-scheduler's command line as schedkit-kube reads it, and how the flags
// combine with --config (upstream's Options.ApplyTo).
#include "kube/scheduler_flags.h"

#include <catch2/catch.hpp>

#include <string>

#include "schedkit/base/upstream_version.h"

namespace schedkit::kube::internal {
namespace {

TEST_CASE("the version flag names the upstream release first, as kube-scheduler prints its own", "[kube][flags]") {
  CHECK(ParseSchedulerFlags({"--version"})->version);
  CHECK_FALSE(ParseSchedulerFlags({})->version);
  CHECK(SchedulerVersion() == std::string("Kubernetes ") + std::string(schedkit::kUpstreamVersion) + " (schedkit " +
                                  SCHEDKIT_TEST_VERSION + ")\n");
}

TEST_CASE("ParseSchedulerFlags reads pflag's forms", "[kube][flags]") {
  auto f = ParseSchedulerFlags({"--config=/etc/s.yaml", "--kubeconfig", "/k", "--leader-elect=false", "-v=4",
                                "--secure-port", "0", "--bind-address=127.0.0.1", "--http-port=10251",
                                "--leader-elect-lease-duration=20s", "--master", "https://a:6443"});
  REQUIRE(f.ok());
  CHECK(f->config == "/etc/s.yaml");
  CHECK(f->kubeconfig == "/k");
  CHECK(f->leader_elect == false);
  CHECK(f->verbosity == 4);
  CHECK(f->secure_port == 0);
  CHECK(f->bind_address == "127.0.0.1");
  CHECK(f->http_port == 10251);
  CHECK(f->lease_duration == absl::Seconds(20));
  CHECK(f->master == "https://a:6443");

  auto bare = ParseSchedulerFlags({"--leader-elect", "--v", "2"});
  REQUIRE(bare.ok());
  CHECK(bare->leader_elect == true);
  CHECK(bare->verbosity == 2);
  CHECK(ParseSchedulerFlags({"-h"})->help);
  auto repro = ParseSchedulerFlags({"--tie-break=name", "--seed", "7"});
  REQUIRE(repro.ok());
  CHECK(repro->tie_break == "name");
  CHECK(repro->seed == 7);
  CHECK(ParseSchedulerFlags({"--tie-break=coin"}).status().message() ==
        "invalid argument \"coin\" for \"--tie-break\" flag: not one of its values (see --help)");
  // Upstream's defaults.
  auto none = ParseSchedulerFlags({});
  REQUIRE(none.ok());
  CHECK(none->secure_port == 10259);
  CHECK(none->bind_address == "0.0.0.0");
  CHECK_FALSE(none->leader_elect.has_value());
}

TEST_CASE("ParseSchedulerFlags names the flag it cannot take", "[kube][flags][errors]") {
  CHECK(ParseSchedulerFlags({"--kubeconfg=/k"}).status().message() == "unknown flag: --kubeconfg");
  CHECK(ParseSchedulerFlags({"--config"}).status().message() == "flag needs an argument: --config");
  CHECK(ParseSchedulerFlags({"--secure-port=high"}).status().message() ==
        "invalid argument \"high\" for \"--secure-port\" flag: not a valid int");
  CHECK(ParseSchedulerFlags({"--leader-elect-renew-deadline=soon"}).status().message() ==
        "invalid argument \"soon\" for \"--leader-elect-renew-deadline\" flag: not a valid duration");
  CHECK(ParseSchedulerFlags({"stray"}).status().message() ==
        "unexpected argument \"stray\": schedkit-kube takes only flags");
}

TEST_CASE("ApplyFlags: --config wins over the deprecated flags, not over --leader-elect*", "[kube][flags]") {
  SchedulerFlags flags;
  flags.kubeconfig = "/from/flag";
  flags.kube_api_qps = 500;
  flags.leader_elect = false;
  flags.resource_name = "mine";

  config::SchedulerConfiguration no_file = config::DefaultConfiguration();
  ApplyFlags(flags, no_file);
  CHECK(no_file.client_connection.kubeconfig == "/from/flag");
  CHECK(no_file.client_connection.qps == 500);
  CHECK_FALSE(no_file.leader_election.leader_elect);
  CHECK(no_file.leader_election.resource_name == "mine");

  flags.config = "/etc/s.yaml";
  config::SchedulerConfiguration from_file = config::DefaultConfiguration();
  from_file.client_connection.kubeconfig = "/from/file";
  ApplyFlags(flags, from_file);
  CHECK(from_file.client_connection.kubeconfig == "/from/file");
  CHECK(from_file.client_connection.qps == 50);
  CHECK_FALSE(from_file.leader_election.leader_elect);
  CHECK(from_file.leader_election.resource_name == "mine");
}

}  // namespace
}  // namespace schedkit::kube::internal
