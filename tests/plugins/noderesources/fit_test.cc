// NodeResourcesFit: upstream v1.35.8 fit_test.go tables, ported as facts.
#include "plugins/noderesources/fit.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "plugins/noderesources/test_util.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"
#include "testing/filter_nodes.h"

namespace schedkit::plugins::noderesources {
namespace {

using framework::Code;
using framework::Status;
using testing::MakeNode;
using testing::MakePod;
using namespace testutil;  // NOLINT: the upstream helpers, by their upstream names

std::string Describe(const std::vector<InsufficientResource>& v) {
  std::string out = "[";
  for (const auto& r : v) {
    schedkit::StrAppend(&out, "{", r.resource_name, " \"", r.reason, "\" req=", r.requested, " used=", r.used,
                        " cap=", r.capacity, r.unresolvable ? " unresolvable" : "", "}");
  }
  return out + "]";
}

std::unique_ptr<framework::Plugin> MustNewFit(testing::FakeHandle& h, const std::string& args = "",
                                              const FitFeatures& features = {}) {
  auto parsed = ParseNodeResourcesFitArgs(framework::PluginArgs(args));
  REQUIRE(parsed.ok());
  auto p = NewFit(*parsed, h, features);
  REQUIRE(p.ok());
  return *std::move(p);
}

// Runs PreFilter then Filter; returns the PreFilter status when it fails.
Status RunFilter(framework::Plugin& p, const api::v1::Pod& pod, const framework::NodeInfo& node,
                 Status* prefilter = nullptr) {
  auto info = framework::PodInfo::Create(pod);
  REQUIRE(info.ok());
  framework::CycleState state;
  auto pre = dynamic_cast<framework::PreFilterPlugin&>(p).PreFilter(state, **info, {});
  if (prefilter != nullptr) *prefilter = pre.status;
  if (!pre.status.IsSuccess()) return pre.status;
  const auto& filter = dynamic_cast<framework::FilterPlugin&>(p);
  Status got = filter.Filter(state, **info, node);
  CHECK(testing::FilterThroughBatch(filter, state, **info, node) == got);
  return got;
}

std::string Reason(const std::string& resource) { return "Insufficient " + resource; }

InsufficientResource IR(const std::string& name, int64_t requested, int64_t used, int64_t capacity,
                        bool unresolvable = false) {
  return {name, Reason(name), requested, used, capacity, unresolvable};
}

struct EnoughCase {
  std::string name;
  api::v1::Pod pod;
  std::vector<api::v1::Pod> node_pods;  // upstream framework.NewNodeInfo(pods...)
  std::string args;
  Status want_status;
  std::vector<InsufficientResource> want_insufficient;
};

TEST_CASE("TestEnoughRequests", "[noderesources][fit]") {
  const Res none{};
  auto R2 = [](int64_t cpu, int64_t mem) { return Res{cpu, mem}; };
  auto RS = [](int64_t cpu, int64_t mem, std::vector<std::pair<std::string, int64_t>> s) {
    return Res{cpu, mem, 0, 0, std::move(s)};
  };
  const auto& A = kExtendedResourceA;
  const auto& B = kExtendedResourceB;
  const auto& H = kHugePageResourceA;
  const auto U = Code::kUnschedulable;
  const auto UU = Code::kUnschedulableAndUnresolvable;

  std::vector<EnoughCase> cases = {
      {"no resources requested always fits", MakePod().Obj(), {NewResourcePod({R2(10, 20)})}, "", {}, {}},
      {"too many resources fails",
       NewResourcePod({R2(1, 1)}),
       {NewResourcePod({R2(10, 20)})},
       "",
       Status::WithReasons(U, {"Insufficient cpu", "Insufficient memory"}),
       {IR("cpu", 1, 10, 10), IR("memory", 1, 20, 20)}},
      {"too many resources fails due to init container cpu",
       NewResourceInitPod(NewResourcePod({R2(1, 1)}), {R2(3, 1)}),
       {NewResourcePod({R2(8, 19)})},
       "",
       Status::WithReasons(U, {"Insufficient cpu"}),
       {IR("cpu", 3, 8, 10)}},
      {"too many resources fails due to highest init container cpu",
       NewResourceInitPod(NewResourcePod({R2(1, 1)}), {R2(3, 1), R2(2, 1)}),
       {NewResourcePod({R2(8, 19)})},
       "",
       Status::WithReasons(U, {"Insufficient cpu"}),
       {IR("cpu", 3, 8, 10)}},
      {"too many resources fails due to init container memory",
       NewResourceInitPod(NewResourcePod({R2(1, 1)}), {R2(1, 3)}),
       {NewResourcePod({R2(9, 19)})},
       "",
       Status::WithReasons(U, {"Insufficient memory"}),
       {IR("memory", 3, 19, 20)}},
      {"too many resources fails due to highest init container memory",
       NewResourceInitPod(NewResourcePod({R2(1, 1)}), {R2(1, 3), R2(1, 2)}),
       {NewResourcePod({R2(9, 19)})},
       "",
       Status::WithReasons(U, {"Insufficient memory"}),
       {IR("memory", 3, 19, 20)}},
      {"init container fits because it's the max, not sum, of containers and init containers",
       NewResourceInitPod(NewResourcePod({R2(1, 1)}), {R2(1, 1)}),
       {NewResourcePod({R2(9, 19)})},
       "",
       {},
       {}},
      {"multiple init containers fit because it's the max, not sum, of containers and init containers",
       NewResourceInitPod(NewResourcePod({R2(1, 1)}), {R2(1, 1), R2(1, 1)}),
       {NewResourcePod({R2(9, 19)})},
       "",
       {},
       {}},
      {"both resources fit", NewResourcePod({R2(1, 1)}), {NewResourcePod({R2(5, 5)})}, "", {}, {}},
      {"one resource memory fits",
       NewResourcePod({R2(2, 1)}),
       {NewResourcePod({R2(9, 5)})},
       "",
       Status::WithReasons(U, {"Insufficient cpu"}),
       {IR("cpu", 2, 9, 10)}},
      {"one resource cpu fits",
       NewResourcePod({R2(1, 2)}),
       {NewResourcePod({R2(5, 19)})},
       "",
       Status::WithReasons(U, {"Insufficient memory"}),
       {IR("memory", 2, 19, 20)}},
      {"equal edge case", NewResourcePod({R2(5, 1)}), {NewResourcePod({R2(5, 19)})}, "", {}, {}},
      {"equal edge case for init container",
       NewResourceInitPod(NewResourcePod({R2(4, 1)}), {R2(5, 1)}),
       {NewResourcePod({R2(5, 19)})},
       "",
       {},
       {}},
      {"extended resource fits", NewResourcePod({RS(0, 0, {{A, 1}})}), {NewResourcePod({none})}, "", {}, {}},
      {"extended resource fits for init container",
       NewResourceInitPod(NewResourcePod({none}), {RS(0, 0, {{A, 1}})}),
       {NewResourcePod({none})},
       "",
       {},
       {}},
      {"extended resource capacity enforced",
       NewResourcePod({RS(1, 1, {{A, 10}})}),
       {NewResourcePod({RS(0, 0, {{A, 0}})})},
       "",
       Status::WithReasons(UU, {Reason(A)}),
       {IR(A, 10, 0, 5, true)}},
      {"extended resource capacity enforced for init container",
       NewResourceInitPod(NewResourcePod({none}), {RS(1, 1, {{A, 10}})}),
       {NewResourcePod({RS(0, 0, {{A, 0}})})},
       "",
       Status::WithReasons(UU, {Reason(A)}),
       {IR(A, 10, 0, 5, true)}},
      {"extended resource allocatable enforced",
       NewResourcePod({RS(1, 1, {{A, 1}})}),
       {NewResourcePod({RS(0, 0, {{A, 5}})})},
       "",
       Status::WithReasons(U, {Reason(A)}),
       {IR(A, 1, 5, 5)}},
      {"extended resource allocatable enforced for init container",
       NewResourceInitPod(NewResourcePod({none}), {RS(1, 1, {{A, 1}})}),
       {NewResourcePod({RS(0, 0, {{A, 5}})})},
       "",
       Status::WithReasons(U, {Reason(A)}),
       {IR(A, 1, 5, 5)}},
      {"extended resource allocatable enforced for multiple containers",
       NewResourcePod({RS(1, 1, {{A, 3}}), RS(1, 1, {{A, 3}})}),
       {NewResourcePod({RS(0, 0, {{A, 2}})})},
       "",
       Status::WithReasons(UU, {Reason(A)}),
       {IR(A, 6, 2, 5, true)}},
      {"extended resource allocatable admits multiple init containers",
       NewResourceInitPod(NewResourcePod({none}), {RS(1, 1, {{A, 3}}), RS(1, 1, {{A, 3}})}),
       {NewResourcePod({RS(0, 0, {{A, 2}})})},
       "",
       {},
       {}},
      {"extended resource allocatable enforced for multiple init containers",
       NewResourceInitPod(NewResourcePod({none}), {RS(1, 1, {{A, 6}}), RS(1, 1, {{A, 3}})}),
       {NewResourcePod({RS(0, 0, {{A, 2}})})},
       "",
       Status::WithReasons(UU, {Reason(A)}),
       {IR(A, 6, 2, 5, true)}},
      {"extended resource allocatable enforced for unknown resource",
       NewResourcePod({RS(1, 1, {{B, 1}})}),
       {NewResourcePod({R2(0, 0)})},
       "",
       Status::WithReasons(UU, {Reason(B)}),
       {IR(B, 1, 0, 0, true)}},
      {"extended resource allocatable enforced for unknown resource for init container",
       NewResourceInitPod(NewResourcePod({none}), {RS(1, 1, {{B, 1}})}),
       {NewResourcePod({R2(0, 0)})},
       "",
       Status::WithReasons(UU, {Reason(B)}),
       {IR(B, 1, 0, 0, true)}},
      {"kubernetes.io resource capacity enforced",
       NewResourcePod({RS(1, 1, {{kKubernetesIOResourceA, 10}})}),
       {NewResourcePod({R2(0, 0)})},
       "",
       Status::WithReasons(UU, {Reason(kKubernetesIOResourceA)}),
       {IR(kKubernetesIOResourceA, 10, 0, 0, true)}},
      {"kubernetes.io resource capacity enforced for init container",
       NewResourceInitPod(NewResourcePod({none}), {RS(1, 1, {{kKubernetesIOResourceB, 10}})}),
       {NewResourcePod({R2(0, 0)})},
       "",
       Status::WithReasons(UU, {Reason(kKubernetesIOResourceB)}),
       {IR(kKubernetesIOResourceB, 10, 0, 0, true)}},
      {"hugepages resource capacity enforced",
       NewResourcePod({RS(1, 1, {{H, 10}})}),
       {NewResourcePod({RS(0, 0, {{H, 0}})})},
       "",
       Status::WithReasons(UU, {Reason(H)}),
       {IR(H, 10, 0, 5, true)}},
      {"hugepages resource capacity enforced for init container",
       NewResourceInitPod(NewResourcePod({none}), {RS(1, 1, {{H, 10}})}),
       {NewResourcePod({RS(0, 0, {{H, 0}})})},
       "",
       Status::WithReasons(UU, {Reason(H)}),
       {IR(H, 10, 0, 5, true)}},
      {"hugepages resource allocatable enforced for multiple containers",
       NewResourcePod({RS(1, 1, {{H, 3}}), RS(1, 1, {{H, 3}})}),
       {NewResourcePod({RS(0, 0, {{H, 2}})})},
       "",
       Status::WithReasons(UU, {Reason(H)}),
       {IR(H, 6, 2, 5, true)}},
      {"skip checking ignored extended resource",
       NewResourcePod({RS(1, 1, {{B, 1}})}),
       {NewResourcePod({R2(0, 0)})},
       R"({"ignoredResources": ["example.com/bbb"]})",
       {},
       {}},
      {"resources + pod overhead fits",
       NewResourceOverheadPod(NewResourcePod({R2(1, 1)}), {{"cpu", "3m"}, {"memory", "13"}}),
       {NewResourcePod({R2(5, 5)})},
       "",
       {},
       {}},
      {"requests + overhead does not fit for memory",
       NewResourceOverheadPod(NewResourcePod({R2(1, 1)}), {{"cpu", "1m"}, {"memory", "15"}}),
       {NewResourcePod({R2(5, 5)})},
       "",
       Status::WithReasons(U, {"Insufficient memory"}),
       {IR("memory", 16, 5, 20)}},
      {"skip checking ignored extended resource via resource groups",
       NewResourcePod({RS(1, 1, {{B, 1}, {kKubernetesIOResourceA, 1}})}),
       {NewResourcePod({R2(0, 0)})},
       R"({"ignoredResourceGroups": ["example.com"]})",
       Status::WithReasons(UU, {Reason(kKubernetesIOResourceA)}),
       {IR(kKubernetesIOResourceA, 1, 0, 0, true)}},
      {"skip checking extended resource request with quantity zero via resource groups",
       NewResourcePod({RS(1, 1, {{A, 0}})}),
       {NewResourcePod({RS(0, 0, {{A, 6}})})},
       "",
       {},
       {}},
      {"skip checking resource request with quantity zero",
       NewResourcePod({RS(0, 0, {{A, 1}})}),
       {NewResourcePod({RS(20, 30, {{A, 1}})})},
       "",
       {},
       {}},
      {"both pod-level and container-level resources fit",
       NewPodLevelResourcesPod(NewResourcePod({R2(1, 1)}), {{"cpu", "1m"}, {"memory", "2"}}),
       {NewResourcePod({R2(5, 5)})},
       "",
       {},
       {}},
      {"pod-level cpu resource not fit",
       NewPodLevelResourcesPod(NewResourcePod({R2(1, 1)}), {{"cpu", "7m"}, {"memory", "2"}}),
       {NewResourcePod({R2(5, 5)})},
       "",
       Status::WithReasons(U, {"Insufficient cpu"}),
       {IR("cpu", 7, 5, 10)}},
      {"pod-level memory resource not fit",
       NewPodLevelResourcesPod(NewResourcePod({R2(1, 1)}), {{"cpu", "3m"}, {"memory", "2"}}),
       {NewResourcePod({R2(5, 19)})},
       "",
       Status::WithReasons(U, {"Insufficient memory"}),
       {IR("memory", 2, 19, 20)}},
      {"pod-level hugepages resource fit",
       NewPodLevelResourcesPod(NewResourcePod(), {{"cpu", "3m"}, {"memory", "2"}, {H, "5"}}),
       {},
       "",
       {},
       {}},
      {"both pod-level and container-level hugepages resource fit",
       NewPodLevelResourcesPod(NewResourcePod({RS(1, 1, {{H, 3}})}),
                               {{"cpu", "3m"}, {"memory", "2"}, {H, "5"}}),
       {},
       "",
       {},
       {}},
      {"pod-level hugepages resource not fit",
       NewPodLevelResourcesPod(NewResourcePod(), {{"cpu", "3m"}, {"memory", "2"}, {H, "10"}}),
       {},
       "",
       Status::WithReasons(UU, {Reason(H)}),
       {IR(H, 10, 0, 5, true)}},
      {"one pod-level cpu resource fits and all init and non-init containers resources fit",
       NewResourceInitPod(
           NewPodLevelResourcesPod(NewResourcePod({R2(1, 1)}), {{"cpu", "3m"}, {"memory", "2"}}), {R2(1, 1)}),
       {NewResourcePod({R2(5, 19)})},
       "",
       Status::WithReasons(U, {"Insufficient memory"}),
       {IR("memory", 2, 19, 20)}},
      // The DRAExtendedResource cases below hold with the gate off (v1.35's
      // default) as well: the resource is on the node, or not DRA-backed.
      {"extended resource backed by device plugin",
       NewResourcePod({RS(0, 0, {{A, 1}})}),
       {NewResourcePod({none})},
       "",
       {},
       {}},
      {"extended resource backed by DRA, nil draManager",
       NewResourcePod({RS(1, 1, {{A, 1}})}),
       {NewResourcePod({R2(0, 0)})},
       "",
       {},
       {}},
      {"extended resource backed by DRA not enabled",
       NewResourcePod({RS(1, 1, {{kExtendedResourceDRA, 1}})}),
       {NewResourcePod({R2(0, 0)})},
       "",
       Status::WithReasons(UU, {Reason(kExtendedResourceDRA)}),
       {IR(kExtendedResourceDRA, 1, 0, 0, true)}},
      {"extended resource NOT backed by DRA",
       NewResourcePod({RS(1, 1, {{B, 1}})}),
       {NewResourcePod({R2(0, 0)})},
       "",
       Status::WithReasons(UU, {Reason(B)}),
       {IR(B, 1, 0, 0, true)}},
      {"extended resource was backed by Device Plugin (Allocatable: 0), global cache",
       NewResourcePod({RS(0, 0, {{A, 1}})}),
       {NewResourcePod({RS(0, 0, {{A, 0}})})},
       "",
       {},
       {}},
  };
  REQUIRE(cases.size() == 47);

  for (const EnoughCase& tc : cases) {
    DYNAMIC_SECTION("TestEnoughRequests/" << tc.name) {
      testing::FakeHandle h;
      framework::NodeInfo node =
          MakeNode().Name("node").Capacity(MakeResources(10, 20, 32, 5, 20, 5)).Info(tc.node_pods);
      auto p = MustNewFit(h, tc.args);
      CHECK(RunFilter(*p, tc.pod, node).ToString() == tc.want_status.ToString());
      auto info = framework::PodInfo::Create(tc.pod);
      REQUIRE(info.ok());
      CHECK(Describe(InsufficientResourcesFor(*p, **info, node)) == Describe(tc.want_insufficient));
    }
  }
}

TEST_CASE("TestPreFilterDisabled", "[noderesources][fit]") {
  testing::FakeHandle h;
  auto p = MustNewFit(h);
  framework::NodeInfo node = MakeNode().Name("n").Info();
  auto pod = MakePod().Info();
  framework::CycleState state;
  Status got = dynamic_cast<framework::FilterPlugin&>(*p).Filter(state, *pod, node);
  CHECK(got.code() == Code::kError);
  CHECK(got.Message() == "error reading \"PreFilterNodeResourcesFit\" from cycleState: not found");
}

TEST_CASE("TestNotEnoughRequests", "[noderesources][fit]") {
  struct Case {
    std::string name;
    api::v1::Pod pod;
    api::v1::Pod node_pod;
  };
  std::vector<Case> cases = {
      {"even without specified resources, predicate fails when there's no space for additional pod",
       MakePod().Obj(), NewResourcePod({Res{10, 20}})},
      {"even if both resources fit, predicate fails when there's no space for additional pod",
       NewResourcePod({Res{1, 1}}), NewResourcePod({Res{5, 5}})},
      {"even for equal edge case, predicate fails when there's no space for additional pod",
       NewResourcePod({Res{5, 1}}), NewResourcePod({Res{5, 19}})},
      {"even for equal edge case, predicate fails when there's no space for additional pod due to init "
       "container",
       NewResourceInitPod(NewResourcePod({Res{5, 1}}), {Res{5, 1}}), NewResourcePod({Res{5, 19}})},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestNotEnoughRequests/" << tc.name) {
      testing::FakeHandle h;
      framework::NodeInfo node =
          MakeNode().Name("node").Allocatable(MakeResources(10, 20, 1, 0, 0, 0)).Info({tc.node_pod});
      auto p = MustNewFit(h);
      CHECK(RunFilter(*p, tc.pod, node).ToString() ==
            Status::WithReasons(Code::kUnschedulable, {"Too many pods"}).ToString());
    }
  }
}

// A pod against a node holding one other pod, and Filter's expected status.
struct OneNodeCase {
  std::string name;
  api::v1::Pod pod;
  api::v1::Pod node_pod;
  Status want;
};

void CheckOneNodeCases(const std::string& prefix, const testing::ResourceMap& capacity,
                       const std::vector<OneNodeCase>& cases) {
  for (const OneNodeCase& tc : cases) {
    DYNAMIC_SECTION(prefix << tc.name) {
      testing::FakeHandle h;
      framework::NodeInfo node = MakeNode().Name("node").Capacity(capacity).Info({tc.node_pod});
      auto p = MustNewFit(h);
      CHECK(RunFilter(*p, tc.pod, node).ToString() == tc.want.ToString());
    }
  }
}

// Not upstream's table: upstream checks a resource only when the pod asks
// for it, so a node whose pods already exceed its cpu (or memory) still takes
// a pod that asks for none of it.
TEST_CASE("Fit: an over-committed resource the pod does not ask for is not checked", "[noderesources][fit]") {
  CheckOneNodeCases(
      "", MakeResources(10, 20, 32, 0, 0, 0),
      {
          {"memory only, cpu over-committed", NewResourcePod({Res{0, 1}}), NewResourcePod({Res{15, 5}}), Status()},
          {"cpu only, memory over-committed", NewResourcePod({Res{1, 0}}), NewResourcePod({Res{5, 25}}), Status()},
          {"cpu asked, cpu over-committed", NewResourcePod({Res{1, 1}}), NewResourcePod({Res{15, 5}}),
           Status::WithReasons(Code::kUnschedulable, {"Insufficient cpu"})},
          {"memory asked, memory over-committed", NewResourcePod({Res{1, 1}}), NewResourcePod({Res{5, 25}}),
           Status::WithReasons(Code::kUnschedulable, {"Insufficient memory"})},
      });
}

TEST_CASE("TestStorageRequests", "[noderesources][fit]") {
  const std::vector<OneNodeCase> cases = {
      {"empty storage requested, and pod fits",
       NewResourcePod({Res{1, 1}}),
       NewResourcePod({Res{2, 10}}),
       {}},
      {"storage ephemeral local storage request exceeds allocatable", NewResourcePod({Res{0, 0, 25}}),
       NewResourcePod({Res{2, 2}}),
       Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"Insufficient ephemeral-storage"})},
      {"ephemeral local storage is sufficient",
       NewResourceInitPod(NewResourcePod({Res{0, 0, 5}}), {}),
       NewResourcePod({Res{2, 2, 10}}),
       {}},
      {"pod fits", NewResourcePod({Res{0, 0, 10}}), NewResourcePod({Res{2, 2}}), {}},
  };
  CheckOneNodeCases("TestStorageRequests/", MakeResources(10, 20, 32, 5, 20, 5), cases);
}

