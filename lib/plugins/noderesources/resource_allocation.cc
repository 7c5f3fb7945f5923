#include "plugins/noderesources/resource_allocation.h"

#include <array>
#include <cmath>
#include <memory>
#include <string_view>
#include <vector>

#include "schedkit/base/well_known.h"
#include "schedkit/framework/resource.h"

namespace schedkit::plugins::noderesources {
namespace {

// Sum of weight * per-resource score over the node's resources, divided by
// the sum of the weights that took part (upstream least/mostResourceScorer).
template <typename PerResource>
int64_t WeightedAverage(const framework::NodeInfo& node, std::span<const ScoredResource> rs,
                        bool use_requested, PerResource per_resource) {
  int64_t node_score = 0;
  int64_t weight_sum = 0;
  for (const ScoredResource& r : rs) {
    int64_t allocatable = 0;
    int64_t requested = 0;
    if (!AllocatableAndRequested(node, r, use_requested, allocatable, requested)) continue;
    node_score = WrapAdd(node_score, WrapMul(per_resource(requested, allocatable), r.weight));
    weight_sum += r.weight;
  }
  if (weight_sum == 0) return 0;
  return Quotient(node_score, weight_sum);
}

// requested / allocatable as float64, capped at 1 (BalancedAllocation).
inline double Fraction(int64_t requested, int64_t allocatable) {
  const double fraction = static_cast<double>(requested) / static_cast<double>(allocatable);
  return fraction > 1 ? 1 : fraction;
}

}  // namespace

ScoredResources CompileResources(const std::vector<ResourceSpec>& specs) {
  ScoredResources out;
  out.reserve(specs.size());
  for (const ResourceSpec& spec : specs) {
    ScoredResource r;
    r.name = Symbol::Intern(spec.name);
    r.weight = spec.weight;
    if (r.name == schedkit::well_known::ResourceCpu()) {
      r.kind = ResourceKind::kCpu;
    } else if (r.name == schedkit::well_known::ResourceMemory()) {
      r.kind = ResourceKind::kMemory;
    } else if (r.name == schedkit::well_known::ResourceEphemeralStorage()) {
      r.kind = ResourceKind::kEphemeralStorage;
    } else if (framework::IsScalarResourceName(spec.name)) {
      r.kind = ResourceKind::kScalar;
    } else {
      r.kind = ResourceKind::kNone;
    }
    out.push_back(r);
  }
  return out;
}

void FillPodRequests(const framework::PodInfo& pod, bool use_requested, std::span<ScoredResource> resources) {
  // BalancedAllocation (use_requested) reads the pod as NodeInfo accounts
  // it; Fit's scorer reads the containers' spec with cpu/memory defaults,
  // which PodInfo holds unless the pod has pod-level requests or a resize
  // status (rare: computed here then).
  const framework::Resource* req = &pod.requests();
  int64_t milli_cpu = req->milli_cpu;
  int64_t memory = req->memory;
  framework::Resource fit_view;
  if (!use_requested) {
    milli_cpu = pod.non_zero_milli_cpu();
    memory = pod.non_zero_memory();
    if (framework::PodResourcesBeyondContainers(pod.pod())) {
      absl::StatusOr<framework::Resource> computed = framework::ComputeFitScoringRequests(pod.pod());
      // PodInfo parsed the same quantities, so this cannot fail.
      if (computed.ok()) {
        fit_view = *std::move(computed);
        req = &fit_view;
        milli_cpu = fit_view.milli_cpu;
        memory = fit_view.memory;
      }
    }
  }
  for (ScoredResource& r : resources) {
    switch (r.kind) {
      case ResourceKind::kCpu:
        r.pod_request = milli_cpu;
        break;
      case ResourceKind::kMemory:
        r.pod_request = memory;
        break;
      case ResourceKind::kEphemeralStorage:
        r.pod_request = req->ephemeral_storage;
        break;
      case ResourceKind::kScalar:
        r.pod_request = req->GetScalar(r.name);
        break;
      case ResourceKind::kNone:
        // Upstream reads requests["pods"] etc. here; such a request can never
        // be scored, but it still counts against "best effort".
        r.pod_request = r.name == schedkit::well_known::ResourcePods() ? req->allowed_pod_number : 0;
        break;
    }
  }
}

bool AllRequestsZero(std::span<const ScoredResource> resources) {
  for (const ScoredResource& r : resources) {
    if (r.pod_request != 0) return false;
  }
  return true;
}

RequestedToCapacityRatioTable::RequestedToCapacityRatioTable(
    const std::vector<UtilizationShapePoint>& shape) {
  std::vector<BrokenLinearFunction::Point> points;
  points.reserve(shape.size());
  for (const UtilizationShapePoint& s : shape) {
    points.push_back({s.utilization, s.score * (framework::kMaxNodeScore / kMaxCustomPriorityScore)});
  }
  function_ = BrokenLinearFunction(std::move(points));
  for (int64_t p = 0; p <= kMaxUtilization; ++p) table_[p] = function_(p);
}

int64_t LeastAllocatedScore(const framework::NodeInfo& node, std::span<const ScoredResource> rs,
                            bool use_requested) {
  return WeightedAverage(node, rs, use_requested, LeastRequestedScore);
}

int64_t MostAllocatedScore(const framework::NodeInfo& node, std::span<const ScoredResource> rs,
                           bool use_requested) {
  return WeightedAverage(node, rs, use_requested, MostRequestedScore);
}

int64_t RequestedToCapacityRatioScore(const framework::NodeInfo& node, std::span<const ScoredResource> rs,
                                      bool use_requested, const RequestedToCapacityRatioTable& table) {
  int64_t node_score = 0;
  int64_t weight_sum = 0;
  for (const ScoredResource& r : rs) {
    int64_t allocatable = 0;
    int64_t requested = 0;
    if (!AllocatableAndRequested(node, r, use_requested, allocatable, requested)) continue;
    const int64_t resource_score = table.ResourceScore(requested, allocatable);
    // Upstream: only resources with a positive score count, weights included.
    if (resource_score > 0) {
      node_score = WrapAdd(node_score, WrapMul(resource_score, r.weight));
      weight_sum += r.weight;
    }
  }
  if (weight_sum == 0) return 0;
  return static_cast<int64_t>(std::round(static_cast<double>(node_score) / static_cast<double>(weight_sum)));
}

namespace {

// upstream's balancedResourceScore: (1 - std of the used fractions) * 100,
// over the fractions `fraction_of(r)` gives for the resources that take part.
// Upstream collects the fractions in a slice; with two of them (the usual
// cpu + memory) only those two are needed, and with more a second pass
// recomputes them bit-identically, so nothing is stored.
template <typename FractionOf>
int64_t BalanceScore(std::span<const bool> takes_part, FractionOf fraction_of) {
  double first = 0;
  double second = 0;
  double total_fraction = 0;
  size_t n = 0;
  for (size_t i = 0; i < takes_part.size(); ++i) {
    if (!takes_part[i]) continue;
    const double fraction = fraction_of(i);
    total_fraction += fraction;
    if (n == 0) first = fraction;
    if (n == 1) second = fraction;
    ++n;
  }
  double std_dev = 0.0;
  // Same operations as upstream, in the same order, so the float64 results
  // (and the truncated score) are bit-identical.
  if (n == 2) {
    std_dev = std::fabs((first - second) / 2);
  } else if (n > 2) {
    const double mean = total_fraction / static_cast<double>(n);
    double sum = 0;
    for (size_t i = 0; i < takes_part.size(); ++i) {
      if (!takes_part[i]) continue;
      const double fraction = fraction_of(i);
      sum = sum + (fraction - mean) * (fraction - mean);
    }
    std_dev = std::sqrt(sum / static_cast<double>(n));
  }
  return static_cast<int64_t>((1 - std_dev) * static_cast<double>(framework::kMaxNodeScore));
}

}  // namespace

int64_t BalancedAllocationScore(const framework::NodeInfo& node, std::span<const ScoredResource> rs,
                                bool use_requested) {
  // A handful of resources are configured in practice: fixed buffers keep the
  // per-node path free of allocation for up to kInline of them.
  constexpr size_t kInline = 16;
  std::array<int64_t, kInline> allocatable_inline{};
  std::array<int64_t, kInline> requested_inline{};
  std::array<bool, kInline> takes_part_inline{};
  std::vector<int64_t> allocatable_heap;
  std::vector<int64_t> requested_heap;
  std::unique_ptr<bool[]> takes_part_heap;
  int64_t* allocatable = allocatable_inline.data();
  int64_t* requested = requested_inline.data();
  bool* takes_part = takes_part_inline.data();
  if (rs.size() > kInline) {
    allocatable_heap.resize(rs.size());
    requested_heap.resize(rs.size());
    takes_part_heap = std::make_unique<bool[]>(rs.size());
    allocatable = allocatable_heap.data();
    requested = requested_heap.data();
    takes_part = takes_part_heap.get();
  }
  for (size_t i = 0; i < rs.size(); ++i) {
    takes_part[i] = AllocatableAndRequested(node, rs[i], use_requested, allocatable[i], requested[i]);
  }
  const std::span<const bool> part(takes_part, rs.size());
  const int64_t with_pod =
      BalanceScore(part, [&](size_t i) { return Fraction(requested[i], allocatable[i]); });
  // Without the pod: the same resources, the node's requests alone (undoing
  // AllocatableAndRequested's wrapping sum exactly).
  const int64_t without_pod = BalanceScore(
      part, [&](size_t i) { return Fraction(WrapSub(requested[i], rs[i].pod_request), allocatable[i]); });
  return BalancedAllocationFromBalances(with_pod, without_pod);
}

}  // namespace schedkit::plugins::noderesources
