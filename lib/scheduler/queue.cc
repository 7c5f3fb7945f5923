// SchedulingQueue: upstream v1.35's PriorityQueue (backend/queue) with the
// default feature gates — SchedulerQueueingHints (GA) and
// SchedulerPopFromBackoffQ (beta, on).
//
// One lock guards everything: activeQ, the two backoff heaps, the
// unschedulable pool, in-flight pods and events, and the nominator. Upstream
// splits it into four locks so that Pop does not contend with event handling;
// here the critical sections are short and the scheduler pops one pod at a
// time, so one lock keeps the ordering rules obvious. It is a shared lock
// (readers: the nominator lookups of the filter threads, listings) that spins
// briefly before sleeping (spinning_mutex.h): a host adds pods while the
// scheduling thread pops them.
//
// Every pod the queue holds is an Entry owned by `entries_` (keyed by uid) and
// referenced from exactly one place: the activeQ heap, one of the backoff
// heaps, or the pool. Moving a pod always detaches it first and then places
// it, so each placement decides the pod's sub-queue afresh, like upstream's
// moveToActiveQ/moveToBackoffQ.
#include "schedkit/scheduler/queue.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <iterator>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/btree_map.h"
#include "absl/container/flat_hash_map.h"
#include "absl/time/clock.h"
#include "scheduler/queue_heap.h"
#include "scheduler/queue_pod_update.h"
#include "scheduler/spinning_mutex.h"

namespace schedkit::scheduler {
namespace {

using framework::ClusterEvent;
using framework::ClusterEventWithHint;
using framework::EventObjects;
using framework::EventResource;
using framework::Framework;
using framework::PodInfo;
using framework::PodInfoPtr;
using framework::QueuedPodInfo;
using framework::QueueingHint;
using queue_internal::IndexedHeap;

// Upstream's backoffQOrderingWindowDuration: backoff expiries are truncated to
// whole seconds and, within one window, backoffQ orders pods like activeQ.
constexpr absl::Duration kOrderingWindow = absl::Seconds(1);

// Upstream's labels of its two wildcard events.
constexpr char kEventForceActivate[] = "ForceActivate";
constexpr char kEventUnschedulableTimeout[] = "UnschedulableTimeout";

// The gating plugin recorded when a PreEnqueue status names none.
constexpr char kPreEnqueueFallbackPlugin[] = "PreEnqueue";

ClusterEvent WildcardEvent(const char* label) {
  return ClusterEvent{EventResource::kWildcard, framework::kActionAll, label};
}

// What isPodWorthRequeuing decides for a pod and an event, weakest first.
enum class Strategy : uint8_t { kSkip, kAfterBackoff, kImmediately };

// Where a held pod is.
enum class Place : uint8_t { kDetached, kActive, kBackoff, kErrorBackoff, kPool };

struct Entry {
  QueuedPodInfo info;
  // The pod's profile, resolved once when the entry is made.
  Framework* fw = nullptr;
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

// A cluster event kept for in-flight pods, owning its objects (shared with
// the caller, or copies when the caller's pointers live only for the call).
struct RecordedEvent {
  ClusterEvent event;
  SharedEventObjects owned;

  EventObjects objects() const { return owned.view(); }
};

// One element of the in-flight list: a pod's marker (set when it was popped)
// or an event. Events after a pod's marker arrived while it was in flight.
struct InFlightItem {
  std::string pod_uid;                         // a marker when non-empty
  std::shared_ptr<const RecordedEvent> event;  // an event otherwise
};

// A plugin's registrations as the queue uses them (upstream buildQueueingHintMap).
struct PluginHints {
  Symbol plugin;
  std::vector<ClusterEventWithHint> events;
};
struct ProfileHints {
  std::vector<PluginHints> plugins;
};

ProfileHints BuildProfileHints(const Framework& fw) {
  ProfileHints out;
  for (const Framework::PluginEvents& pe : fw.enqueue_events()) {
    // A plugin that registered nothing is requeued only by its own pod updates
    // through other plugins, or by wildcard events.
    if (pe.events.empty()) continue;
    PluginHints ph{pe.plugin, pe.events};
    // Upstream's workaround for kubernetes#109437: a plugin interested in
    // Node/Add also gets Node/UpdateNodeTaint (always Queue), because a node
    // added with a NoSchedule taint is only announced as schedulable later
    // by a taint update.
    bool node_add = false;
    bool node_taint = false;
    for (const ClusterEventWithHint& e : pe.events) {
      if (e.event.resource != EventResource::kNode) continue;
      node_add |= (e.event.action & framework::kActionAdd) != 0;
      node_taint |= (e.event.action & framework::kActionUpdateNodeTaint) != 0;
    }
    if (node_add && !node_taint) {
      ph.events.push_back(ClusterEventWithHint{
          ClusterEvent{EventResource::kNode, framework::kActionUpdateNodeTaint, "NodeUpdateNodeTaint"}, {}});
    }
    out.plugins.push_back(std::move(ph));
  }
  return out;
}

bool IsRejector(const QueuedPodInfo& info, Symbol plugin) {
  return info.unschedulable_plugins.contains(plugin) || info.pending_plugins.contains(plugin);
}

bool HasRejectors(const QueuedPodInfo& info) {
  return !info.unschedulable_plugins.empty() || !info.pending_plugins.empty();
}

absl::Time AlignToWindow(absl::Time t) {
  return absl::UnixEpoch() + absl::Floor(t - absl::UnixEpoch(), kOrderingWindow);
}

}  // namespace

struct SchedulingQueue::Impl {
  explicit Impl(QueueOptions o)
      : options(std::move(o)),
        active(ActiveLess{this}),
        backoff(BackoffLess{this}),
        error_backoff(ErrorBackoffLess{}) {}

