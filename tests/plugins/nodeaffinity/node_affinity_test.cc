// NodeAffinity: upstream v1.35.8 nodeaffinity/node_affinity_test.go cases
// (TestNodeAffinity, TestNodeAffinityPriority, Test_isSchedulableAfterNodeChange)
// and the NodeAffinityArgs cases of apis/config/validation's
// TestValidateNodeAffinityArgs, plus args parsing, events and schedkit-specific
// checks.
//
// Upstream's TestNodeAffinityPriority builds a framework runtime only to hand
// the plugin a snapshot; here the plugin methods run directly on a FakeHandle.
#include "plugins/nodeaffinity/node_affinity.h"

#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "plugins/nodeaffinity/term_errors.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/plugins/names.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"
#include "testing/must.h"
#include "testing/normalizes_by_maximum.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::EventObjects;
using framework::QueueingHint;
using framework::Status;
using testing::LabelMap;
using testing::MakeNode;
using testing::MakePod;

api::v1::NodeSelectorRequirement Req(std::string key, std::string op, std::vector<std::string> values = {}) {
  api::v1::NodeSelectorRequirement r;
  r.set_key(std::move(key));
  r.set_operator_(std::move(op));
  for (auto& v : values) r.add_values(std::move(v));
  return r;
}

api::v1::NodeSelectorTerm Term(const std::vector<api::v1::NodeSelectorRequirement>& expressions,
                               const std::vector<api::v1::NodeSelectorRequirement>& fields = {}) {
  api::v1::NodeSelectorTerm t;
  for (const auto& r : expressions) *t.add_match_expressions() = r;
  for (const auto& r : fields) *t.add_match_fields() = r;
  return t;
}

api::v1::NodeSelectorTerm Fields(const std::vector<api::v1::NodeSelectorRequirement>& fields) {
  return Term({}, fields);
}

// A pod whose spec.affinity.nodeAffinity.requiredDuringScheduling... holds
// `terms` (set even when empty), with an optional nodeSelector.
api::v1::Pod RequiredPod(const std::vector<api::v1::NodeSelectorTerm>& terms,
                         const LabelMap& node_selector = {}) {
  api::v1::Pod pod = MakePod().NodeSelector(node_selector).Obj();
  auto* required = pod.mutable_spec()
                       ->mutable_affinity()
                       ->mutable_node_affinity()
                       ->mutable_required_during_scheduling_ignored_during_execution();
  for (const auto& t : terms) *required->add_node_selector_terms() = t;
  return pod;
}

api::v1::Pod PreferredPod(const std::vector<std::pair<int32_t, api::v1::NodeSelectorTerm>>& terms) {
  testing::PodBuilder b = MakePod();
  for (const auto& [w, t] : terms) b.PreferredNodeAffinity(w, t);
  return b.Obj();
}

const Status& ErrPod() {
  static const Status s(Code::kUnschedulableAndUnresolvable, Symbol::Intern(NodeAffinity::kErrReasonPod));
  return s;
}
const Status& ErrEnforced() {
  static const Status s(Code::kUnschedulableAndUnresolvable,
                        Symbol::Intern(NodeAffinity::kErrReasonEnforced));
  return s;
}
const Status& ErrConflict() {
  static const Status s(Code::kUnschedulableAndUnresolvable,
                        Symbol::Intern(NodeAffinity::kErrReasonConflict));
  return s;
}

using Names = std::optional<std::vector<std::string>>;

// addedAffinity: required matchFields metadata.name In [node2].
constexpr const char* kAddedRequiredNode2 =
    R"({"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
    {"nodeSelectorTerms": [{"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node2"]}]}]}}})";

