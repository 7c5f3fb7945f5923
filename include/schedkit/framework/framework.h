// Framework: the runtime for one scheduling profile. It instantiates the
// profile's plugins from a Registry (one instance per plugin, shared across
// its extension points), runs every extension point with upstream v1.37
// semantics, and implements the scheduling algorithm of one cycle —
// PreFilter, Filter fanned out over nodes, PreScore, Score, NormalizeScore,
// weights and host selection — on a oneTBB arena.
//
//   SCHEDKIT_ASSIGN_OR_RETURN(auto fw, Framework::Create(registry, profile, options));
//   CycleState state;
//   ScheduleOutcome out = fw->SchedulePod(state, pod, snapshot, selection);
//   if (out.fit_error) ... RunPostFilterPlugins(state, *pod, out.fit_error->diagnosis.node_to_status);
//
// Hot path: per-node results land by index in buffers the framework keeps
// between cycles; the filter and score loops neither allocate nor lock nor
// compare strings. One scheduling cycle runs at a time per Framework
// (SchedulePod and the Run* calls of a cycle are not reentrant); binding-side
// calls (WaitOnPermit, PreBind, Bind, PostBind, Unreserve) may run on other
// threads concurrently with the next cycle.
#ifndef SCHEDKIT_FRAMEWORK_FRAMEWORK_H_
#define SCHEDKIT_FRAMEWORK_FRAMEWORK_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/framework/clock.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/diagnosis.h"
#include "schedkit/framework/feature_gates.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/metrics.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/profile.h"
#include "schedkit/framework/registry.h"
#include "schedkit/framework/snapshot.h"

namespace schedkit::framework {

struct FrameworkOptions {
  // Threads for filter/score; ignored when `parallelizer` is given (profiles
  // of one scheduler share one).
  int parallelism = 16;
  std::shared_ptr<Parallelizer> parallelizer;
  // The global percentageOfNodesToScore (a profile's own value wins).
  int32_t percentage_of_nodes_to_score = 0;
  // Not owned; defaults: Clock::Real(), a no-op recorder, none.
  Clock* clock = nullptr;
  // How long OpportunisticBatching keeps a ranking (500 ms) is wall time in
  // upstream even where its queue runs on a fake clock, as in a simulation.
  // Not owned; default: `clock`.
  Clock* batch_clock = nullptr;
  MetricsRecorder* metrics = nullptr;
  PodNominator* nominator = nullptr;
  PodActivator* activator = nullptr;
  ClusterClient* client = nullptr;
  // The cluster objects plugins read (Handle::objects); default: none.
  const api::ObjectLister* objects = nullptr;
  EventRecorder* events = nullptr;
  // What plugins share across the profiles of one scheduler
  // (Handle::shared_state); default: a state of this framework's own.
  std::shared_ptr<SharedState> shared_state;
  // Reuse the outcomes of plugins that are per node (Plugin::OutcomesArePerNode)
  // for the next pod with the same signature on unchanged nodes, and, where
  // every score plugin is per node and normalizes by maximum
  // (ScoreExtensions::NormalizesByMaximum), its nodes' total scores. A
  // signature is kept from its second pod on: a pod unlike any recent one
  // runs as if this were off, since storing outcomes nobody reads costs
  // more than it saves. Decisions are the same either way; off is for
  // measuring what it saves.
  bool memoize_per_node_outcomes = true;
  // The feature gates the plugins' args are decoded with
  // (PluginArgs::gates); not owned; default: the reference release's.
  const FeatureGates* feature_gates = nullptr;
  // Checks the promise of the plugins that reuse outcomes
  // (Plugin::OutcomesArePerNode), for tests and the simulator's
  // --check-per-node-outcomes: every Filter pass and raw Score the memo is
  // about to reuse on a node is computed again, and where the two differ
  // this is called with one line naming the plugin, the extension point, the
  // pod, the node and both outcomes. The kept outcome still decides, so a
  // check changes no decision. Called on the cycle's thread, at most once
  // per cycle; costs the calls the memo saves. Ignored with the memo off.
  std::function<void(std::string_view mismatch)> check_per_node_outcomes;
};

// How SelectHost breaks ties among the nodes with the top total score.
enum class TieBreak : uint8_t {
  kRandom,      // uniform over the ties, as upstream
  kLowestName,  // the lowest node name: deterministic, for tests and conformance
};

// State the algorithm carries from one cycle to the next; one per scheduler.
struct SelectionState {
  // Where the next filter pass starts, so successive pods spread the work.
  int next_start_node_index = 0;
  TieBreak tie_break = TieBreak::kRandom;
  std::mt19937_64 rng{0x5eed};
  // Upstream's scheduling cycle: the number of pods popped from the queue
  // so far, this one included. Opportunistic batching reuses a ranking only
  // for the cycle right after the one that kept it.
  int64_t scheduling_cycle = 0;
};

// What a cycle saw, for explanations (schedkit-sim --explain); recording it
// costs allocations, so it is only filled when requested.
struct CycleTrace {
  struct FilterEntry {
    Symbol node;
    Status status;  // Success, or the first failing plugin's rejection
  };
  struct PluginScore {
    Symbol plugin;
    int64_t raw = 0;
    int64_t normalized = 0;
    int32_t weight = 0;
  };
  struct NodeScore {
    Symbol node;
    std::vector<PluginScore> plugins;
    int64_t total = 0;
  };
  std::vector<FilterEntry> filter;  // every node evaluated (or rejected in PreFilter)
  std::vector<NodeScore> scores;    // every feasible node, when scoring ran
};

struct ScheduleResult {
  Symbol suggested_host;
  int evaluated_nodes = 0;
  int feasible_nodes = 0;
};

struct [[nodiscard]] ScheduleOutcome {
  // Success (a host was chosen), Unschedulable/UnschedulableAndUnresolvable
  // (no node fits: see fit_error), or Error.
  Status status;
  ScheduleResult result;
  std::unique_ptr<FitError> fit_error;
};

// How many feasible nodes to look for (upstream numFeasibleNodesToFind).
int NumFeasibleNodesToFind(std::optional<int32_t> profile_percentage, int32_t global_percentage,
                           int num_all_nodes);

class Framework final : public Handle, public PluginRunner, public WaitingPods {
 public:
  static absl::StatusOr<std::unique_ptr<Framework>> Create(const Registry& registry, const Profile& profile,
                                                           FrameworkOptions options = {});
  ~Framework() override;

