// Ported from upstream v1.35.8 pkg/scheduler/framework/plugins/interpodaffinity/filtering_test.go.
//
// Not ported (cannot be expressed here): the two TestRequiredAffinitySingleNode
// cases "PodAffinity fails PreFilter with an invalid affinity label syntax" and
// "PodAntiAffinity fails PreFilter with an invalid antiaffinity label syntax".
// Upstream parses the pod inside PreFilter and fails on the label value
// "{{.bad-value.}}"; schedkit parses pods once into PodInfo before any plugin
// runs, and its selector compiler does not validate label values.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "test_util.h"
#include "testing/filter_nodes.h"

namespace schedkit::ipa_test {
namespace {

using framework::CycleState;
using plugins::interpodaffinity::PreFilterState;

const framework::StateKey kPreFilterKey = Symbol::Intern("PreFilterInterPodAffinity");

TEST_CASE("TestRequiredAffinitySingleNode", "[interpodaffinity][filter]") {
  const LabelMap pod_label = {{"service", "securityscan"}};
  const api::v1::Pod pod = Pod().Labels(pod_label).Node("node1").Obj();
  const LabelMap pod_label2 = {{"security", "S1"}};
  const api::v1::Node node1 = Node("node1", {{"region", "r1"}, {"zone", "z11"}});

  struct Case {
    std::string name;
    api::v1::Pod pod;
    std::vector<api::v1::Pod> pods;
    api::v1::Node node;
    Status want_pre_filter;
    Status want_filter;
  };
  const std::vector<Case> cases = {
      {"A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing "
       "pods",
       Pod().Obj(),
       {},
       node1,
       Status::Skip(),
       Status()},
      {"satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that "
       "matches "
       "the existing pod",
       Pod()
           .Labels(pod_label2)
           .PodAffinityIn("service", "region", {"securityscan", "value2"}, kRequired)
           .Obj(),
       {pod},
       node1,
       Status(),
       Status()},
      {"satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in "
       "operator in "
       "labelSelector that matches the existing pod",
       Pod()
           .Labels(pod_label2)
           .PodAffinity(kRequired, NotInTerm("service", "region", {"securityscan3", "value3"}))
           .Obj(),
       {pod},
       node1,
       Status(),
       Status()},
      {"Does not satisfy the PodAffinity with labelSelector because of diff Namespace",
       CreatePodWithAffinityTerms(
           "", "", pod_label2,
           {Term(Sel({{"service", "In", {"securityscan", "value2"}}}), "", {"DiffNameSpace"})}, {}),
       {Pod().Namespace("ns").Label("service", "securityscan").Node("node1").Obj()},
       node1,
       Status(),
       Want(Code::kUnschedulableAndUnresolvable, kReasonAffinity)},
      {"Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
       Pod().Labels(pod_label).PodAffinityIn("service", "", {"antivirusscan", "value2"}, kRequired).Obj(),
       {pod},
       node1,
       Status(),
       Want(Code::kUnschedulableAndUnresolvable, kReasonAffinity)},
      {"satisfies the PodAffinity with different label Operators in multiple "
       "RequiredDuringSchedulingIgnoredDuringExecution ",
       CreatePodWithAffinityTerms(
           "", "", pod_label2,
           {Term(Sel({{"service", "Exists", {}}, {"wrongkey", "DoesNotExist", {}}}), "region"),
            Term(Sel({{"service", "In", {"securityscan"}}, {"service", "NotIn", {"WrongValue"}}}), "region")},
           {}),
       {pod},
       node1,
       Status(),
       Status()},
      {"The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto "
       "the node "
       "because one of the matchExpression item don't match.",
       CreatePodWithAffinityTerms(
           "", "", pod_label2,
           {Term(Sel({{"service", "Exists", {}}, {"wrongkey", "DoesNotExist", {}}}), "region"),
            Term(Sel({{"service", "In", {"securityscan2"}}, {"service", "NotIn", {"WrongValue"}}}),
                 "region")},
           {}),
       {pod},
       node1,
       Status(),
       Want(Code::kUnschedulableAndUnresolvable, kReasonAffinity)},
      {"satisfies the PodAffinity and PodAntiAffinity with the existing pod",
       Pod()
           .Labels(pod_label2)
           .PodAffinityIn("service", "region", {"securityscan", "value2"}, kRequired)
           .PodAntiAffinityIn("service", "node", {"antivirusscan", "value2"}, kRequired)
           .Obj(),
       {pod},
       node1,
       Status(),
       Status()},
      {"satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod",
       Pod()
           .Labels(pod_label2)
           .PodAffinityIn("service", "region", {"securityscan", "value2"}, kRequired)
           .PodAntiAffinityIn("service", "node", {"antivirusscan", "value2"}, kRequired)
           .Obj(),
       {Pod()
            .Node("node1")
            .Labels(pod_label)
            .PodAntiAffinityIn("service", "node", {"antivirusscan", "value2"}, kRequired)
            .Obj()},
       node1,
       Status(),
       Status()},
      {"satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
       Pod()
           .Labels(pod_label2)
           .PodAffinityIn("service", "region", {"securityscan", "value2"}, kRequired)
           .PodAntiAffinityIn("service", "zone", {"securityscan", "value2"}, kRequired)
           .Obj(),
       {pod},
       node1,
       Status(),
       Want(Code::kUnschedulable, kReasonAntiAffinity)},
      {"satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the "
       "existing "
       "pod",
       Pod()
           .Labels(pod_label)
           .PodAffinityIn("service", "region", {"securityscan", "value2"}, kRequired)
           .PodAntiAffinityIn("service", "node", {"antivirusscan", "value2"}, kRequired)
           .Obj(),
       {Pod()
            .Labels(pod_label)
            .Node("node1")
            .PodAntiAffinityIn("service", "zone", {"securityscan", "value2"}, kRequired)
            .Obj()},
       node1,
       Status(),
       Want(Code::kUnschedulable, kReasonExistingAntiAffinity)},
      {"pod matches its own Label in PodAffinity and that matches the existing pod Labels",
       Pod()
           .Labels(pod_label)
           .PodAffinity(kRequired, NotInTerm("service", "region", {"securityscan", "value2"}))
           .Obj(),
       {Pod().Label("service", "securityscan").Node("node2").Obj()},
       node1,
       Status(),
       Want(Code::kUnschedulableAndUnresolvable, kReasonAffinity)},
      {"verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. "
       "doesn't "
       "satisfy PodAntiAffinity symmetry with the existing pod",
       Pod().Labels(pod_label).Obj(),
       {Pod()
            .Node("node1")
            .Labels(pod_label)
            .PodAntiAffinityIn("service", "zone", {"securityscan", "value2"}, kRequired)
            .Obj()},
       node1,
       Status(),
       Want(Code::kUnschedulable, kReasonExistingAntiAffinity)},
      {"verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. "
       "satisfy "
       "PodAntiAffinity symmetry with the existing pod",
       Pod().Labels(pod_label).Obj(),
       {Pod()
            .Node("node1")
            .Labels(pod_label)
            .PodAntiAffinity(kRequired, NotInTerm("service", "zone", {"securityscan", "value2"}))
            .Obj()},
       node1,
       Status::Skip(),
       Status()},
      {"satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with "
       "incoming "
       "pod",
       Pod()
           .Labels(pod_label)
           .PodAntiAffinityExists("service", "region", kRequired)
           .PodAntiAffinityExists("security", "region", kRequired)
           .Obj(),
       {Pod().Node("node1").Labels(pod_label2).PodAntiAffinityExists("security", "zone", kRequired).Obj()},
       node1,
       Status(),
       Want(Code::kUnschedulable, kReasonAntiAffinity)},
      {"PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each other on "
       "AffinityTerms",
       Pod()
           .Labels(pod_label)
           .PodAntiAffinityExists("service", "zone", kRequired)
           .PodAntiAffinityExists("security", "zone", kRequired)
           .Obj(),
       {Pod().Node("node1").Labels(pod_label2).PodAntiAffinityExists("security", "zone", kRequired).Obj()},
       node1,
       Status(),
       Want(Code::kUnschedulable, kReasonAntiAffinity)},
      {"PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each other on "
       "AffinityTerms",
       Pod().Labels(pod_label2).PodAntiAffinityExists("security", "zone", kRequired).Obj(),
       {Pod()
            .Node("node1")
            .Labels(pod_label)
            .PodAntiAffinityExists("service", "zone", kRequired)
            .PodAntiAffinityExists("security", "zone", kRequired)
            .Obj()},
       node1,
       Status(),
       Want(Code::kUnschedulable, kReasonExistingAntiAffinity)},
      {"PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each other on "
       "AffinityTerms",
       Pod()
           .Labels({{"abc", ""}, {"xyz", ""}})
           .PodAntiAffinityExists("abc", "zone", kRequired)
           .PodAntiAffinityExists("def", "zone", kRequired)
           .Obj(),
       {Pod()
            .Node("node1")
            .Labels({{"def", ""}, {"xyz", ""}})
            .PodAntiAffinityExists("abc", "zone", kRequired)
            .PodAntiAffinityExists("def", "zone", kRequired)
            .Obj()},
       node1,
       Status(),
       Want(Code::kUnschedulable, kReasonAntiAffinity)},
      {"PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each other on "
       "AffinityTerms",
       Pod()
           .Labels({{"def", ""}, {"xyz", ""}})
           .PodAntiAffinityExists("abc", "zone", kRequired)
           .PodAntiAffinityExists("def", "zone", kRequired)
           .Obj(),
       {Pod()
            .Node("node1")
            .Labels({{"abc", ""}, {"xyz", ""}})
            .PodAntiAffinityExists("abc", "zone", kRequired)
            .PodAntiAffinityExists("def", "zone", kRequired)
            .Obj()},
       node1,
       Status(),
       Want(Code::kUnschedulable, kReasonAntiAffinity)},
      {"affinity with NamespaceSelector",
       CreatePodWithAffinityTerms("", "", pod_label2,
                                  {Term(Sel({{"service", "In", {"securityscan", "value2"}}}), "region", {},
                                        Sel({{"team", "In", {"team1"}}}))},
                                  {}),
       {Pod().Node("node1").Namespace("subteam1.team1").Labels(pod_label).Obj()},
       node1,
       Status(),
       Status()},
      {"affinity with non-matching NamespaceSelector",
       CreatePodWithAffinityTerms("", "", pod_label2,
                                  {Term(Sel({{"service", "In", {"securityscan", "value2"}}}), "region", {},
                                        Sel({{"team", "In", {"team1"}}}))},
                                  {}),
       {Pod().Node("node1").Namespace("subteam1.team2").Labels(pod_label).Obj()},
       node1,
       Status(),
       Want(Code::kUnschedulableAndUnresolvable, kReasonAffinity)},
      {"anti-affinity with matching NamespaceSelector",
       CreatePodWithAffinityTerms("subteam1.team1", "", pod_label2, {},
                                  {Term(Sel({{"service", "In", {"securityscan", "value2"}}}), "zone", {},
                                        Sel({{"team", "In", {"team1"}}}))}),
       {Pod().Node("node1").Namespace("subteam2.team1").Labels(pod_label).Obj()},
       node1,
       Status(),
       Want(Code::kUnschedulable, kReasonAntiAffinity)},
      {"anti-affinity with matching all NamespaceSelector",
       CreatePodWithAffinityTerms("subteam1.team1", "", pod_label2, {},
                                  {Term(Sel({{"service", "In", {"securityscan", "value2"}}}), "zone", {},
                                        api::v1::LabelSelector())}),
       {Pod().Node("node1").Namespace("subteam2.team1").Labels(pod_label).Obj()},
       node1,
       Status(),
       Want(Code::kUnschedulable, kReasonAntiAffinity)},
      {"anti-affinity with non-matching NamespaceSelector",
       CreatePodWithAffinityTerms("subteam1.team1", "", pod_label2, {},
                                  {Term(Sel({{"service", "In", {"securityscan", "value2"}}}), "zone", {},
                                        Sel({{"team", "In", {"team1"}}}))}),
       {Pod().Node("node1").Namespace("subteam1.team2").Labels(pod_label).Obj()},
       node1,
       Status(),
       Status()},
  };

  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    DYNAMIC_SECTION("TestRequiredAffinitySingleNode #" << i << ": " << c.name) {
      testing::FakeHandle h;
      h.SetCluster({c.node}, c.pods, TeamNamespaces());
      auto p = NewPlugin(h, R"({"hardPodAffinityWeight": 0})");
      auto pod_info = Info(c.pod);
      CycleState state;
      const auto pre = p->PreFilter(state, *pod_info, h.snapshot().nodes());
      CHECK(pre.result.AllNodes());
      REQUIRE(pre.status.ToString() == c.want_pre_filter.ToString());
      if (!pre.status.IsSuccess()) continue;
      const Status got = p->Filter(state, *pod_info, NodeInfoOf(h, c.node.metadata().name()));
      CHECK(got.ToString() == c.want_filter.ToString());
      CHECK(got.code() == c.want_filter.code());
      CHECK(testing::FilterThroughBatch(*p, state, *pod_info, NodeInfoOf(h, c.node.metadata().name())) == got);
    }
  }
}

TEST_CASE("TestRequiredAffinityMultipleNodes", "[interpodaffinity][filter]") {
  const LabelMap pod_label_a = {{"foo", "bar"}};
  const LabelMap rg_china = {{"region", "China"}};
  const LabelMap rg_china_az1 = {{"region", "China"}, {"az", "az1"}};
  const LabelMap rg_india = {{"region", "India"}};
  const Status affinity_fail = Want(Code::kUnschedulableAndUnresolvable, kReasonAffinity);
  const Status anti_fail = Want(Code::kUnschedulable, kReasonAntiAffinity);
  const Status existing_fail = Want(Code::kUnschedulable, kReasonExistingAntiAffinity);
  const LabelMap r1_z1_a = {{"region", "r1"}, {"zone", "z1"}, {"hostname", "nodeA"}};
  const LabelMap r1_z1_b = {{"region", "r1"}, {"zone", "z1"}, {"hostname", "nodeB"}};
  const LabelMap r1_z2_b = {{"region", "r1"}, {"zone", "z2"}, {"hostname", "nodeB"}};

  struct Case {
    std::string name;
    api::v1::Pod pod;
    std::vector<api::v1::Pod> pods;
    std::vector<api::v1::Node> nodes;
    std::vector<Status> want_filter;
    Status want_pre_filter = Status();
  };
  const std::vector<Case> cases = {
      {"A pod can be scheduled onto all the nodes that have the same topology key & label value with one of "
       "them has "
       "an existing pod that matches the affinity rules",
       Pod().PodAffinityIn("foo", "region", {"bar"}, kRequired).Obj(),
       {Pod().Name("p1").Node("node1").Labels(pod_label_a).Obj()},
       {Node("node1", rg_china), Node("node2", rg_china_az1), Node("node3", rg_india)},
       {Status(), Status(), affinity_fail}},
      {"The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod "
       "of the "
       "collection should not be blocked from being scheduled onto any node, even there's no existing pod "
       "that "
       "matches the rule anywhere.",
       Pod()
           .Labels({{"foo", "bar"}, {"service", "securityscan"}})
           .PodAffinityIn("foo", "zone", {"bar"}, kRequired)
           .PodAffinityIn("service", "zone", {"securityscan"}, kRequired)
           .Obj(),
       {Pod().Name("p1").Node("nodeA").Labels({{"foo", "bar"}}).Obj()},
       {Node("nodeA", {{"zone", "az1"}, {"hostname", "h1"}}),
        Node("nodeB", {{"zone", "az2"}, {"hostname", "h2"}})},
       {Status(), Status()}},
      {"The first pod of the collection can only be scheduled on nodes labelled with the requested topology "
       "keys",
       Pod()
           .Labels({{"foo", "bar"}, {"service", "securityscan"}})
           .PodAffinityIn("foo", "zone", {"bar"}, kRequired)
           .PodAffinityIn("service", "zone", {"securityscan"}, kRequired)
           .Obj(),
       {Pod().Name("p1").Node("nodeA").Labels({{"foo", "bar"}}).Obj()},
       {Node("nodeA", {{"zoneLabel", "az1"}, {"hostname", "h1"}}),
        Node("nodeB", {{"zoneLabel", "az2"}, {"hostname", "h2"}})},
       {affinity_fail, affinity_fail}},
      {"NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the "
       "inter pod "
       "affinity rule. The pod can not be scheduled onto nodeA and nodeB.",
       Pod().PodAntiAffinityIn("foo", "region", {"abc"}, kRequired).Obj(),
       {Pod().Node("nodeA").Labels({{"foo", "abc"}}).Obj()},
       {Node("nodeA", {{"region", "r1"}, {"hostname", "nodeA"}}),
        Node("nodeB", {{"region", "r1"}, {"hostname", "nodeB"}})},
       {anti_fail, anti_fail}},
      {"This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule matches a "
       "pod.",
       Pod()
           .PodAntiAffinityIn("foo", "region", {"abc"}, kRequired)
           .PodAntiAffinityIn("service", "zone", {"securityscan"}, kRequired)
           .Obj(),
       {Pod().Node("nodeA").Labels({{"foo", "abc"}, {"service", "securityscan"}}).Obj()},
       {Node("nodeA", {{"region", "r1"}, {"zone", "z1"}, {"hostname", "nodeA"}}),
        Node("nodeB", {{"region", "r1"}, {"zone", "z2"}, {"hostname", "nodeB"}})},
       {anti_fail, anti_fail}},
      {"NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the "
       "inter pod "
       "affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be scheduled onto nodeC",
       Pod().PodAntiAffinityIn("foo", "region", {"abc"}, kRequired).Obj(),
       {Pod().Node("nodeA").Labels({{"foo", "abc"}}).Obj()},
       {Node("nodeA", rg_china), Node("nodeB", rg_china_az1), Node("nodeC", rg_india)},
       {anti_fail, anti_fail, Status()}},
      {"NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the "
       "inter pod "
       "affinity rule. The pod can not be scheduled onto nodeA, nodeB, but can be scheduled onto nodeC "
       "(NodeC has an "
       "existing pod that match the inter pod affinity rule but in different namespace)",
       Pod()
           .Namespace("NS1")
           .Labels({{"foo", "123"}})
           .PodAntiAffinityIn("foo", "region", {"bar"}, kRequired)
           .Obj(),
       {Pod().Node("nodeA").Namespace("NS1").Labels({{"foo", "bar"}}).Obj(),
        Pod().Node("nodeC").Namespace("NS2").PodAntiAffinityIn("foo", "region", {"123"}, kRequired).Obj()},
       {Node("nodeA", rg_china), Node("nodeB", rg_china_az1), Node("nodeC", rg_india)},
       {anti_fail, anti_fail, Status()}},
      {"Test existing pod's anti-affinity: if an existing pod has a term with invalid topologyKey, "
       "labelSelector of "
       "the term is firstly checked, and then topologyKey of the term is also checked",
       Pod().Label("foo", "").Obj(),
       {Pod().Node("nodeA").PodAntiAffinityExists("foo", "invalid-node-label", kRequired).Obj()},
       {Node("nodeA", r1_z1_a), Node("nodeB", r1_z1_b)},
       {Status(), Status()},
       Status::Skip()},
      {"Test incoming pod's anti-affinity: even if labelSelector matches, we still check if topologyKey "
       "matches",
       Pod().Node("nodeA").PodAntiAffinityExists("foo", "invalid-node-label", kRequired).Obj(),
       {Pod().Node("nodeA").Labels({{"foo", ""}}).Obj()},
       {Node("nodeA", r1_z1_a), Node("nodeB", r1_z1_b)},
       {Status(), Status()}},
      {"Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it violates each "
       "existingPod's "
       "terms on all nodes",
       Pod().Label("foo", "").Label("bar", "").Obj(),
       {Pod().Node("nodeA").PodAntiAffinityExists("foo", "zone", kRequired).Obj(),
        Pod().Node("nodeA").PodAntiAffinityExists("bar", "region", kRequired).Obj()},
       {Node("nodeA", r1_z1_a), Node("nodeB", r1_z2_b)},
       {existing_fail, existing_fail}},
      {"Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at least violates "
       "one "
       "anti-affinity rule of existingPod",
       Pod()
           .PodAntiAffinityExists("foo", "zone", kRequired)
           .PodAntiAffinityExists("bar", "region", kRequired)
           .Obj(),
       {Pod().Node("nodeA").Labels({{"foo", ""}}).Obj(), Pod().Node("nodeB").Labels({{"bar", ""}}).Obj()},
       {Node("nodeA", r1_z1_a), Node("nodeB", r1_z2_b)},
       {anti_fail, anti_fail}},
      {"Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted "
       "as a "
       "single term match - case when one term has invalid topologyKey",
       Pod().Label("foo", "").Label("bar", "").Obj(),
       {Pod()
            .Node("nodeA")
            .PodAntiAffinityExists("foo", "invalid-node-label", kRequired)
            .PodAntiAffinityExists("bar", "zone", kRequired)
            .Obj()},
       {Node("nodeA", r1_z1_a), Node("nodeB", r1_z2_b)},
       {existing_fail, Status()}},
      {"Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted "
       "as a "
       "single term match - case when one term has invalid topologyKey",
       Pod()
           .PodAntiAffinityExists("foo", "invalid-node-label", kRequired)
           .PodAntiAffinityExists("bar", "zone", kRequired)
           .Obj(),
       {Pod().Name("podA").Node("nodeA").Labels({{"foo", ""}, {"bar", ""}}).Obj()},
       {Node("nodeA", r1_z1_a), Node("nodeB", r1_z2_b)},
       {anti_fail, Status()}},
      {"Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted "
       "as a "
       "single term match - case when all terms have valid topologyKey",
       Pod().Label("foo", "").Label("bar", "").Obj(),
       {Pod()
            .Node("nodeA")
            .PodAntiAffinityExists("foo", "region", kRequired)
            .PodAntiAffinityExists("bar", "zone", kRequired)
            .Obj()},
       {Node("nodeA", r1_z1_a), Node("nodeB", r1_z2_b)},
       {existing_fail, existing_fail}},
      {"Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted "
       "as a "
       "single term match - case when all terms have valid topologyKey",
       Pod()
           .PodAntiAffinityExists("foo", "region", kRequired)
           .PodAntiAffinityExists("bar", "zone", kRequired)
           .Obj(),
       {Pod().Node("nodeA").Labels({{"foo", ""}, {"bar", ""}}).Obj()},
       {Node("nodeA", r1_z1_a), Node("nodeB", r1_z2_b)},
       {anti_fail, anti_fail}},
      {"Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one anti-affinity "
       "term matches "
       "incoming pod, so incoming pod can only be scheduled to nodeC",
       Pod().Label("foo", "").Label("bar", "").Obj(),
       {Pod()
            .Node("nodeA")
            .PodAntiAffinityExists("foo", "zone", kRequired)
            .PodAntiAffinityExists("labelA", "zone", kRequired)
            .Obj(),
        Pod()
            .Node("nodeB")
            .PodAntiAffinityExists("bar", "zone", kRequired)
            .PodAntiAffinityExists("labelB", "zone", kRequired)
            .Obj()},
       {Node("nodeA", r1_z1_a), Node("nodeB", r1_z2_b),
        Node("nodeC", {{"region", "r1"}, {"zone", "z3"}, {"hostname", "nodeC"}})},
       {existing_fail, existing_fail, Status()}},
      {"Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all "
       "topologyKeys "
       "match",
       Pod().PodAffinityExists("foo", "region", kRequired).PodAffinityExists("bar", "zone", kRequired).Obj(),
       {Pod().Name("pod1").Labels({{"foo", ""}, {"bar", ""}}).Node("nodeA").Obj()},
       {Node("nodeA", r1_z1_a), Node("nodeB", r1_z1_b)},
       {Status(), Status()}},
      {"Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all "
       "topologyKeys "
       "match, and the match logic should be satisfied on the same pod",
       Pod().PodAffinityExists("foo", "region", kRequired).PodAffinityExists("bar", "zone", kRequired).Obj(),
       {Pod().Node("nodeA").Name("pod1").Labels({{"foo", ""}}).Obj(),
        Pod().Node("nodeB").Name("pod2").Labels({{"bar", ""}}).Obj()},
       {Node("nodeA", r1_z1_a), Node("nodeB", r1_z2_b)},
       {affinity_fail, affinity_fail}},
  };

  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    DYNAMIC_SECTION("TestRequiredAffinityMultipleNodes #" << i << ": " << c.name) {
      testing::FakeHandle h;
      h.SetCluster(c.nodes, c.pods, {Namespace("NS1")});
      auto p = NewPlugin(h, R"({"hardPodAffinityWeight": 0})");
      auto pod_info = Info(c.pod);
      CycleState state;
      const auto pre = p->PreFilter(state, *pod_info, h.snapshot().nodes());
      REQUIRE(pre.status.ToString() == c.want_pre_filter.ToString());
      if (pre.status.IsSkip()) continue;
      REQUIRE(c.want_filter.size() == c.nodes.size());
      for (size_t n = 0; n < c.nodes.size(); ++n) {
        INFO("node " << c.nodes[n].metadata().name());
        const Status got = p->Filter(state, *pod_info, NodeInfoOf(h, c.nodes[n].metadata().name()));
        CHECK(got.ToString() == c.want_filter[n].ToString());
        CHECK(got.code() == c.want_filter[n].code());
        CHECK(testing::FilterThroughBatch(*p, state, *pod_info, NodeInfoOf(h, c.nodes[n].metadata().name())) ==
              got);
      }
      // One batch call over every node.
      std::vector<const framework::NodeInfo*> run;
      for (const auto& node : c.nodes) run.push_back(&NodeInfoOf(h, node.metadata().name()));
      std::vector<uint8_t> passing(run.size(), 1);
      std::vector<Status> statuses(run.size());
      p->FilterNodes(state, *pod_info, run, passing, statuses);
      for (size_t n = 0; n < run.size(); ++n) {
        CHECK(passing[n] == (c.want_filter[n].IsSuccess() ? 1 : 0));
        CHECK(statuses[n].ToString() == c.want_filter[n].ToString());
      }
    }
  }
}

