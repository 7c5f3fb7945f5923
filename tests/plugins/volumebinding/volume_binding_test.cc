// Ports of upstream v1.35.8 pkg/scheduler/framework/plugins/volumebinding
// volume_binding_test.go, for the cases that apply to a cluster without
// PersistentVolumeClaims, PersistentVolumes, StorageClasses, CSIDrivers and
// CSIStorageCapacities (schedkit's model):
//  - TestVolumeBinding: "pod has not pvcs", "PVC does not exist" (2 of 19).
//    The other 17 need PVC/PV/StorageClass/CSIStorageCapacity objects (bound
//    claims, immediate/delayed binding, capacity scoring with the
//    StorageCapacityScoring gate on) and cannot be expressed here.
//  - Test_PreBindPreFlight: "all bound", "error: state is nil", "error: node
//    is not found in podVolumesByNode" (3 of 4). "volume to be bound" needs
//    volumes found for a node, which only exist with PVC objects; the third
//    case's state (volumes for another node only) is represented by a state
//    without volumes, which takes the same path.
//  - The queueing-hint tests (CSINode, PVC, StorageClass,
//    CSIStorageCapacity, CSIDriver changes) need those objects and events,
//    which schedkit's event model does not have.
#include "plugins/volumebinding/volume_binding.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"

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

TEST_CASE("TestVolumeBinding", "[volumebinding]") {
  testing::FakeHandle h;
  h.SetCluster({MakeNode().Name("node-a").Obj()}, {});
  // Upstream's default for these cases: BindTimeoutSeconds 300.
  auto p = NewPlugin(h, R"({"bindTimeoutSeconds": 300})");
  framework::CycleState state;

  SECTION("pod has not pvcs") {
    auto pod = MakePod().Name("pod-a").Namespace("default").Info();
    auto r = p->PreFilter(state, *pod, h.snapshot().nodes());
    CHECK(r.result.AllNodes());
    CHECK(r.status == Status::Skip());
  }
  SECTION("PVC does not exist") {
    auto pod = framework::PodInfo::Create(PodWithPVCs({"pvc-a"}));
    REQUIRE(pod.ok());
    auto r = p->PreFilter(state, **pod, h.snapshot().nodes());
    CHECK(r.result.AllNodes());
    CHECK(r.status.code() == Code::kUnschedulableAndUnresolvable);
    CHECK(r.status.Reasons() == std::vector<std::string>{R"(persistentvolumeclaim "pvc-a" not found)"});
  }
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
  CHECK(p->PreScore(state, *pod, h.snapshot().nodes()).IsSkip());
  int64_t score = -1;
  CHECK(p->Score(state, *pod, *h.snapshot().nodes()[0], score).IsSuccess());
  CHECK(score == 0);
  CHECK(p->GetScoreExtensions() == nullptr);

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

TEST_CASE("VolumeBinding registers node events only", "[volumebinding]") {
  testing::FakeHandle h;
  auto p = NewPlugin(h);
  auto events = p->EventsToRegister();
  REQUIRE(events.size() == 1);
  CHECK(events[0].event.resource == framework::EventResource::kNode);
  CHECK(events[0].event.action == (framework::kActionAdd | framework::kActionUpdateNodeLabel));
  CHECK_FALSE(static_cast<bool>(events[0].hint));
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
    auto a = NewVolumeBinding(framework::PluginArgs(R"({"shape": [{"utilization": 0, "score": 10}]})"), h);
    REQUIRE_FALSE(a.ok());
    CHECK_THAT(
        std::string(a.status().message()),
        Catch::Contains("shape") && Catch::Contains("turn on the feature gate StorageCapacityScoring"));
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
