// PodTopologySpread plugin-level behaviour: upstream v1.35.8 plugin_test.go
// ported case by case (Test_isSchedulableAfterNodeChange,
// Test_isSchedulableAfterPodChange), the registered events, and the args
// (upstream defaults and validation of PodTopologySpreadArgs).
#include <optional>
#include <string>
#include <vector>

#include "test_util.h"
#include "testing/must.h"

namespace schedkit::plugins::pts_test {
namespace {

using framework::QueueingHint;

using testing::Info;

const char* HintName(QueueingHint h) { return h == QueueingHint::kQueue ? "Queue" : "QueueSkip"; }

struct NodeHintCase {
  std::string name;
  api::v1::Pod pod;
  std::optional<api::v1::Node> old_node, new_node;
  QueueingHint want_hint = QueueingHint::kSkip;
};

struct PodHintCase {
  std::string name;
  api::v1::Pod pod;
  std::optional<api::v1::Pod> old_pod, new_pod;
  QueueingHint want_hint = QueueingHint::kSkip;
  Features features;
};

// Upstream Test_isSchedulableAfterNodeChange, every case.
std::vector<NodeHintCase> Test_isSchedulableAfterNodeChangeCases() {
  std::vector<NodeHintCase> cases;
  {
    NodeHintCase& c = cases.emplace_back();
    c.name = "node updates label which matches topologyKey";
    c.pod = MakePod()
                .Name("p")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_node = MakeNode().Name("node-a").Label("zone", "zone1").Obj();
    c.new_node = MakeNode().Name("node-a").Label("zone", "zone2").Obj();
    c.want_hint = QueueingHint::kQueue;
  }
  {
    NodeHintCase& c = cases.emplace_back();
    c.name = "node that doesn't match topologySpreadConstraints updates non-related label";
    c.pod = MakePod()
                .Name("p")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_node = MakeNode().Name("node-a").Label("foo", "bar1").Obj();
    c.new_node = MakeNode().Name("node-a").Label("foo", "bar2").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    NodeHintCase& c = cases.emplace_back();
    c.name = "node that match topologySpreadConstraints adds non-related label";
    c.pod = MakePod()
                .Name("p")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_node =
        MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node1").Label("foo", "bar").Obj();
    c.new_node = MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node1").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    NodeHintCase& c = cases.emplace_back();
    c.name = "create node with non-related labels";
    c.pod = MakePod()
                .Name("p")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.new_node = MakeNode().Name("node-a").Label("foo", "bar").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    NodeHintCase& c = cases.emplace_back();
    c.name = "create node with related labels";
    c.pod = MakePod()
                .Name("p")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.new_node = MakeNode().Name("node-a").Label("zone", "zone1").Obj();
    c.want_hint = QueueingHint::kQueue;
  }
  {
    NodeHintCase& c = cases.emplace_back();
    c.name = "delete node with non-related labels";
    c.pod = MakePod()
                .Name("p")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_node = MakeNode().Name("node-a").Label("foo", "bar").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    NodeHintCase& c = cases.emplace_back();
    c.name = "delete node with related labels";
    c.pod = MakePod()
                .Name("p")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_node = MakeNode().Name("node-a").Label("zone", "zone1").Obj();
    c.want_hint = QueueingHint::kQueue;
  }
  {
    NodeHintCase& c = cases.emplace_back();
    c.name = "add node with related labels that only match one of topologySpreadConstraints";
    c.pod = MakePod()
                .Name("p")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.new_node = MakeNode().Name("node-a").Label("zone", "zone1").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    NodeHintCase& c = cases.emplace_back();
    c.name = "add node with related labels that match all topologySpreadConstraints";
    c.pod = MakePod()
                .Name("p")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.new_node = MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node1").Obj();
    c.want_hint = QueueingHint::kQueue;
  }
  {
    NodeHintCase& c = cases.emplace_back();
    c.name = "update node with related labels that only match one of topologySpreadConstraints";
    c.pod = MakePod()
                .Name("p")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_node = MakeNode().Name("node-a").Label("zone", "zone1").Obj();
    c.new_node = MakeNode().Name("node-a").Label("zone", "zone1").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    NodeHintCase& c = cases.emplace_back();
    c.name = "update node with related labels that match all topologySpreadConstraints";
    c.pod = MakePod()
                .Name("p")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_node = MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node1").Obj();
    c.new_node = MakeNode().Name("node-a").Label("zone", "zone1").Label("node", "node2").Obj();
    c.want_hint = QueueingHint::kQueue;
  }
  {
    NodeHintCase& c = cases.emplace_back();
    c.name = "update node with different taints that match all topologySpreadConstraints";
    c.pod = MakePod()
                .Name("p")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_node = MakeNode()
                     .Name("node-a")
                     .Label("zone", "zone1")
                     .Label("node", "node1")
                     .Taint("aaa", "bbb", "NoSchedule")
                     .Obj();
    c.new_node = MakeNode()
                     .Name("node-a")
                     .Label("zone", "zone1")
                     .Label("node", "node1")
                     .Taint("ccc", "bbb", "NoSchedule")
                     .Obj();
    c.want_hint = QueueingHint::kQueue;
  }
  {
    NodeHintCase& c = cases.emplace_back();
    c.name = "update node with different taints that only match one of topologySpreadConstraints";
    c.pod = MakePod()
                .Name("p")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_node = MakeNode().Name("node-a").Label("node", "node1").Taint("aaa", "bbb", "NoSchedule").Obj();
    c.new_node = MakeNode().Name("node-a").Label("node", "node1").Taint("ccc", "bbb", "NoSchedule").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  return cases;
}

// Upstream Test_isSchedulableAfterPodChange, every case.
std::vector<PodHintCase> Test_isSchedulableAfterPodChangeCases() {
  std::vector<PodHintCase> cases;
  {
    PodHintCase& c = cases.emplace_back();
    c.name = "add pod with labels match topologySpreadConstraints selector";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.new_pod = MakePod().UID("p2").Node("fake-node").Label("foo", "").Obj();
    c.want_hint = QueueingHint::kQueue;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name = "add un-scheduled pod";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.new_pod = MakePod().UID("p2").Label("foo", "").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name = "update un-scheduled pod";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.new_pod = MakePod().UID("p2").Label("foo", "").Obj();
    c.old_pod = MakePod().UID("p2").Label("bar", "").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name = "delete un-scheduled pod";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_pod = MakePod().UID("p2").Label("foo", "").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name = "add pod with different namespace";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.new_pod = MakePod().UID("p2").Node("fake-node").Namespace("fake-namespace").Label("foo", "").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name = "add pod with labels don't match topologySpreadConstraints selector";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.new_pod = MakePod().UID("p2").Node("fake-node").Label("bar", "").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name = "delete pod with labels that match topologySpreadConstraints selector";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_pod = MakePod().UID("p2").Node("fake-node").Label("foo", "").Obj();
    c.want_hint = QueueingHint::kQueue;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name = "delete pod with labels that don't match topologySpreadConstraints selector";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_pod = MakePod().UID("p2").Node("fake-node").Label("bar", "").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name = "update pod's non-related label";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_pod = MakePod().UID("p2").Node("fake-node").Label("foo", "").Label("bar", "bar1").Obj();
    c.new_pod = MakePod().UID("p2").Node("fake-node").Label("foo", "").Label("bar", "bar2").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name = "add pod's label that matches topologySpreadConstraints selector";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_pod = MakePod().UID("p2").Node("fake-node").Obj();
    c.new_pod = MakePod().UID("p2").Node("fake-node").Label("foo", "").Obj();
    c.want_hint = QueueingHint::kQueue;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name = "delete pod label that matches topologySpreadConstraints selector";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_pod = MakePod().UID("p2").Node("fake-node").Label("foo", "").Obj();
    c.new_pod = MakePod().UID("p2").Node("fake-node").Obj();
    c.want_hint = QueueingHint::kQueue;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name = "change pod's label that matches topologySpreadConstraints selector";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_pod = MakePod().UID("p2").Node("fake-node").Label("foo", "foo1").Obj();
    c.new_pod = MakePod().UID("p2").Node("fake-node").Label("foo", "foo2").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name = "change pod's label that doesn't match topologySpreadConstraints selector";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_pod = MakePod().UID("p2").Node("fake-node").Label("foo", "").Label("bar", "bar1").Obj();
    c.new_pod = MakePod().UID("p2").Node("fake-node").Label("foo", "").Label("bar", "bar2").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name =
        "add pod's label that matches topologySpreadConstraints selector with multi "
        "topologySpreadConstraints";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_pod = MakePod().UID("p2").Node("fake-node").Label("foo", "").Obj();
    c.new_pod = MakePod().UID("p2").Node("fake-node").Label("foo", "").Label("bar", "bar2").Obj();
    c.want_hint = QueueingHint::kQueue;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name =
        "change pod's label that doesn't match topologySpreadConstraints selector with multi "
        "topologySpreadConstraints";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_pod = MakePod().UID("p2").Node("fake-node").Label("foo", "").Obj();
    c.new_pod = MakePod().UID("p2").Node("fake-node").Label("foo", "").Label("baz", "").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name =
        "change pod's label that match topologySpreadConstraints selector with multi "
        "topologySpreadConstraints";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_pod = MakePod().UID("p2").Node("fake-node").Label("foo", "").Label("bar", "").Obj();
    c.new_pod = MakePod().UID("p2").Node("fake-node").Label("foo", "").Label("bar", "bar2").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name =
        "the unschedulable Pod has topologySpreadConstraint with NodeTaintsPolicy:Honor and has got a new "
        "toleration";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kHonor, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_pod = MakePod().UID("p").Name("p").Label("foo", "").Obj();
    c.new_pod = MakePod().UID("p").Name("p").Label("foo", "").Toleration(kUnschedulableTaint).Obj();
    c.want_hint = QueueingHint::kQueue;
    c.features.node_inclusion_policy = true;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name =
        "the unschedulable Pod has topologySpreadConstraint without NodeTaintsPolicy:Honor and has got a new "
        "toleration";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kIgnore, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_pod = MakePod().UID("p").Name("p").Label("foo", "").Obj();
    c.new_pod = MakePod().UID("p").Name("p").Label("foo", "").Toleration(kUnschedulableTaint).Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name =
        "the unschedulable Pod has topologySpreadConstraint and has got a new label matching the selector of "
        "the constraint";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kIgnore, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_pod = MakePod().UID("p").Name("p").Obj();
    c.new_pod = MakePod().UID("p").Name("p").Label("foo", "").Obj();
    c.want_hint = QueueingHint::kQueue;
  }
  {
    PodHintCase& c = cases.emplace_back();
    c.name = "the unschedulable Pod has topologySpreadConstraint and has got a new unrelated label";
    c.pod = MakePod()
                .UID("p")
                .Name("p")
                .Label("foo", "")
                .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kIgnore, {})
                .SpreadConstraint(1, "node", kDoNotSchedule, barSelector, kNil, kNil, kNil, {})
                .Obj();
    c.old_pod = MakePod().UID("p").Name("p").Obj();
    c.new_pod = MakePod().UID("p").Name("p").Label("unrelated", "").Obj();
    c.want_hint = QueueingHint::kSkip;
  }
  return cases;
}

TEST_CASE("Test_isSchedulableAfterNodeChange", "[podtopologyspread][hints]") {
  for (const NodeHintCase& tc : Test_isSchedulableAfterNodeChangeCases()) {
    for (Features features : {Features{}, Features{true, true}}) {
      DYNAMIC_SECTION("Test_isSchedulableAfterNodeChange/"
                      << tc.name << (features.node_inclusion_policy ? " [v1.35 defaults]" : "")) {
        testing::FakeHandle h;
        h.SetCluster({}, {});
        auto p = NewPlugin(h, kListDefaulting, features);
        auto hint = p->IsSchedulableAfterNodeChange(*Info(tc.pod), tc.old_node ? &*tc.old_node : nullptr,
                                                    tc.new_node ? &*tc.new_node : nullptr);
        REQUIRE(hint.ok());
        CHECK(HintName(*hint) == std::string(HintName(tc.want_hint)));
      }
    }
  }
}

TEST_CASE("Test_isSchedulableAfterPodChange", "[podtopologyspread][hints]") {
  for (const PodHintCase& tc : Test_isSchedulableAfterPodChangeCases()) {
    std::vector<std::pair<Features, std::string>> runs = {{tc.features, ""}};
    // With the gate on (v1.35), an explicit Ignore or no policy gives the same hints.
    runs.push_back({Features{true, true}, " [v1.35 defaults]"});
    for (const auto& [features, suffix] : runs) {
      DYNAMIC_SECTION("Test_isSchedulableAfterPodChange/" << tc.name << suffix) {
        testing::FakeHandle h;
        h.SetCluster({}, {});
        auto p = NewPlugin(h, kListDefaulting, features);
        auto hint = p->IsSchedulableAfterPodChange(*Info(tc.pod), tc.old_pod ? &*tc.old_pod : nullptr,
                                                   tc.new_pod ? &*tc.new_pod : nullptr);
        REQUIRE(hint.ok());
        CHECK(HintName(*hint) == std::string(HintName(tc.want_hint)));
      }
    }
  }
}

TEST_CASE("PodTopologySpread EventsToRegister", "[podtopologyspread][hints]") {
  testing::FakeHandle h;
  h.SetCluster({}, {});
  auto p = NewPlugin(h, kListDefaulting, Features{true, true});
  const auto events = p->EventsToRegister();
  // v1.37: assigned pods' changes, the pod's own update, and nodes.
  REQUIRE(events.size() == 3);
  CHECK(events[0].event.resource == framework::EventResource::AssignedPod());
  CHECK(events[0].event.action ==
        (framework::kActionAdd | framework::kActionUpdatePodLabel | framework::kActionDelete));
  CHECK(events[1].event.resource == framework::EventResource::TargetPod());
  CHECK(events[1].event.action == (framework::kActionUpdatePodToleration | framework::kActionUpdatePodLabel));
  CHECK(events[2].event.resource == framework::EventResource::Node());
  CHECK(events[2].event.action == (framework::kActionAdd | framework::kActionDelete |
                                   framework::kActionUpdateNodeLabel | framework::kActionUpdateNodeTaint));
  REQUIRE(events[0].hint);
  REQUIRE(events[1].hint);
  REQUIRE(events[2].hint);
  // The registered hints are the methods above.
  const auto pod = Info(MakePod()
                            .UID("p")
                            .Name("p")
                            .Label("foo", "")
                            .SpreadConstraint(1, "zone", kDoNotSchedule, fooSelector, kNil, kNil, kNil, {})
                            .Obj());
  const api::v1::Pod added = MakePod().UID("p2").Node("fake-node").Label("foo", "").Obj();
  framework::EventObjects pod_event;
  pod_event.SetNew(&added);
  auto hint = events[0].hint(*pod, pod_event);
  REQUIRE(hint.ok());
  CHECK(*hint == QueueingHint::kQueue);
  const api::v1::Node node = MakeNode().Name("node-a").Label("foo", "bar").Obj();
  framework::EventObjects node_event;
  node_event.SetNew(&node);
  hint = events[2].hint(*pod, node_event);
  REQUIRE(hint.ok());
  CHECK(*hint == QueueingHint::kSkip);
}

// --- args -------------------------------------------------------------------

TEST_CASE("PodTopologySpreadArgs defaults", "[podtopologyspread][args]") {
  for (const char* json :
       {"", "{}", "null", R"({"defaultingType":""})",
        R"({"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"PodTopologySpreadArgs"})"}) {
    INFO(json);
    auto args = ParsePodTopologySpreadArgs(framework::PluginArgs(json));
    REQUIRE(args.ok());
    CHECK(args->system_defaulting);
    CHECK(args->default_constraints.empty());
  }
  auto list = ParsePodTopologySpreadArgs(framework::PluginArgs(
      R"({"defaultingType":"List","defaultConstraints":[
            {"maxSkew":3,"topologyKey":"kubernetes.io/hostname","whenUnsatisfiable":"DoNotSchedule"},
            {"maxSkew":5,"topologyKey":"topology.kubernetes.io/zone","whenUnsatisfiable":"ScheduleAnyway",
             "minDomains":2,"nodeAffinityPolicy":"Ignore","nodeTaintsPolicy":"Honor","matchLabelKeys":["app"]}]})"));
  REQUIRE(list.ok());
  CHECK_FALSE(list->system_defaulting);
  REQUIRE(list->default_constraints.size() == 2);
  const auto& c0 = list->default_constraints[0];
  CHECK(c0.max_skew == 3);
  CHECK(c0.topology_key.str() == kHostname);
  CHECK(c0.do_not_schedule);
  CHECK(c0.selector.MatchesNothing());
  CHECK_FALSE(c0.min_domains_set);
  CHECK(c0.min_domains == 1);
  CHECK(c0.node_affinity_policy == -1);
  CHECK(c0.node_taints_policy == -1);
  const auto& c1 = list->default_constraints[1];
  CHECK_FALSE(c1.do_not_schedule);
  CHECK(c1.min_domains_set);
  CHECK(c1.min_domains == 2);
  CHECK(c1.node_affinity_policy == 0);
  CHECK(c1.node_taints_policy == 1);
  REQUIRE(c1.match_label_keys.size() == 1);
  CHECK(c1.match_label_keys[0].str() == "app");
  // List with no constraints is valid: no defaulting at all.
  auto empty_list = ParsePodTopologySpreadArgs(framework::PluginArgs(R"({"defaultingType":"List"})"));
  REQUIRE(empty_list.ok());
  CHECK(empty_list->default_constraints.empty());
}