  // activeQ's order as far as the entry's own fields give it, kept beside
  // each entry in the heap's array: with ranks, a comparison reads no entry.
  struct ActiveKey {
    bool ranked = false;
    int64_t rank = 0;
    absl::Time timestamp;
    uint64_t sequence = 0;
    uint64_t id = 0;
  };
  static ActiveKey ActiveKeyOf(const Entry& e) {
    return ActiveKey{e.ranked, e.rank, e.info.timestamp, e.info.sequence, e.id};
  }
  struct ActiveLess {
    const Impl* impl;
    bool operator()(const ActiveKey& ka, const Entry& a, const ActiveKey& kb, const Entry& b) const {
      return impl->LessActive(ka, a, kb, b);
    }
  };
  // backoffQ: expiry window, then activeQ's order (SchedulerPopFromBackoffQ).
  struct BackoffLess {
    const Impl* impl;
    bool operator()(const Entry& a, const Entry& b) const {
      if (a.backoff_expiry != b.backoff_expiry) return a.backoff_expiry < b.backoff_expiry;
      return impl->LessActive(a, b);
    }
  };
  // Error backoffQ: expiry only (ties by insertion, for determinism).
  struct ErrorBackoffLess {
    bool operator()(const Entry& a, const Entry& b) const {
      if (a.backoff_expiry != b.backoff_expiry) return a.backoff_expiry < b.backoff_expiry;
      if (a.info.sequence != b.info.sequence) return a.info.sequence < b.info.sequence;
      return a.id < b.id;
    }
  };

  // activeQ: the QueueSort order (by rank when the plugin gives ranks), then
  // timestamp, then insertion sequence. The entries are read only for Less.
  bool LessActive(const ActiveKey& ka, const Entry& a, const ActiveKey& kb, const Entry& b) const {
    if (ka.ranked && kb.ranked) {
      if (ka.rank != kb.rank) return ka.rank < kb.rank;
    } else {
      if (options.less->Less(a.info, b.info)) return true;
      if (options.less->Less(b.info, a.info)) return false;
    }
    if (ka.timestamp != kb.timestamp) return ka.timestamp < kb.timestamp;
    if (ka.sequence != kb.sequence) return ka.sequence < kb.sequence;
    return ka.id < kb.id;
  }
  bool LessActive(const Entry& a, const Entry& b) const {
    return LessActive(ActiveKeyOf(a), a, ActiveKeyOf(b), b);
  }

  absl::Time Now() const { return options.clock->Now(); }

  // ------------------------------------------------------------ profiles

  Framework* FrameworkFor(const PodInfo& pod) const {
    return options.framework_for_pod ? options.framework_for_pod(pod) : nullptr;
  }

  // The profile's registrations, built on first use. Frameworks outlive the
  // queue, so their addresses are stable keys.
  const ProfileHints* HintsFor(Framework* fw) {
    if (fw == nullptr) return nullptr;
    auto it = hints.find(fw);
    if (it == hints.end()) {
      it = hints.emplace(fw, std::make_unique<ProfileHints>(BuildProfileHints(*fw))).first;
    }
    return it->second.get();
  }

  // Upstream isEventOfInterest: some profile registered a matching event.
  bool IsEventOfInterest(const ClusterEvent& event) const {
    if (event.IsWildcard()) return true;
    for (const auto& [fw, ph] : hints) {
      for (const PluginHints& p : ph->plugins) {
        for (const ClusterEventWithHint& e : p.events) {
          if (e.event.Matches(event)) return true;
        }
      }
    }
    return false;
  }

  // Whether the plugin that gates `e` registered for `event`.
  bool GatingPluginInterested(Entry& e, const ClusterEvent& event) {
    const ProfileHints* ph = HintsFor(e.fw);
    if (ph == nullptr) return false;
    for (const PluginHints& p : ph->plugins) {
      if (p.plugin != e.info.gating_plugin) continue;
      for (const ClusterEventWithHint& r : p.events) {
        if (r.event.Matches(event)) return true;
      }
    }
    return false;
  }

  // ------------------------------------------------------------ backoff

  absl::Duration DurationForCount(int count) const {
    if (count <= 0) return absl::ZeroDuration();
    const int64_t initial = absl::ToInt64Nanoseconds(options.pod_initial_backoff);
    const int64_t max = absl::ToInt64Nanoseconds(options.pod_max_backoff);
    const int shift = count - 1;
    // Doubling `initial` `shift` times overshoots `max` exactly when
    // initial > max >> shift; comparing that way cannot overflow.
    const int64_t limit = shift >= 63 ? 0 : (max >> shift);
    if (initial > limit) return options.pod_max_backoff;
    if (shift >= 63) return absl::ZeroDuration();
    return absl::Nanoseconds(initial << shift);
  }

  static int BackoffCount(const QueuedPodInfo& info) {
    // An error in the last attempt counts consecutive errors instead.
    return info.consecutive_errors > 0 ? info.consecutive_errors : info.unschedulable_count;
  }

  // InfinitePast when the pod owes no backoff.
  absl::Time BackoffExpiry(const QueuedPodInfo& info) const {
    if (options.pod_max_backoff <= absl::ZeroDuration()) return absl::InfinitePast();
    const int count = BackoffCount(info);
    if (count <= 0) return absl::InfinitePast();
    return AlignToWindow(info.timestamp + DurationForCount(count));
  }

  // A pod whose expiry falls in the current window is still backing off.
  bool BackingOffUntil(absl::Time expiry) const { return expiry >= AlignToWindow(Now()); }
  bool IsBackingOff(const QueuedPodInfo& info) const { return BackingOffUntil(BackoffExpiry(info)); }

  // ------------------------------------------------------------ placement

  std::unique_ptr<Entry> NewEntry(QueuedPodInfo info) {
    auto e = std::make_unique<Entry>();
    e->info = std::move(info);
    e->fw = FrameworkFor(*e->info.pod);
    HintsFor(e->fw);  // so IsEventOfInterest knows this profile
    SetRank(*e);
    e->id = ++next_entry_id;
    return e;
  }

  // After every change of e.info.pod, before the entry is placed or fixed.
  void SetRank(Entry& e) const {
    const std::optional<int64_t> rank = options.less->Rank(*e.info.pod);
    e.ranked = rank.has_value();
    e.rank = rank.value_or(0);
  }

  QueuedPodInfo NewQueuedPodInfo(PodInfoPtr pod) const {
    QueuedPodInfo info;
    info.pod = std::move(pod);
    info.timestamp = Now();
    return info;
  }

