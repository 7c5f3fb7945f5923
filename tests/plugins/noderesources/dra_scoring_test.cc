// Scoring an extended resource backed by DRA: upstream v1.37.2
// resource_allocation_test.go TestCalculateResourceAllocatableRequest, as
// facts (its node, DeviceClasses, slices and allocated claims as YAML, its
// expected allocatable and allocated).
#include "plugins/noderesources/dra_scoring.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "plugins/noderesources/balanced_allocation.h"
#include "plugins/noderesources/fit.h"
#include "schedkit/api/decode.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/api/v1/kinds.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"

namespace schedkit::plugins::noderesources {
namespace {

constexpr char kExplicitClass[] = R"(
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: device-class-name}
spec: {extendedResourceName: example.com/gpu}
)";

std::string Slice(const std::vector<std::string>& devices) {
  std::string list;
  for (const std::string& d : devices) list += (list.empty() ? "" : ", ") + std::string("{name: ") + d + "}";
  return R"(
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: resource-node-test-driver}
spec:
  driver: test-driver
  nodeName: resource-node
  pool: {name: resource-node, generation: 1, resourceSliceCount: 1}
  devices: [)" + list + "]\n";
}

std::string Claim(const std::string& name, const std::string& pool, const std::string& device,
                  const std::string& share = "") {
  return R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: )" + name + R"(, namespace: default, uid: )" + name + R"(}
spec:
  devices:
    requests: [{name: req-1, exactly: {deviceClassName: device-class-name}}]
status:
  allocation:
    devices:
      results: [{request: req-1, driver: test-driver, pool: )" + pool + ", device: " + device +
         (share.empty() ? "" : ", shareID: " + share) + "}]\n";
}

struct Case {
  std::string name;
  bool dra_extended_resource;
  api::v1::Node node;
  std::string resource;
  std::vector<std::string> objects;
  int64_t allocatable;
  int64_t allocated;
};

TEST_CASE("TestCalculateResourceAllocatableRequest: DRA-backed resources", "[noderesources][dra]") {
  const std::string explicit_name = "example.com/gpu";
  const std::string implicit_name = "deviceclass.resource.kubernetes.io/device-class-name";
  const api::v1::Node plain = testing::MakeNode().Name("resource-node").Obj();
  const std::vector<Case> cases = {
      {"device-plugin-resource-feature-disabled", false,
       testing::MakeNode().Name("resource-node").Capacity({{explicit_name, "4"}}).Obj(), explicit_name, {}, 4, 0},
      {"device-plugin-resource-feature-enabled", true,
       testing::MakeNode().Name("resource-node").Capacity({{explicit_name, "4"}}).Obj(), explicit_name, {}, 4, 0},
      {"DRA-backed-resource-explicit", true, plain, explicit_name, {kExplicitClass, Slice({"device-1"})}, 1, 0},
      {"DRA-backed-resource-implicit",
       true,
       plain,
       implicit_name,
       {"apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: device-class-name}\n",
        Slice({"device-1"})},
       1,
       0},
      {"DRA-backed-resource-no-slices", true, plain, explicit_name, {kExplicitClass}, 0, 0},
      {"DRA-backed-resource-with-allocated-device",
       true,
       plain,
       explicit_name,
       {kExplicitClass, Slice({"device-1", "device-2"}), Claim("test-claim", "resource-node", "device-1")},
       2,
       1},
      {"DRA-backed-resource-with-shared-device-allocation",
       true,
       plain,
       explicit_name,
       {kExplicitClass, Slice({"device-1", "device-2"}),
        Claim("test-claim", "resource-node", "device-1", "share-123")},
       2,
       1},
      {"DRA-backed-resource-multiple-devices-mixed-allocation",
       true,
       plain,
       explicit_name,
       {kExplicitClass, Slice({"device-1", "device-2", "device-3"}),
        Claim("test-claim-1", "resource-node", "device-1"),
        Claim("test-claim-2", "resource-node", "device-2", "share-456")},
       3,
       2},
      {"DRA-backed-resource-with-per-device-node-selection",
       true,
       testing::MakeNode().Name("resource-node").Label("zone", "us-east-1a").Obj(),
       explicit_name,
       {R"(
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: device-class-name}
spec:
  extendedResourceName: example.com/gpu
  selectors:
  - cel:
      expression: 'device.driver == "test-driver" && device.capacity["test-driver"].memory.compareTo(quantity("8Gi")) >= 0 && device.attributes["test-driver"].model.startsWith("SOME-")'
)",
        R"(
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: per-device-slice}
spec:
  driver: test-driver
  pool: {name: per-device-pool, resourceSliceCount: 1}
  perDeviceNodeSelection: true
  devices:
  - {name: device-1, nodeName: resource-node, attributes: {model: {string: SOME-XYZ}}, capacity: {memory: {value: 16Gi}}}
  - {name: device-2, nodeName: other-node, attributes: {model: {string: SOME-ZYX}}, capacity: {memory: {value: 12Gi}}}
  - name: device-3
    nodeSelector:
      nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [us-east-1a]}]}]
    attributes: {model: {string: SOME-XZY}}
    capacity: {memory: {value: 24Gi}}
)",
        Claim("test-claim", "per-device-pool", "device-1")},
       2,
       1},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION(tc.name) {
      testing::FakeHandle h;
      h.SetCluster({tc.node}, {});
      std::string text;
      for (const std::string& d : tc.objects) text += d + "\n---\n";
      if (!text.empty()) {
        absl::StatusOr<api::DecodedCluster> decoded = api::Decode(text, "case.yaml");
        REQUIRE(decoded.ok());
        for (const api::Kind* kind : decoded->objects.kinds()) {
          for (const api::AnyObject& o : decoded->objects.List(*kind)) REQUIRE(h.store().Upsert(*kind, o).ok());
        }
      }
      ScoredResources rs = CompileResources({{tc.resource, 1}});
      rs[0].pod_request = 1;
      dra::SelectorCache selectors;
      DraScoringSources sources{&h.objects(), std::make_shared<internal::ClaimTracker>(h.objects()), true, &selectors};
      const framework::NodeInfo* node = h.snapshot().nodes()[0];
      std::shared_ptr<const DraDeviceCounts> counts;
      if (tc.dra_extended_resource) {
        counts = DraDeviceCounts::CountAndAttach(sources, {&node, 1}, rs);
      }
      int64_t allocatable = 0;
      int64_t requested = 0;
      if (AllocatableAndRequested(*node, rs[0], /*use_requested=*/false, allocatable, requested)) {
        CHECK(allocatable == tc.allocatable);
        CHECK(requested - rs[0].pod_request == tc.allocated);
      } else {
        // Skipped: upstream's 0 allocatable.
        CHECK(tc.allocatable == 0);
        CHECK(tc.allocated == 0);
      }
    }
  }
}

}  // namespace
}  // namespace schedkit::plugins::noderesources

