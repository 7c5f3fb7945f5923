// Opportunistic batching through Framework::SchedulePod: when a ranking is
// reused, when it is not, and the re-scoring of the node chosen last. The
// cases are upstream's TestBatchBasic and TestBatchRescore
// (pkg/scheduler/framework/runtime/batch_test.go, v1.37.2), driven through a
// whole cycle instead of the batch object alone; the heap's layout is checked
// against Go's container/heap on the same input.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "framework/opportunistic_batch.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/framework/framework.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/minimal_plugins.h"

namespace schedkit::framework {
namespace {

using testing::MakeNode;
using testing::MakePod;

// What the test plugin does, changed by the cases between cycles.
struct Knobs {
  // Score per node name; each pod already on the node takes `per_pod` off.
  std::map<std::string, int64_t> score;
  int64_t per_pod = 0;
  bool filter_error = false;
  bool pre_score_error = false;
  bool score_error = false;
  bool normalize_error = false;
  // Read when the framework is built: whether Batch normalizes at all.
  bool batch_normalizes = true;
  // The Max plugin's (BatchWorld's with_max): its score per node name, less
  // `max_per_pod` per pod on the node, normalized by the column's maximum;
  // `by_maximum` (read when the framework is built) says whether it tells
  // the framework so. NormalizeScore counts its calls.
  std::map<std::string, int64_t> max_score;
  int64_t max_per_pod = 0;
  bool by_maximum = true;
  mutable int max_normalize_calls = 0;
  // Batch's SignPod calls.
  mutable int sign_calls = 0;
};

bool Blocking(const PodInfo& pod) { return pod.labels().Has(Symbol::Intern("blocking")); }

// As upstream's BatchTestPlugin: a node holds one "blocking" pod (labelled
// blocking), so a batch of blocking pods goes one per node. Signs a pod by
// its "sig" label and declines pods without one.
class BatchPlugin : public FilterPlugin,
                    public PreScorePlugin,
                    public ScorePlugin,
                    public ScoreExtensions,
                    public SignPlugin {
 public:
  explicit BatchPlugin(const Knobs* knobs) : knobs_(knobs) {}
  std::string_view Name() const override { return "Batch"; }

  Status Filter(const CycleState&, const PodInfo& pod, const NodeInfo& node) const override {
    if (knobs_->filter_error) return Status::Error("filter failed");
    if (!Blocking(pod)) return Status();
    for (const PodInfoPtr& p : node.pods()) {
      if (Blocking(*p)) return Status(Code::kUnschedulable, Symbol::Intern("unsched"));
    }
    return Status();
  }
  Status PreScore(CycleState&, const PodInfo&, std::span<const NodeInfo* const>) override {
    return knobs_->pre_score_error ? Status::Error("prescore failed") : Status();
  }
  Status Score(const CycleState&, const PodInfo&, const NodeInfo& node, int64_t& score) const override {
    if (knobs_->score_error) return Status::Error("score failed");
    auto it = knobs_->score.find(std::string(node.name().str()));
    score = (it == knobs_->score.end() ? 0 : it->second) - knobs_->per_pod * node.num_pods();
    return Status();
  }
  const ScoreExtensions* GetScoreExtensions() const override { return knobs_->batch_normalizes ? this : nullptr; }
  Status NormalizeScore(const CycleState&, const PodInfo&, std::span<const NodeInfo* const>,
                        std::span<int64_t>) const override {
    return knobs_->normalize_error ? Status::Error("normalize failed") : Status();
  }
  Status SignPod(const PodInfo& pod, BatchSignatureBuilder& signature) const override {
    ++knobs_->sign_calls;
    const std::optional<Symbol> sig = pod.labels().Get(Symbol::Intern("sig"));
    if (!sig) return Status(Code::kUnschedulable, Symbol::Intern("unsigned"));
    signature.Add("test/sig", std::string(sig->str()));
    return Status();
  }

 private:
  const Knobs* knobs_;
};

// A second scorer, normalized by the column's maximum (reversed), signing
// every pod alike.
class MaxPlugin : public ScorePlugin, public ScoreExtensions, public SignPlugin {
 public:
  explicit MaxPlugin(const Knobs* knobs) : knobs_(knobs) {}
  std::string_view Name() const override { return "Max"; }
  Status Score(const CycleState&, const PodInfo&, const NodeInfo& node, int64_t& score) const override {
    auto it = knobs_->max_score.find(std::string(node.name().str()));
    score = std::max<int64_t>(0, (it == knobs_->max_score.end() ? 0 : it->second) -
                                     knobs_->max_per_pod * node.num_pods());
    return Status();
  }
  const ScoreExtensions* GetScoreExtensions() const override { return this; }
  Status NormalizeScore(const CycleState&, const PodInfo&, std::span<const NodeInfo* const>,
                        std::span<int64_t> scores) const override {
    ++knobs_->max_normalize_calls;
    kNormalization.Apply(scores);
    return Status();
  }
  std::optional<MaximumNormalization> NormalizesByMaximum() const override {
    return knobs_->by_maximum ? std::optional(kNormalization) : std::nullopt;
  }
  Status SignPod(const PodInfo&, BatchSignatureBuilder&) const override { return Status(); }

