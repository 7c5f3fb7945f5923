// The preemption evaluator: upstream v1.35.8 framework/preemption/
// preemption_test.go cases (TestDryRunPreemption, TestSelectCandidate,
// TestPrepareCandidate, TestRemoveNominatedNodeName,
// TestPrepareCandidateAsyncSetsPreemptingSets, TestIsPodRunningPreemption),
// plus the helpers (PDB split, candidate choice, error aggregation), the
// waiting-pod path and determinism of the parallel dry runs.
//
// Not ported: TestCallExtenders (8 cases; schedkit has no extenders), and 5
// of TestIsPodRunningPreemption's 6 cases, which inject the evaluator's
// internal maps and a pod lister to model a victim deleted after the
// asynchronous goroutine's last call; with synchronous eviction the
// preemptor is "running preemption" exactly while PrepareCandidate evicts.
//
// TestPrepareCandidate's client outcomes (patch or delete failing, NotFound)
// become ClusterClient::Evict results: schedkit's host patches the
// DisruptionTarget condition and deletes the pod behind that one call.
// Upstream runs these with async preemption and async API calls on and off;
// here each case runs once, with PrepareCandidate's outcome (the first error)
// compared to upstream's synchronous status.
#include "plugins/defaultpreemption/evaluator.h"

#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "plugins/defaultpreemption/preemption_testing.h"

namespace schedkit::plugins::preemption {
namespace {

using namespace preemption_testing;  // NOLINT: test vocabulary
using framework::NodeToStatus;

// FakePostFilterPlugin: the first pod of every node is the victim.
class FakePostFilterPolicy : public Interface {
 public:
  explicit FakePostFilterPolicy(int64_t num_violating) : num_violating_(num_violating) {}
  std::pair<int32_t, int32_t> GetOffsetAndNumCandidates(int32_t n) override { return {0, n}; }
  std::pair<bool, std::string> PodEligibleToPreemptOthers(const PodInfo&, const Status&) const override {
    return {true, ""};
  }
  Status SelectVictimsOnNode(const CycleState&, const PodInfo&, const NodeInfo& node, std::span<const PdbInfo>,
                             Victims& victims) const override {
    victims.pods = {node.pods()[0]};
    victims.num_pdb_violations = num_violating_;
    return Status();
  }

