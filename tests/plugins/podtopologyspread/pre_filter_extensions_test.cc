// PodTopologySpread's PreFilter extensions (AddPod, RemovePod), as preemption
// and the nominated-pods pass use them: upstream v1.35.8 filtering_test.go's
// TestPreFilterStateAddPod and TestPreFilterStateRemovePod ported case by
// case, and upstream's two critical paths kept through AddPod.
//
// Each upstream case runs with the feature switches upstream's test gives it,
// and, unless the case is about a disabled gate, with v1.35's defaults.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "test_util.h"
#include "testing/filter_nodes.h"
#include "testing/must.h"

namespace schedkit::plugins::pts_test {
namespace {

using framework::CycleState;
using framework::PodInfo;

using testing::Info;

const WantConstraint kNodeConstraint{1, "node", fooSelector, 1, true, false};
const WantConstraint kZoneConstraint{1, "zone", fooSelector, 1, true, false};

struct AddPodCase {
  std::string name;
  api::v1::Pod preemptor;
  api::v1::Pod added_pod;
  std::vector<api::v1::Pod> existing_pods;
  int node_idx = 0;
  std::vector<api::v1::Node> nodes;
  WantPreFilterState want;
  Features features;
};

struct RemovePodCase {
  std::string name;
  api::v1::Pod preemptor;
  std::vector<api::v1::Node> nodes;
  std::vector<api::v1::Pod> existing_pods;
  int deleted_pod_idx = 0;  // Go's zero value, as upstream's table leaves it
  api::v1::Pod deleted_pod;
  int node_idx = 0;
  WantPreFilterState want;
  Features features;
};

// Upstream TestPreFilterStateAddPod, every case.
std::vector<AddPodCase> TestPreFilterStateAddPodCases() {
  std::vector<AddPodCase> cases;
  {
    AddPodCase& c = cases.emplace_back();
    c.name = "node a and b both impact current min match";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.added_pod = MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj();
    c.existing_pods = std::vector<api::v1::Pod>{};
    c.node_idx = 0;
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj()};
    c.want = WantPreFilterState{.constraints = {kNodeConstraint},
                                .critical_paths = {{{"node-b", 0}, {"node-a", 1}}},
                                .tp_value_to_match_num = {{{"node-a", 1}, {"node-b", 0}}}};
  }
  {
    AddPodCase& c = cases.emplace_back();
    c.name = "only node a impacts current min match";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.added_pod = MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj();
    c.existing_pods = {MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj()};
    c.node_idx = 0;
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj()};
    c.want = WantPreFilterState{.constraints = {kNodeConstraint},
                                .critical_paths = {{{"node-a", 1}, {"node-b", 1}}},
                                .tp_value_to_match_num = {{{"node-a", 1}, {"node-b", 1}}}};
  }
  {
    AddPodCase& c = cases.emplace_back();
    c.name = "add a pod in a different namespace doesn't change topologyKeyToMinPodsMap";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.added_pod = MakePod().Name("p-a1").Namespace("ns1").Node("node-a").Label("foo", "").Obj();
    c.existing_pods = {MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj()};
    c.node_idx = 0;
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj()};
    c.want = WantPreFilterState{.constraints = {kNodeConstraint},
                                .critical_paths = {{{"node-a", 0}, {"node-b", 1}}},
                                .tp_value_to_match_num = {{{"node-a", 0}, {"node-b", 1}}}};
  }
  {
    AddPodCase& c = cases.emplace_back();
    c.name = "add pod on non-critical node won't trigger re-calculation";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.added_pod = MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj();
    c.existing_pods = {MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj()};
    c.node_idx = 1;
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj()};
    c.want = WantPreFilterState{.constraints = {kNodeConstraint},
                                .critical_paths = {{{"node-a", 0}, {"node-b", 2}}},
                                .tp_value_to_match_num = {{{"node-a", 0}, {"node-b", 2}}}};
  }
  {
    AddPodCase& c = cases.emplace_back();
    c.name = "node a and x both impact topologyKeyToMinPodsMap on zone and node";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.added_pod = MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj();
    c.existing_pods = std::vector<api::v1::Pod>{};
    c.node_idx = 0;
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj()};
    c.want = WantPreFilterState{
        .constraints = {kZoneConstraint, kNodeConstraint},
        .critical_paths = {{{"zone2", 0}, {"zone1", 1}}, {{"node-x", 0}, {"node-a", 1}}},
        .tp_value_to_match_num = {{{"zone1", 1}, {"zone2", 0}}, {{"node-a", 1}, {"node-x", 0}}}};
  }
  {
    AddPodCase& c = cases.emplace_back();
    c.name = "only node a impacts topologyKeyToMinPodsMap on zone and node";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.added_pod = MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj();
    c.existing_pods = {MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj()};
    c.node_idx = 0;
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj()};
    c.want = WantPreFilterState{
        .constraints = {kZoneConstraint, kNodeConstraint},
        .critical_paths = {{{"zone1", 1}, {"zone2", 1}}, {{"node-a", 1}, {"node-x", 1}}},
        .tp_value_to_match_num = {{{"zone1", 1}, {"zone2", 1}}, {{"node-a", 1}, {"node-x", 1}}}};
  }
  {
    AddPodCase& c = cases.emplace_back();
    c.name = "node a impacts topologyKeyToMinPodsMap on node, node x impacts topologyKeyToMinPodsMap on zone";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.added_pod = MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj();
    c.existing_pods = {MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj()};
    c.node_idx = 0;
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj()};
    c.want =
        WantPreFilterState{.constraints = {kZoneConstraint, kNodeConstraint},
                           .critical_paths = {{{"zone2", 1}, {"zone1", 3}}, {{"node-a", 1}, {"node-x", 1}}},
                           .tp_value_to_match_num = {{{"zone1", 3}, {"zone2", 1}},
                                                     {{"node-a", 1}, {"node-b", 2}, {"node-x", 1}}}};
  }
  {
    AddPodCase& c = cases.emplace_back();
    c.name = "Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on zone";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .Label("bar", "")
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.added_pod = MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj();
    c.existing_pods = {MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-x2").Node("node-x").Label("bar", "").Obj()};
    c.node_idx = 0;
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj()};
    c.want = WantPreFilterState{
        .constraints = {kZoneConstraint, WantConstraint{1, "node", barSelector, 1, true, false}},
        .critical_paths = {{{"zone2", 1}, {"zone1", 2}}, {{"node-a", 0}, {"node-b", 1}}},
        .tp_value_to_match_num = {{{"zone1", 2}, {"zone2", 1}},
                                  {{"node-a", 0}, {"node-b", 1}, {"node-x", 2}}}};
  }
  {
    AddPodCase& c = cases.emplace_back();
    c.name =
        "Constraints hold different labelSelectors, node a impacts topologyKeyToMinPodsMap on both zone and "
        "node";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .Label("bar", "")
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.added_pod = MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("bar", "").Obj();
    c.existing_pods = {MakePod().Name("p-b1").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-x2").Node("node-x").Label("bar", "").Obj()};
    c.node_idx = 0;
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj()};
    c.want = WantPreFilterState{
        .constraints = {kZoneConstraint, WantConstraint{1, "node", barSelector, 1, true, false}},
        .critical_paths = {{{"zone1", 1}, {"zone2", 1}}, {{"node-a", 1}, {"node-b", 1}}},
        .tp_value_to_match_num = {{{"zone1", 1}, {"zone2", 1}},
                                  {{"node-a", 1}, {"node-b", 1}, {"node-x", 2}}}};
  }
  {
    AddPodCase& c = cases.emplace_back();
    c.name = "add a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy disabled";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .NodeAffinityNotIn("foo", {"bar"})
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.node_idx = 0;
    c.added_pod = MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj();
    c.existing_pods = {MakePod().Name("p-a2").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj()};
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj()};
    c.want = WantPreFilterState{.constraints = {kZoneConstraint},
                                .critical_paths = {{{"zone2", 1}, {"", kMaxInt32}}},
                                .tp_value_to_match_num = {{{"zone2", 1}}}};
    c.features.node_inclusion_policy = false;
  }
  {
    AddPodCase& c = cases.emplace_back();
    c.name = "add a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy enabled";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .NodeAffinityNotIn("foo", {"bar"})
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.node_idx = 0;
    c.added_pod = MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj();
    c.existing_pods = {MakePod().Name("p-a2").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj()};
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj()};
    c.want = WantPreFilterState{.constraints = {kZoneConstraint},
                                .critical_paths = {{{"zone2", 1}, {"", kMaxInt32}}},
                                .tp_value_to_match_num = {{{"zone2", 1}}}};
    c.features.node_inclusion_policy = true;
  }
  {
    AddPodCase& c = cases.emplace_back();
    c.name = "add a pod when scheduling node affinity matched pod with NodeInclusionPolicy disabled";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.node_idx = 1;
    c.added_pod = MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj()};
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj()};
    c.want = WantPreFilterState{.constraints = {kZoneConstraint},
                                .critical_paths = {{{"zone1", 1}, {"zone2", 2}}},
                                .tp_value_to_match_num = {{{"zone1", 1}, {"zone2", 2}}}};
    c.features.node_inclusion_policy = false;
  }
  {
    AddPodCase& c = cases.emplace_back();
    c.name = "add a pod when scheduling node affinity matched pod with NodeInclusionPolicy enabled";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.node_idx = 1;
    c.added_pod = MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj()};
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj()};
    c.want = WantPreFilterState{.constraints = {kZoneConstraint},
                                .critical_paths = {{{"zone1", 1}, {"zone2", 2}}},
                                .tp_value_to_match_num = {{{"zone1", 1}, {"zone2", 2}}}};
    c.features.node_inclusion_policy = true;
  }
  {
    AddPodCase& c = cases.emplace_back();
    c.name = "add a label selector not matched pod when with NodeInclusionPolicy enabled";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.node_idx = 1;
    c.added_pod = MakePod().Name("p-b1").Node("node-b").Label("zone", "zone2").Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj()};
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj()};
    c.want = WantPreFilterState{.constraints = {kZoneConstraint},
                                .critical_paths = {{{"zone1", 1}, {"zone2", 1}}},
                                .tp_value_to_match_num = {{{"zone1", 1}, {"zone2", 1}}}};
    c.features.node_inclusion_policy = true;
  }
  {
    AddPodCase& c = cases.emplace_back();
    c.name = "add a pod when scheduling taint untolerated pod with NodeInclusionPolicy disabled";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.node_idx = 1;
    c.added_pod = MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj()};
    c.nodes = {MakeNode()
                   .Name("node-a")
                   .Label("zone", "zone1")
                   .Label("node", "node-a")
                   .Taint(kUnschedulableTaint, "", "NoSchedule")
                   .Obj(),
               MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Obj()};
    c.want = WantPreFilterState{.constraints = {kZoneConstraint},
                                .critical_paths = {{{"zone1", 1}, {"zone2", 2}}},
                                .tp_value_to_match_num = {{{"zone2", 2}, {"zone1", 1}}}};
    c.features.node_inclusion_policy = false;
  }
  {
    AddPodCase& c = cases.emplace_back();
    c.name = "add a pod when scheduling taint tolerated pod with NodeInclusionPolicy enabled";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .Toleration(kUnschedulableTaint)
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.node_idx = 1;
    c.added_pod = MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj()};
    c.nodes = {MakeNode()
                   .Name("node-a")
                   .Label("zone", "zone1")
                   .Label("node", "node-a")
                   .Taint(kUnschedulableTaint, "", "NoSchedule")
                   .Obj(),
               MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Obj()};
    c.want = WantPreFilterState{.constraints = {kZoneConstraint},
                                .critical_paths = {{{"zone1", 1}, {"zone2", 2}}},
                                .tp_value_to_match_num = {{{"zone2", 2}, {"zone1", 1}}}};
    c.features.node_inclusion_policy = true;
  }
  return cases;
}

