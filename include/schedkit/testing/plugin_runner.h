// Runs one plugin's extension points as the framework calls them, for table
// tests of a plugin alone, as upstream's plugin tests call a plugin's methods
// directly:
//
//   std::vector<framework::NodeInfo> nodes = {MakeNode().Name("a").Label("disktype", "ssd").Info(), ...};
//   testing::FilterRun run = testing::Must(testing::RunFilter(*plugin, *MakePod().Obj().Info(), nodes));
//   CHECK(run.filter[1].code() == framework::Code::kUnschedulable);
//
// RunFilter also runs the plugin's FilterNodes — the batch call the
// framework's filter pass makes, which a plugin may override for speed — on
// the same nodes, and fails when it disagrees with Filter on any node.
// CheckOutcomesArePerNode holds a plugin to its OutcomesArePerNode promise.
// Thread: the calling thread; the plugin runs as on one scheduling thread.
#ifndef SCHEDKIT_TESTING_PLUGIN_RUNNER_H_
#define SCHEDKIT_TESTING_PLUGIN_RUNNER_H_

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/status.h"

namespace schedkit::testing {

struct FilterRun {
  // The plugin's PreFilter status (Success when it has no PreFilter) and
  // its restriction of the nodes.
  framework::Status pre_filter;
  framework::PreFilterResult pre_filter_result;
  // Filter's outcome per node, in the order given; empty when PreFilter
  // skipped or rejected (then Filter does not run, as in a cycle). Nodes a
  // PreFilter restriction leaves out are filtered all the same, so that the
  // table shows what Filter would say.
  std::vector<framework::Status> filter;
  // The CycleState after the run, for a later PreBind or Score.
  std::unique_ptr<framework::CycleState> state;
};

// PreFilter (when `plugin` has one), then Filter on every node and
// FilterNodes over them all. InvalidArgument when `plugin` is no
// FilterPlugin; Internal, naming the node, when FilterNodes disagrees with
// Filter.
absl::StatusOr<FilterRun> RunFilter(framework::Plugin& plugin, const framework::PodInfo& pod,
                                    std::span<const framework::NodeInfo> nodes);

// PreScore (when `plugin` has one), Score on every node and NormalizeScore
// (when it has one): the scores the framework would weigh, in node order.
// Empty when PreScore skips; an error status of any step is returned.
absl::StatusOr<std::vector<int64_t>> RunScore(framework::Plugin& plugin, const framework::PodInfo& pod,
                                              std::span<const framework::NodeInfo> nodes);

// Checks the promise of Plugin::OutcomesArePerNode on a table, as the
// framework's memo would rely on it: pods of one signature (same namespace
// and spec, PodInfo::signature) get the same Filter outcome and the same raw
// Score on each node. Every pod runs PreFilter and Filter (a FilterPlugin)
// and PreScore and Score (a ScorePlugin) on every node; each outcome is
// compared with the first pod of its signature's on that node. OK when all
// agree; FailedPrecondition with one line naming the plugin, the extension
// point, both pods, the node and both outcomes at the first that differs;
// InvalidArgument when the plugin does not promise per-node outcomes, or is
// neither a Filter nor a Score plugin. A pod that PreFilter or PreScore
// turns away is compared by that status alone.
absl::Status CheckOutcomesArePerNode(framework::Plugin& plugin, std::span<const framework::PodInfoPtr> pods,
                                     std::span<const framework::NodeInfo> nodes);

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTING_PLUGIN_RUNNER_H_
