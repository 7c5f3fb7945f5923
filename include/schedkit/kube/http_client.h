// HTTP(S) to one server, over libcurl: TLS verified against the configured
// CA, credentials on every request, connections kept between requests, and
// streamed replies for watches. The API client is built on it; extenders'
// clients will be too.
#ifndef SCHEDKIT_KUBE_HTTP_CLIENT_H_
#define SCHEDKIT_KUBE_HTTP_CLIENT_H_

#include <atomic>
#include <memory>
#include <string>
#include <string_view>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "schedkit/kube/client_config.h"

namespace schedkit::kube {

struct HttpRequest {
  std::string method = "GET";
  // From the server's root (after any path prefix of its URL), with the
  // query: "/api/v1/pods?limit=500".
  std::string path;
  std::string body;
  // The body's type: "application/json", "application/merge-patch+json",
  // "application/strategic-merge-patch+json", ...
  std::string content_type;
  // The whole exchange, reply included; a watch's reply is cut at this
  // time (it then ends as the server had closed it). Under a millisecond
  // fails at once (DeadlineExceeded): to libcurl 0 would mean no limit.
  absl::Duration timeout = absl::Seconds(30);
  // When set, a request in flight gives up within a second of it turning
  // true (Cancelled). Owned by the caller; must outlive the call.
  const std::atomic<bool>* cancel = nullptr;
};

struct HttpResponse {
  int status = 0;
  std::string body;
};

class HttpClient {
 public:
  // Checks the configuration (the server URL; the CA, certificate and key
  // parse) without connecting. Errors name the server.
  static absl::StatusOr<std::unique_ptr<HttpClient>> Create(const std::string& server,
                                                            const TransportConfig& transport,
                                                            std::string user_agent);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Sends `request` and reads the whole reply, on the calling thread; any
  // number of threads may call at once. Every HTTP status is a response;
  // the error cases are the transport's: Unavailable (cannot connect, TLS
  // refused, connection dropped), DeadlineExceeded (timeout), Cancelled,
  // Unauthenticated (the token file cannot be read), each naming the server.
  absl::StatusOr<HttpResponse> Send(const HttpRequest& request) const;

  // As Send, but hands the reply body to `on_data` piece by piece as it
  // arrives (a watch); `on_data` returns false to stop reading, which ends
  // the call with the status. For a status other than 2xx the body is
  // collected instead and returned in the response. Returns the status and,
  // for 2xx, an empty body.
  absl::StatusOr<HttpResponse> Stream(const HttpRequest& request,
                                      absl::FunctionRef<bool(std::string_view)> on_data) const;

  const std::string& server() const;

 private:
  class Impl;
  explicit HttpClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace schedkit::kube

#endif  // SCHEDKIT_KUBE_HTTP_CLIENT_H_
