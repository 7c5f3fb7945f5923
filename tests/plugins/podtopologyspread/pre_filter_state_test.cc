// PodTopologySpread's PreFilter state: upstream v1.35.8 filtering_test.go's
// TestPreFilterState ported case by case, and the state's own properties
// (a deep clone, parallel counting, the empty selector).
//
// Each upstream case runs with the feature switches upstream's test gives it
// (feature.Features{} plus the case's flags), and, unless the case is about a
// disabled gate, a second time with v1.35's defaults, which must agree.
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

struct PreFilterStateCase {
  std::string name;
  api::v1::Pod pod;
  std::vector<api::v1::Node> nodes;
  std::vector<api::v1::Pod> existing_pods;
  Objects objs;
  std::string args = kListDefaulting;
  std::optional<WantPreFilterState> want;
  Code want_status = Code::kSuccess;
  Features features;
};

// Upstream TestPreFilterState, every case.
std::vector<PreFilterStateCase> TestPreFilterStateCases() {
  std::vector<PreFilterStateCase> cases;
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "clean cluster with one spreadConstraint";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(5, "zone", kDoNotSchedule, MakeLabelSelector().Label("foo", "bar").Obj(),
                                  kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.want =
        WantPreFilterState{.constraints = {WantConstraint{
                               5, "zone", MakeLabelSelector().Label("foo", "bar").Obj(), 1, true, false}},
                           .critical_paths = {{{"zone1", 0}, {"zone2", 0}}},
                           .tp_value_to_match_num = {{{"zone1", 0}, {"zone2", 0}}}};
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "normal case with one spreadConstraint";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{1, "zone", fooSelector, 1, true, false}},
                                .critical_paths = {{{"zone2", 2}, {"zone1", 3}}},
                                .tp_value_to_match_num = {{{"zone1", 3}, {"zone2", 2}}}};
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "normal case with null label selector";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, kNil, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{1, "zone", kNil, 1, true, false}},
                                .critical_paths = {{{"zone2", 0}, {"zone1", 0}}},
                                .tp_value_to_match_num = {{{"zone1", 0}, {"zone2", 0}}}};
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "normal case with one spreadConstraint, on a 3-zone cluster";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj(),
               MakeNode().Name("node-o").Label("zone", "zone3").Label("node", "node-o").Obj(),
               MakeNode().Name("node-p").Label("zone", "zone3").Label("node", "node-p").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{1, "zone", fooSelector, 1, true, false}},
                                .critical_paths = {{{"zone3", 0}, {"zone2", 2}}},
                                .tp_value_to_match_num = {{{"zone1", 3}, {"zone2", 2}, {"zone3", 0}}}};
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "namespace mismatch doesn't count";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Namespace("ns1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Namespace("ns2").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{1, "zone", fooSelector, 1, true, false}},
                                .critical_paths = {{{"zone2", 1}, {"zone1", 2}}},
                                .tp_value_to_match_num = {{{"zone1", 2}, {"zone2", 1}}}};
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "normal case with two spreadConstraints";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y4").Node("node-y").Label("foo", "").Obj()};
    c.want = WantPreFilterState{
        .constraints = {WantConstraint{1, "zone", fooSelector, 1, true, false},
                        WantConstraint{1, "node", fooSelector, 1, true, false}},
        .critical_paths = {{{"zone1", 3}, {"zone2", 4}}, {{"node-x", 0}, {"node-b", 1}}},
        .tp_value_to_match_num = {{{"zone1", 3}, {"zone2", 4}},
                                  {{"node-a", 2}, {"node-b", 1}, {"node-x", 0}, {"node-y", 4}}}};
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "soft spreadConstraints should be bypassed";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kScheduleAnyway, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y4").Node("node-y").Label("foo", "").Obj()};
    c.want =
        WantPreFilterState{.constraints = {WantConstraint{1, "zone", fooSelector, 1, true, false},
                                           WantConstraint{1, "node", fooSelector, 1, true, false}},
                           .critical_paths = {{{"zone1", 3}, {"zone2", 4}}, {{"node-b", 1}, {"node-a", 2}}},
                           .tp_value_to_match_num = {{{"zone1", 3}, {"zone2", 4}},
                                                     {{"node-a", 2}, {"node-b", 1}, {"node-y", 4}}}};
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "different labelSelectors - simple version";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Label("bar", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj()};
    c.want =
        WantPreFilterState{.constraints = {WantConstraint{1, "zone", fooSelector, 1, true, false},
                                           WantConstraint{1, "node", barSelector, 1, true, false}},
                           .critical_paths = {{{"zone2", 0}, {"zone1", 1}}, {{"node-a", 0}, {"node-y", 0}}},
                           .tp_value_to_match_num = {{{"zone1", 1}, {"zone2", 0}},
                                                     {{"node-a", 0}, {"node-b", 1}, {"node-y", 0}}}};
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "different labelSelectors - complex pods";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Label("bar", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y4").Node("node-y").Label("foo", "").Label("bar", "").Obj()};
    c.want =
        WantPreFilterState{.constraints = {WantConstraint{1, "zone", fooSelector, 1, true, false},
                                           WantConstraint{1, "node", barSelector, 1, true, false}},
                           .critical_paths = {{{"zone1", 3}, {"zone2", 4}}, {{"node-b", 0}, {"node-a", 1}}},
                           .tp_value_to_match_num = {{{"zone1", 3}, {"zone2", 4}},
                                                     {{"node-a", 1}, {"node-b", 0}, {"node-y", 2}}}};
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "two spreadConstraints, and with podAffinity";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeAffinityNotIn("node", {"node-x"})
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y4").Node("node-y").Label("foo", "").Obj()};
    c.want =
        WantPreFilterState{.constraints = {WantConstraint{1, "zone", fooSelector, 1, true, false},
                                           WantConstraint{1, "node", fooSelector, 1, true, false}},
                           .critical_paths = {{{"zone1", 3}, {"zone2", 4}}, {{"node-b", 1}, {"node-a", 2}}},
                           .tp_value_to_match_num = {{{"zone1", 3}, {"zone2", 4}},
                                                     {{"node-a", 2}, {"node-b", 1}, {"node-y", 4}}}};
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "default constraints and a service";
    c.pod = MakePod().Name("p").Label("foo", "bar").Label("baz", "kar").Obj();
    c.args =
        R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":3,"topologyKey":"node","whenUnsatisfiable":"DoNotSchedule"},{"maxSkew":2,"topologyKey":"node","whenUnsatisfiable":"ScheduleAnyway"},{"maxSkew":5,"topologyKey":"rack","whenUnsatisfiable":"DoNotSchedule"}]})";
    c.objs = Objects{.services = {Service{"default", {{"foo", "bar"}}}}, .replica_sets = {}};
    c.want = WantPreFilterState{
        .constraints = {WantConstraint{3, "node", MakeLabelSelector().Label("foo", "bar").Obj(), 1, true,
                                       false},
                        WantConstraint{5, "rack", MakeLabelSelector().Label("foo", "bar").Obj(), 1, true,
                                       false}},
        .critical_paths = {NewCriticalPaths(), NewCriticalPaths()},
        .tp_value_to_match_num = {{}, {}}};
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "default constraints and a service that doesn't match";
    c.pod = MakePod().Name("p").Label("foo", "bar").Obj();
    c.args =
        R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":3,"topologyKey":"node","whenUnsatisfiable":"DoNotSchedule"}]})";
    c.objs = Objects{.services = {Service{"default", {{"baz", "kep"}}}}, .replica_sets = {}};
    c.want_status = Code::kSkip;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "default constraints and a service, but pod has constraints";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "bar")
                .Label("baz", "tar")
                .SpreadConstraint(1, "zone", kDoNotSchedule, MakeLabelSelector().Label("baz", "tar").Obj(),
                                  kNil, kNil, kNil, {})
                .SpreadConstraint(2, "planet", kScheduleAnyway, MakeLabelSelector().Label("fot", "rok").Obj(),
                                  kNil, kNil, kNil, {})
                .Obj();
    c.args =
        R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":2,"topologyKey":"node","whenUnsatisfiable":"DoNotSchedule"}]})";
    c.objs = Objects{.services = {Service{"default", {{"foo", "bar"}}}}, .replica_sets = {}};
    c.want =
        WantPreFilterState{.constraints = {WantConstraint{
                               1, "zone", MakeLabelSelector().Label("baz", "tar").Obj(), 1, true, false}},
                           .critical_paths = {NewCriticalPaths()},
                           .tp_value_to_match_num = {{}}};
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "default soft constraints and a service";
    c.pod = MakePod().Name("p").Label("foo", "bar").Obj();
    c.args =
        R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":2,"topologyKey":"node","whenUnsatisfiable":"ScheduleAnyway"}]})";
    c.objs = Objects{.services = {Service{"default", {{"foo", "bar"}}}}, .replica_sets = {}};
    c.want_status = Code::kSkip;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "TpKeyToDomainsNum is calculated when MinDomains is enabled";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y4").Node("node-y").Label("foo", "").Obj()};
    c.want = WantPreFilterState{
        .constraints = {WantConstraint{1, "zone", fooSelector, 1, true, false},
                        WantConstraint{1, "node", fooSelector, 1, true, false}},
        .critical_paths = {{{"zone1", 3}, {"zone2", 4}}, {{"node-x", 0}, {"node-b", 1}}},
        .tp_value_to_match_num = {{{"zone1", 3}, {"zone2", 4}},
                                  {{"node-a", 2}, {"node-b", 1}, {"node-x", 0}, {"node-y", 4}}}};
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "feature gate disabled with NodeAffinityPolicy";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeSelector({{"foo", ""}})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
               MakeNode().Name("node-c").Label("node", "node-c").Label("bar", "").Obj()};
    c.existing_pods = {MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
                       MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-d").Node("node-c").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{1, "node", barSelector, 1, true, false}},
                                .critical_paths = {{{"node-a", 1}, {"node-b", 2}}},
                                .tp_value_to_match_num = {{{"node-a", 1}, {"node-b", 2}}}};
    c.features.node_inclusion_policy = false;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "NodeAffinityPolicy honored with labelSelectors";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeSelector({{"foo", ""}})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
               MakeNode().Name("node-c").Label("node", "node-c").Label("bar", "").Obj()};
    c.existing_pods = {MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
                       MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-d").Node("node-c").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{1, "node", barSelector, 1, true, false}},
                                .critical_paths = {{{"node-a", 1}, {"node-b", 2}}},
                                .tp_value_to_match_num = {{{"node-a", 1}, {"node-b", 2}}}};
    c.features.node_inclusion_policy = true;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "NodeAffinityPolicy ignored with labelSelectors";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeSelector({{"foo", ""}})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kIgnore, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
               MakeNode().Name("node-c").Label("node", "node-c").Label("bar", "").Obj()};
    c.existing_pods = {MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
                       MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-d").Node("node-c").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{1, "node", barSelector, 1, false, false}},
                                .critical_paths = {{{"node-c", 0}, {"node-a", 1}}},
                                .tp_value_to_match_num = {{{"node-a", 1}, {"node-b", 2}, {"node-c", 0}}}};
    c.features.node_inclusion_policy = true;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "NodeAffinityPolicy honored with nodeAffinity";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeAffinityIn("foo", {""})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
               MakeNode().Name("node-c").Label("node", "node-c").Label("bar", "").Obj()};
    c.existing_pods = {MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
                       MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-d").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-e").Node("node-c").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{1, "node", barSelector, 1, true, false}},
                                .critical_paths = {{{"node-a", 1}, {"node-b", 2}}},
                                .tp_value_to_match_num = {{{"node-a", 1}, {"node-b", 2}}}};
    c.features.node_inclusion_policy = true;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "NodeAffinityPolicy ignored with nodeAffinity";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeAffinityIn("foo", {""})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kIgnore, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
               MakeNode().Name("node-c").Label("node", "node-c").Label("bar", "").Obj()};
    c.existing_pods = {MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
                       MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-d").Node("node-c").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{1, "node", barSelector, 1, false, false}},
                                .critical_paths = {{{"node-c", 0}, {"node-a", 1}}},
                                .tp_value_to_match_num = {{{"node-a", 1}, {"node-b", 2}, {"node-c", 0}}}};
    c.features.node_inclusion_policy = true;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "feature gate disabled with NodeTaintsPolicy";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Obj(),
               MakeNode()
                   .Name("node-c")
                   .Label("node", "node-c")
                   .Taint(kUnschedulableTaint, "", "NoSchedule")
                   .Label("bar", "")
                   .Obj()};
    c.existing_pods = {MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
                       MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-d").Node("node-c").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{1, "node", barSelector, 1, true, false}},
                                .critical_paths = {{{"node-c", 0}, {"node-a", 1}}},
                                .tp_value_to_match_num = {{{"node-a", 1}, {"node-b", 2}, {"node-c", 0}}}};
    c.features.node_inclusion_policy = false;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "NodeTaintsPolicy ignored";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Obj(),
               MakeNode()
                   .Name("node-c")
                   .Label("node", "node-c")
                   .Taint(kUnschedulableTaint, "", "NoSchedule")
                   .Label("bar", "")
                   .Obj()};
    c.existing_pods = {MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
                       MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-d").Node("node-c").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{1, "node", barSelector, 1, true, false}},
                                .critical_paths = {{{"node-c", 0}, {"node-a", 1}}},
                                .tp_value_to_match_num = {{{"node-a", 1}, {"node-b", 2}, {"node-c", 0}}}};
    c.features.node_inclusion_policy = true;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "NodeTaintsPolicy honored";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kHonor, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Obj(),
               MakeNode()
                   .Name("node-c")
                   .Label("node", "node-c")
                   .Taint(kUnschedulableTaint, "", "NoSchedule")
                   .Label("bar", "")
                   .Obj()};
    c.existing_pods = {MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
                       MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-d").Node("node-c").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{1, "node", barSelector, 1, true, true}},
                                .critical_paths = {{{"node-a", 1}, {"node-b", 2}}},
                                .tp_value_to_match_num = {{{"node-a", 1}, {"node-b", 2}}}};
    c.features.node_inclusion_policy = true;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "NodeTaintsPolicy honored with tolerated taints";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Toleration(kUnschedulableTaint)
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kHonor, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Obj(),
               MakeNode()
                   .Name("node-c")
                   .Label("node", "node-c")
                   .Taint(kUnschedulableTaint, "", "NoSchedule")
                   .Label("bar", "")
                   .Obj()};
    c.existing_pods = {MakePod().Name("p-a").Node("node-a").Label("bar", "").Obj(),
                       MakePod().Name("p-b").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-c").Node("node-b").Label("bar", "").Obj(),
                       MakePod().Name("p-d").Node("node-c").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{1, "node", barSelector, 1, true, true}},
                                .critical_paths = {{{"node-c", 0}, {"node-a", 1}}},
                                .tp_value_to_match_num = {{{"node-a", 1}, {"node-b", 2}, {"node-c", 0}}}};
    c.features.node_inclusion_policy = true;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeSelector({{"foo", ""}})
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kIgnore, kNil, {})
                .Obj();
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
        MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj()};
    c.existing_pods = {MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj()};
    c.want =
        WantPreFilterState{.constraints = {WantConstraint{1, "zone", fooSelector, 1, true, false},
                                           WantConstraint{1, "node", fooSelector, 1, false, false}},
                           .critical_paths = {{{"zone1", 0}, {"zone2", 1}}, {{"node-a", 0}, {"node-x", 1}}},
                           .tp_value_to_match_num = {{{"zone1", 0}, {"zone2", 1}},
                                                     {{"node-a", 0}, {"node-b", 2}, {"node-x", 1}}}};
    c.features.node_inclusion_policy = true;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "two node inclusion Constraints, zone: honor/honor, node: honor/ignore";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kHonor, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "").Obj(),
        MakeNode()
            .Name("node-b")
            .Label("zone", "zone1")
            .Label("node", "node-b")
            .Taint(kUnschedulableTaint, "", "NoSchedule")
            .Obj(),
        MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj()};
    c.existing_pods = {MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj()};
    c.want =
        WantPreFilterState{.constraints = {WantConstraint{1, "zone", fooSelector, 1, true, true},
                                           WantConstraint{1, "node", fooSelector, 1, true, false}},
                           .critical_paths = {{{"zone1", 0}, {"zone2", 1}}, {{"node-a", 0}, {"node-x", 1}}},
                           .tp_value_to_match_num = {{{"zone1", 0}, {"zone2", 1}},
                                                     {{"node-a", 0}, {"node-b", 2}, {"node-x", 1}}}};
    c.features.node_inclusion_policy = true;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "two node inclusion Constraints, zone: honor/ignore, node: honor/ignore";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeSelector({{"foo", ""}})
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
        MakeNode()
            .Name("node-b")
            .Label("zone", "zone1")
            .Label("node", "node-b")
            .Label("foo", "")
            .Taint(kUnschedulableTaint, "", "NoSchedule")
            .Obj(),
        MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
        MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want = WantPreFilterState{
        .constraints = {WantConstraint{1, "zone", fooSelector, 1, true, false},
                        WantConstraint{1, "node", fooSelector, 1, true, false}},
        .critical_paths = {{{"zone1", 0}, {"zone2", 1}}, {{"node-b", 0}, {"node-x", 1}}},
        .tp_value_to_match_num = {{{"zone1", 0}, {"zone2", 1}}, {{"node-b", 0}, {"node-x", 1}}}};
    c.features.node_inclusion_policy = true;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "two node inclusion Constraints, zone: ignore/ignore, node: honor/honor";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeSelector({{"foo", ""}})
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kIgnore, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kHonor, {})
                .Obj();
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
        MakeNode()
            .Name("node-b")
            .Label("zone", "zone1")
            .Label("node", "node-b")
            .Label("foo", "")
            .Taint(kUnschedulableTaint, "", "NoSchedule")
            .Obj(),
        MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
        MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Label("foo", "").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
                       MakePod().Name("p-x2").Node("node-x").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want = WantPreFilterState{
        .constraints = {WantConstraint{1, "zone", fooSelector, 1, false, false},
                        WantConstraint{1, "node", fooSelector, 1, true, true}},
        .critical_paths = {{{"zone1", 2}, {"zone2", 3}}, {{"node-y", 1}, {"node-x", 2}}},
        .tp_value_to_match_num = {{{"zone1", 2}, {"zone2", 3}}, {{"node-x", 2}, {"node-y", 1}}}};
    c.features.node_inclusion_policy = true;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "matchLabelKeys ignored when feature gate disabled";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Label("bar", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {"bar"})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{1, "zone", fooSelector, 1, true, false}},
                                .critical_paths = {{{"zone2", 2}, {"zone1", 3}}},
                                .tp_value_to_match_num = {{{"zone1", 3}, {"zone2", 2}}}};
    c.features.match_label_keys = false;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Label("bar", "a")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {"bar"})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Label("bar", "a").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Label("bar", "a").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("bar", "").Obj()};
    c.want = WantPreFilterState{
        .constraints = {WantConstraint{1, "zone", MakeLabelSelector().Exists("foo").Label("bar", "a").Obj(),
                                       1, true, false}},
        .critical_paths = {{{"zone2", 1}, {"zone1", 1}}},
        .tp_value_to_match_num = {{{"zone1", 1}, {"zone2", 1}}}};
    c.features.match_label_keys = true;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "matchLabelKeys ANDed with LabelSelector when LabelSelector is empty";
    c.pod =
        MakePod()
            .Name("p")
            .Label("foo", "a")
            .SpreadConstraint(1, "zone", kDoNotSchedule, MakeLabelSelector().Obj(), kNil, kNil, kNil, {"foo"})
            .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "a").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "a").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "a").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "a").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "a").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{
                                    1, "zone", MakeLabelSelector().Label("foo", "a").Obj(), 1, true, false}},
                                .critical_paths = {{{"zone2", 2}, {"zone1", 3}}},
                                .tp_value_to_match_num = {{{"zone1", 3}, {"zone2", 2}}}};
    c.features.match_label_keys = true;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "key in matchLabelKeys is ignored when LabelSelector is nil when feature gate enabled";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, kNil, kNil, kNil, kNil, {"bar"})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "a").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "a").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "a").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "a").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "a").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{1, "zone", kNil, 1, true, false}},
                                .critical_paths = {{{"zone2", 0}, {"zone1", 0}}},
                                .tp_value_to_match_num = {{{"zone1", 0}, {"zone2", 0}}}};
    c.features.match_label_keys = true;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "no pod is matched when LabelSelector is nil when feature gate disabled";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, kNil, kNil, kNil, kNil, {"bar"})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "a").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "a").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "a").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "a").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "a").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{1, "zone", kNil, 1, true, false}},
                                .critical_paths = {{{"zone2", 0}, {"zone1", 0}}},
                                .tp_value_to_match_num = {{{"zone1", 0}, {"zone2", 0}}}};
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "key in matchLabelKeys is ignored when it isn't exist in pod.labels";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {"bar"})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "a").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "a").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "a").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "a").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "a").Obj()};
    c.want = WantPreFilterState{.constraints = {WantConstraint{1, "zone", fooSelector, 1, true, false}},
                                .critical_paths = {{{"zone2", 2}, {"zone1", 3}}},
                                .tp_value_to_match_num = {{{"zone1", 3}, {"zone2", 2}}}};
    c.features.match_label_keys = true;
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "two spreadConstraints with the same topologyKey";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Label("bar", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "zone", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("bar", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("bar", "").Obj()};
    c.want = WantPreFilterState{
        .constraints = {WantConstraint{1, "zone", fooSelector, 1, true, false},
                        WantConstraint{1, "zone", barSelector, 1, true, false}},
        .critical_paths = {{{"zone2", 1}, {"zone1", 2}}, {{"zone1", 1}, {"zone2", 3}}},
        .tp_value_to_match_num = {{{"zone1", 2}, {"zone2", 1}}, {{"zone1", 1}, {"zone2", 3}}}};
  }
  {
    PreFilterStateCase& c = cases.emplace_back();
    c.name = "skip if not specified";
    c.pod = MakePod().Name("p").Label("foo", "").Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj()};
    c.want_status = Code::kSkip;
  }
  return cases;
}

