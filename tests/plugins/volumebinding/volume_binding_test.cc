// Ports of upstream v1.37.2 pkg/scheduler/framework/plugins/volumebinding
// volume_binding_test.go:
//  - TestVolumeBinding: PreFilter, Filter and, with StorageCapacityScoring on
//    (its default since v1.36), PreScore and Score of every case; the cases
//    upstream runs with the gate off are in "VolumeBinding without
//    StorageCapacityScoring".
//  - Test_PreBindPreFlight: all 4 cases.
//  - The queueing-hint tables (TestIsSchedulableAfterCSINodeChange,
//    ..PersistentVolumeClaimChange, ..StorageClassChange,
//    ..CSIStorageCapacityChange, ..CSIDriverChange), their main cases.
// binder_test.cc ports binder_test.go (the volume binder itself).
#include "plugins/volumebinding/volume_binding.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "schedkit/base/str_cat.h"
#include "schedkit/framework/feature_gates.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"
#include "schedkit/testing/fake_storage_client.h"
#include "testing/must.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::Status;
using testing::MakeNode;
using testing::MakePod;

std::unique_ptr<VolumeBinding> NewPlugin(testing::FakeHandle& h, std::string args = "") {
  auto plugin = NewVolumeBinding(framework::PluginArgs(std::move(args)), h);
  REQUIRE(plugin.ok());
  auto* vb = dynamic_cast<VolumeBinding*>(plugin->get());
  REQUIRE(vb != nullptr);
  plugin->release();
  return std::unique_ptr<VolumeBinding>(vb);
}

// upstream's makePod(name).withPVCVolume(pvc, "")
api::v1::Pod PodWithPVCs(const std::vector<std::string>& pvcs) {
  auto b = MakePod().Name("pod-a").Namespace("default");
  for (const auto& p : pvcs) b.PVC(p);
  return b.Obj();
}

api::v1::PersistentVolumeClaim MakePVC(const std::string& name, const std::string& class_name) {
  api::v1::PersistentVolumeClaim c;
  c.mutable_metadata()->set_name(name);
  c.mutable_metadata()->set_namespace_("default");
  c.mutable_spec()->set_storage_class_name(class_name);
  return c;
}

// upstream's withBoundPV: the volume's name and the bind-completed annotation.
api::v1::PersistentVolumeClaim BoundTo(api::v1::PersistentVolumeClaim c, const std::string& pv) {
  c.mutable_spec()->set_volume_name(pv);
  (*c.mutable_metadata()->mutable_annotations())["pv.kubernetes.io/bind-completed"] = "true";
  return c;
}

api::v1::PersistentVolume MakePV(const std::string& name, const std::string& class_name) {
  api::v1::PersistentVolume pv;
  pv.mutable_metadata()->set_name(name);
  pv.mutable_spec()->set_storage_class_name(class_name);
  pv.mutable_status()->set_phase("Available");
  return pv;
}

// upstream's withCapacity and withNodeAffinity (one term, a requirement per key).
api::v1::PersistentVolume Sized(api::v1::PersistentVolume pv, const std::string& capacity,
                                const std::vector<std::pair<std::string, std::string>>& affinity = {}) {
  (*pv.mutable_spec()->mutable_capacity())["storage"] = capacity;
  if (!affinity.empty()) {
    auto* term = pv.mutable_spec()->mutable_node_affinity()->mutable_required()->add_node_selector_terms();
    for (const auto& [key, value] : affinity) {
      auto* r = term->add_match_expressions();
      r->set_key(key);
      r->set_operator_("In");
      r->add_values(value);
    }
  }
  return pv;
}

api::v1::PersistentVolumeClaim Requesting(api::v1::PersistentVolumeClaim c, const std::string& storage) {
  (*c.mutable_spec()->mutable_resources()->mutable_requests())["storage"] = storage;
  return c;
}

api::v1::StorageClass MakeClass(const std::string& name, const std::string& mode, const std::string& provisioner = "") {
  api::v1::StorageClass sc;
  sc.mutable_metadata()->set_name(name);
  sc.set_volume_binding_mode(mode);
  sc.set_provisioner(provisioner);
  return sc;
}

// upstream's makeCapacity: nodeTopology matches the node's "nodeKey" label.
api::v1::CSIStorageCapacity MakeCapacity(const std::string& name, const std::string& class_name,
                                         const std::string& node, const std::string& capacity) {
  api::v1::CSIStorageCapacity c;
  c.mutable_metadata()->set_name(name);
  c.set_storage_class_name(class_name);
  (*c.mutable_node_topology()->mutable_match_labels())["nodeKey"] = node;
  c.set_capacity(capacity);
  return c;
}

// upstream's makeNode: the hostname label, plus `labels`.
api::v1::Node Node(const std::string& name, const std::vector<std::pair<std::string, std::string>>& labels = {}) {
  auto b = MakeNode().Name(name).Label("kubernetes.io/hostname", name);
  for (const auto& [k, v] : labels) b.Label(k, v);
  return b.Obj();
}