 private:
  static constexpr MaximumNormalization kNormalization{kMaxNodeScore, true};
  const Knobs* knobs_;
};

// A plugin that scores but cannot sign: its profile never batches.
class Unsigned : public ScorePlugin {
 public:
  std::string_view Name() const override { return "Unsigned"; }
  Status Score(const CycleState&, const PodInfo&, const NodeInfo&, int64_t& score) const override {
    score = 0;
    return Status();
  }
};

struct BatchWorld {
  Knobs knobs;
  Registry registry;
  Profile profile;
  ClusterState cluster;
  Snapshot snapshot;
  FakeClock clock;
  SelectionState selection;
  std::unique_ptr<Framework> fw;
  int pods = 0;

  explicit BatchWorld(int nodes, const FeatureGates* gates = nullptr, bool with_unsigned = false,
                      const Knobs* preset = nullptr, bool with_max = false) {
    if (preset != nullptr) knobs = *preset;
    selection.tie_break = TieBreak::kLowestName;
    REQUIRE(registry.Add("Sort", [](const PluginArgs&, Handle&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
      return std::make_unique<testing::ArrivalOrderSort>();
    }).ok());
    REQUIRE(registry.Add("Batch", [this](const PluginArgs&, Handle&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
      return std::make_unique<BatchPlugin>(&knobs);
    }).ok());
    REQUIRE(registry.Add("Unsigned", [](const PluginArgs&, Handle&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
      return std::make_unique<Unsigned>();
    }).ok());
    REQUIRE(registry.Add("Binder", [](const PluginArgs&, Handle&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
      return std::make_unique<testing::AcceptingBinder>();
    }).ok());
    profile.plugins.queue_sort.enabled = {{"Sort"}};
    profile.plugins.bind.enabled = {{"Binder"}};
    profile.plugins.multi_point.enabled = {{"Batch", 1}};
    REQUIRE(registry.Add("Max", [this](const PluginArgs&, Handle&) -> absl::StatusOr<std::unique_ptr<Plugin>> {
      return std::make_unique<MaxPlugin>(&knobs);
    }).ok());
    if (with_unsigned) profile.plugins.multi_point.enabled.push_back({"Unsigned", 1});
    if (with_max) profile.plugins.multi_point.enabled.push_back({"Max", 2});
    // Scores fall from node to node: n0 ranks first.
    if (preset == nullptr) {
      for (int i = 0; i < nodes; ++i) knobs.score[schedkit::StrCat("n", i)] = 10 * (nodes - i);
    }
    for (int i = 0; i < nodes; ++i) {
      REQUIRE(cluster.AddNode(MakeNode().Name(schedkit::StrCat("n", i)).Capacity({{"cpu", "4"}, {"pods", "10"}}).Ptr()).ok());
    }
    cluster.UpdateSnapshot(snapshot);
    FrameworkOptions o;
    o.parallelism = 1;
    o.clock = &clock;
    o.feature_gates = gates;
    auto f = Framework::Create(registry, profile, std::move(o));
    INFO(f.status().ToString());
    REQUIRE(f.ok());
    fw = *std::move(f);
  }

