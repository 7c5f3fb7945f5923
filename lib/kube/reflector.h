// Internal: one resource's list and watch, as client-go's Reflector feeding
// an informer's store (v0.35): a paginated LIST, then WATCH from its
// resourceVersion with bookmarks and a random timeout, resumed where it
// ended; a relist on 410 (HTTP status or ERROR event); back-off from 0.8 s
// to 30 s after failures. A resource the server does not serve (404: an
// API group it lacks, a CRD not installed) counts as synced and empty, with
// one log line, and is asked for again at the back-off's pace until it is
// served, as kube-scheduler's informers start without it. The store keeps each object's last JSON, so the
// handler sees what an informer's handlers see: Add, Update with the old
// object, Delete with the last known one; a relist reports what changed
// while the watch was down.
#ifndef SCHEDKIT_LIB_KUBE_REFLECTOR_H_
#define SCHEDKIT_LIB_KUBE_REFLECTOR_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "absl/random/random.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "schedkit/kube/api_client.h"

namespace schedkit::kube::internal {

// Which objects to list and watch.
struct ResourceSpec {
  // The collection's path: "/api/v1/pods", "/apis/policy/v1/poddisruptionbudgets".
  std::string path;
  // fieldSelector for both LIST and WATCH (upstream's pod informer:
  // "status.phase!=Succeeded,status.phase!=Failed").
  std::string field_selector;
};

// Receives the resource's events, on the reflector's thread, one at a time.
class ReflectorHandler {
 public:
  virtual ~ReflectorHandler() = default;
  virtual void OnAdd(const nlohmann::json& object) = 0;
  // A newer version of an object the store held (a relist reports only
  // objects whose resourceVersion moved: an unchanged one tells the
  // scheduler nothing, which upstream's handlers also ignore).
  virtual void OnUpdate(const nlohmann::json& old_object, const nlohmann::json& object) = 0;
  // The object as last known (after a relist, as it was before the gap).
  virtual void OnDelete(const nlohmann::json& object) = 0;
  // Every object of the first list has been handed over.
  virtual void OnSynced() {}
};

struct ReflectorOptions {
  int page_size = 500;
  // The watch's timeoutSeconds is drawn from [min, 2*min), as client-go.
  absl::Duration min_watch_timeout = absl::Minutes(5);
  absl::Duration initial_backoff = absl::Milliseconds(800);
  absl::Duration max_backoff = absl::Seconds(30);
};

class Reflector {
 public:
  Reflector(const ApiClient& client, ResourceSpec spec, ReflectorHandler& handler,
            ReflectorOptions options = {});

  // Lists and watches until `stop` turns true (then returns within about a
  // second). Call on a thread of its own, once.
  void Run(const std::atomic<bool>& stop);

  // The first list has been handed to the handler.
  bool HasSynced() const { return synced_.load(); }
  // Counters, for tests and metrics: lists made (the first included),
  // watches started.
  int64_t lists() const { return lists_.load(); }
  int64_t watches() const { return watches_.load(); }
  std::string last_resource_version() const;

 private:
  // Outcome of one watch.
  enum class WatchEnd { kResume, kRelist, kFailed };

  absl::Status List(const std::atomic<bool>& stop);
  WatchEnd Watch(const std::atomic<bool>& stop);
  // Applies one watch event line; false when the line is not an event.
  bool ApplyEvent(std::string_view line, WatchEnd& end);
  void Put(const std::string& key, nlohmann::json object);
  void SetResourceVersion(std::string rv);
  void Backoff(const std::atomic<bool>& stop);
  std::string Query(bool watch, const std::string& rv, const std::string& continue_token,
                    int64_t timeout) const;

  const ApiClient& client_;
  const ResourceSpec spec_;
  ReflectorHandler& handler_;
  const ReflectorOptions options_;
  absl::BitGen rng_;
  // namespace/name → last object seen. Only the Run thread touches it.
  std::map<std::string, nlohmann::json> store_;
  // After a 410 the next list reads from etcd (resourceVersion ""), not
  // from the watch cache at a version that is gone.
  bool relist_consistent_ = false;
  absl::Duration backoff_;
  std::atomic<bool> synced_{false};
  // The last list found the resource not served (404); reported once.
  bool not_served_ = false;
  std::atomic<int64_t> lists_{0}, watches_{0};
  mutable std::mutex mu_;
  std::string resource_version_;
};

// namespace/name (or name) of an object's JSON.
std::string ObjectKey(const nlohmann::json& object);

}  // namespace schedkit::kube::internal

#endif  // SCHEDKIT_LIB_KUBE_REFLECTOR_H_
