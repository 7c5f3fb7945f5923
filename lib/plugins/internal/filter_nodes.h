// FilterNodes for plugins whose usual outcome is a pass that a few reads of
// the NodeInfo decide: those reads run over the whole run, and the full
// Filter (with its Status) only for the nodes they cannot pass.
#ifndef SCHEDKIT_LIB_PLUGINS_INTERNAL_FILTER_NODES_H_
#define SCHEDKIT_LIB_PLUGINS_INTERNAL_FILTER_NODES_H_

#include <cstdint>
#include <span>
#include <utility>

#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/status.h"

namespace schedkit::plugins::internal {

// `passes(node)` must return true only for nodes `plugin.Filter` passes.
template <typename Passes>
void FilterNodesWithQuickPass(const framework::FilterPlugin& plugin, const framework::CycleState& state,
                              const framework::PodInfo& pod, std::span<const framework::NodeInfo* const> nodes,
                              std::span<uint8_t> passing, std::span<framework::Status> statuses, Passes&& passes) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!passing[i] || passes(*nodes[i])) continue;
    framework::Status s = plugin.Filter(state, pod, *nodes[i]);
    if (s.IsSuccess()) continue;
    passing[i] = 0;
    statuses[i] = std::move(s);
  }
}

}  // namespace schedkit::plugins::internal

#endif  // SCHEDKIT_LIB_PLUGINS_INTERNAL_FILTER_NODES_H_
