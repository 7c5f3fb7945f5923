// The resource.k8s.io kinds decode with the fields the scheduler reads, and
// bad ones are refused naming the file, the object and the field, as the API
// server's validation would refuse them.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "schedkit/api/builtin_kinds.h"
#include "schedkit/api/decode.h"
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
            "spec.selectors[0].cel.expression: must be no more than 10240 bytes"},
           {many_selectors, "spec.selectors: must have at most 32 items"},
           {"{config: [{}]}", "spec.config[0].opaque: Required value"},
           {"{config: [{opaque: {driver: ''}}]}", "spec.config[0].opaque.driver: Required value"},
           {"{config: [{opaque: {driver: Bad_Driver}}]}",
            "spec.config[0].opaque.driver: a lowercase RFC 1123 subdomain is required, got \"Bad_Driver\""},
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

}  // namespace
}  // namespace schedkit
