#include "kube/scheduler_flags.h"

#include <functional>
#include <string_view>

#include "absl/strings/numbers.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/base/upstream_version.h"

namespace schedkit::kube::internal {
namespace {

enum class Kind { kString, kInt, kFloat, kBool, kDuration };

// Parses and stores a flag's value; false when it does not parse.
using Setter = std::function<bool(SchedulerFlags&, const std::string&)>;

struct Flag {
  std::string_view name;
  Kind kind;
  std::string_view help;
  Setter set;
};

template <typename T>
Setter String(T SchedulerFlags::*field) {
  return [field](SchedulerFlags& f, const std::string& v) {
    f.*field = v;
    return true;
  };
}

Setter Int(int SchedulerFlags::*field) {
  return [field](SchedulerFlags& f, const std::string& v) { return absl::SimpleAtoi(v, &(f.*field)); };
}

Setter OptionalInt(std::optional<int> SchedulerFlags::*field) {
  return [field](SchedulerFlags& f, const std::string& v) {
    int n = 0;
    if (!absl::SimpleAtoi(v, &n)) return false;
    f.*field = n;
    return true;
  };
}

Setter OptionalBool(std::optional<bool> SchedulerFlags::*field) {
  return [field](SchedulerFlags& f, const std::string& v) {
    bool b = false;
    if (!absl::SimpleAtob(v, &b)) return false;
    f.*field = b;
    return true;
  };
}

Setter OptionalDuration(
    std::optional<absl::Duration> SchedulerFlags::*field) {
  return [field](SchedulerFlags& f, const std::string& v) {
    absl::Duration d;
    if (!absl::ParseDuration(v, &d)) return false;
    f.*field = d;
    return true;
  };
}

const std::vector<Flag>& Flags() {
  static const auto* flags = new std::vector<Flag>{
      {"config", Kind::kString,
       "The path to the configuration file.",
       String(&SchedulerFlags::config)},
      {"write-config-to", Kind::kString,
       "If set, write the configuration values to this file and exit.",
       String(&SchedulerFlags::write_config_to)},
      {"feature-gates", Kind::kString,
       "A set of key=value pairs that describe feature gates for alpha/experimental features (repeatable; "
       "a gate the scheduler reads stays at its default unless schedkit models it).",
       [](SchedulerFlags& f, const std::string& v) {
         f.feature_gates.push_back(v);
         return true;
       }},
      {"master", Kind::kString,
       "The address of the Kubernetes API server (overrides any value in kubeconfig)",
       String(&SchedulerFlags::master)},
      {"kubeconfig", Kind::kString,
       "DEPRECATED: path to kubeconfig file with authorization and master location information. This"
       " parameter is ignored if a config file is specified in --config.",
       String(&SchedulerFlags::kubeconfig)},
      {"kube-api-qps", Kind::kFloat,
       "DEPRECATED: QPS to use while talking with kubernetes apiserver (ignored with --config).",
       [](SchedulerFlags& f, const std::string& v) {
         float q = 0;
         if (!absl::SimpleAtof(v, &q)) return false;
         f.kube_api_qps = q;
         return true;
       }},
      {"kube-api-burst", Kind::kInt,
       "DEPRECATED: burst to use while talking with kubernetes apiserver (ignored with --config).",
       OptionalInt(&SchedulerFlags::kube_api_burst)},
      {"kube-api-content-type", Kind::kString,
       "DEPRECATED: content type of requests sent to apiserver (ignored with --config).",
       String(&SchedulerFlags::kube_api_content_type)},
      {"bind-address", Kind::kString,
       "The IP address on which to listen for the --secure-port port.",
       String(&SchedulerFlags::bind_address)},
      {"secure-port", Kind::kInt,
       "The port on which to serve HTTPS with authentication and authorization. If 0, don't serve "
       "HTTPS at all.",
       Int(&SchedulerFlags::secure_port)},
      {"tls-cert-file", Kind::kString,
       "File containing the default x509 certificate for HTTPS; without it a self-signed certificate"
       " is generated.",
       String(&SchedulerFlags::tls_cert_file)},
      {"tls-private-key-file", Kind::kString,
       "File containing the default x509 private key matching --tls-cert-file.",
       String(&SchedulerFlags::tls_private_key_file)},
      {"http-port", Kind::kInt,
       "schedkit: also serve /healthz, /livez, /readyz and /metrics over plain HTTP on "
       "--bind-address at this port (0: off).",
       Int(&SchedulerFlags::http_port)},
      {"v", Kind::kInt,
       "number for the log level verbosity",
       Int(&SchedulerFlags::verbosity)},
      {"tie-break", Kind::kString,
       "schedkit: how ties between top-scoring nodes break: random (as upstream) or name (the lowest node "
       "name), for reproducible runs.",
       [](SchedulerFlags& f, const std::string& v) {
         if (v != "random" && v != "name") return false;
         f.tie_break = v;
         return true;
       }},
      {"seed", Kind::kInt,
       "schedkit: seeds the random choices (tie-breaking, preemption's start node); 0 picks a random seed.",
       [](SchedulerFlags& f, const std::string& v) { return absl::SimpleAtoi(v, &f.seed); }},
      {"leader-elect", Kind::kBool,
       "Start a leader election client and gain leadership before executing the main loop.",
       OptionalBool(&SchedulerFlags::leader_elect)},
      {"leader-elect-lease-duration", Kind::kDuration,
       "The duration that non-leader candidates will wait after observing a leadership renewal until"
       " attempting to acquire leadership.",
       OptionalDuration(&SchedulerFlags::lease_duration)},
      {"leader-elect-renew-deadline", Kind::kDuration,
       "The interval between attempts by the acting master to renew a leadership slot before it "
       "stops leading.",
       OptionalDuration(&SchedulerFlags::renew_deadline)},
      {"leader-elect-retry-period", Kind::kDuration,
       "The duration the clients should wait between attempting acquisition and renewal of a "
       "leadership.",
       OptionalDuration(&SchedulerFlags::retry_period)},
      {"leader-elect-resource-lock", Kind::kString,
       "The type of resource object that is used for locking during leader election.",
       String(&SchedulerFlags::resource_lock)},
      {"leader-elect-resource-name", Kind::kString,
       "The name of resource object that is used for locking during leader election.",
       String(&SchedulerFlags::resource_name)},
      {"leader-elect-resource-namespace", Kind::kString,
       "The namespace of resource object that is used for locking during leader election.",
       String(&SchedulerFlags::resource_namespace)},
      {"help", Kind::kBool,
       "help for this command",
       [](SchedulerFlags& f, const std::string& v) { return absl::SimpleAtob(v, &f.help); }},
      {"version", Kind::kBool,
       "Print version information and quit.",
       [](SchedulerFlags& f, const std::string& v) { return absl::SimpleAtob(v, &f.version); }},
  };
  return *flags;
}

std::string_view KindName(Kind k) {
  switch (k) {
    case Kind::kString: return "string";
    case Kind::kInt: return "int";
    case Kind::kFloat: return "float";
    case Kind::kBool: return "bool";
    case Kind::kDuration: return "duration";
  }
  return "";
}

}  // namespace

absl::StatusOr<SchedulerFlags> ParseSchedulerFlags(const std::vector<std::string>& args, std::string_view program) {
  SchedulerFlags out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    std::string_view body = arg;
    if (body.starts_with("--")) {
      body.remove_prefix(2);
    } else if (body.starts_with("-") && body.size() > 1) {
      body.remove_prefix(1);
    } else {
      return absl::InvalidArgumentError(
          schedkit::StrCat("unexpected argument \"", arg, "\": ", program, " takes only flags"));
    }
    if (body == "h") body = "help";
    const size_t eq = body.find('=');
    const std::string_view name = body.substr(0, eq);
    const Flag* flag = nullptr;
    for (const Flag& f : Flags()) {
      if (f.name == name) flag = &f;
    }
    if (flag == nullptr) return absl::InvalidArgumentError(schedkit::StrCat("unknown flag: --", name));
    std::string value;
    if (eq != std::string_view::npos) {
      value = std::string(body.substr(eq + 1));
    } else if (flag->kind == Kind::kBool) {
      value = "true";
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return absl::InvalidArgumentError(schedkit::StrCat("flag needs an argument: --", name));
    }
    if (!flag->set(out, value)) {
      const std::string why = flag->kind == Kind::kString ? std::string("not one of its values (see --help)")
                                                          : schedkit::StrCat("not a valid ", KindName(flag->kind));
      return absl::InvalidArgumentError(
          schedkit::StrCat("invalid argument \"", value, "\" for \"--", name, "\" flag: ", why));
    }
  }
  return out;
}

