// Internal to the scheduling queue: per-pod exponential backoff, as
// upstream's backoff queue computes it. A pod that failed `count` times waits
// initial × 2^(count-1), capped at max; the expiry is truncated to whole
// seconds (upstream's backoffQOrderingWindowDuration), and a pod stays
// backing off for as long as its expiry's window has not begun.
//
//   const BackoffPolicy policy{absl::Seconds(1), absl::Seconds(10)};
//   absl::Time expiry = policy.Expiry(info);         // InfinitePast: no backoff owed
//   if (!BackingOffUntil(expiry, clock.Now())) ...   // free to move to activeQ
//
// Pure functions of their arguments; any thread.
#ifndef SCHEDKIT_LIB_SCHEDULER_BACKOFF_H_
#define SCHEDKIT_LIB_SCHEDULER_BACKOFF_H_

#include "absl/time/time.h"
#include "schedkit/framework/queued_pod_info.h"

namespace schedkit::scheduler {

// Upstream's backoffQOrderingWindowDuration: backoff expiries are truncated to
// whole seconds and, within one window, backoffQ orders pods like activeQ.
inline constexpr absl::Duration kBackoffOrderingWindow = absl::Seconds(1);

// `t` truncated to the start of its ordering window.
absl::Time AlignToWindow(absl::Time t);

// Whether a pod whose aligned expiry is `expiry` still backs off at `now`:
// until the window after the expiry's has begun.
inline bool BackingOffUntil(absl::Time expiry, absl::Time now) { return expiry >= AlignToWindow(now); }

// The failures that count for backoff: consecutive errors when the last
// attempt ended in one, else the unschedulable attempts.
int BackoffCount(const framework::QueuedPodInfo& info);

// The scheduler's podInitialBackoffSeconds and podMaxBackoffSeconds.
struct BackoffPolicy {
  absl::Duration initial = absl::Seconds(1);
  absl::Duration max = absl::Seconds(10);

  // initial × 2^(count-1), capped at max; zero for count <= 0 (upstream's
  // calculateBackoffDuration), without overflow for any count.
  absl::Duration DurationForCount(int count) const;
  // The pod's aligned backoff expiry, counted from its timestamp; InfinitePast
  // when it owes no backoff (no failure yet, or a max of zero).
  absl::Time Expiry(const framework::QueuedPodInfo& info) const;
};

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_LIB_SCHEDULER_BACKOFF_H_