// Upstream TestPreFilterStateRemovePod, every case.
std::vector<RemovePodCase> TestPreFilterStateRemovePodCases() {
  std::vector<RemovePodCase> cases;
  {
    RemovePodCase& c = cases.emplace_back();
    c.name = "one spreadConstraint on zone, topologyKeyToMinPodsMap unchanged";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj()};
    c.deleted_pod_idx = 0;
    c.node_idx = 0;
    c.want = WantPreFilterState{.constraints = {kZoneConstraint},
                                .critical_paths = {{{"zone1", 1}, {"zone2", 1}}},
                                .tp_value_to_match_num = {{{"zone1", 1}, {"zone2", 1}}}};
  }
  {
    RemovePodCase& c = cases.emplace_back();
    c.name = "one spreadConstraint on node, topologyKeyToMinPodsMap changed";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.deleted_pod_idx = 0;
    c.node_idx = 0;
    c.want = WantPreFilterState{.constraints = {kZoneConstraint},
                                .critical_paths = {{{"zone1", 1}, {"zone2", 2}}},
                                .tp_value_to_match_num = {{{"zone1", 1}, {"zone2", 2}}}};
  }
  {
    RemovePodCase& c = cases.emplace_back();
    c.name = "delete an irrelevant pod won't help";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a0").Node("node-a").Label("bar", "").Obj(),
                       MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.deleted_pod_idx = 0;
    c.node_idx = 0;
    c.want = WantPreFilterState{.constraints = {kZoneConstraint},
                                .critical_paths = {{{"zone1", 2}, {"zone2", 2}}},
                                .tp_value_to_match_num = {{{"zone1", 2}, {"zone2", 2}}}};
  }
  {
    RemovePodCase& c = cases.emplace_back();
    c.name = "delete a non-existing pod won't help";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.deleted_pod_idx = -1;
    c.deleted_pod = MakePod().Name("p-a0").Node("node-a").Label("bar", "").Obj();
    c.node_idx = 0;
    c.want = WantPreFilterState{.constraints = {kZoneConstraint},
                                .critical_paths = {{{"zone1", 2}, {"zone2", 2}}},
                                .tp_value_to_match_num = {{{"zone1", 2}, {"zone2", 2}}}};
  }
  {
    RemovePodCase& c = cases.emplace_back();
    c.name = "two spreadConstraints";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
                       MakePod().Name("p-x2").Node("node-x").Label("foo", "").Obj()};
    c.deleted_pod_idx = 3;
    c.node_idx = 2;
    c.want =
        WantPreFilterState{.constraints = {kZoneConstraint, kNodeConstraint},
                           .critical_paths = {{{"zone2", 1}, {"zone1", 3}}, {{"node-b", 1}, {"node-x", 1}}},
                           .tp_value_to_match_num = {{{"zone1", 3}, {"zone2", 1}},
                                                     {{"node-a", 2}, {"node-b", 1}, {"node-x", 1}}}};
  }
  {
    RemovePodCase& c = cases.emplace_back();
    c.name = "remove a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy disabled";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .NodeAffinityNotIn("foo", {"bar"})
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.node_idx = 0;
    c.deleted_pod = MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj();
    c.existing_pods = {MakePod().Name("p-a2").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj()};
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj()};
    c.want = WantPreFilterState{.constraints = {kZoneConstraint},
                                .critical_paths = {{{"zone2", 1}, {"", kMaxInt32}}},
                                .tp_value_to_match_num = {{{"zone2", 1}}}};
    c.features.node_inclusion_policy = false;
  }
  {
    RemovePodCase& c = cases.emplace_back();
    c.name = "remove a pod when scheduling node affinity unmatched pod with NodeInclusionPolicy enabled";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .NodeAffinityNotIn("foo", {"bar"})
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.node_idx = 0;
    c.deleted_pod = MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj();
    c.existing_pods = {MakePod().Name("p-a2").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj()};
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj()};
    c.want = WantPreFilterState{.constraints = {kZoneConstraint},
                                .critical_paths = {{{"zone2", 1}, {"", kMaxInt32}}},
                                .tp_value_to_match_num = {{{"zone2", 1}}}};
    c.features.node_inclusion_policy = true;
  }
  {
    RemovePodCase& c = cases.emplace_back();
    c.name = "remove a pod when scheduling node affinity matched pod with NodeInclusionPolicy disabled";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.node_idx = 1;
    c.deleted_pod = MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj()};
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj()};
    c.want = WantPreFilterState{.constraints = {kZoneConstraint},
                                .critical_paths = {{{"zone2", 0}, {"zone1", 1}}},
                                .tp_value_to_match_num = {{{"zone2", 0}, {"zone1", 1}}}};
    c.features.node_inclusion_policy = false;
  }
  {
    RemovePodCase& c = cases.emplace_back();
    c.name = "remove a pod when scheduling node affinity matched pod with NodeInclusionPolicy enabled";
    c.preemptor = MakePod()
                      .Name("p")
                      .Label("foo", "")
                      .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                      .Obj();
    c.node_idx = 1;
    c.deleted_pod = MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj();
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("zone", "zone1").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Label("zone", "zone2").Obj()};
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "bar").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone2").Label("node", "node-b").Label("foo", "").Obj()};
    c.want = WantPreFilterState{.constraints = {kZoneConstraint},
                                .critical_paths = {{{"zone2", 0}, {"zone1", 1}}},
                                .tp_value_to_match_num = {{{"zone2", 0}, {"zone1", 1}}}};
    c.features.node_inclusion_policy = true;
  }
  return cases;
}

