// PodTopologySpread score side: upstream v1.35.8 scoring_test.go ported case
// by case (TestPreScoreSkip, TestPreScoreStateEmptyNodes,
// TestPodTopologySpreadScore), plus checks of the float64 arithmetic.
//
// Each upstream case runs with the feature switches upstream's test gives it,
// and, unless the case is about a disabled gate, again with v1.35's defaults.
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "test_util.h"
#include "testing/must.h"

namespace schedkit::plugins::pts_test {
namespace {

using framework::CycleState;
using framework::PodInfo;

using testing::Info;

struct PreScoreSkipCase {
  std::string name;
  api::v1::Pod pod;
  std::vector<api::v1::Node> nodes;
  Objects objs;
  std::string args;
};

struct PreScoreStateCase {
  std::string name;
  api::v1::Pod pod;
  std::vector<api::v1::Node> nodes;
  Objects objs;
  std::string args;
  WantPreScoreState want;
  Features features;
};

struct ScoreCase {
  std::string name;
  api::v1::Pod pod;
  std::vector<api::v1::Pod> existing_pods;
  std::vector<api::v1::Node> nodes;
  std::vector<api::v1::Node> failed_nodes;  // nodes + failed_nodes = all nodes
  Objects objs;
  std::vector<std::pair<std::string, int64_t>> want;
  Features features;
};

// Upstream TestPreScoreSkip, every case.
std::vector<PreScoreSkipCase> TestPreScoreSkipCases() {
  std::vector<PreScoreSkipCase> cases;
  {
    PreScoreSkipCase& c = cases.emplace_back();
    c.name = "the pod doesn't have soft topology spread Constraints";
    c.pod = MakePod().Name("p").Namespace("default").Obj();
    c.args = R"({"defaultingType":"List"})";
    c.nodes = {MakeNode().Name("node-a").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label(kHostname, "node-b").Obj()};
  }
  {
    PreScoreSkipCase& c = cases.emplace_back();
    c.name = "default constraints and a replicaset that doesn't match";
    c.pod = MakePod()
                .Name("p")
                .Namespace("default")
                .Label("foo", "bar")
                .Label("baz", "sup")
                .OwnerReference("rs2", "ReplicaSet")
                .Obj();
    c.args =
        R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":2,"topologyKey":"planet","whenUnsatisfiable":"ScheduleAnyway"}]})";
    c.nodes = {MakeNode().Name("node-a").Label("planet", "mars").Obj()};
    c.objs = Objects{.services = {},
                     .replica_sets = {ReplicaSet{"default", "rs1", MakeLabelSelector().Exists("tar").Obj()}}};
  }
  return cases;
}

// Upstream TestPreScoreStateEmptyNodes, every case.
std::vector<PreScoreStateCase> TestPreScoreStateEmptyNodesCases() {
  std::vector<PreScoreStateCase> cases;
  {
    PreScoreStateCase& c = cases.emplace_back();
    c.name = "normal case";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, kHostname, kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label(kHostname, "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label(kHostname, "node-x").Obj()};
    c.args = R"({"defaultingType":"List"})";
    c.want = WantPreScoreState{.constraints = {WantConstraint{1, "zone", fooSelector, 1, true, false},
                                               WantConstraint{1, kHostname, fooSelector, 1, true, false}},
                               .ignored_nodes = {},
                               .topology_value_to_pod_counts = {{{"zone1", 0}, {"zone2", 0}}, {}},
                               .topology_normalizing_weight = {W(2), W(3)}};
  }
  {
    PreScoreStateCase& c = cases.emplace_back();
    c.name = "null selector";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kScheduleAnyway, kNil, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label(kHostname, "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label(kHostname, "node-x").Obj()};
    c.args = R"({"defaultingType":"List"})";
    c.want = WantPreScoreState{.constraints = {WantConstraint{1, "zone", kNil, 1, true, false}},
                               .ignored_nodes = {},
                               .topology_value_to_pod_counts = {{{"zone1", 0}, {"zone2", 0}}},
                               .topology_normalizing_weight = {W(2)}};
  }
  {
    PreScoreStateCase& c = cases.emplace_back();
    c.name = "node-x doesn't have label zone";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, kHostname, kScheduleAnyway, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label(kHostname, "node-b").Obj(),
               MakeNode().Name("node-x").Label(kHostname, "node-x").Obj()};
    c.args = R"({"defaultingType":"List"})";
    c.want = WantPreScoreState{.constraints = {WantConstraint{1, "zone", fooSelector, 1, true, false},
                                               WantConstraint{1, kHostname, barSelector, 1, true, false}},
                               .ignored_nodes = {"node-x"},
                               .topology_value_to_pod_counts = {{{"zone1", 0}}, {}},
                               .topology_normalizing_weight = {W(1), W(2)}};
  }
  {
    PreScoreStateCase& c = cases.emplace_back();
    c.name = "system default constraints and a replicaset";
    c.pod = MakePod()
                .Name("p")
                .Namespace("default")
                .Label("foo", "tar")
                .Label("baz", "sup")
                .OwnerReference("rs1", "ReplicaSet")
                .Obj();
    c.args = R"({"defaultingType":"System"})";
    c.nodes = {MakeNode().Name("node-a").Label(kHostname, "node-a").Label(kZone, "mars").Obj(),
               MakeNode().Name("node-b").Label(kHostname, "node-b").Label(kZone, "mars").Obj(),
               MakeNode().Name("node-c").Label(kHostname, "node-c").Obj(),
               MakeNode().Name("node-d").Label(kHostname, "node-d").Obj()};
    c.objs = Objects{.services = {}, .replica_sets = {ReplicaSet{"default", "rs1", fooSelector}}};
    c.want = WantPreScoreState{.constraints = {WantConstraint{3, kHostname, fooSelector, 1, true, false},
                                               WantConstraint{5, kZone, fooSelector, 1, true, false}},
                               .ignored_nodes = {},
                               .topology_value_to_pod_counts = {{}, {{"mars", 0}, {"", 0}}},
                               .topology_normalizing_weight = {W(4), W(2)}};
  }
  {
    PreScoreStateCase& c = cases.emplace_back();
    c.name = "default constraints and a replicaset";
    c.pod = MakePod()
                .Name("p")
                .Namespace("default")
                .Label("foo", "tar")
                .Label("baz", "sup")
                .OwnerReference("rs1", "ReplicaSet")
                .Obj();
    c.args =
        R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"kubernetes.io/hostname","whenUnsatisfiable":"ScheduleAnyway"},{"maxSkew":2,"topologyKey":"rack","whenUnsatisfiable":"DoNotSchedule"},{"maxSkew":2,"topologyKey":"planet","whenUnsatisfiable":"ScheduleAnyway"}]})";
    c.nodes = {MakeNode()
                   .Name("node-a")
                   .Label("rack", "rack1")
                   .Label(kHostname, "node-a")
                   .Label("planet", "mars")
                   .Obj()};
    c.objs = Objects{.services = {}, .replica_sets = {ReplicaSet{"default", "rs1", fooSelector}}};
    c.want = WantPreScoreState{.constraints = {WantConstraint{1, kHostname, fooSelector, 1, true, false},
                                               WantConstraint{2, "planet", fooSelector, 1, true, false}},
                               .ignored_nodes = {},
                               .topology_value_to_pod_counts = {{}, {{"mars", 0}}},
                               .topology_normalizing_weight = {W(1), W(1)}};
  }
  {
    PreScoreStateCase& c = cases.emplace_back();
    c.name = "default constraints and a replicaset, but pod has constraints";
    c.pod = MakePod()
                .Name("p")
                .Namespace("default")
                .Label("foo", "bar")
                .Label("baz", "sup")
                .OwnerReference("rs1", "ReplicaSet")
                .SpreadConstraint(1, "zone", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(2, "planet", kScheduleAnyway, MakeLabelSelector().Label("baz", "sup").Obj(),
                                  kNil, kNil, kNil, {})
                .Obj();
    c.args =
        R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":2,"topologyKey":"galaxy","whenUnsatisfiable":"ScheduleAnyway"}]})";
    c.nodes = {MakeNode().Name("node-a").Label("planet", "mars").Label("galaxy", "andromeda").Obj()};
    c.objs = Objects{.services = {}, .replica_sets = {ReplicaSet{"default", "rs1", fooSelector}}};
    c.want =
        WantPreScoreState{.constraints = {WantConstraint{
                              2, "planet", MakeLabelSelector().Label("baz", "sup").Obj(), 1, true, false}},
                          .ignored_nodes = {},
                          .topology_value_to_pod_counts = {{{"mars", 0}}},
                          .topology_normalizing_weight = {W(1)}};
  }
  {
    PreScoreStateCase& c = cases.emplace_back();
    c.name = "NodeAffinityPolicy honored with labelSelectors";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeSelector({{"foo", ""}})
                .SpreadConstraint(1, "zone", kScheduleAnyway, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("foo", "").Label(kHostname, "node-a").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone1").Label("foo", "").Label(kHostname, "node-b").Obj(),
        MakeNode().Name("node-x").Label("zone", "zone2").Label(kHostname, "node-x").Obj()};
    c.args = R"({"defaultingType":"List"})";
    c.want = WantPreScoreState{.constraints = {WantConstraint{1, "zone", barSelector, 1, true, false}},
                               .ignored_nodes = {},
                               .topology_value_to_pod_counts = {{{"zone1", 0}, {"zone2", 0}}},
                               .topology_normalizing_weight = {W(2)}};
    c.features.node_inclusion_policy = true;
  }
  {
    PreScoreStateCase& c = cases.emplace_back();
    c.name = "NodeAffinityPolicy ignored with labelSelectors";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeSelector({{"foo", ""}})
                .SpreadConstraint(1, "zone", kScheduleAnyway, barSelector, kNil, kIgnore, kNil, {})
                .Obj();
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("foo", "").Label(kHostname, "node-a").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone1").Label("foo", "").Label(kHostname, "node-b").Obj(),
        MakeNode().Name("node-x").Label("zone", "zone2").Label(kHostname, "node-x").Obj()};
    c.args = R"({"defaultingType":"List"})";
    c.want = WantPreScoreState{.constraints = {WantConstraint{1, "zone", barSelector, 1, false, false}},
                               .ignored_nodes = {},
                               .topology_value_to_pod_counts = {{{"zone1", 0}, {"zone2", 0}}},
                               .topology_normalizing_weight = {W(2)}};
    c.features.node_inclusion_policy = true;
  }
  {
    PreScoreStateCase& c = cases.emplace_back();
    c.name = "NodeAffinityPolicy honored with nodeAffinity";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeAffinityIn("foo", {""})
                .SpreadConstraint(1, "zone", kScheduleAnyway, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("foo", "").Label(kHostname, "node-a").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone1").Label("foo", "").Label(kHostname, "node-b").Obj(),
        MakeNode().Name("node-x").Label("zone", "zone2").Label(kHostname, "node-x").Obj()};
    c.args = R"({"defaultingType":"List"})";
    c.want = WantPreScoreState{.constraints = {WantConstraint{1, "zone", barSelector, 1, true, false}},
                               .ignored_nodes = {},
                               .topology_value_to_pod_counts = {{{"zone1", 0}, {"zone2", 0}}},
                               .topology_normalizing_weight = {W(2)}};
    c.features.node_inclusion_policy = true;
  }
  {
    PreScoreStateCase& c = cases.emplace_back();
    c.name = "NodeAffinityPolicy ignored with nodeAffinity";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeAffinityIn("foo", {""})
                .SpreadConstraint(1, "zone", kScheduleAnyway, barSelector, kNil, kIgnore, kNil, {})
                .Obj();
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("foo", "").Label(kHostname, "node-a").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone1").Label("foo", "").Label(kHostname, "node-b").Obj(),
        MakeNode().Name("node-x").Label("zone", "zone2").Label(kHostname, "node-x").Obj()};
    c.args = R"({"defaultingType":"List"})";
    c.want = WantPreScoreState{.constraints = {WantConstraint{1, "zone", barSelector, 1, false, false}},
                               .ignored_nodes = {},
                               .topology_value_to_pod_counts = {{{"zone1", 0}, {"zone2", 0}}},
                               .topology_normalizing_weight = {W(2)}};
    c.features.node_inclusion_policy = true;
  }
  {
    PreScoreStateCase& c = cases.emplace_back();
    c.name = "NodeTaintsPolicy honored";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kScheduleAnyway, barSelector, kNil, kNil, kHonor, {})
                .Obj();
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("foo", "").Label(kHostname, "node-a").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone1").Label("foo", "").Label(kHostname, "node-b").Obj(),
        MakeNode()
            .Name("node-x")
            .Label("zone", "zone2")
            .Label(kHostname, "node-x")
            .Taint(kUnschedulableTaint, "", "NoSchedule")
            .Obj()};
    c.args = R"({"defaultingType":"List"})";
    c.want = WantPreScoreState{.constraints = {WantConstraint{1, "zone", barSelector, 1, true, true}},
                               .ignored_nodes = {},
                               .topology_value_to_pod_counts = {{{"zone1", 0}, {"zone2", 0}}},
                               .topology_normalizing_weight = {W(2)}};
    c.features.node_inclusion_policy = true;
  }
  {
    PreScoreStateCase& c = cases.emplace_back();
    c.name = "NodeTaintsPolicy ignored";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kScheduleAnyway, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("foo", "").Label(kHostname, "node-a").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone1").Label("foo", "").Label(kHostname, "node-b").Obj(),
        MakeNode()
            .Name("node-x")
            .Label("zone", "zone2")
            .Label(kHostname, "node-x")
            .Taint(kUnschedulableTaint, "", "NoSchedule")
            .Obj()};
    c.args = R"({"defaultingType":"List"})";
    c.want = WantPreScoreState{.constraints = {WantConstraint{1, "zone", barSelector, 1, true, false}},
                               .ignored_nodes = {},
                               .topology_value_to_pod_counts = {{{"zone1", 0}, {"zone2", 0}}},
                               .topology_normalizing_weight = {W(2)}};
    c.features.node_inclusion_policy = true;
  }
  return cases;
}