TEST_CASE("TestPreFilterDisabled", "[interpodaffinity][filter]") {
  testing::FakeHandle h;
  auto p = NewPlugin(h);
  const framework::NodeInfo node = testing::MakeNode().Info();
  CycleState state;
  const Status got = p->Filter(state, *Info(api::v1::Pod()), node);
  CHECK(got.code() == Code::kError);
  CHECK_THAT(got.Message(), Catch::Contains("not found"));
}

TEST_CASE("TestPreFilterStateAddRemovePod", "[interpodaffinity][filter]") {
  const LabelMap label1 = {{"region", "r1"}, {"zone", "z11"}};
  const LabelMap label2 = {{"region", "r1"}, {"zone", "z12"}};
  const LabelMap label3 = {{"region", "r2"}, {"zone", "z21"}};
  const LabelMap selector1 = {{"foo", "bar"}};
  const auto foo_bar_region = Term(Sel({{"foo", "In", {"bar"}}}), "region");
  const auto foo_bar_buzz_region = Term(Sel({{"foo", "In", {"bar", "buzz"}}}), "region");
  const auto service_zone = Term(Sel({{"service", "NotIn", {"bar", "security", "test"}}}), "zone");
  const api::v1::Affinity anti_affinity_foo_bar = AffinityBuilder().RequiredAnti(foo_bar_region).Obj();
  const api::v1::Affinity anti_affinity_complex =
      AffinityBuilder().RequiredAnti(foo_bar_buzz_region).RequiredAnti(service_zone).Obj();
  const api::v1::Affinity affinity_complex =
      AffinityBuilder().Required(foo_bar_buzz_region).Required(service_zone).Obj();
  const api::v1::Affinity anti_foo_bar_and_affinity_complex = AffinityBuilder()
                                                                  .RequiredAnti(foo_bar_region)
                                                                  .Required(foo_bar_buzz_region)
                                                                  .Required(service_zone)
                                                                  .Obj();
  const std::vector<api::v1::Node> nodes = {Node("nodeA", label1), Node("nodeB", label2),
                                            Node("nodeC", label3)};

  struct Case {
    std::string name;
    api::v1::Pod pending_pod;
    api::v1::Pod added_pod;
    std::vector<api::v1::Pod> existing_pods;
    Counts expected_anti_affinity;
    Counts expected_affinity;
  };
  const std::vector<Case> cases = {
      {"preFilterState anti-affinity terms are updated correctly after adding and removing a pod",
       WithAffinity(Pod().Name("pending").Labels(selector1).Obj(), anti_affinity_foo_bar),
       WithAffinity(Pod().Name("addedPod").Labels(selector1).Node("nodeB").Obj(), anti_affinity_foo_bar),
       {Pod().Name("p1").Labels(selector1).Node("nodeA").Obj(),
        WithAffinity(Pod().Name("p2").Node("nodeC").Obj(), anti_affinity_foo_bar)},
       {{{"region", "r1"}, 2}},
       {}},
      {"preFilterState anti-affinity terms are updated correctly after adding and removing a pod",
       WithAffinity(Pod().Name("pending").Labels(selector1).Obj(), anti_affinity_complex),
       WithAffinity(Pod().Name("addedPod").Labels(selector1).Node("nodeA").Obj(), anti_affinity_complex),
       {Pod().Name("p1").Labels(selector1).Node("nodeA").Obj(),
        WithAffinity(Pod().Name("p2").Node("nodeC").Obj(), anti_affinity_foo_bar)},
       {{{"region", "r1"}, 2}, {{"zone", "z11"}, 2}, {{"zone", "z21"}, 1}},
       {}},
      {"preFilterState matching pod affinity and anti-affinity are updated correctly after adding and "
       "removing a pod",
       WithAffinity(Pod().Name("pending").Labels(selector1).Obj(), affinity_complex),
       WithAffinity(Pod().Name("addedPod").Labels(selector1).Node("nodeA").Obj(), anti_affinity_complex),
       {Pod().Name("p1").Labels(selector1).Node("nodeA").Obj(),
        WithAffinity(Pod().Name("p2").Node("nodeC").Obj(), anti_foo_bar_and_affinity_complex)},
       {},
       {{{"region", "r1"}, 2}, {{"zone", "z11"}, 2}}},
  };

  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    DYNAMIC_SECTION("TestPreFilterStateAddRemovePod #" << i << ": " << c.name) {
      const auto pending = Info(c.pending_pod);

      // State with every pod, test.addedPod included.
      std::vector<api::v1::Pod> all_pods = c.existing_pods;
      all_pods.push_back(c.added_pod);
      testing::FakeHandle all_h;
      all_h.SetCluster(nodes, all_pods);
      auto all_p = NewPlugin(all_h);
      CycleState all_state;
      REQUIRE(all_p->PreFilter(all_state, *pending, all_h.snapshot().nodes()).status.IsSuccess());
      const auto* all_pods_state = all_state.Read<PreFilterState>(kPreFilterKey);
      REQUIRE(all_pods_state != nullptr);

      // State without it.
      testing::FakeHandle h;
      h.SetCluster(nodes, c.existing_pods);
      auto p = NewPlugin(h);
      CycleState state;
      REQUIRE(p->PreFilter(state, *pending, h.snapshot().nodes()).status.IsSuccess());
      const auto original = state.Read<PreFilterState>(kPreFilterKey)->Clone();
      const auto& original_state = static_cast<const PreFilterState&>(*original);

      const auto added = Info(c.added_pod);
      const framework::NodeInfo& node = NodeInfoOf(h, c.added_pod.spec().node_name());
      REQUIRE(p->AddPod(state, *pending, *added, node).IsSuccess());
      const auto* s = state.Read<PreFilterState>(kPreFilterKey);
      CHECK(s->anti_affinity.ToMap() == c.expected_anti_affinity);
      CHECK(s->affinity.ToMap() == c.expected_affinity);
      CHECK(s->existing_anti_affinity.ToMap() == all_pods_state->existing_anti_affinity.ToMap());
      CHECK(s->affinity == all_pods_state->affinity);
      CHECK(s->anti_affinity == all_pods_state->anti_affinity);
      CHECK(s->existing_anti_affinity == all_pods_state->existing_anti_affinity);
      CHECK(s->matches_own_affinity == all_pods_state->matches_own_affinity);
      CHECK(s->namespace_labels == all_pods_state->namespace_labels);

      REQUIRE(p->RemovePod(state, *pending, *added, node).IsSuccess());
      CHECK(s->affinity == original_state.affinity);
      CHECK(s->anti_affinity == original_state.anti_affinity);
      CHECK(s->existing_anti_affinity == original_state.existing_anti_affinity);
      CHECK(s->affinity.ToMap() == original_state.affinity.ToMap());
      CHECK(s->anti_affinity.ToMap() == original_state.anti_affinity.ToMap());
      CHECK(s->existing_anti_affinity.ToMap() == original_state.existing_anti_affinity.ToMap());
    }
  }
}