void RunAddPod(const AddPodCase& tc, Features features) {
  testing::FakeHandle h;
  h.SetCluster(tc.nodes, tc.existing_pods);
  auto p = NewPlugin(h, kListDefaulting, features);
  CycleState cs;
  const auto preemptor = Info(tc.preemptor);
  REQUIRE(p->PreFilter(cs, *preemptor, h.snapshot().nodes()).status.IsSuccess());
  const framework::NodeInfo* node = h.snapshot().Get(tc.nodes[tc.node_idx].metadata().name());
  REQUIRE(node != nullptr);
  const framework::Status s = p->GetPreFilterExtensions()->AddPod(cs, *preemptor, *Info(tc.added_pod), *node);
  REQUIRE(s.IsSuccess());
  CheckPreFilterState(*cs.Read<PodTopologySpread::PreFilterState>(PodTopologySpread::PreFilterStateKey()),
                      tc.want);
}

TEST_CASE("TestPreFilterStateAddPod", "[podtopologyspread][filter]") {
  for (const AddPodCase& tc : TestPreFilterStateAddPodCases()) {
    for (const auto& [features, suffix] : FeatureRuns(tc.name, tc.features)) {
      DYNAMIC_SECTION("TestPreFilterStateAddPod/" << tc.name << suffix) { RunAddPod(tc, features); }
    }
  }
}

