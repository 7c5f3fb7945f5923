// SchedulingQueue: upstream v1.37's PriorityQueue (backend/queue) with the
// default feature gates — SchedulerQueueingHints (GA) and
// SchedulerPopFromBackoffQ (beta, on).
//
// One lock guards everything: activeQ, the two backoff heaps, the
// unschedulable pool, in-flight pods and events (in_flight_events.h), the
// queueing hints (queueing_hints.h) and the nominator (nominator.h); backoff
// durations are pure functions (backoff.h). Upstream
// splits it into four locks so that Pop does not contend with event handling;
// here the critical sections are short and the scheduler pops one pod at a
// time, so one lock keeps the ordering rules obvious. It is a shared lock
// (readers: the nominator lookups of the filter threads, listings) that spins
// briefly before sleeping (spinning_mutex.h): a host adds pods while the
// scheduling thread pops them.
//
// Every pod the queue holds is an Entry owned by `entries` (found by uid) and
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
#include "schedkit/scheduler/self_keyed_set.h"
#include "scheduler/backoff.h"
#include "scheduler/event_pods.h"
#include "scheduler/in_flight_events.h"
#include "scheduler/nominator.h"
#include "scheduler/queue_entry.h"
#include "scheduler/queue_heap.h"
#include "scheduler/pod_update_events.h"
#include "scheduler/queueing_hints.h"
#include "scheduler/spinning_mutex.h"

namespace schedkit::scheduler {
namespace {

using framework::ClusterEvent;
using framework::EventObjects;
using framework::EventResource;
using framework::Framework;
using framework::PodInfo;
using framework::PodInfoPtr;
using framework::QueuedPodInfo;
using queue_internal::IndexedHeap;

// Upstream's labels of its two wildcard events.
constexpr char kEventForceActivate[] = "ForceActivate";
constexpr char kEventUnschedulableTimeout[] = "UnschedulableTimeout";

// The gating plugin recorded when a PreEnqueue status names none.
constexpr char kPreEnqueueFallbackPlugin[] = "PreEnqueue";

ClusterEvent WildcardEvent(const char* label) {
  return ClusterEvent{EventResource::Wildcard(), framework::kActionAll, label};
}

}  // namespace

struct SchedulingQueue::Impl {
  explicit Impl(QueueOptions o)
      : options(std::move(o)),
        backoff_policy{options.pod_initial_backoff, options.pod_max_backoff},
        active(ActiveOrder{options.less}),
        backoff(BackoffOrder{ActiveOrder{options.less}}),
        error_backoff(ErrorBackoffOrder{}),
        nominator([this](const std::string& uid) -> PodInfoPtr {
          const Entry* e = Find(uid);
          return e != nullptr ? e->info.pod : nullptr;
        }) {}

  absl::Time Now() const { return options.clock->Now(); }

  // ------------------------------------------------------------ profiles

  Framework* FrameworkFor(const PodInfo& pod) const {
    return options.framework_for_pod ? options.framework_for_pod(pod) : nullptr;
  }

  // ------------------------------------------------------------ backoff

  bool IsBackingOff(const QueuedPodInfo& info) const {
    return BackingOffUntil(backoff_policy.Expiry(info), Now());
  }

  // ------------------------------------------------------------ placement