TEST_CASE("TestRestartableInitContainers", "[noderesources][fit]") {
  auto new_pod = [] {
    api::v1::Pod pod = MakePod().Obj();
    pod.mutable_spec()->add_containers()->set_name("regular");
    return pod;
  };
  auto with_sidecar = [](std::optional<std::string> request, std::optional<std::string> sidecar_request) {
    api::v1::Pod pod = MakePod().Obj();
    auto* c = pod.mutable_spec()->add_containers();
    c->set_name("regular");
    if (request) (*c->mutable_resources()->mutable_requests())["cpu"] = *request;
    auto* s = pod.mutable_spec()->add_init_containers();
    s->set_name("restartable-init");
    s->set_restart_policy("Always");
    if (sidecar_request) (*s->mutable_resources()->mutable_requests())["cpu"] = *sidecar_request;
    return pod;
  };
  // v1.37: SidecarContainers is gone (always on), and so are the rows that
  // turned it off.
  struct Case {
    std::string name;
    api::v1::Pod pod;
    Status want_prefilter;
    Status want_filter;
  };
  std::vector<Case> cases = {
      {"allow pod without restartable init containers", new_pod(), {}, {}},
      {"allow pod with restartable init containers", with_sidecar(std::nullopt, std::nullopt), {}, {}},
      {"allow pod if the total requested resources do not exceed the node's allocatable resources",
       with_sidecar("1m", "1m"),
       {},
       {}},
      {"not allow pod if the total requested resources do exceed the node's allocatable resources",
       with_sidecar("1m", "2m"),
       {},
       Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"Insufficient cpu"})},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestRestartableInitContainers/" << tc.name) {
      testing::FakeHandle h;
      framework::NodeInfo node = MakeNode().Name("node").Allocatable(MakeResources(2, 0, 1, 0, 0, 0)).Info();
      auto p = MustNewFit(h);
      Status prefilter;
      Status filter = RunFilter(*p, tc.pod, node, &prefilter);
      CHECK(prefilter.ToString() == tc.want_prefilter.ToString());
      if (prefilter.IsSuccess()) CHECK(filter.ToString() == tc.want_filter.ToString());
    }
  }
}