  // --- what the profile runs (after multiPoint expansion), for inspection ---
  std::vector<std::string> PluginNames(ExtensionPoint point) const;
  // The score weight of a Score plugin; 0 if it is not one.
  int32_t ScoreWeight(std::string_view plugin) const;
  bool HasFilterPlugins() const;
  bool HasScorePlugins() const;
  bool HasPostFilterPlugins() const;
  // Whether the profile batches pods (the OpportunisticBatching gate is on
  // and every PreFilter, Filter, PreScore and Score plugin is a SignPlugin),
  // and how many pods so far were placed on the node a kept ranking hinted
  // (upstream's TotalBatchedPods).
  bool Batches() const;
  int64_t batched_pods() const;
  // The pod's batch signature (upstream's SignPod): none when the profile
  // does not batch or a plugin declines. Equal signatures mean the pods fare
  // alike on every node. The scheduling thread.
  std::optional<std::string> SignPod(const PodInfo& pod);
  const QueueSortPlugin& queue_sort() const;
  // Each PreEnqueue/PreFilter/Filter/Reserve/Permit plugin with the events it
  // registered (a plugin without EnqueueExtensions gets the wildcard event).
  struct PluginEvents {
    Symbol plugin;
    std::vector<ClusterEventWithHint> events;
  };
  const std::vector<PluginEvents>& enqueue_events() const;
  Plugin* GetPlugin(std::string_view name) const;

  // The nominator consulted by the two-pass filter, and the activator
  // plugins reach (the scheduling queue, which is built after the
  // frameworks whose QueueSort it uses).
  void SetPodNominator(PodNominator* nominator);
  void SetPodActivator(PodActivator* activator);

  // The snapshot plugins see through snapshot(); set before each cycle.
  void SetSnapshot(const Snapshot* snapshot);