  struct Cycle {
    std::string host;        // "" when the pod did not fit
    size_t evaluated = 0;    // nodes the cycle filtered
    bool hinted = false;     // the pod took a kept ranking's hint
  };

  // One cycle of a pod (labelled sig=`sig` unless empty, blocking when
  // `blocking`), as the next pop of the queue (or `skip` pops later); a pod
  // that fits is then placed on its node.
  Cycle Schedule(std::string sig, bool blocking = true, std::string nominated = "", int skip = 0) {
    testing::PodBuilder b = MakePod().Name(schedkit::StrCat("p", pods++)).Req({{"cpu", "100m"}});
    if (!sig.empty()) b.Label("sig", sig);
    if (blocking) b.Label("blocking", "true");
    if (!nominated.empty()) b.NominatedNodeName(nominated);
    const PodInfoPtr pod = b.Info();
    selection.scheduling_cycle += 1 + skip;
    const int64_t before = fw->batched_pods();
    CycleState state;
    CycleTrace trace;
    const ScheduleOutcome out = fw->SchedulePod(state, pod, snapshot, selection, &trace);
    Cycle c;
    c.evaluated = trace.filter.size();
    c.hinted = fw->batched_pods() == before + 1;
    if (out.status.IsSuccess()) {
      c.host = std::string(out.result.suggested_host.str());
      REQUIRE(cluster.AddPod(pod->WithNodeName(out.result.suggested_host)).ok());
      cluster.UpdateSnapshot(snapshot);
    }
    return c;
  }
};

TEST_CASE("batch: a second pod with the same signature gets a hint", "[batch]") {
  BatchWorld w(3);
  REQUIRE(w.fw->Batches());
  auto first = w.Schedule("sig");
  CHECK(first.host == "n0");
  CHECK(first.evaluated == 3);
  auto second = w.Schedule("sig");
  CHECK(second.host == "n1");
  CHECK(second.hinted);
  CHECK(second.evaluated == 1);
}

TEST_CASE("batch: a second pod with a different signature doesn't get a hint", "[batch]") {
  BatchWorld w(3);
  w.Schedule("sig");
  auto second = w.Schedule("sig2");
  CHECK(second.host == "n1");
  CHECK_FALSE(second.hinted);
  CHECK(second.evaluated == 3);
}

TEST_CASE("batch: pod doesn't get hint if previous pod wasn't scheduled", "[batch]") {
  BatchWorld w(2);
  w.Schedule("sig", /*blocking=*/false);
  // The cycle in between fails everywhere: it stores nothing.
  w.knobs.filter_error = true;
  CHECK(w.Schedule("sig").host.empty());
  w.knobs.filter_error = false;
  auto third = w.Schedule("sig", /*blocking=*/false);
  CHECK_FALSE(third.hinted);
  CHECK(third.evaluated == 2);
}

TEST_CASE("batch: a cycle with a single feasible node keeps no ranking", "[batch]") {
  BatchWorld w(1);
  w.Schedule("sig", /*blocking=*/false);
  auto second = w.Schedule("sig", /*blocking=*/false);
  CHECK(second.host == "n0");
  CHECK_FALSE(second.hinted);
}

TEST_CASE("batch: pod doesn't get hint because the previous pod went to a different profile", "[batch]") {
  BatchWorld w(3);
  w.Schedule("sig");
  auto second = w.Schedule("sig", true, "", /*skip=*/1);
  CHECK_FALSE(second.hinted);
  CHECK(second.evaluated == 3);
}

TEST_CASE("batch: a ranking serves pod after pod until it runs out", "[batch]") {
  BatchWorld w(4);
  std::vector<std::string> hosts;
  for (int i = 0; i < 5; ++i) hosts.push_back(w.Schedule("sig").host);
  CHECK(hosts == std::vector<std::string>{"n0", "n1", "n2", "n3", ""});
  CHECK(w.fw->batched_pods() == 3);
}

TEST_CASE("batch: a second pod with a nominated node does not get a hint", "[batch]") {
  BatchWorld w(3);
  w.Schedule("sig");
  auto second = w.Schedule("sig", true, "n2");
  CHECK(second.host == "n2");
  CHECK_FALSE(second.hinted);
  // The nominated pod's cycle chose another node than the hint would: the
  // ranking is gone, and the next pod filters every node.
  auto third = w.Schedule("sig");
  CHECK_FALSE(third.hinted);
  CHECK(third.host == "n1");
}

TEST_CASE("batch: a pod without a signature neither uses nor keeps a ranking", "[batch]") {
  BatchWorld w(3);
  w.Schedule("sig");
  auto unsigned_pod = w.Schedule("");
  CHECK_FALSE(unsigned_pod.hinted);
  CHECK(unsigned_pod.host == "n1");
  CHECK_FALSE(w.Schedule("sig").hinted);
}

TEST_CASE("batch: a ranking older than 500ms is not used", "[batch]") {
  BatchWorld w(3);
  w.Schedule("sig");
  w.clock.Advance(absl::Milliseconds(501));
  CHECK_FALSE(w.Schedule("sig").hinted);
}

TEST_CASE("batch: off with the gate off, or with a plugin that cannot sign", "[batch]") {
  FeatureGates gates;
  REQUIRE(gates.Set("OpportunisticBatching=false").ok());
  BatchWorld off(3, &gates);
  CHECK_FALSE(off.fw->Batches());
  BatchWorld mixed(3, nullptr, /*with_unsigned=*/true);
  CHECK_FALSE(mixed.fw->Batches());
  for (BatchWorld* w : {&off, &mixed}) {
    w->Schedule("sig");
    CHECK_FALSE(w->Schedule("sig").hinted);
  }
}

// TestBatchRescore: non-blocking pods, so the node chosen last still fits
// and competes again with its new score.
// Three alike pods where the re-scored node loses: n0 (30) takes the first
// and falls to 15, below n1 (20), which takes the second (the ranking's
// hint); n0 is back in the ranking and takes the third, after n1 fell to 5.
// `after_first` runs between the first two cycles.
void CheckRescoredNodeLoses(BatchWorld& w, const std::function<void()>& after_first) {
  w.knobs.per_pod = 15;
  w.Schedule("sig", false);
  after_first();
  auto second = w.Schedule("sig", false);
  CHECK(second.hinted);
  CHECK(second.host == "n1");
  auto third = w.Schedule("sig", false);
  CHECK(third.hinted);
  CHECK(third.host == "n0");
}

TEST_CASE("batch: the last chosen node is re-scored", "[batch]") {
  SECTION("rescored node wins") {
    BatchWorld w(3);
    w.knobs.per_pod = 5;  // n0 falls to 25, still first
    w.Schedule("sig", false);
    auto second = w.Schedule("sig", false);
    CHECK(second.hinted);
    CHECK(second.host == "n0");
  }
  SECTION("rescored node loses") {
    BatchWorld w(3);
    CheckRescoredNodeLoses(w, [] {});
  }
}

TEST_CASE("batch: a re-score that changes no normalized column decides as a full one", "[batch]") {
  // The same pods through two frameworks whose Max plugin normalizes alike,
  // one saying it scales by the maximum (so a re-score that gives the last
  // chosen node its earlier Max score keeps every other total and pushes
  // the node back), one not (every re-score normalizes every node again).
  // Equal totals abound: Batch loses 5 per pod, ties among re-scored nodes
  // (randomizer 0) fall to the heap's layout.
  // Max's score stays, or grows by 3 with each pod on the node.
  const int64_t max_per_pod = GENERATE(0, -3);
  Knobs knobs;
  knobs.batch_normalizes = false;
  knobs.per_pod = 5;
  knobs.max_per_pod = max_per_pod;
  for (int i = 0; i < 9; ++i) {
    knobs.score[schedkit::StrCat("n", i)] = 60 - 10 * (i / 3);
    knobs.max_score[schedkit::StrCat("n", i)] = 10 * (i % 4);
  }
  Knobs full_knobs = knobs;
  full_knobs.by_maximum = false;
  BatchWorld incremental(9, nullptr, false, &knobs, true);
  BatchWorld full(9, nullptr, false, &full_knobs, true);
  int hinted = 0;
  for (int i = 0; i < 30; ++i) {
    INFO("pod " << i);
    const auto a = incremental.Schedule("sig", false);
    const auto b = full.Schedule("sig", false);
    CHECK(a.host == b.host);
    CHECK(a.hinted == b.hinted);
    hinted += a.hinted ? 1 : 0;
  }
  CHECK(hinted == 29);
  if (max_per_pod == 0) {
    // Only the first cycle's ranking normalized the Max column.
    CHECK(incremental.knobs.max_normalize_calls == 1);
    CHECK(full.knobs.max_normalize_calls == 30);
  } else {
    // Every re-score changed the last node's Max score.
    CHECK(incremental.knobs.max_normalize_calls == 30);
  }
}

TEST_CASE("batch: a pod alike to the one signed last reuses its signature", "[batch]") {
  // Alike: namespace, labels and spec equal (names differ). The signers are
  // asked again when any of them differs, and their answer is kept even
  // when it is a decline.
  BatchWorld w(3);
  REQUIRE(w.Schedule("sig", false).host == "n0");
  CHECK(w.knobs.sign_calls == 1);
  CHECK(w.Schedule("sig", false).hinted);
  CHECK(w.knobs.sign_calls == 1);
  CHECK_FALSE(w.Schedule("other", false).hinted);  // labels differ
  CHECK(w.knobs.sign_calls == 2);
  CHECK_FALSE(w.Schedule("", false).hinted);  // declined
  CHECK(w.knobs.sign_calls == 3);
  CHECK_FALSE(w.Schedule("", false).hinted);  // declined again, not asked
  CHECK(w.knobs.sign_calls == 3);

  // The spec differs: a larger request.
  const auto sign = [&](const char* name, const char* ns, const char* cpu) {
    return w.fw->SignPod(*MakePod().Name(name).Namespace(ns).Label("sig", "x").Req({{"cpu", cpu}}).Info());
  };
  const std::optional<std::string> bigger = sign("big", "default", "200m");
  REQUIRE(bigger.has_value());
  CHECK(w.knobs.sign_calls == 4);
  CHECK(sign("alike", "default", "200m") == bigger);
  CHECK(w.knobs.sign_calls == 4);
  // Another namespace.
  CHECK(sign("elsewhere", "other", "200m") == bigger);
  CHECK(w.knobs.sign_calls == 5);
}

TEST_CASE("batch: a node added between cycles leaves the ranking's nodes found", "[batch]") {
  // The ranking finds its nodes by snapshot position while the layout
  // holds, by name after a node is added (a new layout), then by the
  // positions of the new layout.
  BatchWorld w(3);
  CheckRescoredNodeLoses(w, [&w] {
    REQUIRE(w.cluster.AddNode(MakeNode().Name("a-new").Capacity({{"cpu", "4"}, {"pods", "10"}}).Ptr()).ok());
    w.cluster.UpdateSnapshot(w.snapshot);
  });
}

TEST_CASE("batch: a failing re-score gives no hint", "[batch]") {
  bool Knobs::*failure = GENERATE(&Knobs::pre_score_error, &Knobs::score_error, &Knobs::normalize_error);
  BatchWorld w(3);
  w.Schedule("sig", false);
  w.knobs.*failure = true;
  auto second = w.Schedule("sig", false);
  CHECK_FALSE(second.hinted);
  CHECK(second.evaluated == 3);
}

TEST_CASE("batch: a node of the ranking gone from the snapshot gives no hint", "[batch]") {
  SECTION("chosen node missing") {
    BatchWorld w(3);
    w.Schedule("sig", false);
    REQUIRE(w.cluster.RemoveNode("n0").ok());
    w.cluster.UpdateSnapshot(w.snapshot);
    CHECK_FALSE(w.Schedule("sig", false).hinted);
  }
  SECTION("cached node missing") {
    BatchWorld w(3);
    w.Schedule("sig", false);
    REQUIRE(w.cluster.RemoveNode("n2").ok());
    w.cluster.UpdateSnapshot(w.snapshot);
    CHECK_FALSE(w.Schedule("sig", false).hinted);
  }
}

// The layout and pop order Go's container/heap gives the same input (ties
// with randomizer 0, as upstream's re-scored nodes have): printed by a Go
// program running heap.Init, two Pops, an append, heap.Init and Pops.
TEST_CASE("batch: the ranking heap is laid out as Go's container/heap", "[batch]") {
  std::vector<RankedNode> heap;
  const std::vector<std::pair<std::string, int64_t>> input = {{"a", 5}, {"b", 5}, {"c", 7}, {"d", 5},
                                                              {"e", 7}, {"f", 5}, {"g", 3}, {"h", 5}};
  for (const auto& [name, total] : input) heap.push_back(RankedNode{Symbol::Intern(name), total, 0, 0});
  const auto names = [](const std::vector<RankedNode>& h) {
    std::string out;
    for (const RankedNode& r : h) out += r.name.str();
    return out;
  };
  GoHeapInit(heap);
  CHECK(names(heap) == "eacdbfgh");
  CHECK(GoHeapPop(heap).name.str() == "e");
  CHECK(GoHeapPop(heap).name.str() == "c");
  heap.push_back(RankedNode{Symbol::Intern("i"), 5, 0, 0});
  std::vector<RankedNode> pushed(heap.begin(), heap.end() - 1);
  GoHeapInit(heap);
  GoHeapPush(pushed, RankedNode{Symbol::Intern("i"), 5, 0, 0});
  CHECK(names(pushed) == names(heap));
  std::string order;
  while (!heap.empty()) order += GoHeapPop(heap).name.str();
  CHECK(order == "aifbdhg");
}

TEST_CASE("batch: pushing onto a heap lays it out as Init after an append", "[batch]") {
  // Random heaps with many equal (total, randomizer) pairs: Push, which a
  // re-score that changes no other total uses, against Init, which
  // upstream runs over the whole ranking.
  std::mt19937 rng(20261207);
  for (int round = 0; round < 500; ++round) {
    std::vector<RankedNode> heap;
    const int n = static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) {
      heap.push_back(RankedNode{Symbol(), static_cast<int64_t>(rng() % 4), static_cast<int64_t>(rng() % 3), i});
    }
    GoHeapInit(heap);
    for (int pops = static_cast<int>(rng() % 3); pops > 0 && !heap.empty(); --pops) GoHeapPop(heap);
    const RankedNode added{Symbol(), static_cast<int64_t>(rng() % 4), static_cast<int64_t>(rng() % 3), 1000};
    std::vector<RankedNode> pushed = heap;
    GoHeapPush(pushed, added);
    heap.push_back(added);
    GoHeapInit(heap);
    INFO("round " << round);
    REQUIRE(pushed.size() == heap.size());
    for (size_t i = 0; i < heap.size(); ++i) CHECK(pushed[i].row == heap[i].row);
  }
}

}  // namespace
}  // namespace schedkit::framework
