// PodTopologySpread filter side: upstream v1.35.8 filtering_test.go ported
// case by case (TestSingleConstraint, TestMultipleConstraints,
// TestPreFilterDisabled, and the PreFilter half of TestPodTopoSignatures).
// The PreFilter state's own cases are in pre_filter_state_test.cc, AddPod
// and RemovePod in pre_filter_extensions_test.cc.
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

struct FilterCase {
  std::string name;
  api::v1::Pod pod;
  std::vector<api::v1::Node> nodes;
  std::vector<api::v1::Pod> existing_pods;
  std::map<std::string, Code> want_codes;
  Features features;
};

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

// Two zones; p-a1 (foo, bar=x) runs in zone1. The pod spreads foo pods by
// zone with matchLabelKeys [bar], so with the keys read only bar=y pods count.
void SetMatchLabelKeysCluster(testing::FakeHandle& h) {
  h.SetCluster({MakeNode().Name("node-a").Label("zone", "zone1").Label("foo", "").Obj(),
                MakeNode().Name("node-b").Label("zone", "zone2").Obj()},
               {MakePod().Name("p-a1").Node("node-a").Label("foo", "").Label("bar", "x").Obj()});
}

framework::PodInfoPtr MatchLabelKeysPod() {
  return Info(MakePod()
                  .Name("p")
                  .Label("foo", "")
                  .Label("bar", "y")
                  .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {"bar"})
                  .Obj());
}

TEST_CASE("PodTopologySpread Filter with v1.37 defaults from the factory", "[podtopologyspread][filter]") {
  // NewPodTopologySpread (no options): gates on, default selector empty.
  testing::FakeHandle h;
  SetMatchLabelKeysCluster(h);
  auto plugin = NewPodTopologySpread(framework::PluginArgs(), h);
  REQUIRE(plugin.ok());
  auto* p = dynamic_cast<PodTopologySpread*>(plugin->get());
  REQUIRE(p != nullptr);
  CHECK(p->Name() == "PodTopologySpread");
  // matchLabelKeys on: only pods with bar=y count, so zone1 has none.
  const auto pod = MatchLabelKeysPod();
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

TEST_CASE("PodTopologySpread from the factory follows MatchLabelKeysInPodTopologySpread", "[podtopologyspread][filter]") {
  // The gate off, upstream's plugin reads no matchLabelKeys: p-a1 counts in
  // zone1, so node-a would make the skew 2.
  testing::FakeHandle h;
  SetMatchLabelKeysCluster(h);
  framework::FeatureGates gates;
  // The API server's selector merge depends on the gate, so goes off with it.
  REQUIRE(gates.Set("MatchLabelKeysInPodTopologySpread=false,MatchLabelKeysInPodTopologySpreadSelectorMerge=false").ok());
  framework::PluginArgs args;
  args.set_gates(&gates);
  auto plugin = NewPodTopologySpread(args, h);
  REQUIRE(plugin.ok());
  auto* p = dynamic_cast<PodTopologySpread*>(plugin->get());
  REQUIRE(p != nullptr);
  const auto pod = MatchLabelKeysPod();
  CycleState cs;
  REQUIRE(p->PreFilter(cs, *pod, h.snapshot().nodes()).status.IsSuccess());
  CHECK_FALSE(p->Filter(cs, *pod, *h.snapshot().Get("node-a")).IsSuccess());
  CHECK(p->Filter(cs, *pod, *h.snapshot().Get("node-b")).IsSuccess());
}

}  // namespace
}  // namespace schedkit::plugins::pts_test
