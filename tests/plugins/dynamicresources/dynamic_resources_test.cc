// Ports of upstream v1.37.2 pkg/scheduler/framework/plugins/dynamicresources
// dynamicresources_test.go, as facts: each case names upstream's, with its
// fixtures (node "worker", driver "some-driver", device class
// "my-resource-class", pod "my-pod" uid 1234, claim "my-pod-my-resource" with
// request "req-1") written as YAML, and upstream's expected statuses and
// writes. Ported from TestPlugin: empty, missing-claim, deleted-claim,
// wrong-claim, claim-reference, with-resources, exhausted-resources-in-
// informer-cache, exhausted-resources-in-flight-claim, tainted-device-
// enabled, claim-parameters-CEL-runtime-error, missing-class,
// claim-with-request-with-unknown-device-class, wrong-topology,
// good-topology, reserved-okay, timeout, bound-claim-with-failed-binding,
// single-claim-prioritized-list-scoring; from TestIsSchedulableAfterClaimChange
// and TestIsSchedulableAfterTargetPodUpdate their main rows; TestNormalizeScore;
// the DRAExtendedResource cases extended-resource-name-with-node-resource,
// extended-resource-one-device-plugin-one-dra, extended-resource-name-with-
// zero-allocatable, non-DRA-extended-resource-name-with-zero-allocatable,
// extended-resource-name-no-resource, extended-resource-name-with-resources,
// -fail-patch, -has-claim, -bind-failure and -claim-creation-failure.
// Left for later: the pod-group and node-allocatable cases (alpha gates),
// and the API-reactor cases for finalizer removal races.
#include "plugins/dynamicresources/dynamic_resources.h"

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "schedkit/api/decode.h"
#include "schedkit/api/v1/kinds.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/framework/feature_gates.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"
#include "schedkit/testing/noop_cluster_client.h"
#include "testing/normalizes_by_maximum.h"

namespace schedkit::plugins {
namespace {

using api::v1::ResourceClaim;
using framework::Code;
using framework::Status;

constexpr char kBase[] = R"(
apiVersion: v1
kind: Node
metadata: {name: worker, labels: {kubernetes.io/hostname: worker}}
---
apiVersion: v1
kind: Pod
metadata: {name: my-pod, namespace: default, uid: "1234"}
spec:
  containers: [{name: c}]
  resourceClaims: [{name: my-resource, resourceClaimName: my-pod-my-resource}]
)";

constexpr char kClass[] = R"(
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: my-resource-class}
)";

constexpr char kWorkerSlice[] = R"(
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: worker-some-driver}
spec:
  driver: some-driver
  nodeName: worker
  pool: {name: worker, generation: 1, resourceSliceCount: 1}
  devices: [{name: instance-1}]
)";

// upstream's pendingClaim: the claim, owned by the pod, not allocated.
constexpr char kPendingClaim[] = R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: my-pod-my-resource
  namespace: default
  uid: claim-uid
  resourceVersion: "1"
  ownerReferences: [{apiVersion: v1, kind: Pod, name: my-pod, uid: "1234", controller: true}]
spec:
  devices:
    requests: [{name: req-1, exactly: {deviceClassName: my-resource-class}}]
)";

// upstream's allocationResult: instance-1 of worker, reachable from worker.
constexpr char kAllocation[] = R"(
status:
  allocation:
    devices:
      results: [{request: req-1, driver: some-driver, pool: worker, device: instance-1}]
    nodeSelector:
      nodeSelectorTerms:
      - matchFields: [{key: metadata.name, operator: In, values: [worker]}]
)";

constexpr char kOtherAllocatedClaim[] = R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: not-my-claim, namespace: default, uid: other-uid, resourceVersion: "1"}
spec:
  devices:
    requests: [{name: req-1, exactly: {deviceClassName: my-resource-class}}]
status:
  allocation:
    devices:
      results: [{request: req-1, driver: some-driver, pool: worker, device: instance-1}]
)";

// The API server behind the plugin's claim writes: conflicts on a stale
// resourceVersion, bumps it on every write, and keeps the handle's store
// up to date as the scheduler's informer would.
class ClaimApi : public testing::NoopClusterClient {
 public:
  explicit ClaimApi(api::ObjectStore& store) : store_(store) {}
  // Creates a claim, naming it <generateName><n> as upstream's test reactor.
  absl::StatusOr<api::AnyObject> CreateObject(const api::Kind& kind, const google::protobuf::Message& o) override {
    REQUIRE(&kind == &api::KindOf<ResourceClaim>());
    if (!fail_create.empty()) return absl::InvalidArgumentError(fail_create);
    auto stored = std::make_shared<ResourceClaim>(static_cast<const ResourceClaim&>(o));
    stored->mutable_metadata()->set_name(schedkit::StrCat(stored->metadata().generate_name(), created++));
    stored->mutable_metadata()->set_uid(schedkit::StrCat("uid-", stored->metadata().name()));
    stored->mutable_metadata()->set_resource_version("1");
    writes.push_back(schedkit::StrCat("create ", stored->metadata().name()));
    REQUIRE(store_.Upsert(std::shared_ptr<const ResourceClaim>(stored)).ok());
    return api::AnyObject(stored);
  }
  absl::Status DeleteObject(const api::Kind& kind, std::string_view ns, std::string_view name) override {
    REQUIRE(&kind == &api::KindOf<ResourceClaim>());
    writes.push_back(schedkit::StrCat("delete ", name));
    return store_.Delete(kind, ns, name).status();
  }
  absl::StatusOr<api::AnyObject> UpdateObject(const api::Kind& kind, const google::protobuf::Message& o) override {
    return Write(kind, o, /*status=*/false);
  }
  absl::StatusOr<api::AnyObject> UpdateObjectStatus(const api::Kind& kind,
                                                    const google::protobuf::Message& o) override {
    if (&kind == &api::KindOf<api::v1::Pod>()) {
      const auto& pod = static_cast<const api::v1::Pod&>(o);
      writes.push_back(schedkit::StrCat("pod status ", pod.metadata().name()));
      if (!fail_pod_status.empty()) return absl::InvalidArgumentError(fail_pod_status);
      pod_status = pod.status().extended_resource_claim_status();
      return api::AnyObject(std::make_shared<const api::v1::Pod>(pod));
    }
    return Write(kind, o, /*status=*/true);
  }
  std::vector<std::string> writes;  // "create|update|status|delete <name>", "pod status <pod>"
  std::string fail_create;          // an error for every create
  std::string fail_pod_status;      // an error for every pod status write
  api::v1::PodExtendedResourceClaimStatus pod_status;
  int created = 0;

