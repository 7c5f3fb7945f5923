// The Kubernetes REST API over HttpClient, as client-go's rest client uses
// it: requests under a client-side rate limit (clientConnection qps and
// burst), JSON bodies, and a reply that is not 2xx turned into an
// absl::Status that keeps the HTTP status and the API's reason.
#ifndef SCHEDKIT_KUBE_API_CLIENT_H_
#define SCHEDKIT_KUBE_API_CLIENT_H_

#include <atomic>
#include <memory>
#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "schedkit/kube/client_config.h"
#include "schedkit/kube/http_client.h"

namespace schedkit::kube {

// The HTTP status of an API error (0 when `status` did not come from a
// reply, e.g. a transport failure).
int HttpStatusOf(const absl::Status& status);
// The reason of the API's Status object ("AlreadyExists", "Conflict",
// "NotFound", "Expired", "Gone", ...), or "" when the reply had none.
std::string ReasonOf(const absl::Status& status);

class ApiClient {
 public:
  static absl::StatusOr<std::unique_ptr<ApiClient>> Create(const ClientConfig& config);
  ~ApiClient();

  // One request; `path` from the server's root with its query. A 2xx reply
  // gives its body. Any other status is an error whose code follows the
  // HTTP status (400/422 InvalidArgument, 401 Unauthenticated,
  // 403 PermissionDenied, 404 NotFound, 409 AlreadyExists for reason
  // AlreadyExists else Aborted, 410 OutOfRange, 429 ResourceExhausted,
  // 5xx Unavailable) and whose message is "<METHOD> <url>: <status> <API
  // message>"; HttpStatusOf and ReasonOf read it back. Transport errors
  // are HttpClient's. Waits for the rate limiter first. Any thread.
  absl::StatusOr<std::string> Do(std::string_view method, std::string_view path, std::string body = "",
                                 std::string_view content_type = "application/json",
                                 absl::Duration timeout = absl::Seconds(30),
                                 const std::atomic<bool>* cancel = nullptr) const;

  // A watch: the reply's body, piece by piece, to `on_data` (false stops
  // it). Ends without error when the server ends the reply or `timeout`
  // passes; a status that is not 2xx is an error as for Do.
  absl::Status Stream(std::string_view path, absl::Duration timeout, const std::atomic<bool>* cancel,
                      absl::FunctionRef<bool(std::string_view)> on_data) const;

  const ClientConfig& config() const { return config_; }

 private:
  class RateLimiter;
  ApiClient(ClientConfig config, std::unique_ptr<HttpClient> http);
  absl::Status Failed(std::string_view method, std::string_view path, const HttpResponse& reply) const;

  const ClientConfig config_;
  const std::unique_ptr<HttpClient> http_;
  const std::unique_ptr<RateLimiter> limiter_;
};

}  // namespace schedkit::kube

#endif  // SCHEDKIT_KUBE_API_CLIENT_H_
