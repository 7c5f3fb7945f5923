// DefaultPreemption: upstream v1.35.8 defaultpreemption/default_preemption_test.go
// cases (TestPostFilter, TestDryRunPreemption, TestSelectBestCandidate,
// TestCustomSelection, TestCustomOrdering, TestPodEligibleToPreemptOthers,
// TestPreempt) and validation_pluginargs_test.go's
// TestValidateDefaultPreemptionArgs, plus args parsing, events, PreEnqueue
// and an integration run over a framework with many full nodes.
//
// Not ported: the cases that need scheduler extenders, which schedkit does
// not have ("preemption result filtered out by extenders" in TestPostFilter;
// the four "Scheduler extender(s) ..." cases of TestPreempt). Upstream runs
// TestPostFilter and TestPreempt also with async API calls and async
// preemption on and off; schedkit has one mode (synchronous eviction with
// async preemption's observable outcome), so each case runs once.
//
// Plugins upstream borrows from the tree (NodeResourcesFit, PodTopologySpread,
// InterPodAffinity) are re-created by the test plugins of
// preemption_testing.h; PDBs that upstream leaves without a namespace (its
// pods have none either) are in "default", where schedkit's builder puts pods.
#include "plugins/defaultpreemption/default_preemption.h"
#include "plugins/defaultpreemption/go_sort.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <deque>
#include <random>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "plugins/defaultpreemption/preemption_testing.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using namespace preemption_testing;  // NOLINT: test vocabulary
using framework::NodeToStatus;
using framework::NominatingInfo;
using testing::AffinityKind;
using testing::Selector;

// upstream's getOffsetRand = rand.New(rand.NewSource(4)).Int31n: the values
// it draws for 5 nodes, in order (upstream's comments: offsets 4, 1, 3).
DefaultPreemption::OffsetFn GoSeed4Offsets() {
  auto values = std::make_shared<std::deque<int32_t>>(std::deque<int32_t>{4, 1, 3});
  return [values](int32_t n) {
    int32_t v = values->empty() ? 0 : values->front();
    if (!values->empty()) values->pop_front();
    return v % n;
  };
}

// ===================================================================== args

TEST_CASE("DefaultPreemption args: v1 defaults and upstream validation", "[defaultpreemption][args]") {
  auto parse = [](std::string json) { return ParseDefaultPreemptionArgs(framework::PluginArgs(std::move(json))); };
  auto defaults = parse("");
  REQUIRE(defaults.ok());
  CHECK(defaults->min_candidate_nodes_percentage == 10);
  CHECK(defaults->min_candidate_nodes_absolute == 100);
  auto set = parse(R"({"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"DefaultPreemptionArgs",
                       "minCandidateNodesPercentage": 40, "minCandidateNodesAbsolute": 2})");
  REQUIRE(set.ok());
  CHECK(set->min_candidate_nodes_percentage == 40);
  CHECK(set->min_candidate_nodes_absolute == 2);

  // TestValidateDefaultPreemptionArgs.
  SECTION("valid args (default)") { CHECK(parse(R"({"minCandidateNodesPercentage":10,"minCandidateNodesAbsolute":100})").ok()); }
  SECTION("negative minCandidateNodesPercentage") {
    auto r = parse(R"({"minCandidateNodesPercentage":-1,"minCandidateNodesAbsolute":100})");
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().message() ==
          "DefaultPreemption args: minCandidateNodesPercentage: Invalid value: -1: not in valid range [0, 100]");
  }
  SECTION("minCandidateNodesPercentage over 100") {
    auto r = parse(R"({"minCandidateNodesPercentage":900,"minCandidateNodesAbsolute":100})");
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().message() ==
          "DefaultPreemption args: minCandidateNodesPercentage: Invalid value: 900: not in valid range [0, 100]");
  }
  SECTION("negative minCandidateNodesAbsolute") {
    auto r = parse(R"({"minCandidateNodesPercentage":20,"minCandidateNodesAbsolute":-1})");
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().message() ==
          "DefaultPreemption args: minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)");
  }
  SECTION("all zero") {
    auto r = parse(R"({"minCandidateNodesPercentage":0,"minCandidateNodesAbsolute":0})");
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().message() ==
          "DefaultPreemption args: [minCandidateNodesPercentage: Invalid value: 0: cannot be zero at the same time "
          "as minCandidateNodesAbsolute, minCandidateNodesAbsolute: Invalid value: 0: cannot be zero at the same "
          "time as minCandidateNodesPercentage]");
  }
  SECTION("both negative") {
    auto r = parse(R"({"minCandidateNodesPercentage":-1,"minCandidateNodesAbsolute":-1})");
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().message() ==
          "DefaultPreemption args: [minCandidateNodesPercentage: Invalid value: -1: not in valid range [0, 100], "
          "minCandidateNodesAbsolute: Invalid value: -1: not in valid range [0, inf)]");
  }
  SECTION("unknown field") {
    auto r = parse(R"({"minCandidateNodes": 3})");
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().message() == "DefaultPreemption args: minCandidateNodes: unknown field");
  }
  SECTION("wrong type and out of int32 range") {
    auto r = parse(R"({"minCandidateNodesAbsolute": "3"})");
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().message() == "DefaultPreemption args: minCandidateNodesAbsolute: expected an integer, got a string");
    r = parse(R"({"minCandidateNodesAbsolute": 3000000000})");
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().message() ==
          "DefaultPreemption args: minCandidateNodesAbsolute: Invalid value: 3000000000: not a 32-bit integer");
  }
  SECTION("the factory rejects bad args") {
    World w;
    w.Build();
    CHECK_FALSE(NewDefaultPreemption(framework::PluginArgs(R"({"minCandidateNodesPercentage":101})"), *w.fw).ok());
    CHECK_FALSE(NewDefaultPreemption(framework::PluginArgs(R"({"bogus":1})"), *w.fw).ok());
  }
}

TEST_CASE("DefaultPreemption: name, events and numCandidates", "[defaultpreemption]") {
  World w;
  w.Build();
  auto pl = NewPlugin(w);
  CHECK(pl->Name() == names::kDefaultPreemption);
  std::vector<framework::ClusterEventWithHint> events = pl->EventsToRegister();
  REQUIRE(events.size() == 1);
  CHECK(events[0].event.resource == framework::EventResource::AssignedPod());
  CHECK(events[0].event.action == framework::kActionDelete);
  PodInfoPtr pod = Info(MakePod().Name("p").Obj());
  auto hint = events[0].hint(*pod, framework::EventObjects{});
  REQUIRE(hint.ok());
  CHECK(*hint == framework::QueueingHint::kSkip);
  CHECK(pl->PreEnqueue(*pod).IsSuccess());

  // calculateNumCandidates: max(n * 10 / 100, 100), at most n.
  CHECK(pl->CalculateNumCandidates(5) == 5);
  CHECK(pl->CalculateNumCandidates(100) == 100);
  CHECK(pl->CalculateNumCandidates(999) == 100);
  CHECK(pl->CalculateNumCandidates(5000) == 500);
  auto pl2 = NewPlugin(w, R"({"minCandidateNodesPercentage":40,"minCandidateNodesAbsolute":1})");
  CHECK(pl2->CalculateNumCandidates(5) == 2);
  CHECK(pl2->CalculateNumCandidates(1) == 1);
  auto pl3 = NewPlugin(w, R"({"minCandidateNodesPercentage":10,"minCandidateNodesAbsolute":0})");
  CHECK(pl3->CalculateNumCandidates(5) == 0);

  // The default offset source is seeded: two plugins draw the same offsets.
  auto a = NewPlugin(w);
  auto b = NewPlugin(w);
  for (int i = 0; i < 20; ++i) {
    auto [oa, na] = a->GetOffsetAndNumCandidates(37);
    auto [ob, nb] = b->GetOffsetAndNumCandidates(37);
    CHECK(oa == ob);
    CHECK(oa >= 0);
    CHECK(oa < 37);
    CHECK(na == 37);
  }
}

// ===================================================================== TestPostFilter

struct PostFilterCase {
  std::string name;
  api::v1::Pod pod;
  std::vector<api::v1::Pod> pods;
  std::vector<std::shared_ptr<const api::v1::PodDisruptionBudget>> pdbs;
  std::vector<api::v1::Node> nodes;
  std::map<std::string, Code> statuses;  // absent nodes: UnschedulableAndUnresolvable
  std::optional<std::string> want_nominated;  // nullopt: upstream's nil result
  Code want_code;
  std::string want_message;
  std::set<std::string> want_evicted;
};