struct ScoreCase {
  std::string name;
  api::v1::Pod requested_pod;
  std::vector<api::v1::Node> nodes;
  std::vector<api::v1::Pod> existing_pods;
  std::vector<int64_t> expected;
  std::string args;
  bool run_prescore;
};

TEST_CASE("TestFitScore", "[noderesources][fit]") {
  auto node = [](const std::string& name, const std::string& cpu, const std::string& mem) {
    return MakeNode().Name(name).Capacity(WithPods({{"cpu", cpu}, {"memory", mem}})).Obj();
  };
  const std::vector<api::v1::Node> nodes46 = {node("node1", "4000", "10000"), node("node2", "6000", "10000")};
  const std::vector<api::v1::Node> nodes44 = {node("node1", "4000", "10000"), node("node2", "4000", "10000")};
  const std::vector<api::v1::Pod> existing = {
      MakePod().Node("node1").Req({{"cpu", "2000"}, {"memory", "4000"}}).Obj(),
      MakePod().Node("node2").Req({{"cpu", "1000"}, {"memory", "2000"}}).Obj()};
  const std::vector<api::v1::Pod> existing_sidecar = {
      MakePod()
          .Node("node1")
          .Req({{"cpu", "1000"}, {"memory", "2000"}})
          .SidecarReq({{"cpu", "1000"}, {"memory", "2000"}})
          .Obj(),
      MakePod().Node("node2").Req({{"cpu", "1000"}, {"memory", "2000"}}).Obj()};
  const api::v1::Pod pod35 = MakePod().Req({{"cpu", "3000"}, {"memory", "5000"}}).Obj();
  const api::v1::Pod pod12 = MakePod().Req({{"cpu", "1000"}, {"memory", "2000"}}).Obj();
  const std::string rtcr1 =
      R"({"scoringStrategy": {"type": "RequestedToCapacityRatio", "resources": [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}],
          "requestedToCapacityRatio": {"shape": [{"utilization": 0, "score": 10}, {"utilization": 100, "score": 0}]}}})";
  const std::string rtcr2 =
      R"({"scoringStrategy": {"type": "RequestedToCapacityRatio", "resources": [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}],
          "requestedToCapacityRatio": {"shape": [{"utilization": 0, "score": 0}, {"utilization": 100, "score": 10}]}}})";
  const std::string most =
      R"({"scoringStrategy": {"type": "MostAllocated", "resources": [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}]}})";
  const std::string least =
      R"({"scoringStrategy": {"type": "LeastAllocated", "resources": [{"name": "cpu", "weight": 1}, {"name": "memory", "weight": 1}]}})";

  std::vector<ScoreCase> cases = {
      {"test case for ScoringStrategy RequestedToCapacityRatio case1",
       pod35,
       nodes46,
       existing,
       {10, 32},
       rtcr1,
       true},
      {"test case for ScoringStrategy RequestedToCapacityRatio case2",
       pod35,
       nodes46,
       existing,
       {95, 68},
       rtcr2,
       true},
      {"test case for ScoringStrategy MostAllocated", pod12, nodes46, existing, {67, 36}, most, true},
      {"test case for ScoringStrategy LeastAllocated", pod12, nodes46, existing, {32, 63}, least, true},
      {"test case for ScoringStrategy RequestedToCapacityRatio case1 if PreScore is not called",
       pod35,
       nodes46,
       existing,
       {10, 32},
       rtcr1,
       false},
      {"test case for ScoringStrategy MostAllocated if PreScore is not called",
       pod12,
       nodes46,
       existing,
       {67, 36},
       most,
       false},
      {"test case for ScoringStrategy LeastAllocated if PreScore is not called",
       pod12,
       nodes46,
       existing,
       {32, 63},
       least,
       false},
      {"test case for ScoringStrategy MostAllocated with sidecar container",
       pod12,
       nodes44,
       existing_sidecar,
       {67, 45},
       most,
       true},
      {"test case for ScoringStrategy LeastAllocated with sidecar container",
       pod12,
       nodes44,
       existing_sidecar,
       {32, 55},
       least,
       true},
  };
  for (const ScoreCase& tc : cases) {
    DYNAMIC_SECTION("TestFitScore/" << tc.name) {
      testing::FakeHandle h;
      h.SetCluster(tc.nodes, NameAll(tc.existing_pods));
      auto p = MustNewFit(h, tc.args);
      ScoreResult got = RunScore(*p, h, tc.requested_pod, {"node1", "node2"}, tc.run_prescore);
      CHECK(got.scores == tc.expected);
      CHECK(got.codes == std::vector<Code>(2, Code::kSuccess));
    }
  }
}