 private:
  int64_t num_violating_;
};

// FakePreemptionScorePostFilterPlugin: one violating victim per node, and
// candidates ranked by fewest containers among the victims.
class FakeScorePolicy : public FakePostFilterPolicy {
 public:
  FakeScorePolicy() : FakePostFilterPolicy(1) {}
  std::vector<ScoreFunc> OrderedScoreFuncs(std::span<const Candidate>) const override {
    return {[](const Candidate& c) {
      int64_t containers = 0;
      for (const PodInfoPtr& p : c.victims.pods) {
        containers += p->pod().spec().containers_size() + p->pod().spec().init_containers_size();
      }
      return -containers;
    }};
  }
};

// ===================================================================== TestDryRunPreemption

TEST_CASE("preemption TestDryRunPreemption", "[preemption][upstream]") {
  struct Case {
    std::string name;
    int64_t num_violating;
    std::vector<CandidateView> expected;
  };
  const std::vector<Case> cases = {
      {"no pdb violation", 0, {{"node1", {"p1"}, 0}, {"node2", {"p2"}, 0}}},
      {"pdb violation on each node", 1, {{"node1", {"p1"}, 1}, {"node2", {"p2"}, 1}}},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestDryRunPreemption/" << tc.name) {
      World w;
      w.AddNode(MakeNode().Name("node1").Capacity(Cap(kVeryLargeRes)).Obj());
      w.AddNode(MakeNode().Name("node2").Capacity(Cap(kVeryLargeRes)).Obj());
      w.AddPods({MakePod().Name("p1").Node("node1").Priority(kMidPriority).Obj(),
                 MakePod().Name("p2").Node("node2").Priority(kMidPriority).Obj()});
      w.Build(/*parallelism=*/4);
      FakePostFilterPolicy policy(tc.num_violating);
      Evaluator ev("FakePostFilter", *w.fw, policy);
      PodInfoPtr pod = Info(MakePod().Name("p").Priority(kHighPriority).Obj());
      CycleState state;
      const auto nodes = w.SortedNodes();
      auto got = ev.DryRunPreemption(state, *pod, nodes, {}, 0, static_cast<int32_t>(nodes.size()));
      CHECK(SortedView(got.candidates) == tc.expected);
    }
  }
}

// ===================================================================== TestSelectCandidate

TEST_CASE("preemption TestSelectCandidate", "[preemption][upstream]") {
  SECTION("TestSelectCandidate/pod has different number of containers on each node") {
    World w;
    for (const char* n : {"node1", "node2", "node3"}) w.AddNode(MakeNode().Name(n).Capacity(Cap(kVeryLargeRes)).Obj());
    const std::vector<api::v1::Pod> test_pods = {
        MakePod().Name("p1.1").Node("node1").Priority(kMidPriority).Container("c1").Container("c2").Obj(),
        MakePod().Name("p2.1").Node("node2").Priority(kMidPriority).Container("c1").Obj(),
        MakePod().Name("p3.1").Node("node3").Priority(kMidPriority).Container("c1").Container("c2").Container("c3").Obj()};
    w.AddPods(test_pods);
    w.Build();
    FakeScorePolicy policy;
    Evaluator ev("FakePreemptionScorePostFilter", *w.fw, policy);
    const auto nodes = w.snapshot.nodes();
    // Upstream dry-runs once per test pod, each time with that pod as the preemptor.
    for (const api::v1::Pod& p : test_pods) {
      CycleState state;
      auto candidates = ev.DryRunPreemption(state, *Info(p), nodes, {}, 0, static_cast<int32_t>(nodes.size()));
      const Candidate* s = ev.SelectCandidate(candidates.candidates);
      REQUIRE(s != nullptr);
      CHECK(s->node.str() == "node2");
    }
  }
}

// ===================================================================== TestPrepareCandidate

TEST_CASE("preemption TestPrepareCandidate", "[preemption][upstream]") {
  auto victim = [](std::string name, std::string uid, int32_t priority) {
    return MakePod().Name(std::move(name)).UID(std::move(uid)).Node("node1").SchedulerName("default-scheduler")
        .Priority(priority).Container("container1");
  };
  const api::v1::Pod victim1 = victim("victim1", "victim1", kMidPriority).Obj();
  const api::v1::Pod not_found_victim1 = victim("not-found-victim", "victim1", kMidPriority).Obj();
  const api::v1::Pod fail_victim = victim("fail-victim", "victim1", kMidPriority).Obj();
  const api::v1::Pod victim2 = victim("victim2", "victim2", 50000).Obj();
  const api::v1::Pod victim_with_deletion_timestamp =
      victim("victim1-with-deletion-timestamp", "victim1-with-deletion-timestamp", kMidPriority).Terminating().Obj();
  const api::v1::Pod preemptor =
      MakePod().Name("preemptor").UID("preemptor").Priority(kHighPriority).Container("container1").Obj();
  const absl::Status delete_failed = absl::InternalError("delete pod failed");
  const absl::Status patch_failed = absl::InternalError("patch pod status failed");

  struct Case {
    std::string name;
    std::string node;
    std::vector<api::v1::Pod> victims;
    std::map<std::string, absl::Status> client_errors;
    std::set<std::set<std::string>> expected_deleted;  // any of them
    std::string expected_error;                         // empty: OK
  };
  const std::vector<Case> cases = {
      {"no victims", "", {}, {}, {{}}, ""},
      {"one victim without condition", "node1", {victim1}, {}, {{"victim1"}}, ""},
      {"one victim, but victim is already being deleted", "node1", {victim_with_deletion_timestamp}, {}, {{}}, ""},
      {"one victim, but victim is already deleted",
       "node1",
       {not_found_victim1},
       {{"not-found-victim", absl::NotFoundError("pods \"not-found-victim\" not found")}},
       {{}},
       ""},
      // Upstream: the condition is already there, so only the delete call is made.
      {"one victim with same condition", "node1", {victim1}, {}, {{"victim1"}}, ""},
      {"one victim, not-found victim error is ignored when patching", "node1", {victim1}, {}, {{"victim1"}}, ""},
      {"one victim, but pod deletion failed",
       "node1",
       {fail_victim},
       {{"fail-victim", delete_failed}},
       {{}},
       "delete pod failed"},
      {"one victim, not-found victim error is ignored when deleting", "node1", {victim1}, {}, {{"victim1"}}, ""},
      {"one victim, but patch pod failed",
       "node1",
       {fail_victim},
       {{"fail-victim", patch_failed}},
       {{}},
       "patch pod status failed"},
      {"two victims without condition, one passes successfully and the second fails",
       "node1",
       {fail_victim, victim2},
       {{"fail-victim", patch_failed}},
       // The first victim could fail before the second is deleted.
       {{"victim2"}, {}},
       "patch pod status failed"},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestPrepareCandidate/" << tc.name) {
      World w;
      w.AddNode(MakeNode().Name("node1").Capacity(Cap(kVeryLargeRes)).Obj());
      w.client.evict_errors = tc.client_errors;
      w.Build();
      FakeScorePolicy policy;
      Evaluator ev("FakePreemptionScorePostFilter", *w.fw, policy);
      Candidate c{S(tc.node), {}};
      for (const api::v1::Pod& v : tc.victims) c.victims.pods.push_back(Info(v));
      PodInfoPtr pod = Info(preemptor);
      absl::Status s = ev.PrepareCandidate(c, *pod);
      CHECK(std::string(s.message()) == tc.expected_error);
      CHECK(tc.expected_deleted.count(w.client.EvictedSet()) == 1);
      CHECK_FALSE(ev.IsPodRunningPreemption("preemptor"));
    }
  }
}