TEST_CASE("TestPostFilter", "[defaultpreemption][upstream]") {
  const ResourceMap one_pod = {{"pods", "1"}};
  const ResourceMap node_res = {{"cpu", "200m"}, {"memory", "400"}};
  const std::string kViolatingKey = "test.kubernetes.io/is-violating-pdb";
  std::vector<PostFilterCase> cases = {
      {"pod with higher priority can be made schedulable",
       MakePod().Name("p").Priority(kHighPriority).Obj(),
       {MakePod().Name("p1").Node("node1").Obj()},
       {},
       {MakeNode().Name("node1").Capacity(Cap(one_pod)).Obj()},
       {{"node1", Code::kUnschedulable}},
       "node1", Code::kSuccess, "preemption: found a potential placement for pod on node node1, preempting 1 victims", {"p1"}},
      {"pod with tied priority is still unschedulable",
       MakePod().Name("p").Obj(),
       {MakePod().Name("p1").Node("node1").Obj()},
       {},
       {MakeNode().Name("node1").Capacity(Cap(one_pod)).Obj()},
       {{"node1", Code::kUnschedulable}},
       "", Code::kUnschedulable,
       "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.", {}},
      {"preemption should respect filteredNodesStatuses",
       MakePod().Name("p").Priority(kHighPriority).Obj(),
       {MakePod().Name("p1").Node("node1").Obj()},
       {},
       {MakeNode().Name("node1").Capacity(Cap(one_pod)).Obj()},
       {{"node1", Code::kUnschedulableAndUnresolvable}},
       "", Code::kUnschedulable, "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
       {}},
      {"preemption should respect absent NodeToStatusReader entry meaning UnschedulableAndUnresolvable",
       MakePod().Name("p").Priority(kHighPriority).Obj(),
       {MakePod().Name("p1").Node("node1").Obj()},
       {},
       {MakeNode().Name("node1").Capacity(Cap(one_pod)).Obj()},
       {},
       "", Code::kUnschedulable, "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.",
       {}},
      {"pod can be made schedulable on one node",
       MakePod().Name("p").Priority(kMidPriority).Obj(),
       {MakePod().Name("p1").Priority(kHighPriority).Node("node1").Obj(),
        MakePod().Name("p2").Priority(kLowPriority).Node("node2").Obj()},
       {},
       {MakeNode().Name("node1").Capacity(Cap(one_pod)).Obj(), MakeNode().Name("node2").Capacity(Cap(one_pod)).Obj()},
       {{"node1", Code::kUnschedulable}, {"node2", Code::kUnschedulable}},
       "node2", Code::kSuccess, "preemption: found a potential placement for pod on node node2, preempting 1 victims", {"p2"}},
      {"pod can be made schedulable on minHighestPriority node",
       MakePod().Name("p").Priority(kVeryHighPriority).Obj(),
       {MakePod().Name("p1").Label(kViolatingKey, "non-violating").Priority(kHighPriority).Node("node1").Obj(),
        MakePod().Name("p2").Label(kViolatingKey, "violating").Priority(kLowPriority).Node("node1").Obj(),
        MakePod().Name("p3").Label(kViolatingKey, "violating").Priority(kMidPriority).Node("node2").Obj()},
       {Pdb("violating-pdb", {{kViolatingKey, "violating"}}, 0),
        Pdb("non-violating-pdb", {{kViolatingKey, "non-violating"}}, std::numeric_limits<int32_t>::max())},
       {MakeNode().Name("node1").Capacity(Cap(one_pod)).Obj(), MakeNode().Name("node2").Capacity(Cap(one_pod)).Obj()},
       {{"node1", Code::kUnschedulable}, {"node2", Code::kUnschedulable}},
       "node2", Code::kSuccess, "preemption: found a potential placement for pod on node node2, preempting 1 victims", {"p3"}},
      {"no candidate nodes found, no enough resource after removing low priority pods",
       MakePod().Name("p").Priority(kHighPriority).Req(kLargeRes).Obj(),
       {MakePod().Name("p1").Node("node1").Obj(), MakePod().Name("p2").Node("node2").Obj()},
       {},
       {MakeNode().Name("node1").Capacity(Cap(node_res)).Obj(), MakeNode().Name("node2").Capacity(Cap(node_res)).Obj()},
       {{"node1", Code::kUnschedulable}, {"node2", Code::kUnschedulable}},
       "", Code::kUnschedulable, "preemption: 0/2 nodes are available: 2 Insufficient cpu.", {}},
      {"no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU resource",
       MakePod().Name("p").Priority(kHighPriority).Req(kLargeRes).Obj(),
       {MakePod().Name("p1").Node("node1").Priority(kHighPriority).Obj(), MakePod().Name("p2").Node("node2").Obj(),
        MakePod().Name("p3").Node("node3").Priority(kHighPriority).Obj()},
       {},
       {MakeNode().Name("node1").Capacity(Cap(one_pod)).Obj(), MakeNode().Name("node2").Capacity(Cap(node_res)).Obj(),
        MakeNode().Name("node3").Capacity(Cap(one_pod)).Obj()},
       {{"node1", Code::kUnschedulable}, {"node2", Code::kUnschedulable}, {"node3", Code::kUnschedulable}},
       "", Code::kUnschedulable,
       "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod.", {}},
      {"no candidate nodes found with mixed reason, 2 UnschedulableAndUnresolvable nodes and 2 nodes don't have "
       "enough CPU resource",
       MakePod().Name("p").Priority(kHighPriority).Req(kLargeRes).Obj(),
       {MakePod().Name("p1").Node("node1").Obj(), MakePod().Name("p2").Node("node2").Obj()},
       {},
       {MakeNode().Name("node1").Capacity(Cap(node_res)).Obj(), MakeNode().Name("node2").Capacity(Cap(node_res)).Obj(),
        MakeNode().Name("node3").Capacity(Cap(node_res)).Obj(), MakeNode().Name("node4").Capacity(Cap(node_res)).Obj()},
       {{"node1", Code::kUnschedulable}, {"node2", Code::kUnschedulable}, {"node4", Code::kUnschedulableAndUnresolvable}},
       "", Code::kUnschedulable,
       "preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling.", {}},
      {"only one node but failed with TestPlugin",
       MakePod().Name("p").Priority(kHighPriority).Req(kLargeRes).Obj(),
       {MakePod().Name("p1").Node("node1").Obj()},
       {},
       {MakeNode().Name("node1").Capacity(Cap(kLargeRes)).Label("error", "true").Obj()},
       {{"node1", Code::kUnschedulable}},
       std::nullopt, Code::kError,
       "preemption: running RemovePod on PreFilter plugin \"test-plugin\": failed to remove pod: p", {}},
      {"one failed with TestPlugin and the other pass",
       MakePod().Name("p").Priority(kHighPriority).Req(kLargeRes).Obj(),
       {MakePod().Name("p1").Node("node1").Obj(), MakePod().Name("p2").Node("node2").Req(kMediumRes).Obj()},
       {},
       {MakeNode().Name("node1").Capacity(Cap(kLargeRes)).Label("error", "true").Obj(),
        MakeNode().Name("node2").Capacity(Cap(kLargeRes)).Obj()},
       {{"node1", Code::kUnschedulable}, {"node2", Code::kUnschedulable}},
       "node2", Code::kSuccess, "preemption: found a potential placement for pod on node node2, preempting 1 victims", {"p2"}},
  };

  for (const PostFilterCase& tc : cases) {
    DYNAMIC_SECTION("TestPostFilter/" << tc.name) {
      World w;
      w.Enable({"NodeResourcesFit", "test-plugin"}, {"NodeResourcesFit"});
      w.AddNodes(tc.nodes);
      w.AddPods(tc.pods);
      w.client.pdbs = tc.pdbs;
      w.Build(/*parallelism=*/4);
      auto pl = NewPlugin(w);
      PodInfoPtr pod = Info(tc.pod);
      CycleState state;
      w.PreFilter(state, *pod);

      framework::PostFilterPlugin::Result got = pl->PostFilter(state, *pod, Statuses(tc.statuses));
      CHECK(got.status.code() == tc.want_code);
      CHECK(got.status.Message() == tc.want_message);
      if (tc.want_nominated) {
        CHECK(got.nominating_info.mode == NominatingInfo::Mode::kOverride);
        CHECK(got.nominating_info.node_name.str() == *tc.want_nominated);
      } else {
        CHECK(got.nominating_info.mode == NominatingInfo::Mode::kNoop);
      }
      CHECK(w.client.EvictedSet() == tc.want_evicted);
    }
  }
}

// ===================================================================== TestDryRunPreemption

// Every member has an initializer so that designated initializers may omit it.
struct DryRunCase {
  std::string name{};
  std::string args{};  // JSON; empty: defaults
  std::vector<std::string> node_names{};
  std::vector<api::v1::Pod> test_pods{};
  std::vector<api::v1::Pod> init_pods{};
  std::vector<std::string> pre_filter{};
  std::vector<std::string> filter{};  // after FakeFilter
  std::vector<std::shared_ptr<const api::v1::PodDisruptionBudget>> pdbs{};
  Code fake_filter_rc = Code::kSuccess;
  bool disable_parallelism = false;
  std::vector<std::vector<CandidateView>> expected{};
  std::vector<int> expected_num_filter_called{};
};

