// Internal to the scheduler: a Scheduler's private state, shared by the files
// that implement it — building it and running it (scheduler.cc), the
// informer-style event handlers (event_handlers.cc, upstream's
// eventhandlers.go) and the scheduling and binding cycles (schedule_one.cc,
// upstream's schedule_one.go).
//
// Threads: one scheduling cycle at a time (the Run loop, or the caller of
// ScheduleOne); binding cycles on the executor; event handlers on any thread.
// What they share is guarded: the pod and node tables by pods_mu, the
// binding count by bind_mu, the observer by observer_mu; the object store,
// the queue and the cache lock themselves. The snapshot and the selection state are the scheduling
// thread's alone.
#ifndef SCHEDKIT_LIB_SCHEDULER_SCHEDULER_IMPL_H_
#define SCHEDKIT_LIB_SCHEDULER_SCHEDULER_IMPL_H_

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/api/object_store.h"
#include "schedkit/framework/snapshot.h"
#include "schedkit/scheduler/scheduler.h"
#include "schedkit/scheduler/self_keyed_set.h"
#include "scheduler/fenced_host.h"
#include "scheduler/host_events.h"
#include "scheduler/periodic_timers.h"
#include "scheduler/spinning_mutex.h"

namespace schedkit::scheduler {

struct Scheduler::Impl : public framework::ClusterClient {
  explicit Impl(framework::Clock& c) : clock(&c), timers(c) {}
  // Our own binding threads are joined before any member they use is gone.
  ~Impl() override { owned_executor.reset(); }

  // The host's Host, or a FencedHost over it when a LeaderElector is given.
  Host* host = nullptr;
  std::unique_ptr<FencedHost> fenced_host;
  SchedulerOptions options;
  config::SchedulerConfiguration config;
  std::unique_ptr<Executor> owned_executor;
  Executor* executor = nullptr;
  framework::Clock* clock = nullptr;
  std::unique_ptr<framework::NoopMetricsRecorder> noop_metrics;
  framework::MetricsRecorder* metrics = nullptr;
  std::shared_ptr<framework::Parallelizer> parallelizer;
  // One recorder per profile (its schedulerName reports the events), built
  // before the frameworks that hold them.
  std::vector<std::unique_ptr<HostEvents>> event_recorders;
  std::vector<std::unique_ptr<framework::Framework>> frameworks;
  absl::flat_hash_map<std::string, framework::Framework*> by_profile;
  std::unique_ptr<SchedulingQueue> queue;
  Cache cache;
  framework::Snapshot snapshot;  // scheduling thread only
  framework::SelectionState selection;

  // Every pod we know (latest object), by namespace/name.
  struct KeyOf {
    const std::string& operator()(const framework::PodInfoPtr& p) const { return p->key(); }
  };
  mutable SpinningMutex pods_mu;
  SelfKeyedSet<framework::PodInfoPtr, KeyOf> pods ABSL_GUARDED_BY(pods_mu);
  absl::flat_hash_map<std::string, std::shared_ptr<const api::v1::Node>> nodes ABSL_GUARDED_BY(pods_mu);
  // Every other kind the scheduler holds (the registry's kinds that
  // kube-scheduler reads, but nodes and pods); it locks itself.
  std::unique_ptr<api::ObjectStore> objects;
  // The kinds some profile's plugin registered events for, with their event
  // resource: as upstream, only these kinds' changes reach the queue. Set
  // by Create, then read.
  absl::flat_hash_map<const api::Kind*, framework::EventResource> raised_events;

  std::mutex bind_mu;
  std::condition_variable bind_cv;
  int bindings_in_flight ABSL_GUARDED_BY(bind_mu) = 0;

  std::mutex observer_mu;
  std::function<void(const CycleReport&)> observer ABSL_GUARDED_BY(observer_mu);

  // The queue's flushes (upstream: backoffQ every 1 s, the pool every 30 s).
  PeriodicTimers timers;
  std::atomic<bool> stopping{false};
  std::thread loop;