// ===================================================================== TestRemoveNominatedNodeName

TEST_CASE("preemption TestRemoveNominatedNodeName", "[preemption][upstream]") {
  struct Case {
    std::string name;
    std::string current_nominated_node_name;
    bool expect_patch_request;
  };
  const std::vector<Case> cases = {
      {"Should make patch request to clear node name", "node1", true},
      {"Should not make patch request if nominated node is already cleared", "", false},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestRemoveNominatedNodeName/" << tc.name) {
      World w;
      w.AddNode(MakeNode().Name("node1").Capacity(Cap(kVeryLargeRes)).Obj());
      w.Build();
      // A lower-priority pod nominated to the node the preemptor takes.
      w.nominator.AddNominatedPod(Info(MakePod().Name("foo").NominatedNodeName(tc.current_nominated_node_name).Obj()),
                                  S("node1"));
      FakeScorePolicy policy;
      Evaluator ev("FakePreemptionScorePostFilter", *w.fw, policy);
      Candidate c{S("node1"), {{Info(MakePod().Name("victim").Node("node1").Obj())}, 0}};
      REQUIRE(ev.PrepareCandidate(c, *Info(MakePod().Name("p").Priority(kHighPriority).Obj())).ok());
      CHECK(w.client.cleared == (tc.expect_patch_request ? std::vector<std::string>{"foo"} : std::vector<std::string>{}));
    }
  }
}

// ===================================================================== TestPrepareCandidateAsyncSetsPreemptingSets

