// Snapshot and ClusterState: zone round-robin order, incremental updates that
// copy only changed nodes, ghosts, image counts.
#include <algorithm>
#include <catch2/catch.hpp>
#include <random>

#include "schedkit/api/v1/kinds.h"
#include "schedkit/api/lister.h"
#include "schedkit/base/symbol.h"
#include "schedkit/framework/snapshot.h"
#include "plugins/internal/node_changes.h"
#include "schedkit/testing/builders.h"

namespace schedkit::framework {
namespace {

using testing::MakeNode;
using testing::MakePod;

std::shared_ptr<const api::v1::Node> Node(const std::string& name, const std::string& zone) {
  auto b = MakeNode().Name(name).Capacity({{"cpu", "4"}, {"memory", "8Gi"}, {"pods", "110"}});
  if (!zone.empty()) b.Label("topology.kubernetes.io/zone", zone);
  return b.Ptr();
}

std::vector<std::string> Names(const Snapshot& s) {
  std::vector<std::string> out;
  for (const NodeInfo* n : s.nodes()) out.emplace_back(n->name().str());
  return out;
}

TEST_CASE("node order interleaves zones round-robin", "[snapshot]") {
  // upstream node_tree_test: zone A [a1 a2 a3], zone B [b1] → a1 b1 a2 a3.
  ClusterState state;
  for (auto [n, z] : std::vector<std::pair<std::string, std::string>>{
           {"a1", "A"}, {"a2", "A"}, {"b1", "B"}, {"a3", "A"}, {"c1", ""}, {"c2", ""}}) {
    REQUIRE(state.AddNode(Node(n, z)).ok());
  }
  Snapshot snap;
  state.UpdateSnapshot(snap);
  CHECK(Names(snap) == std::vector<std::string>{"a1", "b1", "c1", "a2", "c2", "a3"});
  CHECK(snap.NumNodes() == 6);
  CHECK(snap.Get("b1") != nullptr);
  CHECK(snap.IndexOf(Symbol::Intern("a2")) == 3);
}

TEST_CASE("incremental update copies only changed nodes", "[snapshot]") {
  ClusterState state;
  for (int i = 0; i < 50; ++i) REQUIRE(state.AddNode(Node("n" + std::to_string(i), "z" + std::to_string(i % 3))).ok());
  Snapshot snap;
  state.UpdateSnapshot(snap);
  CHECK(snap.last_update_copies() == 50);
  const NodeInfo* n7 = snap.Get("n7");

  state.UpdateSnapshot(snap);
  CHECK(snap.last_update_copies() == 0);

  REQUIRE(state.AddPod(MakePod().Name("p1").Node("n7").Req({{"cpu", "1"}}).Info()).ok());
  REQUIRE(state.AddPod(MakePod().Name("p2").Node("n9").Req({{"cpu", "1"}}).Info()).ok());
  REQUIRE(state.AddPod(MakePod().Name("p3").Node("n7").Req({{"cpu", "1"}}).Info()).ok());
  state.UpdateSnapshot(snap);
  CHECK(snap.last_update_copies() == 2);
  CHECK(snap.Get("n7") == n7);  // updated in place: pointers stay valid
  CHECK(n7->requested().milli_cpu == 2000);
  CHECK(snap.Get("n9")->num_pods() == 1);
  CHECK(snap.Get("n8")->num_pods() == 0);
  CHECK(*snap.Get("n7") == *state.GetNodeInfo(Symbol::Intern("n7")));
}

// Not upstream: NodeInfos lie in one array in node order, so a filter pass
// reads memory forward; a new layout moves unchanged NodeInfos instead of
// copying them, and equals a snapshot built afresh.
TEST_CASE("NodeInfos are laid out in node order; a new layout copies only changed nodes", "[snapshot]") {
  ClusterState state;
  for (int i = 0; i < 30; ++i) REQUIRE(state.AddNode(Node("n" + std::to_string(i), "z" + std::to_string(i % 4))).ok());
  Snapshot snap;
  state.UpdateSnapshot(snap);
  auto contiguous = [](const Snapshot& s) {
    for (int i = 1; i < s.NumNodes(); ++i) {
      if (s.nodes()[i] != s.nodes()[i - 1] + 1) return false;
    }
    return true;
  };
  CHECK(contiguous(snap));

  REQUIRE(state.AddPod(MakePod().Name("p1").Node("n3").Req({{"cpu", "1"}}).Info()).ok());
  REQUIRE(state.AddNode(Node("late", "z1")).ok());
  REQUIRE(state.RemoveNode("n5").ok());
  state.UpdateSnapshot(snap);
  CHECK(snap.last_update_copies() == 2);  // n3 and the new node; the rest moved
  CHECK(contiguous(snap));
  Snapshot fresh;
  state.UpdateSnapshot(fresh);
  REQUIRE(Names(snap) == Names(fresh));
  for (int i = 0; i < snap.NumNodes(); ++i) {
    CHECK(*snap.nodes()[i] == *fresh.nodes()[i]);
    CHECK(snap.Get(snap.nodes()[i]->name()) == snap.nodes()[i]);
    CHECK(snap.node_generations()[i] == snap.nodes()[i]->generation());
  }
  CHECK(snap.Get("n3")->requested().milli_cpu == 1000);
  CHECK(snap.Get("n5") == nullptr);
}

TEST_CASE("added and removed nodes change the list; ghosts stay out", "[snapshot]") {
  ClusterState state;
  REQUIRE(state.AddNode(Node("a", "z1")).ok());
  REQUIRE(state.AddNode(Node("b", "z2")).ok());
  auto pod = MakePod().Name("p").Node("b").Info();
  REQUIRE(state.AddPod(pod).ok());
  Snapshot snap;
  state.UpdateSnapshot(snap);
  CHECK(Names(snap) == std::vector<std::string>{"a", "b"});

  REQUIRE(state.RemoveNode("b").ok());  // still has a pod: becomes a ghost
  REQUIRE(state.AddNode(Node("c", "z1")).ok());
  state.UpdateSnapshot(snap);
  CHECK(Names(snap) == std::vector<std::string>{"a", "c"});
  CHECK(snap.Get("b") == nullptr);
  CHECK(state.NumNodes() == 2);
  REQUIRE(state.GetNodeInfo(Symbol::Intern("b")) != nullptr);

  REQUIRE(state.RemovePod(*pod).ok());  // the ghost goes with its last pod
  CHECK(state.GetNodeInfo(Symbol::Intern("b")) == nullptr);
  REQUIRE(state.AddNode(Node("b", "z2")).ok());
  state.UpdateSnapshot(snap);
  CHECK(Names(snap) == std::vector<std::string>{"a", "b", "c"});
  CHECK_FALSE(state.AddNode(Node("b", "z2")).ok());  // duplicate
  CHECK(absl::IsNotFound(state.RemoveNode("zzz")));
}

TEST_CASE("a node moving zones is reordered", "[snapshot]") {
  ClusterState state;
  REQUIRE(state.AddNode(Node("a1", "A")).ok());
  REQUIRE(state.AddNode(Node("a2", "A")).ok());
  REQUIRE(state.AddNode(Node("b1", "B")).ok());
  Snapshot snap;
  state.UpdateSnapshot(snap);
  CHECK(Names(snap) == std::vector<std::string>{"a1", "b1", "a2"});
  REQUIRE(state.UpdateNode(Node("a1", "B")).ok());
  state.UpdateSnapshot(snap);
  CHECK(Names(snap) == std::vector<std::string>{"a2", "b1", "a1"});
  CHECK(snap.last_update_copies() == 1);
}

TEST_CASE("affinity lists and image counts follow pods and nodes", "[snapshot]") {
  ClusterState state;
  REQUIRE(state.AddNode(MakeNode().Name("n1").Image({"img:1"}, 100).Ptr()).ok());
  REQUIRE(state.AddNode(MakeNode().Name("n2").Image({"img:1", "other:2"}, 100).Ptr()).ok());
  Snapshot snap;
  state.UpdateSnapshot(snap);
  CHECK(snap.ImageNumNodes(Symbol::Intern("img:1")) == 2);
  CHECK(snap.ImageNumNodes(Symbol::Intern("other:2")) == 1);
  CHECK(snap.have_pods_with_affinity().empty());

  auto affine = MakePod().Name("x").Node("n2").PodAntiAffinityExists("a", "b", testing::AffinityKind::kRequired).Info();
  REQUIRE(state.AddPod(affine).ok());
  REQUIRE(state.UpdateNode(MakeNode().Name("n1").Ptr()).ok());  // image gone
  state.UpdateSnapshot(snap);
  CHECK(snap.ImageNumNodes(Symbol::Intern("img:1")) == 1);
  REQUIRE(snap.have_pods_with_affinity().size() == 1);
  CHECK(snap.have_pods_with_required_anti_affinity()[0]->name() == Symbol::Intern("n2"));
  REQUIRE(state.RemovePod(*affine).ok());
  state.UpdateSnapshot(snap);
  CHECK(snap.have_pods_with_required_anti_affinity().empty());
}

TEST_CASE("per-position generations and the layout id track changes", "[snapshot]") {
  ClusterState state;
  for (int i = 0; i < 6; ++i) REQUIRE(state.AddNode(Node("n" + std::to_string(i), "z" + std::to_string(i % 2))).ok());
  Snapshot snap;
  state.UpdateSnapshot(snap);
  auto generations_match = [&] {
    REQUIRE(snap.node_generations().size() == snap.nodes().size());
    for (size_t i = 0; i < snap.nodes().size(); ++i) {
      if (snap.node_generations()[i] != snap.nodes()[i]->generation()) return false;
    }
    return true;
  };
  CHECK(generations_match());
  const int64_t layout = snap.layout_id();
  const int64_t namespaces = snap.namespaces_id();

  // Pods come and go (one with affinity, so the affinity lists change): same
  // layout, only the changed positions move.
  const std::vector<int64_t> before(snap.node_generations().begin(), snap.node_generations().end());
  auto affine = MakePod().Name("x").Node("n3").PodAffinityExists("a", "b", testing::AffinityKind::kPreferred).Info();
  REQUIRE(state.AddPod(affine).ok());
  state.UpdateSnapshot(snap);
  CHECK(snap.layout_id() == layout);
  CHECK(generations_match());
  const int n3 = snap.IndexOf(Symbol::Intern("n3"));
  for (size_t i = 0; i < before.size(); ++i) CHECK((snap.node_generations()[i] != before[i]) == (static_cast<int>(i) == n3));
  REQUIRE(snap.have_pods_with_affinity().size() == 1);
  CHECK(snap.have_pods_with_affinity()[0]->name() == Symbol::Intern("n3"));
  REQUIRE(state.RemovePod(*affine).ok());
  state.UpdateSnapshot(snap);
  CHECK(snap.layout_id() == layout);
  CHECK(snap.have_pods_with_affinity().empty());
  CHECK(generations_match());

  // A node joins, or one moves zone: a new layout.
  REQUIRE(state.AddNode(Node("n9", "z0")).ok());
  state.UpdateSnapshot(snap);
  CHECK(snap.layout_id() != layout);
  CHECK(generations_match());
  const int64_t layout2 = snap.layout_id();
  REQUIRE(state.UpdateNode(Node("n0", "z1")).ok());
  state.UpdateSnapshot(snap);
  CHECK(snap.layout_id() != layout2);
  CHECK(generations_match());

  // Namespace labels: a new id only when they change.
  CHECK(snap.namespaces_id() == namespaces);
  api::v1::Namespace ns;
  ns.mutable_metadata()->set_name("team");
  state.SetNamespace(ns);
  state.UpdateSnapshot(snap);
  CHECK(snap.namespaces_id() != namespaces);
}

// The change log against a plain comparison of generations, for plugins that
// look every update, now and then, or rarely enough that the bounded log no
// longer reaches back; NodeChangeTracker must report exactly the changed
// positions either way.
TEST_CASE("the change log names the changed positions and trackers agree with a full comparison", "[snapshot]") {
  ClusterState state;
  for (int i = 0; i < 400; ++i) REQUIRE(state.AddNode(Node("n" + std::to_string(i), "z" + std::to_string(i % 3))).ok());
  Snapshot snap;
  state.UpdateSnapshot(snap);
  struct Observer {
    int every;
    plugins::internal::NodeChangeTracker tracker;
    int64_t layout = -1;
    std::vector<int64_t> seen;
    int64_t seen_update = -1;
  };
  std::vector<Observer> observers;
  for (int every : {1, 3, 40, 700}) observers.push_back(Observer{every, {}, -1, {}, -1});
  std::mt19937 rng(7);
  std::vector<PodInfoPtr> pods;
  int log_hits = 0, log_misses = 0, nodes_added = 0;
  std::vector<int> changed, logged;
  for (int step = 1; step <= 3000; ++step) {
    const int changes = static_cast<int>(rng() % 4);
    for (int c = 0; c < changes; ++c) {
      if (!pods.empty() && rng() % 2 == 0) {
        const size_t k = rng() % pods.size();
        REQUIRE(state.RemovePod(*pods[k]).ok());
        pods.erase(pods.begin() + static_cast<long>(k));
      } else {
        const std::string node = "n" + std::to_string(rng() % 400);
        pods.push_back(MakePod().Name("p" + std::to_string(step) + "-" + std::to_string(c)).Node(node).Info());
        REQUIRE(state.AddPod(pods.back()).ok());
      }
    }
    if (step % 997 == 0) {
      REQUIRE(state.AddNode(Node("extra" + std::to_string(++nodes_added), "z0")).ok());
    }
    state.UpdateSnapshot(snap);
    const std::span<const int64_t> now = snap.node_generations();
    for (Observer& o : observers) {
      if (step % o.every != 0) continue;
      // What the log says, where it reaches.
      if (o.layout == snap.layout_id()) {
        logged.clear();
        if (snap.ChangedSince(o.seen_update, logged)) {
          ++log_hits;
          for (size_t i = 0; i < now.size(); ++i) {
            if (now[i] != o.seen[i]) {
              CHECK(std::find(logged.begin(), logged.end(), static_cast<int>(i)) != logged.end());
            }
          }
        } else {
          ++log_misses;
        }
      }
      const bool full = o.tracker.Sync(snap, changed);
      CHECK(full == (o.layout != snap.layout_id()));
      if (!full) {
        std::vector<int> expected;
        for (size_t i = 0; i < now.size(); ++i) {
          if (now[i] != o.seen[i]) expected.push_back(static_cast<int>(i));
        }
        CHECK(changed == expected);
      }
      o.layout = snap.layout_id();
      o.seen.assign(now.begin(), now.end());
      o.seen_update = snap.updates();
    }
  }
  CHECK(log_hits > 100);
  CHECK(log_misses > 0);
}

TEST_CASE("affinity lists kept up to date equal lists built afresh", "[snapshot]") {
  ClusterState state;
  for (int i = 0; i < 20; ++i) REQUIRE(state.AddNode(Node("n" + std::to_string(i), "z" + std::to_string(i % 3))).ok());
  Snapshot kept;
  state.UpdateSnapshot(kept);
  std::mt19937 rng(7);
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  std::vector<PodInfoPtr> pods;
  auto names = [](std::span<const NodeInfo* const> list) {
    std::vector<std::string> out;
    for (const NodeInfo* n : list) out.emplace_back(n->name().str());
    return out;
  };
  for (int step = 0; step < 300; ++step) {
    CAPTURE(step);
    if (pods.empty() || pick(3) != 0) {
      auto b = MakePod().Name("p" + std::to_string(step)).Node("n" + std::to_string(pick(20)));
      if (const int kind = pick(3); kind == 0) {
        b.PodAntiAffinityExists("a", "b", testing::AffinityKind::kRequired);
      } else if (kind == 1) {
        b.PodAffinityExists("a", "b", testing::AffinityKind::kPreferred);
      }
      pods.push_back(b.Info());
      REQUIRE(state.AddPod(pods.back()).ok());
    } else {
      const int i = pick(static_cast<int>(pods.size()));
      REQUIRE(state.RemovePod(*pods[i]).ok());
      pods.erase(pods.begin() + i);
    }
    state.UpdateSnapshot(kept);
    Snapshot fresh;
    state.UpdateSnapshot(fresh);
    REQUIRE(names(kept.have_pods_with_affinity()) == names(fresh.have_pods_with_affinity()));
    REQUIRE(names(kept.have_pods_with_required_anti_affinity()) ==
            names(fresh.have_pods_with_required_anti_affinity()));
  }
}

TEST_CASE("snapshot from a lister: bound pods in, pending pods out", "[snapshot]") {
  api::ObjectSet c = testing::MakeCluster(
      {MakeNode().Name("n1").Capacity({{"cpu", "2"}}).Obj(), MakeNode().Name("n2").Obj()},
      {MakePod().Name("bound").Node("n1").Req({{"cpu", "1"}}).Obj(), MakePod().Name("pending").Req({{"cpu", "1"}}).Obj()});
  api::v1::Namespace ns;
  ns.mutable_metadata()->set_name("team");
  (*ns.mutable_metadata()->mutable_labels())["tier"] = "gold";
  c.Add(ns);
  api::StaticClusterLister lister(c);
  auto snap = Snapshot::FromLister(lister);
  REQUIRE(snap.ok());
  CHECK(snap->NumNodes() == 2);
  CHECK(snap->Get("n1")->requested().milli_cpu == 1000);
  CHECK(snap->Get("n2")->num_pods() == 0);
  REQUIRE(snap->NamespaceLabels(Symbol::Intern("team")) != nullptr);
  CHECK(snap->NamespaceLabels(Symbol::Intern("team"))->Get(Symbol::Intern("tier")) == Symbol::Intern("gold"));
  CHECK(snap->NamespaceLabels(Symbol::Intern("nope")) == nullptr);
}

TEST_CASE("a node with a bad allocatable is rejected without a trace", "[snapshot]") {
  ClusterState state;
  auto bad = MakeNode().Name("bad").Capacity({{"cpu", "x"}}).Ptr();
  CHECK_FALSE(state.AddNode(bad).ok());
  CHECK(state.GetNodeInfo(Symbol::Intern("bad")) == nullptr);
  Snapshot snap;
  state.UpdateSnapshot(snap);
  CHECK(snap.NumNodes() == 0);
}

}  // namespace
}  // namespace schedkit::framework
