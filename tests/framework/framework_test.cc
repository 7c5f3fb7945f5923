// Framework runtime: extension-point semantics with small test plugins,
// node selection arithmetic, tie-breaking and FitError text.
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>

#include <limits>
#include <map>
#include <random>
#include <set>
#include <thread>

#include "schedkit/base/str_cat.h"
#include "schedkit/framework/framework.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/minimal_plugins.h"
#include "framework/cycle_bookkeeping.h"

namespace schedkit::framework {
namespace {

using testing::MakeNode;
using testing::MakePod;

// Shared log of calls, to check order.
struct CallLog {
  std::vector<std::string> calls;
  std::mutex mu;
  void Add(std::string s) {
    std::lock_guard<std::mutex> lock(mu);
    calls.push_back(std::move(s));
  }
};

// A plugin whose behaviour at each point is a table entry.
struct Behaviour {
  Status pre_filter;
  std::optional<std::vector<std::string>> pre_filter_nodes;
  std::map<std::string, Status> filter;  // by node name; others Success
  Status post_filter = Status(Code::kUnschedulable, Symbol::Intern("cannot help"));
  Symbol nominate;
  Status pre_score;
  std::map<std::string, int64_t> score;  // by node name
  bool normalize_double = false;
  Status reserve;
  PermitPlugin::Result permit;
  Status bind = Status::Skip();
};

class TestPlugin : public PreFilterPlugin,
                   public FilterPlugin,
                   public PostFilterPlugin,
                   public PreScorePlugin,
                   public ScorePlugin,
                   public ScoreExtensions,
                   public ReservePlugin,
                   public PermitPlugin,
                   public BindPlugin,
                   public PostBindPlugin {
 public:
  TestPlugin(std::string name, Behaviour b, CallLog* log) : name_(std::move(name)), b_(std::move(b)), log_(log) {}
  std::string_view Name() const override { return name_; }

  PreFilterPlugin::Result PreFilter(CycleState&, const PodInfo&, std::span<const NodeInfo* const>) override {
    log_->Add(name_ + ".PreFilter");
    PreFilterPlugin::Result r;
    r.status = b_.pre_filter;
    if (b_.pre_filter_nodes) {
      r.result.node_names.emplace();
      for (const auto& n : *b_.pre_filter_nodes) r.result.node_names->insert(Symbol::Intern(n));
    }
    return r;
  }
  Status Filter(const CycleState&, const PodInfo&, const NodeInfo& node) const override {
    log_->Add(name_ + ".Filter");
    auto it = b_.filter.find(std::string(node.name().str()));
    return it == b_.filter.end() ? Status() : it->second;
  }
  PostFilterPlugin::Result PostFilter(CycleState&, const PodInfo&, const NodeToStatus&) override {
    log_->Add(name_ + ".PostFilter");
    PostFilterPlugin::Result r;
    r.status = b_.post_filter;
    if (!b_.nominate.empty()) r.nominating_info = {NominatingInfo::Mode::kOverride, b_.nominate};
    return r;
  }
  Status PreScore(CycleState&, const PodInfo&, std::span<const NodeInfo* const>) override {
    log_->Add(name_ + ".PreScore");
    return b_.pre_score;
  }
  Status Score(const CycleState&, const PodInfo&, const NodeInfo& node, int64_t& score) const override {
    auto it = b_.score.find(std::string(node.name().str()));
    score = it == b_.score.end() ? 0 : it->second;
    return Status();
  }
  const ScoreExtensions* GetScoreExtensions() const override { return b_.normalize_double ? this : nullptr; }
  Status NormalizeScore(const CycleState&, const PodInfo&, std::span<const NodeInfo* const>,
                        std::span<int64_t> scores) const override {
    for (int64_t& s : scores) s *= 2;
    return Status();
  }
  Status Reserve(CycleState&, const PodInfo&, Symbol) override {
    log_->Add(name_ + ".Reserve");
    return b_.reserve;
  }
  void Unreserve(CycleState&, const PodInfo&, Symbol) override { log_->Add(name_ + ".Unreserve"); }
  PermitPlugin::Result Permit(CycleState&, const PodInfo&, Symbol) override {
    log_->Add(name_ + ".Permit");
    return b_.permit;
  }
  Status Bind(CycleState&, const PodInfo&, Symbol) override {
    log_->Add(name_ + ".Bind");
    return b_.bind;
  }
  void PostBind(CycleState&, const PodInfo&, Symbol) override { log_->Add(name_ + ".PostBind"); }

 private:
  std::string name_;
  Behaviour b_;
  CallLog* log_;
};

class BinderPlugin : public BindPlugin {
 public:
  explicit BinderPlugin(CallLog* log) : log_(log) {}
  std::string_view Name() const override { return "Binder"; }
  Status Bind(CycleState&, const PodInfo&, Symbol node) override {
    log_->Add(schedkit::StrCat("Binder.Bind:", node.str()));
    return Status();
  }

 private:
  CallLog* log_;
};

// A test world: nodes n0..n{k-1}, a registry of TestPlugins and a profile.
struct World {
  CallLog log;
  Registry registry;
  Profile profile;
  ClusterState state;
  Snapshot snapshot;
  FakeClock clock;

  explicit World(int nodes) {
    REQUIRE(registry.Add("Sort", [](const PluginArgs&, Handle&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
      return std::make_unique<testing::ArrivalOrderSort>();
    }).ok());
    REQUIRE(registry.Add("Binder", [this](const PluginArgs&, Handle&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
      return std::make_unique<BinderPlugin>(&log);
    }).ok());
    profile.plugins.queue_sort.enabled = {{"Sort"}};
    profile.plugins.bind.enabled = {{"Binder"}};
    for (int i = 0; i < nodes; ++i) {
      REQUIRE(state.AddNode(MakeNode().Name(schedkit::StrCat("n", i)).Capacity({{"cpu", "4"}, {"pods", "10"}}).Ptr()).ok());
    }
    state.UpdateSnapshot(snapshot);
  }

  // Registers a TestPlugin and enables it at every point it is listed for
  // through multiPoint (weight for Score).
  void AddPlugin(const std::string& name, Behaviour b, int32_t weight = 1) {
    REQUIRE(registry.Add(name, [this, name, b](const PluginArgs&, Handle&) -> absl::StatusOr<std::unique_ptr<framework::Plugin>> {
      return std::make_unique<TestPlugin>(name, b, &log);
    }).ok());
    profile.plugins.multi_point.enabled.push_back({name, weight});
  }

  // One cycle, in a fresh CycleState, of a pod named "p".
  ScheduleOutcome SchedulePod(Framework& f, CycleTrace* trace = nullptr) {
    CycleState state;
    SelectionState sel;
    return f.SchedulePod(state, MakePod().Name("p").Info(), snapshot, sel, trace);
  }