struct BindingCase {
  std::string name;
  api::v1::Pod pod;
  std::vector<api::v1::PersistentVolumeClaim> pvcs;
  std::vector<api::v1::PersistentVolume> pvs;
  Status want_pre_filter;
  // Per node, when PreFilter succeeds.
  std::vector<Status> want_filter = {Status()};
  std::vector<api::v1::Node> nodes = {Node("node-a")};
  std::vector<api::v1::CSIStorageCapacity> capacities = {};
  // Per node (upstream's wantScores); empty: every node scores 0.
  std::vector<int64_t> want_scores = {};
  std::string shape = "";  // the args' shape, when not the default
};

TEST_CASE("TestVolumeBinding", "[volumebinding]") {
  const auto pvc_a_wait = MakePVC("pvc-a", "wait-sc");
  auto lost = BoundTo(pvc_a_wait, "pv-a");
  lost.mutable_status()->set_phase("Lost");
  auto unresolvable = [](const std::string& text) {
    return Status::WithText(Code::kUnschedulableAndUnresolvable, text);
  };
  const Status bind_conflict = unresolvable("node(s) didn't find available persistent volumes to bind");
  const std::string host = "kubernetes.io/hostname";
  auto local_pv = [&](const std::string& name, const std::string& sc, const std::string& size,
                      const std::string& node) { return Sized(MakePV(name, sc), size, {{host, node}}); };
  auto zonal_pv = [&](const std::string& name, const std::string& size, const std::string& zone) {
    return Sized(MakePV(name, "wait-sc"), size,
                 {{"topology.kubernetes.io/region", "region-" + zone}, {"topology.kubernetes.io/zone", "zone-" + zone}});
  };
  std::vector<api::v1::Node> zonal_nodes;
  for (const std::string z : {"a", "b", "c"}) {
    for (const std::string n : {"a", "b"}) {
      zonal_nodes.push_back(Node("zone-" + z + "-node-" + n, {{"topology.kubernetes.io/region", "region-" + z},
                                                             {"topology.kubernetes.io/zone", "zone-" + z}}));
    }
  }
  const std::vector<api::v1::Node> keyed_nodes = {Node("node-a", {{"nodeKey", "node-a"}}),
                                                  Node("node-b", {{"nodeKey", "node-b"}}),
                                                  Node("node-c", {{"nodeKey", "node-c"}})};
  auto capacities = [](const std::string& a, const std::string& b, const std::string& c) {
    return std::vector<api::v1::CSIStorageCapacity>{
        MakeCapacity("node-a", "wait-sc-with-storage-capacity", "node-a", a),
        MakeCapacity("node-b", "wait-sc-with-storage-capacity", "node-b", b),
        MakeCapacity("node-c", "wait-sc-with-storage-capacity", "node-c", c)};
  };
  const auto dynamic = [&](const std::string& name, const std::string& size) {
    return Requesting(MakePVC(name, "wait-sc-with-storage-capacity"), size);
  };
  const std::vector<BindingCase> cases = {
      {"pod has not pvcs", MakePod().Name("pod-a").Namespace("default").Obj(), {}, {}, Status::Skip()},
      {"all bound", PodWithPVCs({"pvc-a"}), {BoundTo(pvc_a_wait, "pv-a")}, {MakePV("pv-a", "wait-sc")}, Status()},
      {"PVC does not exist", PodWithPVCs({"pvc-a"}), {}, {},
       unresolvable(R"(persistentvolumeclaim "pvc-a" not found)")},
      {"Part of PVCs do not exist", PodWithPVCs({"pvc-a", "pvc-b"}), {BoundTo(pvc_a_wait, "pv-a")}, {},
       unresolvable(R"(persistentvolumeclaim "pvc-b" not found)")},
      {"immediate claims not bound", PodWithPVCs({"pvc-a"}), {MakePVC("pvc-a", "immediate-sc")}, {},
       unresolvable("pod has unbound immediate PersistentVolumeClaims")},
      {"unbound claims no matches", PodWithPVCs({"pvc-a"}), {pvc_a_wait}, {}, Status(), {bind_conflict}},
      {"bound and unbound unsatisfied",
       PodWithPVCs({"pvc-a", "pvc-b"}),
       {BoundTo(pvc_a_wait, "pv-a"), MakePVC("pvc-b", "wait-sc")},
       {Sized(MakePV("pv-a", "wait-sc"), "0", {{"foo", "bar"}})},
       Status(),
       {Status(Code::kUnschedulableAndUnresolvable,
               {Symbol::Intern("node(s) didn't match PersistentVolume's node affinity"),
                Symbol::Intern("node(s) didn't find available persistent volumes to bind")})},
       {Node("node-a", {{"foo", "barbar"}})}},
      {"pv not found", PodWithPVCs({"pvc-a"}), {BoundTo(pvc_a_wait, "pv-a")}, {}, Status(),
       {unresolvable("node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)")}},
      {"pv not found claim lost", PodWithPVCs({"pvc-a"}), {lost}, {},
       unresolvable(R"(persistentvolumeclaim "pvc-a" bound to non-existent persistentvolume "pv-a")")},
      {"local volumes with close capacity are preferred",
       PodWithPVCs({"pvc-a"}),
       {Requesting(pvc_a_wait, "50Gi")},
       {local_pv("pv-a-0", "wait-sc", "200Gi", "node-a"), local_pv("pv-a-1", "wait-sc", "200Gi", "node-a"),
        local_pv("pv-b-0", "wait-sc", "100Gi", "node-b"), local_pv("pv-b-1", "wait-sc", "100Gi", "node-b")},
       Status(),
       {Status(), Status(), bind_conflict},
       {Node("node-a"), Node("node-b"), Node("node-c")},
       {},
       {75, 50, 0}},
      {"local volumes with close capacity are preferred (multiple pvcs)",
       PodWithPVCs({"pvc-0", "pvc-1"}),
       {Requesting(MakePVC("pvc-0", "wait-sc"), "50Gi"), Requesting(MakePVC("pvc-1", "wait-hdd-sc"), "100Gi")},
       {local_pv("pv-a-0", "wait-sc", "200Gi", "node-a"), local_pv("pv-a-1", "wait-sc", "200Gi", "node-a"),
        local_pv("pv-a-2", "wait-hdd-sc", "200Gi", "node-a"), local_pv("pv-a-3", "wait-hdd-sc", "200Gi", "node-a"),
        local_pv("pv-b-0", "wait-sc", "100Gi", "node-b"), local_pv("pv-b-1", "wait-sc", "100Gi", "node-b"),
        local_pv("pv-b-2", "wait-hdd-sc", "100Gi", "node-b"), local_pv("pv-b-3", "wait-hdd-sc", "100Gi", "node-b")},
       Status(),
       {Status(), Status(), bind_conflict},
       {Node("node-a"), Node("node-b"), Node("node-c")},
       {},
       {63, 25, 0}},
      {"zonal volumes with close capacity are preferred",
       PodWithPVCs({"pvc-a"}),
       {Requesting(pvc_a_wait, "50Gi")},
       {zonal_pv("pv-a-0", "200Gi", "a"), zonal_pv("pv-a-1", "200Gi", "a"), zonal_pv("pv-b-0", "100Gi", "b"),
        zonal_pv("pv-b-1", "100Gi", "b")},
       Status(),
       {Status(), Status(), Status(), Status(), bind_conflict, bind_conflict},
       zonal_nodes,
       {},
       {75, 75, 50, 50, 0, 0}},
      {"zonal volumes with close capacity are preferred (custom shape)",
       PodWithPVCs({"pvc-a"}),
       {Requesting(pvc_a_wait, "50Gi")},
       {zonal_pv("pv-a-0", "200Gi", "a"), zonal_pv("pv-a-1", "200Gi", "a"), zonal_pv("pv-b-0", "100Gi", "b"),
        zonal_pv("pv-b-1", "100Gi", "b")},
       Status(),
       {Status(), Status(), Status(), Status(), bind_conflict, bind_conflict},
       zonal_nodes,
       {},
       {15, 15, 30, 30, 0, 0},
       R"([{"utilization": 0, "score": 0}, {"utilization": 50, "score": 3}, {"utilization": 100, "score": 5}])"},
      {"storage capacity score",
       PodWithPVCs({"pvc-dynamic"}),
       {dynamic("pvc-dynamic", "10Gi")},
       {},
       Status(),
       {Status(), Status(), Status()},
       keyed_nodes,
       capacities("100Gi", "50Gi", "10Gi"),
       {90, 80, 0}},
      {"storage capacity score with static binds",
       PodWithPVCs({"pvc-dynamic", "pvc-static"}),
       {dynamic("pvc-dynamic", "10Gi"), Requesting(MakePVC("pvc-static", "wait-sc"), "50Gi")},
       {local_pv("pv-static-a", "wait-sc", "100Gi", "node-a"), local_pv("pv-static-b", "wait-sc", "100Gi", "node-b"),
        local_pv("pv-static-c", "wait-sc", "100Gi", "node-c")},
       Status(),
       {Status(), Status(), Status()},
       keyed_nodes,
       capacities("100Gi", "50Gi", "10Gi"),
       {50, 50, 50}},
      {"dynamic provisioning with multiple PVCs of the same StorageClass",
       PodWithPVCs({"pvc-dynamic-0", "pvc-dynamic-1"}),
       {dynamic("pvc-dynamic-0", "50Gi"), dynamic("pvc-dynamic-1", "50Gi")},
       {},
       Status(),
       {Status()},
       {keyed_nodes[0]},
       {MakeCapacity("node-a", "wait-sc-with-storage-capacity", "node-a", "100Gi")},
       {0}},
      {"prefer node with least allocatable",
       PodWithPVCs({"pvc-dynamic"}),
       {dynamic("pvc-dynamic", "10Gi")},
       {},
       Status(),
       {Status(), Status(), Status()},
       keyed_nodes,
       capacities("100Gi", "20Gi", "10Gi"),
       {10, 50, 100},
       R"([{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}])"},
      {"prefer node with maximum allocatable",
       PodWithPVCs({"pvc-dynamic"}),
       {dynamic("pvc-dynamic", "10Gi")},
       {},
       Status(),
       {Status(), Status(), Status()},
       keyed_nodes,
       capacities("100Gi", "20Gi", "10Gi"),
       {90, 50, 0}},
  };
  for (const BindingCase& c : cases) {
    SECTION(c.name) {
      testing::FakeStorageClient client;
      client.Add(MakeClass("immediate-sc", "Immediate"));
      client.Add(MakeClass("wait-sc", "WaitForFirstConsumer"));
      client.Add(MakeClass("wait-hdd-sc", "WaitForFirstConsumer"));
      client.Add(MakeClass("wait-sc-with-storage-capacity", "WaitForFirstConsumer", "driver-with-storage-capacity"));
      api::v1::CSIDriver driver;
      driver.mutable_metadata()->set_name("driver-with-storage-capacity");
      driver.mutable_spec()->set_storage_capacity(true);
      client.Add(driver);
      for (const auto& pvc : c.pvcs) client.Add(pvc);
      for (const auto& pv : c.pvs) client.Add(pv);
      for (const auto& capacity : c.capacities) client.Add(capacity);
      testing::FakeHandle h;
      h.set_client(&client);
      h.SetCluster(c.nodes, {});
      // Upstream's default for these cases: BindTimeoutSeconds 300.
      auto p = NewPlugin(h, c.shape.empty() ? std::string(R"({"bindTimeoutSeconds": 300})")
                                            : schedkit::StrCat(R"({"bindTimeoutSeconds": 300, "shape": )", c.shape, "}"));
      framework::CycleState state;
      auto pod = testing::Info(c.pod);
      auto r = p->PreFilter(state, *pod, h.snapshot().nodes());
      CHECK(r.result.AllNodes());
      CHECK(r.status == c.want_pre_filter);
      if (r.status.IsSuccess()) {
        REQUIRE(c.want_filter.size() == c.nodes.size());
        for (size_t i = 0; i < c.nodes.size(); ++i) {
          const framework::NodeInfo* node = h.snapshot().Get(c.nodes[i].metadata().name());
          REQUIRE(node != nullptr);
          INFO(c.nodes[i].metadata().name());
          CHECK(p->Filter(state, *pod, *node) == c.want_filter[i]);
        }
        // StorageCapacityScoring is on: PreScore never skips.
        CHECK(p->PreScore(state, *pod, h.snapshot().nodes()).IsSuccess());
        std::vector<int64_t> scores;
        for (const api::v1::Node& n : c.nodes) {
          int64_t score = -1;
          CHECK(p->Score(state, *pod, *h.snapshot().Get(n.metadata().name()), score).IsSuccess());
          scores.push_back(score);
        }
        // In the cases' node order.
        const std::vector<int64_t> want =
            c.want_scores.empty() ? std::vector<int64_t>(c.nodes.size(), 0) : c.want_scores;
        CHECK(scores == want);
      }
    }
  }
}

