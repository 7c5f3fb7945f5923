// PodTopologySpread keeps per-domain counts across cycles and recounts only
// the nodes that changed (domain_counts.h). These tests change a cluster at
// random, one step at a time, and check after every step that a plugin that
// has followed every change agrees with one that recounts everything.
#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "test_util.h"
#include "testing/plugin_scores.h"

namespace schedkit::plugins::pts_test {
namespace {

using framework::CycleState;
using framework::NodeInfo;
using framework::PodInfoPtr;

constexpr char kRack[] = "example.com/rack";

// The incoming pods: some share a query, some need the uncached path
// (node affinity, a taints policy), one uses the System defaults.
std::vector<PodInfoPtr> IncomingPods() {
  const auto foo_ab = MakeLabelSelector().In("foo", {"a", "b"}).Obj();
  const auto bar = MakeLabelSelector().Exists("bar").Obj();
  return {
      MakePod().Name("p1").Namespace("ns1").Label("foo", "a")
          .SpreadConstraint(1, kZone, kDoNotSchedule, foo_ab)
          .SpreadConstraint(2, kHostname, kScheduleAnyway, foo_ab).Info(),
      MakePod().Name("p2").Namespace("ns1").Label("foo", "b")
          .SpreadConstraint(1, kZone, kDoNotSchedule, foo_ab)
          .SpreadConstraint(2, kHostname, kScheduleAnyway, foo_ab).Info(),
      MakePod().Name("p3").Namespace("ns2").Label("bar", "x")
          .SpreadConstraint(1, kHostname, kDoNotSchedule, bar)
          .SpreadConstraint(3, kRack, kScheduleAnyway, bar, 4).Info(),
      MakePod().Name("p4").Namespace("ns1").NodeAffinityIn(kZone, {"z1", "z2"})
          .SpreadConstraint(1, kZone, kDoNotSchedule, foo_ab)
          .SpreadConstraint(1, kZone, kScheduleAnyway, foo_ab).Info(),
      MakePod().Name("p5").Namespace("ns1")
          .SpreadConstraint(1, kZone, kDoNotSchedule, foo_ab, kNil, kHonor, kHonor).Info(),
      MakePod().Name("p7").Namespace("ns1").Label("foo", "a")
          .SpreadConstraint(2, kRack, kDoNotSchedule, foo_ab)
          .SpreadConstraint(1, kHostname, kDoNotSchedule, foo_ab).Info(),
      MakePod().Name("p6").Namespace("ns1").Label("foo", "a")
          .SpreadConstraint(1, kZone, kScheduleAnyway, MakeLabelSelector().Obj()).Info(),
  };
}

class RandomCluster {
 public:
  explicit RandomCluster(uint32_t seed) : rng_(seed) {}

  std::vector<api::v1::Node> Nodes(int n) {
    std::vector<api::v1::Node> out;
    for (int i = 0; i < n; ++i) out.push_back(RandomNode("n" + std::to_string(i)));
    return out;
  }

  // A node in a random zone, or in `zone` if given ("" for none).
  api::v1::Node RandomNode(const std::string& name, std::optional<std::string> zone = std::nullopt) {
    auto b = MakeNode().Name(name).Label(kHostname, name);
    if (!zone) {
      const int z = Pick(5);  // 4: no zone label
      zone = z < 4 ? "z" + std::to_string(z % 3) : "";
    }
    if (!zone->empty()) b.Label(kZone, *zone);
    // Racks change without moving the node in the zone order, so relabelling
    // one exercises the incremental path (a zone change reorders the nodes).
    const int rack = Pick(4);  // 3: no rack label
    if (rack < 3) b.Label(kRack, "r" + std::to_string(rack));
    if (Pick(6) == 0) b.Taint("dedicated", "x", "NoSchedule");
    return b.Obj();
  }

  api::v1::Pod RandomPod(const std::string& node) {
    auto b = MakePod().Name("e" + std::to_string(next_pod_++)).Namespace(Pick(3) == 0 ? "ns2" : "ns1").Node(node);
    const int foo = Pick(4);
    if (foo < 3) b.Label("foo", std::string(1, static_cast<char>('a' + foo)));
    if (Pick(2) == 0) b.Label("bar", "x");
    if (Pick(8) == 0) b.Terminating();
    return b.Obj();
  }

  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

