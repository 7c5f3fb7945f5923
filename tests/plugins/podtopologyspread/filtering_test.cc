// PodTopologySpread filter side: upstream v1.35.8 filtering_test.go ported
// case by case (TestPreFilterState, TestPreFilterStateAddPod,
// TestPreFilterStateRemovePod, TestSingleConstraint, TestMultipleConstraints,
// TestPreFilterDisabled, and the PreFilter half of TestPodTopoSignatures).
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

namespace schedkit::plugins::pts_test {
namespace {

using framework::CycleState;
using framework::PodInfo;

const WantConstraint kNodeConstraint{1, "node", fooSelector, 1, true, false};
const WantConstraint kZoneConstraint{1, "zone", fooSelector, 1, true, false};

// The feature sets a case runs with: upstream's, then v1.35's defaults.
std::vector<std::pair<Features, std::string>> FeatureRuns(const std::string& name, Features upstream) {
  std::vector<std::pair<Features, std::string>> runs = {{upstream, ""}};
  if (name.find("disabled") == std::string::npos) runs.push_back({Features{true, true}, " [v1.35 defaults]"});
  return runs;
}

framework::PodInfoPtr Info(const api::v1::Pod& pod) {
  auto info = PodInfo::Create(pod);
  REQUIRE(info.ok());
  return *info;
}

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

struct FilterCase {
  std::string name;
  api::v1::Pod pod;
  std::vector<api::v1::Node> nodes;
  std::vector<api::v1::Pod> existing_pods;
  std::map<std::string, Code> want_codes;
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

// Upstream TestSingleConstraint, every case.
std::vector<FilterCase> TestSingleConstraintCases() {
  std::vector<FilterCase> cases;
  {
    FilterCase& c = cases.emplace_back();
    c.name = "no existing pods";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.want_codes = {{"node-a", Code::kSuccess},
                    {"node-b", Code::kSuccess},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kSuccess}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "no existing pods, incoming pod doesn't match itself";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.want_codes = {{"node-a", Code::kSuccess},
                    {"node-b", Code::kSuccess},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kSuccess}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "existing pods in a different namespace do not count";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Namespace("ns1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Namespace("ns2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kSuccess},
                    {"node-b", Code::kSuccess},
                    {"node-x", Code::kUnschedulable},
                    {"node-y", Code::kUnschedulable}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "existing pods do not match null selector";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, kNil, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kSuccess},
                    {"node-b", Code::kSuccess},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kSuccess}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "pods spread across zones as 3/3, all nodes fit";
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
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kSuccess},
                    {"node-b", Code::kSuccess},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kSuccess}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "pods spread across zones as 1/2 due to absence of label 'zone' on node-b";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zon", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kSuccess},
                    {"node-b", Code::kUnschedulableAndUnresolvable},
                    {"node-x", Code::kUnschedulable},
                    {"node-y", Code::kUnschedulable}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "pod cannot be scheduled as all nodes don't have label 'rack'";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "rack", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulableAndUnresolvable},
                    {"node-x", Code::kUnschedulableAndUnresolvable}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "pods spread across nodes as 2/1/0/3, only node-x fits";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
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
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kUnschedulable},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kUnschedulable}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(2, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
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
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kSuccess},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kUnschedulable}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "pods spread across nodes as 2/1/0/3, but pod doesn't match itself";
    c.pod = MakePod()
                .Name("p")
                .Label("bar", "")
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
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kSuccess},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kUnschedulable}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeAffinityIn("node", {"node-a", "node-y"})
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
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kSuccess},
                    {"node-b", Code::kSuccess},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kUnschedulable}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "terminating Pods should be excluded";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Obj()};
    c.existing_pods = {MakePod().Name("p-a").Node("node-a").Label("foo", "").Terminating().Obj(),
                       MakePod().Name("p-b").Node("node-b").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kSuccess}, {"node-b", Code::kUnschedulable}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeAffinityNotIn("node", {"node-b"})
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kSuccess},
                    {"node-b", Code::kSuccess},
                    {"node-x", Code::kUnschedulable},
                    {"node-y", Code::kUnschedulable}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name =
        "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the "
        "third node fits";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(2, "node", kDoNotSchedule, fooSelector, 4, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Obj(),
               MakeNode().Name("node-c").Label("node", "node-c").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj()};
    c.want_codes = {
        {"node-a", Code::kUnschedulable}, {"node-b", Code::kUnschedulable}, {"node-c", Code::kSuccess}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name =
        "pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the "
        "all nodes fit";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(2, "node", kDoNotSchedule, fooSelector, 2, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Obj(),
               MakeNode().Name("node-c").Label("node", "node-c").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-c1").Node("node-c").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kSuccess}, {"node-b", Code::kSuccess}, {"node-c", Code::kSuccess}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name =
        "pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third "
        "and fourth nodes fit";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(2, "zone", kDoNotSchedule, fooSelector, 3, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kUnschedulable},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kSuccess}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name =
        "pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, then the all "
        "nodes fit";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(2, "zone", kDoNotSchedule, fooSelector, 1, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kSuccess},
                    {"node-b", Code::kSuccess},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kSuccess}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "NodeAffinityPolicy honored with labelSelectors";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeSelector({{"foo", ""}})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
               MakeNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
               MakeNode().Name("node-y").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kUnschedulable},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kSuccess}};
    c.features.node_inclusion_policy = true;
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "NodeAffinityPolicy ignored with labelSelectors";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeSelector({{"foo", ""}})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kIgnore, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
               MakeNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
               MakeNode().Name("node-y").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kUnschedulable},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kUnschedulable}};
    c.features.node_inclusion_policy = true;
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "NodeAffinityPolicy honored with nodeAffinity";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeAffinityIn("foo", {""})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
               MakeNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
               MakeNode().Name("node-y").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kUnschedulable},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kSuccess}};
    c.features.node_inclusion_policy = true;
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "NodeAffinityPolicy ignored with labelSelectors";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeAffinityIn("foo", {""})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kIgnore, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
               MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
               MakeNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
               MakeNode().Name("node-y").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kUnschedulable},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kUnschedulable}};
    c.features.node_inclusion_policy = true;
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "NodeTaintsPolicy honored";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kHonor, {})
                .Obj();
    c.nodes = {
        MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
        MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
        MakeNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
        MakeNode().Name("node-y").Label("node", "node-y").Taint(kUnschedulableTaint, "", "NoSchedule").Obj()};
    c.existing_pods = {MakePod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kUnschedulable},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kSuccess}};
    c.features.node_inclusion_policy = true;
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "NodeTaintsPolicy ignored";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {
        MakeNode().Name("node-a").Label("node", "node-a").Label("foo", "").Obj(),
        MakeNode().Name("node-b").Label("node", "node-b").Label("foo", "").Obj(),
        MakeNode().Name("node-x").Label("node", "node-x").Label("foo", "").Obj(),
        MakeNode().Name("node-y").Label("node", "node-y").Taint(kUnschedulableTaint, "", "NoSchedule").Obj()};
    c.existing_pods = {MakePod().Name("p-b1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b2").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kUnschedulable},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kUnschedulable}};
    c.features.node_inclusion_policy = true;
  }
  return cases;
}