// Not upstream's table: upstream scores the volumes its Filter recorded per
// node, so a profile that disables VolumeBinding's Filter scores 0 everywhere
// (conformance seed 20261207 #421).
TEST_CASE("VolumeBinding scores nothing when the profile disables its Filter", "[volumebinding]") {
  struct NoFilterHandle : testing::FakeHandle {
    bool RunsFilter(std::string_view plugin) const override { return plugin != "VolumeBinding"; }
  };
  testing::FakeStorageClient client;
  client.Add(MakeClass("wait-sc", "WaitForFirstConsumer"));
  client.Add(Requesting(MakePVC("pvc-a", "wait-sc"), "50Gi"));
  client.Add(Sized(MakePV("pv-a-0", "wait-sc"), "200Gi", {{"kubernetes.io/hostname", "node-a"}}));
  NoFilterHandle h;
  h.set_client(&client);
  h.SetCluster({Node("node-a")}, {});
  auto p = NewPlugin(h);
  framework::CycleState state;
  auto pod = testing::Info(PodWithPVCs({"pvc-a"}));
  REQUIRE(p->PreFilter(state, *pod, h.snapshot().nodes()).status.IsSuccess());
  REQUIRE(p->PreScore(state, *pod, h.snapshot().nodes()).IsSuccess());
  int64_t score = -1;
  CHECK(p->Score(state, *pod, *h.snapshot().nodes()[0], score).IsSuccess());
  CHECK(score == 0);
}

