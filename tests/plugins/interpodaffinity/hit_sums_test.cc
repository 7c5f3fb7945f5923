// InterPodAffinity keeps its per-topology counts across cycles and redoes
// only the nodes that changed (hit_sums.h). This test changes a cluster at
// random, one step at a time, and checks after every step that a plugin that
// has followed every change agrees with a new one, which counts every node.
#include <catch2/catch.hpp>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "test_util.h"
#include "testing/plugin_scores.h"

namespace schedkit::ipa_test {
namespace {

using framework::CycleState;
using framework::NodeInfo;
using framework::PodInfoPtr;
using plugins::interpodaffinity::PreFilterState;

constexpr char kHostname[] = "kubernetes.io/hostname";
constexpr char kZone[] = "topology.kubernetes.io/zone";
constexpr char kRack[] = "example.com/rack";

api::v1::LabelSelector Color(const std::string& color) { return Sel({{"color", "In", {color}}}); }

// Keys that only some existing pods' terms select on, first named at random
// steps: the caches key incoming pods by their labels under the keys some
// term names (AffinityLabelKeys), a set that grows as those pods come. The
// prefix keeps them apart from every other test's in this process.
std::string LateKey(int j) { return "hit-sums-test.example.com/k" + std::to_string(j); }
constexpr int kLateKeys = 12;

// Incoming pods shaped like upstream's scheduler_perf templates, plus a
// namespace selector, which reads namespace labels. Each also carries a label
// of its own (`idx`, which no term names) and a random late key, so pods of
// one shape differ from step to step the way replicas' labels do.
std::vector<PodInfoPtr> IncomingPods(int step, int late_key) {
  const auto team1 = Sel({{"team", "In", {"team1"}}});
  auto pod = [&](const char* name, const char* ns, const char* color) {
    return Pod().Name(name).Namespace(ns).Label("color", color).Label("idx", std::to_string(step))
        .Label(LateKey(late_key), "on");
  };
  return {
      Info(pod("anti", "ns1", "green").PodAntiAffinity(kRequired, Term(Color("green"), kHostname)).Obj()),
      Info(pod("affinity", "ns1", "blue").PodAffinity(kRequired, Term(Color("blue"), kRack)).Obj()),
      Info(pod("preferred", "ns2", "red")
               .PodAffinity(kPreferred, Term(Color("red"), kHostname), 3)
               .PodAntiAffinity(kPreferred, Term(Color("yellow"), kZone), 5).Obj()),
      Info(pod("plain", "ns1", "green").Obj()),
      Info(pod("by-team", "ns2", "yellow").PodAntiAffinity(kRequired, Term(Color("green"), kRack, {}, team1)).Obj()),
  };
}

class RandomCluster {
 public:
  explicit RandomCluster(uint32_t seed) : rng_(seed) {}

  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  // A node in `zone` ("" for none), with a random rack (or none).
  api::v1::Node RandomNode(const std::string& name, const std::string& zone) {
    LabelMap labels{{kHostname, name}};
    if (!zone.empty()) labels[kZone] = zone;
    if (const int rack = Pick(4); rack < 3) labels[kRack] = "r" + std::to_string(rack);
    return Node(name, labels);
  }
  std::string RandomZone() {
    const int z = Pick(4);
    return z < 3 ? "z" + std::to_string(z) : "";
  }

  // An existing pod: a random colour, sometimes terms of its own.
  api::v1::Pod RandomPod(const std::string& node) {
    static const char* kColors[] = {"green", "blue", "red", "yellow"};
    auto b = Pod().Name("e" + std::to_string(next_pod_++)).Namespace(Pick(2) == 0 ? "ns1" : "ns2").Node(node);
    b.Label("color", kColors[Pick(4)]);
    const auto late = Sel({{LateKey(Pick(kLateKeys)), "In", {"on"}}});
    switch (Pick(8)) {
      case 0: b.PodAntiAffinity(kRequired, Term(Color("green"), kHostname)); break;
      case 6: b.PodAntiAffinity(kRequired, Term(late, kZone)); break;
      case 7: b.PodAffinity(kPreferred, Term(late, kHostname), 3); break;
      case 1: b.PodAffinity(kRequired, Term(Color("blue"), kZone)); break;
      case 2: b.PodAffinity(kPreferred, Term(Color("red"), kRack), 2); break;
      case 3: b.PodAntiAffinity(kPreferred, Term(Color("yellow"), kHostname), 4); break;
      default: break;
    }
    return b.Obj();
  }

