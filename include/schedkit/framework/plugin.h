// The plugin interfaces: one per extension point of the Kubernetes scheduling
// framework (upstream v1.37 semantics). A plugin implements Plugin plus the
// interfaces of the points it serves; one instance per profile serves all of
// them. Out-of-tree plugins implement these and are added to a Registry.
//
//   class MyFilter : public FilterPlugin {
//    public:
//     std::string_view Name() const override { return "MyFilter"; }
//     Status Filter(const CycleState&, const PodInfo& pod, const NodeInfo& node) const override;
//   };
//
// Order of calls in one scheduling cycle (one pod at a time):
//   PreFilter → Filter (per node, parallel) → [PostFilter when no node fits]
//   → PreScore → Score (per node, parallel) → NormalizeScore → select host
//   → Reserve → Permit → (binding cycle, asynchronous) PreBind → Bind → PostBind
// Any failure after Reserve calls Unreserve on every Reserve plugin in
// reverse order. Methods marked "concurrently" may run on many threads at
// once for different nodes and must not mutate shared state.
//
// Each method says when it is called, on which thread, and what each status
// it returns makes the framework do. The threads:
//   - the scheduling thread runs one scheduling cycle at a time: PreFilter
//     through Permit, and PostFilter;
//   - worker threads are the Parallelizer's (they may include the scheduling
//     thread): Filter and Score for different nodes, concurrently;
//   - a binding thread runs a pod's binding cycle (the wait on Permit,
//     PreBind, Bind, PostBind, Unreserve after a failure): an Executor task,
//     concurrent with other pods' binding cycles and with later scheduling
//     cycles; the scheduling thread itself under
//     SchedulerOptions::bind_on_scheduling_thread when no Permit plugin made
//     the pod wait;
//   - queue-side calls (PreEnqueue, QueueSortPlugin, queueing hints) run under
//     the scheduling queue's lock, on whichever thread touches the queue.
//     They must not call into the queue or Handle::nominator(): the lock is
//     not reentrant.
// State a plugin shares across these threads (what Reserve records and
// Unreserve or PreBind reads) needs its own synchronization.
//
// A "rejection" is Unschedulable, UnschedulableAndUnresolvable or Pending
// (Status::IsRejected). After a failed attempt the scheduler requeues the pod
// (unless it was deleted or bound meanwhile). "As unschedulable" records the
// failing plugin as the pod's rejector: a pod that failed before PreBind
// then waits for an event the rejector registered for (EnqueueExtensions),
// unless one came during the attempt; one that failed in PreBind or Bind is
// retried after its backoff. "As an error" records no rejector: the pod is
// retried after an error backoff. Where a point wraps a code into an Error,
// the Error's message names the plugin.
//
// Opportunistic batching (on by default, as upstream's OpportunisticBatching)
// reuses one pod's ranking for the next alike pod only when every PreFilter,
// Filter, PreScore and Score plugin also implements SignPlugin
// (batch_signature.h); a plugin there that does not turns it off for its
// profile.
//
// Marked "read once": the framework asks once, when the profile is built
// (Framework::Create), and keeps the answer for the profile's lifetime.
#ifndef SCHEDKIT_FRAMEWORK_PLUGIN_H_
#define SCHEDKIT_FRAMEWORK_PLUGIN_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/time/time.h"
#include "schedkit/base/symbol.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/events.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/normalize_score.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/queued_pod_info.h"
#include "schedkit/framework/status.h"

