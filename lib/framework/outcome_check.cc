// FrameworkOptions::check_per_node_outcomes: before a pass reuses the
// outcome memo's answers, the per-node plugins are asked again on every node
// the memo answers for, and the first answer that differs is reported. A
// plugin that reads anything beyond the pod's signature and the node (a pod
// label, the clock, other nodes' pods) then shows where it does, instead of
// silently deciding for one pod what it decided for another.
#include <string>

#include "framework/framework_impl.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::framework {
namespace {

std::string Promise(Symbol plugin) {
  return schedkit::StrCat("plugin \"", plugin.str(), "\" promises per-node outcomes (OutcomesArePerNode), but ");
}

std::string Outcome(const Status& s) {
  if (s.IsSuccess()) return "passes";
  return schedkit::StrCat("gives ", CodeName(s.code()), " \"", s.Message(), "\"");
}

}  // namespace

void Framework::Impl::CheckKeptFilterPasses(const CycleState& state, const PodInfo& pod,
                                            std::span<const NodeInfo* const> nodes,
                                            const ActiveFilterChain& chain) const {
  const std::span<const int64_t> generations = snapshot->node_generations();
  for (const NodeInfo* node : nodes) {
    if (!cycle_memo->Passed(snapshot->PositionOf(*node), generations)) continue;
    for (size_t i = 0; i < chain.plugins.size(); ++i) {
      if (!chain.per_node[i]) continue;
      const Status fresh = chain.plugins[i]->Filter(state, pod, *node);
      if (fresh.IsSuccess()) continue;
      options.check_per_node_outcomes(schedkit::StrCat(
          Promise(chain.names[i]), "its Filter of pod ", pod.key(), " on node \"", node->name().str(), "\" ",
          Outcome(fresh), " where it passed a pod of the same signature on the node unchanged"));
      return;
    }
  }
}

void Framework::Impl::CheckKeptScores(const CycleState& state, const PodInfo& pod,
                                      std::span<const NodeInfo* const> nodes, std::span<const size_t> active) const {
  const std::span<const int64_t> generations = snapshot->node_generations();
  for (const NodeInfo* node : nodes) {
    const int32_t position = snapshot->PositionOf(*node);
    if (!cycle_memo->Scored(position, generations)) continue;
    for (size_t a : active) {
      if (!cycle_score_per_node[a]) continue;
      int64_t fresh = 0;
      const Status s = score.plugins[a]->Score(state, pod, *node, fresh);
      const int64_t kept = cycle_memo->Scores(a)[position];
      if (s.IsSuccess() && fresh == kept) continue;
      options.check_per_node_outcomes(schedkit::StrCat(
          Promise(score.names[a]), "its Score of pod ", pod.key(), " on node \"", node->name().str(), "\" ",
          s.IsSuccess() ? schedkit::StrCat("gives ", fresh) : Outcome(s), " where it gave a pod of the same signature ",
          kept, " on the node unchanged"));
      return;
    }
  }
}

}  // namespace schedkit::framework