  // ---- ClusterClient: what plugins reach through the Handle (scheduler.cc)
  absl::Status Bind(const framework::PodInfo& pod, Symbol node) override;
  absl::Status Evict(const framework::PodInfo& victim, const framework::PodInfo& preemptor, Symbol node) override;
  absl::Status ClearNominatedNodeName(const framework::PodInfo& pod) override;
  // (object_events.cc)
  absl::StatusOr<api::AnyObject> UpdateObject(const api::Kind& kind,
                                              const google::protobuf::Message& object) override;
  absl::StatusOr<api::AnyObject> UpdateObjectStatus(const api::Kind& kind,
                                                    const google::protobuf::Message& object) override;
  absl::StatusOr<api::AnyObject> CreateObject(const api::Kind& kind, const google::protobuf::Message& object) override;
  absl::Status DeleteObject(const api::Kind& kind, std::string_view namespace_name, std::string_view name) override;

  // ---- the cycles (schedule_one.cc)
  // Pops the next pod and schedules it; false when none was ready.
  bool ScheduleOne();
  // One scheduling cycle for a popped pod; its binding cycle follows on the
  // executor (or here, see SchedulerOptions::bind_on_scheduling_thread).
  void ScheduleQueued(framework::QueuedPodInfo qpi);
  void BindingCycle(framework::Framework* fw, std::shared_ptr<framework::CycleState> state,
                    framework::QueuedPodInfo qpi, framework::PodInfoPtr assumed, absl::Time start);
  void WaitForBindings();
  // The failure path (upstream's handleSchedulingFailure): requeues the pod
  // as the table holds it now (unless it was deleted or bound meanwhile),
  // applies the nomination, records FailedScheduling and tells the host
  // what to write to the pod's status.
  void ReportFailure(const framework::QueuedPodInfo& qpi, const framework::Status& status,
                     const std::string& message, const framework::Diagnosis* diagnosis,
                     const framework::NominatingInfo& nominating, CycleReport& report);
  // A failure on the chosen node after the pod was assumed there; a
  // rejection reads as a fit error on that one node, as upstream's.
  void ReportFailureOnNode(const framework::QueuedPodInfo& qpi, Symbol node, const framework::Status& status,
                           CycleReport& report);
  // Writes the node a binding cycle is for to the pod's nomination, unless
  // it names that node already.
  void NominateForBinding(const framework::PodInfo& assumed, Symbol node);
  // A pending pod changed (here: its nomination); upstream's
  // updatePodInSchedulingQueue.
  void ApplyPendingPodUpdate(const framework::PodInfoPtr& old_pod, framework::PodInfoPtr new_pod);

  // ---- helpers
  // The table's current version of `pod` (same key and uid), or null.
  framework::PodInfoPtr CurrentPod(const framework::PodInfo& pod) const {
    std::lock_guard<SpinningMutex> lock(pods_mu);
    const framework::PodInfoPtr* p = pods.Find(pod.key());
    return p != nullptr && (*p)->uid() == pod.uid() ? *p : nullptr;
  }

  framework::Framework* FrameworkForPod(const framework::PodInfo& pod) const {
    auto it = by_profile.find(std::string(pod.scheduler_name().str()));
    return it == by_profile.end() ? nullptr : it->second;
  }

  void Notify(const CycleReport& report) {
    std::lock_guard<std::mutex> lock(observer_mu);
    if (observer) observer(report);
  }

  // Host callbacks never take the scheduler down: errors and exceptions
  // become statuses.
  template <typename F>
  static absl::Status CallHost(F&& f) {
    try {
      return f();
    } catch (const std::exception& e) {
      return absl::InternalError(schedkit::StrCat("host callback threw: ", e.what()));
    } catch (...) {
      return absl::InternalError("host callback threw");
    }
  }
  template <typename T, typename F>
  static absl::StatusOr<T> CallHostOr(F&& f) {
    try {
      return f();
    } catch (const std::exception& e) {
      return absl::InternalError(schedkit::StrCat("host callback threw: ", e.what()));
    } catch (...) {
      return absl::InternalError("host callback threw");
    }
  }
  template <typename F>
  static void CallHostVoid(F&& f) {
    try {
      f();
    } catch (...) {
    }
  }
};

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_LIB_SCHEDULER_SCHEDULER_IMPL_H_
