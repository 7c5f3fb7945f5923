// PodTopologySpread's score half: PreScore counts matching pods per domain
// of the pod's ScheduleAnyway constraints over all nodes; Score sums, per
// constraint, count * ln(domains + 2) + (maxSkew - 1) in float64 and rounds;
// NormalizeScore turns fewer matches into a higher score.
#include <cmath>
#include <limits>
#include <utility>

#include "plugins/podtopologyspread/common.h"
#include "plugins/podtopologyspread/domain_counts.h"
#include "plugins/podtopologyspread/pod_topology_spread.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::plugins {
namespace {

using framework::Status;
using podtopologyspread_internal::CountPodsMatchSelector;
using podtopologyspread_internal::CountPodsMatchSelectors;
using podtopologyspread_internal::NodeHasAllTopologyKeys;
using podtopologyspread_internal::TopologyValue;
using podtopologyspread_internal::TopologyValueOrEmpty;
using podtopologyspread_internal::NodeInclusion;
using podtopologyspread_internal::TopologyNormalizingWeight;

constexpr int64_t kInvalidScore = -1;

// Upstream scoreForCount, same operations in the same order (the build is
// ISO C++, so the compiler does not fuse the multiply-add).
double ScoreForCount(int64_t count, int32_t max_skew, double topology_weight) {
  return static_cast<double>(count) * topology_weight + static_cast<double>(max_skew - 1);
}

}  // namespace

std::unique_ptr<framework::StateData> PodTopologySpread::PreScoreState::Clone() const {
  // Never edited after PreScore, so clones share it.
  return std::make_unique<PreScoreState>(data_);
}

Status PodTopologySpread::PreScore(framework::CycleState& state, const framework::PodInfo& pod,
                                   std::span<const framework::NodeInfo* const> filtered_nodes) {
  const std::span<const framework::NodeInfo* const> all_nodes = handle_.snapshot().nodes();
  if (all_nodes.empty()) return Status::Skip();

  auto data = std::make_shared<PreScoreState::Data>();
  data->constraints = GetConstraints(pod, /*do_not_schedule=*/false);
  if (data->constraints.empty()) return Status::Skip();
  const std::vector<Constraint>& constraints = data->constraints;
  const size_t num_constraints = constraints.size();
  // Only the System defaults let nodes without every key (e.g. no zone
  // label) take part, so that hostname spreading still applies to them.
  const bool require_all_topologies = !pod.spread_constraints().empty() || !system_defaulted_;

  // Domains of the candidate nodes; a missing label is the domain "", as a
  // Go map lookup reads it.
  data->topology_value_to_pod_counts.resize(num_constraints);
  std::vector<int64_t> topology_size(num_constraints, 0);
  for (const framework::NodeInfo* node : filtered_nodes) {
    if (require_all_topologies && !NodeHasAllTopologyKeys(*node, constraints)) {
      data->ignored_nodes.insert(node->name());
      continue;
    }
    for (size_t i = 0; i < num_constraints; ++i) {
      if (constraints[i].is_hostname) continue;  // counted per node in Score
      const Symbol value = TopologyValueOrEmpty(*node, constraints[i]);
      if (data->topology_value_to_pod_counts[i].try_emplace(value, 0).second) ++topology_size[i];
    }
  }
  data->topology_normalizing_weight.resize(num_constraints);
  for (size_t i = 0; i < num_constraints; ++i) {
    int64_t size = topology_size[i];
    if (constraints[i].is_hostname) {
      size = static_cast<int64_t>(filtered_nodes.size()) - static_cast<int64_t>(data->ignored_nodes.size());
    }
    data->topology_normalizing_weight[i] = TopologyNormalizingWeight(size);
  }

  if (CanUseDomainCounts(pod, constraints)) {
    // Every domain's count over all nodes, kept across cycles; the
    // candidate domains take theirs.
    const auto& domains = domain_counts_->Get(handle_.snapshot(), handle_.parallelizer(), pod.namespace_(),
                                              require_all_topologies, constraints);
    for (size_t i = 0; i < num_constraints; ++i) {
      if (constraints[i].is_hostname) continue;
      auto& candidate_counts = data->topology_value_to_pod_counts[i];
      for (const auto& d : domains[i]) {
        if (auto it = candidate_counts.find(d.value); it != candidate_counts.end()) it->second = d.count;
      }
    }
    state.Write(PreScoreStateKey(), std::make_unique<PreScoreState>(std::move(data)));
    return {};
  }

  // Matching pods over all nodes, into the candidate domains only: per node
  // and constraint, the count and the domain it adds to (none for hostname
  // constraints and domains without candidates); summed after the loop.
  std::vector<int64_t> counts(all_nodes.size() * num_constraints, -1);
  std::vector<int64_t*> targets(all_nodes.size() * num_constraints, nullptr);
  handle_.parallelizer().ForEach(static_cast<int>(all_nodes.size()), [&](int n) {
    const framework::NodeInfo& node = *all_nodes[n];
    if (node.node() == nullptr) return;
    NodeInclusion inclusion(pod, node);
    if (!options_.enable_node_inclusion_policy && !inclusion.AffinityMatches()) return;
    if (require_all_topologies && !NodeHasAllTopologyKeys(node, constraints)) return;
    int64_t* node_counts = &counts[n * num_constraints];
    for (size_t i = 0; i < num_constraints; ++i) {
      const Constraint& c = constraints[i];
      if (options_.enable_node_inclusion_policy && !inclusion.Includes(c)) continue;
      auto& domain_counts = data->topology_value_to_pod_counts[i];
      const auto it = domain_counts.find(TopologyValueOrEmpty(node, c));
      if (it == domain_counts.end()) continue;
      targets[n * num_constraints + i] = &it->second;
      node_counts[i] = 0;
    }
    CountPodsMatchSelectors(node.pods(), constraints, pod.namespace_(), node_counts);
  });
  for (size_t k = 0; k < targets.size(); ++k) {
    if (targets[k] != nullptr) *targets[k] += counts[k];
  }

  state.Write(PreScoreStateKey(), std::make_unique<PreScoreState>(std::move(data)));
  return {};
}