TEST_CASE("TestNodeAffinity", "[nodeaffinity]") {
  struct Case {
    std::string name;
    api::v1::Pod pod;
    LabelMap labels;
    std::string node_name;
    Status want_status;
    Status want_pre_filter_status;
    Names want_pre_filter_result;  // nullopt: all nodes
    std::string args = "";
    bool run_pre_filter = true;
  };
  const auto name_in = [](std::string n) { return Req("metadata.name", "In", {std::move(n)}); };
  const std::vector<Case> cases = {
      {"missing labels",
       MakePod().NodeSelector({{"foo", "bar"}}).Obj(),
       {},
       "",
       ErrPod(),
       Status(),
       std::nullopt},
      {"same labels",
       MakePod().NodeSelector({{"foo", "bar"}}).Obj(),
       {{"foo", "bar"}},
       "",
       Status(),
       Status(),
       std::nullopt},
      {"node labels are superset",
       MakePod().NodeSelector({{"foo", "bar"}}).Obj(),
       {{"foo", "bar"}, {"baz", "blah"}},
       "",
       Status(),
       Status(),
       std::nullopt},
      {"node labels are subset",
       MakePod().NodeSelector({{"foo", "bar"}, {"baz", "blah"}}).Obj(),
       {{"foo", "bar"}},
       "",
       ErrPod(),
       Status(),
       std::nullopt},
      {"Pod with matchExpressions using In operator that matches the existing node",
       RequiredPod({Term({Req("foo", "In", {"bar", "value2"})})}),
       {{"foo", "bar"}},
       "",
       Status(),
       Status(),
       std::nullopt},
      {"Pod with matchExpressions using Gt operator that matches the existing node",
       RequiredPod({Term({Req("kernel-version", "Gt", {"0204"})})}),
       {{"kernel-version", "0206"}},
       "",
       Status(),
       Status(),
       std::nullopt},
      {"Pod with matchExpressions using NotIn operator that matches the existing node",
       RequiredPod({Term({Req("mem-type", "NotIn", {"DDR", "DDR2"})})}),
       {{"mem-type", "DDR3"}},
       "",
       Status(),
       Status(),
       std::nullopt},
      {"Pod with matchExpressions using Exists operator that matches the existing node",
       RequiredPod({Term({Req("GPU", "Exists")})}),
       {{"GPU", "NVIDIA-GRID-K1"}},
       "",
       Status(),
       Status(),
       std::nullopt},
      {"Pod with affinity that don't match node's labels won't schedule onto the node",
       RequiredPod({Term({Req("foo", "In", {"value1", "value2"})})}),
       {{"foo", "bar"}},
       "",
       ErrPod(),
       Status(),
       std::nullopt},
      {"Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto "
       "the node",
       RequiredPod({Term({})}),
       {{"foo", "bar"}},
       "",
       ErrPod(),
       Status(),
       std::nullopt},
      {"Pod with no Affinity will schedule onto a node",
       MakePod().Obj(),
       {{"foo", "bar"}},
       "",
       Status(),
       Status::Skip(),
       std::nullopt},
      {"Pod with Affinity but nil NodeSelector will schedule onto a node",
       [] {
         api::v1::Pod p = MakePod().Obj();
         p.mutable_spec()->mutable_affinity()->mutable_node_affinity();
         return p;
       }(),
       {{"foo", "bar"}},
       "",
       Status(),
       Status::Skip(),
       std::nullopt},
      {"Pod with multiple matchExpressions ANDed that matches the existing node",
       RequiredPod({Term({Req("GPU", "Exists"), Req("GPU", "NotIn", {"AMD", "INTER"})})}),
       {{"GPU", "NVIDIA-GRID-K1"}},
       "",
       Status(),
       Status(),
       std::nullopt},
      {"Pod with multiple matchExpressions ANDed that doesn't match the existing node",
       RequiredPod({Term({Req("GPU", "Exists"), Req("GPU", "In", {"AMD", "INTER"})})}),
       {{"GPU", "NVIDIA-GRID-K1"}},
       "",
       ErrPod(),
       Status(),
       std::nullopt},
      {"Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule "
       "onto the "
       "node",
       RequiredPod(
           {Term({Req("foo", "In", {"bar", "value2"})}), Term({Req("diffkey", "In", {"wrong", "value2"})})}),
       {{"foo", "bar"}},
       "",
       Status(),
       Status(),
       std::nullopt},
      {"Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are "
       "satisfied, "
       "will schedule onto the node",
       RequiredPod({Term({Req("foo", "Exists")})}, {{"foo", "bar"}}),
       {{"foo", "bar"}},
       "",
       Status(),
       Status(),
       std::nullopt},
      {"Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are "
       "deprecating) is not satisfied, won't schedule onto the node",
       RequiredPod({Term({Req("foo", "Exists")})}, {{"foo", "bar"}}),
       {{"foo", "barrrrrr"}},
       "",
       ErrPod(),
       Status(),
       std::nullopt},
      {"Pod with an invalid value in Affinity term won't be scheduled onto the node",
       RequiredPod({Term({Req("foo", "NotIn", {"invalid value: ___@#$%^"})})}),
       {{"foo", "bar"}},
       "",
       ErrPod(),
       Status(),
       std::nullopt},
      {"Pod with matchFields using In operator that matches the existing node",
       RequiredPod({Fields({name_in("node1")})}),
       {},
       "node1",
       Status(),
       Status(),
       Names({"node1"})},
      {"Pod with matchFields using In operator that does not match the existing node",
       RequiredPod({Fields({name_in("node1")})}),
       {},
       "node2",
       ErrPod(),
       Status(),
       Names({"node1"})},
      {"Pod with two terms: matchFields does not match, but matchExpressions matches",
       RequiredPod({Fields({name_in("node1"), name_in("node2")}), Term({Req("foo", "In", {"bar"})})}),
       {{"foo", "bar"}},
       "node2",
       Status(),
       Status(),
       std::nullopt},
      {"Pod with one term: matchFields does not match, but matchExpressions matches",
       RequiredPod({Term({Req("foo", "In", {"bar"})}, {name_in("node1")})}),
       {{"foo", "bar"}},
       "node2",
       ErrPod(),
       Status(),
       Names({"node1"})},
      {"Pod with one term: both matchFields and matchExpressions match",
       RequiredPod({Term({Req("foo", "In", {"bar"})}, {name_in("node1")})}),
       {{"foo", "bar"}},
       "node1",
       Status(),
       Status(),
       Names({"node1"})},
      {"Pod with two terms: both matchFields and matchExpressions do not match",
       RequiredPod({Fields({name_in("node1")}), Term({Req("foo", "In", {"not-match-to-bar"})})}),
       {{"foo", "bar"}},
       "node2",
       ErrPod(),
       Status(),
       std::nullopt},
      {"Pod with two terms of node.Name affinity",
       RequiredPod({Fields({name_in("node1")}), Fields({name_in("node2")})}),
       {},
       "node2",
       Status(),
       Status(),
       Names({"node1", "node2"})},
      {"Pod with two conflicting mach field requirements",
       RequiredPod({Fields({name_in("node1"), name_in("node2")})}),
       {{"foo", "bar"}},
       "node2",
       ErrPod(),
       ErrConflict(),
       std::nullopt},
      {"Matches added affinity and Pod's node affinity",
       RequiredPod({Term({Req("zone", "In", {"foo"})})}),
       {{"zone", "foo"}},
       "node2",
       Status(),
       Status(),
       std::nullopt,
       kAddedRequiredNode2},
      {"Matches added affinity but not Pod's node affinity",
       RequiredPod({Term({Req("zone", "In", {"bar"})})}),
       {{"zone", "foo"}},
       "node2",
       ErrPod(),
       Status(),
       std::nullopt,
       kAddedRequiredNode2},
      {"Doesn't match added affinity",
       MakePod().Obj(),
       {{"zone", "foo"}},
       "node2",
       ErrEnforced(),
       Status(),
       std::nullopt,
       R"({"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms":
           [{"matchExpressions": [{"key": "zone", "operator": "In", "values": ["bar"]}]}]}}})"},
      {"Matches node selector correctly even if PreFilter is not called",
       MakePod().NodeSelector({{"foo", "bar"}}).Obj(),
       {{"foo", "bar"}, {"baz", "blah"}},
       "",
       Status(),
       Status(),
       std::nullopt,
       "",
       false},
      {"Matches node affinity correctly even if PreFilter is not called",
       RequiredPod({Term({Req("GPU", "Exists"), Req("GPU", "NotIn", {"AMD", "INTER"})})}),
       {{"GPU", "NVIDIA-GRID-K1"}},
       "",
       Status(),
       Status(),
       std::nullopt,
       "",
       false},
  };
  REQUIRE(cases.size() == 31);
  for (const Case& c : cases) {
    DYNAMIC_SECTION("TestNodeAffinity/" << c.name) {
      testing::NodeBuilder nb = MakeNode().Labels(c.labels);
      if (!c.node_name.empty()) nb.Name(c.node_name);
      const framework::NodeInfo node = nb.Info();
      testing::FakeHandle h;
      auto plugin = testing::MustNew(&NewNodeAffinity, h, c.args);
      framework::CycleState state;
      auto pod = framework::PodInfo::Create(c.pod).value();
      if (c.run_pre_filter) {
        const auto pre = dynamic_cast<framework::PreFilterPlugin&>(*plugin).PreFilter(state, *pod, {});
        CHECK(pre.status.ToString() == c.want_pre_filter_status.ToString());
        CHECK(pre.status == c.want_pre_filter_status);
        if (!c.want_pre_filter_result) {
          CHECK(pre.result.AllNodes());
        } else {
          REQUIRE_FALSE(pre.result.AllNodes());
          absl::flat_hash_set<Symbol> want;
          for (const std::string& n : *c.want_pre_filter_result) want.insert(Symbol::Intern(n));
          CHECK(*pre.result.node_names == want);
        }
      }
      // As upstream, Filter runs whatever PreFilter said.
      const Status got = dynamic_cast<framework::FilterPlugin&>(*plugin).Filter(state, *pod, node);
      CHECK(got.ToString() == c.want_status.ToString());
      CHECK(got == c.want_status);
    }
  }
}

