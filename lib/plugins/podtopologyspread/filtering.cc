// PodTopologySpread's filter half: PreFilter counts matching pods per
// topology domain for the pod's DoNotSchedule constraints; Filter compares a
// node's domain with the global minimum; AddPod/RemovePod adjust the counts.
#include <algorithm>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "plugins/podtopologyspread/common.h"
#include "plugins/podtopologyspread/domain_counts.h"
#include "plugins/podtopologyspread/pod_topology_spread.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::Status;
using podtopologyspread_internal::CountPodsMatchSelectors;
using podtopologyspread_internal::NodeHasAllTopologyKeys;
using podtopologyspread_internal::NodeInclusion;
using podtopologyspread_internal::TopologyValue;

Symbol ReasonConstraintsNotMatch() {
  static const Symbol kReason = Symbol::Intern("node(s) didn't match pod topology spread constraints");
  return kReason;
}

Symbol ReasonNodeLabelNotMatch() {
  static const Symbol kReason =
      Symbol::Intern("node(s) didn't match pod topology spread constraints (missing required label)");
  return kReason;
}

Status StateNotFound(Symbol key) {
  return Status::Error(schedkit::StrCat("reading \"", key.str(), "\" from cycleState: not found"));
}

// Filter's outcome for a node; `within(i, value)` answers
// whether constraint i's topology value keeps the skew within maxSkew.
template <typename Within>
Status NodeOutcome(const std::vector<PodTopologySpread::Constraint>& constraints, const framework::NodeInfo& node,
                   Within&& within) {
  for (size_t i = 0; i < constraints.size(); ++i) {
    const Symbol* value = TopologyValue(node, constraints[i]);
    if (!value) return Status(Code::kUnschedulableAndUnresolvable, ReasonNodeLabelNotMatch());
    if (!within(i, *value)) return Status(Code::kUnschedulable, ReasonConstraintsNotMatch());
  }
  return {};
}

}  // namespace

void PodTopologySpread::CriticalPaths::Update(Symbol topology_value, int64_t match_num) {
  // An existing entry takes the new count and the pair is kept ordered;
  // otherwise the value may displace one whose count is larger. Values are
  // compared as upstream compares strings, so "" also matches an unset entry.
  int i = -1;
  if (topology_value == paths[0].topology_value) {
    i = 0;
  } else if (topology_value == paths[1].topology_value) {
    i = 1;
  }
  if (i >= 0) {
    paths[i].match_num = match_num;
    if (paths[0].match_num > paths[1].match_num) std::swap(paths[0], paths[1]);
    return;
  }
  if (match_num < paths[0].match_num) {
    paths[1] = paths[0];
    paths[0] = CriticalPath{topology_value, match_num};
  } else if (match_num < paths[1].match_num) {
    paths[1] = CriticalPath{topology_value, match_num};
  }
}

std::unique_ptr<framework::StateData> PodTopologySpread::PreFilterState::Clone() const {
  return std::make_unique<PreFilterState>(*this);
}

int64_t PodTopologySpread::PreFilterState::MinMatchNum(size_t i) const {
  // Fewer eligible domains than minDomains: the global minimum counts as 0.
  if (tp_value_to_match_num[i].size() <
      static_cast<size_t>(std::max<int32_t>((*constraints)[i].min_domains, 0))) {
    return 0;
  }
  return critical_paths[i].paths[0].match_num;
}

bool PodTopologySpread::PreFilterState::WithinMaxSkew(size_t i, Symbol value) const {
  // existing matches + self match - global minimum must not exceed maxSkew.
  const Constraint& c = (*constraints)[i];
  const auto& match_nums = tp_value_to_match_num[i];
  const auto it = match_nums.find(value);
  const int64_t match_num = it == match_nums.end() ? 0 : it->second;
  return match_num + (c.pod_matches ? 1 : 0) - MinMatchNum(i) <= c.max_skew;
}

