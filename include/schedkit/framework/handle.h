// Handle: what a plugin receives from its framework, made of small
// interfaces as upstream's: the cycle's snapshot, the parallelizer, the
// cluster objects (typed, read-only listers of any kind), the writes (bind,
// evict, status and object updates), the nominator, the pod activator, the
// waiting pods, events and metrics, and the runner of other plugins (for
// preemption's dry runs). A plugin that reads a new kind needs no change
// here: handle.objects().Get<T>(...) serves any kind (api/kind.h).
//
//   absl::StatusOr<std::unique_ptr<Plugin>> New(const PluginArgs& args, Handle& h) {
//     return std::make_unique<MyPlugin>(h);   // keep the reference; it outlives the plugin
//   }
//
// The Handle outlives every plugin it constructed. snapshot() returns the
// snapshot of the cycle in progress and may be called from any extension
// point of the scheduling cycle (see snapshot() for the binding side).
// Thread-safe unless a method says otherwise. Threads are named as in
// plugin.h (the scheduling thread, worker threads, a binding thread,
// queue-side calls).
#ifndef SCHEDKIT_FRAMEWORK_HANDLE_H_
#define SCHEDKIT_FRAMEWORK_HANDLE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "google/protobuf/message.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/object_store.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/base/symbol.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/metrics.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/nominated_pods.h"
#include "schedkit/framework/parallelizer.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/shared_state.h"
#include "schedkit/framework/snapshot.h"
#include "schedkit/framework/status.h"