TEST_CASE("PodTopologySpreadArgs validation", "[podtopologyspread][args]") {
  struct Case {
    std::string name;
    std::string json;
    std::string want_field;  // the error names it
  };
  const std::vector<Case> cases = {
      {"unknown top-level field", R"({"defaultingtype":"List"})", "defaultingtype"},
      {"unknown constraint field",
       R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule","maxskew":2}]})",
       "defaultConstraints[0].maxskew"},
      {"maxSkew zero",
       R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":0,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"}]})",
       "defaultConstraints[0].maxSkew"},
      {"maxSkew negative",
       R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":-1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"}]})",
       "defaultConstraints[0].maxSkew"},
      {"maxSkew missing",
       R"({"defaultingType":"List","defaultConstraints":[{"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"}]})",
       "defaultConstraints[0].maxSkew"},
      {"maxSkew overflows int32",
       R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":2147483648,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"}]})",
       "defaultConstraints[0].maxSkew"},
      {"maxSkew not a number",
       R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":"x","topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"}]})",
       "defaultConstraints[0].maxSkew"},
      {"empty topologyKey",
       R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"","whenUnsatisfiable":"DoNotSchedule"}]})",
       "defaultConstraints[0].topologyKey"},
      {"invalid topologyKey",
       R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"-zone","whenUnsatisfiable":"DoNotSchedule"}]})",
       "defaultConstraints[0].topologyKey"},
      {"invalid topologyKey prefix",
       R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"Example.com/zone","whenUnsatisfiable":"DoNotSchedule"}]})",
       "defaultConstraints[0].topologyKey"},
      {"empty whenUnsatisfiable",
       R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"zone"}]})",
       "defaultConstraints[0].whenUnsatisfiable"},
      {"unsupported whenUnsatisfiable",
       R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"Sometimes"}]})",
       "defaultConstraints[0].whenUnsatisfiable"},
      {"labelSelector forbidden",
       R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule","labelSelector":{}}]})",
       "defaultConstraints[0].labelSelector"},
      {"repeated constraint",
       R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"},{"maxSkew":2,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"}]})",
       "defaultConstraints[1]"},
      {"unsupported defaultingType", R"({"defaultingType":"Custom"})", "defaultingType"},
      {"System with constraints",
       R"({"defaultingType":"System","defaultConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"}]})",
       "defaultingType"},
      {"defaulted System with constraints",
       R"({"defaultConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"}]})",
       "defaultingType"},
      {"defaultConstraints not a list", R"({"defaultingType":"List","defaultConstraints":{}})",
       "defaultConstraints"},
      {"defaultingType not a string", R"({"defaultingType":1})", "defaultingType"},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("PodTopologySpreadArgs validation/" << tc.name) {
      auto args = ParsePodTopologySpreadArgs(framework::PluginArgs(tc.json));
      REQUIRE_FALSE(args.ok());
      CHECK(args.status().code() == absl::StatusCode::kInvalidArgument);
      const std::string message(args.status().message());
      INFO(message);
      CHECK(message.find("PodTopologySpread args: " + tc.want_field + ":") != std::string::npos);
      // The factory refuses the same args.
      testing::FakeHandle h;
      CHECK_FALSE(NewPodTopologySpread(framework::PluginArgs(tc.json), h).ok());
    }
  }
  // Same key with the other action is not a repeat.
  CHECK(
      ParsePodTopologySpreadArgs(
          framework::PluginArgs(
              R"({"defaultingType":"List","defaultConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule"},{"maxSkew":2,"topologyKey":"zone","whenUnsatisfiable":"ScheduleAnyway"}]})"))
          .ok());
}

}  // namespace
}  // namespace schedkit::plugins::pts_test