TEST_CASE("TestDryRunPreemption", "[defaultpreemption][upstream]") {
  const std::vector<std::string> kFit = {"NodeResourcesFit"};
  auto pod = [](std::string name) { return MakePod().Name(std::move(name)); };
  auto foo_exists = Selector({}, {{"foo", "Exists", {}}});
  std::vector<DryRunCase> cases = {
      {.name = "a pod that does not fit on any node",
       .node_names = {"node1", "node2"},
       .test_pods = {pod("p").Priority(kHighPriority).Obj()},
       .init_pods = {pod("p1").Node("node1").Priority(kMidPriority).Obj(),
                     pod("p2").Node("node2").Priority(kMidPriority).Obj()},
       .filter = {"FalseFilter"},
       .expected = {{}},
       .expected_num_filter_called = {2}},
      {.name = "a pod that fits with no preemption",
       .node_names = {"node1", "node2"},
       .test_pods = {pod("p").Priority(kHighPriority).Obj()},
       .init_pods = {pod("p1").Node("node1").Priority(kMidPriority).Obj(),
                     pod("p2").Node("node2").Priority(kMidPriority).Obj()},
       .filter = {"TrueFilter"},
       .fake_filter_rc = Code::kUnschedulable,
       .expected = {{}},
       .expected_num_filter_called = {2}},
      {.name = "a pod that fits on one node with no preemption",
       .node_names = {"node1", "node2"},
       // Named "node1" to pass MatchFilter.
       .test_pods = {pod("node1").Priority(kHighPriority).Obj()},
       .init_pods = {pod("p1").Node("node1").Priority(kMidPriority).Obj(),
                     pod("p2").Node("node2").Priority(kMidPriority).Obj()},
       .filter = {"MatchFilter"},
       .fake_filter_rc = Code::kUnschedulable,
       .expected = {{}},
       .expected_num_filter_called = {2}},
      {.name = "a pod that fits on both nodes when lower priority pods are preempted",
       .node_names = {"node1", "node2"},
       .test_pods = {pod("p").Priority(kHighPriority).Req(kLargeRes).Obj()},
       .init_pods = {pod("p1").Node("node1").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p2").Node("node2").Priority(kMidPriority).Req(kLargeRes).Obj()},
       .pre_filter = kFit,
       .filter = kFit,
       .expected = {{{"node1", {"p1"}, 0}, {"node2", {"p2"}, 0}}},
       .expected_num_filter_called = {4}},
      {.name = "a pod that would fit on the nodes, but other pods running are higher priority, no preemption would "
               "happen",
       .node_names = {"node1", "node2"},
       .test_pods = {pod("p").Priority(kLowPriority).Req(kLargeRes).Obj()},
       .init_pods = {pod("p1").Node("node1").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p2").Node("node2").Priority(kMidPriority).Req(kLargeRes).Obj()},
       .pre_filter = kFit,
       .filter = kFit,
       .expected = {{}},
       .expected_num_filter_called = {0}},
      {.name = "medium priority pod is preempted, but lower priority one stays as it is small",
       .node_names = {"node1", "node2"},
       .test_pods = {pod("p").Priority(kHighPriority).Req(kLargeRes).Obj()},
       .init_pods = {pod("p1.1").Node("node1").Priority(kLowPriority).Req(kSmallRes).Obj(),
                     pod("p1.2").Node("node1").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p2").Node("node2").Priority(kMidPriority).Req(kLargeRes).Obj()},
       .pre_filter = kFit,
       .filter = kFit,
       .expected = {{{"node1", {"p1.2"}, 0}, {"node2", {"p2"}, 0}}},
       .expected_num_filter_called = {5}},
      {.name = "mixed priority pods are preempted",
       .node_names = {"node1", "node2"},
       .test_pods = {pod("p").Priority(kHighPriority).Req(kLargeRes).Obj()},
       .init_pods = {pod("p1.1").Node("node1").Priority(kMidPriority).Req(kSmallRes).Obj(),
                     pod("p1.2").Node("node1").Priority(kLowPriority).Req(kSmallRes).Obj(),
                     pod("p1.3").Node("node1").Priority(kMidPriority).Req(kMediumRes).Obj(),
                     pod("p1.4").Node("node1").Priority(kHighPriority).Req(kSmallRes).Obj(),
                     pod("p2").Node("node2").Priority(kHighPriority).Req(kLargeRes).Obj()},
       .pre_filter = kFit,
       .filter = kFit,
       .expected = {{{"node1", {"p1.2", "p1.3"}, 0}}},
       .expected_num_filter_called = {4}},
      {.name = "mixed priority pods are preempted, pick later StartTime one when priorities are equal",
       .node_names = {"node1", "node2"},
       .test_pods = {pod("p").Priority(kHighPriority).Req(kLargeRes).Obj()},
       .init_pods = {pod("p1.1").Node("node1").Priority(kLowPriority).Req(kSmallRes).StartTime(Epoch(5)).Obj(),
                     pod("p1.2").Node("node1").Priority(kLowPriority).Req(kSmallRes).StartTime(Epoch(4)).Obj(),
                     pod("p1.3").Node("node1").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(3)).Obj(),
                     pod("p1.4").Node("node1").Priority(kHighPriority).Req(kSmallRes).StartTime(Epoch(2)).Obj(),
                     pod("p2").Node("node2").Priority(kHighPriority).Req(kLargeRes).StartTime(Epoch(1)).Obj()},
       .pre_filter = kFit,
       .filter = kFit,
       .expected = {{{"node1", {"p1.1", "p1.3"}, 0}}},
       .expected_num_filter_called = {4}},
      {.name = "pod with anti-affinity is preempted",
       .node_names = {"node1", "node2"},
       .test_pods = {pod("p").Label("foo", "").Priority(kHighPriority).Req(kSmallRes).Obj()},
       .init_pods = {pod("p1.1")
                         .Node("node1")
                         .Label("foo", "")
                         .Priority(kLowPriority)
                         .Req(kSmallRes)
                         .PodAntiAffinityExists("foo", "hostname", AffinityKind::kRequired)
                         .Obj(),
                     pod("p1.2").Node("node1").Priority(kMidPriority).Req(kSmallRes).Obj(),
                     pod("p1.3").Node("node1").Priority(kHighPriority).Req(kSmallRes).Obj(),
                     pod("p2").Node("node2").Priority(kHighPriority).Req(kSmallRes).Obj()},
       .pre_filter = kFit,
       .filter = {"NodeResourcesFit", "InterPodAffinity"},
       .expected = {{{"node1", {"p1.1"}, 0}}},
       .expected_num_filter_called = {3}},
      {.name = "preemption to resolve pod topology spread filter failure",
       .node_names = {"node-a/zone1", "node-b/zone1", "node-x/zone2"},
       .test_pods = {pod("p")
                         .Label("foo", "")
                         .Priority(kHighPriority)
                         .SpreadConstraint(1, "zone", "DoNotSchedule", foo_exists)
                         .SpreadConstraint(1, "hostname", "DoNotSchedule", foo_exists)
                         .Obj()},
       .init_pods = {pod("pod-a1").Node("node-a").Label("foo", "").Priority(kMidPriority).Obj(),
                     pod("pod-a2").Node("node-a").Label("foo", "").Priority(kLowPriority).Obj(),
                     pod("pod-b1").Node("node-b").Label("foo", "").Priority(kLowPriority).Obj(),
                     pod("pod-x1").Node("node-x").Label("foo", "").Priority(kHighPriority).Obj(),
                     pod("pod-x2").Node("node-x").Label("foo", "").Priority(kHighPriority).Obj()},
       .pre_filter = {"PodTopologySpread"},
       .filter = {"PodTopologySpread"},
       .expected = {{{"node-a", {"pod-a2"}, 0}, {"node-b", {"pod-b1"}, 0}}},
       .expected_num_filter_called = {5}},
      {.name = "get Unschedulable in the preemption phase when the filter plugins filtering the nodes",
       .node_names = {"node1", "node2"},
       .test_pods = {pod("p").Priority(kHighPriority).Req(kLargeRes).Obj()},
       .init_pods = {pod("p1").Node("node1").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p2").Node("node2").Priority(kMidPriority).Req(kLargeRes).Obj()},
       .pre_filter = kFit,
       .filter = kFit,
       .fake_filter_rc = Code::kUnschedulable,
       .expected = {{}},
       .expected_num_filter_called = {2}},
      {.name = "preemption with violation of same pdb",
       .node_names = {"node1"},
       .test_pods = {pod("p").Priority(kHighPriority).Req(kVeryLargeRes).Obj()},
       .init_pods = {pod("p1.1").Node("node1").Label("app", "foo").Priority(kMidPriority).Req(kMediumRes).Obj(),
                     pod("p1.2").Node("node1").Label("app", "foo").Priority(kMidPriority).Req(kMediumRes).Obj()},
       .pre_filter = kFit,
       .filter = kFit,
       .pdbs = {Pdb("", {{"app", "foo"}}, 1)},
       .expected = {{{"node1", {"p1.1", "p1.2"}, 1}}},
       .expected_num_filter_called = {3}},
      {.name = "preemption with violation of the pdb with pod whose eviction was processed, the victim doesn't "
               "belong to DisruptedPods",
       .node_names = {"node1"},
       .test_pods = {pod("p").Priority(kHighPriority).Req(kVeryLargeRes).Obj()},
       .init_pods = {pod("p1.1").Node("node1").Label("app", "foo").Priority(kMidPriority).Req(kMediumRes).Obj(),
                     pod("p1.2").Node("node1").Label("app", "foo").Priority(kMidPriority).Req(kMediumRes).Obj()},
       .pre_filter = kFit,
       .filter = kFit,
       .pdbs = {Pdb("", {{"app", "foo"}}, 1, {"p2"})},
       .expected = {{{"node1", {"p1.1", "p1.2"}, 1}}},
       .expected_num_filter_called = {3}},
      {.name = "preemption with violation of the pdb with pod whose eviction was processed, the victim belongs to "
               "DisruptedPods",
       .node_names = {"node1"},
       .test_pods = {pod("p").Priority(kHighPriority).Req(kVeryLargeRes).Obj()},
       .init_pods = {pod("p1.1").Node("node1").Label("app", "foo").Priority(kMidPriority).Req(kMediumRes).Obj(),
                     pod("p1.2").Node("node1").Label("app", "foo").Priority(kMidPriority).Req(kMediumRes).Obj()},
       .pre_filter = kFit,
       .filter = kFit,
       .pdbs = {Pdb("", {{"app", "foo"}}, 1, {"p1.2"})},
       .expected = {{{"node1", {"p1.1", "p1.2"}, 0}}},
       .expected_num_filter_called = {3}},
      {.name = "preemption with violation of the pdb with pod whose eviction was processed, the victim which "
               "belongs to DisruptedPods is treated as 'nonViolating'",
       .node_names = {"node1"},
       .test_pods = {pod("p").Priority(kHighPriority).Req(kVeryLargeRes).Obj()},
       .init_pods = {pod("p1.1").Node("node1").Label("app", "foo").Priority(kMidPriority).Req(kMediumRes).Obj(),
                     pod("p1.2").Node("node1").Label("app", "foo").Priority(kMidPriority).Req(kMediumRes).Obj(),
                     pod("p1.3").Node("node1").Label("app", "foo").Priority(kMidPriority).Req(kMediumRes).Obj()},
       .pre_filter = kFit,
       .filter = kFit,
       .pdbs = {Pdb("", {{"app", "foo"}}, 1, {"p1.3"})},
       .expected = {{{"node1", {"p1.1", "p1.2", "p1.3"}, 1}}},
       .expected_num_filter_called = {4}},
      {.name = "all nodes are possible candidates, but DefaultPreemptionArgs limits to 2",
       .args = R"({"minCandidateNodesPercentage":40,"minCandidateNodesAbsolute":1})",
       .node_names = {"node1", "node2", "node3", "node4", "node5"},
       .test_pods = {pod("p").Priority(kHighPriority).Req(kLargeRes).Obj()},
       .init_pods = {pod("p1").Node("node1").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p2").Node("node2").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p3").Node("node3").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p4").Node("node4").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p5").Node("node5").Priority(kMidPriority).Req(kLargeRes).Obj()},
       .pre_filter = kFit,
       .filter = kFit,
       .disable_parallelism = true,
       // cycle=0 => offset=4 => node5 (yes), node1 (yes)
       .expected = {{{"node1", {"p1"}, 0}, {"node5", {"p5"}, 0}}},
       .expected_num_filter_called = {4}},
      {.name = "some nodes are not possible candidates, DefaultPreemptionArgs limits to 2",
       .args = R"({"minCandidateNodesPercentage":40,"minCandidateNodesAbsolute":1})",
       .node_names = {"node1", "node2", "node3", "node4", "node5"},
       .test_pods = {pod("p").Priority(kHighPriority).Req(kLargeRes).Obj()},
       .init_pods = {pod("p1").Node("node1").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p2").Node("node2").Priority(kVeryHighPriority).Req(kLargeRes).Obj(),
                     pod("p3").Node("node3").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p4").Node("node4").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p5").Node("node5").Priority(kVeryHighPriority).Req(kLargeRes).Obj()},
       .pre_filter = kFit,
       .filter = kFit,
       .disable_parallelism = true,
       // cycle=0 => offset=4 => node5 (no), node1 (yes), node2 (no), node3 (yes)
       .expected = {{{"node1", {"p1"}, 0}, {"node3", {"p3"}, 0}}},
       .expected_num_filter_called = {4}},
      {.name = "preemption offset across multiple scheduling cycles and wrap around",
       .args = R"({"minCandidateNodesPercentage":40,"minCandidateNodesAbsolute":1})",
       .node_names = {"node1", "node2", "node3", "node4", "node5"},
       .test_pods = {pod("tp1").Priority(kHighPriority).Req(kLargeRes).Obj(),
                     pod("tp2").Priority(kHighPriority).Req(kLargeRes).Obj(),
                     pod("tp3").Priority(kHighPriority).Req(kLargeRes).Obj()},
       .init_pods = {pod("p1").Node("node1").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p2").Node("node2").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p3").Node("node3").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p4").Node("node4").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p5").Node("node5").Priority(kMidPriority).Req(kLargeRes).Obj()},
       .pre_filter = kFit,
       .filter = kFit,
       .disable_parallelism = true,
       .expected = {// cycle=0 => offset=4 => node5 (yes), node1 (yes)
                    {{"node1", {"p1"}, 0}, {"node5", {"p5"}, 0}},
                    // cycle=1 => offset=1 => node2 (yes), node3 (yes)
                    {{"node2", {"p2"}, 0}, {"node3", {"p3"}, 0}},
                    // cycle=2 => offset=3 => node4 (yes), node5 (yes)
                    {{"node4", {"p4"}, 0}, {"node5", {"p5"}, 0}}},
       .expected_num_filter_called = {4, 4, 4}},
      {.name = "preemption looks past numCandidates until a non-PDB violating node is found",
       .args = R"({"minCandidateNodesPercentage":40,"minCandidateNodesAbsolute":2})",
       .node_names = {"node1", "node2", "node3", "node4", "node5"},
       .test_pods = {pod("p").Priority(kHighPriority).Req(kLargeRes).Obj()},
       .init_pods = {pod("p1").Node("node1").Label("app", "foo").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p2").Node("node2").Label("app", "foo").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p3").Node("node3").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p4").Node("node4").Priority(kMidPriority).Req(kLargeRes).Obj(),
                     pod("p5").Node("node5").Label("app", "foo").Priority(kMidPriority).Req(kLargeRes).Obj()},
       .pre_filter = kFit,
       .filter = kFit,
       .pdbs = {Pdb("", {{"app", "foo"}}, 0)},
       .disable_parallelism = true,
       // cycle=0 => offset=4 => node5 (yes, pdb), node1 (yes, pdb), node2 (no, pdb), node3 (yes)
       .expected = {{{"node1", {"p1"}, 1}, {"node3", {"p3"}, 0}, {"node5", {"p5"}, 1}}},
       .expected_num_filter_called = {8}},
  };

  for (const DryRunCase& tc : cases) {
    DYNAMIC_SECTION("TestDryRunPreemption/" << tc.name) {
      World w;
      std::vector<std::string> filter = {"FakeFilter"};
      filter.insert(filter.end(), tc.filter.begin(), tc.filter.end());
      w.Enable(tc.pre_filter, filter);
      for (const std::string& spec : tc.node_names) {
        api::v1::Node node = TopologyNode(spec, kVeryLargeRes);
        w.fake_filter_codes[node.metadata().name()] = tc.fake_filter_rc;
        w.AddNode(node);
      }
      w.AddPods(tc.init_pods);
      w.Build(tc.disable_parallelism ? 1 : 4);
      const std::vector<const NodeInfo*> nodes = w.SortedNodes();
      auto pl = NewPlugin(w, tc.args);
      pl->set_offset_source(GoSeed4Offsets());
      const std::vector<preemption::PdbInfo> pdbs = preemption::CompilePdbs(tc.pdbs);

      int prev_calls = 0;
      for (size_t cycle = 0; cycle < tc.test_pods.size(); ++cycle) {
        INFO("cycle " << cycle);
        PodInfoPtr pod = Info(tc.test_pods[cycle]);
        CycleState state;
        w.PreFilter(state, *pod);
        auto [offset, num_candidates] = pl->GetOffsetAndNumCandidates(static_cast<int32_t>(nodes.size()));
        preemption::Evaluator::DryRunResult got =
            pl->evaluator().DryRunPreemption(state, *pod, nodes, pdbs, offset, num_candidates);
        CHECK(w.fake_filter_calls.load() - prev_calls == tc.expected_num_filter_called[cycle]);
        prev_calls = w.fake_filter_calls.load();
        CHECK(SortedView(got.candidates) == tc.expected[cycle]);
        // The victims are the very PodInfos of their node (borrowed from it).
        for (const preemption::Candidate& c : got.candidates) {
          const auto node = std::find_if(nodes.begin(), nodes.end(),
                                         [&](const NodeInfo* n) { return n->name() == c.node; });
          REQUIRE(node != nodes.end());
          for (const PodInfoPtr& v : c.victims.pods) {
            CHECK(std::any_of((*node)->pods().begin(), (*node)->pods().end(),
                              [&](const PodInfoPtr& p) { return p.get() == v.get(); }));
          }
        }
      }
    }
  }
}