  // percentage_of_nodes_to_score 0 is the adaptive default.
  std::unique_ptr<Framework> Build(int parallelism = 1, int32_t percentage_of_nodes_to_score = 0) {
    FrameworkOptions o;
    o.parallelism = parallelism;
    o.clock = &clock;
    o.percentage_of_nodes_to_score = percentage_of_nodes_to_score;
    auto f = Framework::Create(registry, profile, std::move(o));
    INFO(f.status().ToString());
    REQUIRE(f.ok());
    return *std::move(f);
  }
};

Symbol S(std::string_view s) { return Symbol::Intern(s); }

// Each scored node's total score by name; with skip_zero, nodes totalling 0 are left out.
std::map<std::string, int64_t> TotalsByNode(const CycleTrace& trace, bool skip_zero = false) {
  std::map<std::string, int64_t> totals;
  for (const auto& ns : trace.scores) {
    if (!skip_zero || ns.total != 0) totals[std::string(ns.node.str())] = ns.total;
  }
  return totals;
}

// How often each node is chosen over `trials` cycles of a pod named "p".
std::map<std::string, int> HostCounts(Framework& f, World& w, SelectionState& selection, int trials) {
  std::map<std::string, int> counts;
  for (int i = 0; i < trials; ++i) {
    CycleState state;
    auto out = f.SchedulePod(state, MakePod().Name("p").Info(), w.snapshot, selection);
    REQUIRE(out.status.IsSuccess());
    ++counts[std::string(out.result.suggested_host.str())];
  }
  return counts;
}

// Each named node was chosen strictly within `expected` ± `tolerance` times.
void CheckChosenAbout(std::map<std::string, int>& counts, std::initializer_list<const char*> nodes, int expected,
                      int tolerance) {
  for (const char* n : nodes) {
    INFO(n << " chosen " << counts[n] << " times");
    CHECK(counts[n] > expected - tolerance);
    CHECK(counts[n] < expected + tolerance);
  }
}

// Every node found and scored (percentageOfNodesToScore 100), so that the
// score tail (weighted sums, ties) spans several of its 512-node chunks.
constexpr int32_t kScoreAllNodes = 100;

TEST_CASE("numFeasibleNodesToFind follows upstream's examples", "[framework]") {
  CHECK(NumFeasibleNodesToFind(std::nullopt, 0, 10) == 10);
  CHECK(NumFeasibleNodesToFind(std::nullopt, 0, 99) == 99);
  CHECK(NumFeasibleNodesToFind(std::nullopt, 0, 100) == 100);
  CHECK(NumFeasibleNodesToFind(std::nullopt, 0, 1000) == 420);
  CHECK(NumFeasibleNodesToFind(std::nullopt, 0, 5000) == 500);
  CHECK(NumFeasibleNodesToFind(std::nullopt, 0, 6000) == 300);
  CHECK(NumFeasibleNodesToFind(std::nullopt, 0, 10000) == 500);
  CHECK(NumFeasibleNodesToFind(std::nullopt, 40, 1000) == 400);  // upstream: explicit 40% of 1000
  CHECK(NumFeasibleNodesToFind(std::nullopt, 10, 500) == 100);   // never fewer than 100
  CHECK(NumFeasibleNodesToFind(50, 10, 1000) == 500);            // profile wins over global
  CHECK(NumFeasibleNodesToFind(std::nullopt, 100, 15000) == 15000);
}

TEST_CASE("multiPoint expands to implemented points; config errors name the plugin", "[framework]") {
  World w(1);
  w.AddPlugin("A", {});
  auto f = w.Build();
  CHECK(f->PluginNames(ExtensionPoint::kFilter) == std::vector<std::string>{"A"});
  CHECK(f->PluginNames(ExtensionPoint::kBind) == std::vector<std::string>{"A", "Binder"});
  CHECK(f->PluginNames(ExtensionPoint::kPreEnqueue).empty());
  CHECK(f->ScoreWeight("A") == 1);

  World bad(1);
  bad.profile.plugins.filter.enabled = {{"Nope"}};
  auto err = Framework::Create(bad.registry, bad.profile, {});
  REQUIRE_FALSE(err.ok());
  CHECK_THAT(std::string(err.status().message()), Catch::Contains("FilterPlugin \"Nope\" does not exist"));

  World wrong(1);
  wrong.profile.plugins.filter.enabled = {{"Sort"}};
  err = Framework::Create(wrong.registry, wrong.profile, {});
  REQUIRE_FALSE(err.ok());
  CHECK_THAT(std::string(err.status().message()), Catch::Contains("plugin \"Sort\" does not extend FilterPlugin plugin"));

  World twice(1);
  twice.profile.plugins.bind.enabled = {{"Binder"}, {"Binder"}};
  CHECK_FALSE(Framework::Create(twice.registry, twice.profile, {}).ok());

  World nosort(1);
  nosort.profile.plugins.queue_sort.enabled.clear();
  err = Framework::Create(nosort.registry, nosort.profile, {});
  REQUIRE_FALSE(err.ok());
  CHECK_THAT(std::string(err.status().message()), Catch::Contains("only one queue sort plugin required"));
}

TEST_CASE("multiPoint ordering: explicit overrides first, then multiPoint, then the rest", "[framework]") {
  // upstream TestNewFrameworkMultiPointExpansion "Reorder plugins".
  World w(1);
  w.AddPlugin("A", {});
  w.AddPlugin("B", {});
  w.AddPlugin("C", {});
  w.profile.plugins.filter.enabled = {{"C"}, {"Binder"}};  // Binder is not a filter → error
  CHECK_FALSE(Framework::Create(w.registry, w.profile, {}).ok());
  w.profile.plugins.filter.enabled = {{"C"}};
  w.profile.plugins.score.enabled = {{"B", 7}};
  w.profile.plugins.pre_score.disabled = {"A"};
  w.profile.plugins.permit.disabled = {"*"};
  auto f = w.Build();
  CHECK(f->PluginNames(ExtensionPoint::kFilter) == std::vector<std::string>{"C", "A", "B"});
  CHECK(f->PluginNames(ExtensionPoint::kScore) == std::vector<std::string>{"B", "A", "C"});
  CHECK(f->ScoreWeight("B") == 7);  // the explicit Score weight wins
  CHECK(f->PluginNames(ExtensionPoint::kPreScore) == std::vector<std::string>{"B", "C"});
  CHECK(f->PluginNames(ExtensionPoint::kPermit).empty());
}

TEST_CASE("PreFilter: Skip drops the plugin's Filter; results intersect", "[framework]") {
  World w(4);
  Behaviour skip;
  skip.pre_filter = Status::Skip();
  skip.filter["n0"] = Status(Code::kUnschedulable, S("never called"));
  w.AddPlugin("Skipper", skip);
  Behaviour a;
  a.pre_filter_nodes = std::vector<std::string>{"n1", "n2", "n3"};
  w.AddPlugin("A", a);
  Behaviour b;
  b.pre_filter_nodes = std::vector<std::string>{"n0", "n2", "n3"};
  b.score = {{"n2", 10}, {"n3", 50}};
  w.AddPlugin("B", b);
  auto f = w.Build();
  CycleState state;
  SelectionState sel;
  CycleTrace trace;
  auto pod = MakePod().Name("p").Info();
  auto out = f->SchedulePod(state, pod, w.snapshot, sel, &trace);
  REQUIRE(out.status.IsSuccess());
  CHECK(out.result.suggested_host == S("n3"));
  CHECK(out.result.feasible_nodes == 2);
  CHECK(CycleBookkeeping::SkipFilter(state).contains(S("Skipper")));
  // Nodes outside the intersection carry the absent-node status.
  REQUIRE(trace.filter.size() == 4);
  bool saw_absent = false;
  for (const auto& e : trace.filter) {
    if (e.node == S("n0") || e.node == S("n1")) {
      CHECK(e.status.code() == Code::kUnschedulableAndUnresolvable);
      CHECK(e.status.Message() == "node(s) didn't satisfy plugin(s) [A B]");
      saw_absent = true;
    }
  }
  CHECK(saw_absent);
}

// Upstream's evaluateNominatedNode filters the nominated node into the
// cycle's diagnosis (findNodesThatPassFilters with &diagnosis, whose plugin
// set and NodeToStatus the caller shares): a plugin that rejects it counts
// among the pod's rejectors, and is named in the status of the nodes the
// PreFilter result leaves out. Found by conformance seed 41020261206,
// scenario 1181 (a preemptor back on its nominated node).
TEST_CASE("PreFilter: the nominated node's rejectors join the diagnosis", "[framework]") {
  World w(3);
  Behaviour a;
  a.pre_filter_nodes = std::vector<std::string>{"n1"};
  a.filter["n1"] = Status(Code::kUnschedulable, S("a rejects n1"));
  w.AddPlugin("A", a);
  Behaviour b;
  b.filter["n0"] = Status(Code::kUnschedulable, S("b rejects n0"));
  w.AddPlugin("B", b);
  auto f = w.Build();
  CycleState state;
  SelectionState sel;
  auto pod = MakePod().Name("p").NominatedNodeName("n0").Info();
  auto out = f->SchedulePod(state, pod, w.snapshot, sel);
  REQUIRE(out.fit_error != nullptr);
  const Diagnosis& d = out.fit_error->diagnosis;
  CHECK(d.unschedulable_plugins == absl::flat_hash_set<Symbol>{S("A"), S("B")});
  // n0 keeps what B said of it; n2 was left out by A's PreFilter result.
  CHECK(out.fit_error->Message() ==
        "0/3 nodes are available: 1 a rejects n1, 1 b rejects n0, 1 node(s) didn't satisfy plugin(s) [A B].");
}

TEST_CASE("PreFilter: an empty intersection is unresolvable with upstream's text", "[framework]") {
  World w(3);
  Behaviour a;
  a.pre_filter_nodes = std::vector<std::string>{"n1"};
  w.AddPlugin("A", a);
  Behaviour b;
  b.pre_filter_nodes = std::vector<std::string>{"n2"};
  w.AddPlugin("B", b);
  auto f = w.Build();
  CycleState state;
  SelectionState sel;
  auto out = f->SchedulePod(state, MakePod().Name("p").Info(), w.snapshot, sel);
  REQUIRE(out.fit_error != nullptr);
  CHECK(out.fit_error->Message() == "0/3 nodes are available: node(s) didn't satisfy plugin(s) [A B] simultaneously.");

  World one(2);
  Behaviour only;
  only.pre_filter_nodes = std::vector<std::string>{};
  one.AddPlugin("Only", only);
  auto f1 = one.Build();
  CycleState s1;
  auto out1 = f1->SchedulePod(s1, MakePod().Name("p").Info(), one.snapshot, sel);
  REQUIRE(out1.fit_error != nullptr);
  CHECK(out1.fit_error->Message() == "0/2 nodes are available: node(s) didn't satisfy plugin Only.");
}

TEST_CASE("PreFilter: Unschedulable lets later PreFilters run; Unresolvable stops", "[framework]") {
  World w(2);
  Behaviour a;
  a.pre_filter = Status::WithReasons(Code::kUnschedulable, {"a says no"});
  w.AddPlugin("A", a);
  Behaviour b;
  w.AddPlugin("B", b);
  auto f = w.Build();
  CycleState state;
  SelectionState sel;
  auto out = f->SchedulePod(state, MakePod().Name("p").Info(), w.snapshot, sel);
  REQUIRE(out.fit_error != nullptr);
  CHECK(out.fit_error->Message() == "0/2 nodes are available: a says no.");
  CHECK(out.fit_error->diagnosis.unschedulable_plugins.contains(S("A")));
  const auto& calls = w.log.calls;
  CHECK(std::count(calls.begin(), calls.end(), "B.PreFilter") == 1);
  CHECK(std::count(calls.begin(), calls.end(), "A.Filter") == 0);

  World u(2);
  Behaviour ua;
  ua.pre_filter = Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"hard no"});
  u.AddPlugin("A", ua);
  u.AddPlugin("B", {});
  auto fu = u.Build();
  CycleState su;
  auto outu = fu->SchedulePod(su, MakePod().Name("p").Info(), u.snapshot, sel);
  REQUIRE(outu.fit_error != nullptr);
  CHECK(std::count(u.log.calls.begin(), u.log.calls.end(), "B.PreFilter") == 0);
  CHECK(outu.fit_error->diagnosis.node_to_status.Get(S("n0")).plugin() == S("A"));

