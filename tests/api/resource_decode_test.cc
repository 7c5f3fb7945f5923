// The resource.k8s.io kinds decode with the fields the scheduler reads, and
// bad ones are refused naming the file, the object and the field, as the API
// server's validation would refuse them.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "schedkit/api/builtin_kinds.h"
#include "schedkit/api/decode.h"
#include "schedkit/api/encode.h"
#include "schedkit/api/lister.h"
#include "schedkit/api/v1/kinds.h"

namespace schedkit {
namespace {

constexpr char kClasses[] = R"(
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
  - cel: {expression: 'device.attributes["gpu.example.com"].model == "a100"'}
  config:
  - opaque: {driver: gpu.example.com, parameters: {sharing: time-slicing}}
  extendedResourceName: example.com/gpu
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: any}
)";

TEST_CASE("DeviceClass decodes with its selectors, config and extended resource", "[decode][resource]") {
  absl::StatusOr<api::DecodedCluster> d = api::Decode(kClasses, "classes.yaml");
  INFO(d.status().ToString());
  REQUIRE(d.ok());
  CHECK(d->skipped_kinds.empty());
  const auto classes = d->objects.Of<api::v1::DeviceClass>();
  REQUIRE(classes.size() == 2);
  const api::v1::DeviceClass& gpu = classes[0];
  CHECK(gpu.metadata().name() == "gpu.example.com");
  CHECK(gpu.metadata().namespace_().empty());  // cluster-scoped: no default namespace
  REQUIRE(gpu.spec().selectors_size() == 2);
  CHECK(gpu.spec().selectors(0).cel().expression() == "device.driver == \"gpu.example.com\"");
  REQUIRE(gpu.spec().config_size() == 1);
  CHECK(gpu.spec().config(0).opaque().driver() == "gpu.example.com");
  CHECK(gpu.spec().extended_resource_name() == "example.com/gpu");
  CHECK_FALSE(classes[1].spec().has_extended_resource_name());

  // Listed as every kind is, and held by the scheduler's kinds.
  const api::StaticClusterLister lister(d->objects);
  CHECK(lister.List<api::v1::DeviceClass>()->size() == 2);
  const api::Kind& kind = api::KindOf<api::v1::DeviceClass>();
  CHECK(api::BuiltinKinds().Contains(kind));
  CHECK(kind.api_version() == "resource.k8s.io/v1");
  CHECK(kind.collection_path() == "/apis/resource.k8s.io/v1/deviceclasses");
  CHECK(kind.event_resource() == "resource.k8s.io/DeviceClass");
  CHECK(kind.scheduler_reads());
}