// TestVolumeBinding's cases with StorageCapacityScoring off: no scorer, so
// PreScore Skips (and a shape in the args is refused, see the args tests).
TEST_CASE("VolumeBinding without StorageCapacityScoring", "[volumebinding]") {
  framework::FeatureGates gates;
  REQUIRE(gates.Set("StorageCapacityScoring=false").ok());
  testing::FakeStorageClient client;
  client.Add(MakeClass("wait-sc", "WaitForFirstConsumer"));
  client.Add(Requesting(MakePVC("pvc-a", "wait-sc"), "50Gi"));
  client.Add(Sized(MakePV("pv-a-0", "wait-sc"), "200Gi", {{"kubernetes.io/hostname", "node-a"}}));
  testing::FakeHandle h;
  h.set_client(&client);
  h.SetCluster({Node("node-a")}, {});
  framework::PluginArgs args(R"({"bindTimeoutSeconds": 300})");
  args.set_gates(&gates);
  auto plugin = NewVolumeBinding(args, h);
  REQUIRE(plugin.ok());
  auto* p = dynamic_cast<VolumeBinding*>(plugin->get());
  framework::CycleState state;
  auto pod = testing::Info(PodWithPVCs({"pvc-a"}));
  REQUIRE(p->PreFilter(state, *pod, h.snapshot().nodes()).status.IsSuccess());
  CHECK(p->PreScore(state, *pod, h.snapshot().nodes()).IsSkip());
  int64_t score = -1;
  CHECK(p->Score(state, *pod, *h.snapshot().nodes()[0], score).IsSuccess());
  CHECK(score == 0);
}