  std::unique_ptr<Entry> NewEntry(QueuedPodInfo info) {
    auto e = std::make_unique<Entry>();
    e->info = std::move(info);
    e->fw = FrameworkFor(*e->info.pod);
    hints.AddProfile(e->fw);  // so IsEventOfInterest knows this profile
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

  QueuedPodInfo NewQueuedPodInfo(PodInfoPtr pod) {
    QueuedPodInfo info;
    info.pod = std::move(pod);
    Stamp(info);
    return info;
  }

  // Upstream stamps Timestamp when a pod enters the queue and when it comes
  // back from an attempt, and nowhere else (a move between sub-queues keeps
  // it). Equal timestamps (a coarse or simulated clock) break by the order
  // of stamping, which is what a clock that moved between them would give;
  // not by the order of placement, which differs for a pod that waited in the
  // pool or in backoffQ.
  void Stamp(QueuedPodInfo& info) {
    info.timestamp = Now();
    info.sequence = ++next_sequence;
  }

  Entry* Find(const std::string& uid) const {
    const std::unique_ptr<Entry>* e = entries.Find(uid);
    return e == nullptr ? nullptr : e->get();
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
    std::unique_ptr<Entry> own = entries.Take(e->info.pod->uid());
    nominator.PodChanged(own->info.pod->uid());
    return own;
  }

  // Drops whatever entry holds `uid` (a re-added pod replaces the old one).
  void DropExisting(const std::string& uid) {
    if (Entry* old = Find(uid)) Detach(old);
  }

  void PlaceActive(std::unique_ptr<Entry> e) {
    Entry* raw = e.get();
    raw->place = Place::kActive;
    entries.Insert(std::move(e));
    nominator.PodChanged(raw->info.pod->uid());
    active.Push(raw, ActiveKey::Of(*raw));
  }

  void PlaceBackoff(std::unique_ptr<Entry> e) {
    Entry* raw = e.get();
    raw->backoff_expiry = backoff_policy.Expiry(raw->info);
    entries.Insert(std::move(e));
    nominator.PodChanged(raw->info.pod->uid());
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
    entries.Insert(std::move(e));
    nominator.PodChanged(raw->info.pod->uid());
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
    if (nominate) nominator.Add(pod, std::nullopt);
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
    return event.resource == EventResource::UnscheduledPod() &&
           (event.action == framework::kActionAdd || event.action == framework::kActionUpdate);
  }

  // ------------------------------------------------------------ hints

  Strategy IsPodWorthRequeuing(const Entry& e, const ClusterEvent& event, const EventObjects& objects) {
    return hints.IsPodWorthRequeuing(e.fw, e.info, event, objects);
  }

  // Upstream determineSchedulingHintForInFlightPod: replays the events that
  // arrived while the pod was in flight.
  Strategy HintForReturningPod(const Entry& e) {
    if (!HasRejectors(e.info)) return Strategy::kAfterBackoff;
    Strategy strategy = Strategy::kSkip;
    const bool in_flight_now = in_flight.ForEachEventAfter(e.info.pod->uid(), [&](const RecordedEvent& ev) {
      switch (IsPodWorthRequeuing(e, ev.event, ev.objects())) {
        case Strategy::kSkip:
          return true;
        case Strategy::kImmediately:
          strategy = Strategy::kImmediately;
          return false;
        case Strategy::kAfterBackoff:
          strategy = Strategy::kAfterBackoff;
          return !e.info.pending_plugins.empty();
      }
      return true;
    });
    // Never popped: retry.
    return in_flight_now ? strategy : Strategy::kAfterBackoff;
  }

  // ------------------------------------------------------------ moves

  // Upstream movePodsToActiveOrBackoffQueue.
  // `owned`, when set, holds the objects `objects` points to.
  void MovePods(const std::vector<Entry*>& candidates, const ClusterEvent& event, const EventObjects& objects,
                const SharedEventObjects* owned = nullptr) {
    if (!hints.IsEventOfInterest(event)) return;
    bool activated = false;
    for (Entry* e : candidates) {
      // A gated pod only moves on its gating plugin's events, or a wildcard.
      if (e->info.gated && !event.IsWildcard() && !hints.GatingPluginInterested(e->fw, e->info, event)) continue;
      const Strategy strategy = IsPodWorthRequeuing(*e, event, objects);
      if (strategy == Strategy::kSkip) continue;
      std::unique_ptr<Entry> own = Detach(e);
      activated |= Activates(Requeue(std::move(own), strategy, NominatesOn(event)));
    }
    // In-flight pods replay this when they come back.
    if (!in_flight.empty()) {
      in_flight.Record(owned != nullptr ? std::make_shared<const RecordedEvent>(RecordedEvent{event, *owned})
                                        : RecordedEvent::Copy(event, objects));
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
      if (in_flight.Contains(uid)) continue;
      ++info.attempts;
      in_flight.Begin(info.pod);
      // The next attempt decides its own rejectors.
      info.unschedulable_plugins.clear();
      info.pending_plugins.clear();
      info.gating_plugin = Symbol();
      info.gated = false;
      return info;
    }
    return std::nullopt;
  }

  // ------------------------------------------------------------ metrics

  Counts CountsLocked() const {
    Counts c;
    c.active = static_cast<int>(active.size());
    c.backoff = static_cast<int>(backoff.size() + error_backoff.size());
    c.gated = pool_gated;
    c.unschedulable = static_cast<int>(pool.size()) - pool_gated;
    c.in_flight = in_flight.num_pods();
    c.in_flight_events = in_flight.num_events();
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
  const BackoffPolicy backoff_policy;

  mutable SpinningSharedMutex mu;
  // Signalled when activeQ or backoffQ gains a pod, and on Close.
  std::condition_variable_any cv;

  // Every queued pod's entry, by uid.
  struct UidOf {
    const std::string& operator()(const std::unique_ptr<Entry>& e) const { return e->info.pod->uid(); }
  };
  SelfKeyedSet<std::unique_ptr<Entry>, UidOf> entries ABSL_GUARDED_BY(mu);
  IndexedHeap<Entry, ActiveOrder, ActiveKey> active ABSL_GUARDED_BY(mu);
  IndexedHeap<Entry, BackoffOrder> backoff ABSL_GUARDED_BY(mu);
  IndexedHeap<Entry, ErrorBackoffOrder> error_backoff ABSL_GUARDED_BY(mu);
  absl::btree_map<uint64_t, Entry*> pool ABSL_GUARDED_BY(mu);
  int pool_gated ABSL_GUARDED_BY(mu) = 0;

  InFlightEvents in_flight ABSL_GUARDED_BY(mu);
  QueueingHints hints ABSL_GUARDED_BY(mu);
  Nominator nominator ABSL_GUARDED_BY(mu);

  uint64_t next_entry_id ABSL_GUARDED_BY(mu) = 0;
  uint64_t next_sequence ABSL_GUARDED_BY(mu) = 0;
  bool closed ABSL_GUARDED_BY(mu) = false;

  struct Reported {
    int active = -1, backoff = -1, unschedulable = -1, gated = -1;
  } reported ABSL_GUARDED_BY(mu);

  // OnClusterEvent and OnClusterEventShared. `objects` null: read them from
  // `owned`, only once a pod may care.
  void HandleClusterEvent(const framework::ClusterEvent& event, const framework::EventObjects* objects,
                          const SharedEventObjects* owned,
                          const std::function<bool(const framework::PodInfo&)>& pre_check);
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
      PodUpdateEvents(old_pod != nullptr ? *old_pod : *new_pod, *new_pod, /*target=*/true);
  const EventObjects objects =
      EventObjects::Of<api::v1::Pod>(old_pod != nullptr ? &old_pod->pod() : nullptr, &new_pod->pod());

  // In flight: the pod comes back through AddUnschedulableIfNotPresent in its
  // latest version; remember the update for its rejectors to judge then.
  if (im.in_flight.Contains(uid)) {
    for (const ClusterEvent& ev : events) {
      auto rec = std::make_shared<RecordedEvent>();
      rec->event = ev;
      rec->owned = SharedEventObjects::Of<api::v1::Pod>(old_pod != nullptr ? old_pod->pod_ptr() : nullptr,
                                                        new_pod->pod_ptr());
      im.in_flight.Record(std::move(rec));
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
        im.active.Fix(e, ActiveKey::Of(*e));
        break;
      case Place::kBackoff:
        im.backoff.Fix(e);
        break;
      default:
        im.error_backoff.Fix(e);
        break;
    }
    im.nominator.Update(old_pod.get(), new_pod);
    return;
  }

  // In the pool: the update may make it schedulable, per its rejectors' hints
  // (a gated pod's gating plugin is one of them; PreEnqueue re-runs on the
  // way to activeQ or backoffQ).
  if (e != nullptr && e->place == Place::kPool) {
    e->info.pod = new_pod;
    im.SetRank(*e);
    im.nominator.Update(old_pod.get(), new_pod);
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
  im.nominator.Delete(pod.uid());
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
  im.in_flight.Done(uid);
}

void SchedulingQueue::AddUnschedulableIfNotPresent(framework::QueuedPodInfo info) {
  Impl& im = *impl_;
  if (info.pod == nullptr) return;
  std::unique_lock<SpinningSharedMutex> lock(im.mu);
  const std::string uid = info.pod->uid();
  // Upstream reports an error for a pod the queue already holds; either way
  // its attempt is over.
  if (im.Find(uid) != nullptr) {
    im.in_flight.Done(uid);
    return;
  }
  if (!HasRejectors(info)) {
    // An error (network, API server...), not a rejection.
    ++info.consecutive_errors;
  } else {
    ++info.unschedulable_count;
    info.consecutive_errors = 0;
  }
  im.Stamp(info);
  info.last_failure = info.timestamp;
  info.flush_timestamp = absl::InfinitePast();  // back from an attempt
  // Upstream's Gated() is "has a gating plugin".
  info.gated = !info.gating_plugin.empty();

  std::unique_ptr<Entry> e = im.NewEntry(std::move(info));
  const Strategy strategy = im.HintForReturningPod(*e);
  im.in_flight.Done(uid);
  if (Impl::Activates(im.Requeue(std::move(e), strategy, /*nominate=*/false))) im.cv.notify_all();
  im.ReportPendingLocked();
}

void SchedulingQueue::OnClusterEvent(const framework::ClusterEvent& event,
                                     const framework::EventObjects& objects,
                                     const std::function<bool(const framework::PodInfo&)>& pre_check) {
  impl_->HandleClusterEvent(event, &objects, nullptr, pre_check);
}

void SchedulingQueue::OnClusterEventShared(const framework::ClusterEvent& event,
                                           const SharedEventObjects& objects,
                                           const std::function<bool(const framework::PodInfo&)>& pre_check) {
  impl_->HandleClusterEvent(event, nullptr, &objects, pre_check);
}

void SchedulingQueue::Impl::HandleClusterEvent(const framework::ClusterEvent& event,
                                               const framework::EventObjects* objects,
                                               const SharedEventObjects* owned,
                                               const std::function<bool(const framework::PodInfo&)>& pre_check) {
  Impl& im = *this;
  std::unique_lock<SpinningSharedMutex> lock(im.mu);
  std::vector<Entry*> candidates = im.PoolEntries();
  if (pre_check) {
    candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                    [&](const Entry* e) { return !pre_check(*e->info.pod); }),
                     candidates.end());
  }
  if (!candidates.empty() || !im.in_flight.empty()) {
    if (objects != nullptr) {
      im.MovePods(candidates, event, *objects);
    } else {
      const SharedEventObjects resolved = WithEventPods(*owned);
      im.MovePods(candidates, event, resolved.view(), &resolved);
    }
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
    if (PodInfoPtr in_flight = im.in_flight.Pod(uid)) {
      auto rec = std::make_shared<RecordedEvent>();
      rec->event = WildcardEvent(kEventForceActivate);
      rec->owned = SharedEventObjects::Of<api::v1::Pod>(nullptr, in_flight->pod_ptr());
      im.in_flight.Record(std::move(rec));
    }
  }
  if (activated) im.cv.notify_all();
  im.ReportPendingLocked();
}

void SchedulingQueue::FlushBackoffQCompleted() {
  Impl& im = *impl_;
  std::unique_lock<SpinningSharedMutex> lock(im.mu);
  std::vector<std::unique_ptr<Entry>> done;
  for (Entry* top = im.backoff.Top(); top != nullptr && !BackingOffUntil(top->backoff_expiry, im.Now());
       top = im.backoff.Top()) {
    done.push_back(im.Detach(top));
  }
  for (Entry* top = im.error_backoff.Top(); top != nullptr && !BackingOffUntil(top->backoff_expiry, im.Now());
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
    const absl::Time last = std::max(e->info.timestamp, e->info.flush_timestamp);
    if (now - last > im.options.pod_max_in_unschedulable_pods) {
      e->info.flush_timestamp = now;
      stale.push_back(e);
    }
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
  return earliest + kBackoffOrderingWindow;
}

absl::Duration SchedulingQueue::BackoffDuration(const framework::QueuedPodInfo& info) const {
  return impl_->backoff_policy.DurationForCount(BackoffCount(info));
}

SchedulingQueue::Counts SchedulingQueue::counts() const {
  std::shared_lock<SpinningSharedMutex> lock(impl_->mu);
  return impl_->CountsLocked();
}

std::vector<framework::PodInfoPtr> SchedulingQueue::PendingPods() const {
  Impl& im = *impl_;
  std::shared_lock<SpinningSharedMutex> lock(im.mu);
  std::vector<PodInfoPtr> out;
  out.reserve(im.entries.size() + im.in_flight.num_pods());
  for (Entry* e : im.active.Sorted()) out.push_back(e->info.pod);
  for (Entry* e : im.backoff.Sorted()) out.push_back(e->info.pod);
  for (Entry* e : im.error_backoff.Sorted()) out.push_back(e->info.pod);
  for (const auto& [id, e] : im.pool) out.push_back(e->info.pod);
  for (PodInfoPtr& pod : im.in_flight.PodsInOrder()) out.push_back(std::move(pod));
  return out;
}

void SchedulingQueue::Close() {
  Impl& im = *impl_;
  std::unique_lock<SpinningSharedMutex> lock(im.mu);
  im.closed = true;
  // Returning pods then find no recorded events and retry after backoff.
  im.in_flight.Clear();
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
  if (im.in_flight.Contains(uid)) return SubQueue::kInFlight;
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
      out = im.in_flight.PodsInOrder();
      break;
  }
  return out;
}

// ------------------------------------------------------------------ nominator

bool SchedulingQueue::HasNominatedPods() const {
  std::shared_lock<SpinningSharedMutex> lock(impl_->mu);
  return impl_->nominator.HasAny();
}

std::shared_ptr<const framework::NominatedPodsSnapshot> SchedulingQueue::Snapshot() const {
  std::shared_lock<SpinningSharedMutex> lock(impl_->mu);
  return impl_->nominator.Snapshot();
}

std::vector<framework::PodInfoPtr> SchedulingQueue::NominatedPodsForNode(Symbol node) const {
  std::shared_lock<SpinningSharedMutex> lock(impl_->mu);
  const framework::NominatedPodsSnapshot::PodList& pods = impl_->nominator.ForNode(node);
  if (pods == nullptr) return {};
  return *pods;
}

void SchedulingQueue::AddNominatedPod(framework::PodInfoPtr pod, Symbol node) {
  if (pod == nullptr) return;
  std::unique_lock<SpinningSharedMutex> lock(impl_->mu);
  impl_->nominator.Add(pod, node.empty() ? std::nullopt : std::optional<Symbol>(node));
}

void SchedulingQueue::DeleteNominatedPodIfExists(const framework::PodInfo& pod) {
  std::unique_lock<SpinningSharedMutex> lock(impl_->mu);
  impl_->nominator.Delete(pod.uid());
}

}  // namespace schedkit::scheduler