namespace schedkit::framework {

// A pod parked by a Permit plugin that returned Wait; its binding cycle
// blocks until the pod is allowed or rejected. Handed out by
// Handle::IterateOverWaitingPods, valid for the callback. Every method may be
// called from any thread; the first decision (all allowed, or a rejection)
// wins and later calls change nothing.
class WaitingPod {
 public:
  virtual ~WaitingPod() = default;
  // The pod as Permit saw it (assumed on node()). Constant.
  virtual const PodInfo& pod() const = 0;
  // The node the pod is reserved on. Constant.
  virtual Symbol node() const = 0;
  // Plugins that returned Wait and have not allowed yet (a copy).
  virtual std::vector<Symbol> pending_plugins() const = 0;
  // Marks `plugin` as allowing and stops its timeout; no effect if it is not
  // pending. Once no plugin is pending the binding cycle goes on to PreBind.
  virtual void Allow(Symbol plugin) = 0;
  // Fails the pod's Permit at once with Unschedulable and `message`, naming
  // `plugin`, and stops every timeout: the binding cycle unreserves the pod,
  // forgets it and requeues it as unschedulable with `plugin` as rejector.
  virtual void Reject(Symbol plugin, std::string message) = 0;
};

// Pods nominated to nodes by preemption; the two-pass filter and preemption
// read it. The scheduling queue implements it, under its own lock: every
// method may be called from any thread, but not from queue-side calls
// (PreEnqueue, QueueSortPlugin, queueing hints), which already hold that lock.
class PodNominator {
 public:
  virtual ~PodNominator() = default;
  // Pods nominated to `node`, each as the queue's latest copy (copies of the
  // pointers; safe to keep). The framework calls it per node only when
  // Snapshot() gives nothing.
  virtual std::vector<PodInfoPtr> NominatedPodsForNode(Symbol node) const = 0;
  // Nominates `pod` to `node`, replacing any nomination it had; an empty
  // `node` nominates it to its own status.nominatedNodeName (none: the pod is
  // left unnominated). A pod with spec.nodeName set is never nominated, and
  // a null `pod` is ignored. Called by the scheduler when PostFilter
  // nominates a node (the scheduler also tells the Host; this call alone
  // does not). Seen at once by NominatedPodsForNode, and by the next cycle:
  // a cycle in progress keeps the Snapshot() it took.
  virtual void AddNominatedPod(PodInfoPtr pod, Symbol node) = 0;
  // Removes the nomination of the pod with `pod`'s uid, if any.
  virtual void DeleteNominatedPodIfExists(const PodInfo& pod) = 0;
  // Whether any pod is nominated anywhere; lets the filter loop skip the
  // per-node nominated-pods pass in the common case. Asked by the filter
  // pass of a cycle without a Snapshot(). Conservative default.
  virtual bool HasNominatedPods() const { return true; }
  // Every nomination at once, for a cycle to read per node without locking;
  // nullptr (the default) makes the framework call NominatedPodsForNode per
  // node instead. Same content as NominatedPodsForNode for every node.
  // Called once per cycle, when it starts, on the scheduling thread.
  virtual std::shared_ptr<const NominatedPodsSnapshot> Snapshot() const { return nullptr; }
};

// Pods a plugin wants tried again at once (upstream's PodActivator): the
// queue moves each from the unschedulable pool or backoff to the active
// queue. Implemented by the scheduling queue under its lock: any thread, but
// not from queue-side calls (PreEnqueue, QueueSortPlugin, queueing hints).
class PodActivator {
 public:
  virtual ~PodActivator() = default;
  // Pods not waiting in the pool or in backoff (unknown, active, in flight)
  // are left as they are.
  virtual void Activate(const std::vector<std::string>& uids) = 0;
};

// The pods of a profile parked at Permit (WaitingPod), until their binding
// cycles have their answers. Every method may be called from any thread.
class WaitingPods {
 public:
  virtual ~WaitingPods() = default;
  // Calls `fn` on the calling thread for each waiting pod, over a list copied
  // under the lock: `fn` may Allow or Reject, and may call the methods below.
  virtual void IterateOverWaitingPods(const std::function<void(WaitingPod&)>& fn) = 0;
  // Whether the pod with `uid` is waiting at Permit in this profile.
  virtual bool HasWaitingPod(std::string_view uid) const = 0;
  // WaitingPod::Allow on that pod; false if it is not waiting.
  virtual bool AllowWaitingPod(std::string_view uid, Symbol plugin) = 0;
  // WaitingPod::Reject on that pod, naming no plugin ("") and with
  // `message`; false if not waiting. Scheduler::DeletePod passes "pod deleted".
  virtual bool RejectWaitingPod(std::string_view uid, std::string message = "removed") = 0;
};

// The framework's writes to the cluster, as upstream's plugins use the API
// server: binding, eviction, nomination and object updates. The scheduler
// implements it over the host callbacks, which may block; a callback that
// throws becomes an Internal status. Every method may be called from any
// thread, concurrently (ClearNominatedNodeName takes the queue's lock: not
// from queue-side calls). Reads go through Handle::objects().
class ClusterClient {
 public:
  virtual ~ClusterClient() = default;
  // Binds `pod` to `node`: the scheduler returns Host::Bind's status, given
  // the pod as the host delivered it. Called by Bind plugins (DefaultBinder),
  // on a binding thread, concurrently with other pods' binds. OK: the pod is
  // bound, and the binding cycle finishes. DefaultBinder turns any other
  // status into an Error, so the binding cycle fails: Unreserve, the pod is
  // forgotten and requeued as an error with backoff.
  virtual absl::Status Bind(const PodInfo& pod, Symbol node) = 0;
  // Evicts `victim` so that `preemptor` can run on `node`: the scheduler
  // returns Host::Evict's status (by default Unimplemented). Called by
  // preemption from PostFilter, on the scheduling thread; it takes NotFound
  // as already gone.
  virtual absl::Status Evict(const PodInfo& victim, const PodInfo& preemptor, Symbol node) = 0;
  // Clears a pod's status.nominatedNodeName (a lower-priority pod that lost
  // its nomination to a preemptor): the scheduler drops the nomination, tells
  // Host::OnNominatedNodeChanged with an empty node and updates its copy of a
  // pending pod. Always OK in the scheduler.
  virtual absl::Status ClearNominatedNodeName(const PodInfo& pod) = 0;
  // Writes `object` (of `kind`) to the cluster, as an update of the stored
  // object (VolumeBinding's PreBind binds volumes and claims so): the
  // scheduler forwards to Host::UpdateObject and returns the object as the
  // host stored it. The scheduler does not hold the result yet: the host
  // reports it back as it reports any change. The default refuses.
  virtual absl::StatusOr<api::AnyObject> UpdateObject(const api::Kind& kind, const google::protobuf::Message& object) {
    (void)object;
    return absl::UnimplementedError(schedkit::StrCat("this cluster client does not update ", kind.kind(), " objects"));
  }
  // Writes `object`'s status (of `kind`) to the cluster, as upstream's
  // UpdateStatus PUTs the status subresource: DynamicResources' PreBind
  // records a claim's allocation and reservedFor so, and its PostFilter and
  // Unreserve take them back. Conditional on `object`'s resourceVersion when
  // it has one: Aborted (409 Conflict) when the stored object is newer, so
  // the caller reads it again and retries. Forwarded to
  // Host::UpdateObjectStatus as UpdateObject is; the default refuses.
  virtual absl::StatusOr<api::AnyObject> UpdateObjectStatus(const api::Kind& kind,
                                                            const google::protobuf::Message& object) {
    (void)object;
    return absl::UnimplementedError(
        schedkit::StrCat("this cluster client does not update the status of ", kind.kind(), " objects"));
  }
  // Creates `object` (of `kind`) in the cluster, as upstream's Create POSTs
  // it: DynamicResources' PreBind creates the ResourceClaim that holds a
  // pod's extended resources backed by DRA so. An empty metadata.name with
  // metadata.generateName set gets a name from the host (the API server
  // appends five characters). Returns the object as stored (name, uid,
  // resourceVersion set); AlreadyExists when the name is taken. Forwarded to
  // Host::CreateObject as UpdateObject is; the default refuses.
  virtual absl::StatusOr<api::AnyObject> CreateObject(const api::Kind& kind, const google::protobuf::Message& object) {
    (void)object;
    return absl::UnimplementedError(schedkit::StrCat("this cluster client does not create ", kind.kind(), " objects"));
  }
  // Deletes the object of `kind` named `name` in `namespace_name` ("" for a
  // cluster-scoped kind): DynamicResources deletes a pod's extended-resource
  // claim that a failed binding left behind. NotFound when it is already
  // gone. Forwarded to Host::DeleteObject; the default refuses.
  virtual absl::Status DeleteObject(const api::Kind& kind, std::string_view namespace_name, std::string_view name) {
    (void)namespace_name;
    (void)name;
    return absl::UnimplementedError(schedkit::StrCat("this cluster client does not delete ", kind.kind(), " objects"));
  }
  template <typename T>
  absl::StatusOr<std::shared_ptr<const T>> Create(const T& object) {
    return Typed<T>(CreateObject(api::KindOf<T>(), object));
  }
  template <typename T>
  absl::Status Delete(std::string_view namespace_name, std::string_view name) {
    return DeleteObject(api::KindOf<T>(), namespace_name, name);
  }
  template <typename T>
  absl::StatusOr<std::shared_ptr<const T>> Update(const T& object) {
    return Typed<T>(UpdateObject(api::KindOf<T>(), object));
  }
  template <typename T>
  absl::StatusOr<std::shared_ptr<const T>> UpdateStatus(const T& object) {
    return Typed<T>(UpdateObjectStatus(api::KindOf<T>(), object));
  }