// Upstream's affinity1 and affinity2 preferred terms.
const std::vector<std::pair<int32_t, api::v1::NodeSelectorTerm>>& Affinity1() {
  static const std::vector<std::pair<int32_t, api::v1::NodeSelectorTerm>> terms = {
      {2, Term({Req("foo", "In", {"bar"})})}};
  return terms;
}
const std::vector<std::pair<int32_t, api::v1::NodeSelectorTerm>>& Affinity2() {
  static const std::vector<std::pair<int32_t, api::v1::NodeSelectorTerm>> terms = {
      {2, Term({Req("foo", "In", {"bar"})})},
      {4, Term({Req("key", "In", {"value"})})},
      {5, Term({Req("foo", "In", {"bar"}), Req("key", "In", {"value"}), Req("az", "In", {"az1"})})},
  };
  return terms;
}

constexpr const char* kAddedPreferredAffinity1 =
    R"({"addedAffinity": {"preferredDuringSchedulingIgnoredDuringExecution":
    [{"weight": 2, "preference": {"matchExpressions": [{"key": "foo", "operator": "In", "values": ["bar"]}]}}]}})";

TEST_CASE("TestNodeAffinityPriority", "[nodeaffinity]") {
  const LabelMap label1 = {{"foo", "bar"}};
  const LabelMap label2 = {{"key", "value"}};
  const LabelMap label3 = {{"az", "az1"}};
  const LabelMap label4 = {{"abc", "az11"}, {"def", "az22"}};
  const LabelMap label5 = {{"foo", "bar"}, {"key", "value"}, {"az", "az1"}};
  const auto node = [](const std::string& name, const LabelMap& labels) {
    return MakeNode().Name(name).Labels(labels).Obj();
  };
  struct Case {
    std::string name;
    api::v1::Pod pod;
    std::vector<api::v1::Node> nodes;
    std::map<std::string, int64_t> expected;
    std::string args = "";
    bool run_pre_score = false;
    Status want_pre_score_status = Status();
  };
  const std::vector<Case> cases = {
      {"all nodes are same priority as NodeAffinity is nil",
       MakePod().Obj(),
       {node("node1", label1), node("node2", label2), node("node3", label3)},
       {{"node1", 0}, {"node2", 0}, {"node3", 0}}},
      {"Skip is returned in PreScore when NodeAffinity is nil",
       MakePod().Obj(),
       {node("node1", label1)},
       {},
       "",
       true,
       Status::Skip()},
      {"PreScore returns error when an incoming Pod has a broken affinity",
       PreferredPod({{2, Term({Req("invalid key", "In", {"bar"})})}}),
       {node("node1", label1)},
       {},
       "",
       true,
       Status::Error(
           R"([0].matchExpressions[0].key: Invalid value: "invalid key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'))")},
      {"no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes' priority is "
       "zero",
       PreferredPod(Affinity1()),
       {node("node1", label4), node("node2", label2), node("node3", label3)},
       {{"node1", 0}, {"node2", 0}, {"node3", 0}},
       "",
       true},
      {"only node1 matches the preferred scheduling requirements of pod",
       PreferredPod(Affinity1()),
       {node("node1", label1), node("node2", label2), node("node3", label3)},
       {{"node1", 100}, {"node2", 0}, {"node3", 0}},
       "",
       true},
      {"all nodes matches the preferred scheduling requirements of pod but with different priorities ",
       PreferredPod(Affinity2()),
       {node("node1", label1), node("node5", label5), node("node2", label2)},
       {{"node1", 18}, {"node5", 100}, {"node2", 36}},
       "",
       true},
      {"added affinity",
       MakePod().Obj(),
       {node("node1", label1), node("node2", label2)},
       {{"node1", 100}, {"node2", 0}},
       kAddedPreferredAffinity1,
       true},
      {"added affinity and pod has default affinity",
       PreferredPod(Affinity1()),
       {node("node1", label1), node("node2", label2), node("node3", label5)},
       {{"node1", 40}, {"node2", 60}, {"node3", 100}},
       R"({"addedAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 3, "preference":
           {"matchExpressions": [{"key": "key", "operator": "In", "values": ["value"]}]}}]}})",
       true},
      {"calculate the priorities correctly even if PreScore is not called",
       PreferredPod(Affinity2()),
       {node("node1", label1), node("node5", label5), node("node2", label2)},
       {{"node1", 18}, {"node5", 100}, {"node2", 36}}},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION("TestNodeAffinityPriority/" << c.name) {
      testing::FakeHandle h;
      h.SetCluster(c.nodes, {});
      auto plugin = testing::MustNew(&NewNodeAffinity, h, c.args);
      auto& score = dynamic_cast<framework::ScorePlugin&>(*plugin);
      framework::CycleState state;
      auto pod = framework::PodInfo::Create(c.pod).value();
      const auto nodes = h.snapshot().nodes();
      if (c.run_pre_score) {
        const Status s = dynamic_cast<framework::PreScorePlugin&>(*plugin).PreScore(state, *pod, nodes);
        CHECK(s.code() == c.want_pre_score_status.code());
        CHECK(s.Message() == c.want_pre_score_status.Message());
        if (!s.IsSuccess()) continue;
      }
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

constexpr const char* kAddedRequiredFooBar =
    R"({"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution":
    {"nodeSelectorTerms": [{"matchExpressions": [{"key": "foo", "operator": "In", "values": ["bar"]}]}]}}})";