 private:
  absl::StatusOr<api::AnyObject> Write(const api::Kind& kind, const google::protobuf::Message& o, bool status) {
    REQUIRE(&kind == &api::KindOf<ResourceClaim>());
    const auto& claim = static_cast<const ResourceClaim&>(o);
    writes.push_back(schedkit::StrCat(status ? "status " : "update ", claim.metadata().name()));
    auto held = store_.Get<ResourceClaim>(claim.metadata().namespace_(), claim.metadata().name());
    if (held == nullptr) return absl::NotFoundError("not found");
    if (!claim.metadata().resource_version().empty() &&
        claim.metadata().resource_version() != held->metadata().resource_version()) {
      return absl::AbortedError("the object has been modified");
    }
    auto stored = std::make_shared<ResourceClaim>(*held);
    if (status) {
      *stored->mutable_status() = claim.status();
    } else {
      *stored->mutable_metadata() = claim.metadata();
    }
    stored->mutable_metadata()->set_resource_version(
        schedkit::StrCat(std::stoi(held->metadata().resource_version()) + 1));
    REQUIRE(store_.Upsert(std::shared_ptr<const ResourceClaim>(stored)).ok());
    return api::AnyObject(stored);
  }
  api::ObjectStore& store_;
};

// One case's world: the YAML documents, a handle holding them, the plugin.
struct World {
  testing::FakeHandle h;
  ClaimApi api{h.store()};
  std::unique_ptr<DynamicResources> plugin;
  framework::PodInfoPtr pod;

  explicit World(const std::vector<std::string>& docs, std::string args = "") {
    std::string text;
    for (const std::string& d : docs) text += d + "\n---\n";
    absl::StatusOr<api::DecodedCluster> decoded = api::Decode(text, "case.yaml");
    REQUIRE(decoded.ok());
    std::vector<api::v1::Node> nodes;
    for (const auto& n : decoded->objects.Of<api::v1::Node>()) nodes.push_back(n);
    h.SetCluster(nodes, {});
    for (const api::Kind* kind : decoded->objects.kinds()) {
      if (kind == &api::KindOf<api::v1::Node>()) continue;
      if (kind == &api::KindOf<api::v1::Pod>()) continue;
      for (const api::AnyObject& o : decoded->objects.List(*kind)) REQUIRE(h.store().Upsert(*kind, o).ok());
    }
    for (const auto& p : decoded->objects.Of<api::v1::Pod>()) pod = *framework::PodInfo::Create(p);
    h.set_client(&api);
    auto made = NewDynamicResources(framework::PluginArgs(std::move(args)), h);
    REQUIRE(made.ok());
    plugin.reset(dynamic_cast<DynamicResources*>(made->release()));
    REQUIRE(plugin != nullptr);
  }

  std::shared_ptr<const ResourceClaim> Claim(const std::string& name = "my-pod-my-resource") {
    return h.store().Get<ResourceClaim>("default", name);
  }

  // Filter on every node, by name.
  std::map<std::string, Status> FilterAll(framework::CycleState& state) {
    std::map<std::string, Status> out;
    for (const framework::NodeInfo* n : h.snapshot().nodes()) {
      out[std::string(n->name().str())] = plugin->Filter(state, *pod, *n);
    }
    return out;
  }
};

std::string With(const char* claim, const char* extra) { return std::string(claim) + extra; }

Status Unresolvable(std::string text) { return Status::WithText(Code::kUnschedulableAndUnresolvable, std::move(text)); }

TEST_CASE("TestPlugin: claims missing, deleted or not the pod's", "[dynamicresources]") {
  SECTION("missing-claim") {
    World w({kBase, R"(
apiVersion: v1
kind: Pod
metadata: {name: my-pod, namespace: default, uid: "1234"}
spec:
  containers: [{name: c}]
  resourceClaims: [{name: my-resource, resourceClaimTemplateName: my-pod-my-resource}]
)"});
    CHECK(w.plugin->PreEnqueue(*w.pod) == Unresolvable(R"(pod "default/my-pod": ResourceClaim not created yet)"));
  }
  const std::string template_in_status = R"(
apiVersion: v1
kind: Pod
metadata: {name: my-pod, namespace: default, uid: "1234"}
spec:
  containers: [{name: c}]
  resourceClaims: [{name: my-resource, resourceClaimTemplateName: my-pod-my-resource}]
status:
  resourceClaimStatuses: [{name: my-resource, resourceClaimName: my-pod-my-resource}]
)";
  SECTION("deleted-claim") {
    std::string claim = With(kPendingClaim, kAllocation);
    claim.replace(claim.find("  uid: claim-uid"), 16, "  uid: claim-uid\n  deletionTimestamp: \"2026-01-01T00:00:00Z\"");
    World w({kBase, template_in_status, claim});
    CHECK(w.plugin->PreEnqueue(*w.pod) == Unresolvable(R"(resourceclaim "my-pod-my-resource" is being deleted)"));
  }
  SECTION("wrong-claim") {
    std::string claim = With(kPendingClaim, kAllocation);
    claim.replace(claim.find("uid: \"1234\""), 11, "uid: \"1234123\"");
    World w({kBase, template_in_status, claim});
    CHECK(w.plugin->PreEnqueue(*w.pod) ==
          Unresolvable("ResourceClaim default/my-pod-my-resource was not created for Pod default/my-pod (Pod is not owner)"));
  }
  SECTION("no claim object at all") {
    World w({kBase});
    CHECK(w.plugin->PreEnqueue(*w.pod) == Unresolvable(R"(could not find ResourceClaim "default/my-pod-my-resource")"));
  }
}