// Upstream v1.37.2 fit_test.go TestEventsToRegister.
TEST_CASE("TestEventsToRegister", "[noderesources][fit]") {
  using framework::EventResource;
  struct Want {
    EventResource resource;
    framework::ActionType action;
  };
  struct Case {
    std::string name;
    bool in_place;
    bool dra_extended_resource;
    std::vector<Want> want;
  };
  const std::vector<Case> cases = {
      {"Register events with InPlacePodVerticalScaling feature enabled",
       true,
       false,
       {{EventResource::AssignedPod(), framework::kActionDelete},
        {EventResource::Node(), framework::kActionAdd | framework::kActionUpdateNodeAllocatable},
        {EventResource::AssignedPod(), framework::kActionUpdatePodScaleDown},
        {EventResource::TargetPod(), framework::kActionUpdatePodScaleDown}}},
      {"Register events with default features",
       false,
       false,
       {{EventResource::AssignedPod(), framework::kActionDelete},
        {EventResource::Node(), framework::kActionAdd | framework::kActionUpdateNodeAllocatable}}},
      {"Register events with DRAExtendedResource feature enabled",
       false,
       true,
       {{EventResource::AssignedPod(), framework::kActionDelete},
        {EventResource::Node(), framework::kActionAdd | framework::kActionUpdateNodeAllocatable},
        {EventResource::Of<api::v1::DeviceClass>(), framework::kActionAdd | framework::kActionUpdate}}},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestEventsToRegister/" << tc.name) {
      testing::FakeHandle h;
      FitFeatures f;
      f.enable_in_place_pod_vertical_scaling = tc.in_place;
      f.enable_dra_extended_resource = tc.dra_extended_resource;
      auto p = MustNewFit(h, "", f);
      auto events = dynamic_cast<framework::EnqueueExtensions&>(*p).EventsToRegister();
      REQUIRE(events.size() == tc.want.size());
      for (size_t i = 0; i < events.size(); ++i) {
        CHECK(events[i].event.resource == tc.want[i].resource);
        CHECK(events[i].event.action == tc.want[i].action);
        CHECK(events[i].hint);
      }
    }
  }
}

