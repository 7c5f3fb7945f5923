// Internal to PodTopologySpread: helpers shared by its filter and score
// halves (upstream common.go). All of them run per node and allocate nothing.
#ifndef SCHEDKIT_LIB_PLUGINS_PODTOPOLOGYSPREAD_COMMON_H_
#define SCHEDKIT_LIB_PLUGINS_PODTOPOLOGYSPREAD_COMMON_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "plugins/podtopologyspread/pod_topology_spread.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/pod_info.h"

namespace schedkit::plugins::podtopologyspread_internal {

using Constraint = PodTopologySpread::Constraint;

// Whether the node carries every constraint's topology key.
inline bool NodeHasAllTopologyKeys(const api::LabelSet& node_labels,
                                   const std::vector<Constraint>& constraints) {
  for (const Constraint& c : constraints) {
    if (!node_labels.Has(c.topology_key)) return false;
  }
  return true;
}

// The node's value of the constraint's topology key, nullptr when unlabelled.
// A zone comes from the node's first line, which the other default filters
// have loaded already.
inline const Symbol* TopologyValue(const framework::NodeInfo& node, const Constraint& c) {
  return c.is_zone ? node.zone_label() : node.labels().Find(c.topology_key);
}

// TopologyValue, with "" for a node without the key, as a Go map lookup reads it.
inline Symbol TopologyValueOrEmpty(const framework::NodeInfo& node, const Constraint& c) {
  const Symbol* value = TopologyValue(node, c);
  return value != nullptr ? *value : Symbol();
}

inline bool NodeHasAllTopologyKeys(const framework::NodeInfo& node, const std::vector<Constraint>& constraints) {
  for (const Constraint& c : constraints) {
    if (TopologyValue(node, c) == nullptr) return false;
  }
  return true;
}

// Pods on the node in namespace `ns`, not terminating, matching the
// constraint's selector (upstream countPodsMatchSelector).
inline int64_t CountPodsMatchSelector(const std::vector<framework::PodInfoPtr>& pods, const Constraint& c,
                                      Symbol ns) {
  if (!c.counts_pods) return 0;
  int64_t count = 0;
  for (const framework::PodInfoPtr& p : pods) {
    if (p->terminating() || p->namespace_() != ns) continue;
    if (c.selector.Matches(p->labels())) ++count;
  }
  return count;
}

// CountPodsMatchSelector for several constraints in one pass over the
// node's pods: adds to counts[i] for every i where counts[i] >= 0 (a
// negative entry marks a constraint the node does not count for).
inline void CountPodsMatchSelectors(const std::vector<framework::PodInfoPtr>& pods,
                                    const std::vector<Constraint>& constraints, Symbol ns, int64_t* counts) {
  const size_t n = constraints.size();
  bool any = false;
  for (size_t i = 0; i < n; ++i) any = any || (counts[i] >= 0 && constraints[i].counts_pods);
  if (!any) return;
  for (const framework::PodInfoPtr& p : pods) {
    if (p->terminating() || p->namespace_() != ns) continue;
    for (size_t i = 0; i < n; ++i) {
      if (counts[i] >= 0 && constraints[i].counts_pods && constraints[i].selector.Matches(p->labels())) {
        ++counts[i];
      }
    }
  }
}

// The node has a NoSchedule or NoExecute taint the pod does not tolerate
// (upstream FindMatchingUntoleratedTaint with DoNotScheduleTaintsFilterFunc).
inline bool HasUntoleratedDoNotScheduleTaint(const framework::PodInfo& pod, const framework::NodeInfo& node) {
  for (const framework::Taint& t : node.taints()) {
    if (t.effect != framework::TaintEffect::kNoSchedule && t.effect != framework::TaintEffect::kNoExecute)
      continue;
    if (!framework::TolerationsTolerate(pod.tolerations(), t)) return true;
  }
  return false;
}

// Upstream matchNodeInclusionPolicies, with each policy's node test computed
// at most once per node however many constraints ask for it.
class NodeInclusion {
 public:
  NodeInclusion(const framework::PodInfo& pod, const framework::NodeInfo& node) : pod_(pod), node_(node) {}

  bool Includes(const Constraint& c) {
    if (c.honor_node_affinity && !AffinityMatches()) return false;
    if (c.honor_node_taints && !TaintsTolerated()) return false;
    return true;
  }

  // The pod's nodeSelector and required node affinity match the node.
  bool AffinityMatches() {
    if (affinity_ < 0) affinity_ = pod_.MatchesNodeSelectorAndAffinity(node_.labels(), node_.name()) ? 1 : 0;
    return affinity_ == 1;
  }

 private:
  bool TaintsTolerated() {
    if (taints_ < 0) taints_ = HasUntoleratedDoNotScheduleTaint(pod_, node_) ? 0 : 1;
    return taints_ == 1;
  }

  const framework::PodInfo& pod_;
  const framework::NodeInfo& node_;
  int8_t affinity_ = -1;  // -1: not computed yet
  int8_t taints_ = -1;
};

}  // namespace schedkit::plugins::podtopologyspread_internal

#endif  // SCHEDKIT_LIB_PLUGINS_PODTOPOLOGYSPREAD_COMMON_H_