  Entry* Find(const std::string& uid) const {
    auto it = entries.find(uid);
    return it == entries.end() ? nullptr : it->second.get();
  }

  // Takes the entry out of its sub-queue and out of `entries`.
  std::unique_ptr<Entry> Detach(Entry* e) {
    switch (e->place) {
      case Place::kActive:
        active.Erase(e);
        break;
      case Place::kBackoff:
        backoff.Erase(e);
        break;
      case Place::kErrorBackoff:
        error_backoff.Erase(e);
        break;
      case Place::kPool:
        pool.erase(e->id);
        if (e->info.gated) --pool_gated;
        break;
      case Place::kDetached:
        break;
    }
    e->place = Place::kDetached;
    auto it = entries.find(e->info.pod->uid());
    std::unique_ptr<Entry> own = std::move(it->second);
    entries.erase(it);
    NominationsMayChange(own->info.pod->uid());
    return own;
  }

  // Drops whatever entry holds `uid` (a re-added pod replaces the old one).
  void DropExisting(const std::string& uid) {
    if (Entry* old = Find(uid)) Detach(old);
  }

  void PlaceActive(std::unique_ptr<Entry> e) {
    Entry* raw = e.get();
    raw->info.sequence = ++next_sequence;
    raw->place = Place::kActive;
    entries.emplace(raw->info.pod->uid(), std::move(e));
    NominationsMayChange(raw->info.pod->uid());
    active.Push(raw, ActiveKeyOf(*raw));
  }

  void PlaceBackoff(std::unique_ptr<Entry> e) {
    Entry* raw = e.get();
    raw->backoff_expiry = BackoffExpiry(raw->info);
    entries.emplace(raw->info.pod->uid(), std::move(e));
    NominationsMayChange(raw->info.pod->uid());
    // Pods that failed with an error (no rejector plugins) wait in their own
    // heap, which PopFromBackoffQ does not take from.
    if (HasRejectors(raw->info)) {
      raw->place = Place::kBackoff;
      backoff.Push(raw);
    } else {
      raw->place = Place::kErrorBackoff;
      error_backoff.Push(raw);
    }
  }

  void PlacePool(std::unique_ptr<Entry> e) {
    Entry* raw = e.get();
    raw->place = Place::kPool;
    if (raw->info.gated) ++pool_gated;
    entries.emplace(raw->info.pod->uid(), std::move(e));
    NominationsMayChange(raw->info.pod->uid());
    pool.emplace(raw->id, raw);
  }

  // Upstream runPreEnqueuePlugins: a rejection records the plugin as the
  // gating plugin and as an unschedulable plugin; success clears the gate.
  void RunPreEnqueue(Entry& e) {
    QueuedPodInfo& info = e.info;
    framework::Status s = e.fw != nullptr ? e.fw->RunPreEnqueuePlugins(*info.pod) : framework::Status();
    if (s.IsSuccess()) {
      info.gating_plugin = Symbol();
      info.gated = false;
      return;
    }
    Symbol plugin = s.plugin().empty() ? Symbol::Intern(kPreEnqueueFallbackPlugin) : s.plugin();
    info.unschedulable_plugins.insert(plugin);
    info.gating_plugin = plugin;
    info.gated = true;
  }

  // Upstream moveToActiveQ. `from_backoff` skips PreEnqueue, which already ran
  // when the pod entered backoffQ. `nominate` registers the pod's own
  // status.nominatedNodeName, as upstream does for unscheduled-pod add/update.
  bool MoveToActiveQ(std::unique_ptr<Entry> e, bool from_backoff, bool nominate) {
    if (!from_backoff) RunPreEnqueue(*e);
    const std::string& uid = e->info.pod->uid();
    if (e->info.gated) {
      // Gated: wait in the pool, unless the pod is already held elsewhere.
      if (Find(uid) == nullptr) PlacePool(std::move(e));
      return false;
    }
    if (e->info.initial_attempt_timestamp == absl::InfinitePast()) e->info.initial_attempt_timestamp = Now();
    DropExisting(uid);
    PodInfoPtr pod = e->info.pod;
    PlaceActive(std::move(e));
    if (nominate) AddNominatedLocked(pod, std::nullopt);
    return true;
  }

  // Upstream moveToBackoffQ; PreEnqueue runs on the way in
  // (SchedulerPopFromBackoffQ), so a pod popped early from backoffQ is ungated.
  bool MoveToBackoffQ(std::unique_ptr<Entry> e) {
    RunPreEnqueue(*e);
    const std::string& uid = e->info.pod->uid();
    if (e->info.gated) {
      if (Find(uid) == nullptr) PlacePool(std::move(e));
      return false;
    }
    DropExisting(uid);
    PlaceBackoff(std::move(e));
    return true;
  }

  // Upstream requeuePodWithQueueingStrategy; returns where the pod went.
  Place Requeue(std::unique_ptr<Entry> e, Strategy strategy, bool nominate) {
    if (strategy == Strategy::kSkip) {
      PlacePool(std::move(e));
      return Place::kPool;
    }
    if (strategy == Strategy::kAfterBackoff && IsBackingOff(e->info)) {
      return MoveToBackoffQ(std::move(e)) ? Place::kBackoff : Place::kPool;
    }
    return MoveToActiveQ(std::move(e), /*from_backoff=*/false, nominate) ? Place::kActive : Place::kPool;
  }

  static bool Activates(Place p) { return p == Place::kActive || p == Place::kBackoff; }

  // Upstream moveToActiveQ is told the event label and nominates on the two
  // unscheduled-pod events only.
  static bool NominatesOn(const ClusterEvent& event) {
    return event.resource == EventResource::kUnscheduledPod &&
           (event.action == framework::kActionAdd || event.action == framework::kActionUpdate);
  }

  // ------------------------------------------------------------ hints