TEST_CASE("TestPreFilterStateClone", "[interpodaffinity][filter]") {
  PreFilterState source;
  const Symbol name = Symbol::Intern("name");
  source.existing_anti_affinity.Add(name, Symbol::Intern("node1"), 1);
  source.existing_anti_affinity.Add(name, Symbol::Intern("node2"), 1);
  source.affinity.Add(name, Symbol::Intern("nodeA"), 1);
  source.affinity.Add(name, Symbol::Intern("nodeC"), 2);
  source.anti_affinity.Add(name, Symbol::Intern("nodeN"), 3);
  source.anti_affinity.Add(name, Symbol::Intern("nodeM"), 1);

  const auto clone_data = source.Clone();
  const auto* clone = dynamic_cast<const PreFilterState*>(clone_data.get());
  REQUIRE(clone != nullptr);
  CHECK(clone != &source);
  CHECK(clone->existing_anti_affinity == source.existing_anti_affinity);
  CHECK(clone->affinity == source.affinity);
  CHECK(clone->anti_affinity == source.anti_affinity);
  CHECK(clone->affinity.ToMap() == Counts{{{"name", "nodeA"}, 1}, {{"name", "nodeC"}, 2}});

  // The copy is deep: the PreFilter extensions edit clones.
  source.affinity.Update(name, Symbol::Intern("nodeA"), -1);
  CHECK(clone->affinity.ToMap() == Counts{{{"name", "nodeA"}, 1}, {{"name", "nodeC"}, 2}});
  CHECK(source.affinity.ToMap() == Counts{{{"name", "nodeC"}, 2}});
}

