#include "kube/pod_watch.h"

#include <chrono>

#include "nlohmann/json.hpp"
#include "schedkit/base/str_cat.h"

namespace schedkit::bench {

PodWatch::PodWatch(const kube::ApiClient& client, std::string resource_version)
    : client_(client), resource_version_(std::move(resource_version)) {
  thread_ = std::thread([this] {
    // The API server may end a watch early (an ERROR event such as "too
    // large resource version" while its cache catches up, or a closed
    // stream): resume from the last version seen, a bounded number of times.
    constexpr int kMaxWatches = 50;
    absl::Status s;
    for (int attempt = 0; attempt < kMaxWatches && !cancel_.load(); ++attempt) {
      std::string from;
      {
        std::lock_guard<std::mutex> lock(mu_);
        from = resource_version_;
        partial_.clear();
      }
      const std::string path = schedkit::StrCat(
          "/api/v1/pods?watch=true&allowWatchBookmarks=true&timeoutSeconds=1800&resourceVersion=", from);
      s = client_.Stream(path, absl::Minutes(31), &cancel_, [this](std::string_view data) {
        std::lock_guard<std::mutex> lock(mu_);
        partial_.append(data);
        size_t start = 0;
        for (size_t nl; (nl = partial_.find('\n', start)) != std::string::npos; start = nl + 1) {
          Consume(std::string_view(partial_).substr(start, nl - start));
        }
        partial_.erase(0, start);
        return expired_.ok();
      });
      std::lock_guard<std::mutex> lock(mu_);
      if (!expired_.ok()) {
        s = expired_;
        break;
      }
      // A 5xx (say, 504 "Too large resource version") is worth another try.
      if (!s.ok() && s.code() != absl::StatusCode::kUnavailable) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::lock_guard<std::mutex> lock(mu_);
    ended_ = s.ok() ? absl::UnavailableError("the pod watch ended (50 watches)") : s;
  });
}

PodWatch::~PodWatch() {
  cancel_ = true;
  thread_.join();
}

void PodWatch::Consume(std::string_view line) {
  const Clock::time_point now = Clock::now();
  const nlohmann::json event = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!event.is_object() || !event.contains("object") || !event["object"].is_object()) return;
  const nlohmann::json& object = event["object"];
  if (event.value("type", "") == "ERROR") {
    // 410: the version is gone, and pods may have been missed.
    if (object.value("code", 0) == 410) {
      expired_ = absl::OutOfRangeError(schedkit::StrCat("pod watch: ", object.value("message", "410 Gone")));
    }
    return;
  }
  if (!object.contains("metadata") || !object["metadata"].is_object()) return;
  resource_version_ = object["metadata"].value("resourceVersion", resource_version_);
  if (event.value("type", "") == "BOOKMARK" || !object.contains("spec")) return;
  const std::string ns = object["metadata"].value("namespace", "");
  const std::string key = schedkit::StrCat(ns, "/", object["metadata"].value("name", ""));
  Seen& seen = seen_[key];
  if (seen.added == Clock::time_point{}) seen.added = now;
  if (seen.bound == Clock::time_point{} && !object["spec"].value("nodeName", "").empty()) {
    seen.bound = now;
    ++bound_[ns];
  }
}

int PodWatch::Bound(const std::string& ns) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = bound_.find(ns);
  return it == bound_.end() ? 0 : it->second;
}

absl::Status PodWatch::Ended() const {
  std::lock_guard<std::mutex> lock(mu_);
  return ended_;
}

std::map<std::string, PodWatch::Seen> PodWatch::Snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return seen_;
}

}  // namespace schedkit::bench
