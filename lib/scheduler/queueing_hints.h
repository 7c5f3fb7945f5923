// Internal to the scheduling queue: which cluster events may make a pending
// pod schedulable, and how soon to retry it (upstream's queueing hints,
// always on since v1.37). Each profile's plugins that can
// reject a pod registered events, some with a hint function; a pod in the
// unschedulable pool is asked about an event through the plugins that
// rejected it in its last attempt.
//
//   QueueingHints hints;
//   if (hints.IsEventOfInterest(event))
//     switch (hints.IsPodWorthRequeuing(fw, info, event, objects)) { ... }
//
// Not thread-safe: the queue calls it under its lock. Hint functions run
// there too, so they must not call back into the queue.
#ifndef SCHEDKIT_LIB_SCHEDULER_QUEUEING_HINTS_H_
#define SCHEDKIT_LIB_SCHEDULER_QUEUEING_HINTS_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "schedkit/base/symbol.h"
#include "schedkit/framework/events.h"
#include "schedkit/framework/framework.h"
#include "schedkit/framework/queued_pod_info.h"

namespace schedkit::scheduler {

// What isPodWorthRequeuing decides for a pod and an event, weakest first.
enum class Strategy : uint8_t { kSkip, kAfterBackoff, kImmediately };

// Whether the pod's last attempt named any rejector plugin (unschedulable or
// pending); a pod without one failed with an error.
bool HasRejectors(const framework::QueuedPodInfo& info);

class QueueingHints {
 public:
  // Registers `fw`'s plugins (once per profile; null is no profile), so that
  // IsEventOfInterest knows them. Frameworks outlive the queue, so their
  // addresses are stable keys.
  void AddProfile(const framework::Framework* fw);

  // Upstream isEventOfInterest: a wildcard, or an event some registered
  // profile's plugin registered for.
  bool IsEventOfInterest(const framework::ClusterEvent& event) const;

  // Whether the plugin that gates the pod (info.gating_plugin) registered
  // for `event`.
  bool GatingPluginInterested(const framework::Framework* fw, const framework::QueuedPodInfo& info,
                              const framework::ClusterEvent& event);

  // Upstream isPodWorthRequeuing: asks the pod's rejector plugins that
  // registered for the event, through their hints. A Pending plugin that
  // says Queue retries the pod at once; otherwise a Queue retries it after
  // its backoff. A hint that errs counts as Queue, so that no pod is
  // stranded in the pool.
  Strategy IsPodWorthRequeuing(const framework::Framework* fw, const framework::QueuedPodInfo& info,
                               const framework::ClusterEvent& event, const framework::EventObjects& objects);

 private:
  // A plugin's registrations as the queue uses them (upstream buildQueueingHintMap).
  struct PluginHints {
    Symbol plugin;
    std::vector<framework::ClusterEventWithHint> events;
  };
  using ProfileHints = std::vector<PluginHints>;

  static ProfileHints Build(const framework::Framework& fw);
  // The profile's registrations, built on first use; null for no profile.
  const ProfileHints* For(const framework::Framework* fw);

  absl::flat_hash_map<const framework::Framework*, std::unique_ptr<ProfileHints>> profiles_;
};

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_LIB_SCHEDULER_QUEUEING_HINTS_H_
