// Internal: the scheduler's events written to the API as events.k8s.io/v1
// Events, as upstream's event broadcaster does: queued by the thread that
// records them (never blocking it), posted by one worker thread through its
// own client (its own rate limit), retried on transport and server errors
// (up to 12 times, 10 s apart), dropped when the server refuses them or the
// queue holds 1,000 already. Each occurrence is its own Event: upstream's
// local aggregation into a series is not done.
#ifndef SCHEDKIT_LIB_KUBE_EVENT_SINK_H_
#define SCHEDKIT_LIB_KUBE_EVENT_SINK_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "absl/time/time.h"
#include "schedkit/kube/api_client.h"
#include "schedkit/scheduler/host.h"

namespace schedkit::kube::internal {

struct EventSinkOptions {
  // reportingInstance is "<reportingController>-<hostname>".
  std::string hostname;
  size_t max_queued = 1000;
  int max_attempts = 12;
  absl::Duration retry_interval = absl::Seconds(10);
};

// What client-go's Lease lock records through kube-scheduler's legacy
// recorder: a Normal core/v1 Event, reason LeaderElection, about the Lease,
// from the first profile's schedulerName; message "<identity> became leader".
struct LeaseEvent {
  std::string lease_namespace;
  std::string lease_name;
  std::string lease_uid;
  std::string lease_resource_version;
  std::string component;
  std::string message;
};

class EventSink {
 public:
  EventSink(const ApiClient& client, EventSinkOptions options);
  ~EventSink();  // Stop()

  // Builds the Event now (the pods may change later) and queues it. Any
  // thread; never blocks on the network.
  void Record(const scheduler::PodEvent& event);
  // The same for leader election's core/v1 Event on the Lease.
  void RecordLeaseEvent(const LeaseEvent& event);
  // Posts what is queued, waiting up to `timeout`, then stops the worker.
  void Stop(absl::Duration timeout = absl::Seconds(2));

  int64_t posted() const;
  int64_t dropped() const;

 private:
  struct Pending {
    std::string path;
    std::string body;
  };
  void Enqueue(Pending pending);
  void Run();

  const ApiClient& client_;
  const EventSinkOptions options_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Pending> queue_;
  bool stopping_ = false;
  absl::Time deadline_ = absl::InfiniteFuture();
  int64_t posted_ = 0;
  int64_t dropped_ = 0;
  std::thread worker_;
};

// Its JSON (name "<lease>.<hex nanoseconds>", first and last timestamps
// of `now`, count 1); exposed for tests.
std::string LeaseEventJson(const LeaseEvent& event, absl::Time now);

// The JSON of one events.k8s.io/v1 Event as upstream's recorder makes it
// (name "<pod>.<hex nanoseconds>", eventTime with microseconds, regarding
// and related as object references); exposed for tests.
std::string EventJson(const scheduler::PodEvent& event, std::string_view hostname, absl::Time now);

}  // namespace schedkit::kube::internal

#endif  // SCHEDKIT_LIB_KUBE_EVENT_SINK_H_
