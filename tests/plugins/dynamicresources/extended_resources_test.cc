// DRAExtendedResource's pieces: which DeviceClass stands for an extended
// resource (upstream's extendedresourcecache, order and tie rules), and the
// requests and container mappings of a pod's extended-resource claim,
// ported as facts from upstream v1.37.2 extendeddynamicresources_test.go
// (Test_createRequestsAndMappings_requests and _mappings: their pods, their
// class mappings as real classes, their expected requests and mappings).
#include "dra/extended_resources.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "schedkit/testing/builders.h"

namespace schedkit::dra {
namespace {

using testing::MakePod;

constexpr char kGpu[] = "example.com/gpu";  // upstream's extendedResourceName

std::shared_ptr<const api::v1::DeviceClass> Class(std::string name, std::string extended = "",
                                                  std::string created = "") {
  auto c = std::make_shared<api::v1::DeviceClass>();
  c->mutable_metadata()->set_name(std::move(name));
  if (!created.empty()) c->mutable_metadata()->set_creation_timestamp(std::move(created));
  if (!extended.empty()) c->mutable_spec()->set_extended_resource_name(std::move(extended));
  return c;
}

std::string ClassOf(const ExtendedResourceClasses& classes, std::string_view resource) {
  const api::v1::DeviceClass* c = classes.Find(resource);
  return c == nullptr ? "<none>" : c->metadata().name();
}

TEST_CASE("ExtendedResourceClasses maps explicit and implicit names", "[dra][extended]") {
  ExtendedResourceClasses classes({Class("gpu", kGpu), Class("nic")});
  CHECK(ClassOf(classes, kGpu) == "gpu");
  CHECK(ClassOf(classes, "deviceclass.resource.kubernetes.io/gpu") == "gpu");
  CHECK(ClassOf(classes, "deviceclass.resource.kubernetes.io/nic") == "nic");
  CHECK(ClassOf(classes, "example.com/nic") == "<none>");
  CHECK(ExtendedResourceClasses().empty());
}

TEST_CASE("ExtendedResourceClasses: the newest class holds a shared name", "[dra][extended]") {
  // Added in name order: "a" first; "b" is newer and takes the name.
  ExtendedResourceClasses newer_second({Class("a", kGpu, "2026-01-01T00:00:00Z"),
                                        Class("b", kGpu, "2026-02-01T00:00:00Z")});
  CHECK(ClassOf(newer_second, kGpu) == "b");
  CHECK(ClassOf(newer_second, "deviceclass.resource.kubernetes.io/a") == "a");
  // "b" is older: it loses on arrival and, as upstream's cache has it, gets
  // no implicit name either.
  ExtendedResourceClasses older_second({Class("a", kGpu, "2026-02-01T00:00:00Z"),
                                        Class("b", kGpu, "2026-01-01T00:00:00Z")});
  CHECK(ClassOf(older_second, kGpu) == "a");
  CHECK(ClassOf(older_second, "deviceclass.resource.kubernetes.io/b") == "<none>");
  // As new: the smaller name holds it.
  ExtendedResourceClasses tie({Class("b", kGpu, "2026-01-01T00:00:00Z"), Class("a", kGpu, "2026-01-01T00:00:00Z")});
  CHECK(ClassOf(tie, kGpu) == "a");
}

// upstream's devMap, devMap2 and devMapInit as classes.
ExtendedResourceClasses DevMap() { return ExtendedResourceClasses({Class("class", kGpu)}); }
ExtendedResourceClasses DevMap2() {
  return ExtendedResourceClasses({Class("class", kGpu), Class("class1", std::string(kGpu) + "1")});
}
ExtendedResourceClasses DevMapInit() {
  return ExtendedResourceClasses({Class("class", kGpu), Class("classInit", std::string(kGpu) + "init")});
}

const std::string kGpu1 = std::string(kGpu) + "1";
const std::string kGpuInit = std::string(kGpu) + "init";
const std::string kImplicitInit = "deviceclass.resource.kubernetes.io/classInit";

api::v1::Pod Pod1() { return MakePod().Name("my-pod").Req({{kGpu, "1"}, {kGpu1, "2"}}).Obj(); }
api::v1::Pod Pod2() { return MakePod().Name("my-pod").Req({{kGpu, "1"}}).Req({{kGpu1, "2"}}).Obj(); }
api::v1::Pod PodInit() { return MakePod().Name("my-pod").Req({{kGpu, "1"}}).InitReq({{kGpuInit, "2"}}).Obj(); }
api::v1::Pod PodInit2() {
  return MakePod().Name("my-pod").Req({{kGpu, "1"}}).InitReq({{kGpuInit, "1"}}).InitReq({{kGpuInit, "2"}}).Obj();
}
api::v1::Pod PodInit3() {
  return MakePod()
      .Name("my-pod")
      .Req({{kGpu, "1"}})
      .InitReq({{kGpuInit, "1"}})
      .SidecarReq({{kGpuInit, "1"}})
      .InitReq({{kGpuInit, "2"}})
      .Obj();
}
api::v1::Pod Pod1InitImplicit() { return MakePod().Name("my-pod").InitReq({{kGpuInit, "1"}, {kImplicitInit, "2"}}).Obj(); }
api::v1::Pod PodInitImplicit() {
  return MakePod().Name("my-pod").Req({{kGpu, "1"}}).InitReq({{kGpuInit, "1"}}).InitReq({{kImplicitInit, "2"}}).Obj();
}

struct Want {
  std::string name;
  std::string class_name;
  int64_t count;
};

TEST_CASE("Test_createRequestsAndMappings_requests", "[dra][extended]") {
  struct Case {
    std::string name;
    api::v1::Pod pod;
    std::vector<std::string> resources;
    ExtendedResourceClasses classes;
    std::vector<Want> want;
  };
  const std::vector<Case> cases = {
      {"nil", Pod1(), {}, {}, {}},
      {"one resource match", Pod1(), {kGpu}, DevMap(), {{"container-0-request-0", "class", 1}}},
      {"one resource match, one resource not match",
       Pod1(),
       {kGpu, kGpu1},
       DevMap(),
       {{"container-0-request-0", "class", 1}}},
      {"two resources match",
       Pod1(),
       {kGpu, kGpu1},
       DevMap2(),
       {{"container-0-request-0", "class", 1}, {"container-0-request-1", "class1", 2}}},
      {"two containers match",
       Pod2(),
       {kGpu, kGpu1},
       DevMap2(),
       {{"container-0-request-0", "class", 1}, {"container-1-request-0", "class1", 2}}},
      {"one init container, one regular container",
       PodInit(),
       {kGpu, kGpuInit},
       DevMapInit(),
       {{"container-0-request-0", "classInit", 2}, {"container-1-request-0", "class", 1}}},
      {"two init containers, one regular container",
       PodInit2(),
       {kGpu, kGpuInit},
       DevMapInit(),
       {{"container-1-request-0", "classInit", 2}, {"container-2-request-0", "class", 1}}},
      {"three init containers, one sidecar, one regular container",
       PodInit3(),
       {kGpu, kGpuInit},
       DevMapInit(),
       {{"container-1-request-0", "classInit", 1},
        {"container-2-request-0", "classInit", 2},
        {"container-3-request-0", "class", 1}}},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION(tc.name) {
      ExtendedResourceRequests got = ExtendedResourceRequestsFor(tc.pod, tc.resources, tc.classes);
      REQUIRE(got.requests.size() == tc.want.size());
      for (size_t i = 0; i < tc.want.size(); ++i) {
        const api::v1::DeviceRequest& r = got.requests[i];
        CHECK(r.name() == tc.want[i].name);
        CHECK(r.exactly().device_class_name() == tc.want[i].class_name);
        CHECK(r.exactly().allocation_mode() == "ExactCount");
        CHECK(r.exactly().count() == tc.want[i].count);
      }
    }
  }
}

TEST_CASE("Test_createRequestsAndMappings_mappings", "[dra][extended]") {
  using Mapping = std::tuple<std::string, std::string, std::string>;  // request, container, resource
  struct Case {
    std::string name;
    api::v1::Pod pod;
    std::vector<std::string> resources;
    ExtendedResourceClasses classes;
    std::vector<Mapping> want;  // sorted by request, then container, as upstream's check sorts
  };
  const std::vector<Case> cases = {
      {"one container, two requests",
       Pod1(),
       {kGpu, kGpu1},
       DevMap2(),
       {{"container-0-request-0", "con0", kGpu}, {"container-0-request-1", "con0", kGpu1}}},
      {"one container, one explicit and one implicit request",
       Pod1InitImplicit(),
       {kGpu, kGpuInit, kImplicitInit},
       DevMapInit(),
       {{"container-0-request-0", "init-con0", kImplicitInit}, {"container-0-request-1", "init-con0", kGpuInit}}},
      {"two containers, two requests",
       Pod2(),
       {kGpu, kGpu1},
       DevMap2(),
       {{"container-0-request-0", "con0", kGpu}, {"container-1-request-0", "con1", kGpu1}}},
      {"one init container, one regular container, one request",
       PodInit(),
       {kGpu, kGpuInit},
       DevMapInit(),
       {{"container-0-request-0", "init-con0", kGpuInit}, {"container-1-request-0", "con0", kGpu}}},
      {"three containers (two are init container), two requests",
       PodInit2(),
       {kGpu, kGpuInit},
       DevMapInit(),
       {{"container-1-request-0", "init-con0", kGpuInit},
        {"container-1-request-0", "init-con1", kGpuInit},
        {"container-2-request-0", "con0", kGpu}}},
      {"three containers (two are init container), both explicit and implicit resources",
       PodInitImplicit(),
       {kGpu, kGpuInit, kImplicitInit},
       DevMapInit(),
       {{"container-0-request-0", "init-con0", kGpuInit},
        {"container-1-request-0", "init-con1", kImplicitInit},
        {"container-2-request-0", "con0", kGpu}}},
      {"four containers (two are init container, one sidecar), three requests",
       PodInit3(),
       {kGpu, kGpuInit},
       DevMapInit(),
       {{"container-1-request-0", "init-con0", kGpuInit},
        {"container-1-request-0", "sidecar-con1", kGpuInit},
        {"container-2-request-0", "init-con2", kGpuInit},
        {"container-3-request-0", "con0", kGpu}}},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION(tc.name) {
      ExtendedResourceRequests got = ExtendedResourceRequestsFor(tc.pod, tc.resources, tc.classes);
      std::vector<Mapping> mappings;
      for (const ExtendedResourceMapping& m : got.mappings) mappings.emplace_back(m.request, m.container, m.resource);
      std::sort(mappings.begin(), mappings.end());
      CHECK(mappings == tc.want);
    }
  }
}

TEST_CASE("ExtendedResourceRequestsFor skips what is not a whole device count", "[dra][extended]") {
  // upstream's Quantity.AsInt64: "500m" and "0" ask for no device.
  api::v1::Pod pod = MakePod().Name("p").Req({{kGpu, "500m"}}).Req({{kGpu, "0"}}).Req({{kGpu, "2"}}).Obj();
  ExtendedResourceRequests got = ExtendedResourceRequestsFor(pod, {kGpu}, DevMap());
  REQUIRE(got.requests.size() == 1);
  CHECK(got.requests[0].name() == "container-2-request-0");
  CHECK(got.requests[0].exactly().count() == 2);
}

}  // namespace
}  // namespace schedkit::dra