TEST_CASE("preemption TestPrepareCandidateAsyncSetsPreemptingSets", "[preemption][upstream]") {
  const api::v1::Pod victim1 = MakePod().Name("victim1").Node("node1").Priority(kMidPriority).Obj();
  const api::v1::Pod victim2 = MakePod().Name("victim2").Node("node1").Priority(kMidPriority).Obj();
  struct Case {
    std::string name;
    std::string node;
    std::vector<api::v1::Pod> victims;
  };
  const std::vector<Case> cases = {
      {"no victims", "", {}},
      {"one victim", "node1", {victim1}},
      {"two victims", "node1", {victim1, victim2}},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestPrepareCandidateAsyncSetsPreemptingSets/" << tc.name) {
      World w;
      w.AddNode(MakeNode().Name("node1").Capacity(Cap(kVeryLargeRes)).Obj());
      w.Build();
      FakeScorePolicy policy;
      Evaluator ev("FakePreemptionScorePostFilter", *w.fw, policy);
      Candidate c{S(tc.node), {}};
      for (const api::v1::Pod& v : tc.victims) c.victims.pods.push_back(Info(v));
      PodInfoPtr preemptor = Info(MakePod().Name("preemptor").Priority(kHighPriority).Obj());
      std::vector<std::string> order;
      w.client.on_evict = [&](const PodInfo& v) {
        // The preemptor is marked before any victim is preempted.
        CHECK(ev.IsPodRunningPreemption("preemptor"));
        order.push_back(std::string(v.name().str()));
      };
      CHECK_FALSE(ev.IsPodRunningPreemption("preemptor"));
      REQUIRE(ev.PrepareCandidate(c, *preemptor).ok());
      CHECK_FALSE(ev.IsPodRunningPreemption("preemptor"));
      // Every victim is preempted once, the last one last.
      CHECK(order == VictimNames(c));
    }
  }
}

TEST_CASE("preemption TestIsPodRunningPreemption", "[preemption][upstream]") {
  World w;
  w.Build();
  FakeScorePolicy policy;
  Evaluator ev("FakePreemptionScorePostFilter", *w.fw, policy);
  SECTION("TestIsPodRunningPreemption/preemptor not in preemptingSet") { CHECK_FALSE(ev.IsPodRunningPreemption("preemptor")); }
}

// ===================================================================== helpers

TEST_CASE("SplitByPdbViolation follows filterPodsWithPDBViolation", "[preemption]") {
  auto pod = [](std::string name, std::map<std::string, std::string> labels, std::string ns = "default") {
    testing::PodBuilder b = MakePod().Name(std::move(name)).Namespace(std::move(ns));
    for (const auto& [k, v] : labels) b.Label(k, v);
    return Info(b.Obj());
  };
  std::vector<PodInfoPtr> pods = {pod("a", {{"app", "foo"}}), pod("b", {{"app", "foo"}}), pod("c", {}),
                                  pod("d", {{"app", "foo"}}, "other"), pod("e", {{"app", "foo"}})};
  std::vector<std::shared_ptr<const api::v1::PodDisruptionBudget>> raw = {Pdb("budget", {{"app", "foo"}}, 1, {"e"})};
  // A PDB without a selector and one with an empty selector select nothing.
  auto nil_selector = std::make_shared<api::v1::PodDisruptionBudget>();
  nil_selector->mutable_metadata()->set_namespace_("default");
  raw.push_back(nil_selector);
  auto empty_selector = std::make_shared<api::v1::PodDisruptionBudget>(*nil_selector);
  empty_selector->mutable_spec()->mutable_selector();
  raw.push_back(empty_selector);
  const std::vector<PdbInfo> pdbs = CompilePdbs(raw);
  REQUIRE(pdbs.size() == 3);
  CHECK(pdbs[1].selects_nothing);
  CHECK(pdbs[2].selects_nothing);

  std::vector<PodInfoPtr> violating, non_violating;
  SplitByPdbViolation(pods, pdbs, violating, non_violating);
  auto names = [](const std::vector<PodInfoPtr>& ps) {
    std::vector<std::string> out;
    for (const auto& p : ps) out.push_back(std::string(p->name().str()));
    return out;
  };
  // a uses the one allowed disruption; b exceeds it; c has no labels; d is
  // in another namespace; e was already disrupted.
  CHECK(names(violating) == std::vector<std::string>{"b"});
  CHECK(names(non_violating) == std::vector<std::string>{"a", "c", "d", "e"});
}

