// The plugin interfaces: one per extension point of the Kubernetes scheduling
// framework (upstream v1.35 semantics). A plugin implements Plugin plus the
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
#include "schedkit/api/symbol.h"
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
  virtual std::string_view Name() const = 0;
  // Optional, for speed. True promises that this plugin's Filter and Score
  // outcomes on a node, and the PreFilter and PreScore state they read,
  // depend on nothing but the pod's namespace and spec (PodInfo::signature),
  // that node's NodeInfo, the snapshot's node objects and the plugin's args:
  // not on other nodes' pods, the clock, or any state that can change while
  // the node's generation stays the same. The framework then reuses a
  // node's outcomes for the next pod with the same signature while the node
  // is unchanged, instead of calling Filter or Score again.
  virtual bool OutcomesArePerNode() const { return false; }
};

// Called when a pod is about to enter activeQ. Anything but Success keeps it
// out (gated) until an event the plugin registered for arrives. Sequential.
class PreEnqueuePlugin : public virtual Plugin {
 public:
  virtual Status PreEnqueue(const PodInfo& pod) = 0;
};

// Orders activeQ. Exactly one per profile; all profiles share it.
class QueueSortPlugin : public virtual Plugin {
 public:
  // True if `a` should be scheduled before `b`. Called under the queue lock.
  virtual bool Less(const QueuedPodInfo& a, const QueuedPodInfo& b) const = 0;
  // Optional, for speed: a plugin whose order is "lower rank first, then the
  // earlier timestamp", with a rank that depends on the pod alone, returns
  // that rank. The queue then keeps each pod's rank beside its entry and
  // orders by it without calling Less. Must agree with Less.
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
// preemption). Always called on a cloned CycleState and NodeInfo; never for
// plugins that skipped this cycle.
class PreFilterExtensions {
 public:
  virtual ~PreFilterExtensions() = default;
  virtual Status AddPod(CycleState& state, const PodInfo& pod_to_schedule, const PodInfo& pod_to_add,
                        const NodeInfo& node) const = 0;
  virtual Status RemovePod(CycleState& state, const PodInfo& pod_to_schedule, const PodInfo& pod_to_remove,
                           const NodeInfo& node) const = 0;
};

// Once per cycle, before any Filter: compute per-pod state into CycleState.
// Skip: this plugin's Filter is not called. UnschedulableAndUnresolvable:
// the cycle stops, every node gets this status. Unschedulable/Pending: the
// remaining PreFilters still run, then the cycle fails with the first one.
// Other codes are errors. Sequential.
class PreFilterPlugin : public virtual Plugin {
 public:
  struct Result {
    PreFilterResult result;
    Status status;
  };
  virtual Result PreFilter(CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes) = 0;
  // nullptr when the plugin's state does not depend on other pods.
  virtual const PreFilterExtensions* GetPreFilterExtensions() const { return nullptr; }
};

// Whether the pod fits on one node. Concurrently, for many nodes; must not
// mutate the node or the state. A rejection (Unschedulable,
// UnschedulableAndUnresolvable, Pending) makes the node infeasible and stops
// the node's remaining filters; anything else non-Success is an error.
class FilterPlugin : public virtual Plugin {
 public:
  virtual Status Filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const = 0;
  // Filters a run of nodes: for each i with passing[i] set, the outcome of
  // Filter on nodes[i]; where that is not Success, clears passing[i] and
  // stores the Status in statuses[i] (other entries are left alone). What the
  // framework's filter pass calls, on runs of nodes in parallel; the default
  // calls Filter per node. A plugin whose usual outcome is a quick pass
  // overrides it to read its state once per run and call Filter only for
  // the nodes it rejects; the outcomes must equal Filter's.
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

// Called only when no node fit (e.g. preemption). Plugins run in order until
// one returns Success, UnschedulableAndUnresolvable or Error; Unschedulable
// means "could not help". Sequential.
class PostFilterPlugin : public virtual Plugin {
 public:
  struct Result {
    NominatingInfo nominating_info;
    Status status;
  };
  virtual Result PostFilter(CycleState& state, const PodInfo& pod, const NodeToStatus& filtered) = 0;
};

// Once per cycle on the feasible nodes, before Score. Skip: this plugin's
// Score is not called. Other non-Success codes are errors. Sequential.
class PreScorePlugin : public virtual Plugin {
 public:
  virtual Status PreScore(CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes) = 0;
};

// Rewrites one plugin's raw scores in place (same order as `nodes`); the
// result must lie in [kMinNodeScore, kMaxNodeScore]. Called once per cycle,
// concurrently with the other plugins' NormalizeScore (as upstream's).
class ScoreExtensions {
 public:
  virtual ~ScoreExtensions() = default;
  virtual Status NormalizeScore(const CycleState& state, const PodInfo& pod,
                                std::span<const NodeInfo* const> nodes, std::span<int64_t> scores) const = 0;
  // A NormalizeScore that always succeeds and equals the returned
  // normalization's Apply on the column (upstream's DefaultNormalizeScore)
  // says so: the framework may then normalize a node's score from the
  // column's maximum alone, and keep a pod signature's totals across cycles,
  // instead of calling NormalizeScore.
  virtual std::optional<MaximumNormalization> NormalizesByMaximum() const { return std::nullopt; }
};

// Ranks a feasible node. Concurrently, for many nodes. Any non-Success
// status aborts the cycle with an error.
class ScorePlugin : public virtual Plugin {
 public:
  virtual Status Score(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                       int64_t& score) const = 0;
  // Scores nodes[i] into scores[i], writing every entry (the framework does
  // not clear them first); what the framework calls, on runs of nodes in
  // parallel. The default sets each entry to 0, then calls Score per node. A
  // plugin whose per-node work is a few operations overrides it to read its
  // state once and keep the loop tight; the results must equal Score's.
  virtual Status ScoreNodes(const CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                            std::span<int64_t> scores) const;
  virtual const ScoreExtensions* GetScoreExtensions() const { return nullptr; }
};

// Reserve runs after the pod is assumed on `node`, in order, stopping at the
// first failure; Unreserve undoes it, must be idempotent and cannot fail.
// Sequential (Unreserve may run on a binding thread).
class ReservePlugin : public virtual Plugin {
 public:
  virtual Status Reserve(CycleState& state, const PodInfo& pod, Symbol node) = 0;
  virtual void Unreserve(CycleState& state, const PodInfo& pod, Symbol node) = 0;
};

// Success lets the pod proceed to binding; Wait parks it (until Allow,
// Reject or `timeout`, capped at 15 minutes); a rejection fails the cycle.
class PermitPlugin : public virtual Plugin {
 public:
  struct Result {
    Status status;
    absl::Duration timeout = absl::ZeroDuration();
  };
  virtual Result Permit(CycleState& state, const PodInfo& pod, Symbol node) = 0;
};

// Work before binding (e.g. volumes). On the binding thread; a failure
// unreserves and requeues the pod.
class PreBindPlugin : public virtual Plugin {
 public:
  virtual Status PreBind(CycleState& state, const PodInfo& pod, Symbol node) = 0;
};

// Binds the pod. Bind plugins run in order until one does not return Skip.
class BindPlugin : public virtual Plugin {
 public:
  virtual Status Bind(CycleState& state, const PodInfo& pod, Symbol node) = 0;
};

// Informational, after a successful bind.
class PostBindPlugin : public virtual Plugin {
 public:
  virtual void PostBind(CycleState& state, const PodInfo& pod, Symbol node) = 0;
};

// The cluster events that may make a pod this plugin rejected schedulable.
// A PreEnqueue/PreFilter/Filter/Reserve/Permit plugin without this interface
// is requeued by every event.
class EnqueueExtensions : public virtual Plugin {
 public:
  virtual std::vector<ClusterEventWithHint> EventsToRegister() const = 0;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_PLUGIN_H_
