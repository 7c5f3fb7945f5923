// ApiClient: the rate limit before each request and the mapping of API
// errors to absl::Status.
#include "schedkit/kube/api_client.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "nlohmann/json.hpp"
#include "schedkit/base/str_cat.h"

namespace schedkit::kube {
namespace {

constexpr char kHttpStatusPayload[] = "schedkit.io/kube/http-status";
constexpr char kReasonPayload[] = "schedkit.io/kube/reason";

absl::StatusCode CodeFor(int http_status, std::string_view reason) {
  switch (http_status) {
    case 400:
    case 422:
      return absl::StatusCode::kInvalidArgument;
    case 401:
      return absl::StatusCode::kUnauthenticated;
    case 403:
      return absl::StatusCode::kPermissionDenied;
    case 404:
      return absl::StatusCode::kNotFound;
    case 409:
      return reason == "AlreadyExists" ? absl::StatusCode::kAlreadyExists : absl::StatusCode::kAborted;
    case 410:
      return absl::StatusCode::kOutOfRange;
    case 429:
      return absl::StatusCode::kResourceExhausted;
    default:
      return http_status >= 500 ? absl::StatusCode::kUnavailable : absl::StatusCode::kUnknown;
  }
}

}  // namespace

// client-go's token bucket (golang.org/x/time/rate as flowcontrol uses it):
// `burst` tokens at first, refilled at `qps` per second; a request takes
// one, and when none is left it reserves the next and waits for it.
class ApiClient::RateLimiter {
 public:
  RateLimiter(double qps, int burst) : qps_(qps), burst_(std::max(1, burst)), tokens_(burst_) {}

  // False when `cancel` turned true while waiting.
  bool Wait(const std::atomic<bool>* cancel) {
    if (qps_ <= 0) return true;  // no limit
    absl::Duration wait;
    {
      std::lock_guard<std::mutex> lock(mu_);
      const absl::Time now = absl::Now();
      tokens_ = std::min<double>(burst_, tokens_ + absl::ToDoubleSeconds(now - last_) * qps_);
      last_ = now;
      tokens_ -= 1;
      wait = tokens_ >= 0 ? absl::ZeroDuration() : absl::Seconds(-tokens_ / qps_);
    }
    const absl::Time until = absl::Now() + wait;
    while (absl::Now() < until) {
      if (cancel != nullptr && cancel->load()) return false;
      absl::SleepFor(std::min(until - absl::Now(), absl::Milliseconds(100)));
    }
    return true;
  }

 private:
  const double qps_;
  const int burst_;
  std::mutex mu_;
  double tokens_;
  absl::Time last_ = absl::Now();
};

int HttpStatusOf(const absl::Status& status) {
  auto payload = status.GetPayload(kHttpStatusPayload);
  int code = 0;
  if (!payload || !absl::SimpleAtoi(std::string(*payload), &code)) return 0;
  return code;
}

std::string ReasonOf(const absl::Status& status) {
  auto payload = status.GetPayload(kReasonPayload);
  return payload ? std::string(*payload) : std::string();
}

absl::StatusOr<std::unique_ptr<ApiClient>> ApiClient::Create(const ClientConfig& config) {
  auto http = HttpClient::Create(config.server, config.transport, config.user_agent);
  if (!http.ok()) return http.status();
  return std::unique_ptr<ApiClient>(new ApiClient(config, *std::move(http)));
}

ApiClient::ApiClient(ClientConfig config, std::unique_ptr<HttpClient> http)
    : config_(std::move(config)),
      http_(std::move(http)),
      limiter_(std::make_unique<RateLimiter>(config_.qps, config_.burst)) {}

ApiClient::~ApiClient() = default;

absl::Status ApiClient::Failed(std::string_view method, std::string_view path,
                              const HttpResponse& reply) const {
  // The API answers errors with a Status object; a proxy or a broken server
  // may not, and then a little of the body says what came back.
  std::string reason;
  std::string message;
  const nlohmann::json doc = nlohmann::json::parse(reply.body, nullptr, /*allow_exceptions=*/false);
  if (doc.is_object() && doc.value("kind", "") == "Status") {
    reason = doc.value("reason", "");
    message = doc.value("message", "");
  } else {
    message = reply.body.substr(0, 200);
  }
  const char* reason_sep = reason.empty() ? "" : " ";
  const char* message_sep = message.empty() ? "" : ": ";
  absl::Status status(CodeFor(reply.status, reason),
                      schedkit::StrCat(method, " ", config_.server, path, ": ", reply.status, reason_sep,
                                       reason, message_sep, message));
  status.SetPayload(kHttpStatusPayload, absl::Cord(std::to_string(reply.status)));
  if (!reason.empty()) status.SetPayload(kReasonPayload, absl::Cord(reason));
  return status;
}

absl::StatusOr<std::string> ApiClient::Do(std::string_view method, std::string_view path, std::string body,
                                          std::string_view content_type, absl::Duration timeout,
                                          const std::atomic<bool>* cancel) const {
  if (!limiter_->Wait(cancel)) {
    return absl::CancelledError(schedkit::StrCat(method, " ", config_.server, path, ": cancelled"));
  }
  HttpRequest request;
  request.method = std::string(method);
  request.path = std::string(path);
  request.body = std::move(body);
  if (!request.body.empty()) request.content_type = std::string(content_type);
  request.timeout = timeout;
  request.cancel = cancel;
  auto reply = http_->Send(request);
  if (!reply.ok()) return reply.status();
  if (reply->status < 200 || reply->status >= 300) return Failed(method, path, *reply);
  return std::move(reply->body);
}

absl::Status ApiClient::Stream(std::string_view path, absl::Duration timeout, const std::atomic<bool>* cancel,
                               absl::FunctionRef<bool(std::string_view)> on_data) const {
  if (!limiter_->Wait(cancel)) {
    return absl::CancelledError(schedkit::StrCat("GET ", config_.server, path, ": cancelled"));
  }
  HttpRequest request;
  request.path = std::string(path);
  request.timeout = timeout;
  request.cancel = cancel;
  auto reply = http_->Stream(request, on_data);
  if (!reply.ok()) return reply.status();
  if (reply->status < 200 || reply->status >= 300) return Failed("GET", path, *reply);
  return absl::OkStatus();
}

}  // namespace schedkit::kube