TEST_CASE("The dry run's victim summary scores as the victims themselves do", "[preemption]") {
  // Upstream GetEarliestPodStartTime over the victims, walked as it walks them.
  auto earliest_reference = [](const Victims& v, absl::Time now) {
    auto start_or_now = [now](const PodInfoPtr& p) {
      return p->start_time() == absl::InfiniteFuture() ? now : p->start_time();
    };
    absl::Time earliest = start_or_now(v.pods[0]);
    int32_t max_priority = v.pods[0]->priority();
    for (const PodInfoPtr& p : v.pods) {
      if (p->priority() == max_priority) {
        earliest = std::min(earliest, start_or_now(p));
      } else if (p->priority() > max_priority) {
        max_priority = p->priority();
        earliest = start_or_now(p);
      }
    }
    return earliest;
  };
  std::mt19937 rng(7);
  // "Now" amid the start times, so that which pods count shows in the result.
  const absl::Time now = absl::FromUnixNanos(2);
  const auto funcs = DefaultScoreFuncs(now);
  int n = 0;
  for (int round = 0; round < 300; ++round) {
    Victims v;
    const int count = 1 + static_cast<int>(rng() % 5);
    for (int i = 0; i < count; ++i) {
      auto pod = MakePod();
      pod.Name(schedkit::StrCat("s", n++)).Priority(static_cast<int32_t>(rng() % 3) - 1);
      // A third unstarted, the rest at one of a few instants (ties included).
      if (rng() % 3 != 0) pod.StartTime(Epoch(static_cast<int>(rng() % 4)));
      v.pods.push_back(Info(pod.Obj()));
    }
    INFO("round " << round);
    CHECK(Summarize(v).EarliestStart(now) == earliest_reference(v, now));
    Candidate plain{S("a"), v, std::nullopt};
    Candidate summarized{S("a"), v, Summarize(v)};
    int64_t sum = 0;
    for (const PodInfoPtr& p : v.pods) sum += int64_t{p->priority()} + (int64_t{1} << 31);
    CHECK(funcs[1](plain) == -int64_t{v.pods[0]->priority()});
    CHECK(funcs[2](plain) == -sum);
    CHECK(funcs[4](plain) == absl::ToUnixNanos(earliest_reference(v, now)));
    for (size_t f = 0; f < funcs.size(); ++f) CHECK(funcs[f](summarized) == funcs[f](plain));
  }
}

TEST_CASE("PickOneCandidate: default criteria in order, ties to the first", "[preemption]") {
  auto victims = [](std::vector<std::pair<int32_t, int>> prio_start, int64_t violations) {
    Victims v;
    v.num_pdb_violations = violations;
    static int n = 0;
    for (const auto& [prio, start] : prio_start) {
      v.pods.push_back(Info(MakePod().Name(schedkit::StrCat("v", n++)).Priority(prio).StartTime(Epoch(start)).Obj()));
    }
    return v;
  };
  const auto funcs = DefaultScoreFuncs(absl::Now());
  SECTION("fewest PDB violations first") {
    std::vector<Candidate> cs = {{S("a"), victims({{1, 0}}, 1)}, {S("b"), victims({{500, 0}, {400, 0}}, 0)}};
    CHECK(PickOneCandidate(cs, funcs) == 1);
  }
  SECTION("negative priorities: more victims never sum lower") {
    std::vector<Candidate> cs = {{S("a"), victims({{-100, 0}, {-100, 0}}, 0)}, {S("b"), victims({{-100, 0}}, 0)}};
    CHECK(PickOneCandidate(cs, funcs) == 1);
  }
  SECTION("latest start among the highest-priority victims") {
    std::vector<Candidate> cs = {{S("a"), victims({{5, 9}, {1, 1}}, 0)}, {S("b"), victims({{5, 3}, {1, 9}}, 0)}};
    CHECK(PickOneCandidate(cs, funcs) == 0);
  }
  SECTION("complete ties go to the first candidate") {
    std::vector<Candidate> cs = {{S("a"), victims({{5, 1}}, 0)}, {S("b"), victims({{5, 1}}, 0)}};
    CHECK(PickOneCandidate(cs, funcs) == 0);
  }
  CHECK(PickOneCandidate({}, funcs) == -1);
}