namespace schedkit::framework {

class Plugin {
 public:
  virtual ~Plugin() = default;
  // The name the configuration uses; constant for the plugin's lifetime.
  // Read once (the framework interns it), on the thread building the profile.
  virtual std::string_view Name() const = 0;
  // Optional, for speed. True promises that this plugin's Filter and Score
  // outcomes on a node, and the PreFilter and PreScore state they read,
  // depend on nothing but the pod's namespace and spec (PodInfo::signature),
  // that node's NodeInfo, the snapshot's node objects and the plugin's args:
  // not on other nodes' pods, the clock, or any state that can change while
  // the node's generation stays the same. The framework then reuses a
  // node's outcomes for the next pod with the same signature while the node
  // is unchanged, instead of calling Filter or Score again.
  // Read once, for the profile's Filter and Score plugins.
  virtual bool OutcomesArePerNode() const { return false; }
  // Optional, for speed, for a plugin whose outcomes are per node for some
  // pods only (VolumeBinding's, for pods without claims): true promises
  // what OutcomesArePerNode does, for this pod and every pod of its
  // signature, so the answer may depend on the pod's namespace and spec
  // alone. Asked for the active Score plugins of a cycle the memo serves,
  // after PreScore, on the scheduling thread; never asked when
  // OutcomesArePerNode is true.
  virtual bool OutcomesArePerNodeFor(const PodInfo& /*pod*/) const { return false; }
};

// Decides whether a pod may enter the queue's activeQ or backoffQ at all
// (scheduling gates).
class PreEnqueuePlugin : public virtual Plugin {
 public:
  // Called: whenever the queue is about to move the pod into activeQ or
  // backoffQ (Add, an update or event that moves it out of the unschedulable
  // pool, a requeue after a failed attempt, Activate); not again when it
  // moves from backoffQ to activeQ. Plugins run in order until one fails.
  // Thread: queue-side, under the queue's lock (see above); never
  // concurrently with another queue-side call.
  // Returns: Success lets the next plugin run; when all pass the pod enters
  // the queue. Anything else stops the run and keeps the pod gated in the
  // unschedulable pool, with this plugin as its gating and unschedulable
  // plugin, until an event the plugin registered for (EnqueueExtensions), a
  // wildcard event or Activate moves it and PreEnqueue runs again. Codes
  // other than a rejection are wrapped into an Error, but gate the pod the
  // same way.
  virtual Status PreEnqueue(const PodInfo& pod) = 0;
};

// Orders activeQ. Exactly one per profile, and all profiles must name the
// same one: the queue, shared by every profile, uses the first profile's
// instance.
class QueueSortPlugin : public virtual Plugin {
 public:
  // True if `a` should be scheduled before `b`; ties fall back to the
  // queue's timestamp and insertion order.
  // Called: on every activeQ and backoffQ heap operation (add, update, pop,
  // requeue), and to sort queue listings, unless Rank orders both pods.
  // Thread: queue-side: any thread that adds, updates, requeues or pops pods
  // (host event threads, the scheduling thread, binding threads, the clock's
  // flush timers), under the queue's exclusive lock; listings
  // (SchedulingQueue::PendingPods, PodsIn) hold it shared, so their calls may
  // overlap one another.
  virtual bool Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const = 0;
  // Optional, for speed: a plugin whose order is "lower rank first, then the
  // earlier timestamp", with a rank that depends on the pod alone, returns
  // that rank. The queue then keeps each pod's rank beside its entry and
  // orders by it without calling Less. Must agree with Less.
  // Called: once each time a pod enters the queue or an update replaces a
  // queued pod's object. Thread: as Less, always under the exclusive lock.
  virtual std::optional<int64_t> Rank(const PodInfo& /*pod*/) const { return std::nullopt; }
};

// A PreFilter's restriction of the candidate nodes. nullopt means all nodes;
// results of several plugins are intersected.
struct PreFilterResult {
  std::optional<absl::flat_hash_set<Symbol>> node_names;