  World e(1);
  Behaviour ea;
  ea.pre_filter = Status::WithReasons(Code::kWait, {"odd"});
  e.AddPlugin("A", ea);
  auto oute = e.SchedulePod(*e.Build());
  CHECK(oute.status.IsError());
  CHECK(oute.status.Message() == "running PreFilter plugin \"A\": odd");
}

TEST_CASE("Filter stops at the first failing plugin per node", "[framework]") {
  World w(3);
  Behaviour a;
  a.filter["n0"] = Status::WithReasons(Code::kUnschedulable, {"a1"});
  w.AddPlugin("A", a);
  Behaviour b;
  b.filter["n0"] = Status::WithReasons(Code::kUnschedulable, {"b1"});
  b.filter["n1"] = Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"b2"});
  w.AddPlugin("B", b);
  auto f = w.Build();
  CycleState state;
  SelectionState sel;
  CycleTrace trace;
  auto out = f->SchedulePod(state, MakePod().Name("p").Info(), w.snapshot, sel, &trace);
  REQUIRE(out.status.IsSuccess());
  CHECK(out.result.suggested_host == S("n2"));
  CHECK(out.result.evaluated_nodes == 3);
  for (const auto& e : trace.filter) {
    if (e.node == S("n0")) CHECK(e.status.plugin() == S("A"));
    if (e.node == S("n1")) CHECK(e.status.plugin() == S("B"));
  }
  // Exactly one feasible node: no scoring at all.
  CHECK(std::count(w.log.calls.begin(), w.log.calls.end(), "A.PreScore") == 0);

  World e(2);
  Behaviour ea;
  ea.filter["n1"] = Status::Skip();  // neither success nor rejection → error
  e.AddPlugin("A", ea);
  auto fe = e.Build();
  CycleState se;
  auto oute = fe->SchedulePod(se, MakePod().Name("p").Info(), e.snapshot, sel);
  REQUIRE(oute.status.IsError());
  CHECK_THAT(oute.status.Message(), Catch::Contains("running \"A\" filter plugin"));
}

TEST_CASE("FitError text counts and sorts reasons as upstream", "[framework]") {
  World w(5);
  Behaviour a;
  a.filter["n0"] = Status::WithReasons(Code::kUnschedulable, {"Insufficient cpu"});
  a.filter["n1"] = Status::WithReasons(Code::kUnschedulable, {"Insufficient cpu", "Insufficient memory"});
  a.filter["n2"] = Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"node(s) had untolerated taint(s)"});
  a.filter["n3"] = Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"node(s) had untolerated taint(s)"});
  a.filter["n4"] = Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"node(s) had untolerated taint(s)"});
  w.AddPlugin("A", a);
  auto f = w.Build();
  CycleState state;
  SelectionState sel;
  auto pod = MakePod().Name("p").Info();
  auto out = f->SchedulePod(state, pod, w.snapshot, sel);
  REQUIRE(out.fit_error != nullptr);
  CHECK(out.fit_error->Message() ==
        "0/5 nodes are available: 1 Insufficient memory, 2 Insufficient cpu, 3 node(s) had untolerated taint(s).");
  // PostFilter: every plugin declined → reasons joined, first rejector recorded.
  auto post = f->RunPostFilterPlugins(state, *pod, out.fit_error->diagnosis.node_to_status);
  CHECK(post.status.code() == Code::kUnschedulable);
  CHECK(post.status.Message() == "cannot help");
  CHECK(post.status.plugin() == S("A"));
  out.fit_error->diagnosis.post_filter_msg = post.status.Message();
  CHECK(out.fit_error->Message() ==
        "0/5 nodes are available: 1 Insufficient memory, 2 Insufficient cpu, 3 node(s) had untolerated taint(s). "
        "cannot help");
  // Counts sort as strings: "10 x" sorts before "2 y".
  FitError e;
  e.num_all_nodes = 12;
  for (int i = 0; i < 10; ++i) e.diagnosis.node_to_status.Set(S(schedkit::StrCat("x", i)), Status::WithReasons(Code::kUnschedulable, {"x"}));
  e.diagnosis.node_to_status.Set(S("y1"), Status::WithReasons(Code::kUnschedulable, {"y"}));
  e.diagnosis.node_to_status.Set(S("y2"), Status::WithReasons(Code::kUnschedulable, {"y"}));
  CHECK(e.Message() == "0/12 nodes are available: 10 x, 2 y.");
}

// Not upstream: past a handful of distinct reasons the counting switches
// from a short list to an index; both count the same, and a reason held as
// owned text counts together with the same interned reason.
TEST_CASE("FitError text counts many distinct reasons and owned text", "[framework]") {
  FitError e;
  e.num_all_nodes = 0;
  std::map<std::string, int> want;
  for (int r = 0; r < 40; ++r) {
    const std::string reason = schedkit::StrCat("reason ", std::string(1, static_cast<char>('a' + r % 26)), r);
    for (int k = 0; k <= r % 3; ++k) {
      const Symbol node = S(schedkit::StrCat("many-", r, "-", k));
      // Every other node holds its reason as text rather than interned.
      e.diagnosis.node_to_status.Set(node, k % 2 == 0 ? Status::WithReasons(Code::kUnschedulable, {reason})
                                                      : Status::WithText(Code::kUnschedulable, reason));
      ++want[reason];
      ++e.num_all_nodes;
    }
  }
  std::vector<std::string> entries;
  for (const auto& [reason, count] : want) entries.push_back(schedkit::StrCat(count, " ", reason));
  std::sort(entries.begin(), entries.end());
  std::string expected = schedkit::StrCat("0/", e.num_all_nodes, " nodes are available: ");
  for (size_t i = 0; i < entries.size(); ++i) schedkit::StrAppend(&expected, i ? ", " : "", entries[i]);
  expected += ".";
  CHECK(e.Message() == expected);
}

// Not upstream: Status equality compares code, plugin and reason texts,
// whether a reason is interned or owned text.
TEST_CASE("Status equality compares texts, interned or owned", "[framework]") {
  const Status cpu = Status::WithReasons(Code::kUnschedulable, {"Insufficient cpu"});
  CHECK(cpu == Status::WithReasons(Code::kUnschedulable, {"Insufficient cpu"}));
  CHECK(cpu == Status::WithText(Code::kUnschedulable, "Insufficient cpu"));
  CHECK_FALSE(cpu == Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"Insufficient cpu"}));
  CHECK_FALSE(cpu == Status::WithReasons(Code::kUnschedulable, {"Insufficient memory"}));
  CHECK_FALSE(cpu == Status::WithReasons(Code::kUnschedulable, {"Insufficient cpu", "Insufficient memory"}));
  const Status both = Status::WithReasons(Code::kUnschedulable, {"Insufficient cpu", "Insufficient memory"});
  CHECK_FALSE(both == Status::WithReasons(Code::kUnschedulable, {"Insufficient memory", "Insufficient cpu"}));
  Status by_fit = cpu;
  by_fit.WithPlugin(S("NodeResourcesFit"));
  CHECK_FALSE(cpu == by_fit);
}

// Not upstream: NodeToStatus stores a run of equal statuses once; every
// node still reads back the status last set for it, and the nodes come in
// the order they were first set.
TEST_CASE("NodeToStatus keeps each node's last status through shared runs", "[framework]") {
  NodeToStatus nts;
  const Status cpu = Status::WithReasons(Code::kUnschedulable, {"Insufficient cpu"});
  const Status taint = Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"node(s) had untolerated taint(s)"});
  Status cpu_by_fit = cpu;
  cpu_by_fit.WithPlugin(S("NodeResourcesFit"));
  nts.Reserve(8);
  nts.Set(S("a"), cpu);
  nts.Set(S("b"), cpu);
  nts.Set(S("c"), taint);
  nts.Set(S("a"), taint);  // overwritten
  nts.Set(S("d"), cpu);
  nts.Set(S("e"), cpu_by_fit);  // same reasons, another plugin: not shared
  nts.Set(S("f"), Status::WithText(Code::kUnschedulable, "free text"));
  CHECK(nts.size() == 6);
  CHECK(nts.Get(S("a")) == taint);
  CHECK(nts.Get(S("b")) == cpu);
  CHECK(nts.Get(S("c")) == taint);
  CHECK(nts.Get(S("d")) == cpu);
  CHECK(nts.Get(S("e")).plugin() == S("NodeResourcesFit"));
  CHECK(nts.Get(S("d")).plugin().empty());
  CHECK(nts.Get(S("f")).Message() == "free text");
  CHECK(nts.Get(S("g")) == nts.absent_status());
  std::vector<std::string> seen;
  nts.ForEachExplicitNode([&](Symbol node, const Status& s) {
    seen.push_back(schedkit::StrCat(node.str(), "=", s.Message()));
  });
  CHECK(seen == std::vector<std::string>{"a=node(s) had untolerated taint(s)", "b=Insufficient cpu",
                                         "c=node(s) had untolerated taint(s)", "d=Insufficient cpu",
                                         "e=Insufficient cpu", "f=free text"});
}

