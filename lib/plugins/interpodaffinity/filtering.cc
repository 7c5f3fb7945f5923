// InterPodAffinity's filter side: PreFilter counts, the PreFilter extensions
// and Filter.
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "framework/affinity_label_keys.h"
#include "plugins/interpodaffinity/inter_pod_affinity.h"
#include "plugins/interpodaffinity/hit_sums.h"
#include "plugins/interpodaffinity/matching.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::plugins {
namespace {

using framework::AffinityTerm;
using framework::Code;
using framework::CycleState;
using framework::NodeInfo;
using framework::PodInfo;
using framework::Status;
using interpodaffinity::Hit;
using interpodaffinity::PreFilterState;
using interpodaffinity::TopologyCounts;

const framework::StateKey kPreFilterStateKey = Symbol::Intern("PreFilterInterPodAffinity");

const Symbol kReasonExistingAntiAffinityRulesNotMatch =
    Symbol::Intern("node(s) didn't satisfy existing pods anti-affinity rules");
const Symbol kReasonAffinityRulesNotMatch = Symbol::Intern("node(s) didn't match pod affinity rules");
const Symbol kReasonAntiAffinityRulesNotMatch =
    Symbol::Intern("node(s) didn't match pod anti-affinity rules");

Status StateNotFound() {
  return Status::Error(
      schedkit::StrCat("error reading \"", kPreFilterStateKey.str(), "\" from cycleState: not found"));
}

// Appends a hit at the node's value of `key`, if the node has that label.
void AppendAt(const api::LabelSet& node_labels, Symbol key, std::vector<Hit>& out) {
  if (const Symbol* value = node_labels.Find(key)) out.push_back(Hit{key, *value, 1});
}

// Upstream satisfyPodAffinity.
bool SatisfiesPodAffinity(const PreFilterState& s, const PodInfo& pod, const api::LabelSet& node_labels) {
  bool pods_exist = true;
  for (const AffinityTerm& term : pod.required_affinity_terms()) {
    const Symbol* value = node_labels.Find(term.topology_key);
    if (!value) return false;  // every topology key must be on the node
    if (s.affinity.Get(term.topology_key, *value) <= 0) pods_exist = false;
  }
  if (pods_exist) return true;
  // No pod anywhere matches yet: the pod may still go where all the topology
  // keys exist, if it would match its own terms.
  return s.affinity.empty() && s.matches_own_affinity;
}

// Upstream satisfyPodAntiAffinity.
bool SatisfiesPodAntiAffinity(const PreFilterState& s, const PodInfo& pod, const api::LabelSet& node_labels) {
  if (s.anti_affinity.empty()) return true;
  for (const AffinityTerm& term : pod.required_anti_affinity_terms()) {
    const Symbol* value = node_labels.Find(term.topology_key);
    if (value && s.anti_affinity.Get(term.topology_key, *value) > 0) return false;
  }
  return true;
}

// Upstream satisfyExistingPodsAntiAffinity, which walks every node label; only
// labels whose key has an entry can hit, so probing those keys is the same.
bool SatisfiesExistingPodsAntiAffinity(const PreFilterState& s, const api::LabelSet& node_labels) {
  if (s.existing_anti_affinity.empty()) return true;
  for (Symbol key : s.existing_anti_affinity.keys()) {
    const Symbol* value = node_labels.Find(key);
    if (value && s.existing_anti_affinity.Get(key, *value) > 0) return false;
  }
  return true;
}

// Filter's outcome on a node with these labels.
Status NodeOutcome(const PreFilterState& s, const PodInfo& pod, const api::LabelSet& labels) {
  if (!SatisfiesPodAffinity(s, pod, labels)) {
    return Status(Code::kUnschedulableAndUnresolvable, kReasonAffinityRulesNotMatch);
  }
  if (!SatisfiesPodAntiAffinity(s, pod, labels)) {
    return Status(Code::kUnschedulable, kReasonAntiAffinityRulesNotMatch);
  }
  if (!SatisfiesExistingPodsAntiAffinity(s, labels)) {
    return Status(Code::kUnschedulable, kReasonExistingAntiAffinityRulesNotMatch);
  }
  return Status();
}

}  // namespace

