// Internal: the resource-allocation scoring shared by NodeResourcesFit's
// strategies (LeastAllocated, MostAllocated, RequestedToCapacityRatio) and
// NodeResourcesBalancedAllocation — upstream's resourceAllocationScorer.
//
//   ScoredResources rs = CompileResources(args.resources);               // once, at construction
//   FillPodRequests(pod, /*use_requested=*/false, rs);                  // once per pod (PreScore)
//   int64_t score = LeastAllocatedScore(node, rs, false);               // per node (Score)
//
// Per node nothing allocates, parses or compares strings: resources are
// classified once into cpu / memory / ephemeral-storage / scalar (interned
// name) and the pod's requests are computed once per pod. Arithmetic is
// upstream's: int64 with truncating division, float64 where upstream uses it,
// wrapping like Go on overflow.
//
// `use_requested` selects what a node's used cpu and memory are: false (Fit)
// reads NodeInfo's non-zero requested (100m / 200Mi per container without a
// request) and the pod's non-zero request; true (BalancedAllocation) reads
// the plain requested values. Ephemeral storage and scalars always use
// plain requests. Thread-safe: pure functions over immutable inputs.
#ifndef SCHEDKIT_LIB_PLUGINS_NODERESOURCES_RESOURCE_ALLOCATION_H_
#define SCHEDKIT_LIB_PLUGINS_NODERESOURCES_RESOURCE_ALLOCATION_H_

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "plugins/internal/broken_linear.h"
#include "plugins/noderesources/args.h"
#include "schedkit/base/symbol.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/status.h"

namespace schedkit::plugins::noderesources {

// Go's int64 arithmetic wraps on overflow; C++'s is undefined. These keep
// upstream's results on absurd quantities and keep sanitizers quiet.
inline int64_t WrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t WrapSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
inline int64_t WrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

// a / b truncated toward zero, as Go's int64 division. With both in
// [0, 2^53) it is computed in double, which is exact there: a quotient that
// is not an integer lies at least 1/b below the next integer, more than the
// division's rounding error (below a / b * 2^-53 = a / (b * 2^53) < 1/b), so
// truncating the rounded result gives the integer quotient. A 64-bit integer
// divide takes several times longer, and scoring does three per node. A
// power of two (the default weights' sum, memory sizes in Gi) is a shift.
inline int64_t Quotient(int64_t a, int64_t b) {
  constexpr int64_t kExact = int64_t{1} << 53;
  if (a >= 0 && b > 0 && (b & (b - 1)) == 0) return a >> std::countr_zero(static_cast<uint64_t>(b));
  if (a >= 0 && a < kExact && b > 0 && b < kExact) {
    return static_cast<int64_t>(static_cast<double>(a) / static_cast<double>(b));
  }
  return a / b;
}

enum class ResourceKind : uint8_t {
  kCpu,
  kMemory,
  kEphemeralStorage,
  // Extended resources, hugepages-*, attachable-volumes-*, *kubernetes.io/*.
  kScalar,
  // Any other name ("pods", "storage", ...): upstream finds no allocatable
  // for it, so it never contributes to a score.
  kNone,
};

// A node's devices of the DeviceClass backing an extended resource, and how
// many of them are allocated (dra_scoring.h).
struct DraDeviceCount {
  int64_t capacity = 0;
  int64_t allocated = 0;
};
using DraCountsByNode = absl::flat_hash_map<Symbol, DraDeviceCount>;

// One configured resource, with the incoming pod's request for it.
struct ScoredResource {
  ResourceKind kind = ResourceKind::kNone;
  Symbol name;  // interned resource name
  int64_t weight = 1;
  int64_t pod_request = 0;  // milli-cpu, bytes or count
  // An extended resource backed by DRA: its devices per node, read where
  // the node's allocatable lacks it. Null otherwise (set per pod, PreScore).
  const DraCountsByNode* dra_counts = nullptr;
};

using ScoredResources = absl::InlinedVector<ScoredResource, 4>;

// What PreScore keeps for Score: the scored resources with the pod's
// requests filled in. Fit and BalancedAllocation each keep one, under their
// own keys.
class ScoredResourcesState final : public framework::StateData {
 public:
  // `keep_alive` owns what the resources' dra_counts point to.
  explicit ScoredResourcesState(ScoredResources resources, std::shared_ptr<const void> keep_alive = nullptr)
      : resources_(std::move(resources)), keep_alive_(std::move(keep_alive)) {}
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<ScoredResourcesState>(*this);
  }
  const ScoredResources& resources() const { return resources_; }