// Not upstream: SetNew appends without indexing; Get, a later Set and
// NodesForStatusCode see those nodes as if Set had added them.
TEST_CASE("NodeToStatus: nodes added unindexed read back, and a later Set overwrites them", "[framework]") {
  NodeToStatus nts;
  const Status cpu = Status::WithReasons(Code::kUnschedulable, {"Insufficient cpu"});
  const Status taint = Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"node(s) had untolerated taint(s)"});
  nts.SetNew(S("a"), Status(cpu));
  nts.SetNew(S("b"), Status(cpu));
  nts.SetNew(S("c"), Status(taint));
  CHECK(nts.size() == 3);
  CHECK(nts.Get(S("a")) == cpu);
  CHECK(nts.Get(S("c")) == taint);
  CHECK(nts.Get(S("z")) == nts.absent_status());
  nts.Set(S("b"), taint);  // an appended node: overwritten, not added again
  nts.Set(S("d"), cpu);
  nts.SetNew(S("e"), Status(taint));
  CHECK(nts.size() == 5);
  CHECK(nts.Get(S("b")) == taint);
  CHECK(nts.Get(S("d")) == cpu);
  CHECK(nts.Get(S("e")) == taint);
  nts.Set(S("e"), cpu);
  CHECK(nts.size() == 5);
  CHECK(nts.Get(S("e")) == cpu);
  std::vector<std::string> seen;
  nts.ForEachExplicitNode([&](Symbol node, const Status&) { seen.emplace_back(node.str()); });
  CHECK(seen == std::vector<std::string>{"a", "b", "c", "d", "e"});
  // Statuses no node holds any more (b's and e's first) are not counted.
  std::map<std::string, int> counts;
  nts.ForEachStatusCount([&](const Status& s, int nodes) {
    CHECK(nodes > 0);
    counts[s.Message()] += nodes;
  });
  CHECK(counts == std::map<std::string, int>{{"Insufficient cpu", 3}, {"node(s) had untolerated taint(s)", 2}});
}

TEST_CASE("NodeToStatus: lookups after SetNew index the nodes once, from any thread, and copies read the same",
          "[framework][tsan]") {
  const Status cpu = Status::WithReasons(Code::kUnschedulable, {"Insufficient cpu"});
  const Status taint = Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"node(s) had untolerated taint(s)"});
  constexpr int kNodes = 300;
  auto name = [](int i) { return S(schedkit::StrCat("node-", i)); };
  auto want = [&](int i) -> const Status& { return i % 7 == 0 ? taint : cpu; };
  NodeToStatus nts;
  for (int i = 0; i < kNodes; ++i) nts.SetNew(name(i), Status(want(i)));
  // Four threads look every node up at once: the first lookups scan, then
  // one of them indexes under the lock while the others wait or read.
  std::vector<std::thread> readers;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    readers.emplace_back([&, t] {
      for (int k = 0; k < kNodes; ++k) {
        const int i = (k * 13 + t * 71) % kNodes;
        if (!(nts.Get(name(i)) == want(i))) wrong.fetch_add(1);
      }
      if (!(nts.Get(S("missing")) == nts.absent_status())) wrong.fetch_add(1);
    });
  }
  for (auto& r : readers) r.join();
  CHECK(wrong.load() == 0);

  NodeToStatus copy = nts;
  copy.SetNew(S("late"), Status(taint));
  copy.Set(name(5), taint);  // overwrites; the copy rebuilt its index for this
  CHECK(copy.size() == kNodes + 1);
  CHECK(copy.Get(name(5)) == taint);
  CHECK(copy.Get(S("late")) == taint);
  CHECK(nts.Get(name(5)) == cpu);  // the original is untouched
  CHECK(nts.size() == kNodes);
  NodeToStatus moved = std::move(copy);
  CHECK(moved.size() == kNodes + 1);
  CHECK(moved.Get(name(6)) == cpu);
  moved = nts;
  CHECK(moved.size() == kNodes);
  CHECK(moved.Get(name(5)) == cpu);
}

TEST_CASE("NodeToStatus::NodesForStatusCode lists matching nodes in snapshot order however they were set",
          "[framework]") {
  World w(10);
  const Status cpu = Status::WithReasons(Code::kUnschedulable, {"Insufficient cpu"});
  const Status taint = Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"node(s) had untolerated taint(s)"});
  // The answer by definition: each snapshot node's status, explicit or absent.
  auto by_definition = [&](const NodeToStatus& nts, Code code) {
    std::vector<std::string> out;
    for (const NodeInfo* n : w.snapshot.nodes()) {
      if (nts.Get(n->name()).code() == code) out.emplace_back(n->name().str());
    }
    return out;
  };
  auto names = [](const std::vector<const NodeInfo*>& nodes) {
    std::vector<std::string> out;
    for (const NodeInfo* n : nodes) out.emplace_back(n->name().str());
    return out;
  };
  // A filter pass from start 7 that finds n9 and n2 feasible (no status).
  NodeToStatus pass;
  for (int i : {7, 8, 0, 1, 3, 4, 5, 6}) pass.SetNew(S(schedkit::StrCat("n", i)), Status(i % 3 == 0 ? taint : cpu));
  const std::vector<std::string> want = {"n1", "n4", "n5", "n7", "n8"};
  CHECK(names(pass.NodesForStatusCode(w.snapshot, Code::kUnschedulable)) == want);
  CHECK(by_definition(pass, Code::kUnschedulable) == want);
  // Absent nodes (n2, n9) count when the absent status has the code asked for.
  pass.SetAbsentNodesStatus(cpu);
  CHECK(names(pass.NodesForStatusCode(w.snapshot, Code::kUnschedulable)) ==
        std::vector<std::string>{"n1", "n2", "n4", "n5", "n7", "n8", "n9"});
  // Out of snapshot order, with a node the snapshot lacks and an overwrite.
  NodeToStatus shuffled;
  for (int i : {5, 2, 9, 0, 7}) shuffled.Set(S(schedkit::StrCat("n", i)), cpu);
  shuffled.Set(S("gone"), cpu);
  shuffled.Set(S("n2"), taint);
  shuffled.SetNew(S("n3"), Status(cpu));
  CHECK(names(shuffled.NodesForStatusCode(w.snapshot, Code::kUnschedulable)) == by_definition(shuffled, Code::kUnschedulable));
  CHECK(names(shuffled.NodesForStatusCode(w.snapshot, Code::kUnschedulable)) ==
        std::vector<std::string>{"n0", "n3", "n5", "n7", "n9"});
  CHECK(names(shuffled.NodesForStatusCode(w.snapshot, Code::kUnschedulableAndUnresolvable)) ==
        by_definition(shuffled, Code::kUnschedulableAndUnresolvable));
}

// Not upstream: the filter chain derived after PreFilter is kept in the
// cycle state and reused by per-node calls, but never once the skip set
// changed or for another framework.
TEST_CASE("RunFilterPlugins follows the cycle's skip set", "[framework]") {
  World w(2);
  Behaviour a;
  a.filter["n0"] = Status::WithReasons(Code::kUnschedulable, {"a rejects n0"});
  w.AddPlugin("A", a);
  Behaviour skipper;
  skipper.pre_filter = Status::Skip();
  skipper.filter["n1"] = Status::WithReasons(Code::kUnschedulable, {"never asked"});
  w.AddPlugin("Skipper", skipper);
  auto f = w.Build();
  auto other = w.Build();
  auto pod = MakePod().Name("p").Info();
  const NodeInfo& n0 = *w.snapshot.Get(S("n0"));
  const NodeInfo& n1 = *w.snapshot.Get(S("n1"));

  CycleState state;
  REQUIRE(f->RunPreFilterPlugins(state, *pod).status.IsSuccess());
  REQUIRE(framework::CycleBookkeeping::FilterChain(state) != nullptr);
  CHECK(f->RunFilterPlugins(state, *pod, n1).IsSuccess());  // Skipper's Filter is not called
  CHECK(f->RunFilterPlugins(state, *pod, n0).Message() == "a rejects n0");
  // Clones share the chain and give the same answers.
  std::unique_ptr<CycleState> clone = state.Clone();
  CHECK(framework::CycleBookkeeping::FilterChain(*clone) == framework::CycleBookkeeping::FilterChain(state));
  CHECK(f->RunFilterPlugins(*clone, *pod, n1).IsSuccess());
  // Another framework does not use this one's chain.
  CHECK(other->RunFilterPlugins(state, *pod, n1).IsSuccess());
  CHECK(other->RunFilterPlugins(state, *pod, n0).Message() == "a rejects n0");
  // A changed skip set is followed, not the kept chain.
  CycleBookkeeping::SkipFilter(state).insert(S("A"));
  CHECK(f->RunFilterPlugins(state, *pod, n0).IsSuccess());
  CycleBookkeeping::SkipFilter(state).clear();
  CHECK(f->RunFilterPlugins(state, *pod, n1).Message() == "never asked");
  CHECK(f->RunFilterPlugins(state, *pod, n0).Message() == "a rejects n0");
}