// Upstream TestMultipleConstraints, every case.
std::vector<FilterCase> TestMultipleConstraintsCases() {
  std::vector<FilterCase> cases;
  {
    FilterCase& c = cases.emplace_back();
    c.name = "two Constraints on zone and node, spreads = [3/3, 2/1/0/3]";
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
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kUnschedulable},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kUnschedulable}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "two Constraints on zone and node, spreads = [3/4, 2/1/0/4]";
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
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kUnschedulable},
                    {"node-x", Code::kUnschedulable},
                    {"node-y", Code::kUnschedulable}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Label("bar", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("bar", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kUnschedulable},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kUnschedulable}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Label("bar", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("bar", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("bar", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kUnschedulable},
                    {"node-x", Code::kUnschedulable},
                    {"node-y", Code::kUnschedulable}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Label("bar", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kSuccess},
                    {"node-x", Code::kUnschedulable},
                    {"node-y", Code::kUnschedulable}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint";
    c.pod = MakePod()
                .Name("p")
                .Label("bar", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-x1").Node("node-x").Label("bar", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("bar", "").Obj()};
    c.want_codes = {{"node-a", Code::kSuccess},
                    {"node-b", Code::kSuccess},
                    {"node-x", Code::kUnschedulable},
                    {"node-y", Code::kUnschedulable}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kSuccess},
                    {"node-x", Code::kUnschedulableAndUnresolvable},
                    {"node-y", Code::kUnschedulable}};
  }
  {
    FilterCase& c = cases.emplace_back();
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
        MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Label("foo", "").Obj(),
        MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
        MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kUnschedulable},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kUnschedulable}};
    c.features.node_inclusion_policy = true;
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "two node inclusion Constraints, zone: honor/honor, node: honor/ignore";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kHonor, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Label("foo", "").Obj(),
        MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
        MakeNode()
            .Name("node-y")
            .Label("zone", "zone2")
            .Label("node", "node-y")
            .Taint(kUnschedulableTaint, "", "NoSchedule")
            .Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kUnschedulable},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kUnschedulable}};
    c.features.node_inclusion_policy = true;
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "two node inclusion Constraints, zone: honor/ignore, node: honor/ignore";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeSelector({{"foo", ""}})
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
        MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
        MakeNode()
            .Name("node-y")
            .Label("zone", "zone2")
            .Label("node", "node-y")
            .Label("foo", "")
            .Taint(kUnschedulableTaint, "", "NoSchedule")
            .Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kSuccess},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kUnschedulable}};
    c.features.node_inclusion_policy = true;
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "two node inclusion Constraints, zone: honor/honor, node: ignore/ignore";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .NodeSelector({{"foo", ""}})
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kHonor, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kIgnore, kNil, {})
                .Obj();
    c.nodes = {
        MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Label("foo", "").Obj(),
        MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
        MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Label("foo", "").Obj(),
        MakeNode()
            .Name("node-y")
            .Label("zone", "zone2")
            .Label("node", "node-y")
            .Label("foo", "")
            .Taint(kUnschedulableTaint, "", "NoSchedule")
            .Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kUnschedulable},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kUnschedulable}};
    c.features.node_inclusion_policy = true;
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "two Constraints on zone, spreads = [3/3, 2/1]";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Label("bar", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kUnschedulable},
                    {"node-x", Code::kSuccess},
                    {"node-y", Code::kSuccess}};
  }
  {
    FilterCase& c = cases.emplace_back();
    c.name = "two Constraints on zone, spreads = [3/4, 2/1]";
    c.pod = MakePod()
                .Name("p")
                .Label("foo", "")
                .Label("bar", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.nodes = {MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node-a").Obj(),
               MakeNode().Name("node-b").Label("zone", "zone1").Label("node", "node-b").Obj(),
               MakeNode().Name("node-x").Label("zone", "zone2").Label("node", "node-x").Obj(),
               MakeNode().Name("node-y").Label("zone", "zone2").Label("node", "node-y").Obj()};
    c.existing_pods = {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-a2").Node("node-a").Label("foo", "").Obj(),
                       MakePod().Name("p-b1").Node("node-b").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-y1").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y2").Node("node-y").Label("foo", "").Label("bar", "").Obj(),
                       MakePod().Name("p-y3").Node("node-y").Label("foo", "").Obj(),
                       MakePod().Name("p-y4").Node("node-y").Label("foo", "").Obj()};
    c.want_codes = {{"node-a", Code::kUnschedulable},
                    {"node-b", Code::kUnschedulable},
                    {"node-x", Code::kUnschedulable},
                    {"node-y", Code::kUnschedulable}};
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

// Upstream checks codes; the reasons follow from them (two constant texts).
std::string WantReason(Code code) {
  switch (code) {
    case Code::kUnschedulable:
      return "node(s) didn't match pod topology spread constraints";
    case Code::kUnschedulableAndUnresolvable:
      return "node(s) didn't match pod topology spread constraints (missing required label)";
    default:
      return "";
  }
}

void RunFilter(const FilterCase& tc, Features features) {
  testing::FakeHandle h;
  h.SetCluster(tc.nodes, tc.existing_pods);
  auto p = NewPlugin(h, kListDefaulting, features);
  CycleState cs;
  const auto pod = Info(tc.pod);
  REQUIRE(p->PreFilter(cs, *pod, h.snapshot().nodes()).status.IsSuccess());
  for (const auto& n : tc.nodes) {
    const std::string& name = n.metadata().name();
    INFO("node " << name);
    const framework::Status s = p->Filter(cs, *pod, *h.snapshot().Get(name));
    const Code want = tc.want_codes.at(name);
    CHECK(CodeText(s.code()) == CodeText(want));
    CHECK(s.Message() == WantReason(want));
    CHECK(testing::FilterThroughBatch(*p, cs, *pod, *h.snapshot().Get(name)) == s);
  }
  // One batch call over every node: topology values repeat across the run,
  // which FilterNodes' per-run verdicts rely on.
  std::vector<const framework::NodeInfo*> run;
  for (const auto& n : tc.nodes) run.push_back(h.snapshot().Get(n.metadata().name()));
  std::vector<uint8_t> passing(run.size(), 1);
  std::vector<framework::Status> statuses(run.size());
  p->FilterNodes(cs, *pod, run, passing, statuses);
  for (size_t k = 0; k < run.size(); ++k) {
    INFO("node " << run[k]->name().str() << " in the batch");
    const framework::Status s = p->Filter(cs, *pod, *run[k]);
    CHECK(passing[k] == (s.IsSuccess() ? 1 : 0));
    CHECK(statuses[k] == (s.IsSuccess() ? framework::Status() : s));
  }
}

TEST_CASE("TestSingleConstraint", "[podtopologyspread][filter]") {
  for (const FilterCase& tc : TestSingleConstraintCases()) {
    for (const auto& [features, suffix] : FeatureRuns(tc.name, tc.features)) {
      DYNAMIC_SECTION("TestSingleConstraint/" << tc.name << suffix) { RunFilter(tc, features); }
      FilterCase renamed = tc;
      if (!RenameZoneKeys(renamed)) continue;
      DYNAMIC_SECTION("TestSingleConstraint/" << tc.name << suffix << " (" << kZone << ")") { RunFilter(renamed, features); }
    }
  }
}

TEST_CASE("TestMultipleConstraints", "[podtopologyspread][filter]") {
  for (const FilterCase& tc : TestMultipleConstraintsCases()) {
    for (const auto& [features, suffix] : FeatureRuns(tc.name, tc.features)) {
      DYNAMIC_SECTION("TestMultipleConstraints/" << tc.name << suffix) { RunFilter(tc, features); }
      FilterCase renamed = tc;
      if (!RenameZoneKeys(renamed)) continue;
      DYNAMIC_SECTION("TestMultipleConstraints/" << tc.name << suffix << " (" << kZone << ")") { RunFilter(renamed, features); }
    }
  }
}

TEST_CASE("TestPreFilterDisabled", "[podtopologyspread][filter]") {
  // Filter without PreFilter's state is an error (upstream: ErrNotFound).
  testing::FakeHandle h;
  h.SetCluster({}, {});
  auto p = NewPlugin(h, kListDefaulting, Features{});
  CycleState cs;
  const framework::NodeInfo node = MakeNode().Info();
  const framework::Status s = p->Filter(cs, *Info(api::v1::Pod()), node);
  CHECK(s.code() == Code::kError);
  CHECK(s.Message() == "reading \"PreFilterPodTopologySpread\" from cycleState: not found");
}

// Upstream's TestPodTopoSignatures also checks SignPod, an extension point
// schedkit's framework does not have; its PreFilter half is ported.
TEST_CASE("TestPodTopoSignatures", "[podtopologyspread][filter]") {
  struct Case {
    std::string name;
    api::v1::Pod pod;
    std::string args;
  };
  api::v1::Pod with_constraint;
  with_constraint.mutable_spec()->add_topology_spread_constraints()->set_topology_key("test");
  const std::vector<Case> cases = {
      {"pod w constraints", with_constraint, kSystemDefaulting},
      {"pod no constraints but default", api::v1::Pod(), kSystemDefaulting},
      {"pod no constraints no default", api::v1::Pod(),
       R"({"defaultingType":"List","defaultConstraints":[]})"},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestPodTopoSignatures/" << tc.name) {
      testing::FakeHandle h;
      h.SetCluster({}, {});
      auto p = NewPlugin(h, tc.args, Features{});
      CycleState cs;
      const auto r = p->PreFilter(cs, *Info(tc.pod), {});
      CHECK(r.status.code() != Code::kError);
    }
  }
}