TEST_CASE("TestPlugin: with-resources (allocate, reserve, write)", "[dynamicresources]") {
  World w({kBase, kClass, kWorkerSlice, kPendingClaim});
  framework::CycleState state;
  CHECK(w.plugin->PreEnqueue(*w.pod) == Status());
  CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status == Status());
  CHECK(w.FilterAll(state)["worker"] == Status());
  const Symbol worker = Symbol::Intern("worker");
  int64_t score = -1;
  CHECK(w.plugin->Score(state, *w.pod, *w.h.snapshot().Get(worker), score) == Status());
  CHECK(score == 0);
  CHECK(w.plugin->Reserve(state, *w.pod, worker) == Status());
  CHECK(w.plugin->PreBindPreFlight(state, *w.pod, worker) == Status());
  CHECK(w.plugin->PreBind(state, *w.pod, worker) == Status());
  // The finalizer first, then the allocation and the reservation.
  CHECK(w.api.writes == std::vector<std::string>{"update my-pod-my-resource", "status my-pod-my-resource"});
  auto claim = w.Claim();
  REQUIRE(claim != nullptr);
  REQUIRE(claim->metadata().finalizers_size() == 1);
  CHECK(claim->metadata().finalizers(0) == "resource.kubernetes.io/delete-protection");
  const auto& result = claim->status().allocation().devices().results();
  REQUIRE(result.size() == 1);
  CHECK(result[0].request() == "req-1");
  CHECK(result[0].driver() == "some-driver");
  CHECK(result[0].pool() == "worker");
  CHECK(result[0].device() == "instance-1");
  const auto& term = claim->status().allocation().node_selector().node_selector_terms(0);
  CHECK(term.match_fields(0).key() == "metadata.name");
  CHECK(term.match_fields(0).values(0) == "worker");
  // addAllocationTimestamp: set by PreBind with binding conditions on.
  CHECK_FALSE(claim->status().allocation().allocation_timestamp().empty());
  REQUIRE(claim->status().reserved_for_size() == 1);
  CHECK(claim->status().reserved_for(0).resource() == "pods");
  CHECK(claim->status().reserved_for(0).name() == "my-pod");
  CHECK(claim->status().reserved_for(0).uid() == "1234");

  SECTION("a second pod finds the device taken (exhausted-resources-in-informer-cache)") {
    framework::CycleState again;
    CHECK(w.plugin->PreFilter(again, *w.pod, w.h.snapshot().nodes()).status == Status());
    // The claim is now allocated and reserved for this pod: nothing to allocate.
    CHECK(w.FilterAll(again)["worker"] == Status());
  }
}

TEST_CASE("TestPlugin: exhausted devices", "[dynamicresources]") {
  SECTION("exhausted-resources-in-informer-cache") {
    World w({kBase, kClass, kWorkerSlice, kPendingClaim, kOtherAllocatedClaim});
    framework::CycleState state;
    CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status == Status());
    CHECK(w.FilterAll(state)["worker"] == Unresolvable("cannot allocate all claims"));
    auto post = w.plugin->PostFilter(state, *w.pod, {});
    CHECK(post.status.code() == Code::kUnschedulable);
    CHECK(post.status.num_reasons() == 0);
  }
  SECTION("exhausted-resources-in-flight-claim") {
    std::string other = kOtherAllocatedClaim;
    other = other.substr(0, other.find("status:"));
    World w({kBase, kClass, kWorkerSlice, kPendingClaim, other});
    // Another pod's Reserve allocated not-my-claim to instance-1.
    auto tracker = internal::ClaimTracker::Shared(w.h);
    REQUIRE(tracker.ok());
    auto allocated = std::make_shared<ResourceClaim>(*w.Claim("not-my-claim"));
    auto* r = allocated->mutable_status()->mutable_allocation()->mutable_devices()->add_results();
    r->set_request("req-1");
    r->set_driver("some-driver");
    r->set_pool("worker");
    r->set_device("instance-1");
    REQUIRE((*tracker)->SignalPendingAllocation("other-uid", allocated).ok());
    framework::CycleState state;
    CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status == Status());
    CHECK(w.FilterAll(state)["worker"] == Unresolvable("cannot allocate all claims"));
  }
  SECTION("tainted-device-enabled") {
    std::string slice = kWorkerSlice;
    slice.replace(slice.find("[{name: instance-1}]"), 20,
                  "[{name: instance-1, taints: [{key: example.com/taint, effect: NoSchedule}]}]");
    World w({kBase, kClass, slice, kPendingClaim});
    framework::CycleState state;
    CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status == Status());
    CHECK(w.FilterAll(state)["worker"] == Unresolvable("cannot allocate all claims"));
  }
  SECTION("a DeviceTaintRule taints the device the same way") {
    World w({kBase, kClass, kWorkerSlice, kPendingClaim, R"(
apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata: {name: taint-instance-1}
spec:
  deviceSelector: {driver: some-driver, pool: worker, device: instance-1}
  taint: {key: example.com/taint, effect: NoSchedule}
)"});
    framework::CycleState state;
    CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status == Status());
    CHECK(w.FilterAll(state)["worker"] == Unresolvable("cannot allocate all claims"));
  }
}

TEST_CASE("TestPlugin: classes and CEL", "[dynamicresources]") {
  SECTION("missing-class") {
    World w({kBase, kWorkerSlice, kPendingClaim});
    framework::CycleState state;
    CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status ==
          Unresolvable("request req-1: device class my-resource-class does not exist"));
    auto post = w.plugin->PostFilter(state, *w.pod, {});
    CHECK(post.status.code() == Code::kUnschedulable);
  }
  SECTION("claim-with-request-with-unknown-device-class") {
    std::string claim = kPendingClaim;
    claim.replace(claim.find("deviceClassName: my-resource-class"), 34, "deviceClassName: does-not-exist");
    World w({kBase, kClass, kWorkerSlice, claim});
    framework::CycleState state;
    CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status ==
          Unresolvable("request req-1: device class does-not-exist does not exist"));
  }
  SECTION("claim-parameters-CEL-runtime-error") {
    std::string claim = kPendingClaim;
    claim.replace(claim.find("{deviceClassName: my-resource-class}"), 36,
                  R"({deviceClassName: my-resource-class, selectors: [{cel: {expression: 'device.attributes["some-driver"].healthy'}}]})");
    World w({kBase, kClass, kWorkerSlice, claim});
    framework::CycleState state;
    CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status == Status());
    CHECK(w.FilterAll(state)["worker"] ==
          Status::Error("claim default/my-pod-my-resource: selector #0 on device some-driver/worker/instance-1: CEL "
                        "runtime error: no such key: healthy. consider using CEL optional chaining (.? followed by "
                        "orValue()) or guarding the check with has() for optional fields"));
  }
}