TEST_CASE("TestGetTPMapMatchingIncomingAffinityAntiAffinity", "[interpodaffinity][filter]") {
  auto new_pod = [](std::vector<std::string> labels) {
    auto b = Pod().Name("normal").Node("nodeA");
    for (auto& l : labels) b.Label(l, "");
    return b.Obj();
  };
  const api::v1::Pod normal_pod_a = new_pod({"aaa"});
  const api::v1::Pod normal_pod_b = new_pod({"bbb"});
  const api::v1::Pod normal_pod_ab = new_pod({"aaa", "bbb"});
  const api::v1::Node node_a = Node("nodeA", {{"hostname", "nodeA"}});

  struct Case {
    std::string name;
    std::vector<api::v1::Pod> existing_pods;
    api::v1::Pod pod;
    Counts want_affinity;
    Counts want_anti_affinity;
  };
  const std::vector<Case> cases = {
      {"nil test", {}, Pod().Name("aaa-normal").Obj(), {}, {}},
      {"incoming pod without affinity/anti-affinity causes a no-op",
       {normal_pod_a},
       Pod().Name("aaa-normal").Obj(),
       {},
       {}},
      {"no pod has label that violates incoming pod's affinity and anti-affinity",
       {normal_pod_b},
       Pod()
           .Name("aaa-anti")
           .PodAffinityExists("aaa", "hostname", kRequired)
           .PodAntiAffinityExists("aaa", "hostname", kRequired)
           .Obj(),
       {},
       {}},
      {"existing pod matches incoming pod's affinity and anti-affinity - single term case",
       {normal_pod_a},
       Pod()
           .Name("affi-antiaffi")
           .PodAffinityExists("aaa", "hostname", kRequired)
           .PodAntiAffinityExists("aaa", "hostname", kRequired)
           .Obj(),
       {{{"hostname", "nodeA"}, 1}},
       {{{"hostname", "nodeA"}, 1}}},
      {"existing pod matches incoming pod's affinity and anti-affinity - multiple terms case",
       {normal_pod_ab},
       Pod()
           .Name("affi-antiaffi")
           .PodAffinityExists("aaa", "hostname", kRequired)
           .PodAffinityExists("bbb", "hostname", kRequired)
           .PodAntiAffinityExists("aaa", "hostname", kRequired)
           .Obj(),
       {{{"hostname", "nodeA"}, 2}},
       {{{"hostname", "nodeA"}, 1}}},
      {"existing pod not match incoming pod's affinity but matches anti-affinity",
       {normal_pod_a},
       Pod()
           .Name("affi-antiaffi")
           .PodAffinityExists("aaa", "hostname", kRequired)
           .PodAffinityExists("bbb", "hostname", kRequired)
           .PodAntiAffinityExists("aaa", "hostname", kRequired)
           .PodAntiAffinityExists("bbb", "hostname", kRequired)
           .Obj(),
       {},
       {{{"hostname", "nodeA"}, 1}}},
      {"incoming pod's anti-affinity has more than one term - existing pod violates partial term - case 1",
       {normal_pod_ab},
       Pod()
           .Name("anaffi-antiaffiti")
           .PodAffinityExists("aaa", "hostname", kRequired)
           .PodAffinityExists("ccc", "hostname", kRequired)
           .PodAntiAffinityExists("aaa", "hostname", kRequired)
           .PodAntiAffinityExists("ccc", "hostname", kRequired)
           .Obj(),
       {},
       {{{"hostname", "nodeA"}, 1}}},
      {"incoming pod's anti-affinity has more than one term - existing pod violates partial term - case 2",
       {normal_pod_b},
       Pod()
           .Name("affi-antiaffi")
           .PodAffinityExists("aaa", "hostname", kRequired)
           .PodAffinityExists("bbb", "hostname", kRequired)
           .PodAntiAffinityExists("aaa", "hostname", kRequired)
           .PodAntiAffinityExists("bbb", "hostname", kRequired)
           .Obj(),
       {},
       {{{"hostname", "nodeA"}, 1}}},
  };

  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    DYNAMIC_SECTION("TestGetTPMapMatchingIncomingAffinityAntiAffinity #" << i << ": " << c.name) {
      testing::FakeHandle h;
      h.SetCluster({node_a}, c.existing_pods);
      auto p = NewPlugin(h);
      const auto [affinity, anti_affinity] = p->IncomingAffinityCounts(*Info(c.pod), h.snapshot().nodes());
      CHECK(affinity.ToMap() == c.want_affinity);
      CHECK(anti_affinity.ToMap() == c.want_anti_affinity);
    }
  }
}