TEST_CASE("Test_isSchedulableAfterNodeChange", "[nodeaffinity]") {
  struct Case {
    std::string name;
    std::string args;
    api::v1::Pod pod;
    std::optional<api::v1::Node> old_node, new_node;
    std::optional<api::v1::Pod> old_pod, new_pod;  // upstream's "not-a-node" objects
    QueueingHint want;
    bool want_err = false;
  };
  const api::v1::Pod pod = MakePod().NodeAffinityIn("foo", {"bar"}).Obj();
  const api::v1::Node plain = MakeNode().Obj();
  const api::v1::Node foo_bar = MakeNode().Label("foo", "bar").Obj();
  const std::vector<Case> cases = {
      {"backoff-wrong-new-object", "{}", pod, std::nullopt, std::nullopt, std::nullopt, MakePod().Obj(),
       QueueingHint::kQueue, true},
      {"backoff-wrong-old-object", "{}", pod, std::nullopt, plain, MakePod().Obj(), std::nullopt,
       QueueingHint::kQueue, true},
      {"skip-queue-on-add", "{}", pod, std::nullopt, plain, std::nullopt, std::nullopt, QueueingHint::kSkip},
      {"queue-on-add", "{}", pod, std::nullopt, foo_bar, std::nullopt, std::nullopt, QueueingHint::kQueue},
      {"skip-unrelated-changes", "{}", pod, plain, MakeNode().Capacity({}).Obj(), std::nullopt, std::nullopt,
       QueueingHint::kSkip},
      {"skip-unrelated-changes-on-labels", "{}", pod, plain, MakeNode().Label("k", "v").Obj(), std::nullopt,
       std::nullopt, QueueingHint::kSkip},
      {"skip-labels-changes-on-node-from-suitable-to-unsuitable", "{}", pod, foo_bar,
       MakeNode().Label("k", "v").Obj(), std::nullopt, std::nullopt, QueueingHint::kSkip},
      {"queue-on-labels-change-makes-pod-schedulable", "{}", pod, plain, foo_bar, std::nullopt, std::nullopt,
       QueueingHint::kQueue},
      {"skip-unrelated-change-that-keeps-pod-schedulable", "{}", pod, foo_bar,
       MakeNode().Capacity({}).Label("foo", "bar").Obj(), std::nullopt, std::nullopt, QueueingHint::kSkip},
      {"skip-queue-on-add-scheduler-enforced-node-affinity", kAddedRequiredFooBar, pod, std::nullopt, plain,
       std::nullopt, std::nullopt, QueueingHint::kSkip},
      {"queue-on-add-scheduler-enforced-node-affinity", kAddedRequiredFooBar, pod, std::nullopt, foo_bar,
       std::nullopt, std::nullopt, QueueingHint::kQueue},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION("Test_isSchedulableAfterNodeChange/" << c.name) {
      testing::FakeHandle h;
      auto plugin = testing::MustNew(&NewNodeAffinity, h, c.args);
      const auto events = dynamic_cast<framework::EnqueueExtensions&>(*plugin).EventsToRegister();
      REQUIRE(events.size() == 1);
      REQUIRE(events[0].hint);
      auto info = framework::PodInfo::Create(c.pod).value();
      EventObjects e;
      if (c.old_node) e.SetOld(&*c.old_node);
      if (c.new_node) e.SetNew(&*c.new_node);
      if (c.old_pod) e.SetOld(&*c.old_pod);
      if (c.new_pod) e.SetNew(&*c.new_pod);
      const auto got = events[0].hint(*info, e);
      if (c.want_err) {
        CHECK_FALSE(got.ok());  // an error counts as Queue
      } else {
        REQUIRE(got.ok());
        CHECK(*got == c.want);
      }
    }
  }
}

