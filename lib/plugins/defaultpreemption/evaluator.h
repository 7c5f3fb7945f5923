// Preemption evaluator: the policy-independent half of preemption (upstream
// pkg/scheduler/framework/preemption, v1.37.2). It shortlists the nodes whose
// filters said Unschedulable, dry-runs victim selection on them in parallel,
// picks the best candidate and evicts its victims. A preemption plugin
// supplies the policy through preemption::Interface; DefaultPreemption is the
// in-tree one.
//
//   preemption::Evaluator evaluator("DefaultPreemption", handle, /*policy=*/*this);
//   PostFilterPlugin::Result r = evaluator.Preempt(state, pod, node_statuses);
//   // Success: r.nominating_info names the node whose victims were evicted.
//
// Determinism: the dry runs execute in parallel batches, but the outcome is
// the one of visiting the nodes one at a time from the offset and stopping
// where upstream's cancellation stops with parallelism 1. Candidates, node
// statuses and errors therefore never depend on thread timing. Where upstream
// breaks a tie by Go map order (pickOneNodeForPreemption), the first
// candidate wins: non-violating candidates in dry-run order, then violating.
//
// Victims are evicted synchronously through ClusterClient::Evict, in the
// order and with the outcome of upstream's asynchronous preemption (the
// v1.37 default, SchedulerAsyncPreemption): nominations are cleared first,
// victims already terminating are skipped, and eviction errors do not change
// the PostFilter result.
//
// Thread-safety: Preempt runs from PostFilter, one scheduling cycle at a
// time. IsPodRunningPreemption may be called from any thread (PreEnqueue).
#ifndef SCHEDKIT_LIB_PLUGINS_DEFAULTPREEMPTION_EVALUATOR_H_
#define SCHEDKIT_LIB_PLUGINS_DEFAULTPREEMPTION_EVALUATOR_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "schedkit/api/selector.h"
#include "schedkit/base/symbol.h"
#include "schedkit/api/v1/pod_disruption_budget.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/diagnosis.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/status.h"

namespace schedkit::plugins::preemption {

// The pods to evict from one node (upstream extenderv1.Victims).
struct Victims {
  // Most important first (the order the policy's reprieve produced). A dry
  // run may borrow them from the NodeInfo it read (ScratchSimulation::Borrow):
  // they are valid while that NodeInfo is, which the cycle's snapshot
  // ensures for the preemption attempt. Owning them would cost a reference
  // count per victim of hundreds of candidates, most of them discarded.
  std::vector<framework::PodInfoPtr> pods;
  // How many of `pods` are covered by a PodDisruptionBudget that their
  // eviction would violate.
  int64_t num_pdb_violations = 0;
};

// What DefaultScoreFuncs read of a candidate's victims. The dry run's
// thread gathers it while the victims are in its cache, so that selecting
// among hundreds of candidates loads none of them again.
struct VictimSummary {
  int32_t first_priority = 0;  // pods[0], the most important victim
  // The sum of (priority + 2^31) over the victims.
  int64_t shifted_priority_sum = 0;
  // Among the victims of the highest priority: the earliest start time of
  // those that started (InfiniteFuture if none), and whether one has not.
  absl::Time earliest_started = absl::InfiniteFuture();
  bool unstarted = false;