  // Upstream isPodWorthRequeuing.
  Strategy IsPodWorthRequeuing(Entry& e, const ClusterEvent& event, const EventObjects& objects) {
    const QueuedPodInfo& info = e.info;
    // A pod that failed with an error has no rejector to ask.
    if (!HasRejectors(info)) return Strategy::kAfterBackoff;
    if (event.IsWildcard()) {
      // A wildcard event that carries an object targets that pod only
      // (ForceActivate of an in-flight pod).
      if (objects.new_pod != nullptr) {
        return objects.new_pod->metadata().uid() == info.pod->uid() ? Strategy::kAfterBackoff
                                                                    : Strategy::kSkip;
      }
      if (objects.new_node != nullptr) return Strategy::kSkip;
      return Strategy::kAfterBackoff;
    }
    const ProfileHints* ph = HintsFor(e.fw);
    if (ph == nullptr) return Strategy::kAfterBackoff;  // no profile serves it

    Strategy strategy = Strategy::kSkip;
    for (const PluginHints& p : ph->plugins) {
      if (!IsRejector(info, p.plugin)) continue;
      for (const ClusterEventWithHint& r : p.events) {
        if (!r.event.Matches(event)) continue;
        QueueingHint hint = QueueingHint::kQueue;
        if (r.hint) {
          absl::StatusOr<QueueingHint> h = r.hint(*info.pod, objects);
          // An error must not strand the pod in the pool: treat it as Queue.
          hint = h.ok() ? *h : QueueingHint::kQueue;
        }
        if (hint == QueueingHint::kSkip) continue;
        if (info.pending_plugins.contains(p.plugin)) return Strategy::kImmediately;
        // Only a Pending plugin can do better than AfterBackoff.
        if (info.pending_plugins.empty()) return Strategy::kAfterBackoff;
        strategy = Strategy::kAfterBackoff;
      }
    }
    return strategy;
  }

  // Upstream determineSchedulingHintForInFlightPod: replays the events that
  // arrived while the pod was in flight.
  Strategy HintForReturningPod(Entry& e) {
    if (!HasRejectors(e.info)) return Strategy::kAfterBackoff;
    auto it = in_flight.find(e.info.pod->uid());
    if (it == in_flight.end()) return Strategy::kAfterBackoff;  // never popped: retry
    Strategy strategy = Strategy::kSkip;
    for (auto item = std::next(it->second.marker); item != in_flight_list.end(); ++item) {
      if (!item->event) continue;  // another pod's marker
      switch (IsPodWorthRequeuing(e, item->event->event, item->event->objects())) {
        case Strategy::kSkip:
          break;
        case Strategy::kImmediately:
          return Strategy::kImmediately;
        case Strategy::kAfterBackoff:
          strategy = Strategy::kAfterBackoff;
          if (e.info.pending_plugins.empty()) return strategy;
          break;
      }
    }
    return strategy;
  }

  // ------------------------------------------------------------ in flight

  void RecordEvent(std::shared_ptr<const RecordedEvent> ev) {
    in_flight_list.push_back(InFlightItem{std::string(), std::move(ev)});
    ++in_flight_events;
  }

  static std::shared_ptr<const RecordedEvent> CopyEvent(const ClusterEvent& event,
                                                        const EventObjects& objects) {
    auto ev = std::make_shared<RecordedEvent>();
    ev->event = event;
    SharedEventObjects& o = ev->owned;
    if (objects.old_node != nullptr) o.old_node = std::make_shared<const api::v1::Node>(*objects.old_node);
    if (objects.new_node != nullptr) o.new_node = std::make_shared<const api::v1::Node>(*objects.new_node);
    if (objects.old_pod != nullptr) o.old_pod = std::make_shared<const api::v1::Pod>(*objects.old_pod);
    if (objects.new_pod != nullptr) o.new_pod = std::make_shared<const api::v1::Pod>(*objects.new_pod);
    return ev;
  }

  void DoneLocked(const std::string& uid) {
    auto it = in_flight.find(uid);
    if (it == in_flight.end()) return;
    in_flight_list.erase(it->second.marker);
    in_flight.erase(it);
    // Events before the oldest remaining marker concern no in-flight pod.
    while (!in_flight_list.empty() && in_flight_list.front().event) {
      in_flight_list.pop_front();
      --in_flight_events;
    }
  }

  // ------------------------------------------------------------ moves

  // Upstream movePodsToActiveOrBackoffQueue.
  // `owned`, when set, holds the objects `objects` points to.
  void MovePods(const std::vector<Entry*>& candidates, const ClusterEvent& event, const EventObjects& objects,
                const SharedEventObjects* owned = nullptr) {
    if (!IsEventOfInterest(event)) return;
    bool activated = false;
    for (Entry* e : candidates) {
      // A gated pod only moves on its gating plugin's events, or a wildcard.
      if (e->info.gated && !event.IsWildcard() && !GatingPluginInterested(*e, event)) continue;
      const Strategy strategy = IsPodWorthRequeuing(*e, event, objects);
      if (strategy == Strategy::kSkip) continue;
      std::unique_ptr<Entry> own = Detach(e);
      activated |= Activates(Requeue(std::move(own), strategy, NominatesOn(event)));
    }
    // In-flight pods replay this when they come back.
    if (!in_flight.empty()) {
      if (owned != nullptr) {
        RecordEvent(std::make_shared<const RecordedEvent>(RecordedEvent{event, *owned}));
      } else {
        RecordEvent(CopyEvent(event, objects));
      }
    }
    if (activated) cv.notify_all();
  }

  std::vector<Entry*> PoolEntries() const {
    std::vector<Entry*> out;
    out.reserve(pool.size());
    for (const auto& [id, e] : pool) out.push_back(e);
    return out;
  }

  // ------------------------------------------------------------ pop

  bool HasPoppable() const { return !active.empty() || !backoff.empty(); }

  std::optional<QueuedPodInfo> PopLocked() {
    while (!closed) {
      Entry* e = nullptr;
      if (!active.empty()) {
        e = active.Top();
      } else if (!backoff.empty()) {
        // SchedulerPopFromBackoffQ: an idle scheduler takes the pod whose
        // backoff ends first rather than wait for it (not from the error heap).
        e = backoff.Top();
      } else {
        return std::nullopt;
      }
      std::unique_ptr<Entry> own = Detach(e);
      QueuedPodInfo info = std::move(own->info);
      const std::string& uid = info.pod->uid();
      // A pod already in flight must not be tracked twice; drop this copy.
      if (in_flight.contains(uid)) continue;
      ++info.attempts;
      in_flight_list.push_back(InFlightItem{uid, nullptr});
      in_flight.emplace(uid, InFlight{info.pod, std::prev(in_flight_list.end())});
      // The next attempt decides its own rejectors.
      info.unschedulable_plugins.clear();
      info.pending_plugins.clear();
      info.gating_plugin = Symbol();
      info.gated = false;
      return info;
    }
    return std::nullopt;
  }