TEST_CASE("TestValidateNodeAffinityArgs", "[nodeaffinity]") {
  testing::FakeHandle h;
  SECTION("TestValidateNodeAffinityArgs/empty") {
    CHECK(NewNodeAffinity(framework::PluginArgs("{}"), h).ok());
  }
  SECTION("TestValidateNodeAffinityArgs/valid added affinity") {
    CHECK(NewNodeAffinity(framework::PluginArgs(R"({"addedAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "label-1", "operator": "In", "values": ["label-1-val"]}]}]},
        "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "preference":
            {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-1"]}]}}]}})"),
                          h)
              .ok());
  }
  SECTION("TestValidateNodeAffinityArgs/invalid added affinity") {
    auto got = NewNodeAffinity(framework::PluginArgs(R"({"addedAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "invalid/label/key", "operator": "In", "values": ["label-1-val"]}]}]},
        "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "preference":
            {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["node-1", "node-2"]}]}}]}})"),
                               h);
    REQUIRE_FALSE(got.ok());
    CHECK(got.status().code() == absl::StatusCode::kInvalidArgument);
    const std::string msg(got.status().message());
    // Two field errors of type Invalid, in upstream's order.
    const size_t first = msg.find(
        "addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions["
        "0].key: "
        "Invalid value: \"invalid/label/key\"");
    const size_t second = msg.find(
        "addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].matchFields[0].values: Invalid "
        "value: "
        "[\"node-1\",\"node-2\"]: must have one element");
    CHECK(first != std::string::npos);
    CHECK(second != std::string::npos);
    CHECK(first < second);
  }
}