// Calls the hint the queue would: the registration matching an event of
// `resource` and `action`; Skip when none matches (the event reaches no hint
// of this plugin, so it never requeues the pod).
absl::StatusOr<framework::QueueingHint> Hint(framework::Plugin& p, framework::EventResource resource,
                                             framework::ActionType action, const api::v1::Pod& pod,
                                             const framework::EventObjects& e) {
  auto info = framework::PodInfo::Create(pod);
  REQUIRE(info.ok());
  const framework::ClusterEvent incoming{resource, action, ""};
  for (const auto& reg : dynamic_cast<framework::EnqueueExtensions&>(p).EventsToRegister()) {
    if (reg.event.Matches(incoming)) return reg.hint(**info, e);
  }
  return framework::QueueingHint::kSkip;
}

TEST_CASE("Test_isSchedulableAfterPodChange", "[noderesources][fit]") {
  using framework::QueueingHint;
  struct Case {
    std::string name;
    api::v1::Pod pod;
    std::optional<api::v1::Pod> old_obj, new_obj;
    bool in_place;
    QueueingHint want;
  };
  std::vector<Case> cases = {
      {"queue-on-other-pod-deleted", MakePod().Name("pod1").Req({{"cpu", "1"}}).Obj(),
       MakePod().Name("pod2").Req({{"cpu", "1"}}).Node("fake").Obj(), std::nullopt, true,
       QueueingHint::kQueue},
      {"skip-queue-on-unscheduled-pod-deleted", MakePod().Obj(), MakePod().Obj(), std::nullopt, true,
       QueueingHint::kSkip},
      {"skip-queue-on-disable-inplace-pod-vertical-scaling", MakePod().Name("pod1").Req({{"cpu", "1"}}).Obj(),
       MakePod().Name("pod2").Req({{"cpu", "2"}}).Node("fake").Obj(),
       MakePod().Name("pod2").Req({{"cpu", "1"}}).Node("fake").Obj(), false, QueueingHint::kSkip},
      {"skip-queue-on-other-unscheduled-pod", MakePod().Name("pod1").UID("uid0").Req({{"cpu", "1"}}).Obj(),
       MakePod().Name("pod2").UID("uid1").Req({{"cpu", "2"}}).Obj(),
       MakePod().Name("pod2").UID("uid1").Req({{"cpu", "1"}}).Obj(), true, QueueingHint::kSkip},
      {"skip-queue-on-other-pod-unrelated-resource-scaled-down",
       MakePod().Name("pod1").UID("pod1").Req({{"cpu", "1"}}).Obj(),
       MakePod().Name("pod2").UID("pod2").Req({{"memory", "2"}}).Node("fake").Obj(),
       MakePod().Name("pod2").UID("pod2").Req({{"memory", "1"}}).Node("fake").Obj(), true,
       QueueingHint::kSkip},
      {"skip-queue-on-other-pod-unrelated-pod-level-resource-scaled-down",
       MakePod().Name("pod1").UID("pod1").PodLevelReq({{"cpu", "1"}}).Obj(),
       MakePod().Name("pod2").UID("pod2").PodLevelReq({{"memory", "2"}}).Node("fake").Obj(),
       MakePod().Name("pod2").UID("pod2").PodLevelReq({{"memory", "1"}}).Node("fake").Obj(), true,
       QueueingHint::kSkip},
      {"queue-on-other-pod-some-resource-scale-down",
       MakePod().Name("pod1").UID("pod1").Req({{"cpu", "1"}}).Obj(),
       MakePod().Name("pod2").UID("pod2").Req({{"cpu", "2"}}).Node("fake").Obj(),
       MakePod().Name("pod2").UID("pod2").Req({{"cpu", "1"}}).Node("fake").Obj(), true, QueueingHint::kQueue},
      {"queue-on-other-pod-some-pod-level-resource-scale-down",
       MakePod().Name("pod1").UID("pod1").PodLevelReq({{"cpu", "1"}}).Obj(),
       MakePod().Name("pod2").UID("pod2").PodLevelReq({{"cpu", "2"}}).Node("fake").Obj(),
       MakePod().Name("pod2").UID("pod2").PodLevelReq({{"cpu", "1"}}).Node("fake").Obj(), true,
       QueueingHint::kQueue},
      {"queue-on-target-pod-some-resource-scale-down",
       MakePod().Name("pod1").UID("pod1").Req({{"cpu", "1"}}).Obj(),
       MakePod().Name("pod1").UID("pod1").Req({{"cpu", "2"}}).Obj(),
       MakePod().Name("pod1").UID("pod1").Req({{"cpu", "1"}}).Obj(), true, QueueingHint::kQueue},
      {"queue-on-target-pod-some-pod-level-resource-scale-down",
       MakePod().Name("pod1").UID("pod1").PodLevelReq({{"cpu", "1"}}).Obj(),
       MakePod().Name("pod1").UID("pod1").PodLevelReq({{"cpu", "2"}}).Obj(),
       MakePod().Name("pod1").UID("pod1").PodLevelReq({{"cpu", "1"}}).Obj(), true, QueueingHint::kQueue},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("Test_isSchedulableAfterPodChange/" << tc.name) {
      testing::FakeHandle h;
      FitFeatures f;
      f.enable_in_place_pod_vertical_scaling = tc.in_place;
      auto p = MustNewFit(h, "", f);
      framework::EventObjects e;
      if (tc.old_obj) e.SetOld(&*tc.old_obj);
      if (tc.new_obj) e.SetNew(&*tc.new_obj);
      // The event the queue would send: a deletion is AssignedPod/Delete; an
      // update of the pod itself TargetPod, of another pod AssignedPod or
      // UnscheduledPod, each UpdatePodScaleDown.
      framework::EventResource resource = framework::EventResource::AssignedPod();
      framework::ActionType action = framework::kActionDelete;
      if (tc.new_obj) {
        action = framework::kActionUpdatePodScaleDown;
        if (!tc.pod.metadata().uid().empty() && tc.new_obj->metadata().uid() == tc.pod.metadata().uid()) {
          resource = framework::EventResource::TargetPod();
        } else if (tc.new_obj->spec().node_name().empty()) {
          resource = framework::EventResource::UnscheduledPod();
        }
      }
      auto got = Hint(*p, resource, action, tc.pod, e);
      REQUIRE(got.ok());
      CHECK(*got == tc.want);
    }
  }
  SECTION("no pod in the event is an error (upstream: backoff-wrong-*-object)") {
    testing::FakeHandle h;
    auto p = MustNewFit(h);
    CHECK(!Hint(*p, framework::EventResource::AssignedPod(), framework::kActionDelete, MakePod().Obj(), {}).ok());
  }
}