void RunPreFilterState(const PreFilterStateCase& tc, Features features) {
  testing::FakeHandle h;
  h.SetCluster(tc.nodes, tc.existing_pods);
  auto p = NewPlugin(h, tc.args, features, tc.objs);
  CycleState cs;
  const auto pod = Info(tc.pod);
  const auto r = p->PreFilter(cs, *pod, h.snapshot().nodes());
  CHECK(r.result.AllNodes());
  REQUIRE(CodeText(r.status.code()) == CodeText(tc.want_status));
  if (!r.status.IsSuccess()) return;
  const auto* got = cs.Read<PodTopologySpread::PreFilterState>(PodTopologySpread::PreFilterStateKey());
  REQUIRE(got != nullptr);
  REQUIRE(tc.want.has_value());
  CheckPreFilterState(*got, *tc.want);
}

TEST_CASE("TestPreFilterState", "[podtopologyspread][filter]") {
  for (const PreFilterStateCase& tc : TestPreFilterStateCases()) {
    for (const auto& [features, suffix] : FeatureRuns(tc.name, tc.features)) {
      DYNAMIC_SECTION("TestPreFilterState/" << tc.name << suffix) { RunPreFilterState(tc, features); }
    }
  }
}

TEST_CASE("PodTopologySpread PreFilterState clone is deep", "[podtopologyspread][filter]") {
  testing::FakeHandle h;
  h.SetCluster({MakeNode().Name("node-a").Label("zone", "zone1").Obj(),
                MakeNode().Name("node-b").Label("zone", "zone2").Obj()},
               {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj()});
  auto p = NewPlugin(h, kListDefaulting, Features{true, true});
  const auto pod = Info(MakePod()
                            .Name("p")
                            .Label("foo", "")
                            .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                            .Obj());
  CycleState cs;
  REQUIRE(p->PreFilter(cs, *pod, h.snapshot().nodes()).status.IsSuccess());
  std::unique_ptr<CycleState> clone = cs.Clone();
  const auto added = Info(MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj());
  REQUIRE(p->AddPod(*clone, *pod, *added, *h.snapshot().Get("node-b")).IsSuccess());
  REQUIRE(p->AddPod(*clone, *pod, *added, *h.snapshot().Get("node-b")).IsSuccess());
  const auto key = PodTopologySpread::PreFilterStateKey();
  CHECK(ToStringMap(cs.Read<PodTopologySpread::PreFilterState>(key)->tp_value_to_match_num[0]) ==
        std::map<std::string, int64_t>{{"zone1", 1}, {"zone2", 0}});
  CHECK(ToStringMap(clone->Read<PodTopologySpread::PreFilterState>(key)->tp_value_to_match_num[0]) ==
        std::map<std::string, int64_t>{{"zone1", 1}, {"zone2", 2}});
  // zone2 now exceeds zone1 by 1 on the clone: node-b fails there only.
  CHECK(p->Filter(cs, *pod, *h.snapshot().Get("node-b")).IsSuccess());
  CHECK(p->Filter(*clone, *pod, *h.snapshot().Get("node-b")).code() == Code::kUnschedulable);
}

