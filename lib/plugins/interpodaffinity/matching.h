// Internal to InterPodAffinity: matching pods against affinity terms, and the
// chunked parallel walk over nodes that PreFilter and PreScore share.
#ifndef SCHEDKIT_LIB_PLUGINS_INTERPODAFFINITY_MATCHING_H_
#define SCHEDKIT_LIB_PLUGINS_INTERPODAFFINITY_MATCHING_H_

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "schedkit/api/selector.h"
#include "schedkit/base/symbol.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/parallelizer.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/snapshot.h"

namespace schedkit::plugins::interpodaffinity {

// Labels of namespace `ns`, or an empty set when the snapshot does not know
// it (upstream logs and carries on with no labels).
inline const api::LabelSet& NamespaceLabelsOf(const framework::Snapshot& snapshot, Symbol ns) {
  static const api::LabelSet kNoLabels;
  const api::LabelSet* labels = snapshot.NamespaceLabels(ns);
  return labels != nullptr ? *labels : kNoLabels;
}

// Whether a term of the pod being scheduled covers namespace `ns`. Upstream
// first replaces a non-empty namespaceSelector by the namespaces it selects
// among those that exist; asking the snapshot for `ns`'s labels selects the
// same namespaces without listing them.
inline bool IncomingTermSelectsNamespace(const framework::AffinityTerm& term, Symbol ns,
                                         const framework::Snapshot& snapshot) {
  if (term.HasNamespace(ns)) return true;
  const api::LabelSelector& selector = term.namespace_selector;
  if (selector.MatchesNothing()) return false;
  if (selector.IsEverything()) return true;
  const api::LabelSet* labels = snapshot.NamespaceLabels(ns);
  return labels != nullptr && selector.Matches(*labels);
}

// A term of the pod being scheduled against another pod.
inline bool IncomingTermMatches(const framework::AffinityTerm& term, const framework::PodInfo& pod,
                                const framework::Snapshot& snapshot) {
  return IncomingTermSelectsNamespace(term, pod.namespace_(), snapshot) &&
         term.selector.Matches(pod.labels());
}

// Upstream podMatchesAllAffinityTerms: false for no terms.
inline bool MatchesAllIncomingTerms(const std::vector<framework::AffinityTerm>& terms,
                                    const framework::PodInfo& pod, const framework::Snapshot& snapshot) {
  if (terms.empty()) return false;
  for (const framework::AffinityTerm& t : terms) {
    if (!IncomingTermMatches(t, pod, snapshot)) return false;
  }
  return true;
}

// One contribution to a (topology key, value) pair, collected per chunk of
// nodes and summed sequentially afterwards.
struct Hit {
  Symbol key;
  Symbol value;
  int64_t delta = 0;
};

// Runs fn(node, out[chunk]) for every node, chunks of nodes in parallel; each
// chunk owns its output, so no locking and a deterministic merge order.
template <typename Out, typename Fn>
std::vector<Out> ForEachNodeChunk(framework::Parallelizer& parallelizer,
                                  std::span<const framework::NodeInfo* const> nodes, const Fn& fn) {
  constexpr int kNodesPerChunk = 32;
  const int n = static_cast<int>(nodes.size());
  const int chunks = (n + kNodesPerChunk - 1) / kNodesPerChunk;
  std::vector<Out> out(chunks);
  parallelizer.ForEach(chunks, [&](int c) {
    const int end = std::min(n, (c + 1) * kNodesPerChunk);
    for (int i = c * kNodesPerChunk; i < end; ++i) fn(*nodes[i], out[c]);
  });
  return out;
}

}  // namespace schedkit::plugins::interpodaffinity

#endif  // SCHEDKIT_LIB_PLUGINS_INTERPODAFFINITY_MATCHING_H_