// ===================================================================== TestSelectBestCandidate

struct SelectCase {
  std::string name;
  std::vector<std::string> node_names;
  api::v1::Pod pod;
  std::vector<api::v1::Pod> pods;
  std::set<std::string> expected;  // any of them
};

TEST_CASE("TestSelectBestCandidate", "[defaultpreemption][upstream]") {
  auto pod = [](std::string name) { return MakePod().Name(std::move(name)); };
  const std::string t0 = Epoch(0);
  std::vector<SelectCase> cases = {
      {"a pod that fits on both nodes when lower priority pods are preempted",
       {"node1", "node2"},
       pod("p").Priority(kHighPriority).Req(kLargeRes).Obj(),
       {pod("p1").Node("node1").Priority(kMidPriority).Req(kLargeRes).StartTime(t0).Obj(),
        pod("p2").Node("node2").Priority(kMidPriority).Req(kLargeRes).StartTime(t0).Obj()},
       {"node1", "node2"}},
      {"node with min highest priority pod is picked",
       {"node1", "node2", "node3"},
       pod("p").Priority(kHighPriority).Req(kVeryLargeRes).Obj(),
       {pod("p1.1").Node("node1").Priority(kMidPriority).Req(kMediumRes).StartTime(t0).Obj(),
        pod("p1.2").Node("node1").Priority(kMidPriority).Req(kLargeRes).StartTime(t0).Obj(),
        pod("p2.1").Node("node2").Priority(kMidPriority).Req(kMediumRes).StartTime(t0).Obj(),
        pod("p2.2").Node("node2").Priority(kLowPriority).Req(kMediumRes).StartTime(t0).Obj(),
        pod("p3.1").Node("node3").Priority(kLowPriority).Req(kMediumRes).StartTime(t0).Obj(),
        pod("p3.2").Node("node3").Priority(kLowPriority).Req(kMediumRes).StartTime(t0).Obj()},
       {"node3"}},
      {"when highest priorities are the same, minimum sum of priorities is picked",
       {"node1", "node2", "node3"},
       pod("p").Priority(kHighPriority).Req(kVeryLargeRes).Obj(),
       {pod("p1.1").Node("node1").Priority(kMidPriority).Req(kMediumRes).StartTime(t0).Obj(),
        pod("p1.2").Node("node1").Priority(kMidPriority).Req(kLargeRes).StartTime(t0).Obj(),
        pod("p2.1").Node("node2").Priority(kMidPriority).Req(kLargeRes).StartTime(t0).Obj(),
        pod("p2.2").Node("node2").Priority(kLowPriority).Req(kMediumRes).StartTime(t0).Obj(),
        pod("p3.1").Node("node3").Priority(kMidPriority).Req(kMediumRes).StartTime(t0).Obj(),
        pod("p3.2").Node("node3").Priority(kMidPriority).Req(kMediumRes).StartTime(t0).Obj()},
       {"node2"}},
      {"when highest priority and sum are the same, minimum number of pods is picked",
       {"node1", "node2", "node3"},
       pod("p").Priority(kHighPriority).Req(kVeryLargeRes).Obj(),
       {pod("p1.1").Node("node1").Priority(kMidPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("p1.2").Node("node1").Priority(kNegPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("p1.3").Node("node1").Priority(kMidPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("p1.4").Node("node1").Priority(kNegPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("p2.1").Node("node2").Priority(kMidPriority).Req(kLargeRes).StartTime(t0).Obj(),
        pod("p2.2").Node("node2").Priority(kNegPriority).Req(kMediumRes).StartTime(t0).Obj(),
        pod("p3.1").Node("node3").Priority(kMidPriority).Req(kMediumRes).StartTime(t0).Obj(),
        pod("p3.2").Node("node3").Priority(kNegPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("p3.3").Node("node3").Priority(kLowPriority).Req(kSmallRes).StartTime(t0).Obj()},
       {"node2"}},
      {"sum of adjusted priorities is considered",
       {"node1", "node2", "node3"},
       pod("p").Priority(kHighPriority).Req(kVeryLargeRes).Obj(),
       {pod("p1.1").Node("node1").Priority(kMidPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("p1.2").Node("node1").Priority(kNegPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("p1.3").Node("node1").Priority(kNegPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("p2.1").Node("node2").Priority(kMidPriority).Req(kLargeRes).StartTime(t0).Obj(),
        pod("p2.2").Node("node2").Priority(kNegPriority).Req(kMediumRes).StartTime(t0).Obj(),
        pod("p3.1").Node("node3").Priority(kMidPriority).Req(kMediumRes).StartTime(t0).Obj(),
        pod("p3.2").Node("node3").Priority(kNegPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("p3.3").Node("node3").Priority(kLowPriority).Req(kSmallRes).StartTime(t0).Obj()},
       {"node2"}},
      {"non-overlapping lowest high priority, sum priorities, and number of pods",
       {"node1", "node2", "node3", "node4"},
       pod("p").Priority(kVeryHighPriority).Req(kVeryLargeRes).Obj(),
       {pod("p1.1").Node("node1").Priority(kMidPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("p1.2").Node("node1").Priority(kLowPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("p1.3").Node("node1").Priority(kLowPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("p2.1").Node("node2").Priority(kHighPriority).Req(kLargeRes).StartTime(t0).Obj(),
        pod("p3.1").Node("node3").Priority(kMidPriority).Req(kMediumRes).StartTime(t0).Obj(),
        pod("p3.2").Node("node3").Priority(kLowPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("p3.3").Node("node3").Priority(kLowPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("p3.4").Node("node3").Priority(kLowPriority).Req(kMediumRes).StartTime(t0).Obj(),
        pod("p4.1").Node("node4").Priority(kMidPriority).Req(kMediumRes).StartTime(t0).Obj(),
        pod("p4.2").Node("node4").Priority(kMidPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("p4.3").Node("node4").Priority(kMidPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("p4.4").Node("node4").Priority(kNegPriority).Req(kSmallRes).StartTime(t0).Obj()},
       {"node1"}},
      {"same priority, same number of victims, different start time for each node's pod",
       {"node1", "node2", "node3"},
       pod("p").Priority(kHighPriority).Req(kVeryLargeRes).Obj(),
       {pod("p1.1").Node("node1").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(2)).Obj(),
        pod("p1.2").Node("node1").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(2)).Obj(),
        pod("p2.1").Node("node2").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(3)).Obj(),
        pod("p2.2").Node("node2").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(3)).Obj(),
        pod("p3.1").Node("node3").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(1)).Obj(),
        pod("p3.2").Node("node3").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(1)).Obj()},
       {"node2"}},
      {"same priority, same number of victims, different start time for all pods",
       {"node1", "node2", "node3"},
       pod("p").Priority(kHighPriority).Req(kVeryLargeRes).Obj(),
       {pod("p1.1").Node("node1").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(4)).Obj(),
        pod("p1.2").Node("node1").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(2)).Obj(),
        pod("p2.1").Node("node2").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(5)).Obj(),
        pod("p2.2").Node("node2").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(1)).Obj(),
        pod("p3.1").Node("node3").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(3)).Obj(),
        pod("p3.2").Node("node3").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(6)).Obj()},
       {"node3"}},
      {"different priority, same number of victims, different start time for all pods",
       {"node1", "node2", "node3"},
       pod("p").Priority(kHighPriority).Req(kVeryLargeRes).Obj(),
       {pod("p1.1").Node("node1").Priority(kLowPriority).Req(kMediumRes).StartTime(Epoch(4)).Obj(),
        pod("p1.2").Node("node1").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(2)).Obj(),
        pod("p2.1").Node("node2").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(6)).Obj(),
        pod("p2.2").Node("node2").Priority(kLowPriority).Req(kMediumRes).StartTime(Epoch(1)).Obj(),
        pod("p3.1").Node("node3").Priority(kLowPriority).Req(kMediumRes).StartTime(Epoch(3)).Obj(),
        pod("p3.2").Node("node3").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(5)).Obj()},
       {"node2"}},
  };

  for (const SelectCase& tc : cases) {
    DYNAMIC_SECTION("TestSelectBestCandidate/" << tc.name) {
      World w;
      w.Enable({"NodeResourcesFit"}, {"NodeResourcesFit"});
      for (const std::string& n : tc.node_names) w.AddNode(MakeNode().Name(n).Capacity(Cap(kVeryLargeRes)).Obj());
      w.AddPods(tc.pods);
      w.Build(/*parallelism=*/4);
      PodInfoPtr pod = Info(tc.pod);
      CycleState state;
      w.PreFilter(state, *pod);
      auto pl = NewPlugin(w);
      pl->set_offset_source(GoSeed4Offsets());
      const auto nodes = w.snapshot.nodes();
      auto [offset, num] = pl->GetOffsetAndNumCandidates(static_cast<int32_t>(nodes.size()));
      auto dry = pl->evaluator().DryRunPreemption(state, *pod, nodes, {}, offset, num);
      const preemption::Candidate* s = pl->evaluator().SelectCandidate(dry.candidates);
      REQUIRE(s != nullptr);
      INFO("selected " << s->node.str());
      CHECK(tc.expected.count(std::string(s->node.str())) == 1);
    }
  }
}

// ===================================================================== TestCustomSelection

struct CustomSelectionCase {
  std::string name;
  DefaultPreemption::IsEligiblePodFn eligible;
  std::vector<std::string> node_names;
  api::v1::Pod pod;
  std::vector<api::v1::Pod> pods;
  std::map<std::string, std::vector<std::string>> expected;  // node → victims in order
};

TEST_CASE("TestCustomSelection", "[defaultpreemption][upstream]") {
  auto pod_label_is_eligible = [](std::string key, std::string val) -> DefaultPreemption::IsEligiblePodFn {
    return [k = S(key), want = S(val)](const NodeInfo&, const PodInfo& victim, const PodInfo&) {
      std::optional<Symbol> v = victim.labels().Get(k);
      return v.has_value() && *v == want;
    };
  };
  auto node_name_is_eligible = [](std::string name) -> DefaultPreemption::IsEligiblePodFn {
    return [want = S(name)](const NodeInfo& node, const PodInfo&, const PodInfo&) { return node.name() == want; };
  };
  auto priority_below_threshold_cannot_preempt = [](int32_t min) -> DefaultPreemption::IsEligiblePodFn {
    return [min](const NodeInfo&, const PodInfo&, const PodInfo& preemptor) { return preemptor.priority() >= min; };
  };
  auto priority_above_threshold_cannot_be_preempted = [](int32_t max) -> DefaultPreemption::IsEligiblePodFn {
    return [max](const NodeInfo&, const PodInfo& victim, const PodInfo&) { return victim.priority() <= max; };
  };
  auto pod = [](std::string name) { return MakePod().Name(std::move(name)); };
  const std::string t0 = Epoch(0);
  auto label_pods = [&] {
    return std::vector<api::v1::Pod>{
        pod("v1").Label("preemptible", "no").Node("node1").Priority(kMidPriority).Req(kLargeRes).StartTime(t0).Obj(),
        pod("v2").Label("preemptible", "yes").Node("node2").Priority(kMidPriority).Req(kLargeRes).StartTime(t0).Obj(),
        pod("v3").Label("preemptible", "yes").Node("node3").Priority(kLowPriority).Req(kLargeRes).StartTime(t0).Obj(),
        pod("v4").Node("node4").Priority(kLowPriority).Req(kLargeRes).StartTime(t0).Obj()};
  };
  auto node_pods = [&](const ResourceMap& v1_res) {
    return std::vector<api::v1::Pod>{
        pod("v1").Node("node1").Priority(kHighPriority).Req(v1_res).StartTime(t0).Obj(),
        pod("v2").Node("node1").Priority(kMidPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("v3").Node("node1").Priority(kLowPriority).Req(kSmallRes).StartTime(t0).Obj(),
        pod("v4").Node("node2").Priority(kMidPriority).Req(kLargeRes).StartTime(t0).Obj(),
        pod("v5").Node("node3").Priority(kLowPriority).Req(kLargeRes).StartTime(t0).Obj()};
  };
  auto priority_pods = [&] {
    return std::vector<api::v1::Pod>{
        pod("v1").Node("node1").Priority(kHighPriority).Req(kLargeRes).StartTime(t0).Obj(),
        pod("v2").Node("node2").Priority(kMidPriority).Req(kLargeRes).StartTime(t0).Obj(),
        pod("v3").Node("node3").Priority(kLowPriority).Req(kLargeRes).StartTime(t0).Obj()};
  };
  const std::vector<std::string> four = {"node1", "node2", "node3", "node4"};
  const std::vector<std::string> three = {"node1", "node2", "node3"};
  std::vector<CustomSelectionCase> cases = {
      {"filter for matching pod label: high priority", pod_label_is_eligible("preemptible", "yes"), four,
       pod("p1").Priority(kHighPriority).Req(kLargeRes).Obj(), label_pods(),
       {{"node2", {"v2"}}, {"node3", {"v3"}}}},
      {"filter for matching pod label: mid priority", pod_label_is_eligible("preemptible", "yes"), four,
       pod("p2").Priority(kMidPriority).Req(kLargeRes).Obj(), label_pods(), {{"node3", {"v3"}}}},
      {"filter for matching pod label: low priority", pod_label_is_eligible("preemptible", "yes"), four,
       pod("p3").Priority(kLowPriority).Req(kLargeRes).Obj(), label_pods(), {}},
      {"filter for matching victim node: high priority", node_name_is_eligible("node1"), three,
       pod("p3").Priority(kHighPriority).Req(kLargeRes).Obj(), node_pods(kMediumRes), {{"node1", {"v2", "v3"}}}},
      {"filter for matching victim node: mid priority", node_name_is_eligible("node1"), three,
       pod("p3").Priority(kMidPriority).Req(kLargeRes).Obj(), node_pods(kSmallRes), {{"node1", {"v3"}}}},
      {"filter for matching victim node: low priority", node_name_is_eligible("node1"), three,
       pod("p3").Priority(kLowPriority).Req(kLargeRes).Obj(), node_pods(kSmallRes), {}},
      {"only pods at or above specified priority can preempted: high priority",
       priority_below_threshold_cannot_preempt(kHighPriority), three,
       pod("p1").Priority(kHighPriority).Req(kLargeRes).Obj(), priority_pods(),
       {{"node2", {"v2"}}, {"node3", {"v3"}}}},
      {"only pods at or above specified priority can preempted: mid priority",
       priority_below_threshold_cannot_preempt(kHighPriority), three,
       pod("p2").Priority(kMidPriority).Req(kLargeRes).Obj(), priority_pods(), {}},
      {"only pods at or below specified priority can be preempted: high priority",
       priority_above_threshold_cannot_be_preempted(kMidPriority), three,
       pod("p1").Priority(kHighPriority).Req(kLargeRes).Obj(), priority_pods(),
       {{"node2", {"v2"}}, {"node3", {"v3"}}}},
  };

  for (const CustomSelectionCase& tc : cases) {
    DYNAMIC_SECTION("TestCustomSelection/" << tc.name) {
      World w;
      w.Enable({"NodeResourcesFit"}, {"NodeResourcesFit"});
      for (const std::string& n : tc.node_names) w.AddNode(MakeNode().Name(n).Capacity(Cap(kVeryLargeRes)).Obj());
      w.AddPods(tc.pods);
      w.Build(/*parallelism=*/4);
      PodInfoPtr pod = Info(tc.pod);
      CycleState state;
      w.PreFilter(state, *pod);
      auto pl = NewPlugin(w);
      pl->set_is_eligible_pod(tc.eligible);
      const auto nodes = w.snapshot.nodes();
      auto [offset, num] = pl->GetOffsetAndNumCandidates(static_cast<int32_t>(nodes.size()));
      auto dry = pl->evaluator().DryRunPreemption(state, *pod, nodes, {}, offset, num);
      REQUIRE(dry.candidates.size() == tc.expected.size());
      std::vector<preemption::Candidate> candidates = dry.candidates;
      while (!candidates.empty()) {
        const preemption::Candidate* selected = pl->evaluator().SelectCandidate(candidates);
        REQUIRE(selected != nullptr);
        auto it = tc.expected.find(std::string(selected->node.str()));
        REQUIRE(it != tc.expected.end());
        CHECK(VictimNames(*selected) == it->second);
        const Symbol chosen = selected->node;
        candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                        [&](const preemption::Candidate& c) { return c.node == chosen; }),
                         candidates.end());
      }
    }
  }
}

