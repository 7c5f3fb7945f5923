// TaintToleration: upstream v1.35.8 tainttoleration/taint_toleration_test.go
// cases (TestTaintTolerationScore, TestTaintTolerationFilter,
// TestTaintTolerationFilterWithFeatureGate, TestIsSchedulableAfterNodeChange,
// Test_isSchedulableAfterPodTolerationChange), plus events and args.
//
// Cases that enable the alpha TaintTolerationComparisonOperators gate (off by
// default in v1.35, which schedkit follows) are not ported; the gate-off cases
// of TestTaintTolerationFilterWithFeatureGate are.
#include "plugins/tainttoleration/taint_toleration.h"

#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "schedkit/framework/cycle_state.h"
#include "schedkit/plugins/names.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"
#include "testing/filter_nodes.h"
#include "testing/must.h"
#include "testing/normalizes_by_maximum.h"
#include "testing/node_or_pod_event.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::EventObjects;
using framework::QueueingHint;
using framework::Status;
using testing::MakeNode;
using testing::MakePod;

struct Tol {
  std::string key, op, value, effect;
};
struct TaintSpec {
  std::string key, value, effect;
};

api::v1::Pod PodWithTolerations(const std::string& name, const std::vector<Tol>& tolerations) {
  testing::PodBuilder b = MakePod().Name(name);
  for (const Tol& t : tolerations) b.Toleration(t.key, t.op, t.value, t.effect);
  return b.Obj();
}

api::v1::Node NodeWithTaints(const std::string& name, const std::vector<TaintSpec>& taints) {
  testing::NodeBuilder b = MakeNode().Name(name);
  for (const TaintSpec& t : taints) b.Taint(t.key, t.value, t.effect);
  return b.Obj();
}

const Status& Untolerated() {
  static const Status s(Code::kUnschedulableAndUnresolvable,
                        Symbol::Intern("node(s) had untolerated taint(s)"));
  return s;
}

TEST_CASE("TestTaintTolerationScore", "[tainttoleration]") {
  struct Case {
    std::string name;
    api::v1::Pod pod;
    std::vector<api::v1::Node> nodes;
    std::map<std::string, int64_t> expected;
  };
  const std::vector<Case> cases = {
      {"node with taints tolerated by the pod, gets a higher score than those node with intolerable taints",
       PodWithTolerations("pod1", {{"foo", "Equal", "bar", "PreferNoSchedule"}}),
       {NodeWithTaints("nodeA", {{"foo", "bar", "PreferNoSchedule"}}),
        NodeWithTaints("nodeB", {{"foo", "blah", "PreferNoSchedule"}})},
       {{"nodeA", 100}, {"nodeB", 0}}},
      {"the nodes that all of their taints are tolerated by the pod, get the same score, no matter how many "
       "tolerable taints a node has",
       PodWithTolerations("pod1", {{"cpu-type", "Equal", "arm64", "PreferNoSchedule"},
                                   {"disk-type", "Equal", "ssd", "PreferNoSchedule"}}),
       {NodeWithTaints("nodeA", {}), NodeWithTaints("nodeB", {{"cpu-type", "arm64", "PreferNoSchedule"}}),
        NodeWithTaints(
            "nodeC", {{"cpu-type", "arm64", "PreferNoSchedule"}, {"disk-type", "ssd", "PreferNoSchedule"}})},
       {{"nodeA", 100}, {"nodeB", 100}, {"nodeC", 100}}},
      {"the more intolerable taints a node has, the lower score it gets.",
       PodWithTolerations("pod1", {{"foo", "Equal", "bar", "PreferNoSchedule"}}),
       {NodeWithTaints("nodeA", {}), NodeWithTaints("nodeB", {{"cpu-type", "arm64", "PreferNoSchedule"}}),
        NodeWithTaints(
            "nodeC", {{"cpu-type", "arm64", "PreferNoSchedule"}, {"disk-type", "ssd", "PreferNoSchedule"}})},
       {{"nodeA", 100}, {"nodeB", 50}, {"nodeC", 0}}},
      {"only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations "
       "priority "
       "function",
       PodWithTolerations("pod1", {{"cpu-type", "Equal", "arm64", "NoSchedule"},
                                   {"disk-type", "Equal", "ssd", "NoSchedule"}}),
       {NodeWithTaints("nodeA", {}), NodeWithTaints("nodeB", {{"cpu-type", "arm64", "NoSchedule"}}),
        NodeWithTaints(
            "nodeC", {{"cpu-type", "arm64", "PreferNoSchedule"}, {"disk-type", "ssd", "PreferNoSchedule"}})},
       {{"nodeA", 100}, {"nodeB", 100}, {"nodeC", 0}}},
      {"Default behaviour No taints and tolerations, lands on node with no taints",
       PodWithTolerations("pod1", {}),
       {NodeWithTaints("nodeA", {}), NodeWithTaints("nodeB", {{"cpu-type", "arm64", "PreferNoSchedule"}})},
       {{"nodeA", 100}, {"nodeB", 0}}},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION("TestTaintTolerationScore/" << c.name) {
      testing::FakeHandle h;
      h.SetCluster(c.nodes, {});
      auto plugin = testing::MustNew(&NewTaintToleration, h);
      auto& pre_score = dynamic_cast<framework::PreScorePlugin&>(*plugin);
      auto& score = dynamic_cast<framework::ScorePlugin&>(*plugin);
      framework::CycleState state;
      auto pod = framework::PodInfo::Create(c.pod).value();
      const auto nodes = h.snapshot().nodes();
      REQUIRE(pre_score.PreScore(state, *pod, nodes).IsSuccess());
      std::vector<int64_t> scores(nodes.size());
      for (size_t i = 0; i < nodes.size(); ++i) {
        const Status s = score.Score(state, *pod, *nodes[i], scores[i]);
        REQUIRE(s.IsSuccess());
      }
      REQUIRE(score.GetScoreExtensions() != nullptr);
      const std::vector<int64_t> raw = scores;
      REQUIRE(score.GetScoreExtensions()->NormalizeScore(state, *pod, nodes, scores).IsSuccess());
      testing::CheckNormalizesByMaximum(*score.GetScoreExtensions(), raw, scores);
      std::map<std::string, int64_t> got;
      for (size_t i = 0; i < nodes.size(); ++i) got[std::string(nodes[i]->name().str())] = scores[i];
      CHECK(got == c.expected);
    }
  }
}