 private:
  template <typename T>
  static absl::StatusOr<std::shared_ptr<const T>> Typed(absl::StatusOr<api::AnyObject> stored) {
    if (!stored.ok()) return stored.status();
    return std::static_pointer_cast<const T>(*std::move(stored));
  }
};

// Kubernetes-style events about pods, given as FrameworkOptions::events.
// A Scheduler gives each profile one that passes them to Host::OnEvent
// (reportingController = the profile's schedulerName), along with its own
// Scheduled and FailedScheduling; in-tree, DefaultPreemption records
// Preempted.
class EventRecorder {
 public:
  virtual ~EventRecorder() = default;
  // Records an event (`type` "Normal" or "Warning") regarding a pod, with
  // `related` the other pod it concerns (the preemptor of a Preempted
  // victim) or nullptr. Called by plugins on their own threads (preemption:
  // the scheduling thread), so it must be thread-safe; it must not block on
  // the network (a host queues the event and sends it later).
  virtual void Event(const PodInfo& regarding, const PodInfo* related, std::string_view type,
                     std::string_view reason, std::string_view action, std::string_view note) = 0;
};

// Runs a profile's plugins, as upstream's PluginsRunner, for plugins that
// simulate (preemption, from PostFilter on the scheduling thread and its
// worker threads). All are safe to call concurrently on distinct states and
// NodeInfos. Plugins PreFilter skipped in `state` are left out.
class PluginRunner {
 public:
  virtual ~PluginRunner() = default;
  // The Filter plugins on `node` in order, until one fails: Success, the
  // rejection (naming its plugin), or an Error for any other code. Calls
  // Filter, not FilterNodes, and consults no memo.
  virtual Status RunFilterPlugins(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const = 0;
  // Upstream's two passes: where `node` has nominated pods of equal or
  // higher priority (other than `pod`), first on a copy of `node` with them
  // added (and a clone of `state` updated through AddPod, when an extension
  // is active), then on `node`; Success only if both pass. Returns the first
  // failing pass's status, or AddPod's Error. Nominations come from
  // `state`'s snapshot when the cycle took one, else from the nominator.
  virtual Status RunFilterPluginsWithNominatedPods(const CycleState& state, const PodInfo& pod,
                                                   const NodeInfo& node) const = 0;
  // PreFilterExtensions::AddPod / RemovePod of each PreFilter plugin with
  // extensions, in order, until one fails: Success, or an Error wrapping
  // the failure's message. They update `state`: pass a clone
  // (CycleState::Clone) and a `node` that already shows the change.
  virtual Status RunPreFilterExtensionAddPod(CycleState& state, const PodInfo& pod, const PodInfo& to_add,
                                             const NodeInfo& node) const = 0;
  virtual Status RunPreFilterExtensionRemovePod(CycleState& state, const PodInfo& pod,
                                                const PodInfo& to_remove, const NodeInfo& node) const = 0;
  // Whether the two calls above would reach any plugin for `state` (one not
  // skipped this cycle has PreFilterExtensions). When not, a simulation may
  // read `state` as it is instead of cloning it. Conservative default.
  virtual bool HasActivePreFilterExtensions(const CycleState& state) const {
    (void)state;
    return true;
  }
  // A key for the filter plugins active for `state` when every one of them
  // promises per-node outcomes (Plugin::OutcomesArePerNode) and no active
  // PreFilter extension follows simulated pods: a simulation's verdict on a
  // NodeInfo then depends on that NodeInfo and the pod's signature alone, so
  // a plugin may keep it for the next pod of the signature while the key
  // stays. nullopt otherwise, and when the framework keeps no outcome memo
  // (FrameworkOptions::memoize_per_node_outcomes).
  virtual std::optional<uint64_t> PerNodeFilterChain(const CycleState& state) const {
    (void)state;
    return std::nullopt;
  }
};

class Handle {
 public:
  virtual ~Handle() = default;

