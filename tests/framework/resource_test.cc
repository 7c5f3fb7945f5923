// Pod request arithmetic, as upstream's resource.PodRequests and the
// scheduler's NodeInfo calculateResource compute it (facts from upstream's
// component-helpers resource tests and framework types_test.go).
#include <catch2/catch.hpp>

#include "absl/container/flat_hash_map.h"
#include "schedkit/api/quantity.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/base/symbol.h"
#include "schedkit/framework/resource.h"
#include "schedkit/testing/builders.h"

namespace schedkit::framework {
namespace {

using testing::MakePod;

PodRequests Compute(const api::v1::Pod& pod) {
  auto r = ComputePodRequests(pod);
  REQUIRE(r.ok());
  return *r;
}

TEST_CASE("containers are summed", "[resource]") {
  auto r = Compute(MakePod().Req({{"cpu", "100m"}, {"memory", "1Gi"}}).Req({{"cpu", "0.5"}, {"memory", "512Mi"}}).Obj());
  CHECK(r.requests.milli_cpu == 600);
  CHECK(r.requests.memory == (1LL << 30) + (512LL << 20));
  CHECK(r.non_zero_milli_cpu == 600);
}

TEST_CASE("init containers count as a maximum", "[resource]") {
  // upstream TestPodRequests "init container higher than containers"
  auto r = Compute(MakePod().Req({{"cpu", "1"}}).InitReq({{"cpu", "2"}}).InitReq({{"cpu", "1500m"}}).Obj());
  CHECK(r.requests.milli_cpu == 2000);
}

TEST_CASE("sidecars add to containers and to later init containers", "[resource]") {
  // KEP-753: sidecar 1 + init 2 (runs beside the sidecar) = 3 at init time;
  // at run time sidecar 1 + container 1 = 2; the max is 3.
  auto r = Compute(MakePod().SidecarReq({{"cpu", "1"}}).InitReq({{"cpu", "2"}}).Req({{"cpu", "1"}}).Obj());
  CHECK(r.requests.milli_cpu == 3000);
  // An init container before the sidecar does not see it: max(2, 1+1) = 2.
  auto r2 = Compute(MakePod().InitReq({{"cpu", "2"}}).SidecarReq({{"cpu", "1"}}).Req({{"cpu", "1"}}).Obj());
  CHECK(r2.requests.milli_cpu == 2000);
  // Sidecars only: cumulative sidecars are the init maximum.
  auto r3 = Compute(MakePod().SidecarReq({{"cpu", "1"}}).SidecarReq({{"cpu", "2"}}).Req({{"cpu", "1"}}).Obj());
  CHECK(r3.requests.milli_cpu == 4000);
}

TEST_CASE("overhead is added after the maximum", "[resource]") {
  auto r = Compute(MakePod().Req({{"cpu", "1"}, {"memory", "1Gi"}}).InitReq({{"cpu", "3"}}).Overhead({{"cpu", "250m"}, {"memory", "120Mi"}}).Obj());
  CHECK(r.requests.milli_cpu == 3250);
  CHECK(r.requests.memory == (1LL << 30) + (120LL << 20));
  CHECK(r.non_zero_milli_cpu == 3250);
}

TEST_CASE("non-zero defaults fill missing cpu/memory per container", "[resource]") {
  // upstream GetNonzeroRequests: 100m and 200Mi for a container without them.
  auto r = Compute(MakePod().Container("app").Req({{"cpu", "300m"}}).Obj());
  CHECK(r.requests.milli_cpu == 300);
  CHECK(r.requests.memory == 0);
  CHECK(r.non_zero_milli_cpu == 400);
  CHECK(r.non_zero_memory == 2 * kDefaultMemoryRequest);
  // An explicit zero stays zero.
  auto z = Compute(MakePod().Req({{"cpu", "0"}, {"memory", "0"}}).Obj());
  CHECK(z.non_zero_milli_cpu == 0);
  CHECK(z.non_zero_memory == 0);
  // A pod without containers has no requests at all.
  auto none = Compute(MakePod().Obj());
  CHECK(none.non_zero_milli_cpu == 0);
  CHECK(none.requests.IsZeroRequest());
}

TEST_CASE("pod-level requests replace cpu and memory", "[resource]") {
  auto r = Compute(MakePod().Req({{"cpu", "1"}, {"memory", "1Gi"}, {"example.com/gpu", "1"}}).PodLevelReq({{"cpu", "3"}}).Obj());
  CHECK(r.requests.milli_cpu == 3000);
  CHECK(r.requests.memory == 1LL << 30);
  CHECK(r.requests.GetScalar(Symbol::Intern("example.com/gpu")) == 1);
  // With pod-level requests, defaults fill only what is missing overall.
  auto r2 = Compute(MakePod().Container("app").PodLevelReq({{"cpu", "2"}}).Obj());
  CHECK(r2.non_zero_milli_cpu == 2000);
  CHECK(r2.non_zero_memory == kDefaultMemoryRequest);
}

TEST_CASE("sums are exact before rounding up", "[resource]") {
  // 0.0004 + 0.0004 cpu = 0.8m → 1m; rounding each first would give 2m.
  auto r = Compute(MakePod().Req({{"cpu", "0.0004"}}).Req({{"cpu", "0.0004"}}).Obj());
  CHECK(r.requests.milli_cpu == 1);
}

TEST_CASE("scalar resources: extended, hugepages; unknown native names ignored", "[resource]") {
  auto r = Compute(MakePod().Req({{"nvidia.com/gpu", "2"}, {"hugepages-2Mi", "4Mi"}, {"ephemeral-storage", "1Gi"}, {"foo", "3"}}).Obj());
  CHECK(r.requests.GetScalar(Symbol::Intern("nvidia.com/gpu")) == 2);
  CHECK(r.requests.GetScalar(Symbol::Intern("hugepages-2Mi")) == 4 << 20);
  CHECK(r.requests.ephemeral_storage == 1LL << 30);
  CHECK(r.requests.GetScalar(Symbol::Intern("foo")) == 0);
  CHECK(IsExtendedResourceName("example.com/foo"));
  CHECK_FALSE(IsExtendedResourceName("kubernetes.io/foo"));
  CHECK_FALSE(IsExtendedResourceName("cpu"));
  CHECK(IsScalarResourceName("attachable-volumes-aws-ebs"));
}

// A resize status on the pod built so far: the container (or init
// container) `name` reports these allocated and actuated requests; an empty
// list is left unset.
void SetContainerStatus(api::v1::Pod& pod, bool init, const std::string& name, const testing::ResourceMap& allocated,
                        const testing::ResourceMap& actuated) {
  api::v1::PodStatus* st = pod.mutable_status();
  api::v1::ContainerStatus* cs = init ? st->add_init_container_statuses() : st->add_container_statuses();
  cs->set_name(name);
  for (const auto& [k, v] : allocated) (*cs->mutable_allocated_resources())[k] = v;
  if (!actuated.empty()) {
    for (const auto& [k, v] : actuated) (*cs->mutable_resources()->mutable_requests())[k] = v;
  }
}

void SetResizePending(api::v1::Pod& pod, const std::string& reason) {
  api::v1::PodCondition* c = pod.mutable_status()->add_conditions();
  c->set_type("PodResizePending");
  c->set_status("True");
  c->set_reason(reason);
}

// Upstream's test helper populatePodStatusResourcesForTest: pod-level status
// lists as the sums of the containers' statuses.
void PopulatePodLevelStatus(api::v1::Pod& pod) {
  api::v1::PodStatus* st = pod.mutable_status();
  absl::flat_hash_map<std::string, int64_t> allocated, actuated;  // in millis
  auto add = [](absl::flat_hash_map<std::string, int64_t>& to, const auto& list) {
    for (const auto& [k, v] : list) to[k] += api::Quantity::Parse(v)->MilliValue();
  };
  for (const auto* statuses : {&st->container_statuses(), &st->init_container_statuses()}) {
    for (const auto& cs : *statuses) {
      add(allocated, cs.allocated_resources());
      add(actuated, cs.resources().requests());
    }
  }
  st->mutable_resources();
  for (const auto& [k, v] : allocated) (*st->mutable_allocated_resources())[k] = schedkit::StrCat(v, "m");
  for (const auto& [k, v] : actuated) (*st->mutable_resources()->mutable_requests())[k] = schedkit::StrCat(v, "m");
}

TEST_CASE("resized pods: per-resource maximum of spec, allocated and actuated", "[resource]") {
  // Rows of upstream's component-helpers TestPodResourceRequests (with
  // UseStatusResources, as the scheduler's NodeInfo accounts pods), each run
  // with the pod-level status its test helper fills in from the containers.
  struct Row {
    const char* name;
    bool infeasible;
    testing::ResourceMap spec, allocated, actuated;
    bool sidecar;
    int64_t want_milli_cpu;
  };
  const Row rows[] = {
      {"resized, infeasible", true, {{"cpu", "4"}}, {}, {{"cpu", "2"}}, false, 2000},
      {"resized, infeasible & in-progress", true, {{"cpu", "6"}}, {{"cpu", "4"}}, {{"cpu", "2"}}, false, 4000},
      {"resized, no resize status", false, {{"cpu", "4"}}, {}, {{"cpu", "2"}}, false, 4000},
      {"resized, restartable init container, infeasible", true, {{"cpu", "4"}}, {}, {{"cpu", "2"}}, true, 2000},
      {"resized, restartable init container, no resize status", false, {{"cpu", "4"}}, {}, {{"cpu", "2"}}, true, 4000},
  };
  for (const Row& row : rows) {
    INFO(row.name);
    api::v1::Pod pod = row.sidecar ? MakePod().SidecarReq(row.spec).Obj() : MakePod().Req(row.spec).Obj();
    SetContainerStatus(pod, row.sidecar, row.sidecar ? "sidecar-con0" : "con0", row.allocated, row.actuated);
    if (row.infeasible) SetResizePending(pod, "Infeasible");
    PopulatePodLevelStatus(pod);
    PodRequests r = Compute(pod);
    CHECK(r.requests.milli_cpu == row.want_milli_cpu);
    // NodeResourcesFit's PreFilter reads the spec alone.
    CHECK(r.spec_requests.milli_cpu == Compute(row.sidecar ? MakePod().SidecarReq(row.spec).Obj()
                                                           : MakePod().Req(row.spec).Obj())
                                           .requests.milli_cpu);
  }
}

TEST_CASE("resized: the maximum is per resource, over sums", "[resource]") {
  // upstream TestPodResourceRequests "resized: per-resource 3-way maximum"
  api::v1::Pod pod = MakePod().Req({{"cpu", "30m"}, {"memory", "20M"}, {"ephemeral-storage", "10G"}}).Obj();
  SetContainerStatus(pod, false, "con0", {{"cpu", "20m"}, {"memory", "10M"}, {"ephemeral-storage", "30G"}},
                     {{"cpu", "10m"}, {"memory", "30M"}, {"ephemeral-storage", "20G"}});
  PopulatePodLevelStatus(pod);
  PodRequests r = Compute(pod);
  CHECK(r.requests.milli_cpu == 30);
  CHECK(r.requests.memory == 30'000'000);
  CHECK(r.requests.ephemeral_storage == 30'000'000'000);

  // upstream "aggregate request resolves max of sums instead of sum of
  // maxes": spec 1+2, allocated 2+1 → 3, not 2+2.
  api::v1::Pod two = MakePod().Req({{"cpu", "1"}}).Req({{"cpu", "2"}}).Obj();
  SetContainerStatus(two, false, "con0", {{"cpu", "2"}}, {});
  SetContainerStatus(two, false, "con1", {{"cpu", "1"}}, {});
  PopulatePodLevelStatus(two);
  CHECK(Compute(two).requests.milli_cpu == 3000);
}

TEST_CASE("resized: pod-level status stands for the containers' only when both lists are set", "[resource]") {
  // upstream TestAggregateContainerRequestsAndLimits, the three
  // "PLR vertical scaling enabled" rows.
  api::v1::Pod pod = MakePod().Req({{"cpu", "1"}}).Obj();
  (*pod.mutable_status()->mutable_allocated_resources())["cpu"] = "4";
  (*pod.mutable_status()->mutable_resources()->mutable_requests())["cpu"] = "3";
  CHECK(Compute(pod).requests.milli_cpu == 4000);

  api::v1::Pod no_allocated = MakePod().Req({{"cpu", "1"}}).Obj();
  SetContainerStatus(no_allocated, false, "con0", {{"cpu", "6"}}, {{"cpu", "5"}});
  (*no_allocated.mutable_status()->mutable_resources()->mutable_requests())["cpu"] = "3";
  CHECK(Compute(no_allocated).requests.milli_cpu == 6000);

  api::v1::Pod no_resources = MakePod().Req({{"cpu", "1"}}).Obj();
  SetContainerStatus(no_resources, false, "con0", {{"cpu", "6"}}, {{"cpu", "5"}});
  (*no_resources.mutable_status()->mutable_allocated_resources())["cpu"] = "6";
  CHECK(Compute(no_resources).requests.milli_cpu == 6000);
}

TEST_CASE("resized: pod-level requests take the largest of spec and status", "[resource]") {
  // upstream TestPodRequestsAndLimitsVerticalScalingWrappers, pod-level rows.
  api::v1::Pod pod = MakePod().Req({{"cpu", "1"}}).PodLevelReq({{"cpu", "2"}}).Obj();
  (*pod.mutable_status()->mutable_allocated_resources())["cpu"] = "3";
  (*pod.mutable_status()->mutable_resources()->mutable_requests())["cpu"] = "3.5";
  PodRequests r = Compute(pod);
  CHECK(r.requests.milli_cpu == 3500);
  CHECK(r.spec_requests.milli_cpu == 2000);

  // Infeasible: the spec's 10 does not count.
  api::v1::Pod infeasible = MakePod().Req({{"cpu", "1"}}).PodLevelReq({{"cpu", "10"}}).Obj();
  SetResizePending(infeasible, "Infeasible");
  (*infeasible.mutable_status()->mutable_allocated_resources())["cpu"] = "3";
  (*infeasible.mutable_status()->mutable_resources()->mutable_requests())["cpu"] = "4";
  CHECK(Compute(infeasible).requests.milli_cpu == 4000);

  // Deferred changes nothing: the spec still counts.
  api::v1::Pod deferred = MakePod().Req({{"cpu", "1"}}).PodLevelReq({{"cpu", "10"}}).Obj();
  SetResizePending(deferred, "Deferred");
  (*deferred.mutable_status()->mutable_allocated_resources())["cpu"] = "3";
  CHECK(Compute(deferred).requests.milli_cpu == 10000);
}

TEST_CASE("resized: the non-zero view fills defaults into status lists too", "[resource]") {
  // A container with a cpu-only actuated list: its memory counts 200Mi in
  // the non-zero view, from every list alike (applyNonMissing).
  api::v1::Pod pod = MakePod().Req({{"cpu", "100m"}}).Obj();
  SetContainerStatus(pod, false, "con0", {}, {{"cpu", "300m"}});
  PodRequests r = Compute(pod);
  CHECK(r.requests.milli_cpu == 300);
  CHECK(r.non_zero_milli_cpu == 300);
  CHECK(r.non_zero_memory == kDefaultMemoryRequest);
}

TEST_CASE("bad quantities in a resize status are errors", "[resource]") {
  api::v1::Pod pod = MakePod().Req({{"cpu", "1"}}).Obj();
  SetContainerStatus(pod, false, "con0", {{"cpu", "x1"}}, {});
  auto r = ComputePodRequests(pod);
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(std::string(r.status().message()), Catch::Contains("x1"));
}

TEST_CASE("bad quantities in requests are errors", "[resource]") {
  auto r = ComputePodRequests(MakePod().Req({{"cpu", "1.5.5"}}).Obj());
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(std::string(r.status().message()), Catch::Contains("1.5.5"));
}

}  // namespace
}  // namespace schedkit::framework