 private:
  std::mt19937 rng_;
  int next_pod_ = 0;
};

void RequireSamePreFilterState(const PodTopologySpread::PreFilterState& got,
                               const PodTopologySpread::PreFilterState& want) {
  REQUIRE(got.tp_value_to_match_num == want.tp_value_to_match_num);
  REQUIRE(got.critical_paths.size() == want.critical_paths.size());
  for (size_t i = 0; i < want.critical_paths.size(); ++i) {
    for (size_t j = 0; j < 2; ++j) {
      REQUIRE(got.critical_paths[i].paths[j].topology_value == want.critical_paths[i].paths[j].topology_value);
      REQUIRE(got.critical_paths[i].paths[j].match_num == want.critical_paths[i].paths[j].match_num);
    }
  }
}


}  // namespace

TEST_CASE("PodTopologySpread: counts kept across cycles equal a full recount after every change",
          "[podtopologyspread][cache]") {
  for (uint32_t seed : {1u, 2u, 3u}) {
    CAPTURE(seed);
    RandomCluster random(seed);
    testing::FakeHandle h(/*parallelism=*/2);
    std::vector<api::v1::Node> nodes = random.Nodes(12);
    std::vector<api::v1::Pod> pods;
    for (int i = 0; i < 30; ++i) pods.push_back(random.RandomPod(nodes[random.Pick(12)].metadata().name()));
    h.SetCluster(nodes, pods);
    auto make_plugin = [&](bool keep_counts) {
      PodTopologySpreadOptions options;  // v1.35's feature defaults
      options.keep_counts_across_cycles = keep_counts;
      auto plugin = NewPodTopologySpreadWithOptions(framework::PluginArgs(kSystemDefaulting), h, options);
      REQUIRE(plugin.ok());
      return std::unique_ptr<PodTopologySpread>(dynamic_cast<PodTopologySpread*>(plugin->release()));
    };
    auto kept = make_plugin(true);
    auto uncached = make_plugin(false);
    const std::vector<PodInfoPtr> incoming = IncomingPods();
    int next_node = 12;

    for (int step = 0; step < 150; ++step) {
      CAPTURE(step);
      framework::ClusterState& cluster = h.state();
      const auto snapshot_nodes = h.snapshot().nodes();
      const int action = random.Pick(12);
      if (action < 4 || pods.empty()) {  // a pod lands
        const std::string node(snapshot_nodes[random.Pick(static_cast<int>(snapshot_nodes.size()))]->name().str());
        pods.push_back(random.RandomPod(node));
        REQUIRE(cluster.AddPod(*framework::PodInfo::Create(pods.back())).ok());
      } else if (action < 7) {  // a pod goes
        const int i = random.Pick(static_cast<int>(pods.size()));
        REQUIRE(cluster.RemovePod(**framework::PodInfo::Create(pods[i])).ok());
        pods.erase(pods.begin() + i);
      } else if (action < 10) {  // a node gets a new rack or taint, staying in its zone
        const NodeInfo& node = *snapshot_nodes[random.Pick(static_cast<int>(snapshot_nodes.size()))];
        const std::string zone(node.labels().Get(Symbol::Intern(kZone)).value_or(Symbol()).str());
        const std::string name(node.name().str());
        REQUIRE(cluster.UpdateNode(std::make_shared<const api::v1::Node>(random.RandomNode(name, zone))).ok());
      } else if (action < 11) {  // a node moves zone (the node order changes)
        const std::string name(snapshot_nodes[random.Pick(static_cast<int>(snapshot_nodes.size()))]->name().str());
        REQUIRE(cluster.UpdateNode(std::make_shared<const api::v1::Node>(random.RandomNode(name))).ok());
      } else {  // a node joins (the node order changes)
        const std::string name = "n" + std::to_string(next_node++);
        REQUIRE(cluster.AddNode(std::make_shared<const api::v1::Node>(random.RandomNode(name))).ok());
      }
      h.Refresh();

      const std::span<const NodeInfo* const> all = h.snapshot().nodes();
      for (const PodInfoPtr& pod : incoming) {
        CAPTURE(pod->name().str());
        CycleState got_state, want_state;
        const auto got = kept->PreFilter(got_state, *pod, all);
        const auto want = uncached->PreFilter(want_state, *pod, all);
        REQUIRE(got.status.code() == want.status.code());
        if (want.status.IsSuccess()) {
          RequireSamePreFilterState(*got_state.Read<PodTopologySpread::PreFilterState>(
                                        PodTopologySpread::PreFilterStateKey()),
                                    *want_state.Read<PodTopologySpread::PreFilterState>(
                                        PodTopologySpread::PreFilterStateKey()));
        }
        REQUIRE(testing::NormalizedScores(*kept, *pod, all) == testing::NormalizedScores(*uncached, *pod, all));
        std::vector<const NodeInfo*> every_other;
        for (size_t i = 0; i < all.size(); i += 2) every_other.push_back(all[i]);
        REQUIRE(testing::NormalizedScores(*kept, *pod, every_other) ==
                testing::NormalizedScores(*uncached, *pod, every_other));
      }
    }
  }
}

}  // namespace schedkit::plugins::pts_test
