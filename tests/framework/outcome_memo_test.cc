// The outcome memo: per-node plugins' verdicts and scores reused across pods
// of one signature on unchanged nodes, and forgotten whenever what they
// depend on may have moved. Counting plugins show which calls were made;
// every cycle's outcome is compared with a framework that keeps no memo.
#include <atomic>
#include <catch2/catch.hpp>

#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "schedkit/base/str_cat.h"
#include "schedkit/framework/framework.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/minimal_plugins.h"
#include "framework/cycle_bookkeeping.h"

namespace schedkit::framework {
namespace {

using testing::MakeNode;
using testing::MakePod;

Symbol S(std::string_view s) { return Symbol::Intern(s); }

// How a Counting plugin scores and normalizes.
struct Scoring {
  // The node's requested cpu plus the pod's, in tenths of a core; kInverse
  // is 100 minus that; kUncapped lets it pass 100 (an invalid score).
  enum Shape { kRequested, kInverse, kUncapped } shape = kRequested;
  std::optional<MaximumNormalization> by_maximum;  // NormalizeScore by the column's maximum
  bool halves = false;                             // NormalizeScore of its own: halves every score
  // OutcomesArePerNodeFor: true for pods requesting this much cpu.
  int64_t per_node_for_milli_cpu = -1;
};

Scoring Shaped(Scoring::Shape shape, std::optional<MaximumNormalization> by_maximum = std::nullopt) {
  Scoring s;
  s.shape = shape;
  s.by_maximum = by_maximum;
  return s;
}
Scoring Halving() {
  Scoring s;
  s.halves = true;
  return s;
}

// Filters and scores by what the node holds: rejects nodes named in
// `*reject` (which a test may change between cycles), fails with an error
// on node N where it holds "error:N", and scores each node by the cpu its
// pods request (so a pod landing on a node moves its score). Counts its calls by node.
class Counting : public PreFilterPlugin, public FilterPlugin, public ScorePlugin, public ScoreExtensions {
 public:
  struct Calls {
    std::mutex mu;
    std::map<std::string, int> filter, score;
    int normalize = 0;
    int total_filter() const { return Sum(filter); }
    int total_score() const { return Sum(score); }
    static int Sum(const std::map<std::string, int>& m) {
      int n = 0;
      for (const auto& [node, k] : m) n += k;
      return n;
    }
  };

  Counting(std::string name, bool per_node, const std::set<std::string>* reject, const bool* skip, Calls* calls,
           Scoring scoring = {})
      : name_(std::move(name)), per_node_(per_node), reject_(reject), skip_(skip), calls_(calls), scoring_(scoring) {}

  std::string_view Name() const override { return name_; }
  bool OutcomesArePerNode() const override { return per_node_; }
  bool OutcomesArePerNodeFor(const PodInfo& pod) const override {
    return pod.requests().milli_cpu == scoring_.per_node_for_milli_cpu;
  }

  PreFilterPlugin::Result PreFilter(CycleState&, const PodInfo&, std::span<const NodeInfo* const>) override {
    return {PreFilterResult{}, skip_ != nullptr && *skip_ ? Status::Skip() : Status()};
  }
  Status Filter(const CycleState&, const PodInfo&, const NodeInfo& node) const override {
    const std::string n(node.name().str());
    {
      std::lock_guard<std::mutex> lock(calls_->mu);
      ++calls_->filter[n];
    }
    if (reject_->contains(n)) return Status(Code::kUnschedulable, S(schedkit::StrCat(name_, " says no")));
    if (reject_->contains("error:" + n)) return Status::Error(schedkit::StrCat(name_, " broke on ", n));
    return Status();
  }
  Status Score(const CycleState&, const PodInfo& pod, const NodeInfo& node, int64_t& score) const override {
    {
      std::lock_guard<std::mutex> lock(calls_->mu);
      ++calls_->score[std::string(node.name().str())];
    }
    // Requests in tenths of a core, capped to the score range; the pod's own
    // request shifts every node alike, so pods of another size score apart.
    const int64_t tenths = (node.requested().milli_cpu + pod.requests().milli_cpu) / 100;
    switch (scoring_.shape) {
      case Scoring::kRequested: score = std::min<int64_t>(kMaxNodeScore, tenths); break;
      case Scoring::kInverse: score = kMaxNodeScore - std::min<int64_t>(kMaxNodeScore, tenths); break;
      case Scoring::kUncapped: score = tenths; break;
    }
    return Status();
  }
  const ScoreExtensions* GetScoreExtensions() const override {
    return scoring_.by_maximum || scoring_.halves ? this : nullptr;
  }
  Status NormalizeScore(const CycleState&, const PodInfo&, std::span<const NodeInfo* const>,
                        std::span<int64_t> scores) const override {
    {
      std::lock_guard<std::mutex> lock(calls_->mu);
      ++calls_->normalize;
    }
    if (scoring_.by_maximum) {
      scoring_.by_maximum->Apply(scores);
    } else {
      for (int64_t& s : scores) s /= 2;
    }
    return Status();
  }
  std::optional<MaximumNormalization> NormalizesByMaximum() const override { return scoring_.by_maximum; }