  bool AllNodes() const { return !node_names.has_value(); }
  // Intersection, as upstream's Merge.
  PreFilterResult Merge(const PreFilterResult& other) const;
};

// Incremental updates of a PreFilter's state when the framework evaluates
// "what if this pod were added to / removed from the node" (nominated pods,
// preemption). Always called on a cloned CycleState and NodeInfo, the node
// already showing the addition or removal; never for plugins that skipped
// this cycle.
class PreFilterExtensions {
 public:
  virtual ~PreFilterExtensions() = default;
  // Called: by the framework's nominated-pods pass, once per nominated pod of
  // equal or higher priority added to a node (on worker threads, concurrently
  // for different nodes), and by PostFilter plugins through
  // Handle::RunPreFilterExtensionAddPod (preemption's dry runs, possibly
  // concurrently on distinct states). Plugins run in PreFilter order.
  // Returns: Success lets the next plugin run. Anything else stops the run
  // and becomes an Error wrapping the message ("running AddPod on PreFilter
  // plugin ..."): in the nominated-pods pass it fails the cycle as an error.
  virtual Status AddPod(CycleState& state, const PodInfo& pod_to_schedule, const PodInfo& pod_to_add,
                        const NodeInfo& node) const = 0;
  // Called: by PostFilter plugins through Handle::RunPreFilterExtensionRemovePod
  // (preemption removing victims), as AddPod. Returns: as AddPod ("running
  // RemovePod on PreFilter plugin ..."); what the caller does with the Error
  // is its own choice.
  virtual Status RemovePod(CycleState& state, const PodInfo& pod_to_schedule, const PodInfo& pod_to_remove,
                           const NodeInfo& node) const = 0;
};

// Computes per-pod state into CycleState before any Filter, and may narrow
// the candidate nodes.
class PreFilterPlugin : public virtual Plugin {
 public:
  struct [[nodiscard]] Result {
    PreFilterResult result;
    Status status;
  };
  // Called: once per cycle, first, with all the snapshot's nodes; plugins run
  // in order. Thread: the scheduling thread.
  // Returns:
  //   Success: `result` is intersected with the others'; an empty
  //     intersection fails the cycle with UnschedulableAndUnresolvable on
  //     every node, and the remaining PreFilters do not run.
  //   Skip: this plugin's Filter and PreFilterExtensions are not called
  //     this cycle.
  //   UnschedulableAndUnresolvable: the cycle stops at once; every node gets
  //     this status and PostFilter runs.
  //   Unschedulable: the remaining PreFilters still run (preemption needs
  //     their state); unless one of them stops the cycle first, it then fails
  //     with the first such status on every node, without Filter; PostFilter
  //     runs.
  //   Anything else (Error, Pending, Wait): wrapped into an Error; the cycle
  //     aborts without PostFilter and the pod is requeued as an error.
  virtual Result PreFilter(CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes) = 0;
  // nullptr when the plugin's state does not depend on other pods.
  // Whether it is null is read once; the object is asked for again at each
  // AddPod/RemovePod run, so the answer must never change.
  virtual const PreFilterExtensions* GetPreFilterExtensions() const { return nullptr; }
};

// Whether the pod fits on one node.
class FilterPlugin : public virtual Plugin {
 public:
  // Called: for each node the filter pass examines (not those a PreFilter
  // excluded, nor, for a per-node plugin, those the outcome memo answers),
  // in plugin order until one fails; the pass evaluates nodes in parallel
  // rounds, so it may examine more nodes than the cycle uses. Also on a
  // copy of the node with nominated pods of equal or higher priority added
  // (then, if that passes, on the node itself), and through the Handle's
  // RunFilterPlugins* in PostFilter's dry runs.
  // Thread: worker threads, concurrently for many nodes; must not mutate the
  // node or the state.
  // Returns: Success lets the node's next filter run. A rejection makes the
  // node infeasible, skips its remaining filters, and is kept for PostFilter
  // and the failure message (Pending records the plugin as pending). Anything
  // else becomes an Error that aborts the cycle without PostFilter; the pod
  // is requeued as an error.
  virtual Status Filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const = 0;
  // Filters a run of nodes: for each i with passing[i] set, the outcome of
  // Filter on nodes[i]; where that is not Success, clears passing[i] and
  // stores the Status in statuses[i] (other entries are left alone). What the
  // framework's filter pass calls, on runs of nodes in parallel; the default
  // calls Filter per node. A plugin whose usual outcome is a quick pass
  // overrides it to read its state once per run and call Filter only for
  // the nodes it rejects; the outcomes must equal Filter's.
  // Thread: worker threads, concurrently for different runs; each run goes
  // through the plugins in order on one thread. Returns: as Filter, per node.
  virtual void FilterNodes(const CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                           std::span<uint8_t> passing, std::span<Status> statuses) const;

