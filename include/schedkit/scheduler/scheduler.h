// Scheduler: a kube-scheduler you embed. Built from a SchedulerConfiguration,
// a Registry (in-tree plugins plus your own) and a Host, it takes the initial
// cluster state from a ClusterLister, accepts cluster events, and schedules
// pending pods one cycle at a time, binding through the Host.
//
//   Registry registry = plugins::NewInTreeRegistry();
//   SCHEDKIT_RETURN_IF_ERROR(registry.Add("MyPlugin", &NewMyPlugin));
//   SCHEDKIT_ASSIGN_OR_RETURN(auto sched, Scheduler::Create(config, registry, host, lister));
//   sched->Run();                      // own thread; or sched->RunUntilIdle() in your loop
//   sched->AddPod(pod);                // events as your informers see them
//   sched->Upsert(pvc);                // any other kind: one pair of calls
//   sched->Stop();
//
// Thread-safety: the event methods may be called from any thread, including
// from inside Host callbacks. ScheduleOne/RunUntilIdle must not be called
// while Run() is active.
#ifndef SCHEDKIT_SCHEDULER_SCHEDULER_H_
#define SCHEDKIT_SCHEDULER_SCHEDULER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/lister.h"
#include "schedkit/api/object_store.h"
#include "schedkit/api/v1/node.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/config/configuration.h"
#include "schedkit/framework/feature_gates.h"
#include "schedkit/framework/clock.h"
#include "schedkit/framework/framework.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/metrics.h"
#include "schedkit/framework/registry.h"
#include "schedkit/scheduler/cache.h"
#include "schedkit/scheduler/host.h"
#include "schedkit/scheduler/leader_election.h"
#include "schedkit/scheduler/queue.h"