// A filter that overrides FilterNodes: rejects the named nodes, and records
// the runs it was handed.
class BatchFilter : public FilterPlugin {
 public:
  BatchFilter(std::map<std::string, Status> reject, std::atomic<int>* max_run, std::atomic<int>* asked_rejected)
      : reject_(std::move(reject)), max_run_(max_run), asked_rejected_(asked_rejected) {}
  std::string_view Name() const override { return "Batch"; }
  Status Filter(const CycleState&, const PodInfo&, const NodeInfo& node) const override {
    auto it = reject_.find(std::string(node.name().str()));
    return it == reject_.end() ? Status() : it->second;
  }
  void FilterNodes(const CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                   std::span<uint8_t> passing, std::span<Status> statuses) const override {
    int seen = max_run_->load();
    while (static_cast<int>(nodes.size()) > seen && !max_run_->compare_exchange_weak(seen, static_cast<int>(nodes.size()))) {
    }
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (!passing[i]) continue;
      if (nodes[i]->name() == Symbol::Intern("n3")) ++*asked_rejected_;  // A rejected n3 before
      Status s = Filter(state, pod, *nodes[i]);
      if (s.IsSuccess()) continue;
      passing[i] = 0;
      statuses[i] = std::move(s);
    }
  }

 private:
  std::map<std::string, Status> reject_;
  std::atomic<int>* max_run_;
  std::atomic<int>* asked_rejected_;
};

// Not upstream: the filter pass hands each plugin runs of nodes; a node
// leaves the run at its first rejection, so every node's status is the one
// a per-node chain would give.
TEST_CASE("Filter: plugins take runs of nodes; the first rejection per node wins", "[framework]") {
  for (int parallelism : {1, 2}) {
    World w(150);
    w.profile.percentage_of_nodes_to_score = 100;
    Behaviour a;
    a.filter["n3"] = Status::WithReasons(Code::kUnschedulable, {"a"});
    a.filter["n70"] = Status::WithReasons(Code::kUnschedulable, {"a"});
    a.filter["n140"] = Status::WithReasons(Code::kUnschedulable, {"a"});
    w.AddPlugin("A", a);
    std::atomic<int> max_run{0};
    std::atomic<int> asked_rejected{0};
    std::map<std::string, Status> reject = {
        {"n3", Status::WithReasons(Code::kUnschedulable, {"b"})},
        {"n71", Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"b"})},
        {"n149", Status::WithReasons(Code::kUnschedulable, {"b"})}};
    REQUIRE(w.registry.Add("Batch", [&](const PluginArgs&, Handle&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
      return std::make_unique<BatchFilter>(reject, &max_run, &asked_rejected);
    }).ok());
    w.profile.plugins.filter.enabled.push_back({"Batch"});
    auto f = w.Build(parallelism);
    CycleState state;
    SelectionState sel;
    sel.next_start_node_index = 120;  // the pass wraps around the end of the list
    CycleTrace trace;
    auto out = f->SchedulePod(state, MakePod().Name("p").Info(), w.snapshot, sel, &trace);
    REQUIRE(out.status.IsSuccess());
    CHECK(out.result.evaluated_nodes == 150);
    CHECK(out.result.feasible_nodes == 145);
    std::map<std::string, std::string> rejected;
    for (const auto& e : trace.filter) {
      if (!e.status.IsSuccess()) rejected[std::string(e.node.str())] = schedkit::StrCat(e.status.plugin().str(), ":", e.status.Message());
    }
    CHECK(rejected == std::map<std::string, std::string>{
                          {"n3", "A:a"}, {"n70", "A:a"}, {"n71", "Batch:b"}, {"n140", "A:a"}, {"n149", "Batch:b"}});
    CHECK(max_run.load() <= 64);
    CHECK(asked_rejected.load() == 0);
  }

  // An error from a run names the plugin, as from a per-node chain.
  World e(100);
  e.AddPlugin("Scorer", {});  // with a score plugin every node is filtered
  std::atomic<int> max_run{0};
  std::atomic<int> asked_rejected{0};
  REQUIRE(e.registry.Add("Batch", [&](const PluginArgs&, Handle&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
    return std::make_unique<BatchFilter>(std::map<std::string, Status>{{"n80", Status::Error("disk on fire")}},
                                         &max_run, &asked_rejected);
  }).ok());
  e.profile.plugins.filter.enabled.push_back({"Batch"});
  auto oute = e.SchedulePod(*e.Build(2));
  REQUIRE(oute.status.IsError());
  CHECK(oute.status.Message() == "running \"Batch\" filter plugin: disk on fire");
}

TEST_CASE("Filter: several nodes of one run rejected by one plugin, at word edges", "[framework]") {
  // The pass compares passing flags eight at a time; rejections at the first
  // and last flag of a word, next to each other and at the run's end must
  // each be seen once, with the plugin that made them.
  World w(64);
  w.profile.percentage_of_nodes_to_score = 100;
  Behaviour a;
  a.filter["n8"] = Status::WithReasons(Code::kUnschedulable, {"a"});
  w.AddPlugin("A", a);
  std::atomic<int> max_run{0};
  std::atomic<int> asked_rejected{0};
  std::map<std::string, Status> reject;
  for (const char* n : {"n0", "n7", "n8", "n9", "n15", "n16", "n62", "n63"}) {
    reject[n] = Status::WithReasons(Code::kUnschedulable, {"b"});
  }
  REQUIRE(w.registry.Add("Batch", [&](const PluginArgs&, Handle&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
    return std::make_unique<BatchFilter>(reject, &max_run, &asked_rejected);
  }).ok());
  w.profile.plugins.filter.enabled.push_back({"Batch"});
  auto f = w.Build(1);
  CycleState state;
  SelectionState sel;
  CycleTrace trace;
  auto out = f->SchedulePod(state, MakePod().Name("p").Info(), w.snapshot, sel, &trace);
  REQUIRE(out.status.IsSuccess());
  CHECK(out.result.feasible_nodes == 56);
  std::map<std::string, std::string> rejected;
  for (const auto& e : trace.filter) {
    if (!e.status.IsSuccess()) rejected[std::string(e.node.str())] = std::string(e.status.plugin().str());
  }
  CHECK(rejected == std::map<std::string, std::string>{{"n0", "Batch"},  {"n7", "Batch"},  {"n8", "A"},
                                                       {"n9", "Batch"},  {"n15", "Batch"}, {"n16", "Batch"},
                                                       {"n62", "Batch"}, {"n63", "Batch"}});
}

// Rejects a node that already holds a pod, noting how each node was asked.
class CrowdFilter : public FilterPlugin {
 public:
  std::string_view Name() const override { return "Crowd"; }
  Status Filter(const CycleState&, const PodInfo&, const NodeInfo& node) const override {
    by_filter.insert(std::string(node.name().str()));
    return node.num_pods() > 0 ? Status::WithReasons(Code::kUnschedulable, {"crowded"}) : Status();
  }
  void FilterNodes(const CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                   std::span<uint8_t> passing, std::span<Status> statuses) const override {
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (passing[i]) by_run.insert(std::string(nodes[i]->name().str()));
    }
    FilterPlugin::FilterNodes(state, pod, nodes, passing, statuses);
  }
  mutable std::set<std::string> by_filter;  // parallelism 1: no lock needed
  mutable std::set<std::string> by_run;
};

TEST_CASE("Filter with nominated pods: only nodes that gain a pod leave the runs", "[framework]") {
  // Upstream's two-pass filter (addNominatedPods) adds nominated pods of equal
  // or higher priority, other than the pod itself; a node where it adds none
  // gets the plain chain's answer, which the runs give.
  World w(4);
  w.AddPlugin("Scorer", {});  // with a score plugin every node is filtered
  CrowdFilter* crowd = nullptr;
  REQUIRE(w.registry.Add("Crowd", [&](const PluginArgs&, Handle&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
    auto p = std::make_unique<CrowdFilter>();
    crowd = p.get();
    return p;
  }).ok());
  w.profile.plugins.filter.enabled.push_back({"Crowd"});
  auto f = w.Build(1);
  REQUIRE(crowd != nullptr);
  const PodInfoPtr pod = MakePod().Name("p").UID("p").Priority(10).Info();
  NominatedPodsSnapshot::ByNode by_node;
  auto list = [](PodInfoPtr p) { return std::make_shared<const std::vector<PodInfoPtr>>(1, std::move(p)); };
  by_node[S("n1")] = list(MakePod().Name("higher").UID("h").Priority(20).Info());
  by_node[S("n2")] = list(MakePod().Name("lower").UID("l").Priority(5).Info());
  by_node[S("n3")] = list(MakePod().Name("p").UID("p").Priority(20).Info());  // the pod itself
  CycleState state;
  framework::CycleBookkeeping::SetNominatedPods(state, std::make_shared<const NominatedPodsSnapshot>(std::move(by_node)));
  SelectionState sel;
  CycleTrace trace;
  auto out = f->SchedulePod(state, pod, w.snapshot, sel, &trace);
  REQUIRE(out.status.IsSuccess());
  CHECK(out.result.feasible_nodes == 3);
  std::map<std::string, std::string> rejected;
  for (const auto& e : trace.filter) {
    if (!e.status.IsSuccess()) rejected[std::string(e.node.str())] = schedkit::StrCat(e.status.plugin().str(), ":", e.status.Message());
  }
  CHECK(rejected == std::map<std::string, std::string>{{"n1", "Crowd:crowded"}});
  CHECK(crowd->by_run == std::set<std::string>{"n0", "n2", "n3"});
  CHECK(crowd->by_filter == std::set<std::string>{"n0", "n1", "n2", "n3"});
}