void ApplyFlags(const SchedulerFlags& flags, config::SchedulerConfiguration& config) {
  if (flags.config.empty()) {
    config::ClientConnection& cc = config.client_connection;
    if (flags.kubeconfig) cc.kubeconfig = *flags.kubeconfig;
    if (flags.kube_api_qps) cc.qps = *flags.kube_api_qps;
    if (flags.kube_api_burst) cc.burst = *flags.kube_api_burst;
    if (flags.kube_api_content_type) cc.content_type = *flags.kube_api_content_type;
  }
  config::LeaderElection& le = config.leader_election;
  if (flags.leader_elect) le.leader_elect = *flags.leader_elect;
  if (flags.lease_duration) le.lease_duration = *flags.lease_duration;
  if (flags.renew_deadline) le.renew_deadline = *flags.renew_deadline;
  if (flags.retry_period) le.retry_period = *flags.retry_period;
  if (flags.resource_lock) le.resource_lock = *flags.resource_lock;
  if (flags.resource_name) le.resource_name = *flags.resource_name;
  if (flags.resource_namespace) le.resource_namespace = *flags.resource_namespace;
}

std::string SchedulerVersion() {
  return schedkit::StrCat("Kubernetes ", schedkit::kUpstreamVersion, " (schedkit ", SCHEDKIT_VERSION, ")\n");
}

std::string SchedulerFlagsUsage(std::string_view program) {
  std::string out = schedkit::StrCat(
      "Usage: ", program, " [flags]\n\n"
      "The Kubernetes scheduler, built on schedkit: it watches the API server for pods whose\n"
      "schedulerName is one of its profiles and binds them.\n\nFlags:\n");
  for (const Flag& f : Flags()) {
    schedkit::StrAppend(&out, "  --", f.name, " ", f.kind == Kind::kBool ? "" : KindName(f.kind), "\n      ",
                        f.help, "\n");
  }
  return out;
}

}  // namespace schedkit::kube::internal