namespace schedkit::scheduler {

struct SchedulerOptions {
  // Not owned. Defaults: the real clock, a thread pool for binding cycles,
  // a no-op metrics recorder.
  framework::Clock* clock = nullptr;
  // What OpportunisticBatching measures a ranking's age on (upstream's wall
  // clock); default: `clock`. A simulator whose binding cycles stand for
  // upstream's slower ones moves it on its own.
  framework::Clock* batch_clock = nullptr;
  Executor* executor = nullptr;
  framework::MetricsRecorder* metrics = nullptr;
  framework::TieBreak tie_break = framework::TieBreak::kRandom;
  // Seeds tie-breaking and preemption's random offset; 0 picks a random seed.
  uint64_t seed = 0;
  // Record a CycleTrace (per-node filter verdicts and per-plugin scores) for
  // every cycle and hand it to the cycle observer. Costs allocations.
  bool trace_cycles = false;
  // The host's Bind returns at once (an in-memory host, a simulator): run the
  // binding cycle of a pod that no Permit plugin holds on the scheduling
  // thread, right after its scheduling cycle, instead of on the executor.
  // Saves a hand-off between threads per pod, which on a small machine costs
  // more than the binding itself; a Bind or PreBind that blocks would then
  // hold up scheduling. Pods told to wait by Permit always go to the executor.
  bool bind_on_scheduling_thread = false;
  // FrameworkOptions::memoize_per_node_outcomes for every profile.
  bool memoize_per_node_outcomes = true;
  // FrameworkOptions::check_per_node_outcomes for every profile.
  std::function<void(std::string_view mismatch)> check_per_node_outcomes;
  // Threads of the default executor (when `executor` is null): how many
  // binding cycles run at once. A host whose Bind waits on an API server
  // wants many (upstream binds each pod on a goroutine of its own).
  int binding_threads = 4;
  // Not owned. When set, the scheduler writes through the host (binds,
  // evictions, status and nomination writes, PV/PVC updates, events) only
  // while leader->IsLeader(); otherwise Bind and Evict fail with
  // FailedPrecondition and the rest are dropped. Run() is still the host's
  // to call once the elector leads.
  const LeaderElector* leader = nullptr;
  // kube-scheduler's --feature-gates. Create refuses (FailedPrecondition) a
  // gate the scheduler reads set away from its default that schedkit does
  // not model (framework::CheckModeled).
  framework::FeatureGates feature_gates;
};

// What one scheduling attempt decided; given to the cycle observer.
struct CycleReport {
  framework::PodInfoPtr pod;
  std::string profile;
  // Scheduled: the node (binding may still fail later). Otherwise empty.
  std::string node;
  framework::Code code = framework::Code::kSuccess;
  // The FitError or error text when not scheduled.
  std::string message;
  // Set when PostFilter (preemption) nominated a node.
  std::string nominated_node;
  framework::CycleTrace trace;  // filled when SchedulerOptions::trace_cycles
};

class Scheduler {
 public:
  static absl::StatusOr<std::unique_ptr<Scheduler>> Create(const config::SchedulerConfiguration& config,
                                                           const framework::Registry& registry, Host& host,
                                                           const api::ClusterLister& lister,
                                                           SchedulerOptions options = {});
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // --- cluster events (as upstream's informer handlers) ---
  // Any thread (see above). The statuses listed are all each method
  // returns; those said to come from the Cache are its own (cache.h).
  //
  // Adds a node. AlreadyExists if a node of that name exists; InvalidArgument
  // if its status.allocatable does not parse (both from the Cache).
  absl::Status AddNode(std::shared_ptr<const api::v1::Node> node);
  // Replaces a node; the queue hears of it only if a property pods may
  // depend on changed (upstream's nodeSchedulingPropertiesChange). An unknown
  // name is added as by AddNode, without AlreadyExists.
  // InvalidArgument (from the Cache) if status.allocatable does not parse.
  absl::Status UpdateNode(std::shared_ptr<const api::v1::Node> node);
  // Removes a node; while pods remain on it the cache keeps it as a ghost.
  // NotFound (from the Cache) if no node of that name exists.
  absl::Status DeleteNode(std::string_view name);
  // A pod with spec.nodeName is bound (enters the cache); without, it is
  // pending and queued if a profile serves its schedulerName (otherwise it is
  // only remembered, and OK). InvalidArgument if the pod does not parse (a
  // bad quantity, timestamp or selector); AlreadyExists if a pod of that
  // namespace/name is known (send UpdatePod), or, for a bound pod, from the
  // Cache if it already holds that uid as bound.
  absl::Status AddPod(std::shared_ptr<const api::v1::Pod> pod);
  // InvalidArgument if the pod does not parse; NotFound if no pod of that
  // namespace/name is known (send AddPod). A pod bound before and after is
  // updated in the Cache, whose errors pass through (NotFound for a uid it
  // does not hold). A pod that has just got spec.nodeName (the host bound it,
  // or confirms our bind) leaves the queue and enters the Cache; the Cache's
  // AlreadyExists is ignored there, its other errors pass through. A pending
  // pod's update goes to the queue (if a profile serves it); OK.
  absl::Status UpdatePod(std::shared_ptr<const api::v1::Pod> pod);
  // NotFound if no pod of that namespace/name is known. A pod waiting at
  // Permit is rejected ("pod deleted"); a bound pod leaves the Cache (whose
  // error, if any, passes through); an assumed one is removed by its binding
  // cycle; a pending one leaves the queue.
  absl::Status DeletePod(std::string_view namespace_name, std::string_view name);
  // Every other kind (PodDisruptionBudgets, namespaces, workloads, storage,
  // a plugin's own CRD: the kinds of the Registry, api/kind.h), one way.
  // Upsert adds `object` (of `kind`) or replaces the one of its namespace
  // and name; Delete removes it. When some plugin of a profile registered
  // for the kind's events, each tells the queue <Kind>Add, <Kind>Update (a
  // replacement) or <Kind>Delete, so that pods a plugin rejected may move as
  // its hints say; otherwise no pod moves, as upstream, which watches no
  // kind nobody registered for. Upsert: InvalidArgument for a kind the
  // scheduler does not hold (not in the Registry, or one kube-scheduler does
  // not read such as PriorityClass), for nodes and pods (their calls are
  // above) and for an object not of `kind`. Delete: NotFound when no such
  // object is held.
  absl::Status Upsert(const api::Kind& kind, api::AnyObject object);
  absl::Status Delete(const api::Kind& kind, std::string_view namespace_name, std::string_view name);
  template <typename T>
  absl::Status Upsert(std::shared_ptr<T> object) {
    return Upsert(api::KindOf<std::remove_const_t<T>>(), api::AnyObject(std::move(object)));
  }
  template <typename T>
  absl::Status Delete(std::string_view namespace_name, std::string_view name) {
    return Delete(api::KindOf<T>(), namespace_name, name);
  }

  // --- running ---
  // One scheduling cycle for the next ready pod; false when none is ready.
  bool ScheduleOne();
  // Schedules until no pod is ready and no binding is in flight. Does not
  // advance the clock: pods in backoff or the unschedulable pool wait.
  int RunUntilIdle();
  // Starts the scheduling thread; Stop() drains it and the binding cycles.
  void Run();
  void Stop();
  // Waits until every submitted binding cycle has finished.
  void WaitForBindings();

  // Called after every scheduling attempt, on the scheduling thread.
  void SetCycleObserver(std::function<void(const CycleReport&)> observer);

  SchedulingQueue& queue();
  const Cache& cache() const;
  // The objects the scheduler holds (every kind but nodes and pods, which
  // the cache holds), as its plugins read them; any thread.
  const api::ObjectLister& objects() const;
  // The kinds Upsert takes: the Registry's kinds that kube-scheduler reads,
  // but nodes and pods. A host watches these (and nodes and pods).
  const api::KindSet& kinds() const;
  // The framework of a profile, or nullptr.
  framework::Framework* FrameworkFor(std::string_view scheduler_name) const;

 private:
  struct Impl;
  explicit Scheduler(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_SCHEDULER_SCHEDULER_H_
