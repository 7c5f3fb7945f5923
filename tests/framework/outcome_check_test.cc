// FrameworkOptions::check_per_node_outcomes: a plugin that promises per-node
// outcomes but reads the pod's labels (not part of its signature) is found
// out on the first reused outcome that differs, where without the check the
// memo silently decides for one pod what the plugin decided for another.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "schedkit/framework/framework.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/minimal_plugins.h"
#include "schedkit/testing/plugin_runner.h"
#include "testing/reads_pod_labels.h"

namespace schedkit::framework {
namespace {

using testing::MakeNode;
using testing::MakePod;

struct Checked {
  Registry registry;
  Profile profile;
  ClusterState cluster;
  Snapshot snapshot;
  std::vector<std::string> mismatches;
  std::unique_ptr<Framework> framework;

  explicit Checked(bool check) {
    REQUIRE(testing::AddMinimalPlugins(registry, profile).ok());
    REQUIRE(registry.Add("ReadsPodLabels", &testing::ReadsPodLabels::New).ok());
    profile.plugins.multi_point.enabled.push_back({"ReadsPodLabels", 1});
    for (const char* name : {"n0", "n1"}) {
      REQUIRE(cluster.AddNode(MakeNode().Name(name).Capacity({{"cpu", "8"}, {"pods", "20"}}).Ptr()).ok());
    }
    cluster.UpdateSnapshot(snapshot);
    FrameworkOptions o;
    o.parallelism = 2;
    if (check) o.check_per_node_outcomes = [this](std::string_view m) { mismatches.emplace_back(m); };
    auto f = Framework::Create(registry, profile, std::move(o));
    REQUIRE(f.ok());
    framework = *std::move(f);
  }

  std::string Schedule(const PodInfoPtr& pod) {
    CycleState state;
    SelectionState selection;
    selection.tie_break = TieBreak::kLowestName;
    ScheduleOutcome out = framework->SchedulePod(state, pod, snapshot, selection);
    return out.status.IsSuccess() ? std::string(out.result.suggested_host.str()) : "";
  }

  // Two plain replicas: from the second on, the memo keeps the signature's
  // outcomes (OutcomeMemo::For).
  void Warm() {
    for (const char* name : {"a", "b"}) CHECK(Schedule(MakePod().Name(name).UID(name).Info()) == "n0");
    REQUIRE(mismatches.empty());
  }
};

TEST_CASE("check_per_node_outcomes reports a reused Filter pass that a fresh Filter rejects", "[framework][memo]") {
  const PodInfoPtr avoids_n0 = MakePod().Name("c").UID("c").Label("avoid", "n0").Info();
  SECTION("without the check, the pod silently lands on the node the plugin rejects") {
    Checked c(false);
    c.Warm();
    CHECK(c.Schedule(avoids_n0) == "n0");
  }
  SECTION("with it, the first differing outcome is named; the decision stays the memo's") {
    Checked c(true);
    c.Warm();
    CHECK(c.Schedule(avoids_n0) == "n0");
    REQUIRE(c.mismatches.size() == 1);
    CHECK(c.mismatches[0] ==
          "plugin \"ReadsPodLabels\" promises per-node outcomes (OutcomesArePerNode), but its Filter of pod "
          "default/c on node \"n0\" gives Unschedulable \"avoided\" where it passed a pod of the same signature on "
          "the node unchanged");
  }
}

TEST_CASE("check_per_node_outcomes reports a reused raw Score that a fresh Score changes", "[framework][memo]") {
  Checked c(true);
  c.Warm();
  CHECK(c.Schedule(MakePod().Name("d").UID("d").Label("prefer", "n1").Info()) == "n0");
  REQUIRE(c.mismatches.size() == 1);
  CHECK(c.mismatches[0] ==
        "plugin \"ReadsPodLabels\" promises per-node outcomes (OutcomesArePerNode), but its Score of pod default/d "
        "on node \"n1\" gives 100 where it gave a pod of the same signature 0 on the node unchanged");
}

TEST_CASE("check_per_node_outcomes stays quiet for pods the plugin treats alike", "[framework][memo]") {
  Checked c(true);
  c.Warm();
  for (const char* name : {"e", "f", "g"}) CHECK(c.Schedule(MakePod().Name(name).UID(name).Info()) == "n0");
  CHECK(c.mismatches.empty());
}

TEST_CASE("testing::CheckOutcomesArePerNode finds the same on a table", "[framework][memo]") {
  testing::ReadsPodLabels plugin;
  const std::vector<NodeInfo> nodes = {MakeNode().Name("n0").Info(), MakeNode().Name("n1").Info()};
  const std::vector<PodInfoPtr> alike = {MakePod().Name("a").UID("a").Info(), MakePod().Name("b").UID("b").Info(),
                                         MakePod().Name("c").UID("c").Label("app", "web").Info()};
  CHECK(testing::CheckOutcomesArePerNode(plugin, alike, nodes).ok());

  std::vector<PodInfoPtr> pods = alike;
  pods.push_back(MakePod().Name("d").UID("d").Label("avoid", "n1").Info());
  const absl::Status filter = testing::CheckOutcomesArePerNode(plugin, pods, nodes);
  CHECK(filter.code() == absl::StatusCode::kFailedPrecondition);
  CHECK(filter.message() ==
        "plugin \"ReadsPodLabels\" promises per-node outcomes (OutcomesArePerNode), but its Filter of pod default/d "
        "on node \"n1\" gives Unschedulable \"avoided\" where pod default/a of the same signature got Success");

  pods.back() = MakePod().Name("e").UID("e").Label("prefer", "n0").Info();
  CHECK(testing::CheckOutcomesArePerNode(plugin, pods, nodes).message() ==
        "plugin \"ReadsPodLabels\" promises per-node outcomes (OutcomesArePerNode), but its Score of pod default/e "
        "on node \"n0\" gives 100 where pod default/a of the same signature got 0");

  // Pods of another spec are another signature: no comparison between them.
  pods.back() = MakePod().Name("f").UID("f").Label("avoid", "n1").Req({{"cpu", "1"}}).Info();
  CHECK(testing::CheckOutcomesArePerNode(plugin, pods, nodes).ok());
}

}  // namespace
}  // namespace schedkit::framework