 protected:
  // A FilterNodes body for a plugin whose usual pass a few reads decide:
  // `passes(node)` may return true only for nodes Filter passes; Filter runs
  // (and gives the Status) for the others.
  template <typename Passes>
  void FilterNodesWithQuickPass(const CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                                std::span<uint8_t> passing, std::span<Status> statuses, Passes&& passes) const {
    FilterNodesWithQuickPass(nodes, passing, statuses, passes,
                             [&](const NodeInfo& node) { return Filter(state, pod, node); });
  }
  // The same with `status_of(node)` giving Filter's Status for the nodes
  // `passes` does not pass, for a plugin that can skip Filter's own setup.
  template <typename Passes, typename StatusOf>
  static void FilterNodesWithQuickPass(std::span<const NodeInfo* const> nodes, std::span<uint8_t> passing,
                                       std::span<Status> statuses, Passes&& passes, StatusOf&& status_of) {
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (!passing[i] || passes(*nodes[i])) continue;
      Status s = status_of(*nodes[i]);
      if (s.IsSuccess()) continue;
      passing[i] = 0;
      statuses[i] = std::move(s);
    }
  }
};

// The per-node outcome of the filters, for PostFilter and diagnosis.
class NodeToStatus;

struct NominatingInfo {
  enum class Mode : uint8_t { kNoop, kOverride };
  Mode mode = Mode::kNoop;
  Symbol node_name;
};

// Tries to make the pod schedulable when no node fit (e.g. preemption).
class PostFilterPlugin : public virtual Plugin {
 public:
  struct [[nodiscard]] Result {
    NominatingInfo nominating_info;
    Status status;
  };
  // Called: once per failed cycle, after PreFilter or Filter rejected the pod
  // (not after an Error, nor when the snapshot has no nodes), with every
  // node's status; plugins run in order until one returns anything but
  // Unschedulable or Pending.
  // Thread: the scheduling thread (dry runs may fan out to worker threads
  // through the Handle).
  // Returns: the pod is requeued as unschedulable whatever PostFilter
  // returns; the status only joins the failure message, and the nominating
  // info decides the pod's nominated node (kOverride with a node nominates
  // it there).
  //   Success: stops; this result's nominating info is applied.
  //   Unschedulable, Pending: "could not help"; the next plugin runs. A
  //     non-Noop nominating info is still kept (the last such wins).
  //   UnschedulableAndUnresolvable: stops, nominating info applied.
  //   Anything else: wrapped into an Error; stops, no nomination changes.
  virtual Result PostFilter(CycleState& state, const PodInfo& pod, const NodeToStatus& filtered) = 0;
};

// Computes per-pod state for Score from the feasible nodes.
class PreScorePlugin : public virtual Plugin {
 public:
  // Called: once per cycle after Filter, with the feasible nodes, only when
  // at least two are feasible and the profile has Score plugins; plugins run
  // in order. Thread: the scheduling thread.
  // Returns: Success lets the next plugin run. Skip: this plugin's Score is
  // not called this cycle. Anything else (rejections too) is wrapped into an
  // Error that aborts the cycle; the pod is requeued as an error.
  virtual Status PreScore(CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes) = 0;
};

// Rewrites one plugin's raw scores in place (same order as `nodes`); the
// result must lie in [kMinNodeScore, kMaxNodeScore].
class ScoreExtensions {
 public:
  virtual ~ScoreExtensions() = default;
  // Called: at most once per cycle per Score plugin PreScore did not skip,
  // after every Score, over all the scored nodes; not when the framework
  // takes the totals from its memo (see NormalizesByMaximum).
  // Thread: with 1024 or more nodes, the plugins' calls may run concurrently
  // on worker threads (as upstream's); with fewer, one after another on the
  // scheduling thread.
  // Returns: Success. Anything else is an Error ("running Normalize on Score
  // plugins ...", the first failing plugin in order) that aborts the cycle;
  // so does a normalized score out of range.
  virtual Status NormalizeScore(const CycleState& state, const PodInfo& pod,
                                std::span<const NodeInfo* const> nodes, std::span<int64_t> scores) const = 0;
  // A NormalizeScore that always succeeds and equals the returned
  // normalization's Apply on the column (upstream's DefaultNormalizeScore)
  // says so: the framework may then normalize a node's score from the
  // column's maximum alone, and keep a pod signature's totals across cycles,
  // instead of calling NormalizeScore. Read once; it matters only when every
  // active Score plugin's OutcomesArePerNode and the outcome memo is on.
  virtual std::optional<MaximumNormalization> NormalizesByMaximum() const { return std::nullopt; }
};

