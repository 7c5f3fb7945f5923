// One pod's scheduling algorithm (upstream's schedulePod in
// schedule_one.go): PreFilter, the nominated node alone first, the filter
// pass over the rotating window of candidates, PreScore and the score pass,
// then the host among the top totals. The fit error it returns carries the
// diagnosis for PostFilter and for upstream's failure message.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/go_format.h"
#include "framework/framework_impl.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/framework/framework.h"
#include "framework/cycle_bookkeeping.h"

namespace schedkit::framework {
namespace {

// Upstream's minFeasibleNodesToFind: below this many nodes every node is
// filtered, and at least this many feasible nodes are looked for.
constexpr int kMinFeasibleNodesToFind = 100;
// Upstream's minFeasibleNodesPercentageToFind: the adaptive percentage never
// goes below it.
constexpr int kMinFeasibleNodesPercentageToFind = 5;
// The adaptive percentage when none is configured: upstream writes it inline
// as 50 - numAllNodes/125, i.e. 50% of a small cluster, one point less per
// 125 nodes.
constexpr int kAdaptivePercentageBase = 50;
constexpr int kNodesPerAdaptivePercentagePoint = 125;

}  // namespace

int NumFeasibleNodesToFind(std::optional<int32_t> profile_percentage, int32_t global_percentage,
                           int num_all_nodes) {
  if (num_all_nodes < kMinFeasibleNodesToFind) return num_all_nodes;
  int32_t percentage = profile_percentage ? *profile_percentage : global_percentage;
  if (percentage == 0) {
    percentage = kAdaptivePercentageBase - num_all_nodes / kNodesPerAdaptivePercentagePoint;
    if (percentage < kMinFeasibleNodesPercentageToFind) percentage = kMinFeasibleNodesPercentageToFind;
  }
  const int num_nodes = static_cast<int>(static_cast<int64_t>(num_all_nodes) * percentage / 100);
  return num_nodes < kMinFeasibleNodesToFind ? kMinFeasibleNodesToFind : num_nodes;
}

ScheduleOutcome Framework::SchedulePod(CycleState& state, const PodInfoPtr& pod_ptr, const Snapshot& snap,
                                       SelectionState& selection, CycleTrace* trace) {
  Impl& im = *impl_;
  const PodInfo& pod = *pod_ptr;
  SetSnapshot(&snap);
  // One look at the nominator per cycle; the filter pass and preemption
  // then read nominations per node without its lock.
  if (impl_->options.nominator != nullptr) framework::CycleBookkeeping::SetNominatedPods(state, impl_->options.nominator->Snapshot());
  ScheduleOutcome out;
  if (snap.NumNodes() == 0) {
    out.status = Status::WithText(Code::kUnschedulableAndUnresolvable, "no nodes available to schedule pods");
    return out;
  }
  auto fit_error = std::make_unique<FitError>();
  fit_error->pod = pod_ptr;
  fit_error->num_all_nodes = snap.NumNodes();
  Diagnosis& diagnosis = fit_error->diagnosis;

  absl::flat_hash_set<Symbol> narrowing;
  PreFilterPlugin::Result pre = RunPreFilterPlugins(state, pod, &narrowing);
  diagnosis.unschedulable_plugins = narrowing;
  if (!pre.status.IsSuccess()) {
    if (!pre.status.IsRejected()) {
      out.status = pre.status;
      return out;
    }
    diagnosis.pre_filter_msg = pre.status.Message();
    if (pre.status.code() == Code::kPending) {
      diagnosis.pending_plugins.insert(pre.status.plugin());
    } else if (!pre.status.plugin().empty()) {
      diagnosis.unschedulable_plugins.insert(pre.status.plugin());
    }
    if (trace != nullptr) {
      for (const NodeInfo* node : snap.nodes()) trace->filter.push_back({node->name(), pre.status});
    }
    diagnosis.node_to_status.SetAbsentNodesStatus(std::move(pre.status));
    out.status = Status(Code::kUnschedulable, std::initializer_list<Symbol>{});
    out.fit_error = std::move(fit_error);
    return out;
  }

  // The memo serves this cycle's passes only (RunScorePlugins called on its
  // own scores without it). A traced cycle runs every plugin, so that what
  // it records was computed in it.
  struct MemoScope {
    OutcomeMemo::Entry*& entry;
    ~MemoScope() { entry = nullptr; }
  } memo_scope{im.cycle_memo};
  if (im.memoizes && trace == nullptr) im.cycle_memo = im.memo.For(pod, snap);

  // Opportunistic batching: the pod's signature, and a node from the
  // ranking an alike pod's cycle kept, tried as a nominated node is.
  const std::string* signature = nullptr;
  Symbol hint;
  if (im.batching) {
    signature = im.SignPod(pod);
    hint = im.GetNodeHint(state, pod, signature, selection.scheduling_cycle);
  }
  const auto store = [&](Symbol chosen, bool ranked) {
    if (im.batching) im.StoreScheduleResults(signature, hint, chosen, ranked, selection.scheduling_cycle);
  };

  // A node nominated by an earlier preemption (else the batch's hint) is
  // tried alone first. As upstream's evaluateNominatedNode, into the cycle's
  // own diagnosis: the plugins that reject the node count among the pod's
  // rejectors (and name themselves in the message for the nodes PreFilter
  // left out), and the node keeps its status unless the pass below filters
  // it again.
  const Symbol nominated = !pod.nominated_node_name().empty() ? pod.nominated_node_name() : hint;
  if (!nominated.empty()) {
    if (const NodeInfo* n = snap.Get(nominated)) {
      im.one_node.assign(1, n);
      std::vector<const NodeInfo*> feasible;
      int processed = 0;
      // Traced too: a rejected nominated node keeps its verdict in the
      // cycle's report unless the pass below filters it again.
      Status s = impl_->FindNodesThatPassFilters(state, pod, im.one_node, 0, diagnosis, feasible, processed, trace);
      if (s.IsSuccess() && !feasible.empty()) {
        out.result = ScheduleResult{n->name(), 1, 1};
        store(n->name(), false);
        return out;
      }
    }
  }

  std::span<const NodeInfo* const> candidates = snap.nodes();
  if (!pre.result.AllNodes()) {
    // Look up the named nodes (names the snapshot lacks are dropped, as
    // upstream does) and keep them in snapshot order for determinism.
    std::vector<int> positions;
    positions.reserve(pre.result.node_names->size());
    for (Symbol name : *pre.result.node_names) {
      if (const int pos = snap.IndexOf(name); pos >= 0) positions.push_back(pos);
    }
    std::sort(positions.begin(), positions.end());
    im.candidates.clear();
    for (int pos : positions) im.candidates.push_back(snap.nodes()[pos]);
    candidates = im.candidates;
    // Upstream formats the set its diagnosis shares: the narrowing plugins
    // and any that rejected the nominated node above.
    const std::string msg = schedkit::StrCat("node(s) didn't satisfy plugin(s) ",
                                             GoStringList(SortedDistinctNames(diagnosis.unschedulable_plugins)));
    diagnosis.node_to_status.SetAbsentNodesStatus(Status::WithText(Code::kUnschedulableAndUnresolvable, msg));
    if (trace != nullptr) {
      for (const NodeInfo* n : snap.nodes()) {
        if (!pre.result.node_names->contains(n->name())) {
          trace->filter.push_back({n->name(), diagnosis.node_to_status.absent_status()});
        }
      }
    }
  }

  const PointTimer filter_timer(impl_->metrics, impl_->noop_metrics.get(), ExtensionPoint::kFilter, impl_->profile_name);
  int processed = 0;
  const int start = candidates.empty() ? 0 : selection.next_start_node_index % static_cast<int>(candidates.size());
  Status fs = impl_->FindNodesThatPassFilters(state, pod, candidates, start, diagnosis, im.feasible, processed, trace);
  filter_timer.Done(fs.code());
  selection.next_start_node_index = (selection.next_start_node_index + processed) % snap.NumNodes();
  if (!fs.IsSuccess()) {
    out.status = fs;
    return out;
  }
  if (im.feasible.empty()) {
    out.status = Status(Code::kUnschedulable, std::initializer_list<Symbol>{});
    out.fit_error = std::move(fit_error);
    return out;
  }
  if (im.feasible.size() == 1) {
    out.result = ScheduleResult{im.feasible[0]->name(),
                                1 + static_cast<int>(diagnosis.node_to_status.size()), 1};
    store(im.feasible[0]->name(), false);
    return out;
  }

  // A signed pod's ranking is kept for the next pod: it needs the raw
  // scores, and the node comes off the ranking's top.
  const bool ranks = im.batching && signature != nullptr;
  if (!HasScorePlugins()) {
    // Every feasible node ties.
    im.totals.assign(im.feasible.size(), 1);
    SummarizeTotals(im.totals, im.totals_chunks);
  } else {
    Status s = RunPreScorePlugins(state, pod, im.feasible);
    im.keep_raw_scores = ranks;
    if (s.IsSuccess()) s = RunScorePlugins(state, pod, im.feasible, im.totals, trace);
    im.keep_raw_scores = false;
    if (!s.IsSuccess()) {
      out.status = s;
      return out;
    }
  }
  const Symbol host = ranks ? im.RankFeasible(im.feasible, im.totals, selection, HasScorePlugins())
                           : SelectHost(im.feasible, im.totals, im.totals_chunks, selection);
  store(host, ranks);
  out.result = ScheduleResult{host, static_cast<int>(im.feasible.size() + diagnosis.node_to_status.size()),
                              static_cast<int>(im.feasible.size())};
  return out;
}

}  // namespace schedkit::framework