namespace {

// What one node adds to the existing pods' anti-affinity counts: a hit per
// required anti-affinity term of a pod there that selects the incoming pod.
void ExistingAntiAffinityHits(const PodInfo& pod, const api::LabelSet& namespace_labels, const NodeInfo& node,
                              std::vector<Hit>& out) {
  for (const framework::PodInfoPtr& existing : node.pods_with_required_anti_affinity()) {
    for (const AffinityTerm& term : existing->required_anti_affinity_terms()) {
      if (term.Matches(pod, namespace_labels)) AppendAt(node.labels(), term.topology_key, out);
    }
  }
}

// What one node adds to the incoming pod's affinity counts (a hit per term
// for each pod there matching all terms) or anti-affinity counts (a hit per
// term a pod there matches).
void IncomingTermsHits(const std::vector<AffinityTerm>& terms, bool affinity, const framework::Snapshot& snapshot,
                       const NodeInfo& node, std::vector<Hit>& out) {
  for (const framework::PodInfoPtr& existing : node.pods()) {
    if (affinity) {
      if (interpodaffinity::MatchesAllIncomingTerms(terms, *existing, snapshot)) {
        for (const AffinityTerm& t : terms) AppendAt(node.labels(), t.topology_key, out);
      }
      continue;
    }
    for (const AffinityTerm& t : terms) {
      if (interpodaffinity::IncomingTermMatches(t, *existing, snapshot)) AppendAt(node.labels(), t.topology_key, out);
    }
  }
}

}  // namespace

std::pair<TopologyCounts, TopologyCounts> InterPodAffinity::IncomingAffinityCounts(
    const PodInfo& pod, std::span<const NodeInfo* const> nodes) const {
  std::pair<TopologyCounts, TopologyCounts> result;
  const auto& affinity_terms = pod.required_affinity_terms();
  const auto& anti_terms = pod.required_anti_affinity_terms();
  if (affinity_terms.empty() && anti_terms.empty()) return result;

  const framework::Snapshot& snapshot = handle_.snapshot();
  struct Hits {
    std::vector<Hit> affinity, anti_affinity;
  };
  auto chunks = interpodaffinity::ForEachNodeChunk<Hits>(
      handle_.parallelizer(), nodes, [&](const NodeInfo& node, Hits& out) {
        IncomingTermsHits(affinity_terms, /*affinity=*/true, snapshot, node, out.affinity);
        IncomingTermsHits(anti_terms, /*affinity=*/false, snapshot, node, out.anti_affinity);
      });
  for (const Hits& chunk : chunks) {
    for (const Hit& h : chunk.affinity) result.first.Add(h.key, h.value, h.delta);
    for (const Hit& h : chunk.anti_affinity) result.second.Add(h.key, h.value, h.delta);
  }
  return result;
}

framework::PreFilterPlugin::Result InterPodAffinity::PreFilter(CycleState& state, const PodInfo& pod,
                                                               std::span<const NodeInfo* const> nodes) {
  const framework::Snapshot& snapshot = handle_.snapshot();
  auto s = std::make_unique<PreFilterState>();
  s->namespace_labels = interpodaffinity::NamespaceLabelsOf(snapshot, pod.namespace_());

  // Both counts are kept across cycles per query (hit_sums.h) when they
  // cover the whole snapshot, which is what the framework passes.
  const api::LabelSet& namespace_labels = s->namespace_labels;
  if (!snapshot.have_pods_with_required_anti_affinity().empty()) {
    s->existing_anti_affinity =
        caches_->existing_anti_affinity
            .Get(snapshot, handle_.parallelizer(),
                 {pod.namespace_(), framework::AffinityLabelKeys::Project(pod.labels()), snapshot.namespaces_id()},
                 [&](const NodeInfo& node, std::vector<Hit>& out) {
                   ExistingAntiAffinityHits(pod, namespace_labels, node, out);
                 })
            .counts;
  }
  if (nodes.data() == snapshot.nodes().data() && nodes.size() == snapshot.nodes().size()) {
    auto incoming = [&](const std::vector<AffinityTerm>& terms, bool affinity) {
      if (terms.empty()) return TopologyCounts();
      return caches_->incoming
          .Get(snapshot, handle_.parallelizer(), {affinity, terms, snapshot.namespaces_id()},
               [&](const NodeInfo& node, std::vector<Hit>& out) {
                 IncomingTermsHits(terms, affinity, snapshot, node, out);
               })
          .counts;
    };
    s->affinity = incoming(pod.required_affinity_terms(), /*affinity=*/true);
    s->anti_affinity = incoming(pod.required_anti_affinity_terms(), /*affinity=*/false);
  } else {
    std::tie(s->affinity, s->anti_affinity) = IncomingAffinityCounts(pod, nodes);
  }

  if (s->existing_anti_affinity.empty() && pod.required_affinity_terms().empty() &&
      pod.required_anti_affinity_terms().empty()) {
    return {{}, Status::Skip()};
  }
  s->matches_own_affinity =
      interpodaffinity::MatchesAllIncomingTerms(pod.required_affinity_terms(), pod, snapshot);
  state.Write(kPreFilterStateKey, std::move(s));
  return {};
}