TEST_CASE("Test_isSchedulableAfterNodeChange", "[noderesources][fit]") {
  using framework::QueueingHint;
  auto node = [](testing::ResourceMap r) { return MakeNode().Capacity(WithPods(std::move(r))).Obj(); };
  const auto& A = kExtendedResourceA;
  const auto& B = kExtendedResourceB;
  struct Case {
    std::string name;
    api::v1::Pod pod;
    std::optional<api::v1::Node> old_obj, new_obj;
    QueueingHint want;
  };
  const api::v1::Pod pod_mem2_a1 = NewResourcePod({Res{0, 2, 0, 0, {{A, 1}}}});
  std::vector<Case> cases = {
      {"skip-queue-on-node-add-without-sufficient-resources", NewResourcePod({Res{0, 2}}), std::nullopt,
       node({{"memory", "1"}}), QueueingHint::kSkip},
      {"skip-queue-on-node-add-without-required-resource-type", NewResourcePod({Res{0, 0, 0, 0, {{A, 1}}}}),
       std::nullopt, node({{B, "1"}}), QueueingHint::kSkip},
      {"queue-on-node-add-with-sufficient-resources", pod_mem2_a1, std::nullopt,
       node({{"memory", "4"}, {A, "2"}}), QueueingHint::kQueue},
      {"skip-queue-on-node-unrelated-changes", pod_mem2_a1, node({{"memory", "2"}, {A, "2"}}),
       node({{"memory", "2"}, {A, "1"}, {B, "2"}}), QueueingHint::kSkip},
      {"queue-on-pod-requested-resources-increase", pod_mem2_a1, node({{"memory", "2"}, {A, "1"}}),
       node({{"memory", "2"}, {A, "2"}}), QueueingHint::kQueue},
      {"skip-queue-on-node-changes-from-suitable-to-unsuitable", pod_mem2_a1,
       node({{"memory", "4"}, {A, "2"}}), node({{"memory", "1"}, {A, "2"}}), QueueingHint::kSkip},
      {"queue-on-node-changes-from-unsuitable-to-suitable", pod_mem2_a1, node({{"memory", "1"}, {A, "2"}}),
       node({{"memory", "4"}, {A, "2"}}), QueueingHint::kQueue},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("Test_isSchedulableAfterNodeChange/" << tc.name) {
      testing::FakeHandle h;
      auto p = MustNewFit(h);
      framework::EventObjects e;
      if (tc.old_obj) e.SetOld(&*tc.old_obj);
      if (tc.new_obj) e.SetNew(&*tc.new_obj);
      auto got = Hint(*p, framework::EventResource::Node(), framework::kActionAdd, tc.pod, e);
      REQUIRE(got.ok());
      CHECK(*got == tc.want);
    }
  }
  SECTION("no new node in the event is an error (upstream: backoff-wrong-*-object)") {
    testing::FakeHandle h;
    auto p = MustNewFit(h);
    api::v1::Node old_node = MakeNode().Obj();
    framework::EventObjects e;
    e.SetOld(&old_node);
    CHECK(!Hint(*p, framework::EventResource::Node(), framework::kActionAdd, MakePod().Obj(), e).ok());
  }
}