 private:
  std::string name_;
  bool per_node_;
  const std::set<std::string>* reject_;
  const bool* skip_;
  Calls* calls_;
  Scoring scoring_;
};

// Nodes n0..n{k-1} with the given plugins; `with_memo` and `without` are
// the same profile, one keeping a memo and one not.
struct World {
  Registry registry;
  Profile profile;
  ClusterState state;
  Snapshot snapshot;
  FakeClock clock;
  std::map<std::string, Counting::Calls> calls;  // by plugin; the memo-less twin's calls are not counted
  std::map<std::string, std::set<std::string>> rejects;  // by plugin: the nodes it rejects
  Counting::Calls ignored;
  bool counting = true;
  std::unique_ptr<Framework> with_memo, without;
  int32_t percentage = 100;  // percentageOfNodesToScore
  // With keep_selection, cycles go on from the last one's start index.
  bool keep_selection = false;
  SelectionState kept_memo, kept_plain;
  // The memo gives a signature an entry when its second pod comes
  // (OutcomeMemo::For). The tests here are about what an entry keeps, so
  // Cycle first shows the memo framework each new signature once, without
  // counting its calls; off, the tests see the admission itself.
  bool pre_sight = true;
  std::set<uint64_t> sighted;

  explicit World(int nodes) {
    REQUIRE(testing::AddMinimalPlugins(registry, profile).ok());
    for (int i = 0; i < nodes; ++i) REQUIRE(state.AddNode(Node(i, {})).ok());
    state.UpdateSnapshot(snapshot);
  }

  static std::shared_ptr<const api::v1::Node> Node(int i, const testing::LabelMap& labels) {
    return MakeNode().Name(schedkit::StrCat("n", i)).Capacity({{"cpu", "8"}, {"pods", "20"}}).Labels(labels).Ptr();
  }

  void AddPlugin(const std::string& name, bool per_node, std::set<std::string> reject = {},
                 const bool* skip = nullptr, Scoring scoring = {}) {
    rejects[name] = std::move(reject);
    REQUIRE(registry.Add(name, [this, name, per_node, skip, scoring](const PluginArgs&, Handle&)
                                   -> absl::StatusOr<std::unique_ptr<Plugin>> {
      // The first instance built is the memo's; its twin counts elsewhere.
      Counting::Calls* c = counting ? &calls[name] : &ignored;
      return std::make_unique<Counting>(name, per_node, &rejects[name], skip, c, scoring);
    }).ok());
    profile.plugins.multi_point.enabled.push_back({name, 1});
  }

  void Build() {
    auto make = [&](bool memoize) {
      FrameworkOptions o;
      o.parallelism = 2;
      o.clock = &clock;
      o.percentage_of_nodes_to_score = percentage;
      o.memoize_per_node_outcomes = memoize;
      auto f = Framework::Create(registry, profile, std::move(o));
      INFO(f.status().ToString());
      REQUIRE(f.ok());
      return *std::move(f);
    };
    with_memo = make(true);
    counting = false;
    without = make(false);
  }

  void Reset() {
    for (auto& [name, c] : calls) {
      c.filter.clear();
      c.score.clear();
      c.normalize = 0;
    }
  }