void InterPodAffinity::UpdateWithPod(PreFilterState& s, const PodInfo& pod_to_schedule, const PodInfo& pod,
                                     const NodeInfo& node, int64_t multiplier) const {
  const api::LabelSet& node_labels = node.labels();
  const framework::Snapshot& snapshot = handle_.snapshot();
  auto update_at = [&](TopologyCounts& counts, Symbol key) {
    if (const Symbol* value = node_labels.Find(key)) counts.Update(key, *value, multiplier);
  };
  for (const AffinityTerm& t : pod.required_anti_affinity_terms()) {
    if (t.Matches(pod_to_schedule, s.namespace_labels)) update_at(s.existing_anti_affinity, t.topology_key);
  }
  const auto& affinity_terms = pod_to_schedule.required_affinity_terms();
  if (interpodaffinity::MatchesAllIncomingTerms(affinity_terms, pod, snapshot)) {
    for (const AffinityTerm& t : affinity_terms) update_at(s.affinity, t.topology_key);
  }
  for (const AffinityTerm& t : pod_to_schedule.required_anti_affinity_terms()) {
    if (interpodaffinity::IncomingTermMatches(t, pod, snapshot)) update_at(s.anti_affinity, t.topology_key);
  }
}

Status InterPodAffinity::AddPod(CycleState& state, const PodInfo& pod_to_schedule, const PodInfo& pod_to_add,
                                const NodeInfo& node) const {
  auto* s = state.Mutable<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) return StateNotFound();
  UpdateWithPod(*s, pod_to_schedule, pod_to_add, node, 1);
  return Status();
}

Status InterPodAffinity::RemovePod(CycleState& state, const PodInfo& pod_to_schedule,
                                   const PodInfo& pod_to_remove, const NodeInfo& node) const {
  auto* s = state.Mutable<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) return StateNotFound();
  UpdateWithPod(*s, pod_to_schedule, pod_to_remove, node, -1);
  return Status();
}

Status InterPodAffinity::Filter(const CycleState& state, const PodInfo& pod, const NodeInfo& node) const {
  const auto* s = state.Read<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) return StateNotFound();
  return NodeOutcome(*s, pod, node.labels());
}

void InterPodAffinity::FilterNodes(const CycleState& state, const PodInfo& pod,
                                   std::span<const NodeInfo* const> nodes, std::span<uint8_t> passing,
                                   std::span<Status> statuses) const {
  const auto* s = state.Read<PreFilterState>(kPreFilterStateKey);
  if (s == nullptr) return FilterPlugin::FilterNodes(state, pod, nodes, passing, statuses);
  for (size_t n = 0; n < nodes.size(); ++n) {
    if (!passing[n]) continue;
    Status outcome = NodeOutcome(*s, pod, nodes[n]->labels());
    if (outcome.IsSuccess()) continue;
    passing[n] = 0;
    statuses[n] = std::move(outcome);
  }
}

}  // namespace schedkit::plugins