 private:
  ScoredResources resources_;
  std::shared_ptr<const void> keep_alive_;
};

// Classifies `specs` in order (pod_request left 0).
ScoredResources CompileResources(const std::vector<ResourceSpec>& specs);


// Upstream calculatePodResourceRequestList: sets pod_request of each
// resource. With use_requested (BalancedAllocation) the pod as NodeInfo
// accounts it; without (Fit) the containers' spec with cpu/memory defaults.
void FillPodRequests(const framework::PodInfo& pod, bool use_requested, std::span<ScoredResource> resources);

// True when every pod_request is 0 (upstream isBestEffortPod).
bool AllRequestsZero(std::span<const ScoredResource> resources);

// Upstream calculateResourceAllocatableRequest: the node's allocatable and
// requested-plus-pod amounts of `r`. Returns false when the resource is to
// be skipped (allocatable 0, or a scalar the pod does not request).
inline bool AllocatableAndRequested(const framework::NodeInfo& node, const ScoredResource& r,
                                    bool use_requested, int64_t& allocatable, int64_t& requested) {
  const framework::Resource& alloc = node.allocatable();
  switch (r.kind) {
    case ResourceKind::kCpu:
      allocatable = alloc.milli_cpu;
      requested = WrapAdd(use_requested ? node.requested().milli_cpu : node.non_zero_requested_milli_cpu(),
                          r.pod_request);
      break;
    case ResourceKind::kMemory:
      allocatable = alloc.memory;
      requested =
          WrapAdd(use_requested ? node.requested().memory : node.non_zero_requested_memory(), r.pod_request);
      break;
    case ResourceKind::kEphemeralStorage:
      allocatable = alloc.ephemeral_storage;
      requested = WrapAdd(node.requested().ephemeral_storage, r.pod_request);
      break;
    case ResourceKind::kScalar:
      if (r.pod_request == 0) return false;
      allocatable = alloc.GetScalar(r.name);
      // Not from a device plugin here: the class's devices, when the node
      // reaches any.
      if (allocatable == 0 && r.dra_counts != nullptr) {
        if (auto it = r.dra_counts->find(node.name()); it != r.dra_counts->end() && it->second.capacity > 0) {
          allocatable = it->second.capacity;
          requested = WrapAdd(it->second.allocated, r.pod_request);
          return true;
        }
      }
      if (allocatable == 0) return false;
      requested = WrapAdd(node.requested().GetScalar(r.name), r.pod_request);
      return true;
    case ResourceKind::kNone:
      return false;
  }
  return allocatable != 0;
}

// Upstream leastRequestedScore / mostRequestedScore for one resource, in [0, 100].
inline int64_t LeastRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0 || requested > capacity) return 0;
  return Quotient(WrapMul(WrapSub(capacity, requested), framework::kMaxNodeScore), capacity);
}
inline int64_t MostRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity == 0) return 0;
  if (requested > capacity) requested = capacity;
  return Quotient(WrapMul(requested, framework::kMaxNodeScore), capacity);
}

// Upstream helper.BuildBrokenLinearFunction: linear between the points,
// constant outside. `points` must be sorted by strictly increasing utilization.
// The default scored resources, cpu then memory (any weights): the scorers
// below then run without a per-resource dispatch. Results equal the general
// functions' bit for bit.
inline bool IsCpuThenMemory(std::span<const ScoredResource> rs) {
  return rs.size() == 2 && rs[0].kind == ResourceKind::kCpu && rs[1].kind == ResourceKind::kMemory;
}