  // Upstream util.GetEarliestPodStartTime over the victims: the earliest
  // start among those of the highest priority, `now` for one not started.
  absl::Time EarliestStart(absl::Time now) const {
    return unstarted ? std::min(earliest_started, now) : earliest_started;
  }
};
// Of a non-empty victim list.
VictimSummary Summarize(const Victims& victims);

// A node the preemptor fits on once `victims` are gone.
struct Candidate {
  Symbol node;
  Victims victims;
  // Summarize(victims), when the dry run made the candidate.
  std::optional<VictimSummary> summary = std::nullopt;
};

// A PodDisruptionBudget as preemption reads it, compiled once per attempt so
// that the per-node dry runs compare interned ids only.
struct PdbInfo {
  Symbol ns;
  // Upstream skips PDBs whose selector is nil, empty or invalid: they
  // select no pod at all.
  bool selects_nothing = true;
  api::LabelSelector selector;
  int32_t disruptions_allowed = 0;
  // status.disruptedPods: evictions the API server already processed; such
  // pods do not consume the budget again. Names never interned cannot be
  // the name of any known pod, so they are dropped.
  absl::flat_hash_set<Symbol> disrupted_pods;
};

std::vector<PdbInfo> CompilePdbs(const std::vector<std::shared_ptr<const api::v1::PodDisruptionBudget>>& pdbs);

// Upstream filterPodsWithPDBViolation: splits `pods` (order kept) into those
// whose eviction would push a matching PDB below zero allowed disruptions,
// counting the budget down as it goes, and the others.
void SplitByPdbViolation(std::span<const framework::PodInfoPtr> pods, std::span<const PdbInfo> pdbs,
                         std::vector<framework::PodInfoPtr>& violating,
                         std::vector<framework::PodInfoPtr>& non_violating);

// Upstream util.MoreImportantPod: higher priority first, then the earlier
// start time (a pod that has not started counts as starting last).
bool MoreImportantPod(const framework::PodInfo& a, const framework::PodInfo& b);

// Upstream's order of single-pod victims (v1.37 MoreImportantVictim with
// GenericWorkload off): higher priority first, then the earlier start time. A
// pod that has not started reads time.Now() once, when its victim is made,
// and victims are made in the node's pod order: so its time is later than
// every real start time, and later for each such pod further down the list.
// Use with GoSortSlice to get upstream's sort.Slice order (ties included).
class VictimImportance {
 public:
  // `pods`: the candidates in the node's pod order.
  explicit VictimImportance(std::span<const framework::PodInfoPtr> pods);
  bool operator()(const framework::PodInfoPtr& a, const framework::PodInfoPtr& b) const;

 private:
  absl::Time StartTime(const framework::PodInfo& p) const;
  absl::flat_hash_map<const framework::PodInfo*, int64_t> unstarted_rank_;
};

// The policy of a preemption plugin (upstream preemption.Interface).
class Interface {
 public:
  virtual ~Interface() = default;

  // An offset into the potential nodes where the dry runs start (in
  // [0, num_nodes)) and how many candidates they should find. Called once
  // per attempt, sequentially, with num_nodes > 0.
  virtual std::pair<int32_t, int32_t> GetOffsetAndNumCandidates(int32_t num_nodes) = 0;

  // Whether `pod` may preempt at all, and the reason when it may not.
  // `nominated_node_status` is the filter status of the pod's nominated node
  // (the absent-node status when it has none).
  virtual std::pair<bool, std::string> PodEligibleToPreemptOthers(
      const framework::PodInfo& pod, const framework::Status& nominated_node_status) const = 0;

  // The pods to evict from `node` for `pod` to fit there, most important
  // first, into `victims`. Success with at least one victim makes the node a
  // candidate; any other status becomes the node's status in the diagnosis.
  // `state` and `node` belong to the scheduling cycle and must not change:
  // simulate on copies (CycleState::Clone, a NodeInfo copy). Called
  // concurrently for different nodes.
  virtual framework::Status SelectVictimsOnNode(const framework::CycleState& state, const framework::PodInfo& pod,
                                                const framework::NodeInfo& node, std::span<const PdbInfo> pdbs,
                                                Victims& victims) const = 0;

  // SelectVictimsOnNode's status for `node` when it can tell, from figures
  // the node keeps, that there are no victims there; nullopt when a dry run
  // must decide. Called on the scheduling thread, node by node, before the
  // dry runs are handed to threads: a full cluster's unschedulable pods
  // meet mostly such nodes, and a parallel pass over them cost more than
  // the checks.
  virtual std::optional<framework::Status> StatusWithoutDryRun(const framework::PodInfo& pod,
                                                               const framework::NodeInfo& node) const {
    (void)pod;
    (void)node;
    return std::nullopt;
  }