TEST_CASE("Test_PreBindPreFlight", "[volumebinding]") {
  testing::FakeHandle h;
  auto p = NewPlugin(h);
  auto pod = MakePod().Info();
  const Symbol node_a = Symbol::Intern("node-a");

  SECTION("all bound") {
    framework::CycleState state;
    auto s = std::make_unique<VolumeBindingState>();
    s->all_bound = true;
    state.Write(Symbol::Intern("VolumeBinding"), std::move(s));
    CHECK(p->PreBindPreFlight(state, *pod, node_a) == Status::Skip());
  }
  SECTION("volume to be bound") {
    framework::CycleState state;
    auto s = std::make_unique<VolumeBindingState>();
    s->reserved_node = node_a;
    state.Write(Symbol::Intern("VolumeBinding"), std::move(s));
    CHECK(p->PreBindPreFlight(state, *pod, node_a) == Status());
  }
  SECTION("error: state is nil") {
    framework::CycleState state;
    Status got = p->PreBindPreFlight(state, *pod, node_a);
    CHECK(got.code() == Code::kError);
    CHECK(got.Message() == "not found");
  }
  SECTION("error: node is not found in podVolumesByNode") {
    framework::CycleState state;
    state.Write(Symbol::Intern("VolumeBinding"), std::make_unique<VolumeBindingState>());
    Status got = p->PreBindPreFlight(state, *pod, node_a);
    CHECK(got.code() == Code::kError);
    CHECK(got.Message() == R"(no pod volume found for node "node-a")");
  }
}

// --- schedkit-specific: the whole cycle for pods in a cluster without PVCs ---

TEST_CASE("VolumeBinding cycle for a pod without PVCs", "[volumebinding]") {
  testing::FakeHandle h;
  h.SetCluster({MakeNode().Name("node-a").Obj(), MakeNode().Name("node-b").Obj()}, {});
  auto p = NewPlugin(h);
  CHECK(p->Name() == "VolumeBinding");
  auto pod = MakePod().Name("p").Info();
  const Symbol node_a = Symbol::Intern("node-a");
  framework::CycleState state;

  auto r = p->PreFilter(state, *pod, h.snapshot().nodes());
  REQUIRE(r.status.IsSkip());
  CHECK(p->GetPreFilterExtensions() == nullptr);
  // The framework skips Filter; if called, it succeeds on the recorded state.
  for (const framework::NodeInfo* n : h.snapshot().nodes()) CHECK(p->Filter(state, *pod, *n).IsSuccess());
  // With StorageCapacityScoring on PreScore runs even without claims, and
  // every node scores 0.
  CHECK(p->PreScore(state, *pod, h.snapshot().nodes()).IsSuccess());
  int64_t score = -1;
  CHECK(p->Score(state, *pod, *h.snapshot().nodes()[0], score).IsSuccess());
  CHECK(score == 0);
  CHECK(p->GetScoreExtensions() == nullptr);
  // So do runs of nodes, and the memo may keep the zeros: nothing but the
  // pod's spec decides them.
  std::vector<int64_t> scores(2, -1);
  CHECK(p->ScoreNodes(state, *pod, h.snapshot().nodes(), scores).IsSuccess());
  CHECK(scores == std::vector<int64_t>{0, 0});
  CHECK_FALSE(p->OutcomesArePerNode());
  CHECK(p->OutcomesArePerNodeFor(*pod));
  CHECK_FALSE(p->OutcomesArePerNodeFor(*MakePod().Name("q").PVC("claim").Info()));

  // Before Reserve, PreBind finds nothing for the node, as upstream.
  CHECK(p->PreBind(state, *pod, node_a).Message() == R"(no pod volume found for node "node-a")");
  CHECK(p->Reserve(state, *pod, node_a).IsSuccess());
  CHECK(p->PreBindPreFlight(state, *pod, node_a).IsSkip());
  CHECK(p->PreBind(state, *pod, node_a).IsSuccess());
  p->Unreserve(state, *pod, node_a);

  // A clone is independent.
  auto clone = state.Clone();
  CHECK(p->PreBind(*clone, *pod, node_a).IsSuccess());
}

TEST_CASE("VolumeBinding without PreFilter state", "[volumebinding]") {
  testing::FakeHandle h;
  h.SetCluster({MakeNode().Name("node-a").Obj()}, {});
  auto p = NewPlugin(h);
  auto pod = MakePod().Info();
  framework::CycleState state;
  const Symbol node_a = Symbol::Intern("node-a");
  CHECK(p->Filter(state, *pod, *h.snapshot().nodes()[0]).Message() == "not found");
  CHECK(p->Filter(state, *pod, *h.snapshot().nodes()[0]).code() == Code::kError);
  CHECK(p->Reserve(state, *pod, node_a).Message() == "not found");
  CHECK(p->PreBind(state, *pod, node_a).Message() == "not found");
  p->Unreserve(state, *pod, node_a);  // no-op
}

