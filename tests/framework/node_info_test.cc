// NodeInfo aggregation: adding then removing a pod restores the node exactly.
#include <catch2/catch.hpp>

#include <limits>
#include <memory>
#include <string>

#include "schedkit/base/symbol.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/testing/builders.h"
#include "framework/node_info_internals.h"

namespace schedkit::framework {
namespace {

using testing::AffinityKind;
using testing::MakeNode;
using testing::MakePod;

TEST_CASE("NodeInfo reads the node once", "[node_info]") {
  NodeInfo n = MakeNode()
                   .Name("n1")
                   .Capacity({{"cpu", "4"}, {"memory", "32Gi"}, {"pods", "110"}, {"nvidia.com/gpu", "2"}})
                   .Label("zone", "a")
                   .Taint("dedicated", "gpu", "NoSchedule")
                   .Taint("soft", "", "PreferNoSchedule")
                   .Image({"nginx:1.25", "docker.io/nginx:1.25"}, 50 << 20)
                   .Unschedulable()
                   .Info();
  CHECK(n.name() == Symbol::Intern("n1"));
  CHECK(n.allocatable().milli_cpu == 4000);
  CHECK(n.allocatable().memory == 32LL << 30);
  CHECK(n.allocatable().allowed_pod_number == 110);
  CHECK(n.allocatable().GetScalar(Symbol::Intern("nvidia.com/gpu")) == 2);
  CHECK(n.labels().Get(Symbol::Intern("zone")) == Symbol::Intern("a"));
  REQUIRE(n.taints().size() == 2);
  CHECK(n.taints()[1].effect == TaintEffect::kPreferNoSchedule);
  CHECK(n.unschedulable());
  REQUIRE(n.FindImage(Symbol::Intern("docker.io/nginx:1.25")) != nullptr);
  CHECK(n.FindImage(Symbol::Intern("nginx:1.25"))->size_bytes == 50 << 20);
}

TEST_CASE("adding pods aggregates requests, ports and affinity lists", "[node_info]") {
  NodeInfo n = MakeNode().Name("n1").Capacity({{"cpu", "4"}, {"memory", "8Gi"}, {"pods", "10"}}).Info();
  auto plain = MakePod().Name("a").Node("n1").Req({{"cpu", "1"}, {"memory", "1Gi"}}).HostPort(80).Info();
  auto affine = MakePod().Name("b").Node("n1").Container("app").PodAffinityExists("app", "zone", AffinityKind::kPreferred).Info();
  auto anti = MakePod().Name("c").Node("n1").Req({{"cpu", "500m"}}).PodAntiAffinityExists("app", "zone", AffinityKind::kRequired).Info();
  n.AddPod(plain);
  n.AddPod(affine);
  n.AddPod(anti);
  CHECK(n.num_pods() == 3);
  CHECK(n.requested().milli_cpu == 1500);
  CHECK(n.requested().memory == 1LL << 30);
  CHECK(n.non_zero_requested_milli_cpu() == 1000 + 100 + 500);
  CHECK(n.non_zero_requested_memory() == (1LL << 30) + 2 * kDefaultMemoryRequest);
  CHECK(n.pods_with_affinity().size() == 2);
  CHECK(n.pods_with_required_anti_affinity().size() == 1);
  CHECK(n.used_ports().Conflicts(HostPort{Symbol::Intern("10.0.0.1"), Protocol::kTCP, 80}));
  CHECK_FALSE(n.used_ports().Conflicts(HostPort{Symbol::Intern("10.0.0.1"), Protocol::kUDP, 80}));
}

TEST_CASE("add then remove restores the NodeInfo exactly", "[node_info]") {
  NodeInfo base = MakeNode().Name("n1").Capacity({{"cpu", "4"}, {"memory", "8Gi"}, {"pods", "10"}}).Info(
      {MakePod().Name("existing").Node("n1").Req({{"cpu", "1"}}).HostPort(8080).Obj()});
  const NodeInfo before = base;
  std::vector<PodInfoPtr> pods = {
      MakePod().Name("p1").Node("n1").Req({{"cpu", "250m"}, {"example.com/foo", "3"}}).HostPort(80, "UDP", "10.0.0.2").Info(),
      MakePod().Name("p2").Node("n1").Container("app").InitReq({{"memory", "1Gi"}}).PodAntiAffinityExists("a", "b", AffinityKind::kRequired).Info(),
      MakePod().Name("p3").Node("n1").SidecarReq({{"cpu", "1"}}).Req({{"cpu", "1"}}).Overhead({{"cpu", "10m"}}).Info(),
  };
  for (const auto& p : pods) base.AddPod(p);
  CHECK_FALSE(base == before);
  // Remove in reverse order: each removal is of the last pod.
  for (auto it = pods.rbegin(); it != pods.rend(); ++it) REQUIRE(base.RemovePod(**it).ok());
  CHECK(base == before);
  CHECK(base.generation() > before.generation());
  CHECK(base.requested() == before.requested());
  CHECK(base.used_ports().ports() == before.used_ports().ports());
}

// Not upstream: a simulation copy (preemption's dry runs) counts its own
// generation and leaves the process-wide counter alone.
TEST_CASE("a simulation copy does not draw on the global generation counter", "[node_info]") {
  const NodeInfo base = MakeNode().Name("n1").Capacity({{"cpu", "4"}, {"pods", "10"}}).Info();
  NodeInfo sim = base.SimulationCopy();
  CHECK(sim == base);
  auto pod = MakePod().Name("p").Node("n1").Req({{"cpu", "1"}}).Info();
  const int64_t before = NextGeneration();
  sim.AddPod(pod);
  CHECK(sim.generation() == base.generation() + 1);
  REQUIRE(sim.RemovePod(*pod).ok());
  CHECK(sim.generation() == base.generation() + 2);
  CHECK(NextGeneration() == before + 1);
  // An ordinary copy still stamps every change from the global counter.
  NodeInfo copy = base;
  copy.AddPod(pod);
  CHECK(copy.generation() > before + 1);
}

// Not upstream: scratch simulations equal fresh simulation copies, whatever
// node the thread's scratch held before, and nest.
TEST_CASE("scratch simulations equal simulation copies and nest", "[node_info]") {
  const NodeInfo big = MakeNode().Name("big").Label("zone", "a").Taint("k", "v", "NoSchedule").Capacity(
      {{"cpu", "8"}, {"pods", "10"}}).Info({MakePod().Name("a").Node("big").Req({{"cpu", "1"}}).HostPort(80).Obj(),
                                             MakePod().Name("b").Node("big").Req({{"cpu", "2"}}).Obj(),
                                             MakePod().Name("c").Node("big").PodAntiAffinityExists(
                                                 "x", "y", AffinityKind::kRequired).Obj()});
  const NodeInfo small = MakeNode().Name("small").Capacity({{"cpu", "2"}, {"pods", "10"}}).Info(
      {MakePod().Name("d").Node("small").Req({{"cpu", "1"}}).Obj()});
  auto pod = MakePod().Name("p").Node("small").Req({{"cpu", "500m"}}).HostPort(8080).Info();
  const NodeInfo* first_address = nullptr;
  for (const NodeInfo* node : {&big, &small, &big, &small}) {
    framework::ScratchSimulation sim(*node);
    if (first_address == nullptr) first_address = &sim.node();
    CHECK(&sim.node() == first_address);  // the same scratch every time
    CHECK(sim.node() == node->SimulationCopy());
    CHECK(sim.node().generation() == node->generation());
    const int64_t before = NextGeneration();
    sim.node().AddPod(pod);
    CHECK(sim.node().generation() == node->generation() + 1);
    CHECK(NextGeneration() == before + 1);  // a simulation: no global stamp
    CHECK(sim.node().pods().size() == node->pods().size() + 1);
    CHECK(sim.node().requested().milli_cpu == node->requested().milli_cpu + 500);
  }
  CHECK(big.pods().size() == 3);
  CHECK(small.pods().size() == 1);
  // Nested: a dry run's scratch, the nominated-pods pass's, then one more.
  framework::ScratchSimulation outer(big);
  framework::ScratchSimulation inner(outer.node());
  framework::ScratchSimulation third(small);
  CHECK(&outer.node() != &inner.node());
  CHECK(&third.node() != &outer.node());
  CHECK(&third.node() != &inner.node());
  inner.node().AddPod(pod);
  CHECK(outer.node() == big.SimulationCopy());
  CHECK(inner.node().pods().size() == 4);
  CHECK(third.node() == small.SimulationCopy());
}

// Not upstream: a scratch copy carries what the node's first lines hold
// beyond the figures: the declared hot labels' values and the declared
// features (a reused scratch once kept the previous node's hot labels).
TEST_CASE("scratch simulations copy the hot labels and declared features", "[node_info]") {
  const HotLabel hot = HotLabel::Declare("example.com/scratch-color");
  api::v1::Node red = MakeNode().Name("red").Label("example.com/scratch-color", "red").Obj();
  red.mutable_status()->add_declared_features("RestartAllContainersOnContainerExits");
  const NodeInfo a = NodeInfo::Create(red).value();
  const NodeInfo b = MakeNode().Name("blue").Label("example.com/scratch-color", "blue").Info();
  for (const NodeInfo* node : {&a, &b, &a}) {
    framework::ScratchSimulation sim(*node);
    const Symbol* got = sim.node().label(hot);
    REQUIRE(got != nullptr);
    CHECK(*got == *node->label(hot));
    CHECK(sim.node().declared_features() == node->declared_features());
    CHECK(sim.node() == node->SimulationCopy());
  }
  CHECK(a.declared_features() != 0);
  CHECK(b.declared_features() == 0);
}

// Not upstream: a scratch simulation borrows the node's pods (no reference
// count moves when it copies or drops them), owns the pods added to it, and
// keeps no pointer once it ends.
TEST_CASE("scratch simulations borrow the node's pods and keep none", "[node_info]") {
  auto existing = MakePod().Name("e").Node("n1").Req({{"cpu", "1"}}).PodAffinityExists("app", "zone",
                                                                                       AffinityKind::kRequired).Info();
  NodeInfo node = MakeNode().Name("n1").Capacity({{"cpu", "4"}, {"pods", "10"}}).Info();
  node.AddPod(existing);
  auto added = MakePod().Name("a").Node("n1").Req({{"cpu", "1"}}).Info();
  const long existing_refs = existing.use_count();
  const long added_refs = added.use_count();
  {
    framework::ScratchSimulation sim(node);
    CHECK(existing.use_count() == existing_refs);
    CHECK(sim.node().pods().front().get() == existing.get());
    CHECK(sim.node().pods_with_affinity().front().get() == existing.get());
    sim.node().AddPod(added);
    CHECK(added.use_count() == added_refs + 1);
    REQUIRE(sim.node().RemovePod(*existing).ok());
    CHECK(existing.use_count() == existing_refs);
    CHECK(sim.node().pods().size() == 1);
  }
  CHECK(added.use_count() == added_refs);
  CHECK(existing.use_count() == existing_refs);
  CHECK(node.pods().size() == 1);
}

// Not upstream: the first-line copies of the node's figures (what filters
// and scores read in passes) must equal the fields they copy after every
// kind of change.
void CheckFigures(const NodeInfo& n) {
  INFO("node " << n.name().str() << " with " << n.num_pods() << " pods");
  CHECK(n.allocatable_milli_cpu() == n.allocatable().milli_cpu);
  CHECK(n.allocatable_memory() == n.allocatable().memory);
  CHECK(n.requested_milli_cpu() == n.requested().milli_cpu);
  CHECK(n.requested_memory() == n.requested().memory);
  CHECK(n.has_taints() == !n.taints().empty());
  CHECK(n.free_pod_slots() == n.allocatable().allowed_pod_number - n.num_pods());
}

TEST_CASE("the first-line figures follow every change", "[node_info]") {
  NodeInfo n = MakeNode().Name("n1").Capacity({{"cpu", "4"}, {"memory", "8Gi"}, {"pods", "3"}}).Info();
  CheckFigures(n);
  std::vector<PodInfoPtr> pods;
  for (int i = 0; i < 4; ++i) {
    pods.push_back(MakePod().Name("p" + std::to_string(i)).Node("n1").Req({{"cpu", "300m"}, {"memory", "1Gi"}}).Info());
    n.AddPod(pods.back());
    CheckFigures(n);
  }
  CHECK(n.free_pod_slots() == -1);
  REQUIRE(n.RemovePod(*pods[1]).ok());
  CheckFigures(n);
  // A new node object: other allocatable, a taint; the pods stay.
  REQUIRE(n.SetNode(std::make_shared<const api::v1::Node>(
                        MakeNode().Name("n1").Capacity({{"cpu", "16"}, {"memory", "64Gi"}, {"pods", "110"}})
                            .Taint("dedicated", "x", "NoSchedule").Obj()))
              .ok());
  CheckFigures(n);
  CHECK(n.has_taints());
  CHECK(n.allocatable_milli_cpu() == 16000);
  NodeInfo sim;
  sim.AssignSimulationCopy(n);
  CheckFigures(sim);
  REQUIRE(sim.RemovePod(*pods[0]).ok());
  CheckFigures(sim);
  CHECK(sim.free_pod_slots() == n.free_pod_slots() + 1);
  n.ClearNode();
  CheckFigures(n);
}

TEST_CASE("free pod slots saturate instead of wrapping", "[node_info]") {
  // The first line keeps the count in 32 bits: "room for one more pod" must
  // still agree with pods + 1 <= allowed at either end of int64.
  NodeInfo n =
      MakeNode().Name("n1").Capacity({{"cpu", "4"}, {"pods", "-9223372036854775807"}}).Info();
  CHECK(n.free_pod_slots() == std::numeric_limits<int32_t>::min());
  n.AddPod(MakePod().Name("a").Node("n1").Info());
  CHECK(n.free_pod_slots() == std::numeric_limits<int32_t>::min());
  n.AddPod(MakePod().Name("b").Node("n1").Info());
  // allowed - 2 does not fit in int64 either.
  CHECK(n.free_pod_slots() == std::numeric_limits<int32_t>::min());

  NodeInfo big = MakeNode().Name("n2").Capacity({{"cpu", "4"}, {"pods", "9223372036854775807"}}).Info();
  CHECK(big.free_pod_slots() == std::numeric_limits<int32_t>::max());
  big.AddPod(MakePod().Name("a").Node("n2").Info());
  CHECK(big.free_pod_slots() == std::numeric_limits<int32_t>::max());

  NodeInfo edge = MakeNode().Name("n3").Capacity({{"cpu", "4"}, {"pods", "2147483648"}}).Info();
  CHECK(edge.free_pod_slots() == std::numeric_limits<int32_t>::max());
  edge.AddPod(MakePod().Name("a").Node("n3").Info());
  CHECK(edge.free_pod_slots() == std::numeric_limits<int32_t>::max());
  edge.AddPod(MakePod().Name("b").Node("n3").Info());
  CHECK(edge.free_pod_slots() == std::numeric_limits<int32_t>::max() - 1);

  NodeInfo one = MakeNode().Name("n4").Capacity({{"cpu", "4"}, {"pods", "1"}}).Info();
  CHECK(one.free_pod_slots() == 1);
  one.AddPod(MakePod().Name("a").Node("n4").Info());
  CHECK(one.free_pod_slots() == 0);
}

TEST_CASE("the zone label is kept beside the node's figures", "[node_info]") {
  const Symbol zone_key = Symbol::Intern("topology.kubernetes.io/zone");
  auto zone_of = [](const NodeInfo& n) {
    return n.zone_label() != nullptr ? std::string(n.zone_label()->str()) : "(none)";
  };
  NodeInfo zoned = MakeNode().Name("n1").Label("topology.kubernetes.io/zone", "z1").Label("a", "b").Info();
  CHECK(zone_of(zoned) == "z1");
  CHECK(*zoned.zone_label() == *zoned.labels().Find(zone_key));
  // An empty value is a label all the same.
  NodeInfo empty = MakeNode().Name("n2").Label("topology.kubernetes.io/zone", "").Info();
  CHECK(zone_of(empty) == "");
  NodeInfo none = MakeNode().Name("n3").Label("topology.kubernetes.io/region", "r1").Info();
  CHECK(zone_of(none) == "(none)");
  // Replacing the node object replaces the zone.
  REQUIRE(zoned.SetNode(std::make_shared<const api::v1::Node>(
                            MakeNode().Name("n1").Label("topology.kubernetes.io/zone", "z2").Obj()))
              .ok());
  CHECK(zone_of(zoned) == "z2");
  CHECK(zone_of(zoned.SimulationCopy()) == "z2");
  REQUIRE(zoned.SetNode(std::make_shared<const api::v1::Node>(MakeNode().Name("n1").Obj())).ok());
  CHECK(zone_of(zoned) == "(none)");
  CHECK(zone_of(zoned.SimulationCopy()) == "(none)");
}

// Not upstream: a snapshot copies a changed node onto its older copy, and the
// list's assignment skips slots that already hold the same pod; what results
// must still be an exact copy, owners included (a scratch simulation's
// borrowed pointers own nothing and must not survive the copy).
TEST_CASE("a pod list copied onto an older copy ends equal, owners included", "[node_info]") {
  auto p1 = MakePod().Name("p1").Node("n1").Info();
  auto p2 = MakePod().Name("p2").Node("n1").Info();
  auto p3 = MakePod().Name("p3").Node("n1").Info();
  auto p4 = MakePod().Name("p4").Node("n1").Info();
  const PodInfoPtr borrowed_p2(PodInfoPtr(), p2.get());
  const auto same = [](const PodInfoList& list_a, const PodInfoList& list_b) {
    const std::vector<PodInfoPtr>& a = list_a.items();
    const std::vector<PodInfoPtr>& b = list_b.items();
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].get() != b[i].get() || a[i].owner_before(b[i]) || b[i].owner_before(a[i])) return false;
    }
    return true;
  };
  const PodInfoList now{p1, p2, p3};
  SECTION("older list longer, a borrowed slot and a moved pod") {
    PodInfoList old{p1, borrowed_p2, p4, p3};
    const long p2_refs = p2.use_count();
    old = now;
    CHECK(same(old, now));
    CHECK(p2.use_count() == p2_refs + 1);
    CHECK(p4.use_count() == 1);
  }
  SECTION("older list shorter") {
    PodInfoList old{p1};
    old = now;
    CHECK(same(old, now));
  }
  SECTION("identical lists keep their counts") {
    PodInfoList old{p1, p2, p3};
    const long p1_refs = p1.use_count();
    old = now;
    CHECK(same(old, now));
    CHECK(p1.use_count() == p1_refs);
  }
  SECTION("to empty") {
    PodInfoList old{p1, p2};
    old = PodInfoList{};
    CHECK(old.items().empty());
  }
}