// ===================================================================== TestCustomOrdering

TEST_CASE("TestCustomOrdering", "[defaultpreemption][upstream]") {
  auto order_by_oldest_start = [](const PodInfo& a, const PodInfo& b) { return a.start_time() < b.start_time(); };
  auto order_by_pod_name = [](const PodInfo& a, const PodInfo& b) { return a.name().str() < b.name().str(); };
  struct Case {
    std::string name;
    DefaultPreemption::MoreImportantPodFn order;
    std::vector<api::v1::Pod> pods;
    std::vector<std::string> expected;
  };
  std::vector<Case> cases = {
      {"select newest pods", order_by_oldest_start,
       {MakePod().Name("v1").Node("node1").Priority(kLowPriority).Req(kMediumRes).StartTime(Epoch(2)).Obj(),
        MakePod().Name("v2").Node("node1").Priority(kLowPriority).Req(kMediumRes).StartTime(Epoch(0)).Obj(),
        MakePod().Name("v3").Node("node1").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(1)).Obj()},
       // the newest two pods are selected, despite one with higher priority
       {"v3", "v1"}},
      {"select alphabetically-last pods", order_by_pod_name,
       {MakePod().Name("foo").UID("v1").Node("node1").Priority(kLowPriority).Req(kMediumRes).StartTime(Epoch(0)).Obj(),
        MakePod().Name("bar").UID("v2").Node("node1").Priority(kLowPriority).Req(kMediumRes).StartTime(Epoch(0)).Obj(),
        MakePod().Name("baz").UID("v3").Node("node1").Priority(kMidPriority).Req(kMediumRes).StartTime(Epoch(0)).Obj()},
       // the last pods in alphabetic order are selected, despite one with higher priority
       {"baz", "foo"}},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestCustomOrdering/" << tc.name) {
      World w;
      w.Enable({"NodeResourcesFit"}, {"NodeResourcesFit"});
      w.AddNode(MakeNode().Name("node1").Capacity(Cap(kVeryLargeRes)).Obj());
      w.AddPods(tc.pods);
      w.Build();
      PodInfoPtr pod = Info(MakePod().Name("p2").Priority(kHighPriority).Req(kLargeRes).Obj());
      CycleState state;
      w.PreFilter(state, *pod);
      auto pl = NewPlugin(w);
      pl->set_more_important_pod(tc.order);
      const auto nodes = w.snapshot.nodes();
      auto [offset, num] = pl->GetOffsetAndNumCandidates(static_cast<int32_t>(nodes.size()));
      auto dry = pl->evaluator().DryRunPreemption(state, *pod, nodes, {}, offset, num);
      REQUIRE(dry.candidates.size() == 1);
      CHECK(VictimNames(dry.candidates[0]) == tc.expected);
    }
  }
}