TEST_CASE("VolumeBinding reports the first PVC of several", "[volumebinding]") {
  testing::FakeHandle h;
  auto p = NewPlugin(h);
  api::v1::Pod obj = MakePod().Name("p").Obj();
  obj.mutable_spec()->add_volumes()->set_name("config");  // not a PVC
  *obj.mutable_spec()->add_volumes() = PodWithPVCs({"first"}).spec().volumes(0);
  *obj.mutable_spec()->add_volumes() = PodWithPVCs({"second"}).spec().volumes(0);
  auto pod = framework::PodInfo::Create(obj);
  REQUIRE(pod.ok());
  framework::CycleState state;
  auto r = p->PreFilter(state, **pod, {});
  CHECK(r.status.code() == Code::kUnschedulableAndUnresolvable);
  CHECK(r.status.Message() == R"(persistentvolumeclaim "first" not found)");
  CHECK(state.ReadData(Symbol::Intern("VolumeBinding")) == nullptr);
}

// --- schedkit-specific: claims and volumes ---

TEST_CASE("VolumeBinding checks bound volumes' node affinity", "[volumebinding]") {
  testing::FakeStorageClient client;
  client.Add(MakeClass("wait-sc", "WaitForFirstConsumer"));
  client.Add(BoundTo(MakePVC("pvc-a", "wait-sc"), "pv-a"));
  auto pv = MakePV("pv-a", "wait-sc");
  auto* term = pv.mutable_spec()->mutable_node_affinity()->mutable_required()->add_node_selector_terms();
  auto* req = term->add_match_expressions();
  req->set_key("foo");
  req->set_operator_("In");
  req->add_values("bar");
  client.Add(pv);
  testing::FakeHandle h;
  h.set_client(&client);
  h.SetCluster(
      {MakeNode().Name("node-a").Label("foo", "bar").Obj(), MakeNode().Name("node-b").Label("foo", "barbar").Obj()},
      {});
  auto p = NewPlugin(h);
  framework::CycleState state;
  auto pod = testing::Info(PodWithPVCs({"pvc-a"}));
  REQUIRE(p->PreFilter(state, *pod, h.snapshot().nodes()).status.IsSuccess());
  CHECK(p->Filter(state, *pod, *h.snapshot().Get(std::string_view("node-a"))).IsSuccess());
  CHECK(p->Filter(state, *pod, *h.snapshot().Get(std::string_view("node-b"))) ==
        Status::WithText(Code::kUnschedulableAndUnresolvable, "node(s) didn't match PersistentVolume's node affinity"));
  CHECK(p->Reserve(state, *pod, Symbol::Intern("node-a")).IsSuccess());
  CHECK(p->PreBindPreFlight(state, *pod, Symbol::Intern("node-a")).IsSkip());
}

TEST_CASE("VolumeBinding claim states", "[volumebinding]") {
  testing::FakeStorageClient client;
  client.Add(MakeClass("wait-sc", "WaitForFirstConsumer"));
  api::v1::StorageClass unset;
  unset.mutable_metadata()->set_name("unset-sc");
  client.Add(unset);
  auto deleting = BoundTo(MakePVC("deleting", "wait-sc"), "pv");
  deleting.mutable_metadata()->set_deletion_timestamp("2026-01-01T00:00:00Z");
  client.Add(deleting);
  client.Add(MakePVC("unset", "unset-sc"));
  client.Add(MakePVC("no-class-object", "gone-sc"));  // unknown class: immediate
  auto prebound_only = MakePVC("prebound-only", "wait-sc");  // names a volume, not bind-completed
  prebound_only.mutable_spec()->set_volume_name("pv-x");
  client.Add(prebound_only);
  client.Add(MakePVC("delayed", "wait-sc"));
  // An ephemeral volume's claim must be controlled by the pod.
  auto owned = MakePVC("p-scratch", "wait-sc");
  auto* ref = owned.mutable_metadata()->add_owner_references();
  ref->set_kind("Pod");
  ref->set_name("p");
  ref->set_uid("other-uid");
  ref->set_controller(true);
  client.Add(BoundTo(owned, "pv-x"));
  testing::FakeHandle h;
  h.set_client(&client);
  auto p = NewPlugin(h);
  auto pre_filter = [&](const api::v1::Pod& obj) {
    framework::CycleState state;
    return p->PreFilter(state, *testing::Info(obj), {}).status;
  };
  auto unresolvable = [](const std::string& text) {
    return Status::WithText(Code::kUnschedulableAndUnresolvable, text);
  };
  CHECK(pre_filter(PodWithPVCs({"deleting"})) ==
        unresolvable(R"(persistentvolumeclaim "deleting" is being deleted)"));
  CHECK(pre_filter(PodWithPVCs({"unset"})).Message() == R"(VolumeBindingMode not set for StorageClass "unset-sc")");
  CHECK(pre_filter(PodWithPVCs({"no-class-object"})) ==
        unresolvable("pod has unbound immediate PersistentVolumeClaims"));
  CHECK(pre_filter(PodWithPVCs({"prebound-only"})) ==
        unresolvable("pod has unbound immediate PersistentVolumeClaims"));
  CHECK(pre_filter(PodWithPVCs({"delayed"})) == Status());

  api::v1::Volume scratch;
  scratch.set_name("scratch");
  scratch.mutable_ephemeral()->mutable_volume_claim_template()->mutable_spec()->add_access_modes("ReadWriteOnce");
  auto ephemeral_pod = MakePod().Name("p").Namespace("default").UID("pod-uid").Volume(scratch).Obj();
  CHECK(pre_filter(ephemeral_pod) ==
        unresolvable("PVC default/p-scratch was not created for pod default/p (pod is not owner)"));
  auto other = MakePod().Name("q").Namespace("default").Volume(scratch).Obj();
  CHECK(pre_filter(other) ==
        unresolvable(R"(waiting for ephemeral volume controller to create the persistentvolumeclaim "q-scratch")"));
  ephemeral_pod.mutable_metadata()->set_uid("other-uid");
  CHECK(pre_filter(ephemeral_pod).IsSuccess());
}

