// Internal to the scheduling queue: a pod as the queue holds it (its Entry),
// and the orders of the three heaps it may sit in — activeQ by the profile's
// QueueSort plugin, backoffQ by backoff window then activeQ's order, and the
// error backoffQ by expiry alone.
//
//   IndexedHeap<Entry, ActiveOrder, ActiveKey> active(ActiveOrder{queue_sort});
//   active.Push(entry, ActiveKey::Of(*entry));
//
// Plain data and comparisons; the queue guards them with its lock.
#ifndef SCHEDKIT_LIB_SCHEDULER_QUEUE_ENTRY_H_
#define SCHEDKIT_LIB_SCHEDULER_QUEUE_ENTRY_H_

#include <cstddef>
#include <cstdint>

#include "absl/time/time.h"
#include "schedkit/framework/framework.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/queued_pod_info.h"

namespace schedkit::scheduler {

// Where a held pod is.
enum class Place : uint8_t { kDetached, kActive, kBackoff, kErrorBackoff, kPool };

struct Entry {
  framework::QueuedPodInfo info;
  // The pod's profile, resolved once when the entry is made.
  framework::Framework* fw = nullptr;
  Place place = Place::kDetached;
  size_t heap_index = 0;
  // Unique per entry; orders the pool so events visit pods deterministically.
  uint64_t id = 0;
  // Aligned backoff expiry, cached while the entry is in a backoff heap
  // (upstream's QueuedPodInfo.BackoffExpiration).
  absl::Time backoff_expiry = absl::InfinitePast();
  // The QueueSort plugin's rank of info.pod, when it gives one: heap
  // comparisons then read the entry alone (no call, no PodInfo load).
  int64_t rank = 0;
  bool ranked = false;
};

// activeQ's order as far as the entry's own fields give it, kept beside each
// entry in the heap's array: with ranks, a comparison reads no entry.
struct ActiveKey {
  bool ranked = false;
  int64_t rank = 0;
  absl::Time timestamp;
  uint64_t sequence = 0;
  uint64_t id = 0;

  static ActiveKey Of(const Entry& e) { return ActiveKey{e.ranked, e.rank, e.info.timestamp, e.info.sequence, e.id}; }
};

// activeQ: the QueueSort order (by rank when the plugin gives ranks), then
// timestamp, then insertion sequence. The entries are read only for Less.
struct ActiveOrder {
  const framework::QueueSortPlugin* less;

  bool operator()(const ActiveKey& ka, const Entry& a, const ActiveKey& kb, const Entry& b) const {
    if (ka.ranked && kb.ranked) {
      if (ka.rank != kb.rank) return ka.rank < kb.rank;
    } else {
      if (less->Less(a.info, b.info)) return true;
      if (less->Less(b.info, a.info)) return false;
    }
    if (ka.timestamp != kb.timestamp) return ka.timestamp < kb.timestamp;
    if (ka.sequence != kb.sequence) return ka.sequence < kb.sequence;
    return ka.id < kb.id;
  }
  bool operator()(const Entry& a, const Entry& b) const { return (*this)(ActiveKey::Of(a), a, ActiveKey::Of(b), b); }
};

// backoffQ: expiry window, then activeQ's order (SchedulerPopFromBackoffQ).
struct BackoffOrder {
  ActiveOrder active;

  bool operator()(const Entry& a, const Entry& b) const {
    if (a.backoff_expiry != b.backoff_expiry) return a.backoff_expiry < b.backoff_expiry;
    return active(a, b);
  }
};

// Error backoffQ: expiry only (ties by insertion, for determinism).
struct ErrorBackoffOrder {
  bool operator()(const Entry& a, const Entry& b) const {
    if (a.backoff_expiry != b.backoff_expiry) return a.backoff_expiry < b.backoff_expiry;
    if (a.info.sequence != b.info.sequence) return a.info.sequence < b.info.sequence;
    return a.id < b.id;
  }
};

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_LIB_SCHEDULER_QUEUE_ENTRY_H_