// ===================================================================== TestPodEligibleToPreemptOthers

TEST_CASE("TestPodEligibleToPreemptOthers", "[defaultpreemption][upstream]") {
  auto disruption_target = [](api::v1::Pod p) {
    auto* c = p.mutable_status()->add_conditions();
    c->set_type("DisruptionTarget");
    c->set_status("True");
    c->set_reason("PreemptionByScheduler");
    return p;
  };
  struct Case {
    std::string name;
    api::v1::Pod pod;
    std::vector<api::v1::Pod> pods;
    std::vector<std::string> nodes;
    std::optional<Status> nominated_node_status;
    bool expected;
    std::string reason;
  };
  std::vector<Case> cases = {
      {"Pod with nominated node",
       MakePod().Name("p_with_nominated_node").UID("p").Priority(kHighPriority).NominatedNodeName("node1").Obj(),
       {MakePod().Name("p1").Priority(kLowPriority).Node("node1").Terminating().Obj()},
       {"node1"},
       Status(Code::kUnschedulableAndUnresolvable, S("node(s) had taints that the pod didn't tolerate")),
       true, ""},
      {"Pod without nominated node", MakePod().Name("p_without_nominated_node").UID("p").Priority(kHighPriority).Obj(),
       {}, {}, std::nullopt, true, ""},
      {"Pod with 'PreemptNever' preemption policy",
       MakePod().Name("p_with_preempt_never_policy").UID("p").Priority(kHighPriority).PreemptionPolicy("Never").Obj(),
       {}, {}, std::nullopt, false, "not eligible due to preemptionPolicy=Never."},
      {"preemption victim pod terminating, as indicated by the dedicated DisruptionTarget condition",
       MakePod().Name("p_with_nominated_node").UID("p").Priority(kHighPriority).NominatedNodeName("node1").Obj(),
       {disruption_target(MakePod().Name("p1").Priority(kLowPriority).Node("node1").Terminating().Obj())},
       {"node1"}, std::nullopt, false, "not eligible due to a terminating pod on the nominated node."},
      {"non-victim Pods terminating",
       MakePod().Name("p_with_nominated_node").UID("p").Priority(kHighPriority).NominatedNodeName("node1").Obj(),
       {MakePod().Name("p1").Priority(kLowPriority).Node("node1").Terminating().Obj()},
       {"node1"}, std::nullopt, true, ""},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestPodEligibleToPreemptOthers/" << tc.name) {
      World w;
      for (const std::string& n : tc.nodes) w.AddNode(MakeNode().Name(n).Obj());
      w.AddPods(tc.pods);
      w.Build();
      auto pl = NewPlugin(w);
      // Upstream passes a nil status where none is given: its code is Success.
      const Status status = tc.nominated_node_status.value_or(Status());
      auto [eligible, reason] = pl->PodEligibleToPreemptOthers(*Info(tc.pod), status);
      CHECK(eligible == tc.expected);
      CHECK(reason == tc.reason);
    }
  }
}

// ===================================================================== TestPreempt

