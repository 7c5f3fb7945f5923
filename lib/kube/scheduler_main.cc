// SchedulerMain: upstream's cmd/kube-scheduler/app runCommand and Run, in
// order: flags and configuration, the client, the serving endpoints, the
// informers and WaitForCacheSync, then (after winning the Lease, when
// leaderElection.leaderElect) the scheduling loop until a signal.
#include "schedkit/kube/scheduler_main.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/clock.h"
#include "kube/api_host.h"
#include "kube/event_sink.h"
#include "kube/health_server.h"
#include "kube/informers.h"
#include "kube/lease_elector.h"
#include "kube/log.h"
#include "kube/scheduler_flags.h"
#include "schedkit/api/lister.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/config/configuration.h"
#include "schedkit/framework/feature_gates.h"
#include "schedkit/framework/framework.h"
#include "schedkit/framework/metrics.h"
#include "schedkit/kube/api_client.h"
#include "schedkit/kube/client_config.h"
#include "schedkit/scheduler/scheduler.h"

namespace schedkit::kube {
namespace {

using internal::Log;
using internal::Severity;

// The binary's name, as its users call it: argv[0]'s base name.
std::string ProgramName(int argc, char** argv) {
  if (argc < 1 || argv[0] == nullptr || argv[0][0] == '\0') return "schedkit-kube";
  std::string_view path(argv[0]);
  const size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string program = "schedkit-kube";

int Fail(std::string_view message) {
  std::fprintf(stderr, "%s: %.*s\n", program.c_str(), static_cast<int>(message.size()), message.data());
  return 1;
}
int Fail(const absl::Status& status) { return Fail(std::string(status.message())); }

std::string Hostname() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "localhost";
  return name;
}

// Waits up to `timeout` for SIGTERM or SIGINT (blocked in every thread);
// true when one came.
bool WaitForSignal(const sigset_t& signals, absl::Duration timeout) {
  const timespec ts = absl::ToTimespec(timeout);
  for (;;) {
    const int sig = sigtimedwait(&signals, nullptr, &ts);
    if (sig > 0) return true;
    if (errno != EINTR) return false;
  }
}

}  // namespace

int SchedulerMain(int argc, char** argv, const framework::Registry& registry) {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  program = ProgramName(argc, argv);
  std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  auto flags = internal::ParseSchedulerFlags(args, program);
  if (!flags.ok()) return Fail(flags.status());
  if (flags->help) {
    std::fputs(internal::SchedulerFlagsUsage(program).c_str(), stdout);
    return 0;
  }
  if (flags->version) {
    std::fputs(internal::SchedulerVersion().c_str(), stdout);
    return 0;
  }
  internal::SetLogVerbosity(flags->verbosity);
  framework::FeatureGates gates;
  for (const std::string& g : flags->feature_gates) {
    if (absl::Status s = gates.Set(g); !s.ok()) return Fail(s);
  }
  if (absl::Status s = framework::CheckModeled(gates); !s.ok()) return Fail(s);
  for (const std::string& w : gates.warnings()) Log(Severity::kWarning, "server", w);

  absl::StatusOr<config::SchedulerConfiguration> cfg =
      flags->config.empty() ? absl::StatusOr<config::SchedulerConfiguration>(config::DefaultConfiguration())
                            : config::LoadConfiguration(flags->config);
  if (!cfg.ok()) return Fail(cfg.status());
  internal::ApplyFlags(*flags, *cfg);
  // Build every profile's plugins once, as kube-scheduler does before it
  // connects: bad plugin args are reported without a cluster.
  framework::FrameworkOptions build_options;
  build_options.feature_gates = &gates;
  for (const framework::Profile& profile : cfg->profiles) {
    auto built = framework::Framework::Create(registry, profile, build_options);
    if (!built.ok()) return Fail(built.status());
  }
  const config::LeaderElection& election = cfg->leader_election;
  internal::LeaseElectorOptions lease;
  if (election.leader_elect) {
    if (election.resource_lock != "leases") {
      return Fail(schedkit::StrCat("leaderElection.resourceLock: Unsupported value: \"", election.resource_lock,
                                   "\": supported values: \"leases\""));
    }
    lease.lease_namespace = election.resource_namespace;
    lease.lease_name = election.resource_name;
    lease.identity = internal::NewLeaseIdentity(Hostname());
    lease.lease_duration = election.lease_duration;
    lease.renew_deadline = election.renew_deadline;
    lease.retry_period = election.retry_period;
    if (absl::Status s = internal::ValidateLeaseElectorOptions(lease); !s.ok()) return Fail(s);
  }

  auto client_config = BuildClientConfig(flags->master, cfg->client_connection.kubeconfig, ProcessEnv());
  if (!client_config.ok()) return Fail(client_config.status());
  client_config->qps = cfg->client_connection.qps;
  client_config->burst = cfg->client_connection.burst;
  client_config->user_agent = schedkit::StrCat(program, "/scheduler");
  auto client = ApiClient::Create(*client_config);
  if (!client.ok()) return Fail(client.status());
  // Events have their own client and so their own rate limit, as upstream's.
  ClientConfig events_config = *client_config;
  events_config.user_agent = schedkit::StrCat(program, "/events");
  auto events_client = ApiClient::Create(events_config);
  if (!events_client.ok()) return Fail(events_client.status());
  // So does the election, so that no burst of binds delays a renewal.
  ClientConfig election_config = *client_config;
  election_config.user_agent = schedkit::StrCat(program, "/leader-election");
  auto election_client = ApiClient::Create(election_config);
  if (!election_client.ok()) return Fail(election_client.status());
  std::unique_ptr<internal::LeaseElector> elector;
  if (election.leader_elect) elector = std::make_unique<internal::LeaseElector>(**election_client, lease);

  // As kube-scheduler: written once the clients are built, before the
  // server is reached.
  if (!flags->write_config_to.empty()) {
    auto yaml = config::EffectiveConfiguration(*cfg, registry, gates, config::ConfigFormat::kYaml);
    if (!yaml.ok()) return Fail(yaml.status());
    std::ofstream out(flags->write_config_to, std::ios::binary | std::ios::trunc);
    out << *yaml;
    out.close();
    if (!out) return Fail(schedkit::StrCat("--write-config-to ", flags->write_config_to, ": cannot write the file"));
    Log(Severity::kInfo, "server", schedkit::StrCat("Wrote configuration to ", flags->write_config_to));
    return 0;
  }

  // What /configz serves; the profiles above built, so this cannot fail on
  // their args.
  auto effective = config::EffectiveConfiguration(*cfg, registry, gates, config::ConfigFormat::kJson);
  if (!effective.ok()) return Fail(effective.status());

  // Reach the server once before anything else: a wrong CA, a refused
  // credential or an unreachable address ends here, with nothing written.
  auto version = (*client)->Do("GET", "/version", "", "application/json", absl::Seconds(10));
  if (!version.ok()) {
    return Fail(schedkit::StrCat("cannot reach the API server (", client_config->origin,
                                 "): ", version.status().message()));
  }
  Log(Severity::kInfo, "server",
      schedkit::StrCat("Starting Kubernetes Scheduler (schedkit), API server ", client_config->server, " (",
                       client_config->origin, ")"));

  framework::PrometheusRecorder metrics;
  internal::EventSinkOptions event_options;
  event_options.hostname = Hostname();
  internal::EventSink events(**events_client, event_options);
  internal::ApiHost host(**client, &events);
  const api::StaticClusterLister empty;
  scheduler::SchedulerOptions options;
  options.metrics = &metrics;
  options.tie_break =
      flags->tie_break == "name" ? framework::TieBreak::kLowestName : framework::TieBreak::kRandom;
  options.seed = flags->seed;
  // Each binding waits for the API server's answer; upstream runs them all
  // at once on goroutines, 32 threads come close under its rate limit.
  options.binding_threads = 32;
  // Nothing is written unless this process leads.
  options.leader = elector.get();
  options.feature_gates = gates;
  auto sched = scheduler::Scheduler::Create(*cfg, registry, host, empty, options);
  if (!sched.ok()) return Fail(sched.status());

  std::set<std::string> profiles;
  for (const framework::Profile& p : cfg->profiles) profiles.insert(p.scheduler_name);
  internal::SchedulerInformers informers(**client, **sched, profiles);

  std::atomic<bool> synced{false};
  std::atomic<bool> shutting_down{false};
  std::mutex run_mu;  // orders the election's start of the scheduler against shutdown
  internal::HealthServerOptions serving;
  serving.bind_address = flags->bind_address;
  serving.secure_port = flags->secure_port;
  serving.tls_cert_file = flags->tls_cert_file;
  serving.tls_private_key_file = flags->tls_private_key_file;
  serving.http_port = flags->http_port;
  const internal::HealthCheck ping{"ping", [] { return absl::OkStatus(); }};
  const internal::HealthCheck log{"log", [] { return absl::OkStatus(); }};
  serving.livez = {ping};
  serving.healthz = {ping, log};
  serving.readyz = {ping, log};
  if (elector != nullptr) {
    // upstream's HealthzAdaptor with kube-scheduler's 20 s tolerance: a
    // leader whose lease went unrenewed that much longer is unhealthy.
    const internal::HealthCheck watchdog{"leaderElection", [&elector] { return elector->Check(absl::Seconds(20)); }};
    serving.healthz.push_back(watchdog);
    serving.readyz.push_back(watchdog);
  }
  serving.readyz.insert(serving.readyz.end(), {
                    {"shutdown",
                     [&] {
                       return shutting_down.load() ? absl::UnavailableError("process is shutting down")
                                                   : absl::OkStatus();
                     }},
                    {"sched-handler-sync", [&] {
                       return synced.load() ? absl::OkStatus()
                                            : absl::UnavailableError("waiting for handlers to sync");
                     }}});
  serving.configz = [doc = schedkit::StrCat("{\"componentconfig\":", *effective, "}")] { return doc; };
  serving.metrics = [&metrics, &elector, &lease] {
    std::string text = metrics.Render();
    if (elector != nullptr) {
      // client-go's leader-election gauge, as kube-scheduler exports it.
      schedkit::StrAppend(&text,
                          "# HELP leader_election_master_status [ALPHA] Gauge of if the reporting system is master of "
                          "the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to "
                          "identify the lease. Please make sure to group by name.\n"
                          "# TYPE leader_election_master_status gauge\n"
                          "leader_election_master_status{name=\"",
                          lease.lease_name, "\"} ", elector->IsLeader() ? 1 : 0, "\n");
    }
    return text;
  };
  auto server = internal::HealthServer::Start(std::move(serving));
  if (!server.ok()) return Fail(server.status());

  informers.Start();
  bool stopped = false;
  while (!informers.WaitForCacheSync(absl::Milliseconds(200))) {
    if (WaitForSignal(signals, absl::ZeroDuration())) {
      stopped = true;
      break;
    }
  }
  std::thread election_thread;
  if (!stopped) {
    synced = true;
    if (elector == nullptr) {
      Log(Severity::kInfo, "server", "caches synced; scheduling");
      (*sched)->Run();
    } else {
      Log(Severity::kInfo, "server",
          schedkit::StrCat("caches synced; campaigning for lease ", lease.lease_namespace, "/", lease.lease_name,
                           " as ", lease.identity));
      // A standby keeps its caches warm and writes nothing. A leader that
      // loses exits at once, as upstream's: its state is stale, its
      // in-flight writes are fenced, and a restart gives a clean cache.
      // As upstream, the election's event names the first profile's
      // scheduler as its source.
      const std::string component =
          cfg->profiles.empty() ? std::string("default-scheduler") : cfg->profiles.front().scheduler_name;
      election_thread = std::thread([&elector, &sched, &run_mu, &shutting_down, &events, &lease, component] {
        absl::Status status = elector->Run([&] {
          std::lock_guard<std::mutex> lock(run_mu);
          if (shutting_down.load()) return;
          const auto [uid, version] = elector->LeaseUidAndVersion();
          events.RecordLeaseEvent({lease.lease_namespace, lease.lease_name, uid, version, component,
                                   schedkit::StrCat(lease.identity, " became leader")});
          (*sched)->Run();
        });
        if (!status.ok()) {
          Log(Severity::kError, "server", std::string(status.message()));
          std::fflush(stderr);
          std::_Exit(1);
        }
      });
    }
    while (!WaitForSignal(signals, absl::Seconds(1))) {
    }
  }
  Log(Severity::kInfo, "server", "Requested to terminate, exiting");
  {
    // After this the election cannot start the scheduler any more.
    std::lock_guard<std::mutex> lock(run_mu);
    shutting_down = true;
  }
  // Drain the scheduler and the events while still leading, and only then
  // give the Lease up: a standby that takes over at once must not meet a
  // binding of ours still in flight.
  (*sched)->Stop();
  events.Stop(absl::Seconds(2));
  if (elector != nullptr) {
    elector->Stop();
    if (election_thread.joinable()) election_thread.join();
  }
  informers.Stop();
  (*server)->Stop();
  return 0;
}

}  // namespace schedkit::kube
