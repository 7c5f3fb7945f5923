// The outcome memo with the in-tree plugins: a framework that reuses per-node
// outcomes decides every cycle exactly as one that recomputes them, over a
// randomized run of replicas of a few templates on a changing cluster (pods
// placed and removed, nodes relabelled, retainted, added and removed,
// nominations), with adaptive sampling and with every node scored; and
// every outcome it reuses, recomputed, is the same
// (FrameworkOptions::check_per_node_outcomes).
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "schedkit/base/str_cat.h"
#include "schedkit/config/configuration.h"
#include "schedkit/framework/framework.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/testing/builders.h"
#include "framework/cycle_bookkeeping.h"

namespace schedkit {
namespace {

using framework::Framework;
using framework::PodInfoPtr;
using testing::MakeNode;
using testing::MakePod;

class Randomized {
 public:
  explicit Randomized(uint64_t seed) : rng_(seed) {}

  bool Chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  template <typename T>
  const T& PickOf(const std::vector<T>& v) {
    return v[static_cast<size_t>(Pick(static_cast<int>(v.size())))];
  }

  std::shared_ptr<const api::v1::Node> Node(const std::string& name) {
    auto b = MakeNode().Name(name).Labels({{"topology.kubernetes.io/zone", PickOf<std::string>({"z0", "z1", "z2"})},
                                           {"kubernetes.io/hostname", name},
                                           {"disk", PickOf<std::string>({"ssd", "hdd"})},
                                           {"tier", PickOf<std::string>({"a", "b", "c"})}});
    b.Capacity({{"cpu", PickOf<std::string>({"2", "4", "8"})},
                {"memory", PickOf<std::string>({"4Gi", "8Gi", "16Gi"})},
                {"pods", PickOf<std::string>({"4", "110"})}});
    if (Chance(0.2)) b.Taint("dedicated", PickOf<std::string>({"x", "y"}), PickOf<std::string>({"NoSchedule", "PreferNoSchedule"}));
    if (Chance(0.3)) b.Image({"registry.example/app-a:1"}, 300 << 20);
    if (Chance(0.2)) b.Image({"registry.example/app-b:1"}, 800 << 20);
    if (Chance(0.04)) b.Unschedulable();
    return b.Ptr();
  }

  // A template: what its replicas share; `index` names its app label.
  testing::PodBuilder Template(int index) {
    const std::string app = schedkit::StrCat("t", index);
    auto b = MakePod().Namespace(PickOf<std::string>({"default", "batch"})).Label("app", app);
    b.Container(PickOf<std::string>({"registry.example/app-a:1", "registry.example/app-b:1", "nginx"}));
    b.Req({{"cpu", PickOf<std::string>({"100m", "500m", "1", "1500m"})},
           {"memory", PickOf<std::string>({"128Mi", "512Mi", "2Gi"})}});
    if (Chance(0.3)) b.Priority(PickOf<int>({10, 100}));
    if (Chance(0.2)) b.NodeSelector({{"disk", "ssd"}});
    if (Chance(0.3)) b.Toleration("dedicated", "Exists");
    if (Chance(0.2)) b.NodeAffinityIn("tier", {"a", "b"});
    if (Chance(0.3)) {
      api::v1::NodeSelectorTerm term;
      auto* e = term.add_match_expressions();
      e->set_key("tier");
      e->set_operator_("In");
      e->add_values("c");
      b.PreferredNodeAffinity(PickOf<int>({1, 50}), term);
    }
    if (Chance(0.15)) b.HostPort(8080);
    // Plugins that are not per node beside the memo: its passes must
    // still leave their verdicts and scores to them.
    if (Chance(0.12)) b.PodAntiAffinityIn("app", "kubernetes.io/hostname", {app}, testing::AffinityKind::kRequired);
    if (Chance(0.12)) {
      b.SpreadConstraint(1, "topology.kubernetes.io/zone", PickOf<std::string>({"DoNotSchedule", "ScheduleAnyway"}),
                         testing::Selector({{"app", app}}));
    }
    return b;
  }