// Not upstream: preemption's dry runs read the lowest pod priority instead
// of every pod, so it must follow every add and remove, ties included.
TEST_CASE("the lowest pod priority follows adds and removes", "[node_info]") {
  NodeInfo n = MakeNode().Name("n1").Capacity({{"cpu", "4"}, {"pods", "10"}}).Info();
  CHECK(n.lowest_pod_priority() == std::numeric_limits<int32_t>::max());
  auto a = MakePod().Name("a").Node("n1").Priority(10).Info();
  auto b = MakePod().Name("b").Node("n1").Priority(5).Info();
  auto c = MakePod().Name("c").Node("n1").Priority(5).Info();
  auto d = MakePod().Name("d").Node("n1").Priority(-3).Info();
  n.AddPod(a);
  CHECK(n.lowest_pod_priority() == 10);
  n.AddPod(b);
  n.AddPod(c);
  CHECK(n.lowest_pod_priority() == 5);
  REQUIRE(n.RemovePod(*b).ok());
  CHECK(n.lowest_pod_priority() == 5);  // c still has it
  n.AddPod(d);
  CHECK(n.lowest_pod_priority() == -3);
  {
    framework::ScratchSimulation sim(n);
    CHECK(sim.node() == n.SimulationCopy());
    REQUIRE(sim.node().RemovePod(*d).ok());
    CHECK(sim.node().lowest_pod_priority() == 5);
  }
  CHECK(n.lowest_pod_priority() == -3);
  REQUIRE(n.RemovePod(*d).ok());
  REQUIRE(n.RemovePod(*c).ok());
  CHECK(n.lowest_pod_priority() == 10);
  REQUIRE(n.RemovePod(*a).ok());
  CHECK(n.lowest_pod_priority() == std::numeric_limits<int32_t>::max());
}