TEST_CASE("TestPlugin: allocated claims", "[dynamicresources]") {
  const Symbol worker = Symbol::Intern("worker");
  SECTION("claim-reference: PreBind reserves the allocated claim") {
    World w({kBase, kClass, kWorkerSlice, With(kPendingClaim, kAllocation)});
    framework::CycleState state;
    CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status == Status());
    CHECK(w.FilterAll(state)["worker"] == Status());
    CHECK(w.plugin->Reserve(state, *w.pod, worker) == Status());
    CHECK(w.plugin->PreBind(state, *w.pod, worker) == Status());
    CHECK(w.api.writes == std::vector<std::string>{"status my-pod-my-resource"});
    REQUIRE(w.Claim()->status().reserved_for_size() == 1);
    CHECK(w.Claim()->status().reserved_for(0).uid() == "1234");
    CHECK_FALSE(w.Claim()->status().allocation().allocation_timestamp().empty());
  }
  SECTION("reserved-okay: nothing to write") {
    World w({kBase, kClass, kWorkerSlice,
             With(kPendingClaim, kAllocation) + "  reservedFor: [{resource: pods, name: my-pod, uid: \"1234\"}]\n"});
    framework::CycleState state;
    CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status == Status());
    CHECK(w.FilterAll(state)["worker"] == Status());
    CHECK(w.plugin->Reserve(state, *w.pod, worker) == Status());
    CHECK(w.plugin->PreBind(state, *w.pod, worker) == Status());
    CHECK(w.api.writes.empty());
  }
  SECTION("wrong-topology: deallocated by PostFilter") {
    std::string claim = std::string(kPendingClaim) + R"(
status:
  allocation:
    nodeSelector:
      nodeSelectorTerms:
      - matchExpressions: [{key: no-such-label, operator: In, values: [no-such-value]}]
)";
    World w({kBase, claim});
    framework::CycleState state;
    CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status == Status());
    CHECK(w.FilterAll(state)["worker"] == Unresolvable("resourceclaim not available on the node"));
    auto post = w.plugin->PostFilter(state, *w.pod, {});
    CHECK(post.status == Status::WithText(Code::kUnschedulable, "deallocation of ResourceClaim completed"));
    CHECK_FALSE(w.Claim()->status().has_allocation());
  }
  SECTION("good-topology") {
    std::string claim = std::string(kPendingClaim) + R"(
status:
  allocation:
    nodeSelector:
      nodeSelectorTerms:
      - matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [worker]}]
)";
    World w({kBase, claim});
    framework::CycleState state;
    CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status == Status());
    CHECK(w.FilterAll(state)["worker"] == Status());
  }
  SECTION("bound-claim-with-failed-binding") {
    std::string claim = std::string(kPendingClaim) + R"(
status:
  allocation:
    devices:
      results:
      - {request: req-1, driver: some-driver, pool: worker, device: instance-1,
         bindingConditions: [condition], bindingFailureConditions: [failed]}
    nodeSelector:
      nodeSelectorTerms:
      - matchFields: [{key: metadata.name, operator: In, values: [worker]}]
  devices:
  - driver: some-driver
    pool: worker
    device: instance-1
    conditions:
    - {type: condition, status: "False", reason: r, message: m, lastTransitionTime: "2026-01-01T00:00:00Z"}
    - {type: failed, status: "True", reason: r, message: m, lastTransitionTime: "2026-01-01T00:00:00Z"}
)";
    World w({kBase, kWorkerSlice, claim});
    framework::CycleState state;
    CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status == Status());
    CHECK(w.FilterAll(state)["worker"] == Unresolvable("resourceclaim not available on the node"));
    auto post = w.plugin->PostFilter(state, *w.pod, {});
    CHECK(post.status == Status::WithText(Code::kUnschedulable, "deallocation of ResourceClaim completed"));
    CHECK_FALSE(w.Claim()->status().has_allocation());
    CHECK(w.Claim()->status().devices().empty());
  }
  SECTION("an allocation in flight for another pod makes this one wait") {
    World w({kBase, kClass, kWorkerSlice, kPendingClaim});
    auto tracker = internal::ClaimTracker::Shared(w.h);
    REQUIRE(tracker.ok());
    auto allocated = std::make_shared<ResourceClaim>(*w.Claim());
    allocated->mutable_status()->mutable_allocation();
    REQUIRE((*tracker)->SignalPendingAllocation("claim-uid", allocated).ok());
    framework::CycleState state;
    CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status ==
          Unresolvable("resource claim default/my-pod-my-resource is in the process of being allocated"));
  }
}

TEST_CASE("TestPlugin: timeout", "[dynamicresources]") {
  std::string slice = kWorkerSlice;
  slice.replace(slice.find("[{name: instance-1}]"), 20,
                "[{name: instance-1}, {name: instance-2}, {name: instance-3}, {name: instance-4}]");
  std::string claim = kPendingClaim;
  const std::string request = "{name: req-1, exactly: {deviceClassName: my-resource-class}}";
  std::string five;
  for (int i = 1; i <= 5; ++i) {
    five += schedkit::StrCat(i > 1 ? ", " : "", "{name: req-", i, ", exactly: {deviceClassName: my-resource-class}}");
  }
  claim.replace(claim.find(request), request.size(), five);
  World w({kBase, kClass, slice, claim}, R"({"filterTimeout": "1ns"})");
  framework::CycleState state;
  CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status == Status());
  CHECK(w.FilterAll(state)["worker"] == Status::Error("node worker: timed out trying to allocate devices"));
}