Status PodTopologySpread::Score(const framework::CycleState& state, const framework::PodInfo& pod,
                                const framework::NodeInfo& node, int64_t& score) const {
  score = 0;
  const PreScoreState* s = state.Read<PreScoreState>(PreScoreStateKey());
  if (s == nullptr) {
    return Status::Error(
        schedkit::StrCat("error reading \"", PreScoreStateKey().str(), "\" from cycleState: not found"));
  }
  const PreScoreState::Data& d = s->data();
  if (!d.ignored_nodes.empty() && d.ignored_nodes.contains(node.name())) return {};

  double total = 0;
  for (size_t i = 0; i < d.constraints.size(); ++i) {
    const Constraint& c = d.constraints[i];
    const Symbol* value = TopologyValue(node, c);
    if (!value) continue;
    int64_t count = 0;
    if (c.is_hostname) {
      count = CountPodsMatchSelector(node.pods(), c, pod.namespace_());
    } else {
      const auto it = d.topology_value_to_pod_counts[i].find(*value);
      // Upstream dereferences a nil count here (a node PreScore never saw).
      if (it == d.topology_value_to_pod_counts[i].end()) {
        return Status::Error(schedkit::StrCat("PodTopologySpread: node ", node.name().str(),
                                              " was not a candidate in PreScore"));
      }
      count = it->second;
    }
    total += ScoreForCount(count, c.max_skew, d.topology_normalizing_weight[i]);
  }
  // Go's math.Round and std::round both round half away from zero.
  score = static_cast<int64_t>(std::round(total));
  return {};
}

Status PodTopologySpread::NormalizeScore(const framework::CycleState& state, const framework::PodInfo&,
                                         std::span<const framework::NodeInfo* const> nodes,
                                         std::span<int64_t> scores) const {
  const PreScoreState* s = state.Read<PreScoreState>(PreScoreStateKey());
  if (s == nullptr) {
    return Status::Error(
        schedkit::StrCat("error reading \"", PreScoreStateKey().str(), "\" from cycleState: not found"));
  }
  const PreScoreState::Data& d = s->data();
  int64_t min_score = std::numeric_limits<int64_t>::max();
  int64_t max_score = 0;
  for (size_t i = 0; i < scores.size(); ++i) {
    if (!d.ignored_nodes.empty() && d.ignored_nodes.contains(nodes[i]->name())) {
      scores[i] = kInvalidScore;
      continue;
    }
    min_score = std::min(min_score, scores[i]);
    max_score = std::max(max_score, scores[i]);
  }
  for (int64_t& score : scores) {
    if (score == kInvalidScore) {
      score = 0;
    } else if (max_score == 0) {
      score = framework::kMaxNodeScore;
    } else {
      score = framework::kMaxNodeScore * (max_score + min_score - score) / max_score;
    }
  }
  return {};
}

}  // namespace schedkit::plugins