TEST_CASE("removing an unknown pod is NotFound", "[node_info]") {
  NodeInfo n = MakeNode().Name("n1").Info();
  auto p = MakePod().Name("ghost").Info();
  CHECK(absl::IsNotFound(n.RemovePod(*p)));
}

TEST_CASE("host port conflicts follow HostPortInfo", "[node_info]") {
  HostPortSet used;
  used.Add(HostPort{Symbol::Intern("127.0.0.1"), Protocol::kTCP, 8080});
  const Symbol any = Symbol::Intern("0.0.0.0");
  CHECK(used.Conflicts(HostPort{any, Protocol::kTCP, 8080}));
  CHECK(used.Conflicts(HostPort{Symbol::Intern("127.0.0.1"), Protocol::kTCP, 8080}));
  CHECK_FALSE(used.Conflicts(HostPort{Symbol::Intern("127.0.0.2"), Protocol::kTCP, 8080}));
  CHECK_FALSE(used.Conflicts(HostPort{any, Protocol::kTCP, 0}));
  used.Add(HostPort{any, Protocol::kUDP, 53});
  CHECK(used.Conflicts(HostPort{Symbol::Intern("10.1.1.1"), Protocol::kUDP, 53}));
  used.Add(HostPort{any, Protocol::kUDP, 53});  // a set: added once
  CHECK(used.size() == 2);
}