TEST_CASE("TestPlugin: single-claim-prioritized-list-scoring", "[dynamicresources]") {
  std::string claim = kPendingClaim;
  const std::string request = "[{name: req-1, exactly: {deviceClassName: my-resource-class}}]";
  claim.replace(claim.find(request), request.size(), R"(
    - name: req-1
      firstAvailable:
      - {name: subreq-1, deviceClassName: my-resource-class, selectors: [{cel: {expression: 'device.attributes["some-driver"].healthy'}}]}
      - {name: subreq-2, deviceClassName: my-resource-class, count: 1})");
  const std::string node2 = R"(
apiVersion: v1
kind: Node
metadata: {name: worker-2, labels: {kubernetes.io/hostname: worker-2}}
)";
  auto slice = [](const char* node, const char* healthy) {
    return schedkit::StrCat(R"(
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: )", node, R"(-some-driver}
spec:
  driver: some-driver
  nodeName: )", node, R"(
  pool: {name: )", node, R"(, generation: 1, resourceSliceCount: 1}
  devices: [{name: instance-1, attributes: {healthy: {bool: )", healthy, "}}}]\n");
  };
  World w({kBase, node2, kClass, slice("worker", "true"), slice("worker-2", "false"), claim});
  framework::CycleState state;
  CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status == Status());
  auto filtered = w.FilterAll(state);
  CHECK(filtered["worker"] == Status());
  CHECK(filtered["worker-2"] == Status());
  std::vector<const framework::NodeInfo*> nodes = {w.h.snapshot().Get(Symbol::Intern("worker")),
                                                  w.h.snapshot().Get(Symbol::Intern("worker-2"))};
  std::vector<int64_t> scores(2);
  CHECK(w.plugin->ScoreNodes(state, *w.pod, nodes, scores) == Status());
  CHECK(scores == std::vector<int64_t>{8, 7});
  CHECK(w.plugin->NormalizeScore(state, *w.pod, nodes, scores) == Status());
  CHECK(scores == std::vector<int64_t>{100, 87});
  CHECK(w.plugin->Reserve(state, *w.pod, Symbol::Intern("worker")) == Status());
  CHECK(w.plugin->PreBind(state, *w.pod, Symbol::Intern("worker")) == Status());
  REQUIRE(w.Claim()->status().allocation().devices().results_size() == 1);
  CHECK(w.Claim()->status().allocation().devices().results(0).request() == "req-1/subreq-1");
}

TEST_CASE("TestPlugin: Unreserve drops the allocation in flight", "[dynamicresources]") {
  World w({kBase, kClass, kWorkerSlice, kPendingClaim});
  const Symbol worker = Symbol::Intern("worker");
  framework::CycleState state;
  CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status == Status());
  CHECK(w.FilterAll(state)["worker"] == Status());
  CHECK(w.plugin->Reserve(state, *w.pod, worker) == Status());
  auto tracker = internal::ClaimTracker::Shared(w.h);
  REQUIRE(tracker.ok());
  CHECK((*tracker)->PendingAllocation("claim-uid") != nullptr);
  // The next pod's allocator counts instance-1 as taken.
  CHECK((*tracker)->GatherAllocatedState(true).allocated_devices.size() == 1);
  w.plugin->Unreserve(state, *w.pod, worker);
  CHECK((*tracker)->PendingAllocation("claim-uid") == nullptr);
  CHECK((*tracker)->GatherAllocatedState(true).allocated_devices.empty());
  CHECK(w.api.writes.empty());
}

TEST_CASE("ClaimTracker drops what PreBind wrote once the scheduler catches up or the claim goes",
          "[dynamicresources]") {
  World w({kBase, kClass, kWorkerSlice, kPendingClaim});
  auto tracker = internal::ClaimTracker::Shared(w.h);
  REQUIRE(tracker.ok());
  auto written = std::make_shared<ResourceClaim>(*w.Claim());
  written->mutable_metadata()->set_resource_version("2");
  written->mutable_metadata()->add_finalizers("resource.kubernetes.io/delete-protection");
  REQUIRE((*tracker)->Assume(written).ok());
  // The scheduler still holds version 1: the assumed version wins.
  CHECK((*tracker)->Get("default", "my-pod-my-resource")->metadata().resource_version() == "2");
  // An older version than the one assumed is refused.
  auto stale = std::make_shared<ResourceClaim>(*w.Claim());
  CHECK(absl::IsFailedPrecondition((*tracker)->Assume(stale)));
  // The claim is deleted: upstream's assume cache forgets it too (no entry
  // is kept for a claim that is gone, so the map does not grow).
  REQUIRE(w.h.store().Delete<ResourceClaim>("default", "my-pod-my-resource").ok());
  CHECK((*tracker)->Get("default", "my-pod-my-resource") == nullptr);
  // Back at version 1 (re-created): the old assumed version does not return.
  auto recreated = std::make_shared<ResourceClaim>(*stale);
  REQUIRE(w.h.store().Upsert(std::shared_ptr<const ResourceClaim>(recreated)).ok());
  CHECK((*tracker)->Get("default", "my-pod-my-resource")->metadata().resource_version() == "1");
}

TEST_CASE("TestPlugin: empty", "[dynamicresources]") {
  World w({R"(
apiVersion: v1
kind: Node
metadata: {name: worker}
---
apiVersion: v1
kind: Pod
metadata: {name: foo, namespace: default}
spec: {containers: [{name: c}]}
)"});
  framework::CycleState state;
  CHECK(w.plugin->PreEnqueue(*w.pod) == Status());
  CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status == Status::Skip());
  auto post = w.plugin->PostFilter(state, *w.pod, {});
  CHECK(post.status.code() == Code::kUnschedulable);
  CHECK(post.status.num_reasons() == 0);
  CHECK(w.plugin->PreBindPreFlight(state, *w.pod, Symbol::Intern("worker")) == Status::Skip());
  framework::BatchSignatureBuilder signature;
  CHECK(w.plugin->SignPod(*w.pod, signature) == Status());
}

TEST_CASE("DynamicResources SignPod declines pods with claims", "[dynamicresources]") {
  World w({kBase});
  framework::BatchSignatureBuilder signature;
  CHECK(w.plugin->SignPod(*w.pod, signature) ==
        Status::WithText(Code::kUnschedulable, "pods with dra resource claims are not signable"));
}

TEST_CASE("DynamicResources without state (an earlier PreFilter rejected the pod)", "[dynamicresources]") {
  World w({kBase});
  framework::CycleState state;
  const Status not_found(Code::kError, Symbol::Intern("not found"));
  CHECK(w.plugin->PostFilter(state, *w.pod, {}).status == not_found);
  CHECK(w.plugin->Reserve(state, *w.pod, Symbol::Intern("worker")) == not_found);
  CHECK(w.plugin->PreBind(state, *w.pod, Symbol::Intern("worker")) == not_found);
  CHECK(w.plugin->PreBindPreFlight(state, *w.pod, Symbol::Intern("worker")) == not_found);
}

