#include "scheduler/backoff.h"

#include <cstdint>

namespace schedkit::scheduler {

absl::Time AlignToWindow(absl::Time t) {
  return absl::UnixEpoch() + absl::Floor(t - absl::UnixEpoch(), kBackoffOrderingWindow);
}

int BackoffCount(const framework::QueuedPodInfo& info) {
  return info.consecutive_errors > 0 ? info.consecutive_errors : info.unschedulable_count;
}

absl::Duration BackoffPolicy::DurationForCount(int count) const {
  if (count <= 0) return absl::ZeroDuration();
  const int64_t initial_ns = absl::ToInt64Nanoseconds(initial);
  const int64_t max_ns = absl::ToInt64Nanoseconds(max);
  const int shift = count - 1;
  // Doubling `initial` `shift` times overshoots `max` exactly when
  // initial > max >> shift; comparing that way cannot overflow.
  const int64_t limit = shift >= 63 ? 0 : (max_ns >> shift);
  if (initial_ns > limit) return max;
  if (shift >= 63) return absl::ZeroDuration();
  return absl::Nanoseconds(initial_ns << shift);
}

absl::Time BackoffPolicy::Expiry(const framework::QueuedPodInfo& info) const {
  if (max <= absl::ZeroDuration()) return absl::InfinitePast();
  const int count = BackoffCount(info);
  if (count <= 0) return absl::InfinitePast();
  return AlignToWindow(info.timestamp + DurationForCount(count));
}

}  // namespace schedkit::scheduler