PodTopologySpread::Result PodTopologySpread::PreFilter(framework::CycleState& state,
                                                       const framework::PodInfo& pod,
                                                       std::span<const framework::NodeInfo* const> nodes) {
  auto constraints =
      std::make_shared<const std::vector<Constraint>>(GetConstraints(pod, /*do_not_schedule=*/true));
  if (constraints->empty()) return {{}, Status::Skip()};
  const size_t num_constraints = constraints->size();

  auto s = std::make_unique<PreFilterState>();
  s->constraints = constraints;
  s->tp_value_to_match_num.resize(num_constraints);
  s->critical_paths.resize(num_constraints);

  const framework::Snapshot& snapshot = handle_.snapshot();
  if (nodes.data() == snapshot.nodes().data() && nodes.size() == snapshot.nodes().size() &&
      CanUseDomainCounts(pod, *constraints)) {
    const auto& domains = domain_counts_->Get(snapshot, handle_.parallelizer(), pod.namespace_(),
                                              /*require_all_keys=*/true, *constraints);
    for (size_t i = 0; i < num_constraints; ++i) {
      s->tp_value_to_match_num[i].reserve(domains[i].size());
      for (const auto& d : domains[i]) {
        s->tp_value_to_match_num[i].emplace(d.value, d.count);
        s->critical_paths[i].Update(d.value, d.count);
      }
    }
    state.Write(PreFilterStateKey(), std::move(s));
    return {};
  }

  // Per node and constraint, the matching pods, or -1 where the node does
  // not count for the constraint; filled in parallel, summed in node order.
  std::vector<int64_t> counts(nodes.size() * num_constraints, -1);
  handle_.parallelizer().ForEach(static_cast<int>(nodes.size()), [&](int n) {
    const framework::NodeInfo& node = *nodes[n];
    if (node.node() == nullptr) return;
    NodeInclusion inclusion(pod, node);
    // Without inclusion policies, only nodes passing the pod's node
    // selector and affinity count.
    if (!options_.enable_node_inclusion_policy && !inclusion.AffinityMatches()) return;
    if (!NodeHasAllTopologyKeys(node, *constraints)) return;
    int64_t* node_counts = &counts[n * num_constraints];
    for (size_t i = 0; i < num_constraints; ++i) {
      if (!options_.enable_node_inclusion_policy || inclusion.Includes((*constraints)[i])) node_counts[i] = 0;
    }
    CountPodsMatchSelectors(node.pods(), *constraints, pod.namespace_(), node_counts);
  });

  // Domains in first-seen order, so ties between critical paths resolve the
  // same way on every run (upstream's map order is random).
  std::vector<std::vector<Symbol>> domains(num_constraints);
  for (size_t n = 0; n < nodes.size(); ++n) {
    for (size_t i = 0; i < num_constraints; ++i) {
      const int64_t count = counts[n * num_constraints + i];
      if (count < 0) continue;
      const Symbol value = *TopologyValue(*nodes[n], (*constraints)[i]);
      auto [it, inserted] = s->tp_value_to_match_num[i].try_emplace(value, 0);
      if (inserted) domains[i].push_back(value);
      it->second += count;
    }
  }
  for (size_t i = 0; i < num_constraints; ++i) {
    for (Symbol value : domains[i]) s->critical_paths[i].Update(value, s->tp_value_to_match_num[i][value]);
  }
  state.Write(PreFilterStateKey(), std::move(s));
  return {};
}

Status PodTopologySpread::UpdateWithPod(framework::CycleState& state, const framework::PodInfo& updated_pod,
                                        const framework::PodInfo& preemptor, const framework::NodeInfo& node,
                                        int64_t delta) const {
  PreFilterState* s = state.Mutable<PreFilterState>(PreFilterStateKey());
  if (s == nullptr) return StateNotFound(PreFilterStateKey());
  if (updated_pod.namespace_() != preemptor.namespace_() || node.node() == nullptr) return {};
  const std::vector<Constraint>& constraints = *s->constraints;
  if (!NodeHasAllTopologyKeys(node, constraints)) return {};
  NodeInclusion inclusion(preemptor, node);
  if (!options_.enable_node_inclusion_policy && !inclusion.AffinityMatches()) return {};
  for (size_t i = 0; i < constraints.size(); ++i) {
    const Constraint& c = constraints[i];
    // Unlike PreFilter's count, upstream applies the selector as is here
    // (an empty selector matches) and does not skip terminating pods.
    if (!c.selector.Matches(updated_pod.labels())) continue;
    if (options_.enable_node_inclusion_policy && !inclusion.Includes(c)) continue;
    const Symbol value = *TopologyValue(node, c);
    int64_t& num = s->tp_value_to_match_num[i][value];
    num += delta;
    s->critical_paths[i].Update(value, num);
  }
  return {};
}

Status PodTopologySpread::AddPod(framework::CycleState& state, const framework::PodInfo& pod_to_schedule,
                                 const framework::PodInfo& pod_to_add,
                                 const framework::NodeInfo& node) const {
  return UpdateWithPod(state, pod_to_add, pod_to_schedule, node, 1);
}

Status PodTopologySpread::RemovePod(framework::CycleState& state, const framework::PodInfo& pod_to_schedule,
                                    const framework::PodInfo& pod_to_remove,
                                    const framework::NodeInfo& node) const {
  return UpdateWithPod(state, pod_to_remove, pod_to_schedule, node, -1);
}

Status PodTopologySpread::Filter(const framework::CycleState& state, const framework::PodInfo&,
                                 const framework::NodeInfo& node) const {
  const PreFilterState* s = state.Read<PreFilterState>(PreFilterStateKey());
  if (s == nullptr) return StateNotFound(PreFilterStateKey());
  return NodeOutcome(*s->constraints, node,
                     [s](size_t i, Symbol value) { return s->WithinMaxSkew(i, value); });
}

void PodTopologySpread::FilterNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                                    std::span<const framework::NodeInfo* const> nodes,
                                    std::span<uint8_t> passing, std::span<Status> statuses) const {
  const PreFilterState* s = state.Read<PreFilterState>(PreFilterStateKey());
  if (s == nullptr) return FilterPlugin::FilterNodes(state, pod, nodes, passing, statuses);
  const std::vector<Constraint>& constraints = *s->constraints;
  // Per constraint, the verdicts of the topology values met so far in this
  // run; a short list is searched faster than the counts map is hashed.
  struct Verdict {
    Symbol value;
    bool within;
  };
  constexpr size_t kRemembered = 16;
  absl::InlinedVector<absl::InlinedVector<Verdict, kRemembered>, 2> seen(constraints.size());
  auto within = [&](size_t i, Symbol value) {
    for (const Verdict& v : seen[i]) {
      if (v.value == value) return v.within;
    }
    const bool ok = s->WithinMaxSkew(i, value);
    if (seen[i].size() < kRemembered) seen[i].push_back({value, ok});
    return ok;
  };
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (!passing[n]) continue;
    Status outcome = NodeOutcome(constraints, *nodes[n], within);
    if (outcome.IsSuccess()) continue;
    passing[n] = 0;
    statuses[n] = std::move(outcome);
  }
}

}  // namespace schedkit::plugins