TEST_CASE("TestIsSchedulableAfterClaimChange", "[dynamicresources]") {
  World w({kBase, kClass, kPendingClaim});
  auto pending = w.Claim();
  ResourceClaim allocated = *pending;
  allocated.mutable_status()->mutable_allocation();
  ResourceClaim other = *pending;
  other.mutable_metadata()->set_name("not-my-claim");
  other.mutable_metadata()->set_uid("other-uid");
  ResourceClaim other_allocated = other;
  other_allocated.mutable_status()->mutable_allocation();
  auto hint = [&](const ResourceClaim* old_claim, const ResourceClaim* new_claim) {
    return *w.plugin->IsSchedulableAfterClaimChange(*w.pod, framework::EventObjects::Of(old_claim, new_claim));
  };
  using framework::QueueingHint;
  CHECK(hint(nullptr, pending.get()) == QueueingHint::kQueue);                  // claim-created
  CHECK(hint(nullptr, &other) == QueueingHint::kSkip);                          // unrelated-claim
  CHECK(hint(pending.get(), pending.get()) == QueueingHint::kSkip);             // no status change
  CHECK(hint(pending.get(), &allocated) == QueueingHint::kQueue);               // status changed
  CHECK(hint(&other_allocated, &other) == QueueingHint::kQueue);                // structured-claim-deallocate
  CHECK(hint(&other_allocated, nullptr) == QueueingHint::kQueue);               // deleted with an allocation
  CHECK(hint(&other, nullptr) == QueueingHint::kSkip);                          // deleted without one
  ResourceClaim finalizer_added = *pending;
  finalizer_added.mutable_metadata()->add_finalizers("foo");
  CHECK(hint(pending.get(), &finalizer_added) == QueueingHint::kSkip);
}

TEST_CASE("TestIsSchedulableAfterTargetPodUpdate", "[dynamicresources]") {
  World w({kBase, kClass, kPendingClaim});
  api::v1::Pod without_status = w.pod->pod();
  without_status.mutable_spec()->clear_resource_claims();
  auto* entry = without_status.mutable_spec()->add_resource_claims();
  entry->set_name("my-resource");
  entry->set_resource_claim_template_name("my-pod-my-resource");
  framework::EventObjects e;
  e.SetNew(&without_status);
  CHECK(*w.plugin->IsSchedulableAfterPodChange(*w.pod, e) == framework::QueueingHint::kSkip);  // incomplete
  api::v1::Pod with_status = without_status;
  auto* status = with_status.mutable_status()->add_resource_claim_statuses();
  status->set_name("my-resource");
  status->set_resource_claim_name("my-pod-my-resource");
  e.SetNew(&with_status);
  CHECK(*w.plugin->IsSchedulableAfterPodChange(*w.pod, e) == framework::QueueingHint::kQueue);  // complete
  CHECK_FALSE(w.plugin->IsSchedulableAfterPodChange(*w.pod, framework::EventObjects()).ok());
}

TEST_CASE("TestNormalizeScore", "[dynamicresources]") {
  testing::FakeHandle h;
  auto made = NewDynamicResources(framework::PluginArgs(), h);
  REQUIRE(made.ok());
  auto* p = dynamic_cast<DynamicResources*>(made->get());
  struct Case {
    std::vector<int64_t> in, want;
  };
  for (const Case& c : std::vector<Case>{{{10, 20, 30}, {33, 66, 100}},
                                         {{0, 0, 0}, {0, 0, 0}},
                                         {{100, 50, 0}, {100, 50, 0}},
                                         {{8, 7}, {100, 87}},
                                         {{1}, {100}}}) {
    std::vector<int64_t> scores = c.in;
    framework::CycleState state;
    CHECK(p->NormalizeScore(state, *testing::MakePod().Name("p").Info(), {}, scores) == Status());
    CHECK(scores == c.want);
  }
}

TEST_CASE("DynamicResources events", "[dynamicresources]") {
  testing::FakeHandle h;
  auto made = NewDynamicResources(framework::PluginArgs(), h);
  REQUIRE(made.ok());
  auto events = dynamic_cast<DynamicResources*>(made->get())->EventsToRegister();
  REQUIRE(events.size() == 5);
  CHECK(events[0].event.resource == framework::EventResource::Node());
  CHECK(events[1].event.resource == framework::EventResource::Of<api::v1::ResourceClaim>());
  CHECK(events[1].event.action ==
        (framework::kActionAdd | framework::kActionUpdate | framework::kActionDelete));
  CHECK(static_cast<bool>(events[1].hint));
  CHECK(events[2].event.resource == framework::EventResource::TargetPod());
  CHECK(events[3].event.resource == framework::EventResource::Of<api::v1::DeviceClass>());
  CHECK(events[4].event.resource == framework::EventResource::Of<api::v1::ResourceSlice>());
}

TEST_CASE("DynamicResources refuses alpha DRA gates it does not model", "[dynamicresources]") {
  testing::FakeHandle h;
  framework::FeatureGates gates;
  REQUIRE(gates.Set("DRAListTypeAttributes=true").ok());
  framework::PluginArgs args;
  args.set_gates(&gates);
  auto made = NewDynamicResources(args, h);
  REQUIRE_FALSE(made.ok());
  CHECK(std::string(made.status().message()) ==
        "DynamicResources: feature gate DRAListTypeAttributes selects upstream's experimental DRA allocator, not "
        "modelled yet");
}

TEST_CASE("DynamicResources args follow the gates (SetDefaults_ and ValidateDynamicResourcesArgs)",
          "[dynamicresources]") {
  auto parse = [](const char* json, const char* gates) {
    framework::FeatureGates g;
    REQUIRE(g.Set(gates).ok());
    framework::PluginArgs args(json);
    args.set_gates(&g);
    return ParseDynamicResourcesArgs(args);
  };
  auto off = parse("{}", "DRASchedulerFilterTimeout=false");
  REQUIRE(off.ok());
  CHECK_FALSE(off->filter_timeout.has_value());
  CHECK(parse(R"({"filterTimeout": "5s"})", "DRASchedulerFilterTimeout=false").status().message() ==
        "DynamicResources args: filterTimeout: Forbidden: DRASchedulingFilterTimeout feature gate is disabled");
  auto on = parse("{}", "DRADeviceBindingConditions=true");
  REQUIRE(on.ok());
  CHECK(on->binding_timeout == absl::Seconds(600));
  CHECK(parse(R"({"bindingTimeout": "500ms"})", "DRADeviceBindingConditions=true").status().message() ==
        R"(DynamicResources args: bindingTimeout: Invalid value: "500ms": must be at least 1 second)");
}