TEST_CASE("Bad DeviceClasses are refused naming the object and field", "[decode][resource][errors]") {
  struct Case {
    std::string spec;
    std::string want;
  };
  std::string many_selectors = "{selectors: [";
  for (int i = 0; i < 33; ++i) many_selectors += "{cel: {expression: 'true'}},";
  many_selectors += "]}";
  for (const Case& c : std::vector<Case>{
           {"{selectors: [{}]}", "spec.selectors[0].cel: Required value"},
           {"{selectors: [{cel: {expression: ''}}]}", "spec.selectors[0].cel.expression: Required value"},
           {"{selectors: [{cel: {expression: '" + std::string(10 * 1024 + 1, 'x') + "'}}]}",
            "spec.selectors[0].cel.expression: Too long: may not be more than 10240 bytes"},
           {many_selectors, "spec.selectors: Too many: 33: must have at most 32 items"},
           {"{config: [{}]}", "spec.config[0].opaque: Required value"},
           {"{config: [{opaque: {driver: ''}}]}", "spec.config[0].opaque.driver: Required value"},
           {"{config: [{opaque: {driver: Bad_Driver}}]}",
            "spec.config[0].opaque.driver: Invalid value: \"Bad_Driver\": a lowercase RFC 1123 subdomain must consist "
            "of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character "
            "(e.g. 'example.com', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
           {"{config: [{opaque: {driver: gpu.example.com}}]}", "spec.config[0].opaque.parameters: Required value"},
           {"{config: [{opaque: {driver: gpu.example.com, parameters: [1]}}]}",
            "spec.config[0].opaque.parameters: Invalid value: \"<value omitted>\": must be a valid JSON object"},
           {"{extendedResourceName: kubernetes.io/gpu}",
            "spec.extendedResourceName: must be a fully-qualified name outside the kubernetes.io domain, got "
            "\"kubernetes.io/gpu\""},
           {"{extendedResourceName: gpu}",
            "spec.extendedResourceName: must be a fully-qualified name outside the kubernetes.io domain, got "
            "\"gpu\""},
       }) {
    const std::string text =
        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: bad}\nspec: " + c.spec + "\n";
    absl::StatusOr<api::DecodedCluster> d = api::Decode(text, "classes.yaml");
    INFO(c.spec.substr(0, 80));
    REQUIRE_FALSE(d.ok());
    CHECK(d.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(std::string(d.status().message()) == "classes.yaml: document 1 (DeviceClass bad): " + c.want);
  }
}


// A GPU pool as a DRA driver publishes it (two GPUs under one PCIe root), a
// template a pod's claim is made from, the claim made from it and allocated,
// and a rule tainting one GPU: every field the scheduler reads.
constexpr char kDra[] = R"(
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-1-gpu.example.com-abcde}
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  nodeName: node-1
  devices:
  - name: gpu-0
    attributes:
      model: {string: a100}
      gpu.example.com/pcieRoot: {string: pci0000:00}
      memoryGiB: {int: 80}
      driverVersion: {version: 1.2.3}
      mig: {bool: false}
    capacity:
      memory: {value: 80Gi}
    consumesCounters:
    - counterSet: gpu-0-counters
      counters:
        memory: {value: 80Gi}
    taints:
    - {key: example.com/unhealthy, value: ecc, effect: NoSchedule}
    bindingConditions: [attached]
    bindingFailureConditions: [failed]
    bindsToNode: true
  - name: gpu-1
    allowMultipleAllocations: true
    capacity:
      memory:
        value: 80Gi
        requestPolicy: {default: 10Gi, validRange: {min: 1Gi, step: 1Gi}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-1-gpu.example.com-counters}
spec:
  driver: gpu.example.com
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  nodeName: node-1
  sharedCounters:
  - name: gpu-0-counters
    counters:
      memory: {value: 80Gi}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: two-gpus, namespace: ml}
spec:
  metadata:
    labels: {team: ml}
  spec:
    devices:
      requests:
      - name: gpus
        exactly:
          deviceClassName: gpu.example.com
          count: 2
          selectors:
          - cel: {expression: 'device.attributes["gpu.example.com"].model == "a100"'}
          tolerations:
          - {key: example.com/unhealthy, operator: Exists}
      constraints:
      - matchAttribute: gpu.example.com/pcieRoot
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: trainer-gpus-x7k2p
  namespace: ml
  uid: 4f1c1f0a-2b9b-4c3c-9b4e-3d2a1e0f9a11
  finalizers: [resource.kubernetes.io/delete-protection]
  ownerReferences:
  - {apiVersion: v1, kind: Pod, name: trainer, uid: pod-uid, controller: true}
spec:
  devices:
    requests:
    - name: gpus
      firstAvailable:
      - {name: big, deviceClassName: gpu.example.com, allocationMode: All}
      - {name: small, deviceClassName: gpu.example.com, capacity: {requests: {memory: 10Gi}}}
    config:
    - requests: [gpus]
      opaque: {driver: gpu.example.com, parameters: {sharing: {strategy: TimeSlicing}}}
status:
  allocation:
    devices:
      results:
      - {request: gpus/small, driver: gpu.example.com, pool: node-1, device: gpu-1, shareID: 0b1c2d3e-0000-4000-8000-000000000001, consumedCapacity: {memory: 10Gi}}
      config:
      - source: FromClaim
        requests: [gpus]
        opaque: {driver: gpu.example.com, parameters: {sharing: {strategy: TimeSlicing}}}
    nodeSelector:
      nodeSelectorTerms:
      - matchFields:
        - {key: metadata.name, operator: In, values: [node-1]}
  reservedFor:
  - {resource: pods, name: trainer, uid: pod-uid}