TEST_CASE("image names are normalized as ImageLocality does", "[pod_info]") {
  CHECK(NormalizedImageName("nginx") == "nginx:latest");
  CHECK(NormalizedImageName("nginx:1.2") == "nginx:1.2");
  CHECK(NormalizedImageName("gcr.io:5000/root") == "gcr.io:5000/root:latest");
  CHECK(NormalizedImageName("gcr.io:5000/root:v1") == "gcr.io:5000/root:v1");
  CHECK(NormalizedImageName("repo@sha256:abc") == "repo@sha256:abc");
}

TEST_CASE("PodInfo compiles affinity terms with namespaces", "[pod_info]") {
  api::v1::PodAffinityTerm with_ns;
  *with_ns.mutable_label_selector() = testing::Selector({{"app", "db"}});
  with_ns.add_namespaces("b");
  with_ns.add_namespaces("a");
  with_ns.set_topology_key("zone");
  api::v1::PodAffinityTerm all_ns = with_ns;
  all_ns.clear_namespaces();
  all_ns.mutable_namespace_selector();
  auto p = MakePod().Name("p").Namespace("mine")
               .PodAffinityExists("app", "zone", testing::AffinityKind::kRequired)
               .PodAffinity(testing::AffinityKind::kPreferred, with_ns, 7)
               .PodAntiAffinity(testing::AffinityKind::kRequired, all_ns)
               .Info();
  REQUIRE(p->required_affinity_terms().size() == 1);
  CHECK(p->required_affinity_terms()[0].HasNamespace(Symbol::Intern("mine")));
  REQUIRE(p->preferred_affinity_terms().size() == 1);
  CHECK(p->preferred_affinity_terms()[0].weight == 7);
  CHECK(p->preferred_affinity_terms()[0].term.HasNamespace(Symbol::Intern("a")));
  CHECK_FALSE(p->preferred_affinity_terms()[0].term.HasNamespace(Symbol::Intern("mine")));
  const AffinityTerm& anti = p->required_anti_affinity_terms()[0];
  CHECK(anti.namespaces.empty());
  CHECK(anti.namespace_selector.IsEverything());
  auto db = MakePod().Name("db").Namespace("other").Label("app", "db").Info();
  CHECK(anti.Matches(*db, api::LabelSet()));
  CHECK_FALSE(p->required_affinity_terms()[0].Matches(*db, api::LabelSet()));  // other namespace
  CHECK(p->has_pod_affinity());
}

}  // namespace
}  // namespace schedkit::framework