 private:
  std::mt19937 rng_;
  int next_pod_ = 0;
};


}  // namespace

TEST_CASE("InterPodAffinity: counts kept across cycles equal a full count after every change",
          "[interpodaffinity][cache]") {
  for (uint32_t seed : {1u, 2u, 3u}) {
    CAPTURE(seed);
    RandomCluster random(seed);
    testing::FakeHandle h(/*parallelism=*/2);
    std::vector<api::v1::Node> nodes;
    for (int i = 0; i < 12; ++i) nodes.push_back(random.RandomNode("n" + std::to_string(i), random.RandomZone()));
    std::vector<api::v1::Pod> pods;
    for (int i = 0; i < 30; ++i) pods.push_back(random.RandomPod(nodes[random.Pick(12)].metadata().name()));
    h.SetCluster(nodes, pods, {Namespace("ns1", {{"team", "team1"}}), Namespace("ns2", {{"team", "team2"}})});
    auto kept = NewPlugin(h);
    int next_node = 12;

    for (int step = 0; step < 150; ++step) {
      CAPTURE(step);
      framework::ClusterState& cluster = h.state();
      const auto snapshot_nodes = h.snapshot().nodes();
      const NodeInfo& some_node = *snapshot_nodes[random.Pick(static_cast<int>(snapshot_nodes.size()))];
      const std::string some_name(some_node.name().str());
      const int action = random.Pick(12);
      if (action < 5 || pods.empty()) {  // a pod lands
        pods.push_back(random.RandomPod(some_name));
        REQUIRE(cluster.AddPod(Info(pods.back())).ok());
      } else if (action < 8) {  // a pod goes
        const int i = random.Pick(static_cast<int>(pods.size()));
        REQUIRE(cluster.RemovePod(*Info(pods[i])).ok());
        pods.erase(pods.begin() + i);
      } else if (action < 10) {  // a node gets a new rack, staying in its zone
        const std::string zone(some_node.labels().Get(Symbol::Intern(kZone)).value_or(Symbol()).str());
        REQUIRE(cluster.UpdateNode(std::make_shared<const api::v1::Node>(random.RandomNode(some_name, zone))).ok());
      } else if (action < 11) {  // a node joins (the node order changes)
        const std::string name = "n" + std::to_string(next_node++);
        REQUIRE(cluster.AddNode(std::make_shared<const api::v1::Node>(random.RandomNode(name, random.RandomZone())))
                    .ok());
      } else {  // namespace labels change
        cluster.SetNamespace(Namespace("ns2", {{"team", random.Pick(2) == 0 ? "team1" : "team2"}}));
      }
      h.Refresh();

      auto fresh = NewPlugin(h);
      const std::span<const NodeInfo* const> all = h.snapshot().nodes();
      for (const PodInfoPtr& pod : IncomingPods(step, random.Pick(kLateKeys))) {
        CAPTURE(pod->name().str());
        CycleState got_state, want_state;
        const auto got = kept->PreFilter(got_state, *pod, all);
        const auto want = fresh->PreFilter(want_state, *pod, all);
        REQUIRE(got.status.code() == want.status.code());
        if (want.status.IsSuccess()) {
          const auto* g = got_state.Read<PreFilterState>(Symbol::Intern("PreFilterInterPodAffinity"));
          const auto* w = want_state.Read<PreFilterState>(Symbol::Intern("PreFilterInterPodAffinity"));
          REQUIRE(g->existing_anti_affinity.ToMap() == w->existing_anti_affinity.ToMap());
          REQUIRE(g->affinity.ToMap() == w->affinity.ToMap());
          REQUIRE(g->anti_affinity.ToMap() == w->anti_affinity.ToMap());
          // The plugin's own uncached count (its public test hook) agrees too.
          const auto [affinity, anti_affinity] = kept->IncomingAffinityCounts(*pod, all);
          REQUIRE(g->affinity.ToMap() == affinity.ToMap());
          REQUIRE(g->anti_affinity.ToMap() == anti_affinity.ToMap());
        }
        REQUIRE(testing::NormalizedScores(*kept, *pod, all) == testing::NormalizedScores(*fresh, *pod, all));
      }
    }
  }
}

}  // namespace schedkit::ipa_test
