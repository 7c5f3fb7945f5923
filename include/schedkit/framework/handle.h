// Handle: what a plugin receives from its framework — the cycle's snapshot,
// the parallelizer, waiting pods, the nominator, the host client (bind,
// evict), events and metrics, and the runner of other plugins (for
// preemption's dry runs).
//
//   absl::StatusOr<std::unique_ptr<Plugin>> New(const PluginArgs& args, Handle& h) {
//     return std::make_unique<MyPlugin>(h);   // keep the reference; it outlives the plugin
//   }
//
// The Handle outlives every plugin it constructed. snapshot() returns the
// snapshot of the cycle in progress and may be called from any extension
// point. Thread-safe unless a method says otherwise.
#ifndef SCHEDKIT_FRAMEWORK_HANDLE_H_
#define SCHEDKIT_FRAMEWORK_HANDLE_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "schedkit/api/symbol.h"
#include "schedkit/api/v1/policy.pb.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/metrics.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/nominated_pods.h"
#include "schedkit/framework/parallelizer.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/snapshot.h"
#include "schedkit/framework/status.h"

namespace schedkit::framework {

// A pod parked by a Permit plugin that returned Wait.
class WaitingPod {
 public:
  virtual ~WaitingPod() = default;
  virtual const PodInfo& pod() const = 0;
  virtual Symbol node() const = 0;
  // Plugins that still have to Allow.
  virtual std::vector<Symbol> pending_plugins() const = 0;
  // Marks `plugin` as allowing; the pod proceeds once no plugin is pending.
  virtual void Allow(Symbol plugin) = 0;
  // Fails the pod's Permit with Unschedulable and `message`.
  virtual void Reject(Symbol plugin, std::string message) = 0;
};

// Pods nominated to nodes by preemption; the two-pass filter and preemption
// read it. The scheduling queue implements it.
class PodNominator {
 public:
  virtual ~PodNominator() = default;
  // Pods nominated to `node` (copies of the pointers; safe to keep).
  virtual std::vector<PodInfoPtr> NominatedPodsForNode(Symbol node) const = 0;
  virtual void AddNominatedPod(PodInfoPtr pod, Symbol node) = 0;
  virtual void DeleteNominatedPodIfExists(const PodInfo& pod) = 0;
  // Whether any pod is nominated anywhere; lets the filter loop skip the
  // per-node nominated-pods pass in the common case. Conservative default.
  virtual bool HasNominatedPods() const { return true; }
  // Every nomination at once, for a cycle to read per node without locking;
  // nullptr (the default) makes the framework call NominatedPodsForNode per
  // node instead. Same content as NominatedPodsForNode for every node.
  virtual std::shared_ptr<const NominatedPodsSnapshot> Snapshot() const { return nullptr; }
};

// The framework's way to the host: binding and eviction, as upstream plugins
// use the API server. The scheduler implements it over the host callbacks.
class ClusterClient {
 public:
  virtual ~ClusterClient() = default;
  virtual absl::Status Bind(const PodInfo& pod, Symbol node) = 0;
  // Evicts `victim` so that `preemptor` can run on `node`.
  virtual absl::Status Evict(const PodInfo& victim, const PodInfo& preemptor, Symbol node) = 0;
  // Clears a pod's status.nominatedNodeName (a lower-priority pod that lost
  // its nomination to a preemptor).
  virtual absl::Status ClearNominatedNodeName(const PodInfo& pod) = 0;
  virtual std::vector<std::shared_ptr<const api::v1::PodDisruptionBudget>> ListPodDisruptionBudgets() const = 0;
};

// Kubernetes-style events (Scheduled, FailedScheduling, Preempted).
class EventRecorder {
 public:
  virtual ~EventRecorder() = default;
  virtual void Event(const PodInfo& regarding, std::string_view type, std::string_view reason,
                     std::string_view action, std::string_view message) = 0;
};

class Handle {
 public:
  virtual ~Handle() = default;

  virtual const Snapshot& snapshot() const = 0;
  virtual Parallelizer& parallelizer() const = 0;
  virtual std::string_view profile_name() const = 0;
  virtual MetricsRecorder& metrics() const = 0;
  // nullptr when the framework runs without a scheduler (tests, tools).
  virtual PodNominator* nominator() const = 0;
  virtual ClusterClient* client() const = 0;
  virtual EventRecorder* events() const = 0;

  // Waiting pods (Permit). `fn` must not call back into these methods.
  virtual void IterateOverWaitingPods(const std::function<void(WaitingPod&)>& fn) = 0;
  virtual bool HasWaitingPod(std::string_view uid) const = 0;
  virtual bool AllowWaitingPod(std::string_view uid, Symbol plugin) = 0;
  // Rejects with plugin "" and message "removed"; false if not waiting.
  virtual bool RejectWaitingPod(std::string_view uid, std::string message = "removed") = 0;

  // Runs this profile's plugins, as upstream's PluginsRunner, for plugins
  // that simulate (preemption). All are safe to call concurrently on
  // distinct states and NodeInfos.
  virtual Status RunFilterPlugins(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const = 0;
  virtual Status RunFilterPluginsWithNominatedPods(const CycleState& state, const PodInfo& pod,
                                                   const NodeInfo& node) const = 0;
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

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_HANDLE_H_