// Upstream TestPodTopologySpreadScore, every case.
std::vector<ScoreCase> TestPodTopologySpreadScoreCases() {
  std::vector<ScoreCase> cases;
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "one constraint on node, no existing pods";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, kHostname, kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label(kHostname, "node-b").Obj()};
    c.want = {{"node-a", 100}, {"node-b", 100}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "one constraint on node, only one node is candidate";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, kHostname, kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label(kHostname, "node-a").Obj()};
    c.failed_nodes = {MakeNode().Name("node-b").Label(kHostname, "node-b").Obj()};
    c.want = {{"node-a", 100}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "one constraint on node, all nodes have the same number of matching pods";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, kHostname, kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label(kHostname, "node-b").Obj()};
    c.want = {{"node-a", 100}, {"node-b", 100}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "one constraint on node, all 4 nodes are candidates";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, kHostname, kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-d1").Node("node-d").Label("foo", "").Obj(),
                       MakePod().Name("p-d2").Node("node-d").Label("foo", "").Obj(),
                       MakePod().Name("p-d3").Node("node-d").Label("foo", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label(kHostname, "node-b").Obj(),
               MakeNode().Name("node-c").Label(kHostname, "node-c").Obj(),
               MakeNode().Name("node-d").Label(kHostname, "node-d").Obj()};
    c.failed_nodes = {};
    c.want = {{"node-a", 20}, {"node-b", 60}, {"node-c", 100}, {"node-d", 0}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "one constraint on node, null selector";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, kHostname, kScheduleAnyway, kNil, kNil, kNil, kNil, {})
                .Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-d1").Node("node-d").Label("foo", "").Obj(),
                       MakePod().Name("p-d2").Node("node-d").Label("foo", "").Obj(),
                       MakePod().Name("p-d3").Node("node-d").Label("foo", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label(kHostname, "node-b").Obj(),
               MakeNode().Name("node-c").Label(kHostname, "node-c").Obj(),
               MakeNode().Name("node-d").Label(kHostname, "node-d").Obj()};
    c.want = {{"node-a", 100}, {"node-b", 100}, {"node-c", 100}, {"node-d", 100}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "one constraint on node, all 4 nodes are candidates, maxSkew=2";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(2, kHostname, kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-d1").Node("node-d").Label("foo", "").Obj(),
                       MakePod().Name("p-d2").Node("node-d").Label("foo", "").Obj(),
                       MakePod().Name("p-d3").Node("node-d").Label("foo", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label(kHostname, "node-b").Obj(),
               MakeNode().Name("node-c").Label(kHostname, "node-c").Obj(),
               MakeNode().Name("node-d").Label(kHostname, "node-d").Obj()};
    c.failed_nodes = {};
    c.want = {{"node-a", 33}, {"node-b", 66}, {"node-c", 100}, {"node-d", 16}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "one constraint on node, all 4 nodes are candidates, maxSkew=3";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(3, kHostname, kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a3").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a4").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-b3").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
                       MakePod().Name("p-c2").Node("node-c").Label("foo", "").Obj(),
                       MakePod().Name("p-d1").Node("node-d").Label("foo", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label(kHostname, "node-b").Obj(),
               MakeNode().Name("node-c").Label(kHostname, "node-c").Obj(),
               MakeNode().Name("node-d").Label(kHostname, "node-d").Obj()};
    c.failed_nodes = {};
    c.want = {{"node-a", 44}, {"node-b", 66}, {"node-c", 77}, {"node-d", 100}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "system defaulting, nodes don't have zone, pods match service";
    c.pod = MakePod().Name("p").Label("foo", "").Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a3").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a4").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-b3").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
                       MakePod().Name("p-c2").Node("node-c").Label("foo", "").Obj(),
                       MakePod().Name("p-d1").Node("node-d").Label("foo", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label(kHostname, "node-b").Obj(),
               MakeNode().Name("node-c").Label(kHostname, "node-c").Obj(),
               MakeNode().Name("node-d").Label(kHostname, "node-d").Obj()};
    c.failed_nodes = {};
    c.objs = Objects{.services = {Service{"default", {{"foo", ""}}}}, .replica_sets = {}};
    c.want = {{"node-a", 44}, {"node-b", 66}, {"node-c", 77}, {"node-d", 100}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "one constraint on node, 3 out of 4 nodes are candidates";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, kHostname, kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a3").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a4").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label(kHostname, "node-b").Obj(),
               MakeNode().Name("node-x").Label(kHostname, "node-x").Obj()};
    c.failed_nodes = {MakeNode().Name("node-y").Label(kHostname, "node-y").Obj()};
    c.want = {{"node-a", 33}, {"node-b", 83}, {"node-x", 100}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, kHostname, kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a3").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a4").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label("n", "node-b").Obj(),
               MakeNode().Name("node-x").Label(kHostname, "node-x").Obj()};
    c.failed_nodes = {MakeNode().Name("node-y").Label(kHostname, "node-y").Obj()};
    c.want = {{"node-a", 16}, {"node-b", 0}, {"node-x", 100}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "one constraint on zone, 3 out of 4 nodes are candidates";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a3").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a4").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label(kHostname, "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label(kHostname, "node-x").Obj()};
    c.failed_nodes = {MakeNode().Name("node-y").Label("zone", "zone2").Label(kHostname, "node-y").Obj()};
    c.want = {{"node-a", 75}, {"node-b", 75}, {"node-x", 100}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "two Constraints on zone and node, 2 out of 4 nodes are candidates";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, kHostname, kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
                       MakePod().Name("p-x2").Node("node-x").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y4").Node("node-y").Label("foo", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label(kHostname, "node-x").Obj()};
    c.failed_nodes = {MakeNode().Name("node-b").Label("zone", "zone1").Label(kHostname, "node-b").Obj(),
                      MakeNode().Name("node-y").Label("zone", "zone2").Label(kHostname, "node-y").Obj()};
    c.want = {{"node-a", 100}, {"node-x", 63}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "two Constraints on zone, 2 out of 4 nodes are candidates";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Label("bar", "")
                .SpreadConstraint(1, "zone", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "zone", kScheduleAnyway, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Obj()};
    c.failed_nodes = {MakeNode().Name("node-b").Label("zone", "zone1").Obj(),
                      MakeNode().Name("node-y").Label("zone", "zone2").Obj()};
    c.want = {{"node-a", 85}, {"node-x", 100}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "two Constraints on zone and node, with different labelSelectors";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Label("bar", "")
                .SpreadConstraint(1, "zone", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, kHostname, kScheduleAnyway, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("bar", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label(kHostname, "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label(kHostname, "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label(kHostname, "node-y").Obj()};
    c.failed_nodes = {};
    c.want = {{"node-a", 60}, {"node-b", 20}, {"node-x", 100}, {"node-y", 60}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Label("bar", "")
                .SpreadConstraint(1, "zone", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, kHostname, kScheduleAnyway, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.existing_pods = {MakePod().Name("p-b1").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Label("bar", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label(kHostname, "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label(kHostname, "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label(kHostname, "node-y").Obj()};
    c.failed_nodes = {};
    c.want = {{"node-a", 100}, {"node-b", 60}, {"node-x", 40}, {"node-y", 0}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name =
        "two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Label("bar", "")
                .SpreadConstraint(1, "zone", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, kHostname, kScheduleAnyway, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("bar", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label(kHostname, "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label(kHostname, "node-x").Obj()};
    c.failed_nodes = {MakeNode().Name("node-y").Label("zone", "zone2").Label(kHostname, "node-y").Obj()};
    c.want = {{"node-a", 50}, {"node-b", 25}, {"node-x", 100}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "existing pods in a different namespace do not count";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, kHostname, kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.existing_pods = {MakePod().Name("p-a1").Namespace("ns1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label(kHostname, "node-b").Obj()};
    c.want = {{"node-a", 100}, {"node-b", 33}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "terminating Pods should be excluded";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, kHostname, kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label(kHostname, "node-b").Obj()};
    c.existing_pods = {MakePod().Name("p-a").Node("node-a").Label("foo", "").Terminating().Obj(),
                       MakePod().Name("p-b").Node("node-b").Label("foo", "").Obj()};
    c.want = {{"node-a", 100}, {"node-b", 0}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "minDomains has no effect when ScheduleAnyway";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(2, "node", kScheduleAnyway, fooSelector, 10, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Obj(),
               MakeNode().Name("node-c").Label("node", "node-c").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj()};
    c.want = {{"node-a", 75}, {"node-b", 75}, {"node-c", 100}};
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "NodeAffinityPolicy honoed with labelSelectors";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeSelector({{"foo", ""}})
                .SpreadConstraint(1, "node", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
               MakeNode().Name("node-c").Label("node", "node-c").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj()};
    c.want = {{"node-a", 0}, {"node-b", 33}, {"node-c", 100}};
    c.features.node_inclusion_policy = true;
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "NodeAffinityPolicy ignored with labelSelectors";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeSelector({{"foo", ""}})
                .SpreadConstraint(1, "node", kScheduleAnyway, fooSelector, kNil, kIgnore, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
               MakeNode().Name("node-c").Label("node", "node-c").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj()};
    c.want = {{"node-a", 66}, {"node-b", 100}, {"node-c", 100}};
    c.features.node_inclusion_policy = true;
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "NodeAffinityPolicy honoed with nodeAffinity";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeAffinityIn("foo", {""})
                .SpreadConstraint(1, "node", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
               MakeNode().Name("node-c").Label("node", "node-c").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj()};
    c.want = {{"node-a", 0}, {"node-b", 33}, {"node-c", 100}};
    c.features.node_inclusion_policy = true;
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "NodeAffinityPolicy ignored with nodeAffinity";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeAffinityIn("foo", {""})
                .SpreadConstraint(1, "node", kScheduleAnyway, fooSelector, kNil, kIgnore, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
               MakeNode().Name("node-c").Label("node", "node-c").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj()};
    c.want = {{"node-a", 66}, {"node-b", 100}, {"node-c", 100}};
    c.features.node_inclusion_policy = true;
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "NodeTaintsPolicy honored";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "node", kScheduleAnyway, fooSelector, kNil, kNil, kHonor, {})
                .Obj();
    c.nodes = {
        MakeNode().Name("node-a").Label("node", "node-a").Obj(),
        MakeNode().Name("node-b").Label("node", "node-b").Obj(),
        MakeNode().Name("node-c").Label("node", "node-c").Taint(kUnschedulableTaint, "", "NoSchedule").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj()};
    c.want = {{"node-a", 0}, {"node-b", 33}, {"node-c", 100}};
    c.features.node_inclusion_policy = true;
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "NodeTaintsPolicy ignored";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "node", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {
        MakeNode().Name("node-a").Label("node", "node-a").Obj(),
        MakeNode().Name("node-b").Label("node", "node-b").Obj(),
        MakeNode().Name("node-c").Label("node", "node-c").Taint(kUnschedulableTaint, "", "NoSchedule").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj()};
    c.want = {{"node-a", 66}, {"node-b", 100}, {"node-c", 100}};
    c.features.node_inclusion_policy = true;
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "matchLabelKeys ignored when feature gate disabled";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Label("bar", "")
                .Label("baz", "")
                .SpreadConstraint(1, "zone", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {"baz"})
                .SpreadConstraint(1, kHostname, kScheduleAnyway, barSelector, kNil, kNil, kNil, {"baz"})
                .Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-y1").Node("node-c").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-c").Label("bar", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label(kHostname, "node-b").Obj(),
               MakeNode().Name("node-c").Label("zone", "zone2").Label(kHostname, "node-c").Obj(),
               MakeNode().Name("node-d").Label("zone", "zone2").Label(kHostname, "node-d").Obj()};
    c.want = {{"node-a", 60}, {"node-b", 20}, {"node-c", 60}, {"node-d", 100}};
    c.features.match_label_keys = false;
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Label("bar", "")
                .SpreadConstraint(1, "zone", kScheduleAnyway, MakeLabelSelector().Obj(), kNil, kNil, kNil,
                                  {"foo"})
                .SpreadConstraint(1, kHostname, kScheduleAnyway, MakeLabelSelector().Obj(), kNil, kNil, kNil,
                                  {"bar"})
                .Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-y1").Node("node-c").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-c").Label("bar", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label(kHostname, "node-b").Obj(),
               MakeNode().Name("node-c").Label("zone", "zone2").Label(kHostname, "node-c").Obj(),
               MakeNode().Name("node-d").Label("zone", "zone2").Label(kHostname, "node-d").Obj()};
    c.want = {{"node-a", 60}, {"node-b", 20}, {"node-c", 60}, {"node-d", 100}};
    c.features.match_label_keys = true;
  }
  {
    ScoreCase& c = cases.emplace_back();
    c.name = "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Label("bar", "")
                .Label("baz", "")
                .SpreadConstraint(1, "zone", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, kHostname, kScheduleAnyway, barSelector, kNil, kNil, kNil, {"baz"})
                .Obj();
    c.existing_pods = {
        MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
        MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Label("baz", "").Obj(),
        MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj(),
        MakePod().Name("p-c2").Node("node-c").Label("bar", "").Obj(),
        MakePod().Name("p-d3").Node("node-c").Label("bar", "").Label("baz", "").Obj()};
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label(kHostname, "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label(kHostname, "node-b").Obj(),
               MakeNode().Name("node-c").Label("zone", "zone2").Label(kHostname, "node-c").Obj(),
               MakeNode().Name("node-d").Label("zone", "zone2").Label(kHostname, "node-d").Obj()};
    c.want = {{"node-a", 60}, {"node-b", 20}, {"node-c", 60}, {"node-d", 100}};
    c.features.match_label_keys = true;
  }
  return cases;
}

TEST_CASE("TestPreScoreSkip", "[podtopologyspread][score]") {
  for (const PreScoreSkipCase& tc : TestPreScoreSkipCases()) {
    for (const auto& [features, suffix] : FeatureRuns(tc.name, Features{})) {
      DYNAMIC_SECTION("TestPreScoreSkip/" << tc.name << suffix) {
        testing::FakeHandle h;
        h.SetCluster(tc.nodes, {});
        auto p = NewPlugin(h, tc.args, features, tc.objs);
        CycleState cs;
        CHECK(p->PreScore(cs, *Info(tc.pod), h.snapshot().nodes()).code() == Code::kSkip);
      }
    }
  }
}

void RunPreScoreState(const PreScoreStateCase& tc, Features features) {
  testing::FakeHandle h;
  h.SetCluster(tc.nodes, {});
  auto p = NewPlugin(h, tc.args, features, tc.objs);
  CycleState cs;
  REQUIRE(p->PreScore(cs, *Info(tc.pod), NodeInfosOf(h, tc.nodes)).IsSuccess());
  const auto* got = cs.Read<PodTopologySpread::PreScoreState>(PodTopologySpread::PreScoreStateKey());
  REQUIRE(got != nullptr);
  CheckPreScoreState(got->data(), tc.want);
}

TEST_CASE("TestPreScoreStateEmptyNodes", "[podtopologyspread][score]") {
  for (const PreScoreStateCase& tc : TestPreScoreStateEmptyNodesCases()) {
    // Upstream builds this plugin with only the inclusion-policy gate set
    // from the case, matchLabelKeys off.
    for (const auto& [features, suffix] : FeatureRuns(tc.name, tc.features)) {
      DYNAMIC_SECTION("TestPreScoreStateEmptyNodes/" << tc.name << suffix) { RunPreScoreState(tc, features); }
    }
  }
}

void RunScore(const ScoreCase& tc, Features features) {
  testing::FakeHandle h;
  std::vector<api::v1::Node> all_nodes = tc.nodes;
  all_nodes.insert(all_nodes.end(), tc.failed_nodes.begin(), tc.failed_nodes.end());
  h.SetCluster(all_nodes, tc.existing_pods);
  auto p = NewPlugin(h, kSystemDefaulting, features, tc.objs);
  CycleState cs;
  const auto pod = Info(tc.pod);
  const std::vector<const framework::NodeInfo*> candidates = NodeInfosOf(h, tc.nodes);
  REQUIRE(p->PreScore(cs, *pod, candidates).IsSuccess());
  std::vector<int64_t> scores;
  for (const framework::NodeInfo* node : candidates) {
    int64_t score = -7;
    REQUIRE(p->Score(cs, *pod, *node, score).IsSuccess());
    scores.push_back(score);
  }
  REQUIRE(p->GetScoreExtensions()->NormalizeScore(cs, *pod, candidates, scores).IsSuccess());
  std::vector<std::pair<std::string, int64_t>> got;
  for (size_t i = 0; i < candidates.size(); ++i) got.emplace_back(candidates[i]->name().str(), scores[i]);
  CHECK(got == tc.want);
}

TEST_CASE("TestPodTopologySpreadScore", "[podtopologyspread][score]") {
  for (const ScoreCase& tc : TestPodTopologySpreadScoreCases()) {
    for (const auto& [features, suffix] : FeatureRuns(tc.name, tc.features)) {
      DYNAMIC_SECTION("TestPodTopologySpreadScore/" << tc.name << suffix) { RunScore(tc, features); }
      ScoreCase renamed = tc;
      if (!RenameZoneKeys(renamed)) continue;
      DYNAMIC_SECTION("TestPodTopologySpreadScore/" << tc.name << suffix << " (" << kZone << ")") {
        RunScore(renamed, features);
      }
    }
  }
}

TEST_CASE("PodTopologySpread topology weights are Go's math.Log bit for bit", "[podtopologyspread][score]") {
  // float64 bits of Go's math.Log(size + 2) on amd64 (go1.26), sizes where
  // glibc's log differs in the last bit, and a few where it does not.
  const std::vector<std::pair<int64_t, uint64_t>> want = {
      {0, 0x3fe62e42fefa39efULL},  {1, 0x3ff193ea7aad030aULL},  {12, 0x40051cca16d7bba8ULL},
      {46, 0x400ef8383c50bb74ULL}, {98, 0x40126bb1bbb55516ULL}, {4998, 0x402108cd8bc5b177ULL},
  };
  for (const auto& [size, bits] : want) {
    INFO("size " << size);
    const double w = W(size);
    uint64_t got = 0;
    std::memcpy(&got, &w, sizeof got);
    CHECK(got == bits);
  }
}

TEST_CASE("PodTopologySpread Score rounds half away from zero and normalizes as upstream",
          "[podtopologyspread][score]") {
  // Two zones with 1 and 0 matching pods, maxSkew 1, weight ln(4):
  // 1*1.386... + 0 rounds to 1; 0 rounds to 0. Normalized: 100*(1+0-s)/1.
  testing::FakeHandle h;
  h.SetCluster({MakeNode().Name("node-a").Label("zone", "z1").Obj(),
                MakeNode().Name("node-b").Label("zone", "z2").Obj()},
               {MakePod().Name("p-a").Node("node-a").Label("foo", "").Obj()});
  auto p = NewPlugin(h, kListDefaulting, Features{true, true});
  const auto pod = Info(MakePod()
                            .Name("p")
                            .Label("foo", "")
                            .SpreadConstraint(1, "zone", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                            .Obj());
  CycleState cs;
  const auto nodes = h.snapshot().nodes();
  REQUIRE(p->PreScore(cs, *pod, nodes).IsSuccess());
  std::vector<int64_t> scores;
  for (const auto* n : nodes) {
    int64_t s = 0;
    REQUIRE(p->Score(cs, *pod, *n, s).IsSuccess());
    scores.push_back(s);
  }
  const bool a_first = nodes[0]->name().str() == "node-a";
  CHECK(scores[a_first ? 0 : 1] == 1);
  CHECK(scores[a_first ? 1 : 0] == 0);
  REQUIRE(p->NormalizeScore(cs, *pod, nodes, scores).IsSuccess());
  CHECK(scores[a_first ? 0 : 1] == 0);
  CHECK(scores[a_first ? 1 : 0] == 100);
  // Score without PreScore's state is an error.
  CycleState empty;
  int64_t s = 0;
  CHECK(p->Score(empty, *pod, *nodes[0], s).code() == Code::kError);
}

TEST_CASE("PodTopologySpread PreScore skips an empty cluster", "[podtopologyspread][score]") {
  testing::FakeHandle h;
  h.SetCluster({}, {});
  auto p = NewPlugin(h, kListDefaulting, Features{true, true});
  const auto pod = Info(MakePod()
                            .Name("p")
                            .Label("foo", "")
                            .SpreadConstraint(1, "zone", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                            .Obj());
  CycleState cs;
  CHECK(p->PreScore(cs, *pod, {}).code() == Code::kSkip);
}

TEST_CASE("PodTopologySpread PreScore counts in parallel as sequentially", "[podtopologyspread][score]") {
  std::vector<api::v1::Node> nodes;
  std::vector<api::v1::Pod> pods;
  for (int i = 0; i < 200; ++i) {
    const std::string name = "node-" + std::to_string(i);
    nodes.push_back(
        MakeNode().Name(name).Label("zone", "zone" + std::to_string(i % 7)).Label(kHostname, name).Obj());
    for (int j = 0; j < i % 5; ++j) {
      pods.push_back(MakePod().Name(name + "-p" + std::to_string(j)).Node(name).Label("foo", "").Obj());
    }
  }
  const auto pod =
      Info(MakePod()
               .Name("p")
               .Label("foo", "")
               .SpreadConstraint(1, "zone", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
               .SpreadConstraint(2, kHostname, kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
               .Obj());
  std::vector<std::vector<int64_t>> results;
  for (int parallelism : {1, 8}) {
    testing::FakeHandle h(parallelism);
    h.SetCluster(nodes, pods);
    auto p = NewPlugin(h, kListDefaulting, Features{true, true});
    CycleState cs;
    const auto candidates = h.snapshot().nodes().subspan(0, 150);
    REQUIRE(p->PreScore(cs, *pod, candidates).IsSuccess());
    std::vector<int64_t> scores(candidates.size());
    for (size_t i = 0; i < candidates.size(); ++i)
      REQUIRE(p->Score(cs, *pod, *candidates[i], scores[i]).IsSuccess());
    REQUIRE(p->NormalizeScore(cs, *pod, candidates, scores).IsSuccess());
    results.push_back(scores);
  }
  CHECK(results[0] == results[1]);
}

}  // namespace
}  // namespace schedkit::plugins::pts_test