  // ------------------------------------------------------------ nominator

  // The nominations snapshot resolves each nominated pod to the queue's
  // latest copy, so a change to either invalidates it.
  void NominationsMayChange(const std::string& uid) {
    auto it = nominated_pod_to_node.find(uid);
    if (it != nominated_pod_to_node.end()) ResolveNominated(it->second);
  }

  // Rebuilds one node's list of latest pod copies; the next Snapshot() call
  // sees the new version and rebuilds the node's shard of it.
  void ResolveNominated(Symbol node) {
    ++nominations_version;
    auto it = nominated_pods.find(node);
    if (it == nominated_pods.end()) {
      resolved_nominated.Set(node, nullptr);
      return;
    }
    auto pods = std::make_shared<std::vector<PodInfoPtr>>();
    pods->reserve(it->second.size());
    for (const PodInfoPtr& p : it->second) {
      const Entry* e = Find(p->uid());
      pods->push_back(e != nullptr ? e->info.pod : p);
    }
    resolved_nominated.Set(node, std::move(pods));
  }

  void DeleteNominatedLocked(const std::string& uid) {
    auto it = nominated_pod_to_node.find(uid);
    if (it == nominated_pod_to_node.end()) return;
    auto nit = nominated_pods.find(it->second);
    if (nit != nominated_pods.end()) {
      std::vector<PodInfoPtr>& pods = nit->second;
      pods.erase(
          std::remove_if(pods.begin(), pods.end(), [&](const PodInfoPtr& p) { return p->uid() == uid; }),
          pods.end());
      if (pods.empty()) nominated_pods.erase(nit);
    }
    const Symbol node = it->second;
    nominated_pod_to_node.erase(it);
    ResolveNominated(node);
  }

  // Upstream addNominatedPodUnlocked; `node` set is ModeOverride, unset ModeNoop.
  void AddNominatedLocked(const PodInfoPtr& pod, std::optional<Symbol> node) {
    DeleteNominatedLocked(pod->uid());
    const Symbol target = node.has_value() ? *node : pod->nominated_node_name();
    if (target.empty()) return;
    // Upstream re-reads the pod from its lister and skips bound pods; the
    // pod given here is the freshest we have.
    if (!pod->node_name().empty()) return;
    nominated_pod_to_node[pod->uid()] = target;
    std::vector<PodInfoPtr>& pods = nominated_pods[target];
    for (const PodInfoPtr& p : pods) {
      if (p->uid() == pod->uid()) return;
    }
    pods.push_back(pod);
    ResolveNominated(target);
  }

  // Upstream UpdateNominatedPod: keeps an in-memory nomination across an
  // update that neither sets nor clears status.nominatedNodeName.
  void UpdateNominatedLocked(const PodInfo* old_pod, const PodInfoPtr& new_pod) {
    std::optional<Symbol> keep;
    const Symbol old_nnn = old_pod != nullptr ? old_pod->nominated_node_name() : Symbol();
    const std::string& old_uid = old_pod != nullptr ? old_pod->uid() : new_pod->uid();
    if (old_nnn.empty() && new_pod->nominated_node_name().empty()) {
      auto it = nominated_pod_to_node.find(old_uid);
      if (it != nominated_pod_to_node.end()) keep = it->second;
    }
    DeleteNominatedLocked(old_uid);
    AddNominatedLocked(new_pod, keep);
  }

  // ------------------------------------------------------------ metrics

  Counts CountsLocked() const {
    Counts c;
    c.active = static_cast<int>(active.size());
    c.backoff = static_cast<int>(backoff.size() + error_backoff.size());
    c.gated = pool_gated;
    c.unschedulable = static_cast<int>(pool.size()) - pool_gated;
    c.in_flight = static_cast<int>(in_flight.size());
    c.in_flight_events = in_flight_events;
    return c;
  }

  void ReportPendingLocked() {
    if (options.metrics == nullptr) return;
    const Counts c = CountsLocked();
    auto report = [&](int& last, int now, std::string_view queue) {
      if (last == now) return;
      last = now;
      options.metrics->SetPendingPods(queue, now);
    };
    report(reported.active, c.active, "active");
    report(reported.backoff, c.backoff, "backoff");
    report(reported.unschedulable, c.unschedulable, "unschedulable");
    report(reported.gated, c.gated, "gated");
  }

  // ------------------------------------------------------------ state

  const QueueOptions options;

  mutable SpinningSharedMutex mu;
  // Signalled when activeQ or backoffQ gains a pod, and on Close.
  std::condition_variable_any cv;

  absl::flat_hash_map<std::string, std::unique_ptr<Entry>> entries ABSL_GUARDED_BY(mu);
  IndexedHeap<Entry, ActiveLess, ActiveKey> active ABSL_GUARDED_BY(mu);
  IndexedHeap<Entry, BackoffLess> backoff ABSL_GUARDED_BY(mu);
  IndexedHeap<Entry, ErrorBackoffLess> error_backoff ABSL_GUARDED_BY(mu);
  absl::btree_map<uint64_t, Entry*> pool ABSL_GUARDED_BY(mu);
  int pool_gated ABSL_GUARDED_BY(mu) = 0;

  struct InFlight {
    PodInfoPtr pod;
    std::list<InFlightItem>::iterator marker;
  };
  absl::flat_hash_map<std::string, InFlight> in_flight ABSL_GUARDED_BY(mu);
  std::list<InFlightItem> in_flight_list ABSL_GUARDED_BY(mu);
  int in_flight_events ABSL_GUARDED_BY(mu) = 0;