TEST_CASE("PodTopologySpread PreFilter counts in parallel as sequentially", "[podtopologyspread][filter]") {
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
  const auto pod = Info(MakePod()
                            .Name("p")
                            .Label("foo", "")
                            .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                            .SpreadConstraint(2, kHostname, kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                            .Obj());
  std::vector<std::map<std::string, int64_t>> results[2];
  for (int run = 0; run < 2; ++run) {
    testing::FakeHandle h(run == 0 ? 1 : 8);
    h.SetCluster(nodes, pods);
    auto p = NewPlugin(h, kListDefaulting, Features{true, true});
    CycleState cs;
    REQUIRE(p->PreFilter(cs, *pod, h.snapshot().nodes()).status.IsSuccess());
    for (const auto& m : cs.Read<PodTopologySpread::PreFilterState>(PodTopologySpread::PreFilterStateKey())
                             ->tp_value_to_match_num) {
      results[run].push_back(ToStringMap(m));
    }
  }
  CHECK(results[0] == results[1]);
  CHECK(results[0][0].size() == 7);
  CHECK(results[0][1].size() == 200);
}

TEST_CASE("PodTopologySpread empty selector counts no existing pods, as upstream",
          "[podtopologyspread][filter]") {
  // labelSelector {} matches every pod, yet upstream's countPodsMatchSelector
  // returns 0 for it (Selector.Empty()); the pod still matches itself, and
  // AddPod still counts (it applies the selector directly).
  testing::FakeHandle h;
  h.SetCluster({MakeNode().Name("node-a").Label("zone", "zone1").Obj(),
                MakeNode().Name("node-b").Label("zone", "zone2").Obj()},
               {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj()});
  auto p = NewPlugin(h, kListDefaulting, Features{true, true});
  const auto pod =
      Info(MakePod()
               .Name("p")
               .Label("foo", "")
               .SpreadConstraint(1, "zone", kDoNotSchedule, MakeLabelSelector().Obj(), kNil, kNil, kNil, {})
               .Obj());
  CycleState cs;
  REQUIRE(p->PreFilter(cs, *pod, h.snapshot().nodes()).status.IsSuccess());
  const auto key = PodTopologySpread::PreFilterStateKey();
  CHECK(ToStringMap(cs.Read<PodTopologySpread::PreFilterState>(key)->tp_value_to_match_num[0]) ==
        std::map<std::string, int64_t>{{"zone1", 0}, {"zone2", 0}});
  CHECK(p->Filter(cs, *pod, *h.snapshot().Get("node-a")).IsSuccess());
  const auto added = Info(MakePod().Name("p-b1").Node("node-b").Label("bar", "").Obj());
  REQUIRE(p->AddPod(cs, *pod, *added, *h.snapshot().Get("node-b")).IsSuccess());
  CHECK(ToStringMap(cs.Read<PodTopologySpread::PreFilterState>(key)->tp_value_to_match_num[0]) ==
        std::map<std::string, int64_t>{{"zone1", 0}, {"zone2", 1}});
}

}  // namespace
}  // namespace schedkit::plugins::pts_test
