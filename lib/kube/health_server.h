// Internal: kube-scheduler's serving endpoints on cpp-httplib. /livez,
// /readyz and /healthz answer as upstream's healthz package (200 "ok";
// "[+]check ok" / "[-]check failed: reason withheld" lines with ?verbose
// or on failure, then "<path> check failed" with status 500; ?exclude=NAME;
// /readyz/NAME runs one check), and /metrics serves the Prometheus text.
// HTTPS on the secure port (a self-signed certificate for localhost and
// 127.0.0.1 unless files are given) and, for loopback probes and tests,
// plain HTTP. Like upstream, the health paths need no authentication; unlike
// it, /metrics does not either (no delegated authorization here), so bind
// it to an address only trusted clients reach.
#ifndef SCHEDKIT_LIB_KUBE_HEALTH_SERVER_H_
#define SCHEDKIT_LIB_KUBE_HEALTH_SERVER_H_

#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace httplib {
class Server;
}  // namespace httplib

namespace schedkit::kube::internal {

struct HealthCheck {
  std::string name;
  // OK when healthy; the message is logged, never served.
  std::function<absl::Status()> check;
};

struct HealthServerOptions {
  std::string bind_address = "0.0.0.0";
  // 0: none; -1: any free port (tests).
  int secure_port = 0;
  std::string tls_cert_file;
  std::string tls_private_key_file;
  int http_port = 0;  // as secure_port
  std::vector<HealthCheck> livez;
  std::vector<HealthCheck> readyz;
  std::vector<HealthCheck> healthz;
  std::function<std::string()> metrics;
  // The JSON /configz serves (kube-scheduler's configz: {"componentconfig": ...}).
  std::function<std::string()> configz;
};

class HealthServer {
 public:
  // Binds both listeners (an error naming the address if either cannot)
  // and serves on threads of its own until Stop.
  static absl::StatusOr<std::unique_ptr<HealthServer>> Start(HealthServerOptions options);
  ~HealthServer();  // Stop()
  void Stop();
  // The ports bound (0 for a listener not started).
  int secure_port() const { return secure_port_; }
  int http_port() const { return http_port_; }

 private:
  explicit HealthServer(HealthServerOptions options);
  absl::Status Listen(httplib::Server& server, int port, std::string_view scheme);
  void Route(httplib::Server& server);

  const HealthServerOptions options_;
  std::vector<std::unique_ptr<httplib::Server>> servers_;
  std::vector<std::thread> threads_;
  int secure_port_ = 0;
  int http_port_ = 0;
};

}  // namespace schedkit::kube::internal

#endif  // SCHEDKIT_LIB_KUBE_HEALTH_SERVER_H_