TEST_CASE("NodeAffinity args parsing", "[nodeaffinity]") {
  testing::FakeHandle h;
  const auto error_of = [&](const std::string& json) {
    auto got = NewNodeAffinity(framework::PluginArgs(json), h);
    REQUIRE_FALSE(got.ok());
    return std::string(got.status().message());
  };
  CHECK(NewNodeAffinity(framework::PluginArgs(""), h).ok());
  CHECK(NewNodeAffinity(framework::PluginArgs(R"({"addedAffinity": null})"), h).ok());
  CHECK(
      NewNodeAffinity(framework::PluginArgs(R"({"kind": "NodeAffinityArgs", "addedAffinity": {}})"), h).ok());
  CHECK(error_of(R"({"addedAfinity": {}})").find("addedAfinity: unknown field") != std::string::npos);
  CHECK(error_of(R"({"addedAffinity": {"requiredDuringSchedulingRequiredDuringExecution": {}}})")
            .find("addedAffinity.requiredDuringSchedulingRequiredDuringExecution") != std::string::npos);
  CHECK(error_of(R"({"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms":
            [{"matchExpressions": [{"key": "a", "operator": "In", "value": ["b"]}]}]}}})")
            .find("nodeSelectorTerms[0].matchExpressions[0].value: unknown field") != std::string::npos);
  CHECK(error_of(R"({"addedAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1,
            "preference": {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["a"], "x": 1}]}}]}})")
            .find("preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchFields[0].x") !=
        std::string::npos);
  CHECK(
      error_of(
          R"({"addedAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": "heavy"}]}})")
          .find("addedAffinity.") != std::string::npos);
  CHECK(
      error_of(R"({"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms":
            [{"matchExpressions": [{"key": "a", "operator": "Near", "values": ["b"]}]}]}}})")
          .find(
              R"(matchExpressions[0].operator: Unsupported value: "Near": supported values: "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")") !=
      std::string::npos);
  CHECK(error_of("[1]").find("NodeAffinity args") != std::string::npos);
}

