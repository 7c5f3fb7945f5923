// InterPodAffinity's score side: PreScore builds a score per topology pair,
// Score sums the pairs a node is in, NormalizeScore maps [min, max] to
// [0, 100] in float64 as upstream.
#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "framework/affinity_label_keys.h"
#include "plugins/interpodaffinity/inter_pod_affinity.h"
#include "plugins/interpodaffinity/hit_sums.h"
#include "plugins/interpodaffinity/matching.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::plugins {
namespace {

using framework::AffinityTerm;
using framework::CycleState;
using framework::NodeInfo;
using framework::PodInfo;
using framework::Status;
using framework::WeightedAffinityTerm;
using interpodaffinity::Hit;
using interpodaffinity::PreScoreState;
using interpodaffinity::ScoreTable;
using interpodaffinity::TopologyCounts;

const framework::StateKey kPreScoreStateKey = Symbol::Intern("PreScoreInterPodAffinity");

Status StateNotFound() {
  return Status::Error(
      schedkit::StrCat("failed to read \"", kPreScoreStateKey.str(), "\" from cycleState: not found"));
}

// Upstream computes int64(weight * multiplier) with int32 operands.
int64_t Contribution(int32_t weight, int32_t multiplier) {
  return static_cast<int64_t>(
      static_cast<int32_t>(static_cast<uint32_t>(weight) * static_cast<uint32_t>(multiplier)));
}

// Upstream processTerm: a matching term adds its contribution at the node's
// value of the topology key (creating the pair even for a zero sum).
void ProcessTerm(bool matches, const AffinityTerm& term, int32_t weight, int32_t multiplier,
                 const api::LabelSet& node_labels, std::vector<Hit>& out) {
  if (!matches) return;
  if (const Symbol* value = node_labels.Find(term.topology_key)) {
    out.push_back(Hit{term.topology_key, *value, Contribution(weight, multiplier)});
  }
}

}  // namespace

Status InterPodAffinity::PreScore(CycleState& state, const PodInfo& pod,
                                  std::span<const NodeInfo* const> /*nodes*/) {
  const bool has_constraints =
      !pod.preferred_affinity_terms().empty() || !pod.preferred_anti_affinity_terms().empty();
  if (args_.ignore_preferred_terms_of_existing_pods && !has_constraints) return Status::Skip();

  // As upstream, every node of the snapshot counts, not just the feasible
  // ones: a pod elsewhere in a zone still scores the zone. Without terms of
  // its own, the incoming pod can only be scored by pods that have terms.
  const framework::Snapshot& snapshot = handle_.snapshot();
  if (!has_constraints && snapshot.have_pods_with_affinity().empty()) return Status::Skip();
  const api::LabelSet& namespace_labels = interpodaffinity::NamespaceLabelsOf(snapshot, pod.namespace_());
  const int32_t hard_weight = args_.hard_pod_affinity_weight;

  // The incoming pod's preferences about each existing pod, and each
  // existing pod's terms about the incoming pod; kept across cycles per query
  // (hit_sums.h). Nodes without pods with affinity add nothing when the
  // incoming pod has no terms of its own, so walking all nodes is the same.
  const auto& sums = caches_->pre_score.Get(
      snapshot, handle_.parallelizer(),
      {pod.namespace_(), framework::AffinityLabelKeys::Project(pod.labels()), pod.preferred_affinity_terms(),
       pod.preferred_anti_affinity_terms(),
       snapshot.namespaces_id()},
      [&](const NodeInfo& node, std::vector<Hit>& out) {
        const api::LabelSet& labels = node.labels();
        if (labels.empty()) return;
        const auto& existing_pods = has_constraints ? node.pods() : node.pods_with_affinity();
        for (const framework::PodInfoPtr& existing : existing_pods) {
          for (const WeightedAffinityTerm& w : pod.preferred_affinity_terms()) {
            ProcessTerm(interpodaffinity::IncomingTermMatches(w.term, *existing, snapshot), w.term, w.weight,
                        1, labels, out);
          }
          for (const WeightedAffinityTerm& w : pod.preferred_anti_affinity_terms()) {
            ProcessTerm(interpodaffinity::IncomingTermMatches(w.term, *existing, snapshot), w.term, w.weight,
                        -1, labels, out);
          }
          if (hard_weight > 0) {
            for (const AffinityTerm& t : existing->required_affinity_terms()) {
              ProcessTerm(t.Matches(pod, namespace_labels), t, hard_weight, 1, labels, out);
            }
          }
          for (const WeightedAffinityTerm& w : existing->preferred_affinity_terms()) {
            ProcessTerm(w.term.Matches(pod, namespace_labels), w.term, w.weight, 1, labels, out);
          }
          for (const WeightedAffinityTerm& w : existing->preferred_anti_affinity_terms()) {
            ProcessTerm(w.term.Matches(pod, namespace_labels), w.term, w.weight, -1, labels, out);
          }
        }
      }).sums;
  if (sums.empty()) return Status::Skip();

  auto table = std::make_shared<ScoreTable>();
  table->scores.reserve(sums.size());
  for (const auto& [packed, h] : sums) {
    table->scores.emplace(packed, h.sum);
    if (std::find(table->keys.begin(), table->keys.end(), h.key) == table->keys.end()) {
      table->keys.push_back(h.key);
    }
  }

  auto s = std::make_unique<PreScoreState>();
  s->table = std::move(table);
  state.Write(kPreScoreStateKey, std::move(s));
  return Status();
}

Status InterPodAffinity::Score(const CycleState& state, const PodInfo& /*pod*/, const NodeInfo& node,
                               int64_t& score) const {
  const auto* s = state.Read<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr) return StateNotFound();
  const ScoreTable& table = *s->table;
  const api::LabelSet& labels = node.labels();
  int64_t sum = 0;
  for (Symbol key : table.keys) {
    const Symbol* value = labels.Find(key);
    if (!value) continue;
    if (auto it = table.scores.find(TopologyCounts::Pack(key, *value)); it != table.scores.end()) {
      sum += it->second;
    }
  }
  score = sum;
  return Status();
}

Status InterPodAffinity::NormalizeScore(const CycleState& state, const PodInfo& /*pod*/,
                                        std::span<const NodeInfo* const> /*nodes*/,
                                        std::span<int64_t> scores) const {
  const auto* s = state.Read<PreScoreState>(kPreScoreStateKey);
  if (s == nullptr) return StateNotFound();
  if (s->table->scores.empty() || scores.empty()) return Status();

  int64_t min_count = std::numeric_limits<int64_t>::max();
  int64_t max_count = std::numeric_limits<int64_t>::min();
  for (int64_t score : scores) {
    max_count = std::max(max_count, score);
    min_count = std::min(min_count, score);
  }
  const int64_t max_min_diff = max_count - min_count;
  for (int64_t& score : scores) {
    double f = 0;
    if (max_min_diff > 0) {
      f = static_cast<double>(framework::kMaxNodeScore) *
          (static_cast<double>(score - min_count) / static_cast<double>(max_min_diff));
    }
    score = static_cast<int64_t>(f);
  }
  return Status();
}

}  // namespace schedkit::plugins