struct FilterCase {
  std::string name;
  api::v1::Pod pod;
  api::v1::Node node;
  Status want;
};

void RunFilter(const std::string& test, const std::vector<FilterCase>& cases) {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewTaintToleration, h);
  auto& filter = dynamic_cast<framework::FilterPlugin&>(*plugin);
  for (const FilterCase& c : cases) {
    DYNAMIC_SECTION(test << "/" << c.name) {
      framework::CycleState state;
      auto pod = framework::PodInfo::Create(c.pod).value();
      const framework::NodeInfo node = framework::NodeInfo::Create(c.node).value();
      const Status got = filter.Filter(state, *pod, node);
      CHECK(got.ToString() == c.want.ToString());
      CHECK(got == c.want);
      CHECK(testing::FilterThroughBatch(filter, state, *pod, node) == got);
    }
  }
}

TEST_CASE("TestTaintTolerationFilter", "[tainttoleration]") {
  RunFilter(
      "TestTaintTolerationFilter",
      {
          {"A pod having no tolerations can't be scheduled onto a node with nonempty taints",
           PodWithTolerations("pod1", {}), NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"}}),
           Untolerated()},
          {"A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule",
           PodWithTolerations("pod1", {{"dedicated", "", "user1", "NoSchedule"}}),
           NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"}}), Status()},
          {"A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule",
           PodWithTolerations("pod1", {{"dedicated", "Equal", "user2", "NoSchedule"}}),
           NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"}}), Untolerated()},
          {"A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the "
           "taints "
           "on the node",
           PodWithTolerations("pod1", {{"foo", "Exists", "", "NoSchedule"}}),
           NodeWithTaints("nodeA", {{"foo", "bar", "NoSchedule"}}), Status()},
          {"A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can "
           "be "
           "scheduled onto the node",
           PodWithTolerations(
               "pod1", {{"dedicated", "Equal", "user2", "NoSchedule"}, {"foo", "Exists", "", "NoSchedule"}}),
           NodeWithTaints("nodeA", {{"dedicated", "user2", "NoSchedule"}, {"foo", "bar", "NoSchedule"}}),
           Status()},
          {"A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect "
           "doesn't match, can't be scheduled onto the node",
           PodWithTolerations("pod1", {{"foo", "Equal", "bar", "PreferNoSchedule"}}),
           NodeWithTaints("nodeA", {{"foo", "bar", "NoSchedule"}}), Untolerated()},
          {"The pod has a toleration that keys and values match the taint on the node, the effect of "
           "toleration is "
           "empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node",
           PodWithTolerations("pod1", {{"foo", "Equal", "bar", ""}}),
           NodeWithTaints("nodeA", {{"foo", "bar", "NoSchedule"}}), Status()},
          {"The pod has a toleration that key and value don't match the taint on the node, but the effect of "
           "taint "
           "on node is PreferNoSchedule. Pod can be scheduled onto the node",
           PodWithTolerations("pod1", {{"dedicated", "Equal", "user2", "NoSchedule"}}),
           NodeWithTaints("nodeA", {{"dedicated", "user1", "PreferNoSchedule"}}), Status()},
          {"The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be "
           "scheduled "
           "onto the node",
           PodWithTolerations("pod1", {}),
           NodeWithTaints("nodeA", {{"dedicated", "user1", "PreferNoSchedule"}}), Status()},
      });
}

TEST_CASE("TestTaintTolerationFilterWithFeatureGate", "[tainttoleration]") {
  RunFilter(
      "TestTaintTolerationFilterWithFeatureGate",
      {
          {"Pod with Gt toleration cannot be scheduled when feature gate is disabled",
           PodWithTolerations("pod1", {{"node.kubernetes.io/sla", "Gt", "750", "NoSchedule"}}),
           NodeWithTaints("nodeA", {{"node.kubernetes.io/sla", "950", "NoSchedule"}}), Untolerated()},
          {"Pod with Lt toleration cannot be scheduled when feature gate is disabled",
           PodWithTolerations("pod1", {{"node.kubernetes.io/sla", "Lt", "950", "NoSchedule"}}),
           NodeWithTaints("nodeA", {{"node.kubernetes.io/sla", "800", "NoSchedule"}}), Untolerated()},
          {"Pod with mixed tolerations (Equal and Gt) when feature gate is disabled - only Equal is honored",
           PodWithTolerations("pod1", {{"dedicated", "Equal", "user1", "NoSchedule"},
                                       {"node.kubernetes.io/sla", "Gt", "750", "NoSchedule"}}),
           NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"}}), Status()},
          {"Pod with mixed tolerations, Gt toleration needed but filtered out when feature gate is disabled",
           PodWithTolerations("pod1", {{"dedicated", "Equal", "user1", "NoSchedule"},
                                       {"node.kubernetes.io/sla", "Gt", "750", "NoSchedule"}}),
           NodeWithTaints("nodeA", {{"dedicated", "user1", "NoSchedule"},
                                    {"node.kubernetes.io/sla", "950", "NoSchedule"}}),
           Untolerated()},
      });
}

struct HintCase {
  std::string name;
  api::v1::Pod pod;
  std::optional<api::v1::Node> old_node, new_node;
  std::optional<api::v1::Pod> old_pod, new_pod;
  QueueingHint want;
  bool want_err = false;
};

void RunHints(const std::string& test, framework::EventResource resource,
              const std::vector<HintCase>& cases) {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewTaintToleration, h);
  const auto events = dynamic_cast<framework::EnqueueExtensions&>(*plugin).EventsToRegister();
  const framework::QueueingHintFn* hint = nullptr;
  for (const auto& e : events) {
    if (e.event.resource == resource) hint = &e.hint;
  }
  REQUIRE(hint != nullptr);
  REQUIRE(*hint);
  for (const HintCase& c : cases) {
    DYNAMIC_SECTION(test << "/" << c.name) {
      auto pod = framework::PodInfo::Create(c.pod).value();
      const EventObjects e =
          testing::NodeOrPodEvent(resource, c.old_node, c.new_node, c.old_pod, c.new_pod);
      const auto got = (*hint)(*pod, e);
      if (c.want_err) {
        CHECK_FALSE(got.ok());  // an error counts as Queue
      } else {
        REQUIRE(got.ok());
        CHECK(*got == c.want);
      }
    }
  }
}

TEST_CASE("TestIsSchedulableAfterNodeChange", "[tainttoleration]") {
  const api::v1::Pod user2 = PodWithTolerations("pod1", {{"dedicated", "Equal", "user2", "NoSchedule"}});
  const auto node_user = [](const std::string& v) {
    return NodeWithTaints("nodeA", {{"dedicated", v, "NoSchedule"}});
  };
  // Upstream passes a nil pod here; the hint fails before looking at it.
  RunHints("TestIsSchedulableAfterNodeChange", framework::EventResource::Node(),
           {
               {"backoff-wrong-new-object", MakePod().Obj(), std::nullopt, std::nullopt, std::nullopt,
                MakePod().Obj(), QueueingHint::kQueue, true},
               {"backoff-wrong-old-object", MakePod().Obj(), std::nullopt, node_user("user1"),
                MakePod().Obj(), std::nullopt, QueueingHint::kQueue, true},
               {"skip-queue-on-untoleratedtaint-node-added", user2, std::nullopt, node_user("user1"),
                std::nullopt, std::nullopt, QueueingHint::kSkip},
               {"queue-on-toleratedtaint-node-added", user2, std::nullopt, node_user("user2"), std::nullopt,
                std::nullopt, QueueingHint::kQueue},
               {"skip-unrelated-change", user2, node_user("user1"),
                NodeWithTaints("nodeA",
                               {{"dedicated", "user1", "NoSchedule"}, {"dedicated", "user3", "NoSchedule"}}),
                std::nullopt, std::nullopt, QueueingHint::kSkip},
               {"queue-on-taint-change", user2, node_user("user1"), node_user("user2"), std::nullopt,
                std::nullopt, QueueingHint::kQueue},
           });
}

// Upstream v1.37.2 Test_isSchedulableAfterTargetPodTolerationChange: the pod's
// own toleration update always queues (whose update it is is not asked).
TEST_CASE("Test_isSchedulableAfterTargetPodTolerationChange", "[tainttoleration]") {
  RunHints(
      "Test_isSchedulableAfterTargetPodTolerationChange", framework::EventResource::TargetPod(),
      {
          {"queue-on-toleration-added", MakePod().Name("pod-1").Namespace("ns-1").UID("").Obj(), std::nullopt,
           std::nullopt, MakePod().Name("pod-1").Namespace("ns-1").UID("").Obj(),
           MakePod().Name("pod-1").Namespace("ns-1").UID("").Toleration("foo", "", "", "NoSchedule").Obj(),
           QueueingHint::kQueue},
      });
}

TEST_CASE("TaintToleration Score without PreScore is an error", "[tainttoleration]") {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewTaintToleration, h);
  framework::CycleState state;
  const framework::NodeInfo node = MakeNode().Name("n").Info();
  int64_t score = 0;
  const Status s =
      dynamic_cast<framework::ScorePlugin&>(*plugin).Score(state, *MakePod().Info(), node, score);
  CHECK(s.code() == Code::kError);
  CHECK(s.Message() == "failed to read \"PreScoreTaintToleration\" from cycleState: not found");
}

TEST_CASE("TaintToleration filters NoExecute taints and ignores PreferNoSchedule ones", "[tainttoleration]") {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewTaintToleration, h);
  auto& filter = dynamic_cast<framework::FilterPlugin&>(*plugin);
  framework::CycleState state;
  const auto node = framework::NodeInfo::Create(NodeWithTaints("n", {{"k", "v", "NoExecute"}})).value();
  CHECK(filter.Filter(state, *MakePod().Info(), node) == Untolerated());
  CHECK(filter.Filter(state, *MakePod().Toleration("k", "Exists", "", "NoExecute").Info(), node).IsSuccess());
  CHECK(filter.Filter(state, *MakePod().Toleration("", "Exists").Info(), node).IsSuccess());
}

TEST_CASE("TaintToleration registers Node/Add|UpdateNodeTaint and TargetPod/UpdatePodToleration",
          "[tainttoleration]") {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewTaintToleration, h);
  CHECK(plugin->Name() == names::kTaintToleration);
  const auto events = dynamic_cast<framework::EnqueueExtensions&>(*plugin).EventsToRegister();
  REQUIRE(events.size() == 2);
  CHECK(events[0].event.resource == framework::EventResource::Node());
  CHECK(events[0].event.action == (framework::kActionAdd | framework::kActionUpdateNodeTaint));
  CHECK(events[1].event.resource == framework::EventResource::TargetPod());
  CHECK(events[1].event.action == framework::kActionUpdatePodToleration);
}

TEST_CASE("TaintToleration args", "[tainttoleration]") {
  testing::FakeHandle h;
  CHECK(NewTaintToleration(framework::PluginArgs("{}"), h).ok());
  auto bad = NewTaintToleration(framework::PluginArgs(R"({"tolerations": []})"), h);
  REQUIRE_FALSE(bad.ok());
  CHECK(std::string(bad.status().message()).find("tolerations") != std::string::npos);
}

}  // namespace
}  // namespace schedkit::plugins