TEST_CASE("NodeAffinity required addedAffinity without terms matches no node", "[nodeaffinity]") {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodeAffinity, h, R"({"addedAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {}}})");
  framework::CycleState state;
  auto pod = MakePod().Info();
  const auto pre = dynamic_cast<framework::PreFilterPlugin&>(*plugin).PreFilter(state, *pod, {});
  CHECK(pre.status.IsSuccess());
  const framework::NodeInfo node = MakeNode().Name("n").Info();
  CHECK(dynamic_cast<framework::FilterPlugin&>(*plugin).Filter(state, *pod, node) == ErrEnforced());
}

TEST_CASE("NodeAffinity preferred terms without weight or with an empty preference score nothing",
          "[nodeaffinity]") {
  testing::FakeHandle h;
  h.SetCluster({MakeNode().Name("n").Label("foo", "bar").Obj()}, {});
  auto plugin = testing::MustNew(&NewNodeAffinity, h);
  framework::CycleState state;
  auto pod =
      framework::PodInfo::Create(
          PreferredPod({{0, Term({Req("foo", "Exists")})}, {7, Term({})}, {3, Term({Req("foo", "Exists")})}}))
          .value();
  REQUIRE(dynamic_cast<framework::PreScorePlugin&>(*plugin)
              .PreScore(state, *pod, h.snapshot().nodes())
              .IsSuccess());
  int64_t score = -1;
  REQUIRE(dynamic_cast<framework::ScorePlugin&>(*plugin)
              .Score(state, *pod, *h.snapshot().nodes()[0], score)
              .IsSuccess());
  CHECK(score == 3);
}

TEST_CASE("NodeAffinity Score without PreScore reports a broken preferred term", "[nodeaffinity]") {
  testing::FakeHandle h;
  h.SetCluster({MakeNode().Name("n").Obj()}, {});
  auto plugin = testing::MustNew(&NewNodeAffinity, h);
  framework::CycleState state;
  auto pod =
      framework::PodInfo::Create(PreferredPod({{1, Term({Req("foo", "In", {"bad value!"})})}})).value();
  int64_t score = 0;
  const Status s =
      dynamic_cast<framework::ScorePlugin&>(*plugin).Score(state, *pod, *h.snapshot().nodes()[0], score);
  CHECK(s.code() == Code::kError);
  CHECK(s.Message().rfind(
            "[0].matchExpressions[0].values[0][foo]: Invalid value: \"bad value!\": a valid label", 0) == 0);
}