TEST_CASE("PostFilter: runs until one helps; nomination is returned", "[framework]") {
  World w(2);
  Behaviour a;
  a.filter = {{"n0", Status::WithReasons(Code::kUnschedulable, {"no"})}, {"n1", Status::WithReasons(Code::kUnschedulable, {"no"})}};
  a.post_filter = Status::WithReasons(Code::kUnschedulable, {"first cannot"});
  w.AddPlugin("A", a);
  Behaviour b;
  b.post_filter = Status();
  b.nominate = S("n1");
  w.AddPlugin("B", b);
  Behaviour c;
  w.AddPlugin("C", c);
  auto f = w.Build();
  CycleState state;
  SelectionState sel;
  auto pod = MakePod().Name("p").Info();
  auto out = f->SchedulePod(state, pod, w.snapshot, sel);
  REQUIRE(out.fit_error != nullptr);
  auto post = f->RunPostFilterPlugins(state, *pod, out.fit_error->diagnosis.node_to_status);
  CHECK(post.status.IsSuccess());
  CHECK(post.nominating_info.node_name == S("n1"));
  CHECK(std::count(w.log.calls.begin(), w.log.calls.end(), "C.PostFilter") == 0);
}

TEST_CASE("Score: PreScore Skip drops Score; normalize, weights and totals", "[framework]") {
  World w(3);
  Behaviour a;
  a.score = {{"n0", 10}, {"n1", 20}, {"n2", 30}};
  a.normalize_double = true;
  w.AddPlugin("A", a, 2);
  Behaviour b;
  b.score = {{"n0", 100}};
  w.AddPlugin("B", b, 1);
  Behaviour c;
  c.pre_score = Status::Skip();
  c.score = {{"n0", 100}, {"n1", 100}, {"n2", 100}};
  w.AddPlugin("C", c, 5);
  auto f = w.Build();
  CycleTrace trace;
  auto out = w.SchedulePod(*f, &trace);
  REQUIRE(out.status.IsSuccess());
  // n0: 20*2 + 100 = 140; n1: 40*2 = 80; n2: 60*2 = 120.
  CHECK(out.result.suggested_host == S("n0"));
  REQUIRE(trace.scores.size() == 3);
  for (const auto& ns : trace.scores) {
    CHECK(ns.plugins.size() == 2);  // C skipped
    if (ns.node == S("n0")) {
      CHECK(ns.total == 140);
      CHECK(ns.plugins[0].raw == 10);
      CHECK(ns.plugins[0].normalized == 20);
      CHECK(ns.plugins[0].weight == 2);
    }
  }
  // A normalized score outside [0, 100] is an error.
  World bad(2);
  Behaviour big;
  big.score = {{"n0", 60}};
  big.normalize_double = true;
  bad.AddPlugin("Big", big);
  auto outb = bad.SchedulePod(*bad.Build());
  REQUIRE(outb.status.IsError());
  CHECK_THAT(outb.status.Message(), Catch::Contains("returns an invalid score 120"));
}

TEST_CASE("Score: weighted sums over an odd number of plugins, and the first bad score in order names the error",
          "[framework]") {
  // Upstream applies the weights plugin by plugin and stops at the first
  // plugin with a score outside [0, 100].
  World w(3);
  Behaviour p1;
  p1.score = {{"n0", 10}, {"n1", 20}, {"n2", 30}};
  w.AddPlugin("P1", p1, 1);
  Behaviour p2;
  p2.score = {{"n0", 1}, {"n1", 2}, {"n2", 3}};
  w.AddPlugin("P2", p2, 2);
  Behaviour p3;
  p3.score = {{"n0", 50}};
  w.AddPlugin("P3", p3, 3);
  auto f = w.Build();
  CycleTrace trace;
  auto out = w.SchedulePod(*f, &trace);
  REQUIRE(out.status.IsSuccess());
  CHECK(TotalsByNode(trace) == std::map<std::string, int64_t>{{"n0", 162}, {"n1", 24}, {"n2", 36}});
  CHECK(out.result.suggested_host == S("n0"));

  World bad(3);
  Behaviour ok;
  ok.score = {{"n0", 100}};
  bad.AddPlugin("Ok", ok);
  Behaviour negative;
  negative.score = {{"n2", -5}};
  bad.AddPlugin("Negative", negative);
  Behaviour huge;
  huge.score = {{"n0", std::numeric_limits<int64_t>::max()}};
  bad.AddPlugin("Huge", huge, 7);  // its product would overflow: still only the range error
  auto outb = bad.SchedulePod(*bad.Build());
  REQUIRE(outb.status.IsError());
  CHECK(outb.status.Message() ==
        "applying score defaultWeights on Score plugins: plugin \"Negative\" returns an invalid score -5, it should "
        "in the range of [0, 100] after normalizing");
}

TEST_CASE("Score: the range check at its edges, and weights of either sign", "[framework]") {
  // Not upstream's table: the edges of [0, 100] (the range check is an OR of
  // bits, see ScoresInRange), including scores whose low 32 bits look valid.
  const int64_t kBeyond32Bits = (int64_t{1} << 32) + 5;
  for (const int64_t bad : {int64_t{101}, int64_t{127}, int64_t{128}, int64_t{-1}, int64_t{-100}, kBeyond32Bits,
                            std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()}) {
    INFO("score " << bad);
    World w(3);
    Behaviour edge;
    edge.score = {{"n0", 0}, {"n1", 100}};
    w.AddPlugin("Edge", edge, 3);
    Behaviour b;
    b.score = {{"n2", bad}};
    w.AddPlugin("Bad", b);
    auto out = w.SchedulePod(*w.Build());
    REQUIRE(out.status.IsError());
    CHECK_THAT(out.status.Message(), Catch::Contains(schedkit::StrCat("\"Bad\" returns an invalid score ", bad)));
  }
  // 0 and 100 are valid; a negative weight (not from a validated config) counts as given.
  World w(3);
  Behaviour p1;
  p1.score = {{"n0", 0}, {"n1", 100}, {"n2", 40}};
  w.AddPlugin("P1", p1, 3);
  Behaviour p2;
  p2.score = {{"n0", 100}, {"n1", 100}, {"n2", 10}};
  w.AddPlugin("P2", p2, -2);
  Behaviour p3;
  p3.score = {{"n0", 7}, {"n1", 0}, {"n2", 100}};
  w.AddPlugin("P3", p3, 1);
  auto f = w.Build();
  CycleTrace trace;
  auto out = w.SchedulePod(*f, &trace);
  REQUIRE(out.status.IsSuccess());
  CHECK(TotalsByNode(trace) == std::map<std::string, int64_t>{{"n0", -193}, {"n1", 100}, {"n2", 200}});
  CHECK(out.result.suggested_host == S("n2"));
  // The negative weight on the odd plugin out, summed alone.
  World odd(3);
  odd.AddPlugin("P1", p1, 3);
  odd.AddPlugin("P3", p3, 1);
  odd.AddPlugin("P2", p2, -2);
  CycleTrace odd_trace;
  REQUIRE(odd.SchedulePod(*odd.Build(), &odd_trace).status.IsSuccess());
  CHECK(TotalsByNode(odd_trace) == std::map<std::string, int64_t>{{"n0", -193}, {"n1", 100}, {"n2", 200}});
}

// Scores nodes by the number in their name through ScoreNodes only, noting
// the longest run it was handed; fails when told to.
class RunScorer : public ScorePlugin {
 public:
  explicit RunScorer(bool fail) : fail_(fail) {}
  std::string_view Name() const override { return "Runs"; }
  Status Score(const CycleState&, const PodInfo&, const NodeInfo&, int64_t&) const override {
    return Status::Error("Score called instead of ScoreNodes");
  }
  Status ScoreNodes(const CycleState&, const PodInfo&, std::span<const NodeInfo* const> nodes,
                    std::span<int64_t> scores) const override {
    if (fail_) return Status::Error("boom");
    // No Catch2 assertions here: this runs on the parallelizer's threads.
    if (nodes.size() != scores.size()) return Status::Error("nodes and scores differ in length");
    int prev = longest_run_.load();
    while (prev < static_cast<int>(nodes.size()) && !longest_run_.compare_exchange_weak(prev, nodes.size())) {
    }
    for (size_t i = 0; i < nodes.size(); ++i) scores[i] = std::stoi(std::string(nodes[i]->name().str().substr(1))) % 101;
    return Status();
  }
  int longest_run() const { return longest_run_.load(); }

 private:
  bool fail_;
  mutable std::atomic<int> longest_run_{0};
};

TEST_CASE("Score: the framework hands runs of nodes to ScoreNodes; a failure names the plugin", "[framework]") {
  for (bool fail : {false, true}) {
    World w(300);
    RunScorer* scorer = nullptr;
    REQUIRE(w.registry.Add("Runs", [&](const PluginArgs&, Handle&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
      auto p = std::make_unique<RunScorer>(fail);
      scorer = p.get();
      return p;
    }).ok());
    w.profile.plugins.multi_point.enabled.push_back({"Runs", 1});
    w.AddPlugin("F", Behaviour{});  // a filter, so nodes are found and scored
    auto f = w.Build(/*parallelism=*/2);
    CycleState state;
    SelectionState sel;
    CycleTrace trace;
    auto out = f->SchedulePod(state, MakePod().Name("p").Info(), w.snapshot, sel, &trace);
    if (fail) {
      REQUIRE(out.status.IsError());
      CHECK(out.status.Message() == "running Score plugins: plugin \"Runs\" failed with: boom");
      continue;
    }
    REQUIRE(out.status.IsSuccess());
    REQUIRE(trace.scores.size() > 64);
    for (const auto& ns : trace.scores) {
      const int64_t want = std::stoi(std::string(ns.node.str().substr(1))) % 101;
      REQUIRE(ns.plugins[0].raw == want);
    }
    CHECK(scorer->longest_run() > 1);
  }
}