 private:
  std::mt19937_64 rng_;
};

struct Pair {
  std::unique_ptr<Framework> with_memo, without;
  framework::SelectionState sel_memo, sel_plain;
};

Pair MakePair(const framework::Registry& registry, int32_t percentage) {
  config::SchedulerConfiguration cfg = config::DefaultConfiguration();
  auto make = [&](bool memoize) {
    framework::FrameworkOptions o;
    o.parallelism = 2;
    o.percentage_of_nodes_to_score = percentage;
    o.memoize_per_node_outcomes = memoize;
    // Every in-tree per-node plugin keeps its promise: each reused outcome,
    // recomputed, is the same.
    o.check_per_node_outcomes = [](std::string_view mismatch) { FAIL_CHECK(std::string(mismatch)); };
    auto f = Framework::Create(registry, cfg.profiles[0], std::move(o));
    INFO(f.status().ToString());
    REQUIRE(f.ok());
    return *std::move(f);
  };
  Pair p{make(true), make(false), {}, {}};
  p.sel_memo.tie_break = p.sel_plain.tie_break = framework::TieBreak::kLowestName;
  return p;
}

TEST_CASE("Outcome memo: the default profile decides as without it over a changing cluster",
          "[integration][memo]") {
  const uint64_t seed = GENERATE(1, 2, 3);
  INFO("seed " << seed);
  Randomized r(seed);
  const framework::Registry registry = plugins::NewInTreeRegistry();
  std::vector<Pair> pairs;
  pairs.push_back(MakePair(registry, 0));    // adaptive: 100 of 120 nodes
  pairs.push_back(MakePair(registry, 100));  // every node scored

  framework::ClusterState state;
  framework::Snapshot snapshot;
  std::vector<std::string> nodes;
  int next_node = 0;
  for (; next_node < 120; ++next_node) {
    nodes.push_back(schedkit::StrCat("node-", next_node));
    REQUIRE(state.AddNode(r.Node(nodes.back())).ok());
  }
  std::vector<testing::PodBuilder> templates;
  for (int t = 0; t < 6; ++t) templates.push_back(r.Template(t));
  std::vector<PodInfoPtr> placed;
  int scheduled = 0, unschedulable = 0;

  for (int step = 0; step < 2000; ++step) {
    state.UpdateSnapshot(snapshot);
    INFO("step " << step);
    const double what = r.Pick(100) / 100.0;
    if (what < 0.70) {
      const size_t t = static_cast<size_t>(r.Pick(static_cast<int>(templates.size())));
      const std::string name = schedkit::StrCat("p", step);
      const PodInfoPtr pod = testing::PodBuilder(templates[t]).Name(name).UID(name).Info();
      std::shared_ptr<const framework::NominatedPodsSnapshot> nominated;
      if (r.Chance(0.1)) {
        framework::NominatedPodsSnapshot::ByNode by_node;
        by_node[Symbol::Intern(r.PickOf(nodes))] = std::make_shared<const std::vector<PodInfoPtr>>(
            1, MakePod().Name("nominee").UID("nominee").Priority(1000).Req({{"cpu", "1500m"}}).Info());
        nominated = std::make_shared<const framework::NominatedPodsSnapshot>(std::move(by_node));
      }
      std::string chosen;
      for (Pair& p : pairs) {
        framework::CycleState s1, s2;
        if (nominated) {
          framework::CycleBookkeeping::SetNominatedPods(s1, nominated);
          framework::CycleBookkeeping::SetNominatedPods(s2, nominated);
        }
        const framework::ScheduleOutcome a = p.with_memo->SchedulePod(s1, pod, snapshot, p.sel_memo);
        const framework::ScheduleOutcome b = p.without->SchedulePod(s2, pod, snapshot, p.sel_plain);
        REQUIRE(a.status.code() == b.status.code());
        REQUIRE(a.result.suggested_host == b.result.suggested_host);
        REQUIRE(a.result.evaluated_nodes == b.result.evaluated_nodes);
        REQUIRE(a.result.feasible_nodes == b.result.feasible_nodes);
        REQUIRE(p.sel_memo.next_start_node_index == p.sel_plain.next_start_node_index);
        REQUIRE((a.fit_error == nullptr) == (b.fit_error == nullptr));
        if (a.fit_error) REQUIRE(a.fit_error->Message() == b.fit_error->Message());
        if (chosen.empty() && a.status.IsSuccess()) chosen = std::string(a.result.suggested_host.str());
      }
      if (chosen.empty()) {
        ++unschedulable;
      } else {
        ++scheduled;
        placed.push_back(testing::PodBuilder(templates[t]).Name(name).UID(name).Node(chosen).Info());
        REQUIRE(state.AddPod(placed.back()).ok());
      }
    } else if (what < 0.82) {
      if (placed.empty()) continue;
      const size_t k = static_cast<size_t>(r.Pick(static_cast<int>(placed.size())));
      REQUIRE(state.RemovePod(*placed[k]).ok());
      placed.erase(placed.begin() + static_cast<long>(k));
    } else if (what < 0.92) {
      REQUIRE(state.UpdateNode(r.Node(r.PickOf(nodes))).ok());
    } else if (what < 0.96) {
      nodes.push_back(schedkit::StrCat("node-", next_node++));
      REQUIRE(state.AddNode(r.Node(nodes.back())).ok());
    } else if (nodes.size() > 100) {
      const size_t k = static_cast<size_t>(r.Pick(static_cast<int>(nodes.size())));
      REQUIRE(state.RemoveNode(nodes[k]).ok());
      nodes.erase(nodes.begin() + static_cast<long>(k));
    }
  }
  // The run must have exercised both outcomes.
  CHECK(scheduled > 300);
  CHECK(unschedulable > 0);
}

}  // namespace
}  // namespace schedkit