// Not upstream: the extensions fail without PreFilter state, as upstream's
// getPreFilterState does.
TEST_CASE("InterPodAffinity AddPod/RemovePod without PreFilter state", "[interpodaffinity][filter]") {
  testing::FakeHandle h;
  h.SetCluster({Node("n1")}, {});
  auto p = NewPlugin(h);
  const auto pod = Info(Pod().Name("p").Obj());
  CycleState state;
  CHECK(p->AddPod(state, *pod, *pod, NodeInfoOf(h, "n1")).code() == Code::kError);
  CHECK(p->RemovePod(state, *pod, *pod, NodeInfoOf(h, "n1")).code() == Code::kError);
}

// Not upstream: the PreFilter work is split over chunks of nodes run in
// parallel; the counts must not depend on it.
TEST_CASE("InterPodAffinity PreFilter gives the same counts in parallel", "[interpodaffinity][filter]") {
  std::vector<api::v1::Node> nodes;
  std::vector<api::v1::Pod> pods;
  for (int i = 0; i < 300; ++i) {
    const std::string name = "node" + std::to_string(i);
    nodes.push_back(Node(name, {{"zone", "z" + std::to_string(i % 7)}, {"hostname", name}}));
    pods.push_back(
        Pod().Name("a" + std::to_string(i)).Node(name).Label("app", i % 3 == 0 ? "web" : "db").Obj());
    if (i % 5 == 0) {
      pods.push_back(Pod()
                         .Name("b" + std::to_string(i))
                         .Node(name)
                         .Label("app", "cache")
                         .PodAntiAffinityIn("app", "zone", {"web"}, kRequired)
                         .Obj());
    }
  }
  const auto pod = Info(Pod()
                            .Name("incoming")
                            .Label("app", "web")
                            .PodAffinityIn("app", "zone", {"db"}, kRequired)
                            .PodAntiAffinityIn("app", "hostname", {"web"}, kRequired)
                            .Obj());

  auto run = [&](int parallelism) {
    testing::FakeHandle h(parallelism);
    h.SetCluster(nodes, pods);
    auto p = NewPlugin(h);
    CycleState state;
    REQUIRE(p->PreFilter(state, *pod, h.snapshot().nodes()).status.IsSuccess());
    const auto* s = state.Read<PreFilterState>(kPreFilterKey);
    std::vector<std::string> verdicts;
    for (const auto& n : nodes)
      verdicts.push_back(p->Filter(state, *pod, NodeInfoOf(h, n.metadata().name())).ToString());
    return std::make_tuple(s->existing_anti_affinity.ToMap(), s->affinity.ToMap(), s->anti_affinity.ToMap(),
                           verdicts);
  };
  const auto serial = run(1);
  const auto parallel = run(4);
  CHECK(std::get<0>(serial) == std::get<0>(parallel));
  CHECK(std::get<1>(serial) == std::get<1>(parallel));
  CHECK(std::get<2>(serial) == std::get<2>(parallel));
  CHECK(std::get<3>(serial) == std::get<3>(parallel));
  CHECK(std::get<1>(serial).size() == 7);
  CHECK(std::get<0>(serial).size() == 7);
}