  // One cycle of `pod` in both frameworks; they must agree on everything
  // the cycle decided. Returns the memo framework's outcome.
  ScheduleOutcome Cycle(const PodInfoPtr& pod, std::optional<NominatedPodsSnapshot::ByNode> nominated = {}) {
    auto run = [&](Framework& f, SelectionState& kept) {
      CycleState state;
      if (nominated) framework::CycleBookkeeping::SetNominatedPods(state, std::make_shared<const NominatedPodsSnapshot>(*nominated));
      SelectionState fresh;
      SelectionState& sel = keep_selection ? kept : fresh;
      sel.tie_break = TieBreak::kLowestName;
      return f.SchedulePod(state, pod, snapshot, sel);
    };
    if (pre_sight && sighted.insert(pod->signature()->hash).second) {
      std::map<std::string, std::pair<std::map<std::string, int>, std::map<std::string, int>>> counted;
      for (auto& [name, c] : calls) counted[name] = {c.filter, c.score};
      SelectionState throwaway = kept_memo;
      (void)run(*with_memo, throwaway);
      for (auto& [name, c] : calls) std::tie(c.filter, c.score) = counted[name];
    }
    ScheduleOutcome a = run(*with_memo, kept_memo);
    ScheduleOutcome b = run(*without, kept_plain);
    CHECK(kept_memo.next_start_node_index == kept_plain.next_start_node_index);
    CHECK(a.status.code() == b.status.code());
    CHECK(a.status.Message() == b.status.Message());
    CHECK(a.result.suggested_host == b.result.suggested_host);
    CHECK(a.result.evaluated_nodes == b.result.evaluated_nodes);
    CHECK(a.result.feasible_nodes == b.result.feasible_nodes);
    CHECK((a.fit_error == nullptr) == (b.fit_error == nullptr));
    if (a.fit_error && b.fit_error) CHECK(a.fit_error->Message() == b.fit_error->Message());
    return a;
  }

