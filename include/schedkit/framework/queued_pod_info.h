// QueuedPodInfo: a pod as the scheduling queue holds it — the parsed pod plus
// its queueing history, which QueueSort plugins compare and backoff reads.
#ifndef SCHEDKIT_FRAMEWORK_QUEUED_POD_INFO_H_
#define SCHEDKIT_FRAMEWORK_QUEUED_POD_INFO_H_

#include "absl/container/flat_hash_set.h"
#include "absl/time/time.h"
#include "schedkit/base/symbol.h"
#include "schedkit/framework/pod_info.h"

namespace schedkit::framework {

struct QueuedPodInfo {
  PodInfoPtr pod;
  // When the pod was added to the queue or last moved back into activeQ
  // (upstream's Timestamp; PrioritySort's tie-break).
  absl::Time timestamp = absl::InfinitePast();
  // When the pool last flushed it for staying too long (upstream's
  // FlushTimestamp, v1.37); cleared by each attempt. A pod a PreEnqueue
  // plugin keeps gated is thus flushed once per period, not at every tick.
  absl::Time flush_timestamp = absl::InfinitePast();
  // When it was first added; for the scheduling SLI.
  absl::Time initial_attempt_timestamp = absl::InfinitePast();
  // Monotonic insertion number: orders pods with equal timestamps stably.
  uint64_t sequence = 0;
  int attempts = 0;
  // Failed attempts counted for backoff (rejections and errors).
  int unschedulable_count = 0;
  int consecutive_errors = 0;
  absl::Time last_failure = absl::InfinitePast();
  // Plugins that rejected the pod in its last attempt, and those that left it
  // Pending; they decide which events requeue it.
  absl::flat_hash_set<Symbol> unschedulable_plugins;
  absl::flat_hash_set<Symbol> pending_plugins;
  // Set while a PreEnqueue plugin keeps the pod out of activeQ.
  bool gated = false;
  Symbol gating_plugin;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_QUEUED_POD_INFO_H_
