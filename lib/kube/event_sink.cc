#include "kube/event_sink.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "kube/log.h"
#include "kube/status_patch.h"
#include "nlohmann/json.hpp"
#include "schedkit/base/str_cat.h"

namespace schedkit::kube::internal {
namespace {

using nlohmann::json;

json ObjectReference(const api::v1::Pod& pod) {
  const api::v1::ObjectMeta& m = pod.metadata();
  return {{"kind", "Pod"},         {"namespace", m.namespace_()}, {"name", m.name()},
          {"uid", m.uid()},        {"apiVersion", "v1"},          {"resourceVersion", m.resource_version()}};
}

// Errors worth another try: the server or the connection, not the Event.
bool Retriable(const absl::Status& s) { return absl::IsUnavailable(s) || absl::IsResourceExhausted(s); }

// An Event's name: "<object>.<hex nanoseconds>", as upstream's recorders.
std::string EventName(std::string_view object, absl::Time now) {
  char nanos[24];
  std::snprintf(nanos, sizeof(nanos), "%llx", static_cast<unsigned long long>(absl::ToUnixNanos(now)));
  return schedkit::StrCat(object, ".", nanos);
}

}  // namespace

std::string LeaseEventJson(const LeaseEvent& event, absl::Time now) {
  const std::string stamp = FormatApiTime(now);
  return json{
      {"apiVersion", "v1"},
      {"kind", "Event"},
      {"metadata", {{"name", EventName(event.lease_name, now)}, {"namespace", event.lease_namespace}}},
      {"involvedObject",
       {{"kind", "Lease"},
        {"namespace", event.lease_namespace},
        {"name", event.lease_name},
        {"uid", event.lease_uid},
        {"apiVersion", "coordination.k8s.io/v1"},
        {"resourceVersion", event.lease_resource_version}}},
      {"reason", "LeaderElection"},
      {"message", event.message},
      {"source", {{"component", event.component}}},
      {"firstTimestamp", stamp},
      {"lastTimestamp", stamp},
      {"count", 1},
      {"type", "Normal"},
      {"reportingComponent", event.component},
      {"reportingInstance", ""},
  }
      .dump();
}

std::string EventJson(const scheduler::PodEvent& event, std::string_view hostname, absl::Time now) {
  const api::v1::ObjectMeta& meta = event.regarding.metadata();
  json e = {
      {"apiVersion", "events.k8s.io/v1"},
      {"kind", "Event"},
      {"metadata",
       {{"name", EventName(meta.name(), now)},
        {"namespace", meta.namespace_().empty() ? "default" : meta.namespace_()}}},
      {"eventTime", FormatApiMicroTime(now)},
      {"reportingController", event.reporting_controller},
      {"reportingInstance", schedkit::StrCat(event.reporting_controller, "-", hostname)},
      {"action", event.action},
      {"reason", event.reason},
      {"type", event.type},
      {"regarding", ObjectReference(event.regarding)},
      {"note", event.note},
  };
  if (event.related != nullptr) e["related"] = ObjectReference(*event.related);
  return e.dump();
}

EventSink::EventSink(const ApiClient& client, EventSinkOptions options)
    : client_(client), options_(std::move(options)), worker_([this] { Run(); }) {}

EventSink::~EventSink() { Stop(absl::ZeroDuration()); }

void EventSink::Record(const scheduler::PodEvent& event) {
  const std::string& ns = event.regarding.metadata().namespace_();
  Enqueue({schedkit::StrCat("/apis/events.k8s.io/v1/namespaces/", ns.empty() ? "default" : ns, "/events"),
           EventJson(event, options_.hostname, absl::Now())});
}

void EventSink::RecordLeaseEvent(const LeaseEvent& event) {
  Enqueue({schedkit::StrCat("/api/v1/namespaces/", event.lease_namespace, "/events"),
           LeaseEventJson(event, absl::Now())});
}

void EventSink::Enqueue(Pending p) {
  std::lock_guard<std::mutex> lock(mu_);
  if (stopping_ || queue_.size() >= options_.max_queued) {
    ++dropped_;
    return;
  }
  queue_.push_back(std::move(p));
  cv_.notify_one();
}

void EventSink::Stop(absl::Duration timeout) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!stopping_) {
      stopping_ = true;
      deadline_ = absl::Now() + timeout;
    }
    cv_.notify_all();
  }
  if (worker_.joinable()) worker_.join();
}

int64_t EventSink::posted() const {
  std::lock_guard<std::mutex> lock(mu_);
  return posted_;
}

int64_t EventSink::dropped() const {
  std::lock_guard<std::mutex> lock(mu_);
  return dropped_;
}

void EventSink::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty() || (stopping_ && absl::Now() >= deadline_)) break;
    Pending p = std::move(queue_.front());
    queue_.pop_front();
    bool sent = false;
    for (int attempt = 1; attempt <= options_.max_attempts; ++attempt) {
      const absl::Duration timeout =
          std::min(absl::Seconds(10), std::max(absl::Seconds(1), deadline_ - absl::Now()));
      lock.unlock();
      absl::StatusOr<std::string> reply = client_.Do("POST", p.path, p.body, "application/json", timeout);
      lock.lock();
      if (reply.ok()) {
        LogInfo(5, "event", schedkit::StrCat("posted ", p.path));
        sent = true;
        break;
      }
      LogInfo(4, "event", schedkit::StrCat("attempt ", attempt, " failed: ", reply.status().message()));
      if (!Retriable(reply.status()) || attempt == options_.max_attempts) {
        Log(Severity::kWarning, "event", schedkit::StrCat("dropped an event: ", reply.status().message()));
        break;
      }
      // Interrupted only by Stop's deadline.
      if (cv_.wait_for(lock, absl::ToChronoSeconds(options_.retry_interval),
                       [this] { return stopping_ && absl::Now() >= deadline_; })) {
        break;
      }
    }
    if (sent) {
      ++posted_;
    } else {
      ++dropped_;
    }
  }
  dropped_ += static_cast<int64_t>(queue_.size());
  queue_.clear();
}

}  // namespace schedkit::kube::internal
