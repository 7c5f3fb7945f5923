#include "schedkit/testing/recording_host.h"

#include <utility>

#include "schedkit/base/str_cat.h"

namespace schedkit::testing {
namespace {

std::string Key(const api::v1::Pod& pod) {
  return schedkit::StrCat(pod.metadata().namespace_(), "/", pod.metadata().name());
}

}  // namespace

void RecordingHost::FailBinds(std::string pod, absl::Status status) {
  std::lock_guard<std::mutex> lock(mu_);
  if (status.ok()) {
    failing_binds_.erase(pod);
  } else {
    failing_binds_[std::move(pod)] = std::move(status);
  }
}

std::vector<RecordingHost::Binding> RecordingHost::bindings() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bindings_;
}

std::optional<std::string> RecordingHost::NodeOf(std::string_view pod) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const Binding& b : bindings_) {
    if (b.pod == pod) return b.node;
  }
  return std::nullopt;
}

std::map<std::string, std::string> RecordingHost::failures() const {
  std::lock_guard<std::mutex> lock(mu_);
  return failures_;
}

std::vector<RecordingHost::Eviction> RecordingHost::evictions() const {
  std::lock_guard<std::mutex> lock(mu_);
  return evictions_;
}

std::vector<std::string> RecordingHost::events() const {
  std::lock_guard<std::mutex> lock(mu_);
  return events_;
}

absl::Status RecordingHost::Bind(const api::v1::Pod& pod, std::string_view node) {
  const std::string key = Key(pod);
  std::lock_guard<std::mutex> lock(mu_);
  if (auto it = failing_binds_.find(key); it != failing_binds_.end()) return it->second;
  bindings_.push_back({key, std::string(node)});
  failures_.erase(key);
  return absl::OkStatus();
}

void RecordingHost::OnFailedScheduling(const api::v1::Pod& pod, const scheduler::SchedulingFailure& failure) {
  std::lock_guard<std::mutex> lock(mu_);
  failures_[Key(pod)] = std::string(failure.message);
}

absl::Status RecordingHost::Evict(const api::v1::Pod& victim, const api::v1::Pod& preemptor, std::string_view node) {
  std::lock_guard<std::mutex> lock(mu_);
  evictions_.push_back({Key(victim), Key(preemptor), std::string(node)});
  return absl::OkStatus();
}

void RecordingHost::OnEvent(const scheduler::PodEvent& event) {
  std::lock_guard<std::mutex> lock(mu_);
  events_.push_back(schedkit::StrCat(event.reason, ": ", event.note));
}

}  // namespace schedkit::testing
