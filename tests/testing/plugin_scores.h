// Test helper: a score plugin's normalized scores for a pod over nodes, as
// the framework would compute them (PreScore, Score per node, NormalizeScore).
#ifndef SCHEDKIT_TESTS_TESTING_PLUGIN_SCORES_H_
#define SCHEDKIT_TESTS_TESTING_PLUGIN_SCORES_H_

#include <catch2/catch.hpp>
#include <cstdint>
#include <span>
#include <vector>

#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/pod_info.h"

namespace schedkit::testing {

// Empty when PreScore skips. `Plugin` implements PreScore, Score and
// NormalizeScore.
template <typename Plugin>
std::vector<int64_t> NormalizedScores(Plugin& plugin, const framework::PodInfo& pod,
                                      std::span<const framework::NodeInfo* const> nodes) {
  framework::CycleState state;
  const framework::Status pre = plugin.PreScore(state, pod, nodes);
  if (pre.IsSkip()) return {};
  REQUIRE(pre.IsSuccess());
  std::vector<int64_t> scores(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) REQUIRE(plugin.Score(state, pod, *nodes[i], scores[i]).IsSuccess());
  REQUIRE(plugin.NormalizeScore(state, pod, nodes, scores).IsSuccess());
  return scores;
}

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTS_TESTING_PLUGIN_SCORES_H_