// The plugin's hint registered for `resource`.
framework::QueueingHintFn HintFor(VolumeBinding& p, framework::EventResource resource) {
  for (auto& e : p.EventsToRegister()) {
    if (e.event.resource == resource) return e.hint;
  }
  return nullptr;
}

TEST_CASE("VolumeBinding queueing hints", "[volumebinding]") {
  using framework::EventResource;
  using framework::QueueingHint;
  testing::FakeHandle h;
  auto p = NewPlugin(h);
  const auto events = p->EventsToRegister();
  REQUIRE(events.size() == 7);
  CHECK(events[3].event.resource == EventResource::Node());
  CHECK(events[3].event.action == (framework::kActionAdd | framework::kActionUpdateNodeLabel));
  CHECK(events[2].event.resource == EventResource::Of<api::v1::PersistentVolume>());
  CHECK_FALSE(static_cast<bool>(events[2].hint));
  auto pod = testing::Info(PodWithPVCs({"pvc-a"}));

  SECTION("TestIsSchedulableAfterPersistentVolumeClaimChange") {
    auto hint = HintFor(*p, EventResource::Of<api::v1::PersistentVolumeClaim>());
    framework::EventObjects e;
    const auto mine = MakePVC("pvc-a", "sc");
    const auto other = MakePVC("pvc-b", "sc");
    auto elsewhere = MakePVC("pvc-a", "sc");
    elsewhere.mutable_metadata()->set_namespace_("ns");
    e.SetNew(&mine);
    CHECK(*hint(*pod, e) == QueueingHint::kQueue);
    e.SetNew(&other);
    CHECK(*hint(*pod, e) == QueueingHint::kSkip);
    e.SetNew(&elsewhere);
    CHECK(*hint(*pod, e) == QueueingHint::kSkip);
  }
  SECTION("TestIsSchedulableAfterStorageClassChange") {
    auto hint = HintFor(*p, EventResource::Of<api::v1::StorageClass>());
    auto a = MakeClass("sc", "WaitForFirstConsumer");
    auto b = a;
    b.add_allowed_topologies()->add_match_label_expressions()->set_key("zone");
    framework::EventObjects e;
    e.SetNew(&a);
    CHECK(*hint(*pod, e) == QueueingHint::kQueue);  // added
    e.SetOld(&a);
    CHECK(*hint(*pod, e) == QueueingHint::kSkip);  // nothing changed
    e.SetNew(&b);
    CHECK(*hint(*pod, e) == QueueingHint::kQueue);  // allowed topologies changed
  }
  SECTION("TestIsSchedulableAfterCSIStorageCapacityChange") {
    auto hint = HintFor(*p, EventResource::Of<api::v1::CSIStorageCapacity>());
    api::v1::CSIStorageCapacity small, big;
    small.set_capacity("1Gi");
    big.set_capacity("2Gi");
    api::v1::CSIStorageCapacity max_small = big;
    max_small.set_maximum_volume_size("1Gi");
    framework::EventObjects e;
    e.SetNew(&small);
    CHECK(*hint(*pod, e) == QueueingHint::kQueue);  // added
    e.SetOld(&small);
    e.SetNew(&big);
    CHECK(*hint(*pod, e) == QueueingHint::kQueue);  // grew
    e.SetOld(&big);
    e.SetNew(&small);
    CHECK(*hint(*pod, e) == QueueingHint::kSkip);  // shrank
    e.SetOld(&small);
    e.SetNew(&max_small);
    CHECK(*hint(*pod, e) == QueueingHint::kSkip);  // maximumVolumeSize is what counts
  }
  SECTION("TestIsSchedulableAfterCSINodeChange") {
    auto hint = HintFor(*p, EventResource::Of<api::v1::CSINode>());
    api::v1::CSINode a, b;
    (*b.mutable_metadata()->mutable_annotations())["storage.alpha.kubernetes.io/migrated-plugins"] =
        "kubernetes.io/gce-pd";
    framework::EventObjects e;
    e.SetNew(&a);
    CHECK(*hint(*pod, e) == QueueingHint::kQueue);  // added
    e.SetOld(&a);
    CHECK(*hint(*pod, e) == QueueingHint::kSkip);
    e.SetNew(&b);
    CHECK(*hint(*pod, e) == QueueingHint::kQueue);
  }
  SECTION("TestIsSchedulableAfterCSIDriverChange") {
    auto hint = HintFor(*p, EventResource::Of<api::v1::CSIDriver>());
    api::v1::CSIDriver on;
    on.mutable_metadata()->set_name("test-driver");
    on.mutable_spec()->set_storage_capacity(true);
    api::v1::CSIDriver off = on;
    off.mutable_spec()->set_storage_capacity(false);
    api::v1::Volume inline_csi;
    inline_csi.set_name("v");
    inline_csi.mutable_csi()->set_driver("test-driver");
    auto csi_pod = testing::Info(MakePod().Name("p").Volume(inline_csi).Obj());
    framework::EventObjects e;
    e.SetOld(&on);
    e.SetNew(&off);
    CHECK(*hint(*csi_pod, e) == QueueingHint::kQueue);
    CHECK(*hint(*pod, e) == QueueingHint::kSkip);  // the pod does not use the driver
    e.SetOld(&off);
    e.SetNew(&on);
    CHECK(*hint(*csi_pod, e) == QueueingHint::kSkip);
  }
}