namespace schedkit::plugins::noderesources {
namespace {

// upstream TestBalancedAllocationSignPod "DRA extended resource enabled -
// returns unschedulable" / "DRA extended resource disabled" (no class), and
// Fit's SignPod, which declines the same way.
TEST_CASE("SignPod declines a pod asking for a DRA-backed extended resource", "[noderesources][dra]") {
  const api::v1::Pod pod = testing::MakePod().Name("p").Req({{"example.com/gpu", "1"}}).Obj();
  auto info = framework::PodInfo::Create(pod);
  REQUIRE(info.ok());
  for (const bool with_class : {true, false}) {
    testing::FakeHandle h;
    if (with_class) {
      absl::StatusOr<api::DecodedCluster> decoded = api::Decode(kExplicitClass, "class.yaml");
      REQUIRE(decoded.ok());
      for (const auto& c : decoded->objects.Of<api::v1::DeviceClass>()) {
        REQUIRE(h.store().Upsert(std::make_shared<const api::v1::DeviceClass>(c)).ok());
      }
    }
    auto fit = NewNodeResourcesFit(framework::PluginArgs(""), h);
    auto balanced = NewNodeResourcesBalancedAllocation(framework::PluginArgs(""), h);
    REQUIRE(fit.ok());
    REQUIRE(balanced.ok());
    for (framework::Plugin* plugin : {fit->get(), balanced->get()}) {
      INFO(plugin->Name() << (with_class ? " with" : " without") << " a class for example.com/gpu");
      framework::BatchSignatureBuilder signature;
      const framework::Status s = dynamic_cast<framework::SignPlugin&>(*plugin).SignPod(**info, signature);
      if (with_class) {
        CHECK(s == framework::Status::WithText(framework::Code::kUnschedulable,
                                               "signature disabled when dra extended resources are used in the cluster"));
      } else {
        CHECK(s.IsSuccess());
      }
    }
  }
}

}  // namespace
}  // namespace schedkit::plugins::noderesources