void RunRemovePod(const RemovePodCase& tc, Features features) {
  testing::FakeHandle h;
  h.SetCluster(tc.nodes, tc.existing_pods);
  auto p = NewPlugin(h, kListDefaulting, features);
  CycleState cs;
  const auto preemptor = Info(tc.preemptor);
  REQUIRE(p->PreFilter(cs, *preemptor, h.snapshot().nodes()).status.IsSuccess());
  // As upstream's harness: an in-range index wins over deleted_pod.
  api::v1::Pod deleted = tc.deleted_pod;
  if (tc.deleted_pod_idx >= 0 && tc.deleted_pod_idx < static_cast<int>(tc.existing_pods.size())) {
    deleted = tc.existing_pods[tc.deleted_pod_idx];
  }
  const framework::NodeInfo* node = h.snapshot().Get(tc.nodes[tc.node_idx].metadata().name());
  REQUIRE(node != nullptr);
  const framework::Status s = p->GetPreFilterExtensions()->RemovePod(cs, *preemptor, *Info(deleted), *node);
  REQUIRE(s.IsSuccess());
  CheckPreFilterState(*cs.Read<PodTopologySpread::PreFilterState>(PodTopologySpread::PreFilterStateKey()),
                      tc.want);
}

TEST_CASE("TestPreFilterStateRemovePod", "[podtopologyspread][filter]") {
  for (const RemovePodCase& tc : TestPreFilterStateRemovePodCases()) {
    for (const auto& [features, suffix] : FeatureRuns(tc.name, tc.features)) {
      DYNAMIC_SECTION("TestPreFilterStateRemovePod/" << tc.name << suffix) { RunRemovePod(tc, features); }
    }
  }
}