// Not upstream: v1.35's scheduler does not read matchLabelKeys /
// mismatchLabelKeys of pod affinity terms; the API server merges them into the
// labelSelector when the pod is created (MatchLabelKeysInPodAffinity, GA and
// locked on). A term that still carries them is matched by its labelSelector
// alone.
TEST_CASE("InterPodAffinity ignores matchLabelKeys and mismatchLabelKeys", "[interpodaffinity][filter]") {
  auto term = Term(Sel({{"app", "In", {"web"}}}), "zone");
  term.add_match_label_keys("tier");
  term.add_mismatch_label_keys("app");
  testing::FakeHandle h;
  h.SetCluster({Node("n1", {{"zone", "a"}}), Node("n2", {{"zone", "b"}})},
               {Pod().Name("existing").Node("n1").Labels({{"app", "web"}, {"tier", "backend"}}).Obj()});
  auto p = NewPlugin(h);
  const auto pod = Info(Pod()
                            .Name("incoming")
                            .Labels({{"app", "web"}, {"tier", "frontend"}})
                            .PodAffinity(kRequired, term)
                            .Obj());
  CycleState state;
  REQUIRE(p->PreFilter(state, *pod, h.snapshot().nodes()).status.IsSuccess());
  CHECK(p->Filter(state, *pod, NodeInfoOf(h, "n1")).IsSuccess());
  CHECK(p->Filter(state, *pod, NodeInfoOf(h, "n2")).ToString() ==
        Want(Code::kUnschedulableAndUnresolvable, kReasonAffinity).ToString());
}

}  // namespace
}  // namespace schedkit::ipa_test