TEST_CASE("DynamicResources args", "[dynamicresources]") {
  testing::FakeHandle h;
  auto plugin = [&](const char* json) {
    auto made = NewDynamicResources(framework::PluginArgs(json), h);
    REQUIRE(made.ok());
    return std::unique_ptr<DynamicResources>(dynamic_cast<DynamicResources*>(made->release()));
  };
  CHECK(plugin("")->filter_timeout() == absl::Seconds(10));
  CHECK(plugin(R"({"filterTimeout": "1m30s"})")->filter_timeout() == absl::Seconds(90));
  CHECK(plugin(R"({"filterTimeout": "0s"})")->filter_timeout() == absl::ZeroDuration());
  CHECK(plugin("")->binding_timeout() == absl::Minutes(10));
  auto negative = NewDynamicResources(framework::PluginArgs(R"({"filterTimeout": "-1s"})"), h);
  REQUIRE_FALSE(negative.ok());
  CHECK(std::string(negative.status().message()) ==
        R"(DynamicResources args: filterTimeout: Invalid value: "-1s": must be zero or positive)");
  for (const char* bad : {R"({"filterTimeout": "10"})", R"({"filterTimeout": 10})", R"({"filterTimeout": ""})"}) {
    CHECK_FALSE(NewDynamicResources(framework::PluginArgs(bad), h).ok());
  }
  auto unknown = NewDynamicResources(framework::PluginArgs(R"({"filterTimeoutSeconds": 5})"), h);
  REQUIRE_FALSE(unknown.ok());
  CHECK(std::string(unknown.status().message()) == "DynamicResources args: filterTimeoutSeconds: unknown field");
}

// upstream's fixtures for extended resources: class my-resource-class
// stands for example.com/gpu, my-resource-class2 for example.com/gpu2; the
// pod asks for them in one container.
constexpr char kExtendedClasses[] = R"(
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: my-resource-class}
spec: {extendedResourceName: example.com/gpu}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: my-resource-class2}
spec: {extendedResourceName: example.com/gpu2}
)";

std::string ExtendedPod(const std::string& requests) {
  return schedkit::StrCat(R"(
apiVersion: v1
kind: Pod
metadata: {name: my-pod, namespace: default, uid: "1234"}
spec:
  containers: [{name: con0, resources: {requests: {)", requests, "}, limits: {", requests, "}}}]\n");
}

std::string Worker(const std::string& allocatable) {
  return schedkit::StrCat(R"(
apiVersion: v1
kind: Node
metadata: {name: worker, labels: {kubernetes.io/hostname: worker}}
status: {allocatable: {)", allocatable, "}, capacity: {", allocatable, "}}\n");
}

// Runs the cycle up to PreBind on "worker"; what each point returned.
struct ExtendedRun {
  Status prefilter, filter, reserve, prebind;
};
ExtendedRun RunToPreBind(World& w, framework::CycleState& state) {
  ExtendedRun r;
  r.prefilter = w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status;
  if (!r.prefilter.IsSuccess()) return r;
  r.filter = w.FilterAll(state)["worker"];
  if (!r.filter.IsSuccess()) return r;
  const Symbol worker = Symbol::Intern("worker");
  r.reserve = w.plugin->Reserve(state, *w.pod, worker);
  if (!r.reserve.IsSuccess()) return r;
  r.prebind = w.plugin->PreBind(state, *w.pod, worker);
  return r;
}