TEST_CASE("tie-break: lowest name is deterministic, random is uniform", "[framework]") {
  World w(4);
  Behaviour a;
  a.score = {{"n0", 5}, {"n1", 9}, {"n2", 9}, {"n3", 9}};
  w.AddPlugin("A", a);
  auto f = w.Build();
  SelectionState det;
  det.tie_break = TieBreak::kLowestName;
  for (int i = 0; i < 20; ++i) {
    CycleState state;
    auto out = f->SchedulePod(state, MakePod().Name("p").Info(), w.snapshot, det);
    CHECK(out.result.suggested_host == S("n1"));
  }
  SelectionState rnd;
  rnd.rng.seed(42);
  std::map<std::string, int> counts = HostCounts(*f, w, rnd, 3000);
  CHECK(counts["n0"] == 0);
  // Each of three ties expects 1000; a fair choice stays within ±5σ (σ≈25.8).
  CheckChosenAbout(counts, {"n1", "n2", "n3"}, 1000, 130);
}

TEST_CASE("tie-break: ties spread over chunks of the score tail are each chosen uniformly", "[framework][tsan]") {
  // Ties in the first and third chunks; the second chunk's top (5) is lower.
  World w(1300);
  Behaviour a;
  a.score = {{"n100", 9}, {"n600", 5}, {"n1250", 9}, {"n1260", 9}};
  w.AddPlugin("A", a);
  for (int parallelism : {1, 2}) {
    auto f = w.Build(parallelism, kScoreAllNodes);
    SelectionState det;
    det.tie_break = TieBreak::kLowestName;
    CycleState s0;
    auto first = f->SchedulePod(s0, MakePod().Name("p").Info(), w.snapshot, det);
    REQUIRE(first.status.IsSuccess());
    CHECK(first.result.evaluated_nodes == 1300);
    CHECK(first.result.suggested_host == S("n100"));  // "n100" < "n1250" < "n1260"
    SelectionState rnd;
    rnd.rng.seed(7);
    std::map<std::string, int> counts = HostCounts(*f, w, rnd, 600);
    INFO("parallelism " << parallelism);
    CHECK(counts.size() == 3);
    // Each tie expects 200; a fair choice stays within ±5σ (σ≈11.5).
    CheckChosenAbout(counts, {"n100", "n1250", "n1260"}, 200, 58);
  }
}

TEST_CASE("Score: totals and the range check hold across chunks of the score tail", "[framework][tsan]") {
  World w(1300);
  Behaviour p1;
  p1.score = {{"n0", 10}, {"n700", 20}, {"n1299", 30}};
  w.AddPlugin("P1", p1, 1);
  Behaviour p2;
  p2.score = {{"n700", 3}, {"n1299", 1}};
  w.AddPlugin("P2", p2, 4);
  auto f = w.Build(2, kScoreAllNodes);
  for (int cycle = 0; cycle < 2; ++cycle) {  // the second reuses the first's scratch
    CycleTrace trace;
    CycleState state;
    SelectionState sel;
    auto out = f->SchedulePod(state, MakePod().Name("p").Info(), w.snapshot, sel, &trace);
    REQUIRE(out.status.IsSuccess());
    REQUIRE(trace.scores.size() == 1300);
    CHECK(TotalsByNode(trace, /*skip_zero=*/true) ==
          std::map<std::string, int64_t>{{"n0", 10}, {"n700", 32}, {"n1299", 34}});
    CHECK(out.result.suggested_host == S("n1299"));
  }

  // A bad score in the last chunk only is still found and named.
  World bad(1300);
  Behaviour late;
  late.score = {{"n1200", 101}};
  bad.AddPlugin("Late", late);
  auto fb = bad.Build(2, kScoreAllNodes);
  CycleState sb;
  SelectionState selb;
  auto outb = fb->SchedulePod(sb, MakePod().Name("p").Info(), bad.snapshot, selb);
  REQUIRE(outb.status.IsError());
  CHECK(outb.status.Message() ==
        "applying score defaultWeights on Score plugins: plugin \"Late\" returns an invalid score 101, it should "
        "in the range of [0, 100] after normalizing");
}

TEST_CASE("the start index rotates and early stop finds just enough nodes", "[framework]") {
  World w(300);  // 300 nodes → look for 100 feasible (adaptive: 47% of 300 = 141)
  Behaviour a;
  a.score = {};
  w.AddPlugin("A", a);
  auto f = w.Build(2);
  SelectionState sel;
  CycleState state;
  auto out = f->SchedulePod(state, MakePod().Name("p").Info(), w.snapshot, sel);
  REQUIRE(out.status.IsSuccess());
  CHECK(out.result.feasible_nodes == NumFeasibleNodesToFind(std::nullopt, 0, 300));
  CHECK(sel.next_start_node_index == out.result.feasible_nodes);
  // Every node infeasible: all 300 are processed, the index wraps back.
  World none(300);
  Behaviour no;
  for (int i = 0; i < 300; ++i) no.filter[schedkit::StrCat("n", i)] = Status::WithReasons(Code::kUnschedulable, {"no"});
  none.AddPlugin("No", no);
  auto fn = none.Build(2);
  SelectionState s2;
  s2.next_start_node_index = 17;
  CycleState st2;
  auto out2 = fn->SchedulePod(st2, MakePod().Name("p").Info(), none.snapshot, s2);
  REQUIRE(out2.fit_error != nullptr);
  CHECK(s2.next_start_node_index == 17);
  CHECK(out2.fit_error->Message() == "0/300 nodes are available: 300 no.");
}

// Upstream scans the nodes in order from the start index: the first node
// whose filter fails with an Error ends the cycle, and the nodes before it
// (passed or rejected) are what the start index moves by, so the next cycle
// starts at the failing node again.
TEST_CASE("a filter Error names the first failing node and leaves the start index on it", "[framework]") {
  World w(10);
  Behaviour b;
  b.filter["n2"] = Status::WithReasons(Code::kUnschedulable, {"no"});
  b.filter["n5"] = Status::Error("n5 is broken");
  b.filter["n7"] = Status::Error("n7 is broken");
  w.AddPlugin("B", b);
  auto f = w.Build(4);
  for (int start : {0, 6}) {
    SelectionState sel;
    sel.next_start_node_index = start;
    CycleState state;
    auto out = f->SchedulePod(state, MakePod().Name("p").Info(), w.snapshot, sel);
    REQUIRE(out.status.IsError());
    CHECK(out.status.Message() == (start == 0 ? "running \"B\" filter plugin: n5 is broken"
                                              : "running \"B\" filter plugin: n7 is broken"));
    CHECK(sel.next_start_node_index == (start == 0 ? 5 : 7));
  }
}

TEST_CASE("Reserve failure and Unreserve in reverse order", "[framework]") {
  World w(1);
  w.AddPlugin("A", {});
  Behaviour b;
  b.reserve = Status::WithReasons(Code::kUnschedulable, {"b refuses"});
  w.AddPlugin("B", b);
  w.AddPlugin("C", {});
  auto f = w.Build();
  CycleState state;
  auto pod = MakePod().Name("p").Info();
  Status s = f->RunReservePluginsReserve(state, *pod, S("n0"));
  CHECK(s.code() == Code::kUnschedulable);
  CHECK(s.plugin() == S("B"));
  w.log.calls.clear();
  f->RunReservePluginsUnreserve(state, *pod, S("n0"));
  CHECK(w.log.calls == std::vector<std::string>{"C.Unreserve", "B.Unreserve", "A.Unreserve"});
}

TEST_CASE("Permit: Wait parks the pod; allow, reject and timeout release it", "[framework]") {
  World w(1);
  Behaviour a;
  a.permit = {Status::Wait(), absl::Seconds(10)};
  w.AddPlugin("A", a);
  Behaviour b;
  b.permit = {Status::Wait(), absl::Seconds(30)};
  w.AddPlugin("B", b);
  auto f = w.Build();
  auto pod = MakePod().Name("p").UID("uid-p").Info();

  SECTION("allowed by every waiting plugin") {
    CycleState state;
    CHECK(f->RunPermitPlugins(state, pod, S("n0")).IsWait());
    CHECK(f->HasWaitingPod("uid-p"));
    f->AllowWaitingPod("uid-p", S("A"));
    std::thread binder([&] { CHECK(f->WaitOnPermit(*pod).IsSuccess()); });
    f->AllowWaitingPod("uid-p", S("B"));
    binder.join();
    CHECK_FALSE(f->HasWaitingPod("uid-p"));
  }
  SECTION("rejected") {
    CycleState state;
    CHECK(f->RunPermitPlugins(state, pod, S("n0")).IsWait());
    f->IterateOverWaitingPods([](WaitingPod& wp) { wp.Reject(Symbol::Intern("A"), "not now"); });
    Status s = f->WaitOnPermit(*pod);
    CHECK(s.code() == Code::kUnschedulable);
    CHECK(s.plugin() == S("A"));
    CHECK(s.Message() == "not now");
  }
  SECTION("the shortest timeout rejects") {
    CycleState state;
    CHECK(f->RunPermitPlugins(state, pod, S("n0")).IsWait());
    w.clock.Advance(absl::Seconds(9));
    CHECK(f->HasWaitingPod("uid-p"));
    w.clock.Advance(absl::Seconds(1));
    Status s = f->WaitOnPermit(*pod);
    CHECK(s.code() == Code::kUnschedulable);
    CHECK(s.Message() == "rejected due to timeout after waiting 10s at plugin A");
  }
  SECTION("removed through the handle") {
    CycleState state;
    CHECK(f->RunPermitPlugins(state, pod, S("n0")).IsWait());
    CHECK(f->RejectWaitingPod("uid-p"));
    CHECK(f->WaitOnPermit(*pod).Message() == "removed");
  }
}

