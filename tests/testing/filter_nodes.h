// Test helper: the outcome of a filter plugin's batch call (FilterNodes) for
// one node, so plugin tables check it against Filter node by node.
#ifndef SCHEDKIT_TESTS_TESTING_FILTER_NODES_H_
#define SCHEDKIT_TESTS_TESTING_FILTER_NODES_H_

#include <catch2/catch.hpp>
#include <array>
#include <cstdint>

#include "schedkit/base/symbol.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/status.h"

namespace schedkit::testing {

// FilterNodes over the run {node, node} with the first entry already
// rejected: that entry must be left alone; the second gives the outcome.
inline framework::Status FilterThroughBatch(const framework::FilterPlugin& plugin,
                                            const framework::CycleState& state, const framework::PodInfo& pod,
                                            const framework::NodeInfo& node) {
  static const Symbol kEarlier = Symbol::Intern("rejected by an earlier plugin");
  const framework::Status earlier(framework::Code::kUnschedulable, kEarlier);
  const std::array<const framework::NodeInfo*, 2> nodes = {&node, &node};
  std::array<uint8_t, 2> passing = {0, 1};
  std::array<framework::Status, 2> statuses = {earlier, framework::Status()};
  plugin.FilterNodes(state, pod, nodes, passing, statuses);
  CHECK(passing[0] == 0);
  CHECK(statuses[0] == earlier);
  if (passing[1]) {
    CHECK(statuses[1].IsSuccess());  // untouched
    return framework::Status();
  }
  CHECK(!statuses[1].IsSuccess());
  return statuses[1];
}

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTS_TESTING_FILTER_NODES_H_