TEST_CASE("TestIsFit", "[noderesources][fit]") {
  auto node = [](testing::ResourceMap r) { return MakeNode().Capacity(WithPods(std::move(r))).Obj(); };
  const auto& H = kHugePageResourceA;
  struct Case {
    std::string name;
    api::v1::Pod pod;
    std::optional<api::v1::Node> node;
    bool expected;
  };
  std::vector<Case> cases = {
      {"nil node", MakePod().Obj(), std::nullopt, false},
      {"insufficient resource", MakePod().Req({{"cpu", "2"}}).Obj(), node({{"cpu", "1"}}), false},
      {"sufficient resource", MakePod().Req({{"cpu", "1"}}).Obj(), node({{"cpu", "2"}}), true},
      {"insufficient pod-level resource", MakePod().PodLevelReq({{"cpu", "2"}}).Obj(), node({{"cpu", "1"}}),
       false},
      {"sufficient pod-level resource", MakePod().PodLevelReq({{"cpu", "2"}}).Obj(), node({{"cpu", "2"}}),
       true},
      {"sufficient pod-level resource hugepages", MakePod().PodLevelReq({{H, "2Mi"}}).Obj(),
       node({{H, "2Mi"}}), true},
      {"insufficient pod-level resource hugepages", MakePod().PodLevelReq({{H, "4Mi"}}).Obj(),
       node({{H, "2Mi"}}), false},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestIsFit/" << tc.name) {
      auto info = framework::PodInfo::Create(tc.pod);
      REQUIRE(info.ok());
      auto got = IsFit(**info, tc.node ? &*tc.node : nullptr);
      REQUIRE(got.ok());
      CHECK(*got == tc.expected);
    }
  }
}

