// embedded-host: the smallest program that embeds schedkit's scheduler.
//
// It registers an out-of-tree plugin (a Score plugin that prefers nodes whose
// name sorts first — silly, but visible), hands the scheduler a tiny cluster
// through a ClusterLister, receives bind decisions through the Host callback
// and prints them. Public headers only.
#include <cstdio>
#include <memory>
#include <string>

#include "schedkit/api/lister.h"
#include "schedkit/config/configuration.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/scheduler/scheduler.h"
#include "schedkit/testing/builders.h"

namespace {

using schedkit::framework::CycleState;
using schedkit::framework::NodeInfo;
using schedkit::framework::PodInfo;
using schedkit::framework::Status;

// Out-of-tree: score 100 for "node-a*", 0 otherwise.
class PreferNodeA : public schedkit::framework::ScorePlugin {
 public:
  std::string_view Name() const override { return "PreferNodeA"; }
  Status Score(const CycleState&, const PodInfo&, const NodeInfo& node, int64_t& score) const override {
    score = node.name().str().rfind("node-a", 0) == 0 ? 100 : 0;
    return Status();
  }
};

// The host: binding is a print; a real host would call its API server.
class PrintingHost : public schedkit::scheduler::Host {
 public:
  absl::Status Bind(const schedkit::api::v1::Pod& pod, std::string_view node) override {
    std::printf("bind %s/%s -> %.*s\n", pod.metadata().namespace_().c_str(), pod.metadata().name().c_str(),
                static_cast<int>(node.size()), node.data());
    return absl::OkStatus();
  }
  void OnFailedScheduling(const schedkit::api::v1::Pod& pod,
                          const schedkit::scheduler::SchedulingFailure& failure) override {
    std::printf("cannot schedule %s: %.*s\n", pod.metadata().name().c_str(),
                static_cast<int>(failure.message.size()), failure.message.data());
  }
};

}  // namespace

int main() {
  using schedkit::testing::MakeNode;
  using schedkit::testing::MakePod;

  // 1. Registry: every in-tree plugin plus ours, one Add call.
  schedkit::framework::Registry registry = schedkit::plugins::NewInTreeRegistry();
  absl::Status added = registry.Add("PreferNodeA", [](const schedkit::framework::PluginArgs&,
                                                     schedkit::framework::Handle&)
                                                        -> absl::StatusOr<std::unique_ptr<schedkit::framework::Plugin>> {
    return std::make_unique<PreferNodeA>();
  });
  if (!added.ok()) return 1;

  // 2. Configuration: upstream's defaults plus our plugin at weight 5.
  schedkit::config::SchedulerConfiguration config = schedkit::config::DefaultConfiguration();
  config.profiles[0].plugins.score.enabled.push_back({"PreferNodeA", 5});

  // 3. Cluster state through a lister (a real host would list its informers).
  schedkit::api::ObjectSet cluster = schedkit::testing::MakeCluster(
      {MakeNode().Name("node-b").Capacity({{"cpu", "4"}, {"memory", "8Gi"}}).Obj(),
       MakeNode().Name("node-a").Capacity({{"cpu", "2"}, {"memory", "8Gi"}}).Obj()},
      {MakePod().Name("web-1").Req({{"cpu", "1"}}).Obj(), MakePod().Name("web-2").Req({{"cpu", "1"}}).Obj(),
       MakePod().Name("web-3").Req({{"cpu", "1"}}).Obj(), MakePod().Name("huge").Req({{"cpu", "16"}}).Obj()});
  schedkit::api::StaticClusterLister lister(cluster);

  PrintingHost host;
  schedkit::scheduler::InlineExecutor executor;  // bind on the scheduling thread: simple output order
  schedkit::scheduler::SchedulerOptions options;
  options.executor = &executor;
  options.tie_break = schedkit::framework::TieBreak::kLowestName;
  auto scheduler = schedkit::scheduler::Scheduler::Create(config, registry, host, lister, options);
  if (!scheduler.ok()) {
    std::fprintf(stderr, "%s\n", std::string(scheduler.status().message()).c_str());
    return 1;
  }
  // 4. Schedule until nothing is ready (a long-running host would call Run()).
  (*scheduler)->RunUntilIdle();
  (*scheduler)->Stop();
  return 0;
}