TEST_CASE("TestPreempt", "[defaultpreemption][upstream]") {
  auto foo_exists = Selector({}, {{"foo", "Exists", {}}});
  struct Case {
    std::string name;
    api::v1::Pod pod;
    std::vector<api::v1::Pod> pods;
    std::vector<std::string> node_names;
    std::vector<std::string> plugins;  // PreFilter and Filter
    std::optional<std::string> want;   // nominated node; nullopt: nil result
    std::set<std::string> expected_pods;
  };
  auto pod = [](std::string name) { return MakePod().Name(std::move(name)); };
  const std::vector<std::string> kFit = {"NodeResourcesFit"};
  std::vector<Case> cases = {
      {"basic preemption logic",
       pod("p").Priority(kHighPriority).Req(kVeryLargeRes).PreemptionPolicy("PreemptLowerPriority").Obj(),
       {pod("p1.1").Node("node1").Priority(kLowPriority).Req(kSmallRes).Obj(),
        pod("p1.2").Node("node1").Priority(kLowPriority).Req(kSmallRes).Obj(),
        pod("p2.1").Node("node2").Priority(kHighPriority).Req(kLargeRes).Obj(),
        pod("p3.1").Node("node3").Priority(kMidPriority).Req(kMediumRes).Obj()},
       {"node1", "node2", "node3"}, kFit, "node1", {"p1.1", "p1.2"}},
      {"preemption for topology spread constraints",
       pod("p")
           .Label("foo", "")
           .Priority(kHighPriority)
           .SpreadConstraint(1, "zone", "DoNotSchedule", foo_exists)
           .SpreadConstraint(1, "hostname", "DoNotSchedule", foo_exists)
           .Obj(),
       {pod("p-a1").Node("node-a").Label("foo", "").Priority(kHighPriority).Obj(),
        pod("p-a2").Node("node-a").Label("foo", "").Priority(kHighPriority).Obj(),
        pod("p-b1").Node("node-b").Label("foo", "").Priority(kLowPriority).Obj(),
        pod("p-x1").Node("node-x").Label("foo", "").Priority(kHighPriority).Obj(),
        pod("p-x2").Node("node-x").Label("foo", "").Priority(kHighPriority).Obj()},
       {"node-a/zone1", "node-b/zone1", "node-x/zone2"}, {"PodTopologySpread"}, "node-b", {"p-b1"}},
      {"no preempting in pod",
       pod("p").Priority(kHighPriority).Req(kVeryLargeRes).PreemptionPolicy("Never").Obj(),
       {pod("p1.1").Node("node1").Priority(kLowPriority).Req(kSmallRes).Obj(),
        pod("p1.2").Node("node1").Priority(kLowPriority).Req(kSmallRes).Obj(),
        pod("p2.1").Node("node2").Priority(kHighPriority).Req(kLargeRes).Obj(),
        pod("p3.1").Node("node3").Priority(kMidPriority).Req(kMediumRes).Obj()},
       {"node1", "node2", "node3"}, kFit, std::nullopt, {}},
      {"PreemptionPolicy is nil",
       pod("p").Priority(kHighPriority).Req(kVeryLargeRes).Obj(),
       {pod("p1.1").Node("node1").Priority(kLowPriority).Req(kSmallRes).Obj(),
        pod("p1.2").Node("node1").Priority(kLowPriority).Req(kSmallRes).Obj(),
        pod("p2.1").Node("node2").Priority(kHighPriority).Req(kLargeRes).Obj(),
        pod("p3.1").Node("node3").Priority(kMidPriority).Req(kMediumRes).Obj()},
       {"node1", "node2", "node3"}, kFit, "node1", {"p1.1", "p1.2"}},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestPreempt/" << tc.name) {
      World w;
      w.Enable(tc.plugins, tc.plugins);
      std::vector<std::string> node_names;
      for (const std::string& spec : tc.node_names) {
        api::v1::Node node = TopologyNode(spec, kVeryLargeRes);
        node_names.push_back(node.metadata().name());
        w.AddNode(node);
      }
      w.AddPods(tc.pods);
      w.Build(/*parallelism=*/4);
      PodInfoPtr pod = Info(tc.pod);
      CycleState state;
      w.PreFilter(state, *pod);
      auto pl = NewPlugin(w);

      std::map<std::string, Code> unschedulable;
      for (const std::string& n : node_names) unschedulable[n] = Code::kUnschedulable;
      framework::PostFilterPlugin::Result res = pl->evaluator().Preempt(state, *pod, Statuses(unschedulable));
      CHECK((res.status.IsSuccess() || res.status.IsRejected()));
      if (tc.want) {
        CHECK(res.nominating_info.mode == NominatingInfo::Mode::kOverride);
        CHECK(res.nominating_info.node_name.str() == *tc.want);
      } else {
        CHECK(res.nominating_info.mode == NominatingInfo::Mode::kNoop);
      }
      CHECK(w.client.EvictedSet() == tc.expected_pods);
      // Every eviction names the preemptor and the nominated node, and is
      // reported as a Preempted event.
      for (const auto& [preemptor, node] : w.client.evicted_for) {
        CHECK(preemptor == "p");
        CHECK(node == tc.want.value_or(""));
      }
      CHECK(w.events.events.size() == tc.expected_pods.size());

      // The victims are now terminating and the pod is nominated: preempting
      // again must not evict more pods.
      for (const api::v1::Pod& p : tc.pods) {
        if (tc.expected_pods.count(p.metadata().name()) == 0) continue;
        REQUIRE(w.state.RemovePod(*Info(p)).ok());
        api::v1::Pod terminating = p;
        terminating.mutable_metadata()->set_deletion_timestamp("2024-01-01T00:00:00Z");
        w.AddPod(terminating);
      }
      w.Refresh();
      api::v1::Pod nominated = tc.pod;
      if (res.nominating_info.mode == NominatingInfo::Mode::kOverride) {
        nominated.mutable_status()->set_nominated_node_name(std::string(res.nominating_info.node_name.str()));
      }
      const size_t evictions = w.client.evicted.size();
      PodInfoPtr again = Info(nominated);
      CycleState state2;
      w.PreFilter(state2, *again);
      res = pl->evaluator().Preempt(state2, *again, NodeToStatus());
      CHECK((res.status.IsSuccess() || res.status.IsRejected()));
      CHECK(w.client.evicted.size() == evictions);
    }
  }
}

// ===================================================================== more behaviour

TEST_CASE("PostFilter clears lower-priority nominations and evicts through the framework handle",
          "[defaultpreemption]") {
  World w;
  w.Enable({"NodeResourcesFit"}, {"NodeResourcesFit"});
  w.AddNode(MakeNode().Name("node1").Capacity(Cap(kVeryLargeRes)).Obj());
  w.AddPods({MakePod().Name("v1").Node("node1").Priority(kLowPriority).Req(kLargeRes).Obj(),
             MakePod().Name("v2").Node("node1").Priority(kLowPriority).Req(kSmallRes).Obj()});
  w.Build();
  PodInfoPtr low_nominated = Info(MakePod().Name("low").Priority(kLowPriority).NominatedNodeName("node1").Obj());
  PodInfoPtr high_nominated = Info(MakePod().Name("high").Priority(kVeryHighPriority).NominatedNodeName("node1").Obj());
  w.nominator.AddNominatedPod(low_nominated, S("node1"));
  w.nominator.AddNominatedPod(high_nominated, S("node1"));

  auto pl = NewPlugin(w);
  PodInfoPtr pod = Info(MakePod().Name("p").Priority(kHighPriority).Req(kLargeRes).Obj());
  CycleState state;
  w.PreFilter(state, *pod);
  auto res = pl->PostFilter(state, *pod, Statuses({{"node1", Code::kUnschedulable}}));
  REQUIRE(res.status.IsSuccess());
  CHECK(res.nominating_info.node_name == S("node1"));
  // The higher-priority nominated pod is part of the dry run (two-pass
  // filter); with v1 gone the pod fits, so v2 is reprieved.
  CHECK(w.client.EvictedSet() == std::set<std::string>{"v1"});
  CHECK(w.client.cleared == std::vector<std::string>{"low"});
  CHECK(w.nominator.NominatedPodsForNode(S("node1")).size() == 1);
  REQUIRE(w.events.events.size() == 1);
  CHECK(w.events.events[0] == "v1 Normal Preempted Preempting: Preempted by pod p on node node1 (related p)");
}

TEST_CASE("Dry runs keep room for nominated pods of equal or higher priority", "[defaultpreemption]") {
  for (int32_t nominated_priority : {kVeryHighPriority, kHighPriority, kLowPriority}) {
    DYNAMIC_SECTION("nominated priority " << nominated_priority) {
      World w;
      w.Enable({"NodeResourcesFit"}, {"NodeResourcesFit"});
      w.AddNode(MakeNode().Name("node1").Capacity(Cap(kVeryLargeRes)).Obj());
      w.AddPods({MakePod().Name("v1").Node("node1").Priority(kLowPriority).Req(kLargeRes).Obj()});
      w.Build();
      w.nominator.AddNominatedPod(
          Info(MakePod().Name("n").Priority(nominated_priority).Req(kLargeRes).NominatedNodeName("node1").Obj()),
          S("node1"));
      auto pl = NewPlugin(w);
      PodInfoPtr pod = Info(MakePod().Name("p").Priority(kHighPriority).Req(kLargeRes).Obj());
      CycleState state;
      w.PreFilter(state, *pod);
      auto res = pl->PostFilter(state, *pod, Statuses({{"node1", Code::kUnschedulable}}));
      if (nominated_priority >= kHighPriority) {
        // v1 gone still leaves no room next to the nominated pod.
        CHECK(res.status.code() == Code::kUnschedulable);
        CHECK(res.status.Message() == "preemption: 0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory.");
        CHECK(w.client.evict_calls.empty());
        CHECK(w.client.cleared.empty());
      } else {
        // A lower-priority nomination is ignored by the dry run, and cleared.
        CHECK(res.status.IsSuccess());
        CHECK(w.client.EvictedSet() == std::set<std::string>{"v1"});
        CHECK(w.client.cleared == std::vector<std::string>{"n"});
      }
    }
  }
}

TEST_CASE("PostFilter: eviction errors do not change the result (async preemption's outcome)",
          "[defaultpreemption]") {
  World w;
  w.Enable({"NodeResourcesFit"}, {"NodeResourcesFit"});
  w.AddNode(MakeNode().Name("node1").Capacity(Cap(kVeryLargeRes)).Obj());
  // Start times fix the victims' order (v1 started first, so it is evicted first).
  w.AddPods({MakePod().Name("v1").Node("node1").Priority(kLowPriority).Req(kLargeRes).StartTime("2024-01-01T00:00:00Z").Obj(),
             MakePod().Name("v2").Node("node1").Priority(kLowPriority).Req(kLargeRes).StartTime("2024-01-01T00:00:01Z").Obj()});
  w.client.evict_errors["v1"] = absl::InternalError("delete pod failed");
  w.Build();
  auto pl = NewPlugin(w);
  PodInfoPtr pod = Info(MakePod().Name("p").Priority(kHighPriority).Req(kVeryLargeRes).Obj());
  CycleState state;
  w.PreFilter(state, *pod);
  auto res = pl->PostFilter(state, *pod, Statuses({{"node1", Code::kUnschedulable}}));
  CHECK(res.status.IsSuccess());
  CHECK(res.nominating_info.node_name == S("node1"));
  // The last victim is still evicted after an earlier failure, as upstream.
  CHECK(w.client.evict_calls == std::vector<std::string>{"v1", "v2"});
  CHECK(w.client.EvictedSet() == std::set<std::string>{"v2"});
  CHECK_FALSE(pl->evaluator().IsPodRunningPreemption(pod->uid()));
}