// Ranks a feasible node.
class ScorePlugin : public virtual Plugin {
 public:
  // Called: through ScoreNodes, once per feasible node per cycle, after
  // PreScore, when at least two nodes are feasible and PreScore did not skip
  // this plugin; not for nodes the outcome memo answers.
  // Thread: worker threads, concurrently for many nodes.
  // Returns: Success. Anything else is an Error ("running Score plugins ...")
  // that aborts the cycle, the pod requeued as an error; so is a score out
  // of range once normalized (or as returned, without NormalizeScore).
  virtual Status Score(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                       int64_t& score) const = 0;
  // Scores nodes[i] into scores[i], writing every entry (the framework does
  // not clear them first); what the framework calls, on runs of nodes in
  // parallel. The default sets each entry to 0, then calls Score per node,
  // stopping at the first failure. A plugin whose per-node work is a few
  // operations overrides it to read its state once and keep the loop tight;
  // the results must equal Score's.
  // Thread: worker threads, concurrently for different runs. Returns: as
  // Score.
  virtual Status ScoreNodes(const CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                            std::span<int64_t> scores) const;
  // nullptr when the plugin does not normalize. Whether it is null is read
  // once (with NormalizesByMaximum); the object is asked for again each
  // cycle, so the answer must never change.
  virtual const ScoreExtensions* GetScoreExtensions() const { return nullptr; }
};

// Reserves the node's resources for the pod before binding, and undoes that.
class ReservePlugin : public virtual Plugin {
 public:
  // Called: once per cycle on the selected node, after the pod is assumed in
  // the cache; plugins run in order until one fails. Thread: the scheduling
  // thread.
  // Returns: Success lets the next plugin run, then Permit. A rejection stops
  // the run: Unreserve runs on every Reserve plugin, the pod is forgotten
  // from the cache and requeued as unschedulable. Anything else is wrapped
  // into an Error and handled the same, the pod requeued as an error.
  virtual Status Reserve(CycleState& state, const PodInfo& pod, Symbol node) = 0;
  // Called: after any failure from Reserve through Bind, on every Reserve
  // plugin in reverse order, whether or not its own Reserve ran; never after
  // a successful Bind. Must be idempotent; cannot fail.
  // Thread: the scheduling thread (Reserve or Permit failed) or a binding
  // thread (Permit's wait, PreBind or Bind failed); the latter concurrently
  // with other pods' Reserve and Unreserve.
  virtual void Unreserve(CycleState& state, const PodInfo& pod, Symbol node) = 0;
};

// Approves, rejects or delays the binding of a reserved pod.
class PermitPlugin : public virtual Plugin {
 public:
  struct [[nodiscard]] Result {
    Status status;
    absl::Duration timeout = absl::ZeroDuration();
  };
  // Called: once per cycle after Reserve succeeded; plugins run in order.
  // Thread: the scheduling thread.
  // Returns:
  //   Success: the next plugin runs; when all succeed the binding cycle
  //     starts.
  //   Wait: the remaining plugins still run; unless one rejects, the pod is
  //     parked and its binding cycle (handed to the Executor even under
  //     bind_on_scheduling_thread) blocks until every waiting plugin allows
  //     it (Handle::AllowWaitingPod), one rejects it (Unschedulable), or its
  //     `timeout` (capped at 15 minutes; zero, the default, is due at once)
  //     rejects it from the clock's timer. A rejection there fails the
  //     binding cycle: Unreserve, the pod is forgotten and requeued as
  //     unschedulable with the rejecting plugin as its rejector.
  //   A rejection: stops the run; Unreserve, the pod is forgotten and
  //     requeued as unschedulable.
  //   Anything else (Error, Skip): wrapped into an Error; handled the same,
  //     the pod requeued as an error.
  virtual Result Permit(CycleState& state, const PodInfo& pod, Symbol node) = 0;
};