TEST_CASE("VolumeBinding args", "[volumebinding]") {
  testing::FakeHandle h;
  SECTION("defaults") {
    auto a = ParseVolumeBindingArgs(framework::PluginArgs());
    REQUIRE(a.ok());
    CHECK(a->bind_timeout_seconds == 600);
    CHECK(NewPlugin(h)->bind_timeout() == absl::Seconds(600));
  }
  SECTION("explicit values, zero allowed") {
    auto a = ParseVolumeBindingArgs(framework::PluginArgs(R"({"bindTimeoutSeconds": 0, "shape": null})"));
    REQUIRE(a.ok());
    CHECK(a->bind_timeout_seconds == 0);
  }
  SECTION("negative bindTimeoutSeconds") {
    auto a = NewVolumeBinding(framework::PluginArgs(R"({"bindTimeoutSeconds": -1})"), h);
    REQUIRE_FALSE(a.ok());
    CHECK(a.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(std::string(a.status().message()) ==
          "VolumeBinding args: bindTimeoutSeconds: Invalid value: -1: invalid BindTimeoutSeconds, should not "
          "be a "
          "negative value");
  }
  SECTION("shape without StorageCapacityScoring") {
    framework::FeatureGates off;
    REQUIRE(off.Set("StorageCapacityScoring=false").ok());
    framework::PluginArgs args(R"({"shape": [{"utilization": 0, "score": 10}]})");
    args.set_gates(&off);
    auto a = NewVolumeBinding(args, h);
    REQUIRE_FALSE(a.ok());
    CHECK(std::string(a.status().message()) ==
          "VolumeBinding args: shape: Invalid value: [{0 10}]: unexpected field `shape`, remove it or turn on the "
          "feature gate StorageCapacityScoring");
    framework::PluginArgs none;
    none.set_gates(&off);
    CHECK_FALSE(ParseVolumeBindingArgs(none)->shape.has_value());
    // At the defaults (v1.37: on) the shape is defaulted.
    CHECK(ParseVolumeBindingArgs(framework::PluginArgs())->shape.has_value());
  }
  SECTION("shape with StorageCapacityScoring: defaulted and validated (SetDefaults_VolumeBindingArgs, "
          "validateFunctionShape)") {
    framework::FeatureGates gates;
    REQUIRE(gates.Set("StorageCapacityScoring=true").ok());
    auto with_gates = [&](const char* json) {
      framework::PluginArgs args(json);
      args.set_gates(&gates);
      return ParseVolumeBindingArgs(args);
    };
    auto defaulted = with_gates("{}");
    REQUIRE(defaulted.ok());
    REQUIRE(defaulted->shape.has_value());
    REQUIRE(defaulted->shape->size() == 2);
    CHECK(((*defaulted->shape)[0].utilization == 0 && (*defaulted->shape)[0].score == 10));
    CHECK(((*defaulted->shape)[1].utilization == 100 && (*defaulted->shape)[1].score == 0));
    auto given = with_gates(R"({"shape": [{"utilization": 20, "score": 3}]})");
    REQUIRE(given.ok());
    CHECK(given->shape->size() == 1);
    CHECK(with_gates(R"({"shape": [{"utilization": 50, "score": 1}, {"utilization": 40, "score": 11}]})")
              .status()
              .message() ==
          "VolumeBinding args: [shape[1].utilization: Invalid value: 40: values must be sorted in increasing order, "
          "shape[1].score: Invalid value: 11: not in valid range [0, 10]]");
    CHECK(with_gates(R"({"shape": [{"utilization": 101, "score": 0}]})").status().message() ==
          "VolumeBinding args: shape[0].utilization: Invalid value: 101: not in valid range [0, 100]");
  }
  SECTION("unknown field") {
    auto a = NewVolumeBinding(framework::PluginArgs(R"({"bindTimeout": 5})"), h);
    REQUIRE_FALSE(a.ok());
    CHECK(std::string(a.status().message()) == "VolumeBinding args: bindTimeout: unknown field");
  }
  SECTION("wrong type") {
    auto a = NewVolumeBinding(framework::PluginArgs(R"({"bindTimeoutSeconds": "10"})"), h);
    REQUIRE_FALSE(a.ok());
    CHECK_THAT(std::string(a.status().message()), Catch::Contains("bindTimeoutSeconds"));
  }
  SECTION("apiVersion and kind are allowed") {
    auto a = ParseVolumeBindingArgs(framework::PluginArgs(
        R"({"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "VolumeBindingArgs", "bindTimeoutSeconds": 5})"));
    REQUIRE(a.ok());
    CHECK(a->bind_timeout_seconds == 5);
  }
}

}  // namespace
}  // namespace schedkit::plugins