  // Scores for choosing among candidates: applied in order while more than
  // one candidate has the highest score. Empty selects upstream's default
  // criteria. Called once per attempt.
  using ScoreFunc = std::function<int64_t(const Candidate&)>;
  virtual std::vector<ScoreFunc> OrderedScoreFuncs(std::span<const Candidate> candidates) const {
    (void)candidates;
    return {};
  }
};

// The default criteria of pickOneNodeForPreemption, in order: fewest PDB
// violations, lowest highest-priority victim, lowest sum of (priority +
// 2^31), fewest victims, latest start among the highest-priority victims.
std::vector<Interface::ScoreFunc> DefaultScoreFuncs(absl::Time now);

// Index of the candidate the score functions select (the first of the ties
// left after the last function); -1 when `candidates` is empty.
int PickOneCandidate(std::span<const Candidate> candidates, std::span<const Interface::ScoreFunc> score_funcs);

// Upstream utilerrors.NewAggregate(errs).Error(): one message as is, several
// deduplicated, joined with ", " and bracketed.
std::string AggregateErrors(const std::vector<std::string>& errors);

class Evaluator {
 public:
  // `handle` and `policy` must outlive the evaluator.
  Evaluator(std::string_view plugin_name, framework::Handle& handle, Interface& policy);

  // Upstream Evaluator.Preempt. The returned status carries no "preemption: "
  // prefix (the plugin adds it):
  //  - Unschedulable, Noop nominating info: the pod may not preempt.
  //  - Unschedulable, nomination cleared: no node can be made to fit; the
  //    message is the FitError text of the dry runs' statuses.
  //  - Error, Noop: the dry runs failed with errors only, or there are no nodes.
  //  - Success, nomination of the chosen node: its victims were evicted.
  // `num_victims`, when given, receives the number of victims evicted.
  framework::PostFilterPlugin::Result Preempt(framework::CycleState& state, const framework::PodInfo& pod,
                                              const framework::NodeToStatus& node_statuses,
                                              int* num_victims = nullptr);

  struct DryRunResult {
    // Non-violating candidates first, each group in dry-run order.
    std::vector<Candidate> candidates;
    // The status of every evaluated node that is not a candidate.
    framework::NodeToStatus statuses;
    // Messages of the Error statuses, in dry-run order.
    std::vector<std::string> errors;
  };
  // Upstream DryRunPreemption: visits potential_nodes[(offset + i) % n] and
  // stops once it has num_candidates candidates of which at least one does
  // not violate a PDB (each group holds at most num_candidates).
  DryRunResult DryRunPreemption(const framework::CycleState& state, const framework::PodInfo& pod,
                                std::span<const framework::NodeInfo* const> potential_nodes,
                                std::span<const PdbInfo> pdbs, int32_t offset, int32_t num_candidates) const;

  // Upstream SelectCandidate; nullptr when there is none.
  const Candidate* SelectCandidate(std::span<const Candidate> candidates) const;

  // Upstream prepareCandidateAsync, run to completion: clears the
  // nominations of lower-priority pods nominated to the node, then evicts the
  // victims that are not terminating yet (a victim waiting on Permit is
  // rejected instead) and records a "Preempted" event for each. An eviction
  // the host answers with NotFound counts as done. Returns the first error.
  absl::Status PrepareCandidate(const Candidate& candidate, const framework::PodInfo& preemptor);

  // Whether the pod with this UID is evicting its victims right now.
  bool IsPodRunningPreemption(std::string_view uid) const;

 private:
  absl::Status PreemptPod(const Candidate& candidate, const framework::PodInfo& preemptor,
                          const framework::PodInfo& victim);
  void ClearLowerPriorityNominations(const framework::PodInfo& preemptor, Symbol node);

  Symbol plugin_name_;
  framework::Handle& handle_;
  Interface& policy_;
  mutable absl::Mutex mu_;
  absl::flat_hash_set<std::string> preempting_ ABSL_GUARDED_BY(mu_);
};

}  // namespace schedkit::plugins::preemption

#endif  // SCHEDKIT_LIB_PLUGINS_DEFAULTPREEMPTION_EVALUATOR_H_