TEST_CASE("TestHaveAnyRequestedResourcesIncreased", "[noderesources][fit]") {
  auto node = [](testing::ResourceMap r) { return MakeNode().Capacity(WithPods(std::move(r))).Obj(); };
  const auto& A = kExtendedResourceA;
  struct Case {
    std::string name;
    api::v1::Pod pod;
    api::v1::Node original, modified;
    bool expected;
  };
  const api::v1::Pod pod_all = NewResourcePod({Res{2, 2, 2, 0, {{A, 2}}}});
  std::vector<Case> cases = {
      {"no-requested-resources", NewResourcePod({Res{}}),
       node({{"pods", "1"}, {"cpu", "1"}, {"memory", "1"}, {"ephemeral-storage", "1"}, {A, "1"}}),
       node({{"pods", "1"}, {"cpu", "2"}, {"memory", "2"}, {"ephemeral-storage", "2"}, {A, "2"}}), false},
      {"no-requested-resources-pods-increased", NewResourcePod({Res{}}),
       node({{"pods", "1"}, {"cpu", "1"}, {"memory", "1"}, {"ephemeral-storage", "1"}, {A, "1"}}),
       node({{"pods", "2"}, {"cpu", "1"}, {"memory", "1"}, {"ephemeral-storage", "1"}, {A, "1"}}), true},
      // Upstream runs this one with DRAExtendedResource on; the resource is
      // on the node, so the gate does not matter.
      {"requested-resources-dra-in-node", pod_all,
       node({{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "3"}, {A, "4"}}),
       node({{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "1"}, {A, "1"}}), false},
      {"scalar-resources-not-in-node", pod_all,
       node({{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "3"}}),
       node({{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "1"}}), false},
      {"requested-resources-decreased", pod_all,
       node({{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "3"}, {A, "4"}}),
       node({{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "1"}, {A, "1"}}), false},
      {"requested-resources-increased", pod_all,
       node({{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "3"}, {A, "4"}}),
       node({{"cpu", "3"}, {"memory", "4"}, {"ephemeral-storage", "3"}, {A, "4"}}), true},
      {"non-requested-resources-decreased", NewResourcePod({Res{2, 2}}),
       node({{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "3"}, {A, "4"}}),
       node({{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "1"}, {A, "1"}}), false},
      {"non-requested-resources-increased", NewResourcePod({Res{2, 2}}),
       node({{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "3"}, {A, "4"}}),
       node({{"cpu", "1"}, {"memory", "2"}, {"ephemeral-storage", "5"}, {A, "6"}}), false},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestHaveAnyRequestedResourcesIncreased/" << tc.name) {
      auto info = framework::PodInfo::Create(tc.pod);
      REQUIRE(info.ok());
      auto got = HaveAnyRequestedResourcesIncreased(**info, tc.original, tc.modified);
      REQUIRE(got.ok());
      CHECK(*got == tc.expected);
    }
  }
}

// Not upstream: the exported Fits, used by isFit, with and without room.
TEST_CASE("Fits reports every insufficient resource in upstream order", "[noderesources][fit]") {
  framework::NodeInfo node = MakeNode()
                                 .Name("n")
                                 .Capacity({{"cpu", "1"},
                                            {"memory", "1Ki"},
                                            {"pods", "1"},
                                            {"ephemeral-storage", "1"},
                                            {"example.com/b", "1"},
                                            {"example.com/a", "1"}})
                                 .Info({MakePod().Name("x").Req({{"cpu", "500m"}}).Obj()});
  auto pod = MakePod()
                 .Req({{"cpu", "2"},
                       {"memory", "1"},
                       {"ephemeral-storage", "2"},
                       {"example.com/b", "2"},
                       {"example.com/a", "1"}})
                 .Info();
  CHECK(Describe(Fits(*pod, node)) == Describe({{"pods", "Too many pods", 1, 1, 1, false},
                                                IR("cpu", 2000, 500, 1000, true),
                                                IR("ephemeral-storage", 2, 0, 1, true),
                                                IR("example.com/b", 2, 0, 1, true)}));
  testing::FakeHandle h;
  auto p = MustNewFit(h);
  Status st = RunFilter(*p, pod->pod(), node);
  CHECK(st.ToString() == Status::WithReasons(Code::kUnschedulableAndUnresolvable,
                                             {"Too many pods", "Insufficient cpu",
                                              "Insufficient ephemeral-storage", "Insufficient example.com/b"})
                             .ToString());
}

}  // namespace
}  // namespace schedkit::plugins::noderesources

namespace schedkit::plugins::noderesources {
namespace {

// Not upstream: the cycle state survives CycleState::Clone (nominated pods,
// preemption dry runs) and the clone is independent of the original.
TEST_CASE("Fit state is cloned with the cycle state", "[noderesources][fit]") {
  testing::FakeHandle h;
  h.SetCluster({MakeNode().Name("n").Capacity({{"cpu", "1"}, {"memory", "1Gi"}, {"pods", "10"}}).Obj()}, {});
  auto p = MustNewFit(h);
  auto pod = MakePod().Req({{"cpu", "2"}, {"memory", "1Mi"}}).Info();
  framework::CycleState state;
  REQUIRE(dynamic_cast<framework::PreFilterPlugin&>(*p)
              .PreFilter(state, *pod, h.snapshot().nodes())
              .status.IsSuccess());
  REQUIRE(
      dynamic_cast<framework::PreScorePlugin&>(*p).PreScore(state, *pod, h.snapshot().nodes()).IsSuccess());
  std::unique_ptr<framework::CycleState> clone = state.Clone();
  state.Delete(Symbol::Intern("PreFilterNodeResourcesFit"));
  state.Delete(Symbol::Intern("PreScoreNodeResourcesFit"));
  const framework::NodeInfo& node = *h.snapshot().Get("n");
  CHECK(dynamic_cast<framework::FilterPlugin&>(*p).Filter(*clone, *pod, node).ToString() ==
        Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"Insufficient cpu"}).ToString());
  int64_t score = -1;
  CHECK(dynamic_cast<framework::ScorePlugin&>(*p).Score(*clone, *pod, node, score).IsSuccess());
  // cpu: 2000 > 1000 → 0; memory: (1Gi - 1Mi) * 100 / 1Gi = 99.
  CHECK(score == 49);
}

// Not an upstream table: v1.37.2's Fit scorer is built without the
// pod-level option, so an incoming pod with pod-level memory is scored by
// its containers, each missing request counting upstream's default (the
// conformance oracle agrees).
TEST_CASE("Fit scores a pod with pod-level requests by its containers", "[noderesources][fit]") {
  testing::FakeHandle h;
  h.SetCluster({MakeNode().Name("n").Capacity({{"cpu", "1"}, {"memory", "1000Mi"}, {"pods", "10"}}).Obj()},
               {});
  auto p = MustNewFit(h);
  auto pod =
      MakePod().PodLevelReq({{"memory", "500Mi"}}).Req({{"cpu", "500m"}}).Container("no-requests").Obj();
  // cpu: 500m + 100m default = 600m → (1000 - 600) * 100 / 1000 = 40;
  // memory: 2 × 200Mi defaults, not the pod-level 500Mi → 60.
  CHECK(RunScore(*p, h, pod, {"n"}, true).scores == std::vector<int64_t>{50});
}

}  // namespace
}  // namespace schedkit::plugins::noderesources