  absl::flat_hash_map<const Framework*, std::unique_ptr<ProfileHints>> hints ABSL_GUARDED_BY(mu);

  absl::flat_hash_map<Symbol, std::vector<PodInfoPtr>> nominated_pods ABSL_GUARDED_BY(mu);
  absl::flat_hash_map<std::string, Symbol> nominated_pod_to_node ABSL_GUARDED_BY(mu);
  // nominated_pods with each pod in the queue's latest copy, kept per node.
  // Snapshot() builds from it under the shared lock and snapshot_mu: Build
  // only touches what Set (under the exclusive lock) does not read.
  framework::NominatedPodsSnapshot::Builder resolved_nominated ABSL_GUARDED_BY(mu);
  uint64_t nominations_version ABSL_GUARDED_BY(mu) = 0;
  // The last snapshot and the version it was built at; its own lock, because
  // readers build it under the shared lock.
  mutable SpinningMutex snapshot_mu;
  mutable std::shared_ptr<const framework::NominatedPodsSnapshot> snapshot ABSL_GUARDED_BY(snapshot_mu);
  mutable uint64_t snapshot_version ABSL_GUARDED_BY(snapshot_mu) = 0;

  uint64_t next_entry_id ABSL_GUARDED_BY(mu) = 0;
  uint64_t next_sequence ABSL_GUARDED_BY(mu) = 0;
  bool closed ABSL_GUARDED_BY(mu) = false;

  struct Reported {
    int active = -1, backoff = -1, unschedulable = -1, gated = -1;
  } reported ABSL_GUARDED_BY(mu);
};

// ==================================================================== public

SchedulingQueue::SchedulingQueue(QueueOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
  assert(impl_->options.clock != nullptr && impl_->options.less != nullptr);
  std::unique_lock<SpinningSharedMutex> lock(impl_->mu);
  impl_->ReportPendingLocked();
}

SchedulingQueue::~SchedulingQueue() = default;

void SchedulingQueue::Add(framework::PodInfoPtr pod) {
  Impl& im = *impl_;
  std::unique_lock<SpinningSharedMutex> lock(im.mu);
  std::unique_ptr<Entry> e = im.NewEntry(im.NewQueuedPodInfo(std::move(pod)));
  if (im.MoveToActiveQ(std::move(e), /*from_backoff=*/false, /*nominate=*/true)) im.cv.notify_all();
  im.ReportPendingLocked();
}

void SchedulingQueue::Update(const framework::PodInfoPtr& old_pod, framework::PodInfoPtr new_pod) {
  Impl& im = *impl_;
  if (new_pod == nullptr) return;
  std::unique_lock<SpinningSharedMutex> lock(im.mu);
  const std::string uid = new_pod->uid();
  std::vector<ClusterEvent> events =
      queue_internal::PodUpdateEvents(old_pod != nullptr ? *old_pod : *new_pod, *new_pod);
  const EventObjects objects{nullptr, nullptr, old_pod != nullptr ? &old_pod->pod() : nullptr,
                             &new_pod->pod()};

  // In flight: the pod comes back through AddUnschedulableIfNotPresent in its
  // latest version; remember the update for its rejectors to judge then.
  if (im.in_flight.contains(uid)) {
    for (const ClusterEvent& ev : events) {
      auto rec = std::make_shared<RecordedEvent>();
      rec->event = ev;
      if (old_pod != nullptr) rec->owned.old_pod = old_pod->pod_ptr();
      rec->owned.new_pod = new_pod->pod_ptr();
      im.RecordEvent(std::move(rec));
    }
    return;
  }

  Entry* e = im.Find(uid);
  // In activeQ or backoffQ: update in place.
  if (e != nullptr && old_pod != nullptr &&
      (e->place == Place::kActive || e->place == Place::kBackoff || e->place == Place::kErrorBackoff)) {
    e->info.pod = new_pod;
    im.SetRank(*e);
    switch (e->place) {
      case Place::kActive:
        im.active.Fix(e, Impl::ActiveKeyOf(*e));
        break;
      case Place::kBackoff:
        im.backoff.Fix(e);
        break;
      default:
        im.error_backoff.Fix(e);
        break;
    }
    im.UpdateNominatedLocked(old_pod.get(), new_pod);
    return;
  }

  // In the pool: the update may make it schedulable, per its rejectors' hints
  // (a gated pod's gating plugin is one of them; PreEnqueue re-runs on the
  // way to activeQ or backoffQ).
  if (e != nullptr && e->place == Place::kPool) {
    e->info.pod = new_pod;
    im.SetRank(*e);
    im.UpdateNominatedLocked(old_pod.get(), new_pod);
    for (const ClusterEvent& ev : events) {
      const Strategy strategy = im.IsPodWorthRequeuing(*e, ev, objects);
      std::unique_ptr<Entry> own = im.Detach(e);
      if (Impl::Activates(im.Requeue(std::move(own), strategy, Impl::NominatesOn(ev)))) {
        im.cv.notify_all();
        break;
      }
    }
    im.ReportPendingLocked();
    return;
  }

  // Unknown: treat as a new pending pod.
  std::unique_ptr<Entry> fresh = im.NewEntry(im.NewQueuedPodInfo(std::move(new_pod)));
  if (im.MoveToActiveQ(std::move(fresh), /*from_backoff=*/false, /*nominate=*/true)) im.cv.notify_all();
  im.ReportPendingLocked();
}

void SchedulingQueue::Delete(const framework::PodInfo& pod) {
  Impl& im = *impl_;
  std::unique_lock<SpinningSharedMutex> lock(im.mu);
  im.DeleteNominatedLocked(pod.uid());
  if (Entry* e = im.Find(pod.uid())) im.Detach(e);
  im.ReportPendingLocked();
}

std::optional<framework::QueuedPodInfo> SchedulingQueue::Pop() {
  Impl& im = *impl_;
  std::unique_lock<SpinningSharedMutex> lock(im.mu);
  std::optional<QueuedPodInfo> out = im.PopLocked();
  im.ReportPendingLocked();
  return out;
}

std::optional<framework::QueuedPodInfo> SchedulingQueue::PopWait(absl::Time deadline) {
  Impl& im = *impl_;
  std::unique_lock<SpinningSharedMutex> lock(im.mu);
  for (;;) {
    while (!im.closed && !im.HasPoppable()) {
      const absl::Time now = absl::Now();
      if (now >= deadline) break;
      // Bounded waits keep far deadlines (InfiniteFuture) clear of chrono overflow.
      im.cv.wait_until(lock, absl::ToChronoTime(std::min(deadline, now + absl::Hours(1))));
    }
    std::optional<QueuedPodInfo> out = im.PopLocked();
    // Pop can come back empty with pods left only if it dropped a duplicate.
    if (out.has_value() || im.closed || absl::Now() >= deadline) {
      im.ReportPendingLocked();
      return out;
    }
  }
}

void SchedulingQueue::Done(const std::string& uid) {
  Impl& im = *impl_;
  std::unique_lock<SpinningSharedMutex> lock(im.mu);
  im.DoneLocked(uid);
}

void SchedulingQueue::AddUnschedulableIfNotPresent(framework::QueuedPodInfo info) {
  Impl& im = *impl_;
  if (info.pod == nullptr) return;
  std::unique_lock<SpinningSharedMutex> lock(im.mu);
  const std::string uid = info.pod->uid();
  // Upstream reports an error for a pod the queue already holds; either way
  // its attempt is over.
  if (im.Find(uid) != nullptr) {
    im.DoneLocked(uid);
    return;
  }
  if (!HasRejectors(info)) {
    // An error (network, API server...), not a rejection.
    ++info.consecutive_errors;
  } else {
    ++info.unschedulable_count;
    info.consecutive_errors = 0;
  }
  const absl::Time now = im.Now();
  info.timestamp = now;
  info.last_failure = now;
  // Upstream's Gated() is "has a gating plugin".
  info.gated = !info.gating_plugin.empty();

  std::unique_ptr<Entry> e = im.NewEntry(std::move(info));
  const Strategy strategy = im.HintForReturningPod(*e);
  im.DoneLocked(uid);
  if (Impl::Activates(im.Requeue(std::move(e), strategy, /*nominate=*/false))) im.cv.notify_all();
  im.ReportPendingLocked();
}

void SchedulingQueue::OnClusterEvent(const framework::ClusterEvent& event,
                                     const framework::EventObjects& objects,
                                     const std::function<bool(const framework::PodInfo&)>& pre_check) {
  HandleClusterEvent(event, &objects, nullptr, pre_check);
}

void SchedulingQueue::OnClusterEventShared(const framework::ClusterEvent& event,
                                           const SharedEventObjects& objects,
                                           const std::function<bool(const framework::PodInfo&)>& pre_check) {
  HandleClusterEvent(event, nullptr, &objects, pre_check);
}

void SchedulingQueue::HandleClusterEvent(const framework::ClusterEvent& event,
                                         const framework::EventObjects* objects,
                                         const SharedEventObjects* owned,
                                         const std::function<bool(const framework::PodInfo&)>& pre_check) {
  Impl& im = *impl_;
  std::unique_lock<SpinningSharedMutex> lock(im.mu);
  std::vector<Entry*> candidates = im.PoolEntries();
  if (pre_check) {
    candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                    [&](const Entry* e) { return !pre_check(*e->info.pod); }),
                     candidates.end());
  }
  if (!candidates.empty() || !im.in_flight.empty()) {
    im.MovePods(candidates, event, objects != nullptr ? *objects : owned->view(), owned);
  }
  im.ReportPendingLocked();
}