TEST_CASE("AggregateErrors follows utilerrors.NewAggregate", "[preemption]") {
  CHECK(AggregateErrors({}).empty());
  CHECK(AggregateErrors({"a"}) == "a");
  CHECK(AggregateErrors({"a", "a"}) == "a");
  CHECK(AggregateErrors({"a", "b", "a"}) == "[a, b]");
}

TEST_CASE("A victim waiting on Permit is rejected, not evicted", "[preemption]") {
  World w;
  w.profile.plugins.permit.enabled = {{"WaitPermit"}};
  w.AddNode(MakeNode().Name("node1").Capacity(Cap(kVeryLargeRes)).Obj());
  w.Build();
  PodInfoPtr waiting = Info(MakePod().Name("waiting").Priority(kLowPriority).Obj());
  CycleState permit_state;
  REQUIRE(w.fw->RunPermitPlugins(permit_state, waiting, S("node1")).IsWait());
  REQUIRE(w.fw->HasWaitingPod(waiting->uid()));

  FakeScorePolicy policy;
  Evaluator ev("DefaultPreemption", *w.fw, policy);
  Candidate c{S("node1"), {{waiting, Info(MakePod().Name("running").Node("node1").Obj())}, 0}};
  REQUIRE(ev.PrepareCandidate(c, *Info(MakePod().Name("p").Priority(kHighPriority).Obj())).ok());
  CHECK(w.client.evict_calls == std::vector<std::string>{"running"});
  Status s = w.fw->WaitOnPermit(*waiting);
  CHECK(s.code() == Code::kUnschedulable);
  CHECK(s.Message() == "preempted");
  CHECK(s.plugin() == S("DefaultPreemption"));
  // Both victims are reported, as upstream records the event after either path.
  CHECK(w.events.events.size() == 2);
}

// The default policy with every node left to a dry run: what the evaluator
// did before policies could settle nodes without one.
class EveryNodeDryRun : public Interface {
 public:
  explicit EveryNodeDryRun(DefaultPreemption& policy) : policy_(policy) {}
  std::pair<int32_t, int32_t> GetOffsetAndNumCandidates(int32_t n) override {
    return policy_.GetOffsetAndNumCandidates(n);
  }
  std::pair<bool, std::string> PodEligibleToPreemptOthers(const PodInfo& pod, const Status& s) const override {
    return policy_.PodEligibleToPreemptOthers(pod, s);
  }
  Status SelectVictimsOnNode(const CycleState& state, const PodInfo& pod, const NodeInfo& node,
                             std::span<const PdbInfo> pdbs, Victims& victims) const override {
    return policy_.SelectVictimsOnNode(state, pod, node, pdbs, victims);
  }

 private:
  DefaultPreemption& policy_;
};

