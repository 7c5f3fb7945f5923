// The shared resource-allocation scorer: upstream v1.35.8
// resource_allocation_test.go, ported as facts where they do not need DRA.
#include "plugins/noderesources/resource_allocation.h"

#include <catch2/catch.hpp>
#include <limits>
#include <string>
#include <vector>

#include "plugins/noderesources/test_util.h"
#include "schedkit/framework/resource.h"
#include "schedkit/testing/builders.h"

namespace schedkit::plugins::noderesources {
namespace {

using testing::MakeNode;
using testing::MakePod;
using namespace testutil;  // NOLINT: the upstream helpers, by their upstream names

constexpr int64_t kOneMi = 1048576;
constexpr int64_t kDefaultMilliCpu = framework::kDefaultMilliCpuRequest;
constexpr int64_t kDefaultMemory = framework::kDefaultMemoryRequest;

// A container with these requests (none when empty), as upstream's literal v1.Container.
api::v1::Pod AddContainer(api::v1::Pod pod, const testing::ResourceMap& requests, bool init = false) {
  auto* c = init ? pod.mutable_spec()->add_init_containers() : pod.mutable_spec()->add_containers();
  for (const auto& [k, v] : requests) (*c->mutable_resources()->mutable_requests())[k] = v;
  return pod;
}

struct CpuMemory {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
};

// Fit's scoring view of the pod's cpu and memory.
CpuMemory ScoringRequests(const api::v1::Pod& pod) {
  auto info = framework::PodInfo::Create(pod);
  REQUIRE(info.ok());
  ScoredResources rs = CompileResources({{"cpu", 1}, {"memory", 1}});
  FillPodRequests(**info, /*use_requested=*/false, rs);
  return {rs[0].pod_request, rs[1].pod_request};
}

TEST_CASE("Quotient equals integer division, including where double rounding would go wrong",
          "[noderesources][scorer]") {
  constexpr int64_t kTop = (int64_t{1} << 53) - 1;  // the largest value computed in double
  struct Case {
    int64_t a, b;
  };
  std::vector<Case> cases = {
      {0, 1}, {99, 100}, {100, 100}, {101, 100}, {3400, 3},
      // Quotients a hair below an integer: one rounding step from the next.
      {kTop, kTop}, {kTop - 1, kTop}, {kTop, 3}, {kTop - 1, 2}, {kTop, kTop - 1}, {kTop, (int64_t{1} << 52) + 1},
      // 32Gi of memory times 100, and more than the node has.
      {int64_t{34359738368} * 100, int64_t{34359738368}}, {int64_t{34359738367} * 100, int64_t{34359738368}},
      // Outside the double range: plain integer division.
      {kTop + 1, 7}, {INT64_MAX, 3}, {INT64_MAX, INT64_MAX - 1}, {-7, 2}, {7, -2}, {-101, 100}, {INT64_MIN + 1, 1000},
      // Powers of two, shifted: in and out of the double range, negative dividends excluded.
      {201, 2}, {199, 2}, {INT64_MAX, 2}, {INT64_MAX, int64_t{1} << 62}, {kTop, int64_t{1} << 35}, {-201, 2},
      {-1, 1}, {INT64_MIN, 1}, {5, 1},
  };
  // Near-integer quotients by construction: q * b - 1 for many b.
  for (int64_t b = 2; b < (int64_t{1} << 40); b = b * 3 + 1) {
    for (int64_t q : {int64_t{1}, int64_t{100}, int64_t{4096}}) {
      if (q * b - 1 <= kTop) cases.push_back({q * b - 1, b});
    }
    cases.push_back({kTop - (kTop % b) - 1, b});
  }
  for (const Case& c : cases) {
    INFO(c.a << " / " << c.b);
    CHECK(Quotient(c.a, c.b) == c.a / c.b);
  }
}

TEST_CASE("TestResourceAllocationScorerCalculateRequests", "[noderesources][scorer]") {
  const testing::ResourceMap one = {{"cpu", "1"}, {"memory", "1Mi"}};
  const api::v1::Pod empty = MakePod().Obj();
  struct Case {
    std::string name;
    api::v1::Pod pod;
    int64_t cpu;
    int64_t memory;
  };
  std::vector<Case> cases = {
      {"overhead only", NewResourceOverheadPod(empty, one), 1000, kOneMi},
      {"1x requestless container", AddContainer(empty, {}), kDefaultMilliCpu, kDefaultMemory},
      {"2x requestless container", AddContainer(AddContainer(empty, {}), {}), 2 * kDefaultMilliCpu,
       2 * kDefaultMemory},
      {"request container + requestless container", AddContainer(AddContainer(empty, one), {}),
       1000 + kDefaultMilliCpu, kOneMi + kDefaultMemory},
      {"container + requestless container + overhead",
       NewResourceOverheadPod(AddContainer(AddContainer(empty, one), {}), one), 2000 + kDefaultMilliCpu,
       2 * kOneMi + kDefaultMemory},
      {"init container + container + requestless container + overhead",
       NewResourceOverheadPod(AddContainer(AddContainer(AddContainer(empty, {{"cpu", "3"}}, true), one), {}),
                              one),
       4000, 2 * kOneMi + kDefaultMemory},
      {"requestless init container + small init container + small container ",
       AddContainer(AddContainer(AddContainer(empty, {}, true), {{"cpu", "1m"}, {"memory", "1"}}, true),
                    {{"cpu", "3m"}, {"memory", "3"}}),
       kDefaultMilliCpu, kDefaultMemory},
      {"requestless init container + small init container + small container + requestless container ",
       AddContainer(
           AddContainer(AddContainer(AddContainer(empty, {}, true), {{"cpu", "1m"}, {"memory", "1"}}, true),
                        {{"cpu", "3m"}, {"memory", "3"}}),
           {}),
       3 + kDefaultMilliCpu, 3 + kDefaultMemory},
  };
  for (const Case& tc : cases) {
    DYNAMIC_SECTION("TestResourceAllocationScorerCalculateRequests/" << tc.name) {
      CpuMemory got = ScoringRequests(tc.pod);
      CHECK(got.milli_cpu == tc.cpu);
      CHECK(got.memory == tc.memory);
    }
  }
}

// Not an upstream table: v1.37.2's NewFit builds its scorer without the
// pod-level and status options (BalancedAllocation's has them), so Fit
// scores a pod by its containers' spec, with 100m / 200Mi for every
// container missing a request, whatever its pod-level requests or resize
// status. The conformance oracle shows the same.
TEST_CASE("Fit's scoring view reads the containers' spec only", "[noderesources][scorer]") {
  api::v1::Pod pod = MakePod()
                         .PodLevelReq({{"memory", "1Gi"}})
                         .Req({{"cpu", "500m"}})
                         .Container("sidecar-less")
                         .Overhead({{"cpu", "10m"}})
                         .Obj();
  auto info = framework::PodInfo::Create(pod);
  REQUIRE(info.ok());
  // NodeInfo view: cpu is requested somewhere, so no defaults: 500m + 10m overhead.
  CHECK((*info)->non_zero_milli_cpu() == 510);
  CHECK((*info)->non_zero_memory() == 1LL << 30);
  // Fit's view: the second container gets 100m, both get 200Mi.
  CpuMemory got = ScoringRequests(pod);
  CHECK(got.milli_cpu == 610);
  CHECK(got.memory == 2 * kDefaultMemory);

  // Pod-level cpu and memory: Fit still reads the containers.
  api::v1::Pod both = MakePod().PodLevelReq({{"cpu", "2"}, {"memory", "1Gi"}}).Container("a").Obj();
  CpuMemory got_both = ScoringRequests(both);
  CHECK(got_both.milli_cpu == kDefaultMilliCpu);
  CHECK(got_both.memory == kDefaultMemory);
  // BalancedAllocation's view (use_requested) is what NodeInfo accounts.
  auto both_info = framework::PodInfo::Create(both);
  REQUIRE(both_info.ok());
  ScoredResources rs = CompileResources({{"cpu", 1}, {"memory", 1}});
  FillPodRequests(**both_info, /*use_requested=*/true, rs);
  CHECK(rs[0].pod_request == 2000);
  CHECK(rs[1].pod_request == 1LL << 30);

  // A resize status does not count either.
  api::v1::Pod resized = MakePod().Req({{"cpu", "1"}, {"memory", "1Gi"}}).Obj();
  auto* cs = resized.mutable_status()->add_container_statuses();
  cs->set_name("con0");
  (*cs->mutable_allocated_resources())["cpu"] = "3";
  CpuMemory got_resized = ScoringRequests(resized);
  CHECK(got_resized.milli_cpu == 1000);
  auto resized_info = framework::PodInfo::Create(resized);
  REQUIRE(resized_info.ok());
  CHECK((*resized_info)->requests().milli_cpu == 3000);
}

TEST_CASE("TestCalculateResourceAllocatableRequest", "[noderesources][scorer]") {
  // The device-plugin cases; the DRA-backed ones are in dra_scoring_test.cc.
  for (const char* name :
       {"device-plugin-resource-feature-disabled", "device-plugin-resource-feature-enabled"}) {
    DYNAMIC_SECTION("TestCalculateResourceAllocatableRequest/" << name) {
      framework::NodeInfo node =
          MakeNode().Name("resource-node").Capacity(WithPods({{kExtendedResourceDRA, "4"}})).Info();
      ScoredResources rs = CompileResources({{kExtendedResourceDRA, 1}});
      rs[0].pod_request = 1;
      int64_t allocatable = 0;
      int64_t requested = 0;
      REQUIRE(AllocatableAndRequested(node, rs[0], /*use_requested=*/false, allocatable, requested));
      CHECK(allocatable == 4);
      CHECK(requested == 1);
    }
  }
}

// Not upstream: resources the node cannot have are skipped, extended
// resources only when the pod requests them; scoring reads non-zero or
// plain requested values per `use_requested`.
TEST_CASE("AllocatableAndRequested classifies resources as upstream", "[noderesources][scorer]") {
  framework::NodeInfo node = MakeNode()
                                 .Name("n")
                                 .Capacity({{"cpu", "4"},
                                            {"memory", "4Gi"},
                                            {"pods", "10"},
                                            {"ephemeral-storage", "10Gi"},
                                            {"example.com/gpu", "2"}})
                                 .Info({MakePod().Name("a").Container("x").Obj()});
  ScoredResources rs = CompileResources({{"cpu", 1},
                                         {"memory", 1},
                                         {"ephemeral-storage", 1},
                                         {"example.com/gpu", 1},
                                         {"pods", 1},
                                         {"storage", 1}});
  CHECK(rs[0].kind == ResourceKind::kCpu);
  CHECK(rs[1].kind == ResourceKind::kMemory);
  CHECK(rs[2].kind == ResourceKind::kEphemeralStorage);
  CHECK(rs[3].kind == ResourceKind::kScalar);
  CHECK(rs[4].kind == ResourceKind::kNone);
  CHECK(rs[5].kind == ResourceKind::kNone);
  int64_t alloc = 0, req = 0;
  REQUIRE(AllocatableAndRequested(node, rs[0], false, alloc, req));
  CHECK(alloc == 4000);
  CHECK(req == kDefaultMilliCpu);
  REQUIRE(AllocatableAndRequested(node, rs[0], true, alloc, req));
  CHECK(req == 0);
  REQUIRE(AllocatableAndRequested(node, rs[1], false, alloc, req));
  CHECK(req == kDefaultMemory);
  CHECK(!AllocatableAndRequested(node, rs[3], false, alloc, req));  // not requested by the pod
  rs[3].pod_request = 1;
  REQUIRE(AllocatableAndRequested(node, rs[3], false, alloc, req));
  CHECK(alloc == 2);
  CHECK(req == 1);
  CHECK(!AllocatableAndRequested(node, rs[4], false, alloc, req));
  CHECK(!AllocatableAndRequested(node, rs[5], false, alloc, req));
}

// Not upstream: the cpu-and-memory scorers the plugins take for the default
// resources must equal the general ones bit for bit, over nodes with zero,
// partial, full and over-committed capacity and over weights other than 1.
TEST_CASE("cpu-and-memory scorers equal the general scorers", "[noderesources][scorer]") {
  // The last of each exceeds the run scorer's straight-line range.
  const std::vector<std::string> cpus = {"0", "1m", "3", "4", "7777m", "64", "200000000000"};
  // 2^46 is the run scorer's largest straight-line capacity.
  const std::vector<std::string> memories = {"0", "1", "1Gi", "32Gi", "123456789", "70368744177664", "70368744177665",
                                             "1Ei"};
  const std::vector<std::vector<testing::ResourceMap>> pod_sets = {
      {},
      {{{"cpu", "100m"}, {"memory", "500Mi"}}},
      {{{"cpu", "3500m"}}, {{"memory", "31Gi"}}},
      {{{"cpu", "9"}, {"memory", "40Gi"}}, {{"cpu", "1m"}, {"memory", "1"}}},
  };
  const std::vector<std::pair<int64_t, int64_t>> weights = {{1, 1}, {3, 1}, {1, 5}, {2, 7}, {int64_t{1} << 40, 1}};
  // The last wraps the node's requested amounts past 2^63, as Go's int64 would.
  const std::vector<std::pair<int64_t, int64_t>> pod_requests = {
      {0, 0}, {100, 524288000}, {5000, 1}, {1, 1LL << 40},
      {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::max()}};
  int checked = 0;
  for (const std::string& cpu : cpus) {
    for (const std::string& memory : memories) {
      for (size_t p = 0; p < pod_sets.size(); ++p) {
        std::vector<api::v1::Pod> pods;
        for (size_t k = 0; k < pod_sets[p].size(); ++k) {
          pods.push_back(MakePod().Name(schedkit::StrCat("p", k)).Req(pod_sets[p][k]).Obj());
        }
        framework::NodeInfo node =
            MakeNode().Name("n").Capacity({{"cpu", cpu}, {"memory", memory}, {"pods", "110"}}).Info(pods);
        for (const auto& [cpu_weight, memory_weight] : weights) {
          for (const auto& [cpu_request, memory_request] : pod_requests) {
            ScoredResources rs = CompileResources({{"cpu", cpu_weight}, {"memory", memory_weight}});
            REQUIRE(IsCpuThenMemory(rs));
            rs[0].pod_request = cpu_request;
            rs[1].pod_request = memory_request;
            INFO("cpu " << cpu << " memory " << memory << " pods " << p << " weights " << cpu_weight << "/"
                        << memory_weight << " request " << cpu_request << "/" << memory_request);
            CHECK(LeastAllocatedCpuMemory(node, rs[0], rs[1]) == LeastAllocatedScore(node, rs, false));
            const framework::NodeInfo* run[] = {&node, &node};
            int64_t run_scores[2] = {-1, -1};
            LeastAllocatedCpuMemoryRun(run, rs[0], rs[1], run_scores);
            CHECK(run_scores[0] == LeastAllocatedScore(node, rs, false));
            CHECK(run_scores[1] == run_scores[0]);
            CHECK(BalancedAllocationCpuMemory(node, rs[0], rs[1]) == BalancedAllocationScore(node, rs, true));
            ++checked;
          }
        }
      }
    }
  }
  CHECK(checked == 7 * 8 * 4 * 5 * 5);
  CHECK(!IsCpuThenMemory(CompileResources({{"memory", 1}, {"cpu", 1}})));
  CHECK(!IsCpuThenMemory(CompileResources({{"cpu", 1}, {"memory", 1}, {"ephemeral-storage", 1}})));
}

}  // namespace
}  // namespace schedkit::plugins::noderesources
