// Where an API server is and how to talk to it: what kube-scheduler's
// rest.Config holds once clientcmd has read a kubeconfig, or the pod's
// service account when it runs in the cluster.
#ifndef SCHEDKIT_KUBE_CLIENT_CONFIG_H_
#define SCHEDKIT_KUBE_CLIENT_CONFIG_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace schedkit::kube {

// How to reach one HTTPS server: whom to trust, who we are, and the token we
// carry. The API client is built on it, and so are extenders' clients.
struct TransportConfig {
  // CA certificates (PEM) that the server's certificate must chain to; empty
  // means the system's roots.
  std::string ca_pem;
  // The name the server's certificate must carry, sent as SNI too, when it is
  // not the host of the URL (kubeconfig `tls-server-name`).
  std::string tls_server_name;
  // No verification at all; only when a kubeconfig asks for it.
  bool insecure_skip_tls_verify = false;
  // Client certificate and its key (PEM), for servers that authenticate by
  // certificate.
  std::string client_cert_pem;
  std::string client_key_pem;
  // A bearer token, or a file holding one. The file is read again after
  // `token_file_refresh` (a minute, as client-go), so rotated
  // service-account tokens are picked up; it wins over `bearer_token`.
  std::string bearer_token;
  std::string bearer_token_file;
  absl::Duration token_file_refresh = absl::Minutes(1);
  // HTTP basic authentication (kubeconfig `username`/`password`).
  std::string username;
  std::string password;
  // A proxy for every request (kubeconfig `proxy-url`); empty for none.
  std::string proxy_url;
};

// One API server and how to reach it.
struct ClientConfig {
  // scheme://host[:port][/prefix], without a trailing slash.
  std::string server;
  TransportConfig transport;
  // Client-side rate limit of requests (clientConnection.qps and burst;
  // kube-scheduler's defaults).
  double qps = 50;
  int burst = 100;
  std::string user_agent = "schedkit-kube";
  // Where the config came from, for messages: `kubeconfig /a/b (context x)`
  // or `in-cluster service account`.
  std::string origin;
};

// Reads one environment variable; tests pass their own.
using EnvLookup = std::function<std::optional<std::string>(std::string_view)>;
// The process's environment.
EnvLookup ProcessEnv();

// Loads a kubeconfig as clientcmd does: `paths` are merged in order (the
// first file to define a cluster, user or context wins, and the first
// current-context set wins); a file that does not exist is an error only
// when it is the only one. `context` overrides current-context; `master`,
// when not empty, overrides the cluster's server. Relative file names in a
// file are taken from that file's directory. Credentials that need a
// program (exec, auth-provider) and impersonation are refused, naming the
// field.
absl::StatusOr<ClientConfig> LoadKubeconfig(const std::vector<std::string>& paths,
                                            std::string_view context = "", std::string_view master = "");

// The pod's service account, as rest.InClusterConfig: the server from
// KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT, the token file and
// CA under `account_dir`. The CA is optional (system roots without it); the
// token is not.
absl::StatusOr<ClientConfig> InClusterConfig(
    const EnvLookup& env, std::string_view account_dir = "/var/run/secrets/kubernetes.io/serviceaccount");

// What kube-scheduler's --kubeconfig and --master select (clientcmd's
// BuildConfigFromFlags), plus the KUBECONFIG variable: `kubeconfig` when
// given; else, with neither flag, the in-cluster account when the
// KUBERNETES_SERVICE_* variables are set, then the files KUBECONFIG lists
// (colon-separated); else `master` alone, unauthenticated.
absl::StatusOr<ClientConfig> BuildClientConfig(
    std::string_view master, std::string_view kubeconfig, const EnvLookup& env,
    std::string_view account_dir = "/var/run/secrets/kubernetes.io/serviceaccount");

}  // namespace schedkit::kube

#endif  // SCHEDKIT_KUBE_CLIENT_CONFIG_H_