---
apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata: {name: drain-gpu-0}
spec:
  deviceSelector: {driver: gpu.example.com, pool: node-1, device: gpu-0}
  taint: {key: example.com/maintenance, effect: NoExecute}
---
apiVersion: v1
kind: Pod
metadata: {name: trainer, namespace: ml, uid: pod-uid}
spec:
  containers:
  - name: main
    resources:
      claims: [{name: gpus}]
  resourceClaims:
  - {name: gpus, resourceClaimTemplateName: two-gpus}
  - {name: shared, resourceClaimName: shared-nic}
status:
  resourceClaimStatuses:
  - {name: gpus, resourceClaimName: trainer-gpus-x7k2p}
  extendedResourceClaimStatus:
    resourceClaimName: trainer-extended-resources-abc
    requestMappings:
    - {containerName: main, resourceName: example.com/gpu, requestName: container-0-request-0}
)";

TEST_CASE("DRA kinds decode with every field the scheduler reads", "[decode][resource]") {
  absl::StatusOr<api::DecodedCluster> d = api::Decode(kDra, "dra.yaml");
  INFO(d.status().ToString());
  REQUIRE(d.ok());
  CHECK(d->skipped_kinds.empty());

  const auto slices = d->objects.Of<api::v1::ResourceSlice>();
  REQUIRE(slices.size() == 2);
  const api::v1::ResourceSliceSpec& slice = slices[0].spec();
  CHECK(slice.driver() == "gpu.example.com");
  CHECK(slice.pool().name() == "node-1");
  CHECK(slice.pool().resource_slice_count() == 1);
  CHECK(slice.node_name() == "node-1");
  REQUIRE(slice.devices_size() == 2);
  const api::v1::Device& gpu0 = slice.devices(0);
  CHECK(gpu0.attributes().at("model").string_value() == "a100");
  CHECK(gpu0.attributes().at("gpu.example.com/pcieRoot").string_value() == "pci0000:00");
  CHECK(gpu0.attributes().at("memoryGiB").int_value() == 80);
  CHECK(gpu0.attributes().at("driverVersion").version_value() == "1.2.3");
  CHECK(gpu0.attributes().at("mig").has_bool_value());
  CHECK_FALSE(gpu0.attributes().at("mig").bool_value());
  CHECK(gpu0.capacity().at("memory").value() == "80Gi");
  REQUIRE(gpu0.consumes_counters_size() == 1);
  CHECK(gpu0.consumes_counters(0).counters().at("memory").value() == "80Gi");
  REQUIRE(gpu0.taints_size() == 1);
  CHECK(gpu0.taints(0).effect() == "NoSchedule");
  CHECK(gpu0.binding_conditions(0) == "attached");
  CHECK(gpu0.binds_to_node());
  const api::v1::Device& gpu1 = slice.devices(1);
  CHECK(gpu1.allow_multiple_allocations());
  CHECK(gpu1.capacity().at("memory").request_policy().default_() == "10Gi");
  CHECK(gpu1.capacity().at("memory").request_policy().valid_range().step() == "1Gi");
  CHECK(slices[1].spec().shared_counters(0).counters().at("memory").value() == "80Gi");

  const auto templates = d->objects.Of<api::v1::ResourceClaimTemplate>();
  REQUIRE(templates.size() == 1);
  const api::v1::DeviceClaim& wanted = templates[0].spec().spec().devices();
  CHECK(templates[0].spec().metadata().labels().at("team") == "ml");
  CHECK(wanted.requests(0).exactly().count() == 2);
  CHECK(wanted.requests(0).exactly().allocation_mode() == "ExactCount");  // defaulted
  CHECK(wanted.requests(0).exactly().tolerations(0).operator_() == "Exists");
  CHECK(wanted.constraints(0).match_attribute() == "gpu.example.com/pcieRoot");

  const auto claims = d->objects.Of<api::v1::ResourceClaim>();
  REQUIRE(claims.size() == 1);
  const api::v1::ResourceClaim& claim = claims[0];
  CHECK(claim.metadata().finalizers(0) == "resource.kubernetes.io/delete-protection");
  const api::v1::DeviceRequest& request = claim.spec().devices().requests(0);
  REQUIRE(request.first_available_size() == 2);
  CHECK(request.first_available(0).allocation_mode() == "All");
  CHECK(request.first_available(0).count() == 0);  // no count default with All
  CHECK(request.first_available(1).allocation_mode() == "ExactCount");
  CHECK(request.first_available(1).count() == 1);
  CHECK(request.first_available(1).capacity().requests().at("memory") == "10Gi");
  const api::v1::DeviceRequestAllocationResult& result = claim.status().allocation().devices().results(0);
  CHECK(result.request() == "gpus/small");
  CHECK(result.device() == "gpu-1");
  CHECK(result.share_id() == "0b1c2d3e-0000-4000-8000-000000000001");
  CHECK(result.consumed_capacity().at("memory") == "10Gi");
  CHECK(claim.status().allocation().node_selector().node_selector_terms_size() == 1);
  CHECK(claim.status().reserved_for(0).uid() == "pod-uid");
  // Opaque parameters are kept as JSON text, whatever their shape.
  CHECK(claim.spec().devices().config(0).opaque().parameters().json() == R"({"sharing":{"strategy":"TimeSlicing"}})");

  const auto rules = d->objects.Of<api::v1::DeviceTaintRule>();
  REQUIRE(rules.size() == 1);
  CHECK(rules[0].spec().device_selector().device() == "gpu-0");
  CHECK(rules[0].spec().taint().effect() == "NoExecute");

  const auto pods = d->objects.Of<api::v1::Pod>();
  REQUIRE(pods.size() == 1);
  const api::v1::Pod& pod = pods[0];
  REQUIRE(pod.spec().resource_claims_size() == 2);
  CHECK(pod.spec().resource_claims(0).resource_claim_template_name() == "two-gpus");
  CHECK_FALSE(pod.spec().resource_claims(0).has_resource_claim_name());
  CHECK(pod.spec().resource_claims(1).resource_claim_name() == "shared-nic");
  CHECK(pod.spec().containers(0).resources().claims(0).name() == "gpus");
  CHECK(pod.status().resource_claim_statuses(0).resource_claim_name() == "trainer-gpus-x7k2p");
  CHECK(pod.status().extended_resource_claim_status().request_mappings(0).resource_name() == "example.com/gpu");

  for (const api::Kind* kind : {&api::KindOf<api::v1::ResourceSlice>(), &api::KindOf<api::v1::ResourceClaim>(),
                                &api::KindOf<api::v1::ResourceClaimTemplate>(),
                                &api::KindOf<api::v1::DeviceTaintRule>()}) {
    CHECK(api::BuiltinKinds().Contains(*kind));
    CHECK(kind->api_version() == "resource.k8s.io/v1");
    CHECK(kind->scheduler_reads() == (kind->kind() != "ResourceClaimTemplate"));
  }
  CHECK(api::KindOf<api::v1::ResourceClaim>().collection_path() == "/apis/resource.k8s.io/v1/resourceclaims");
  CHECK(api::KindOf<api::v1::ResourceSlice>().collection_path() == "/apis/resource.k8s.io/v1/resourceslices");
}