TEST_CASE("NodeAffinity hint queues on a parse error only when no parsed term matches", "[nodeaffinity]") {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodeAffinity, h);
  const auto events = dynamic_cast<framework::EnqueueExtensions&>(*plugin).EventsToRegister();
  REQUIRE(events.size() == 1);
  CHECK(events[0].event.resource == framework::EventResource::Node());
  CHECK(events[0].event.action == (framework::kActionAdd | framework::kActionUpdateNodeLabel));
  auto pod = framework::PodInfo::Create(
                 RequiredPod({Term({Req("foo", "In", {"bad value!"})}), Term({Req("zone", "In", {"a"})})}))
                 .value();
  const api::v1::Node zone_a = MakeNode().Label("zone", "a").Obj();
  const api::v1::Node other = MakeNode().Label("zone", "b").Obj();
  EventObjects add_a;
  add_a.SetNew(&zone_a);
  EventObjects add_other;
  add_other.SetNew(&other);
  auto got = events[0].hint(*pod, add_a);
  REQUIRE(got.ok());
  CHECK(*got == QueueingHint::kQueue);
  CHECK_FALSE(events[0].hint(*pod, add_other).ok());
}

TEST_CASE("NodeAffinity ignores matchFields on a node without a name", "[nodeaffinity]") {
  // component-helpers matches fields only against a non-empty field set.
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodeAffinity, h);
  framework::CycleState state;
  auto pod = framework::PodInfo::Create(
                 RequiredPod({Term({Req("foo", "Exists")}, {Req("metadata.name", "In", {"n1"})})}))
                 .value();
  const framework::NodeInfo unnamed = MakeNode().Label("foo", "x").Info();
  CHECK(dynamic_cast<framework::FilterPlugin&>(*plugin).Filter(state, *pod, unnamed).IsSuccess());
}

TEST_CASE("NodeAffinity state clones", "[nodeaffinity]") {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodeAffinity, h);
  framework::CycleState state;
  auto pod = framework::PodInfo::Create(
                 RequiredPod({Term({Req("foo", "In", {"bad value!"})}), Term({Req("zone", "In", {"a"})})}))
                 .value();
  REQUIRE(dynamic_cast<framework::PreFilterPlugin&>(*plugin).PreFilter(state, *pod, {}).status.IsSuccess());
  auto clone = state.Clone();
  const framework::NodeInfo node = MakeNode().Name("n").Label("zone", "a").Info();
  const framework::NodeInfo bad = MakeNode().Name("m").Label("foo", "bad value!").Info();
  auto& filter = dynamic_cast<framework::FilterPlugin&>(*plugin);
  CHECK(filter.Filter(*clone, *pod, node).IsSuccess());
  CHECK(filter.Filter(*clone, *pod, bad) == ErrPod());
}

TEST_CASE("NodeAffinity term errors follow apimachinery's texts", "[nodeaffinity]") {
  using nodeaffinity_internal::AggregateMessage;
  using nodeaffinity_internal::AppendTermErrors;
  std::vector<std::string> errors;
  AppendTermErrors(Term({Req("example.com/", "In", {"a"})}), "", errors);
  REQUIRE(errors.size() == 1);
  CHECK(
      errors[0] ==
      R"(matchExpressions[0].key: Invalid value: "example.com/": name part must be non-empty; name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'))");
  errors.clear();
  AppendTermErrors(Term({Req("Example.com/a", "Gt", {"x"})}), "p", errors);
  REQUIRE(errors.size() == 2);
  CHECK(
      errors[0] ==
      R"(p.matchExpressions[0].key: Invalid value: "Example.com/a": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'))");
  CHECK(
      errors[1] ==
      R"(p.matchExpressions[0].values[0]: Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer)");
  CHECK(AggregateMessage({"a", "b", "a"}) == "[a, b]");
  CHECK(AggregateMessage({"a", "a"}) == "a");
  CHECK(nodeaffinity_internal::IsDecimalInt64("-9223372036854775808"));
  CHECK_FALSE(nodeaffinity_internal::IsDecimalInt64("9223372036854775808"));
  CHECK(nodeaffinity_internal::IsDecimalInt64("+0204"));
}

}  // namespace
}  // namespace schedkit::plugins