// LeastAllocatedScore(node, {cpu, memory}, /*use_requested=*/false).
inline int64_t LeastAllocatedCpuMemory(const framework::NodeInfo& node, const ScoredResource& cpu,
                                       const ScoredResource& memory) {
  // The node's first-line copies of its figures, not allocatable()'s.
  const int64_t alloc_cpu = node.allocatable_milli_cpu();
  const int64_t alloc_memory = node.allocatable_memory();
  int64_t node_score = 0;
  int64_t weight_sum = 0;
  if (alloc_cpu != 0) {
    const int64_t requested = WrapAdd(node.non_zero_requested_milli_cpu(), cpu.pod_request);
    node_score = WrapMul(LeastRequestedScore(requested, alloc_cpu), cpu.weight);
    weight_sum = cpu.weight;
  }
  if (alloc_memory != 0) {
    const int64_t requested = WrapAdd(node.non_zero_requested_memory(), memory.pod_request);
    node_score = WrapAdd(node_score, WrapMul(LeastRequestedScore(requested, alloc_memory), memory.weight));
    weight_sum += memory.weight;
  }
  return weight_sum == 0 ? 0 : Quotient(node_score, weight_sum);
}

// LeastAllocatedCpuMemory for each node of a run. Nodes whose figures keep
// every intermediate below 2^53 (all real ones) take a straight-line path:
// each quotient is one exact double division, no per-node choice among
// Quotient's ways; any other node goes through LeastAllocatedCpuMemory.
inline void LeastAllocatedCpuMemoryRun(std::span<const framework::NodeInfo* const> nodes,
                                       const ScoredResource& cpu, const ScoredResource& memory,
                                       std::span<int64_t> scores) {
  // Capacities in [1, 2^46] keep (capacity - requested) * 100 below 2^53; so
  // do weights below 2^40 for the weighted sum of two scores of at most 100.
  constexpr int kCapacityBits = 46;
  constexpr int64_t kWeightLimit = int64_t{1} << 40;
  const bool weights_ok = cpu.weight > 0 && cpu.weight < kWeightLimit && memory.weight > 0 &&
                          memory.weight < kWeightLimit;
  if (!weights_ok) {
    for (size_t i = 0; i < nodes.size(); ++i) scores[i] = LeastAllocatedCpuMemory(*nodes[i], cpu, memory);
    return;
  }
  // A request above the capacity leaves nothing free: score 0, as upstream's.
  auto least_requested = [](int64_t requested, int64_t capacity) -> int64_t {
    const int64_t free = std::max<int64_t>(capacity - requested, 0);
    return static_cast<int64_t>(static_cast<double>(free * framework::kMaxNodeScore) /
                                static_cast<double>(capacity));
  };
  auto score_run = [&](auto divide_by_weight_sum) {
    for (size_t i = 0; i < nodes.size(); ++i) {
      const framework::NodeInfo& node = *nodes[i];
      const int64_t alloc_cpu = node.allocatable_milli_cpu();
      const int64_t alloc_memory = node.allocatable_memory();
      const int64_t req_cpu = WrapAdd(node.non_zero_requested_milli_cpu(), cpu.pod_request);
      const int64_t req_memory = WrapAdd(node.non_zero_requested_memory(), memory.pod_request);
      // Both capacities in [1, 2^46] and both requests >= 0, tested together.
      const uint64_t capacities_less_one =
          (static_cast<uint64_t>(alloc_cpu) - 1) | (static_cast<uint64_t>(alloc_memory) - 1);
      if ((capacities_less_one >> kCapacityBits) != 0 || (req_cpu | req_memory) < 0) {
        scores[i] = LeastAllocatedCpuMemory(node, cpu, memory);
        continue;
      }
      scores[i] = divide_by_weight_sum(least_requested(req_cpu, alloc_cpu) * cpu.weight +
                                       least_requested(req_memory, alloc_memory) * memory.weight);
    }
  };
  // The default weights sum to 2: a shift then replaces the last division.
  const uint64_t sum_bits = static_cast<uint64_t>(cpu.weight + memory.weight);
  if (std::has_single_bit(sum_bits)) {
    const int shift = std::countr_zero(sum_bits);
    score_run([shift](int64_t sum) { return sum >> shift; });
  } else {
    const double weight_sum = static_cast<double>(sum_bits);
    score_run([weight_sum](int64_t sum) { return static_cast<int64_t>(static_cast<double>(sum) / weight_sum); });
  }
}