TEST_CASE("Permit rejection stops at once; Bind skips to the next binder", "[framework]") {
  World w(1);
  Behaviour a;
  a.permit = {Status::WithReasons(Code::kUnschedulable, {"denied"}), absl::ZeroDuration()};
  w.AddPlugin("A", a);
  auto f = w.Build();
  CycleState state;
  auto pod = MakePod().Name("p").Info();
  Status s = f->RunPermitPlugins(state, pod, S("n0"));
  CHECK(s.code() == Code::kUnschedulable);
  CHECK(s.plugin() == S("A"));
  w.log.calls.clear();
  CHECK(f->RunBindPlugins(state, *pod, S("n0")).IsSuccess());
  CHECK(w.log.calls == std::vector<std::string>{"A.Bind", "Binder.Bind:n0"});
  f->RunPostBindPlugins(state, *pod, S("n0"));
}

TEST_CASE("parallel filtering gives the same answer as sequential", "[framework][tsan]") {
  World w(1000);
  Behaviour a;
  for (int i = 0; i < 1000; i += 3) a.filter[schedkit::StrCat("n", i)] = Status::WithReasons(Code::kUnschedulable, {"third"});
  for (int i = 0; i < 1000; ++i) a.score[schedkit::StrCat("n", i)] = (i * 37) % 101;
  w.AddPlugin("A", a);
  auto seq = w.Build(1);
  auto par = w.Build(4);
  SelectionState s1, s2;
  s1.tie_break = s2.tie_break = TieBreak::kLowestName;
  for (int round = 0; round < 20; ++round) {
    CycleState c1, c2;
    auto pod = MakePod().Name("p").Info();
    auto o1 = seq->SchedulePod(c1, pod, w.snapshot, s1);
    auto o2 = par->SchedulePod(c2, pod, w.snapshot, s2);
    REQUIRE(o1.status.IsSuccess());
    REQUIRE(o2.status.IsSuccess());
    CHECK(o1.result.suggested_host == o2.result.suggested_host);
    CHECK(o1.result.evaluated_nodes == o2.result.evaluated_nodes);
    CHECK(s1.next_start_node_index == s2.next_start_node_index);
  }
}

// Rejects a fixed set of nodes; records the feasible list PreScore is given.
class RejectAndRecord : public FilterPlugin, public PreScorePlugin, public ScorePlugin {
 public:
  explicit RejectAndRecord(std::set<std::string> rejected) : rejected_(std::move(rejected)) {}
  std::string_view Name() const override { return "RejectAndRecord"; }
  Status Filter(const CycleState&, const PodInfo&, const NodeInfo& node) const override {
    if (!rejected_.contains(std::string(node.name().str()))) return Status();
    return Status::WithReasons(Code::kUnschedulable, {"rejected"});
  }
  Status PreScore(CycleState&, const PodInfo&, std::span<const NodeInfo* const> nodes) override {
    feasible.clear();
    for (const NodeInfo* n : nodes) feasible.emplace_back(n->name().str());
    return Status();
  }
  Status Score(const CycleState&, const PodInfo&, const NodeInfo&, int64_t& score) const override {
    score = 0;
    return Status();
  }
  const ScoreExtensions* GetScoreExtensions() const override { return nullptr; }

  std::vector<std::string> feasible;

 private:
  std::set<std::string> rejected_;
};

// The filter pass steps over runs of nodes and copies all-passing runs
// whole; its outcome must equal a scan node by node from the start index.
TEST_CASE("the filter pass's feasible list and statuses equal a node-by-node scan", "[framework]") {
  constexpr int kNodes = 700;  // adaptive: look for 308 feasible nodes
  const int to_find = NumFeasibleNodesToFind(std::nullopt, 0, kNodes);
  std::mt19937 rng(7);
  for (int round = 0; round < 40; ++round) {
    // Stretches that all pass beside stretches with some rejections.
    std::set<std::string> rejected;
    const int density = round % 4 == 0 ? 0 : std::uniform_int_distribution<int>(1, 60)(rng);
    for (int i = 0; i < kNodes; ++i) {
      const bool dense_stretch = (i / 90) % 2 == round % 2;
      if (dense_stretch && std::uniform_int_distribution<int>(0, 99)(rng) < density) {
        rejected.insert(schedkit::StrCat("n", i));
      }
    }
    if (round == 39) {  // every node rejected
      for (int i = 0; i < kNodes; ++i) rejected.insert(schedkit::StrCat("n", i));
    }
    const int start = round < 3 ? kNodes - 1 - round : std::uniform_int_distribution<int>(0, kNodes - 1)(rng);
    std::vector<std::string> want_feasible;
    int want_rejected = 0;
    int want_processed = 0;
    // Upstream's scan with one worker: the first to_find feasible nodes are
    // kept; it stops at the next one, counting the rejections before it.
    for (int k = 0; k < kNodes; ++k) {
      const std::string name = schedkit::StrCat("n", (start + k) % kNodes);
      if (rejected.contains(name)) {
        ++want_rejected;
      } else if (static_cast<int>(want_feasible.size()) == to_find) {
        break;
      } else {
        want_feasible.push_back(name);
      }
      ++want_processed;
    }
    for (int parallelism : {1, 2}) {
      CAPTURE(round, start, density, parallelism);
      World w(kNodes);
      RejectAndRecord* plugin = nullptr;
      auto factory = [&](const PluginArgs&, Handle&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
        auto p = std::make_unique<RejectAndRecord>(rejected);
        plugin = p.get();
        return p;
      };
      REQUIRE(w.registry.Add("RejectAndRecord", factory).ok());
      w.profile.plugins.multi_point.enabled.push_back({"RejectAndRecord", 1});
      auto f = w.Build(parallelism);
      SelectionState sel;
      sel.next_start_node_index = start;
      CycleState state;
      auto out = f->SchedulePod(state, MakePod().Name("p").Info(), w.snapshot, sel);
      REQUIRE(plugin != nullptr);
      CHECK(sel.next_start_node_index == (start + want_processed) % kNodes);
      if (want_feasible.empty()) {
        REQUIRE(out.fit_error != nullptr);
        CHECK(out.fit_error->diagnosis.node_to_status.size() == static_cast<size_t>(kNodes));
        continue;
      }
      REQUIRE(out.status.IsSuccess());
      CHECK(out.result.evaluated_nodes == want_processed);
      CHECK(out.result.feasible_nodes == static_cast<int>(want_feasible.size()));
      if (want_feasible.size() > 1) CHECK(plugin->feasible == want_feasible);
      CHECK(out.result.evaluated_nodes - out.result.feasible_nodes == want_rejected);
    }
  }
}

// Records extension points only; built on the no-op recorder, as a host that
// wants one metric would write it.
class PointRecorder : public NoopMetricsRecorder {
 public:
  void ObserveExtensionPoint(ExtensionPoint point, Code status, std::string_view profile,
                             absl::Duration d) override {
    observed.push_back({point, status, std::string(profile), d});
  }
  struct Observation {
    ExtensionPoint point;
    Code status;
    std::string profile;
    absl::Duration d;
  };
  std::vector<Observation> observed;
};

TEST_CASE("a host's recorder, even one built on the no-op recorder, gets every extension point", "[framework]") {
  World w(3);
  Behaviour b;
  b.score = {{"n1", 10}};
  w.AddPlugin("A", b);
  PointRecorder recorder;
  FrameworkOptions o;
  o.clock = &w.clock;
  o.metrics = &recorder;
  auto f = Framework::Create(w.registry, w.profile, std::move(o));
  REQUIRE(f.ok());
  CycleState state;
  SelectionState sel;
  const PodInfoPtr pod = MakePod().Name("p").Info();
  auto out = (*f)->SchedulePod(state, pod, w.snapshot, sel);
  REQUIRE(out.status.IsSuccess());
  const Symbol node = out.result.suggested_host;
  REQUIRE((*f)->RunReservePluginsReserve(state, *pod, node).IsSuccess());
  REQUIRE((*f)->RunPermitPlugins(state, pod, node).IsSuccess());
  REQUIRE((*f)->RunPreBindPlugins(state, *pod, node).IsSuccess());
  REQUIRE((*f)->RunBindPlugins(state, *pod, node).IsSuccess());
  (*f)->RunPostBindPlugins(state, *pod, node);
  std::vector<ExtensionPoint> points;
  for (const auto& ob : recorder.observed) {
    points.push_back(ob.point);
    CHECK(ob.status == Code::kSuccess);
    CHECK(ob.d >= absl::ZeroDuration());
  }
  CHECK(points == std::vector<ExtensionPoint>{ExtensionPoint::kPreFilter, ExtensionPoint::kFilter,
                                              ExtensionPoint::kPreScore, ExtensionPoint::kScore,
                                              ExtensionPoint::kReserve, ExtensionPoint::kPermit,
                                              ExtensionPoint::kPreBind, ExtensionPoint::kBind,
                                              ExtensionPoint::kPostBind});
}

}  // namespace
}  // namespace schedkit::framework