TEST_CASE("A claim's opaque parameters survive encoding as the JSON they were", "[decode][resource]") {
  absl::StatusOr<api::DecodedCluster> d = api::Decode(kDra, "dra.yaml");
  REQUIRE(d.ok());
  const api::v1::ResourceClaim& claim = d->objects.Of<api::v1::ResourceClaim>()[0];
  const std::string json = api::EncodeClusterJson(d->objects);
  INFO(json);
  CHECK(json.find(R"("parameters":{"sharing":{"strategy":"TimeSlicing"}})") != std::string::npos);
  absl::StatusOr<api::DecodedCluster> again = api::Decode(json, "claim.json");
  INFO(again.status().ToString());
  REQUIRE(again.ok());
  CHECK(again->objects.Of<api::v1::ResourceClaim>()[0].DebugString() == claim.DebugString());
}

// One bad field per case in a valid object of each kind: what the API server
// refuses is refused naming the file, the object and the field.
TEST_CASE("Bad DRA objects are refused naming the object and field", "[decode][resource][errors]") {
  struct Case {
    std::string kind;
    std::string spec;
    std::string want;
  };
  const std::string slice_head = "{driver: gpu.example.com, pool: {name: p, resourceSliceCount: 1}, nodeName: n, ";
  const std::string claim_head = "{devices: {requests: [{name: r, exactly: {deviceClassName: c";
  for (const Case& c : std::vector<Case>{
           {"ResourceSlice", "{pool: {name: p, resourceSliceCount: 1}, nodeName: n}", "spec.driver: Required value"},
           {"ResourceSlice", "{driver: gpu.example.com, pool: {name: p, resourceSliceCount: 0}, nodeName: n}",
            "spec.pool.resourceSliceCount: Invalid value: 0: must be greater than zero"},
           {"ResourceSlice", "{driver: gpu.example.com, pool: {name: p, resourceSliceCount: 1}}",
            "spec: Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is "
            "required"},
           {"ResourceSlice", "{driver: gpu.example.com, pool: {name: p, resourceSliceCount: 1}, nodeName: n, allNodes: true}",
            "spec: Invalid value: \"{`nodeName`, `allNodes`}\": exactly one of `nodeName`, `nodeSelector`, "
            "`allNodes`, `perDeviceNodeSelection` is required, but multiple fields are set"},
           {"ResourceSlice", slice_head + "devices: [{name: d, attributes: {a: {}}}]}",
            "spec.devices[0].attributes[a]: Invalid value: exactly one value must be specified"},
           {"ResourceSlice", slice_head + "devices: [{name: d, attributes: {a: {int: 1, bool: true}}}]}",
            "spec.devices[0].attributes[a]: Invalid value: exactly one value must be specified"},
           {"ResourceSlice", slice_head + "devices: [{name: d, attributes: {a: {version: v1}}}]}",
            "spec.devices[0].attributes[a].version: Invalid value: \"v1\": must be a string compatible with "
            "semver.org spec 2.0.0"},
           {"ResourceSlice", slice_head + "devices: [{name: d, attributes: {1a: {int: 1}}}]}",
            "spec.devices[0].attributes[1a]: Invalid value: \"1a\": a valid C identifier must start with alphabetic "
            "character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or "
            "'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')"},
           {"ResourceSlice", slice_head + "devices: [{name: d, capacity: {mem: {value: lots}}}]}",
            "spec.devices[0].capacity[mem].value: invalid quantity \"lots\": quantities must match the regular expression "
            "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
           {"ResourceSlice", slice_head + "devices: [{name: d, capacity: {mem: {value: 1Gi, requestPolicy: {default: 1Gi}}}}]}",
            "spec.devices[0].capacity[mem].requestPolicy: Forbidden: allowMultipleAllocations must be true"},
           {"ResourceSlice", slice_head + "devices: [{name: d, consumesCounters: [{counterSet: s, counters: {mem: {value: x1}}}]}]}",
            "spec.devices[0].consumesCounters[0].counters[mem].value: invalid quantity \"x1\": quantities must match the regular expression "
            "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
           {"ResourceSlice", slice_head + "devices: [{name: d, consumesCounters: [{counterSet: s}]}]}",
            "spec.devices[0].consumesCounters[0].counters: Required value"},
           {"ResourceSlice", slice_head + "sharedCounters: [{name: S, counters: {mem: {value: 1}}}]}",
            "spec.sharedCounters[0].name: Invalid value: \"S\": a lowercase RFC 1123 label must consist of lower case "
            "alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  "
            "or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"},
           {"ResourceSlice", slice_head + "devices: [{name: d, taints: [{key: k, effect: Evict}]}]}",
            "spec.devices[0].taints[0].effect: Unsupported value: \"Evict\": supported values: \"NoExecute\", "
            "\"NoSchedule\", \"None\""},
           {"ResourceSlice", slice_head + "devices: [{name: d, nodeName: n}]}",
            "spec.devices[0]: Invalid value: null: `nodeName`, `nodeSelector` and `allNodes` can only be set if "
            "`perDeviceNodeSelection` is set to true in the ResourceSlice spec"},
           {"ResourceSlice", slice_head + "devices: [{name: d, bindingConditions: [a]}]}",
            "spec.devices[0].bindingFailureConditions: Invalid value: null: bindingFailureConditions are required to "
            "use bindingConditions"},
           {"ResourceSlice", slice_head + "devices: [{name: d}, {name: d}]}",
            "spec.devices[1]: Duplicate value: \"d\""},
           {"ResourceClaim", "{devices: {requests: [{name: r}]}}",
            "spec.devices.requests[0]: Required value: exactly one of `exactly` or `firstAvailable` is required"},
           {"ResourceClaim", claim_head + ", allocationMode: Some}}]}}",
            "spec.devices.requests[0].exactly.allocationMode: Unsupported value: \"Some\": supported values: \"All\", "
            "\"ExactCount\""},
           {"ResourceClaim", claim_head + ", allocationMode: All, count: 2}}]}}",
            "spec.devices.requests[0].exactly.count: Invalid value: 2: must not be specified when allocationMode is "
            "'All'"},
           {"ResourceClaim", claim_head + ", count: -1}}]}}",
            "spec.devices.requests[0].exactly.count: Invalid value: -1: must be greater than zero"},
           {"ResourceClaim", claim_head + ", selectors: [{cel: {expression: ''}}]}}]}}",
            "spec.devices.requests[0].exactly.selectors[0].cel.expression: Required value"},
           {"ResourceClaim", claim_head + ", tolerations: [{key: k, operator: Exists, value: v}]}}]}}",
            "spec.devices.requests[0].exactly.tolerations[0].value: Invalid value: \"v\": must be empty for operator "
            "`Exists`"},
           {"ResourceClaim", claim_head + "}}], constraints: [{requests: [other], matchAttribute: a.b/c}]}}",
            "spec.devices.constraints[0].requests[0]: Invalid value: \"other\": must be the name of a request in the "
            "claim or the name of a request and a subrequest separated by '/'"},
           {"ResourceClaim", claim_head + "}}], constraints: [{matchAttribute: model}]}}",
            "spec.devices.constraints[0].matchAttribute: Invalid value: \"model\": a fully qualified name must be a "
            "domain and a name separated by a slash"},
           {"ResourceClaim", claim_head + "}}], constraints: [{requests: [r]}]}}",
            "spec.devices.constraints[0]: Required value: exactly one of \"matchAttribute\" or \"distinctAttribute\" "
            "is required, but multiple fields are set"},
           {"ResourceClaim", claim_head + "}}, {name: r, exactly: {deviceClassName: c}}]}}",
            "spec.devices.requests[1]: Duplicate value: \"r\""},
           {"ResourceClaimTemplate", "{spec: {devices: {requests: [{name: r, exactly: {}}]}}}",
            "spec.spec.devices.requests[0].exactly.deviceClassName: Required value"},
           {"DeviceTaintRule", "{taint: {key: k}}", "spec.taint.effect: Required value"},
           {"DeviceTaintRule", "{deviceSelector: {driver: Bad}, taint: {key: k, effect: NoSchedule}}",
            "spec.deviceSelector.driver: Invalid value: \"Bad\": a lowercase RFC 1123 subdomain must consist of lower "
            "case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. "
            "'example.com', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"},
       }) {
    const bool cluster_scoped = c.kind == "ResourceSlice" || c.kind == "DeviceTaintRule";
    const std::string text = "apiVersion: resource.k8s.io/v1\nkind: " + c.kind + "\nmetadata: {name: bad" +
                             (cluster_scoped ? "" : ", namespace: ns") + "}\nspec: " + c.spec + "\n";
    absl::StatusOr<api::DecodedCluster> d = api::Decode(text, "dra.yaml");
    INFO(c.spec.substr(0, 120));
    REQUIRE_FALSE(d.ok());
    CHECK(d.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(std::string(d.status().message()) == "dra.yaml: document 1 (" + c.kind + " " +
                                                   (cluster_scoped ? "" : "ns/") + "bad): " + c.want);
  }
}

}  // namespace
}  // namespace schedkit