TEST_CASE("PreEnqueue holds the preemptor back while its victims are being evicted", "[defaultpreemption]") {
  World w;
  w.Enable({"NodeResourcesFit"}, {"NodeResourcesFit"});
  w.AddNode(MakeNode().Name("node1").Capacity(Cap(kVeryLargeRes)).Obj());
  w.AddPods({MakePod().Name("v1").Node("node1").Priority(kLowPriority).Req(kLargeRes).Obj()});
  w.Build();
  auto pl = NewPlugin(w);
  PodInfoPtr pod = Info(MakePod().Name("p").Priority(kHighPriority).Req(kLargeRes).Obj());
  std::vector<std::string> during;
  w.client.on_evict = [&](const PodInfo&) { during.push_back(pl->PreEnqueue(*pod).ToString()); };
  CycleState state;
  w.PreFilter(state, *pod);
  REQUIRE(pl->PostFilter(state, *pod, Statuses({{"node1", Code::kUnschedulable}})).status.IsSuccess());
  CHECK(during == std::vector<std::string>{
                      "UnschedulableAndUnresolvable: waiting for the preemption for this pod to be finished"});
  CHECK(pl->PreEnqueue(*pod).IsSuccess());
}

TEST_CASE("Preempt: no nodes, and victims already terminating", "[defaultpreemption]") {
  SECTION("no nodes available") {
    World w;
    w.Build();
    auto pl = NewPlugin(w);
    PodInfoPtr pod = Info(MakePod().Name("p").Priority(kHighPriority).Obj());
    CycleState state;
    auto res = pl->PostFilter(state, *pod, NodeToStatus());
    CHECK(res.status.code() == Code::kError);
    CHECK(res.status.Message() == "preemption: no nodes available");
    CHECK(res.nominating_info.mode == NominatingInfo::Mode::kNoop);
  }
  SECTION("a terminating victim needs no eviction") {
    World w;
    w.Enable({"NodeResourcesFit"}, {"NodeResourcesFit"});
    w.AddNode(MakeNode().Name("node1").Capacity(Cap(kVeryLargeRes)).Obj());
    w.AddPods({MakePod().Name("v1").Node("node1").Priority(kLowPriority).Req(kLargeRes).Terminating().Obj()});
    w.Build();
    PodInfoPtr low = Info(MakePod().Name("low").Priority(kLowPriority).NominatedNodeName("node1").Obj());
    w.nominator.AddNominatedPod(low, S("node1"));
    auto pl = NewPlugin(w);
    PodInfoPtr pod = Info(MakePod().Name("p").Priority(kHighPriority).Req(kLargeRes).Obj());
    CycleState state;
    w.PreFilter(state, *pod);
    auto res = pl->PostFilter(state, *pod, Statuses({{"node1", Code::kUnschedulable}}));
    CHECK(res.status.IsSuccess());
    CHECK(res.nominating_info.node_name == S("node1"));
    CHECK(w.client.evict_calls.empty());
    // Async preemption returns before clearing nominations when nothing is
    // left to evict.
    CHECK(w.client.cleared.empty());
  }
}

// ===================================================================== integration

// Node i has 4000m of cpu filled by four 1000m pods of priorities
// {10 + i%7, 20 + i%5, 100, 100}, started i seconds after the epoch. A pod of
// priority 1000 asking for 2000m must evict two pods anywhere; the best node
// has the lowest highest victim (i%5 == 0), then the lowest sum (i%7 == 0),
// then the latest start: the largest i with i%35 == 0.
std::vector<api::v1::Pod> FullNodePods(int i) {
  const std::string node = schedkit::StrCat("n", i);
  std::vector<api::v1::Pod> out;
  const int32_t prios[] = {10 + i % 7, 20 + i % 5, 100, 100};
  for (int k = 0; k < 4; ++k) {
    out.push_back(MakePod()
                      .Name(schedkit::StrCat("n", i, "-p", k))
                      .Node(node)
                      .Priority(prios[k])
                      .Req({{"cpu", "1000m"}, {"memory", "1Gi"}})
                      .StartTime(absl::FormatTime(absl::RFC3339_full, absl::FromUnixSeconds(i), absl::UTCTimeZone()))
                      .Obj());
  }
  return out;
}

TEST_CASE("Integration: many full nodes, the minimum victims on the best node", "[defaultpreemption][integration]") {
  constexpr int kNodes = 200;
  for (int parallelism : {1, 4}) {
    DYNAMIC_SECTION("parallelism " << parallelism) {
      World w;
      w.Enable({"NodeResourcesFit"}, {"NodeResourcesFit"});
      for (int i = 0; i < kNodes; ++i) {
        w.AddNode(MakeNode().Name(schedkit::StrCat("n", i)).Capacity(Cap({{"cpu", "4"}, {"memory", "16Gi"}})).Obj());
        w.AddPods(FullNodePods(i));
      }
      w.Build(parallelism);
      auto post = NewDefaultPreemption(framework::PluginArgs(R"({"minCandidateNodesPercentage":100})"), *w.fw);
      REQUIRE(post.ok());
      // Run the cycle through the framework: SchedulePod fails with a FitError
      // whose statuses feed PostFilter.
      PodInfoPtr pod = Info(MakePod().Name("big").Priority(1000).Req({{"cpu", "2000m"}, {"memory", "1Gi"}}).Obj());
      CycleState state;
      framework::SelectionState selection;
      framework::ScheduleOutcome out = w.fw->SchedulePod(state, pod, w.snapshot, selection);
      REQUIRE(out.fit_error != nullptr);
      CHECK(out.fit_error->Message() == "0/200 nodes are available: 200 Insufficient cpu.");
      auto* pl = dynamic_cast<framework::PostFilterPlugin*>(post->get());
      REQUIRE(pl != nullptr);
      framework::PostFilterPlugin::Result res = pl->PostFilter(state, *pod, out.fit_error->diagnosis.node_to_status);
      REQUIRE(res.status.IsSuccess());
      CHECK(res.nominating_info.node_name == S("n175"));
      CHECK(w.client.evict_calls.size() == 2);
      CHECK(w.client.EvictedSet() == std::set<std::string>{"n175-p0", "n175-p1"});
    }
  }
}

TEST_CASE("Integration: with the default args only the shortlist from the offset is examined",
          "[defaultpreemption][integration]") {
  constexpr int kNodes = 300;  // 10% = 30 < 100: the shortlist is 100 nodes
  World w;
  w.Enable({"NodeResourcesFit"}, {"FakeFilter", "NodeResourcesFit"});
  for (int i = 0; i < kNodes; ++i) {
    w.AddNode(MakeNode().Name(schedkit::StrCat("n", i)).Capacity(Cap({{"cpu", "4"}, {"memory", "16Gi"}})).Obj());
    w.AddPods(FullNodePods(i));
  }
  w.Build(4);
  auto pl = NewPlugin(w);
  const int kOffset = 250;
  pl->set_offset_source([&](int32_t) { return kOffset; });
  PodInfoPtr pod = Info(MakePod().Name("big").Priority(1000).Req({{"cpu", "2000m"}, {"memory", "1Gi"}}).Obj());
  CycleState state;
  w.PreFilter(state, *pod);
  std::map<std::string, Code> all;
  for (int i = 0; i < kNodes; ++i) all[schedkit::StrCat("n", i)] = Code::kUnschedulable;
  // Potential nodes come in snapshot order; find which node sits where.
  std::vector<const NodeInfo*> potential = Statuses(all).NodesForStatusCode(w.snapshot, Code::kUnschedulable);
  REQUIRE(potential.size() == kNodes);
  // The best node among the 100 from the offset, by the same criteria.
  int best = -1;
  for (int k = 0; k < 100; ++k) {
    const std::string_view name = potential[(kOffset + k) % kNodes]->name().str();
    const int i = std::stoi(std::string(name.substr(1)));
    auto key = [](int j) { return std::make_tuple(-(20 + j % 5), -(30 + j % 5 + j % 7), j); };
    if (best < 0 || key(i) > key(best)) best = i;
  }
  auto res = pl->PostFilter(state, *pod, Statuses(all));
  REQUIRE(res.status.IsSuccess());
  CHECK(res.nominating_info.node_name == S(schedkit::StrCat("n", best)));
  // Each examined node: one filter pass with all four pods removed, then
  // one per reprieve.
  CHECK(w.fake_filter_calls.load() == 100 * 5);
}

// Upstream (v1.37) reads time.Now() once per victim that never started, as it
// makes the victims in the node's order: equal-priority victims that never
// started keep their node order, after every started one.
TEST_CASE("victims without start times are ordered as upstream's sort.Slice orders them", "[defaultpreemption]") {
  std::vector<PodInfoPtr> pods;
  for (int i = 0; i < 5; ++i) pods.push_back(Info(MakePod().Name(schedkit::StrCat("p", i)).Priority(1).Obj()));
  pods.push_back(Info(MakePod().Name("started").Priority(1).StartTime("2024-01-01T00:00:00Z").Obj()));
  pods.push_back(Info(MakePod().Name("high").Priority(9).Obj()));
  const preemption::VictimImportance importance(pods);
  std::vector<PodInfoPtr> sorted = pods;
  preemption::GoSortSlice(sorted, [&](const PodInfoPtr& a, const PodInfoPtr& b) { return importance(a, b); });
  std::vector<std::string> names;
  for (const auto& p : sorted) names.emplace_back(p->name().str());
  CHECK(names == std::vector<std::string>{"high", "started", "p0", "p1", "p2", "p3", "p4"});
  // Sorting again (victims merged after the reprieves) keeps that order.
  std::reverse(sorted.begin(), sorted.end());
  preemption::GoSortSlice(sorted, [&](const PodInfoPtr& a, const PodInfoPtr& b) { return importance(a, b); });
  names.clear();
  for (const auto& p : sorted) names.emplace_back(p->name().str());
  CHECK(names == std::vector<std::string>{"high", "started", "p0", "p1", "p2", "p3", "p4"});
}

TEST_CASE("GoSortSlice sorts like std::sort for consistent comparators", "[defaultpreemption]") {
  std::mt19937 rng(7);
  for (int n : {0, 1, 5, 12, 13, 49, 50, 51, 200, 1000}) {
    std::vector<int> v(n);
    for (int& x : v) x = static_cast<int>(rng() % 100);
    std::vector<int> expected = v;
    std::sort(expected.begin(), expected.end());
    preemption::GoSortSlice(v, [](int a, int b) { return a < b; });
    CHECK(v == expected);
  }
}

}  // namespace
}  // namespace schedkit::plugins