TEST_CASE("Dry runs give the same result at any parallelism", "[preemption]") {
  // 60 nodes; nodes whose index is divisible by 3 only have PDB-protected
  // victims, by 5 have no lower-priority pods, by 7 cannot fit the pod at
  // all. Few candidates wanted, so the stopping point matters. The nodes
  // without lower-priority pods are settled without a dry run unless
  // `every_node` asks for one on each, which must not change the result.
  auto run = [](int parallelism, bool every_node = false) {
    World w;
    w.Enable({"NodeResourcesFit"}, {"NodeResourcesFit"});
    w.client.pdbs = {Pdb("budget", {{"app", "protected"}}, 0)};
    for (int i = 0; i < 60; ++i) {
      const std::string node = schedkit::StrCat("n", i);
      w.AddNode(MakeNode().Name(node).Capacity(Cap({{"cpu", i % 7 == 0 ? "100m" : "1"}})).Obj());
      testing::PodBuilder b = MakePod()
                                  .Name(schedkit::StrCat(node, "-v"))
                                  .Node(node)
                                  .Priority(i % 5 == 0 ? kVeryHighPriority : kLowPriority)
                                  .Req({{"cpu", "800m"}});
      if (i % 3 == 0) b.Label("app", "protected");
      w.AddPod(b.Obj());
    }
    w.Build(parallelism);
    auto pl = NewPlugin(w, R"({"minCandidateNodesPercentage":0,"minCandidateNodesAbsolute":4})");
    pl->set_offset_source([](int32_t) { return 17; });
    PodInfoPtr pod = Info(MakePod().Name("p").Priority(kHighPriority).Req({{"cpu", "500m"}}).Obj());
    CycleState state;
    w.PreFilter(state, *pod);
    std::map<std::string, Code> all;
    for (int i = 0; i < 60; ++i) all[schedkit::StrCat("n", i)] = Code::kUnschedulable;
    const NodeToStatus statuses = Statuses(all);
    const auto potential = statuses.NodesForStatusCode(w.snapshot, Code::kUnschedulable);
    auto [offset, num] = pl->GetOffsetAndNumCandidates(static_cast<int32_t>(potential.size()));
    EveryNodeDryRun every(*pl);
    Evaluator every_evaluator("DefaultPreemption", *w.fw, every);
    const Evaluator& ev = every_node ? every_evaluator : pl->evaluator();
    auto dry = ev.DryRunPreemption(state, *pod, potential, CompilePdbs(w.client.pdbs), offset, num);
    std::vector<std::string> out;
    for (const Candidate& c : dry.candidates) out.push_back(schedkit::StrCat(c.node.str(), "/", c.victims.num_pdb_violations));
    std::vector<std::string> failed;
    dry.statuses.ForEachExplicitNode([&](Symbol n, const Status& s) { failed.push_back(schedkit::StrCat(n.str(), ":", s.Message())); });
    std::sort(failed.begin(), failed.end());
    out.insert(out.end(), failed.begin(), failed.end());
    return out;
  };
  const std::vector<std::string> sequential = run(1);
  CHECK(sequential.size() > 4);
  CHECK(run(2) == sequential);
  CHECK(run(4) == sequential);
  CHECK(run(16) == sequential);
  CHECK(run(1, /*every_node=*/true) == sequential);
  CHECK(run(4, /*every_node=*/true) == sequential);
}

TEST_CASE("Preempt: dry-run errors only are returned aggregated", "[preemption]") {
  World w;
  w.Enable({"NodeResourcesFit", "test-plugin"}, {"NodeResourcesFit"});
  w.AddNode(MakeNode().Name("node1").Capacity(Cap(kLargeRes)).Label("error", "true").Obj());
  w.AddNode(MakeNode().Name("node2").Capacity(Cap(kLargeRes)).Label("error", "true").Obj());
  w.AddPods({MakePod().Name("p1").Node("node1").Obj(), MakePod().Name("p2").Node("node2").Obj()});
  w.Build();
  auto pl = NewPlugin(w);
  PodInfoPtr pod = Info(MakePod().Name("p").Priority(kHighPriority).Req(kLargeRes).Obj());
  CycleState state;
  w.PreFilter(state, *pod);
  auto res = pl->PostFilter(state, *pod, Statuses({{"node1", Code::kUnschedulable}, {"node2", Code::kUnschedulable}}));
  CHECK(res.status.code() == Code::kError);
  // The same message twice: deduplicated, without brackets.
  CHECK(res.status.Message() == "preemption: running RemovePod on PreFilter plugin \"test-plugin\": failed to remove pod: p");
}

}  // namespace
}  // namespace schedkit::plugins::preemption