TEST_CASE("TestPlugin: extended resources backed by DRA", "[dynamicresources][extended]") {
  SECTION("extended-resource-name-with-node-resource") {
    World w({Worker(R"("example.com/gpu": "1")"), kExtendedClasses, ExtendedPod(R"("example.com/gpu": "1")")});
    framework::CycleState state;
    ExtendedRun r = RunToPreBind(w, state);
    CHECK(r.prefilter == Status());
    CHECK(r.filter == Status());
    CHECK(r.reserve == Status());
    CHECK(r.prebind == Status());
    CHECK(w.api.writes.empty());
  }
  SECTION("non-DRA-extended-resource-name-with-zero-allocatable") {
    World w({Worker(R"("example.com/gpu": "0")"), kClass, kWorkerSlice, ExtendedPod(R"("example.com/gpu": "1")")});
    framework::CycleState state;
    CHECK(w.plugin->PreFilter(state, *w.pod, w.h.snapshot().nodes()).status == Status::Skip());
    CHECK(w.plugin->PreBindPreFlight(state, *w.pod, Symbol::Intern("worker")) == Status::Skip());
  }
  SECTION("extended-resource-name-no-resource") {
    World w({Worker(""), kExtendedClasses, ExtendedPod(R"("example.com/gpu": "1")")});
    framework::CycleState state;
    ExtendedRun r = RunToPreBind(w, state);
    CHECK(r.prefilter == Status());
    CHECK(r.filter == Unresolvable("cannot allocate all claims"));
    auto post = w.plugin->PostFilter(state, *w.pod, {});
    CHECK(post.status.code() == Code::kUnschedulable);
    CHECK(post.status.num_reasons() == 0);
  }
  for (const char* allocatable : {"", R"("example.com/gpu": "0")"}) {
    DYNAMIC_SECTION("extended-resource-name-with-resources / -with-zero-allocatable, allocatable {" << allocatable
                                                                                                   << "}") {
      World w({Worker(allocatable), kExtendedClasses, std::string(kWorkerSlice),
               ExtendedPod(R"("example.com/gpu": "1")")});
      framework::CycleState state;
      ExtendedRun r = RunToPreBind(w, state);
      CHECK(r.prebind == Status());
      // Created, the finalizer added, the allocation and reservation
      // written, then the pod's status names the claim.
      CHECK(w.api.writes == std::vector<std::string>{"create my-pod-extended-resources-0",
                                                     "update my-pod-extended-resources-0",
                                                     "status my-pod-extended-resources-0", "pod status my-pod"});
      auto claim = w.Claim("my-pod-extended-resources-0");
      REQUIRE(claim != nullptr);
      CHECK(claim->metadata().annotations().at("resource.kubernetes.io/extended-resource-claim") == "true");
      CHECK(claim->metadata().owner_references(0).uid() == "1234");
      CHECK(claim->metadata().owner_references(0).controller());
      REQUIRE(claim->spec().devices().requests_size() == 1);
      CHECK(claim->spec().devices().requests(0).name() == "container-0-request-0");
      CHECK(claim->spec().devices().requests(0).exactly().device_class_name() == "my-resource-class");
      CHECK(claim->spec().devices().requests(0).exactly().count() == 1);
      REQUIRE(claim->status().allocation().devices().results_size() == 1);
      CHECK(claim->status().allocation().devices().results(0).device() == "instance-1");
      REQUIRE(claim->status().reserved_for_size() == 1);
      CHECK(claim->status().reserved_for(0).name() == "my-pod");
      CHECK(w.api.pod_status.resource_claim_name() == "my-pod-extended-resources-0");
      REQUIRE(w.api.pod_status.request_mappings_size() == 1);
      CHECK(w.api.pod_status.request_mappings(0).container_name() == "con0");
      CHECK(w.api.pod_status.request_mappings(0).resource_name() == "example.com/gpu");
      CHECK(w.api.pod_status.request_mappings(0).request_name() == "container-0-request-0");

      SECTION("extended-resource-name-bind-failure: Unreserve deletes the claim") {
        w.plugin->Unreserve(state, *w.pod, Symbol::Intern("worker"));
        CHECK(w.api.writes.back() == "delete my-pod-extended-resources-0");
        CHECK(w.Claim("my-pod-extended-resources-0") == nullptr);
      }
    }
  }
  SECTION("extended-resource-one-device-plugin-one-dra") {
    World w({Worker(R"("example.com/gpu": "1")"), kExtendedClasses, std::string(kWorkerSlice),
             ExtendedPod(R"("example.com/gpu": "1", "example.com/gpu2": "1")")});
    framework::CycleState state;
    ExtendedRun r = RunToPreBind(w, state);
    CHECK(r.prebind == Status());
    auto claim = w.Claim("my-pod-extended-resources-0");
    REQUIRE(claim != nullptr);
    // Only the resource the device plugin does not serve.
    REQUIRE(claim->spec().devices().requests_size() == 1);
    CHECK(claim->spec().devices().requests(0).name() == "container-0-request-1");
    CHECK(claim->spec().devices().requests(0).exactly().device_class_name() == "my-resource-class2");
    REQUIRE(w.api.pod_status.request_mappings_size() == 1);
    CHECK(w.api.pod_status.request_mappings(0).resource_name() == "example.com/gpu2");
  }
  SECTION("extended-resource-name-with-resources-fail-patch") {
    World w({Worker(""), kExtendedClasses, std::string(kWorkerSlice), ExtendedPod(R"("example.com/gpu": "1")")});
    w.api.fail_pod_status = "patch error";
    framework::CycleState state;
    ExtendedRun r = RunToPreBind(w, state);
    CHECK(r.prebind.code() == Code::kError);
    CHECK(r.prebind.Message() == "update pod default/my-pod ExtendedResourceClaimStatus: patch error");
    // The claim exists; Unreserve removes it.
    REQUIRE(w.Claim("my-pod-extended-resources-0") != nullptr);
    w.plugin->Unreserve(state, *w.pod, Symbol::Intern("worker"));
    CHECK(w.Claim("my-pod-extended-resources-0") == nullptr);
  }
  SECTION("extended-resource-name-claim-creation-failure") {
    World w({Worker(""), kExtendedClasses, std::string(kWorkerSlice), ExtendedPod(R"("example.com/gpu": "1")")});
    w.api.fail_create = "claim creation errors";
    framework::CycleState state;
    ExtendedRun r = RunToPreBind(w, state);
    CHECK(r.prebind.code() == Code::kError);
    CHECK(r.prebind.Message() == "create claim for extended resources default/: claim creation errors");
    // Nothing was created: Unreserve has nothing to delete, and the devices
    // are free for the next attempt.
    w.plugin->Unreserve(state, *w.pod, Symbol::Intern("worker"));
    CHECK(w.api.writes.empty());
    framework::CycleState again;
    w.api.fail_create.clear();
    CHECK(RunToPreBind(w, again).prebind == Status());
  }
  SECTION("extended-resource-name-with-resources-has-claim") {
    World w({Worker(""), kExtendedClasses, std::string(kWorkerSlice), ExtendedPod(R"("example.com/gpu": "1")"), R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: my-pod-extended-resources-0
  generateName: my-pod-extended-resources-
  namespace: default
  uid: old-claim
  resourceVersion: "1"
  annotations: {resource.kubernetes.io/extended-resource-claim: "true"}
  finalizers: [resource.kubernetes.io/delete-protection]
  ownerReferences: [{apiVersion: v1, kind: Pod, name: my-pod, uid: "1234", controller: true}]
spec:
  devices:
    requests: [{name: container-0-request-0, exactly: {deviceClassName: my-resource-class}}]
status:
  allocation:
    devices:
      results: [{request: container-0-request-0, driver: some-driver, pool: worker, device: instance-1}]
)"});
    framework::CycleState state;
    ExtendedRun r = RunToPreBind(w, state);
    CHECK(r.prefilter == Status());
    CHECK(r.filter == Unresolvable("cannot schedule extended resource claim"));
    auto post = w.plugin->PostFilter(state, *w.pod, {});
    CHECK(post.status == Status::WithText(Code::kUnschedulable, "deletion of ResourceClaim completed"));
    // The finalizer goes, then the claim.
    CHECK(w.api.writes ==
          std::vector<std::string>{"update my-pod-extended-resources-0", "delete my-pod-extended-resources-0"});
    CHECK(w.Claim("my-pod-extended-resources-0") == nullptr);
  }
}

}  // namespace
}  // namespace schedkit::plugins