TEST_CASE("PodTopologySpread Filter with v1.35 defaults from the factory", "[podtopologyspread][filter]") {
  // NewPodTopologySpread (no options): gates on, default selector empty.
  testing::FakeHandle h;
  h.SetCluster({MakeNode().Name("node-a").Label("zone", "zone1").Label("foo", "").Obj(),
                MakeNode().Name("node-b").Label("zone", "zone2").Obj()},
               {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("bar", "x").Obj()});
  auto plugin = NewPodTopologySpread(framework::PluginArgs(), h);
  REQUIRE(plugin.ok());
  auto* p = dynamic_cast<PodTopologySpread*>(plugin->get());
  REQUIRE(p != nullptr);
  CHECK(p->Name() == "PodTopologySpread");
  // matchLabelKeys on: only pods with bar=y count, so zone1 has none.
  const auto pod =
      Info(MakePod()
               .Name("p")
               .Label("foo", "")
               .Label("bar", "y")
               .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {"bar"})
               .Obj());
  CycleState cs;
  REQUIRE(p->PreFilter(cs, *pod, h.snapshot().nodes()).status.IsSuccess());
  CHECK(p->Filter(cs, *pod, *h.snapshot().Get("node-a")).IsSuccess());
  CHECK(p->Filter(cs, *pod, *h.snapshot().Get("node-b")).IsSuccess());
  // System defaulting with no Services or ReplicaSets: no constraints, Skip.
  const auto plain = Info(MakePod().Name("q").Label("foo", "").Obj());
  CycleState cs2;
  CHECK(p->PreFilter(cs2, *plain, h.snapshot().nodes()).status.code() == Code::kSkip);
  CHECK(p->PreScore(cs2, *plain, h.snapshot().nodes()).code() == Code::kSkip);
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