  // --- extension points ---
  Status RunPreEnqueuePlugins(const PodInfo& pod);
  // `plugins_with_nodes` receives the plugins whose PreFilterResult narrowed
  // the nodes (may be null).
  PreFilterPlugin::Result RunPreFilterPlugins(CycleState& state, const PodInfo& pod,
                                              absl::flat_hash_set<Symbol>* plugins_with_nodes = nullptr);
  PostFilterPlugin::Result RunPostFilterPlugins(CycleState& state, const PodInfo& pod, const NodeToStatus& statuses);
  Status RunPreScorePlugins(CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes);
  // Total weighted score per node into `totals` (same order as `nodes`).
  Status RunScorePlugins(const CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                         std::vector<int64_t>& totals, CycleTrace* trace = nullptr);
  Status RunReservePluginsReserve(CycleState& state, const PodInfo& pod, Symbol node);
  void RunReservePluginsUnreserve(CycleState& state, const PodInfo& pod, Symbol node);
  // Success, Wait (the pod now waits; call WaitOnPermit), a rejection or an error.
  Status RunPermitPlugins(CycleState& state, const PodInfoPtr& pod, Symbol node);
  // Blocks until a waiting pod is allowed or rejected; Success if it was not waiting.
  Status WaitOnPermit(const PodInfo& pod);
  // Success when some PreBind plugin will have work for `node`, Skip when
  // none will (or there are none), an Error when one fails.
  Status RunPreBindPreFlights(const CycleState& state, const PodInfo& pod, Symbol node) const;
  Status RunPreBindPlugins(CycleState& state, const PodInfo& pod, Symbol node);
  Status RunBindPlugins(CycleState& state, const PodInfo& pod, Symbol node);
  void RunPostBindPlugins(CycleState& state, const PodInfo& pod, Symbol node);

  // --- the scheduling algorithm of one cycle (upstream's schedulePod) ---
  ScheduleOutcome SchedulePod(CycleState& state, const PodInfoPtr& pod, const Snapshot& snapshot,
                              SelectionState& selection, CycleTrace* trace = nullptr);

  // --- Handle ---
  const Snapshot& snapshot() const override;
  Parallelizer& parallelizer() const override;
  std::string_view profile_name() const override;
  MetricsRecorder& metrics() const override;
  const api::ObjectLister& objects() const override;
  PodNominator* nominator() const override;
  PodActivator* activator() const override;
  ClusterClient* client() const override;
  EventRecorder* events() const override;
  WaitingPods& waiting_pods() const override { return const_cast<Framework&>(*this); }
  const PluginRunner& plugin_runner() const override { return *this; }
  bool RunsFilter(std::string_view plugin) const override;
  SharedState* shared_state() const override;
  // --- WaitingPods ---
  void IterateOverWaitingPods(const std::function<void(WaitingPod&)>& fn) override;
  bool HasWaitingPod(std::string_view uid) const override;
  bool AllowWaitingPod(std::string_view uid, Symbol plugin) override;
  bool RejectWaitingPod(std::string_view uid, std::string message = "removed") override;
  // --- PluginRunner ---
  Status RunFilterPlugins(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const override;
  Status RunFilterPluginsWithNominatedPods(const CycleState& state, const PodInfo& pod,
                                           const NodeInfo& node) const override;
  Status RunPreFilterExtensionAddPod(CycleState& state, const PodInfo& pod, const PodInfo& to_add,
                                     const NodeInfo& node) const override;
  Status RunPreFilterExtensionRemovePod(CycleState& state, const PodInfo& pod, const PodInfo& to_remove,
                                        const NodeInfo& node) const override;
  bool HasActivePreFilterExtensions(const CycleState& state) const override;
  std::optional<uint64_t> PerNodeFilterChain(const CycleState& state) const override;

 // Everything the framework keeps and its helpers (lib/framework/
  // framework_impl.h): the profile's plugins, the options, the cycle's
  // scratch, the outcome memo. Named here for that file alone.
  struct Impl;

 private:
  explicit Framework(FrameworkOptions options);
  std::unique_ptr<Impl> impl_;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_FRAMEWORK_H_