TEST_CASE("PodTopologySpread keeps upstream's two critical paths through AddPod",
          "[podtopologyspread][filter]") {
  // Domains A:0, B:1, C:2. Upstream tracks two paths only, so after adding
  // pods to A, A, B, B, A its minimum reads 3 although C still has 2; the
  // Filter decisions that follow depend on that, so it is kept.
  testing::FakeHandle h;
  h.SetCluster(
      {MakeNode().Name("node-a").Label("zone", "A").Obj(), MakeNode().Name("node-b").Label("zone", "B").Obj(),
       MakeNode().Name("node-c").Label("zone", "C").Obj()},
      {MakePod().Name("b1").Node("node-b").Label("foo", "").Obj(),
       MakePod().Name("c1").Node("node-c").Label("foo", "").Obj(),
       MakePod().Name("c2").Node("node-c").Label("foo", "").Obj()});
  auto p = NewPlugin(h, kListDefaulting, Features{true, true});
  const auto pod = Info(MakePod()
                            .Name("p")
                            .Label("foo", "")
                            .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                            .Obj());
  CycleState cs;
  REQUIRE(p->PreFilter(cs, *pod, h.snapshot().nodes()).status.IsSuccess());
  const auto added = Info(MakePod().Name("x").Label("foo", "").Obj());
  for (const char* node : {"node-a", "node-a", "node-b", "node-b", "node-a"}) {
    REQUIRE(p->AddPod(cs, *pod, *added, *h.snapshot().Get(node)).IsSuccess());
  }
  const auto* s = cs.Read<PodTopologySpread::PreFilterState>(PodTopologySpread::PreFilterStateKey());
  CHECK(ToStringMap(s->tp_value_to_match_num[0]) ==
        std::map<std::string, int64_t>{{"A", 3}, {"B", 3}, {"C", 2}});
  CHECK(s->MinMatchNum(0) == 3);
  CHECK(p->Filter(cs, *pod, *h.snapshot().Get("node-a")).IsSuccess());
}

}  // namespace
}  // namespace schedkit::plugins::pts_test