// Work before binding (e.g. volumes).
class PreBindPlugin : public virtual Plugin {
 public:
  // Called: once per binding cycle, after Permit allowed the pod; plugins run
  // in order until one fails. `state` is the cycle's, without its
  // SchedulingCycleOnly entries. Thread: a binding thread.
  // Returns: Success or Skip (treated as success) lets the next plugin run,
  // then Bind. A rejection stops the run: Unreserve, the pod is forgotten
  // and requeued as unschedulable with this plugin as its rejector, retried
  // after its backoff (it left the queue's in-flight tracking when Permit
  // passed, so no event is awaited). Anything else is wrapped into an Error
  // and handled the same, the pod requeued as an error.
  virtual Status PreBind(CycleState& state, const PodInfo& pod, Symbol node) = 0;
  // Called: once per binding cycle, before Permit's wait, to ask whether
  // PreBind will have work to do for `node` (upstream's PreBindPreFlight).
  // Thread: a binding thread.
  // Returns: Success (it will: e.g. volumes to bind; the scheduler then
  // writes status.nominatedNodeName first, so other components see where
  // the pod is going), Skip (nothing to do), or an error, which fails the
  // binding cycle as a PreBind error would. The default says Success, the
  // safe answer for a plugin that cannot tell.
  virtual Status PreBindPreFlight(const CycleState& state, const PodInfo& pod, Symbol node) const {
    (void)state;
    (void)pod;
    (void)node;
    return Status();
  }
};

// Binds the pod to the node (e.g. through Handle::client()).
class BindPlugin : public virtual Plugin {
 public:
  // Called: once per binding cycle, after PreBind succeeded; plugins run in
  // order until one does not return Skip. Thread: a binding thread.
  // Returns:
  //   Success: the pod is bound; the cache confirms it, the host hears
  //     OnScheduled, then PostBind runs.
  //   Skip: not this plugin's pod; the next one runs. If all skip, the
  //     binding cycle fails with the Error "all bind plugins skipped".
  //   A rejection: Unreserve, the pod is forgotten and requeued as
  //     unschedulable with this plugin as its rejector, retried after its
  //     backoff.
  //   Anything else: wrapped into an Error ("running Bind plugin ..."); the
  //     same, the pod requeued as an error with backoff.
  virtual Status Bind(CycleState& state, const PodInfo& pod, Symbol node) = 0;
};

// Informational, after a successful bind.
class PostBindPlugin : public virtual Plugin {
 public:
  // Called: once per successful binding cycle, after Bind and the host's
  // OnScheduled; every plugin in order. Cannot fail. Thread: the binding
  // thread that ran Bind.
  virtual void PostBind(CycleState& state, const PodInfo& pod, Symbol node) = 0;
};

// The cluster events that may make a pod this plugin rejected schedulable.
// Only PreEnqueue, PreFilter, Filter, Reserve and Permit plugins register;
// one of them without this interface is registered for every event (the
// wildcard), so every event requeues the pods it rejected.
class EnqueueExtensions : public virtual Plugin {
 public:
  // The registrations. Read once. An empty list registers nothing: no event
  // requeues a pod on this plugin's account, though wildcard events (e.g. the
  // periodic flush of pods unschedulable too long) and Activate still do.
  // Registering Node/Add also registers Node/UpdateNodeTaint without a hint
  // (upstream's workaround for kubernetes#109437).
  // Each registration's hint function (events.h):
  //   Called: by the queue for a matching event and each pod in the
  //     unschedulable pool this plugin rejected or gated, and, for the events
  //     that came meanwhile, for such a pod returning from an attempt.
  //   Thread: queue-side, under the queue's exclusive lock, on the thread
  //     that delivered the event or requeued the pod; never concurrently.
  //   Returns: Queue moves the pod: to activeQ at once if this plugin left it
  //     Pending, otherwise after its backoff (PreEnqueue runs again on the
  //     way). Skip leaves the pod to other registrations and rejectors. An
  //     error counts as Queue.
  virtual std::vector<ClusterEventWithHint> EventsToRegister() const = 0;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_PLUGIN_H_
