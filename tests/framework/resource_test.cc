// Pod request arithmetic, as upstream's resource.PodRequests and the
// scheduler's NodeInfo calculateResource compute it (facts from upstream's
// component-helpers resource tests and framework types_test.go).
#include <catch2/catch.hpp>

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

TEST_CASE("bad quantities in requests are errors", "[resource]") {
  auto r = ComputePodRequests(MakePod().Req({{"cpu", "1.5.5"}}).Obj());
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(std::string(r.status().message()), Catch::Contains("1.5.5"));
}

}  // namespace
}  // namespace schedkit::framework