void SchedulingQueue::Activate(const std::vector<std::string>& uids) {
  Impl& im = *impl_;
  std::unique_lock<SpinningSharedMutex> lock(im.mu);
  bool activated = false;
  for (const std::string& uid : uids) {
    Entry* e = im.Find(uid);
    if (e != nullptr &&
        (e->place == Place::kPool || e->place == Place::kBackoff || e->place == Place::kErrorBackoff)) {
      const bool from_backoff = e->place != Place::kPool;
      std::unique_ptr<Entry> own = im.Detach(e);
      activated |= im.MoveToActiveQ(std::move(own), from_backoff, /*nominate=*/false);
      continue;
    }
    // In flight: it will replay a ForceActivate aimed at it when it returns.
    auto it = im.in_flight.find(uid);
    if (it != im.in_flight.end()) {
      auto rec = std::make_shared<RecordedEvent>();
      rec->event = WildcardEvent(kEventForceActivate);
      rec->owned.new_pod = it->second.pod->pod_ptr();
      im.RecordEvent(std::move(rec));
    }
  }
  if (activated) im.cv.notify_all();
  im.ReportPendingLocked();
}

void SchedulingQueue::FlushBackoffQCompleted() {
  Impl& im = *impl_;
  std::unique_lock<SpinningSharedMutex> lock(im.mu);
  std::vector<std::unique_ptr<Entry>> done;
  for (Entry* top = im.backoff.Top(); top != nullptr && !im.BackingOffUntil(top->backoff_expiry);
       top = im.backoff.Top()) {
    done.push_back(im.Detach(top));
  }
  for (Entry* top = im.error_backoff.Top(); top != nullptr && !im.BackingOffUntil(top->backoff_expiry);
       top = im.error_backoff.Top()) {
    done.push_back(im.Detach(top));
  }
  bool activated = false;
  for (std::unique_ptr<Entry>& e : done) {
    activated |= im.MoveToActiveQ(std::move(e), /*from_backoff=*/true, /*nominate=*/false);
  }
  if (activated) im.cv.notify_all();
  im.ReportPendingLocked();
}

void SchedulingQueue::FlushUnschedulablePodsLeftover() {
  Impl& im = *impl_;
  std::unique_lock<SpinningSharedMutex> lock(im.mu);
  const absl::Time now = im.Now();
  std::vector<Entry*> stale;
  for (const auto& [id, e] : im.pool) {
    if (now - e->info.timestamp > im.options.pod_max_in_unschedulable_pods) stale.push_back(e);
  }
  if (!stale.empty()) im.MovePods(stale, WildcardEvent(kEventUnschedulableTimeout), EventObjects{});
  im.ReportPendingLocked();
}