  void Place(const std::string& pod_name, const std::string& node, const char* cpu = "1") {
    REQUIRE(state.AddPod(MakePod().Name(pod_name).UID(pod_name).Node(node).Req({{"cpu", cpu}}).Info()).ok());
    state.UpdateSnapshot(snapshot);
  }
};

PodInfoPtr Replica(const std::string& name, const char* cpu = "1") {
  return MakePod().Name(name).UID(name).Label("app", "web").Req({{"cpu", cpu}}).Info();
}

TEST_CASE("Outcome memo: a replica reuses per-node verdicts and scores of unchanged nodes", "[framework][memo]") {
  World w(8);
  w.AddPlugin("PerNode", true);
  w.Build();

  ScheduleOutcome first = w.Cycle(Replica("a"));
  REQUIRE(first.status.IsSuccess());
  CHECK(w.calls["PerNode"].total_filter() == 8);
  CHECK(w.calls["PerNode"].total_score() == 8);

  // Another replica (other name and UID, same namespace and spec): nothing to call.
  w.Reset();
  CHECK(w.Cycle(Replica("b")).result.suggested_host == first.result.suggested_host);
  CHECK(w.calls["PerNode"].total_filter() == 0);
  CHECK(w.calls["PerNode"].total_score() == 0);

  // A pod lands on n5: that node alone is asked again, and its new score counts.
  w.Reset();
  w.Place("x", "n5", "4");
  CHECK(w.Cycle(Replica("c")).result.suggested_host == S("n5"));
  CHECK(w.calls["PerNode"].filter == std::map<std::string, int>{{"n5", 1}});
  CHECK(w.calls["PerNode"].score == std::map<std::string, int>{{"n5", 1}});

  // A pod of another spec has outcomes of its own.
  w.Reset();
  (void)w.Cycle(Replica("big", "2"));
  CHECK(w.calls["PerNode"].total_filter() == 8);
  CHECK(w.calls["PerNode"].total_score() == 8);
  // ... and the first spec's are still kept beside them.
  w.Reset();
  (void)w.Cycle(Replica("d"));
  CHECK(w.calls["PerNode"].total_filter() == 0);
}

TEST_CASE("Outcome memo: a signature gets an entry when its second pod comes; pods all different get none",
          "[framework][memo]") {
  World w(8);
  w.pre_sight = false;
  w.AddPlugin("PerNode", true);
  w.Build();
  // Replicas: the first runs without the memo, the second fills an entry,
  // the third reads it.
  for (const auto& [name, calls] : std::vector<std::pair<std::string, int>>{{"a", 8}, {"b", 8}, {"c", 0}}) {
    w.Reset();
    (void)w.Cycle(Replica(name));
    CHECK(w.calls["PerNode"].total_filter() == calls);
    CHECK(w.calls["PerNode"].total_score() == calls);
  }
  // Pods each of its own size never earn one, and leave the replicas' kept.
  for (int i = 0; i < 20; ++i) {
    w.Reset();
    const std::string cpu = schedkit::StrCat(100 + i, "m");
    (void)w.Cycle(Replica(schedkit::StrCat("own-", i), cpu.c_str()));
    CHECK(w.calls["PerNode"].total_filter() == 8);
  }
  w.Reset();
  (void)w.Cycle(Replica("d"));
  CHECK(w.calls["PerNode"].total_filter() == 0);
}

TEST_CASE("Outcome memo: other plugins run on every node; rejected nodes are asked again", "[framework][memo]") {
  World w(6);
  w.AddPlugin("PerNode", true, {"n1"});
  w.AddPlugin("Elsewhere", false, {"n4"});
  w.Build();

  ScheduleOutcome first = w.Cycle(Replica("a"));
  REQUIRE(first.status.IsSuccess());
  CHECK(first.result.feasible_nodes == 4);
  CHECK(w.calls["PerNode"].total_filter() == 6);
  CHECK(w.calls["Elsewhere"].total_filter() == 5);  // n1 went at PerNode
  CHECK(w.calls["Elsewhere"].total_score() == 4);

  w.Reset();
  ScheduleOutcome second = w.Cycle(Replica("b"));
  CHECK(second.result.feasible_nodes == 4);
  // Only the node it rejected is filtered again by the per-node plugin, so
  // its status is fresh; n4, which passed it and then failed the other
  // plugin, counts as a pass. The other plugin still sees every node.
  CHECK(w.calls["PerNode"].filter == std::map<std::string, int>{{"n1", 1}});
  CHECK(w.calls["PerNode"].total_score() == 0);
  CHECK(w.calls["Elsewhere"].total_filter() == 5);
  CHECK(w.calls["Elsewhere"].total_score() == 4);
  // Every node unschedulable: the FitError counts both plugins' reasons, as without a memo.
  World none(2);
  none.AddPlugin("PerNode", true, {"n0"});
  none.AddPlugin("Elsewhere", false, {"n1"});
  none.Build();
  for (const char* name : {"a", "b"}) {
    ScheduleOutcome out = none.Cycle(Replica(name));
    REQUIRE(out.fit_error != nullptr);
    CHECK(out.fit_error->Message() == "0/2 nodes are available: 1 Elsewhere says no, 1 PerNode says no.");
  }
}

TEST_CASE("Outcome memo: a node rejected before a per-node plugin ran is not a pass", "[framework][memo]") {
  // Elsewhere, which is not per node, comes first in the chain and may
  // change its mind on an unchanged node; PerNode would reject n2 once asked.
  World w(4);
  w.AddPlugin("Elsewhere", false, {"n2"});
  w.AddPlugin("PerNode", true, {"n2"});
  w.Build();
  ScheduleOutcome first = w.Cycle(Replica("a"));
  REQUIRE(first.fit_error == nullptr);
  CHECK(first.result.feasible_nodes == 3);
  w.rejects["Elsewhere"].clear();
  w.Reset();
  CHECK(w.Cycle(Replica("b")).result.feasible_nodes == 3);
  CHECK(w.calls["PerNode"].filter == std::map<std::string, int>{{"n2", 1}});
}

TEST_CASE("Outcome memo: a new node object or node set forgets everything", "[framework][memo]") {
  World w(5);
  w.AddPlugin("PerNode", true);
  w.Build();
  (void)w.Cycle(Replica("a"));

  // A relabelled node: node objects may feed every node's outcome (image
  // counts), so all are asked again.
  w.Reset();
  REQUIRE(w.state.UpdateNode(World::Node(2, {{"disk", "ssd"}})).ok());
  w.state.UpdateSnapshot(w.snapshot);
  (void)w.Cycle(Replica("b"));
  CHECK(w.calls["PerNode"].total_filter() == 5);

  // A node added: a new layout.
  w.Reset();
  REQUIRE(w.state.AddNode(World::Node(5, {})).ok());
  w.state.UpdateSnapshot(w.snapshot);
  (void)w.Cycle(Replica("c"));
  CHECK(w.calls["PerNode"].total_filter() == 6);

  // A node removed: again.
  w.Reset();
  REQUIRE(w.state.RemoveNode("n0").ok());
  w.state.UpdateSnapshot(w.snapshot);
  (void)w.Cycle(Replica("d"));
  CHECK(w.calls["PerNode"].total_filter() == 5);
  w.Reset();
  (void)w.Cycle(Replica("e"));
  CHECK(w.calls["PerNode"].total_filter() == 0);
}

TEST_CASE("Outcome memo: passes found with other per-node plugins active are not reused", "[framework][memo]") {
  World w(4);
  bool skip_second = false;
  w.AddPlugin("First", true);
  w.AddPlugin("Second", true, {"n2"}, &skip_second);
  w.Build();
  CHECK(w.Cycle(Replica("a")).result.feasible_nodes == 3);

  // With Second skipped, n2 passes; the passes kept for {First, Second}
  // no longer describe the chain, so First is asked again everywhere.
  w.Reset();
  skip_second = true;
  CHECK(w.Cycle(Replica("b")).result.feasible_nodes == 4);
  CHECK(w.calls["First"].total_filter() == 4);
  CHECK(w.calls["Second"].total_filter() == 0);

  w.Reset();
  skip_second = false;
  CHECK(w.Cycle(Replica("c")).result.feasible_nodes == 3);
  CHECK(w.calls["First"].total_filter() == 4);
  CHECK(w.calls["Second"].filter == std::map<std::string, int>{{"n0", 1}, {"n1", 1}, {"n2", 1}, {"n3", 1}});
}

TEST_CASE("Outcome memo: nodes with nominated pods are filtered with them", "[framework][memo]") {
  World w(4);
  w.AddPlugin("PerNode", true);
  w.Build();
  (void)w.Cycle(Replica("a"));

  // A higher-priority pod nominated to n1 joins n1 for the first pass, so
  // n1's verdict is the plugin's, twice (with and without the pod).
  w.Reset();
  NominatedPodsSnapshot::ByNode by_node;
  by_node[S("n1")] = std::make_shared<const std::vector<PodInfoPtr>>(
      1, MakePod().Name("high").UID("high").Priority(100).Req({{"cpu", "2"}}).Info());
  (void)w.Cycle(Replica("b"), by_node);
  CHECK(w.calls["PerNode"].filter == std::map<std::string, int>{{"n1", 2}});
  // ... and what it found is not kept; without the nomination, n1's pass
  // from before (the node has not changed) answers again.
  w.Reset();
  (void)w.Cycle(Replica("c"));
  CHECK(w.calls["PerNode"].total_filter() == 0);
}

NominatedPodsSnapshot::PodList Nominated(const std::string& name, int32_t priority = 100) {
  return std::make_shared<const std::vector<PodInfoPtr>>(
      1, MakePod().Name(name).UID(name).Priority(priority).Req({{"cpu", "2"}}).Info());
}

TEST_CASE("Outcome memo: a node keeps its nominated-pods verdict while node and nominations stay",
          "[framework][memo]") {
  World w(4);
  w.AddPlugin("PerNode", true, {"n1"});
  w.Build();
  NominatedPodsSnapshot::ByNode by_node;
  by_node[S("n1")] = Nominated("high");
  by_node[S("n2")] = Nominated("other");
  ScheduleOutcome first = w.Cycle(Replica("a"), by_node);
  CHECK(first.result.feasible_nodes == 3);
  CHECK(w.calls["PerNode"].filter == std::map<std::string, int>{{"n0", 1}, {"n1", 1}, {"n2", 2}, {"n3", 1}});

  // The same lists: n1's rejection and n2's pass are read, not filtered
  // (the twin without a memo checks that the outcome is the same).
  w.Reset();
  CHECK(w.Cycle(Replica("b"), by_node).result.feasible_nodes == 3);
  CHECK(w.calls["PerNode"].total_filter() == 0);

  // The same pods in a new list for n2, and a pod landing on n1: both
  // nodes are asked again; a verdict is not taken across nominations.
  w.Reset();
  by_node[S("n2")] = std::make_shared<const std::vector<PodInfoPtr>>(*by_node[S("n2")]);
  w.Place("x", "n1");
  CHECK(w.Cycle(Replica("c"), by_node).result.feasible_nodes == 3);
  CHECK(w.calls["PerNode"].filter == std::map<std::string, int>{{"n1", 1}, {"n2", 2}});

  // A pod of a higher priority than the nominated one's skips them: n2 is
  // filtered plainly, once; the pod has another signature, and the verdicts
  // for the replicas' are still kept.
  w.Reset();
  PodInfoPtr urgent =
      MakePod().Name("urgent").UID("urgent").Label("app", "web").Priority(200).Req({{"cpu", "1"}}).Info();
  CHECK(w.Cycle(urgent, by_node).result.feasible_nodes == 3);
  w.Reset();
  CHECK(w.Cycle(Replica("d"), by_node).result.feasible_nodes == 3);
  CHECK(w.calls["PerNode"].total_filter() == 0);
}

TEST_CASE("Outcome memo: the nominated-pods verdict is not kept for a pod's own node or beside other plugins",
          "[framework][memo]") {
  // A pod nominated to n1 leaves itself out of n1's pass, which another
  // pod of its signature would not: its cycles filter n1 anew each time.
  World own(3);
  own.AddPlugin("PerNode", true);
  own.Build();
  PodInfoPtr self = Replica("self");
  NominatedPodsSnapshot::ByNode by_node;
  by_node[S("n1")] = std::make_shared<const std::vector<PodInfoPtr>>(
      std::vector<PodInfoPtr>{self, Nominated("beside")->front()});
  by_node[S("n2")] = Nominated("high");
  for (int i = 0; i < 2; ++i) {
    own.Reset();
    (void)own.Cycle(self, by_node);
    CHECK(own.calls["PerNode"].filter["n1"] == 2);
    CHECK(own.calls["PerNode"].filter["n2"] == (i == 0 ? 2 : 0));
  }

  // An error is not kept: once the plugin recovers, the node passes.
  World broken(3);
  broken.AddPlugin("PerNode", true, {"error:n2"});
  broken.Build();
  by_node.erase(S("n1"));
  CHECK(broken.Cycle(Replica("e1"), by_node).status.IsError());
  broken.rejects["PerNode"].clear();
  CHECK(broken.Cycle(Replica("e2"), by_node).result.feasible_nodes == 3);

  // Verdicts found with another set of active plugins are not reused.
  World toggled(3);
  bool skip = false;
  toggled.AddPlugin("First", true);
  toggled.AddPlugin("Second", true, {"n2"}, &skip);
  toggled.Build();
  CHECK(toggled.Cycle(Replica("t1"), by_node).result.feasible_nodes == 2);
  skip = true;
  CHECK(toggled.Cycle(Replica("t2"), by_node).result.feasible_nodes == 3);

  // A plugin that is not per node in the chain: no verdict is kept.
  World mixed(3);
  mixed.AddPlugin("PerNode", true);
  mixed.AddPlugin("Elsewhere", false);
  mixed.Build();
  for (int i = 0; i < 2; ++i) {
    mixed.Reset();
    (void)mixed.Cycle(Replica(schedkit::StrCat("r", i)), by_node);
    CHECK(mixed.calls["PerNode"].filter["n2"] == 2);
    CHECK(mixed.calls["Elsewhere"].filter["n2"] == 2);
  }
}

// A per-node filter whose PreFilter state follows simulated pods.
class Extended : public PreFilterPlugin, public FilterPlugin, public PreFilterExtensions {
 public:
  std::string_view Name() const override { return "Extended"; }
  bool OutcomesArePerNode() const override { return true; }
  PreFilterPlugin::Result PreFilter(CycleState&, const PodInfo&, std::span<const NodeInfo* const>) override {
    return {PreFilterResult{}, skip ? Status::Skip() : Status()};
  }
  const PreFilterExtensions* GetPreFilterExtensions() const override { return this; }
  Status AddPod(CycleState&, const PodInfo&, const PodInfo&, const NodeInfo&) const override { return Status(); }
  Status RemovePod(CycleState&, const PodInfo&, const PodInfo&, const NodeInfo&) const override { return Status(); }
  Status Filter(const CycleState&, const PodInfo&, const NodeInfo&) const override { return Status(); }
  bool skip = false;
};

TEST_CASE("PerNodeFilterChain: a key only for chains of per-node filters without active extensions",
          "[framework][memo]") {
  bool skip_second = false;
  bool skip_elsewhere = false;
  World w(2);
  w.AddPlugin("First", true);
  w.AddPlugin("Second", true, {}, &skip_second);
  w.AddPlugin("Elsewhere", false, {}, &skip_elsewhere);
  bool* skip_extended = nullptr;
  REQUIRE(w.registry.Add("Extended", [&](const PluginArgs&, Handle&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
    auto p = std::make_unique<Extended>();
    p->skip = true;
    if (skip_extended == nullptr) skip_extended = &p->skip;  // the memo framework's instance
    return p;
  }).ok());
  w.profile.plugins.multi_point.enabled.push_back({"Extended", 1});
  w.Build();
  auto key = [&](Framework& f) {
    CycleState state;
    SelectionState sel;
    (void)f.SchedulePod(state, Replica("p"), w.snapshot, sel);
    return f.PerNodeFilterChain(state);
  };
  // A plugin that is not per node is active: no key.
  CHECK_FALSE(key(*w.with_memo).has_value());
  skip_elsewhere = true;
  const std::optional<uint64_t> both = key(*w.with_memo);
  REQUIRE(both.has_value());
  // Another set of active per-node plugins: another key.
  skip_second = true;
  const std::optional<uint64_t> first_only = key(*w.with_memo);
  REQUIRE(first_only.has_value());
  CHECK(*first_only != *both);
  // A per-node plugin with active PreFilter extensions: no key.
  *skip_extended = false;
  CHECK_FALSE(key(*w.with_memo).has_value());
  // A framework without the memo gives none.
  *skip_extended = true;
  CHECK(key(*w.with_memo).has_value());
  CHECK_FALSE(key(*w.without).has_value());
}

TEST_CASE("Outcome memo: a plugin that is not per node is asked on every node, every cycle", "[framework][memo]") {
  World w(3);
  w.AddPlugin("Plain", false);
  w.Build();
  (void)w.Cycle(Replica("a"));
  w.Reset();
  (void)w.Cycle(Replica("b"));
  CHECK(w.calls["Plain"].total_filter() == 3);
  CHECK(w.calls["Plain"].total_score() == 3);
}

TEST_CASE("Outcome memo: a plugin per node for some pods is scored once for those pods' signatures",
          "[framework][memo]") {
  World w(3);
  Scoring one_cpu;
  one_cpu.per_node_for_milli_cpu = 1000;
  w.AddPlugin("PerNode", true);
  w.AddPlugin("SomePods", false, {}, nullptr, one_cpu);
  w.Build();
  ScheduleOutcome first = w.Cycle(Replica("a"));
  REQUIRE(first.status.IsSuccess());
  CHECK(w.calls["SomePods"].total_score() == 3);
  // A replica: the kept scores answer; Filter, promised for no pod, runs.
  w.Reset();
  CHECK(w.Cycle(Replica("b")).result.suggested_host == first.result.suggested_host);
  CHECK(w.calls["SomePods"].total_score() == 0);
  CHECK(w.calls["SomePods"].total_filter() == 3);
  // Pods it makes no promise for are scored on every node, every cycle.
  w.Reset();
  (void)w.Cycle(Replica("big-a", "2"));
  w.Reset();
  (void)w.Cycle(Replica("big-b", "2"));
  CHECK(w.calls["SomePods"].total_score() == 3);
}

TEST_CASE("Outcome memo: kept totals follow the normalizing plugins' column maxima", "[framework][memo]") {
  // Scaled's raw score is the node's requested cpu (tenths of a core),
  // normalized by the column's maximum; Inverse adds 100 minus that raw.
  World w(3);
  w.AddPlugin("Scaled", true, {}, nullptr, Shaped(Scoring::kRequested, MaximumNormalization{}));
  w.AddPlugin("Inverse", true, {}, nullptr, Shaped(Scoring::kInverse));
  w.Build();

  // Empty nodes, a pod requesting nothing: every raw score 0, totals 0 + 100, the lowest name wins.
  CHECK(w.Cycle(Replica("a", "0")).result.suggested_host == S("n0"));
  w.Reset();
  CHECK(w.Cycle(Replica("b", "0")).result.suggested_host == S("n0"));
  CHECK(w.calls["Scaled"].total_score() == 0);
  CHECK(w.calls["Scaled"].normalize == 0);  // the totals were kept

  // n2 requests 3 cpu: the first nonzero of the column, found by scoring n2
  // alone, is its maximum (n2: 100 + 70 against 0 + 100).
  w.Reset();
  w.Place("x", "n2", "3");
  CHECK(w.Cycle(Replica("c", "0")).result.suggested_host == S("n2"));
  CHECK(w.calls["Scaled"].score == std::map<std::string, int>{{"n2", 1}});

  // n1 requests 6: a new maximum rescales the unchanged nodes too (n1: 100 +
  // 40, n2: 50 + 70, n0: 0 + 100).
  w.Reset();
  w.Place("y", "n1", "6");
  CHECK(w.Cycle(Replica("d", "0")).result.suggested_host == S("n1"));
  CHECK(w.calls["Scaled"].score == std::map<std::string, int>{{"n1", 1}});

  // The maximum falls back when n1 empties: n2 is ahead again.
  w.Reset();
  REQUIRE(w.state.RemovePod(*MakePod().Name("y").UID("y").Node("n1").Req({{"cpu", "6"}}).Info()).ok());
  w.state.UpdateSnapshot(w.snapshot);
  CHECK(w.Cycle(Replica("e", "0")).result.suggested_host == S("n2"));
}

TEST_CASE("Outcome memo: kept totals of a window of nodes that wraps past the last node", "[framework][memo]") {
  // 250 nodes, 40%: each cycle evaluates 100 nodes from where the last one
  // stopped, so the starts go 0, 100, 200 (wrapping to n0..n49), 50, ...
  World w(250);
  w.percentage = 40;
  w.keep_selection = true;
  w.AddPlugin("PerNode", true);
  w.Build();
  for (const char* name : {"a", "b", "c", "d", "e", "f", "g"}) {
    REQUIRE(w.Cycle(Replica(name)).result.evaluated_nodes == 100);
  }
  REQUIRE(w.kept_memo.next_start_node_index == 200);
  // n10, in the window's wrapped part, now scores highest: its kept total is stale.
  w.Reset();
  w.Place("x", "n10", "4");
  CHECK(w.Cycle(Replica("h")).result.suggested_host == S("n10"));
  CHECK(w.calls["PerNode"].score == std::map<std::string, int>{{"n10", 1}});
}

TEST_CASE("Outcome memo: reversed, custom and failing normalizations decide as without it", "[framework][memo]") {
  SECTION("reversed by maximum") {
    World w(3);
    w.AddPlugin("Fewest", true, {}, nullptr, Shaped(Scoring::kRequested, MaximumNormalization{kMaxNodeScore, true}));
    w.Build();
    w.Place("x", "n0", "2");
    CHECK(w.Cycle(Replica("a")).result.suggested_host == S("n1"));
    w.Place("y", "n1", "4");
    CHECK(w.Cycle(Replica("b")).result.suggested_host == S("n2"));
    w.Place("z", "n2", "6");
    CHECK(w.Cycle(Replica("c")).result.suggested_host == S("n0"));
  }
  SECTION("a NormalizeScore of its own") {
    World w(3);
    w.AddPlugin("Halves", true, {}, nullptr, Halving());
    w.AddPlugin("Inverse", true, {}, nullptr, Shaped(Scoring::kInverse));
    w.Build();
    for (const char* name : {"a", "b"}) (void)w.Cycle(Replica(name));
    w.Place("x", "n1", "4");
    (void)w.Cycle(Replica("c"));
    // Its raw scores are kept, but without a maximum to key totals by, its
    // NormalizeScore runs on every cycle's column.
    w.Reset();
    (void)w.Cycle(Replica("d"));
    CHECK(w.calls["Halves"].total_score() == 0);
    CHECK(w.calls["Halves"].normalize == 1);
  }
  SECTION("a score out of range on a changed node") {
    World w(3);
    w.AddPlugin("Uncapped", true, {}, nullptr, Shaped(Scoring::kUncapped));
    w.Build();
    REQUIRE(w.Cycle(Replica("a")).status.IsSuccess());
    REQUIRE(w.Cycle(Replica("b")).status.IsSuccess());
    w.Place("x", "n1", "12");  // more than n1 holds: 120 + 10
    const ScheduleOutcome out = w.Cycle(Replica("c"));
    CHECK(out.status.code() == Code::kError);
    CHECK(out.status.Message() ==
          "applying score defaultWeights on Score plugins: plugin \"Uncapped\" returns an invalid score 130, it "
          "should in the range of [0, 100] after normalizing");
  }
}

}  // namespace
}  // namespace schedkit::framework