// upstream's balancedResourceScorer (v1.36 on): the change in balance the
// pod brings. Each balance is in [50, 100], so the result is in [50, 100]
// (75: unchanged); the integer division truncates as Go's does. Balances of
// requests that wrapped are far out of range: the sums wrap as Go's int64
// arithmetic does.
inline int64_t BalancedAllocationFromBalances(int64_t with_pod, int64_t without_pod) {
  constexpr int64_t kHalf = framework::kMaxNodeScore / 2;
  return WrapAdd(kHalf, WrapSub(WrapAdd(kHalf, with_pod), without_pod) / 2);
}

// BalancedAllocationScore(node, {cpu, memory}, /*use_requested=*/true).
inline int64_t BalancedAllocationCpuMemory(const framework::NodeInfo& node, const ScoredResource& cpu,
                                           const ScoredResource& memory) {
  const int64_t alloc_cpu = node.allocatable_milli_cpu();
  const int64_t alloc_memory = node.allocatable_memory();
  // With one fraction or none both deviations are 0: balance unchanged.
  if (alloc_cpu == 0 || alloc_memory == 0) {
    return BalancedAllocationFromBalances(framework::kMaxNodeScore, framework::kMaxNodeScore);
  }
  auto fraction = [](int64_t requested, int64_t allocatable) {
    const double f = static_cast<double>(requested) / static_cast<double>(allocatable);
    return f > 1 ? 1.0 : f;
  };
  auto balance = [](double first, double second) {
    const double std_dev = std::fabs((first - second) / 2);
    return static_cast<int64_t>((1 - std_dev) * static_cast<double>(framework::kMaxNodeScore));
  };
  const int64_t cpu_before = node.requested_milli_cpu();
  const int64_t memory_before = node.requested_memory();
  const int64_t with_pod = balance(fraction(WrapAdd(cpu_before, cpu.pod_request), alloc_cpu),
                                   fraction(WrapAdd(memory_before, memory.pod_request), alloc_memory));
  const int64_t without_pod = balance(fraction(cpu_before, alloc_cpu), fraction(memory_before, alloc_memory));
  return BalancedAllocationFromBalances(with_pod, without_pod);
}

using internal::BrokenLinearFunction;

// RequestedToCapacityRatio's per-resource score, tabulated: utilization
// (requested * 100 / capacity, capped at 100) → the shape's score scaled to
// [0, kMaxNodeScore].
class RequestedToCapacityRatioTable {
 public:
  RequestedToCapacityRatioTable() = default;
  explicit RequestedToCapacityRatioTable(const std::vector<UtilizationShapePoint>& shape);
  int64_t ResourceScore(int64_t requested, int64_t capacity) const {
    if (capacity == 0 || requested > capacity) return table_[kMaxUtilization];
    int64_t p = Quotient(WrapMul(requested, kMaxUtilization), capacity);
    if (p >= 0 && p <= kMaxUtilization) return table_[p];
    return function_(p);
  }

 private:
  static constexpr int64_t kMaxUtilization = 100;
  BrokenLinearFunction function_{{}};
  std::array<int64_t, kMaxUtilization + 1> table_{};
};

// The strategies over every resource of a node (upstream's scorer funcs).
int64_t LeastAllocatedScore(const framework::NodeInfo& node, std::span<const ScoredResource> rs,
                            bool use_requested);
int64_t MostAllocatedScore(const framework::NodeInfo& node, std::span<const ScoredResource> rs,
                           bool use_requested);
int64_t RequestedToCapacityRatioScore(const framework::NodeInfo& node, std::span<const ScoredResource> rs,
                                      bool use_requested, const RequestedToCapacityRatioTable& table);
// BalancedAllocation's score: how the pod changes the node's balance, where
// a balance is (1 - std of the used fractions) * 100.
int64_t BalancedAllocationScore(const framework::NodeInfo& node, std::span<const ScoredResource> rs,
                                bool use_requested);

}  // namespace schedkit::plugins::noderesources

#endif  // SCHEDKIT_LIB_PLUGINS_NODERESOURCES_RESOURCE_ALLOCATION_H_