absl::Time SchedulingQueue::NextBackoffExpiry() const {
  Impl& im = *impl_;
  std::shared_lock<SpinningSharedMutex> lock(im.mu);
  absl::Time earliest = absl::InfiniteFuture();
  if (!im.backoff.empty()) earliest = std::min(earliest, im.backoff.Top()->backoff_expiry);
  if (!im.error_backoff.empty()) earliest = std::min(earliest, im.error_backoff.Top()->backoff_expiry);
  if (earliest == absl::InfiniteFuture()) return earliest;
  // No backoff owed: due now.
  if (earliest == absl::InfinitePast()) return im.Now();
  return earliest + kOrderingWindow;
}

absl::Duration SchedulingQueue::BackoffDuration(const framework::QueuedPodInfo& info) const {
  return impl_->DurationForCount(Impl::BackoffCount(info));
}

SchedulingQueue::Counts SchedulingQueue::counts() const {
  std::shared_lock<SpinningSharedMutex> lock(impl_->mu);
  return impl_->CountsLocked();
}

std::vector<framework::PodInfoPtr> SchedulingQueue::PendingPods() const {
  Impl& im = *impl_;
  std::shared_lock<SpinningSharedMutex> lock(im.mu);
  std::vector<PodInfoPtr> out;
  out.reserve(im.entries.size() + im.in_flight.size());
  for (Entry* e : im.active.Sorted()) out.push_back(e->info.pod);
  for (Entry* e : im.backoff.Sorted()) out.push_back(e->info.pod);
  for (Entry* e : im.error_backoff.Sorted()) out.push_back(e->info.pod);
  for (const auto& [id, e] : im.pool) out.push_back(e->info.pod);
  for (const auto& [uid, f] : im.in_flight) out.push_back(f.pod);
  return out;
}

void SchedulingQueue::Close() {
  Impl& im = *impl_;
  std::unique_lock<SpinningSharedMutex> lock(im.mu);
  im.closed = true;
  // Returning pods then find no recorded events and retry after backoff.
  im.in_flight.clear();
  im.in_flight_list.clear();
  im.in_flight_events = 0;
  im.cv.notify_all();
}

std::optional<SchedulingQueue::SubQueue> SchedulingQueue::Locate(const std::string& uid) const {
  Impl& im = *impl_;
  std::shared_lock<SpinningSharedMutex> lock(im.mu);
  if (const Entry* e = im.Find(uid)) {
    switch (e->place) {
      case Place::kActive:
        return SubQueue::kActive;
      case Place::kBackoff:
      case Place::kErrorBackoff:
        return SubQueue::kBackoff;
      case Place::kPool:
        return e->info.gated ? SubQueue::kGated : SubQueue::kUnschedulable;
      case Place::kDetached:
        break;
    }
  }
  if (im.in_flight.contains(uid)) return SubQueue::kInFlight;
  return std::nullopt;
}

std::optional<framework::QueuedPodInfo> SchedulingQueue::GetPod(const std::string& uid) const {
  Impl& im = *impl_;
  std::shared_lock<SpinningSharedMutex> lock(im.mu);
  if (const Entry* e = im.Find(uid)) return e->info;
  return std::nullopt;
}

std::vector<framework::PodInfoPtr> SchedulingQueue::PodsIn(SubQueue q) const {
  Impl& im = *impl_;
  std::shared_lock<SpinningSharedMutex> lock(im.mu);
  std::vector<PodInfoPtr> out;
  switch (q) {
    case SubQueue::kActive:
      for (Entry* e : im.active.Sorted()) out.push_back(e->info.pod);
      break;
    case SubQueue::kBackoff:
      for (Entry* e : im.backoff.Sorted()) out.push_back(e->info.pod);
      for (Entry* e : im.error_backoff.Sorted()) out.push_back(e->info.pod);
      break;
    case SubQueue::kUnschedulable:
    case SubQueue::kGated:
      for (const auto& [id, e] : im.pool) {
        if (e->info.gated == (q == SubQueue::kGated)) out.push_back(e->info.pod);
      }
      break;
    case SubQueue::kInFlight:
      for (const InFlightItem& item : im.in_flight_list) {
        if (!item.event) out.push_back(im.in_flight.at(item.pod_uid).pod);
      }
      break;
  }
  return out;
}

// ------------------------------------------------------------------ nominator

bool SchedulingQueue::HasNominatedPods() const {
  std::shared_lock<SpinningSharedMutex> lock(impl_->mu);
  return !impl_->nominated_pod_to_node.empty();
}

std::shared_ptr<const framework::NominatedPodsSnapshot> SchedulingQueue::Snapshot() const {
  Impl& im = *impl_;
  std::shared_lock<SpinningSharedMutex> lock(im.mu);
  std::lock_guard<SpinningMutex> snapshot_lock(im.snapshot_mu);
  if (im.snapshot != nullptr && im.snapshot_version == im.nominations_version) return im.snapshot;
  im.snapshot = std::make_shared<const framework::NominatedPodsSnapshot>(im.resolved_nominated.Build());
  im.snapshot_version = im.nominations_version;
  return im.snapshot;
}

std::vector<framework::PodInfoPtr> SchedulingQueue::NominatedPodsForNode(Symbol node) const {
  Impl& im = *impl_;
  std::shared_lock<SpinningSharedMutex> lock(im.mu);
  const framework::NominatedPodsSnapshot::PodList& pods = im.resolved_nominated.Find(node);
  if (pods == nullptr) return {};
  return *pods;
}

void SchedulingQueue::AddNominatedPod(framework::PodInfoPtr pod, Symbol node) {
  if (pod == nullptr) return;
  std::unique_lock<SpinningSharedMutex> lock(impl_->mu);
  impl_->AddNominatedLocked(pod, node.empty() ? std::nullopt : std::optional<Symbol>(node));
}

void SchedulingQueue::DeleteNominatedPodIfExists(const framework::PodInfo& pod) {
  std::unique_lock<SpinningSharedMutex> lock(impl_->mu);
  impl_->DeleteNominatedLocked(pod.uid());
}

}  // namespace schedkit::scheduler