  // The snapshot of the scheduling cycle in progress (an empty one before
  // the first). The scheduling thread refreshes it in place when each cycle
  // starts, so read it only from the scheduling cycle's extension points and
  // their worker threads, not from a binding thread or a queue-side call.
  virtual const Snapshot& snapshot() const = 0;
  // The threads for Filter and Score, shared by a scheduler's profiles;
  // thread-safe. Never changes.
  virtual Parallelizer& parallelizer() const = 0;
  // The profile's schedulerName. Never changes.
  virtual std::string_view profile_name() const = 0;
  // The host's recorder, or one that records nothing; never null, and
  // thread-safe.
  virtual MetricsRecorder& metrics() const = 0;
  // The cluster objects the scheduler holds, any kind (claims, volumes,
  // workloads, a plugin's own CRD), as upstream's informer listers: typed
  // reads, thread-safe, from any extension point or hint. One that holds
  // nothing when the framework runs without a scheduler and none was given.
  virtual const api::ObjectLister& objects() const = 0;
  // The writes to the cluster (bind, evict, object updates) through the
  // Scheduler's host; nullptr when the framework runs without one (tests,
  // tools). Set before plugins are built.
  virtual ClusterClient* client() const = 0;
  // The scheduling queue's nominations under a Scheduler; nullptr when the
  // framework runs without a scheduler (tests, tools). The Scheduler sets it
  // after building its profiles, so it is still null while plugin factories
  // run: call it when needed, do not keep the factory-time answer.
  virtual PodNominator* nominator() const = 0;
  // The scheduling queue's activation, as nominator() (same lifetime rules).
  virtual PodActivator* activator() const = 0;
  // FrameworkOptions::events, or nullptr (a framework without a Scheduler
  // and no recorder given).
  virtual EventRecorder* events() const = 0;
  // Waiting pods (Permit) of this profile. Never changes.
  virtual WaitingPods& waiting_pods() const = 0;
  // The runner of this profile's plugins, for simulations. Never changes.
  virtual const PluginRunner& plugin_runner() const = 0;
  // Whether this profile runs the plugin named `plugin` at Filter. A plugin
  // whose Reserve relies on what its Filter saw of the node asks it there: as
  // upstream's, it then finds nothing recorded for a node its Filter never
  // ran on. Never changes once the plugins are built; any thread.
  virtual bool RunsFilter(std::string_view /*plugin*/) const { return true; }
  // Objects shared by the plugins of every profile of one scheduler
  // (FrameworkOptions::shared_state); a framework given none keeps its own,
  // shared by its plugins only. nullptr (the default, for handles that keep
  // none) means nothing is shared: a plugin makes its own. Never changes.
  virtual SharedState* shared_state() const { return nullptr; }
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_HANDLE_H_
