#include "schedkit/framework/events.h"
#include "schedkit/framework/plugin.h"

namespace schedkit::framework {

PreFilterResult PreFilterResult::Merge(const PreFilterResult& other) const {
  if (AllNodes()) return other;
  if (other.AllNodes()) return *this;
  PreFilterResult out;
  out.node_names.emplace();
  for (Symbol n : *node_names) {
    if (other.node_names->contains(n)) out.node_names->insert(n);
  }
  return out;
}

void FilterPlugin::FilterNodes(const CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                               std::span<uint8_t> passing, std::span<Status> statuses) const {
  FilterNodesWithQuickPass(state, pod, nodes, passing, statuses, [](const NodeInfo&) { return false; });
}

Status ScorePlugin::ScoreNodes(const CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                               std::span<int64_t> scores) const {
  for (size_t i = 0; i < nodes.size(); ++i) {
    scores[i] = 0;  // for a Score that leaves it unset
    Status s = Score(state, pod, *nodes[i], scores[i]);
    if (!s.IsSuccess()) return s;
  }
  return Status();
}

bool ClusterEvent::Matches(const ClusterEvent& incoming) const {
  if (IsWildcard()) return true;
  const bool resource_matches =
      resource.IsWildcard() || resource == incoming.resource ||
      (resource == EventResource::Pod() &&
       (incoming.resource == EventResource::AssignedPod() || incoming.resource == EventResource::UnscheduledPod() ||
        incoming.resource == EventResource::TargetPod()));
  // An incoming event matches only registrations at least as broad as it: a
  // plain Update (no specific change found) must not wake a plugin that
  // registered only for, say, UpdatePodToleration.
  return resource_matches && (action & incoming.action) != 0 && incoming.action <= action;
}

}  // namespace schedkit::framework
