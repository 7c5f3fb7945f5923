// kube_bench's view of the pods: a WATCH of every pod, from one
// resourceVersion on (resumed where it stopped when the server ends it),
// that records when this process first saw each pod (ADDED) and first saw
// it with spec.nodeName (bound), on the monotonic clock, to the microsecond.
#ifndef SCHEDKIT_BENCH_KUBE_POD_WATCH_H_
#define SCHEDKIT_BENCH_KUBE_POD_WATCH_H_

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "schedkit/kube/api_client.h"

namespace schedkit::bench {

class PodWatch {
 public:
  using Clock = std::chrono::steady_clock;
  struct Seen {
    Clock::time_point added{};
    Clock::time_point bound{};  // epoch: not bound yet
  };

  // Watches from `resource_version` (a LIST's) until destroyed.
  PodWatch(const kube::ApiClient& client, std::string resource_version);
  ~PodWatch();

  // Pods of `ns` seen bound.
  int Bound(const std::string& ns) const;
  // Why the watch ended (the server closed it, or an error), or OK while it
  // still runs: a caller waiting for pods gives up then.
  absl::Status Ended() const;
  // Every pod seen, "namespace/name" → times.
  std::map<std::string, Seen> Snapshot() const;

 private:
  void Consume(std::string_view line);

  const kube::ApiClient& client_;
  std::string resource_version_;  // the last seen; guarded by mu_ once the thread runs
  std::atomic<bool> cancel_{false};
  mutable std::mutex mu_;
  std::map<std::string, Seen> seen_;
  std::map<std::string, int> bound_;
  std::string partial_;
  absl::Status ended_;    // guarded by mu_
  absl::Status expired_;  // a 410 ERROR event; guarded by mu_
  std::thread thread_;
};

}  // namespace schedkit::bench

#endif  // SCHEDKIT_BENCH_KUBE_POD_WATCH_H_
