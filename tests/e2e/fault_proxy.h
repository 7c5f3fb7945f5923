// A fault-injecting proxy between schedkit-kube and the test API server:
// plain HTTP on 127.0.0.1 in front, the API server over verified TLS
// behind, the caller's credentials passed through. Watches are streamed
// through as they come. Rules, consulted in order for each request, can
// answer it themselves (a 409 for a Binding, a 410 for a watch, an ERROR
// event inside a watch's 200 stream), or hold it for a while before
// forwarding it (a Binding in flight while the test deletes its pod or
// node). Every request is recorded with the status it got, so that tests
// can count successful bindings per pod.
#ifndef SCHEDKIT_TESTS_E2E_FAULT_PROXY_H_
#define SCHEDKIT_TESTS_E2E_FAULT_PROXY_H_

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace httplib {
class Server;
}  // namespace httplib

namespace schedkit::e2e {

class FaultProxy {
 public:
  struct Request {
    std::string method;
    std::string target;  // path and query
    std::string body;
    absl::Time received;  // when the proxy got it
  };
  struct Fault {
    enum class Kind { kRespond, kWatchError, kDelay };
    Kind kind = Kind::kRespond;
    int status = 0;        // kRespond: the HTTP status
    std::string body;      // kRespond: the body; kWatchError: the Status object
    absl::Duration delay;  // kDelay: held this long, then forwarded
  };
  // nullopt: not this rule's request.
  using Rule = std::function<std::optional<Fault>(const Request&)>;

  struct Record {
    Request request;
    int status;  // what the client got (0: the connection failed)
  };

  // Listens on a free port of 127.0.0.1, forwarding to `upstream`
  // (https://127.0.0.1:PORT) whose certificate `ca_file` verifies.
  static absl::StatusOr<std::unique_ptr<FaultProxy>> Start(const std::string& upstream, const std::string& ca_file);
  ~FaultProxy();

  std::string url() const;
  void AddRule(Rule rule);
  // Sent as "Authorization: Bearer <token>" with requests that carry none:
  // client-go sends no token over plain HTTP, so a Go client behind this
  // proxy gets its credentials here.
  void SetToken(std::string token);
  std::vector<Record> records() const;
  // Bindings the API server accepted (201), per "namespace/pod".
  std::map<std::string, int> AcceptedBindings() const;

 private:
  FaultProxy() = default;
  std::optional<Fault> Match(const Request& request);
  std::string token() const;
  void Log(Request request, int status);

  std::string upstream_host_;
  int upstream_port_ = 0;
  std::string ca_file_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
  mutable std::mutex mu_;
  std::vector<Rule> rules_;
  std::vector<Record> records_;
  std::string token_;
};

// Rules for the common faults; each fires `times` times, then passes.
FaultProxy::Rule RespondOnce(std::string method, std::string target_contains, int status, std::string body,
                             int times = 1);
FaultProxy::Rule WatchErrorOnce(std::string target_contains, int code, std::string reason, int times = 1);
FaultProxy::Rule DelayOnce(std::string method, std::string target_contains, absl::Duration delay, int times = 1);

}  // namespace schedkit::e2e

#endif  // SCHEDKIT_TESTS_E2E_FAULT_PROXY_H_
