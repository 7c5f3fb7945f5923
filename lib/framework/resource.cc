#include "schedkit/framework/resource.h"

#include <algorithm>
#include <limits>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/api/quantity.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/well_known.h"

namespace schedkit::framework {
namespace {

using Nano = __int128;  // an amount in units of 10^-9, exact for any sum we form
constexpr Nano kNanoPerUnit = 1'000'000'000;
constexpr Nano kNanoPerMilli = 1'000'000;

// Resource name → exact amount; the intermediate form of pod request sums.
using Amounts = absl::flat_hash_map<std::string, Nano>;

bool ScalarLess(const Resource::Scalar& a, const Resource::Scalar& b) { return a.name < b.name; }

absl::StatusOr<Amounts> ToAmounts(const google::protobuf::Map<std::string, std::string>& list) {
  Amounts out;
  for (const auto& [name, text] : list) {
    auto q = api::Quantity::Parse(text);
    if (!q.ok()) return absl::InvalidArgumentError(schedkit::StrCat(name, ": ", q.status().message()));
    out[name] = q->NanoValue();
  }
  return out;
}

void AddAll(Amounts& to, const Amounts& from) {
  for (const auto& [name, v] : from) to[name] += v;
}

void MaxAll(Amounts& to, const Amounts& from) {
  for (const auto& [name, v] : from) {
    auto [it, inserted] = to.try_emplace(name, v);
    if (!inserted) it->second = std::max(it->second, v);
  }
}

// Rounds up (away from zero) to whole units of `per`, saturating like
// resource.Quantity's ScaledValue.
int64_t RoundUp(Nano v, Nano per) {
  Nano q = v / per;
  if (v % per != 0) q += v > 0 ? 1 : -1;
  if (q > std::numeric_limits<int64_t>::max()) return std::numeric_limits<int64_t>::max();
  if (q < std::numeric_limits<int64_t>::min()) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(q);
}

bool IsSupportedPodLevelResource(std::string_view name) {
  return name == "cpu" || name == "memory" || IsHugePageResourceName(name);
}

bool PodLevelRequestsSet(const api::v1::Pod& pod) {
  for (const auto& [name, unused] : pod.spec().resources().requests()) {
    if (IsSupportedPodLevelResource(name)) return true;
  }
  return false;
}

// Which of a container's lists one aggregation reads.
enum class ContainerList { kSpec, kAllocated, kActuated };

// A resize the kubelet found infeasible leaves the spec unapplied: the
// status alone tells what the pod holds.
bool ResizeInfeasible(const api::v1::Pod& pod) {
  for (const auto& c : pod.status().conditions()) {
    if (c.type() == "PodResizePending") return c.reason() == "Infeasible";
  }
  return false;
}

const api::v1::ContainerStatus* FindContainerStatus(const api::v1::PodStatus& status, const std::string& name) {
  for (const auto& cs : status.container_statuses()) {
    if (cs.name() == name) return &cs;
  }
  for (const auto& cs : status.init_container_statuses()) {
    if (cs.name() == name) return &cs;
  }
  return nullptr;
}

// The list `which` names for one container, falling back as upstream does:
// actuated to allocated to spec, allocated to spec; with an infeasible
// resize there is no spec to fall back to. Null when the pod holds nothing.
const google::protobuf::Map<std::string, std::string>* ContainerRequests(const api::v1::Container& c,
                                                                         const api::v1::ContainerStatus* cs,
                                                                         ContainerList which, bool infeasible) {
  if (cs != nullptr && which == ContainerList::kActuated && cs->resources().requests_size() > 0) {
    return &cs->resources().requests();
  }
  if (cs != nullptr && which != ContainerList::kSpec && cs->allocated_resources_size() > 0) {
    return &cs->allocated_resources();
  }
  if (which != ContainerList::kSpec && infeasible) return nullptr;
  return &c.resources().requests();
}

// Whether the pod's status can make its requests differ from its spec's:
// some resource list in it, or an infeasible resize (which drops the spec).
// Pods waiting for a node have none, so they are summed once.
bool StatusCounts(const api::v1::Pod& pod) {
  const api::v1::PodStatus& status = pod.status();
  if (status.allocated_resources_size() > 0 || status.has_resources() || ResizeInfeasible(pod)) return true;
  for (const auto* statuses : {&status.container_statuses(), &status.init_container_statuses()}) {
    for (const api::v1::ContainerStatus& cs : *statuses) {
      if (cs.allocated_resources_size() > 0 || cs.resources().requests_size() > 0) return true;
    }
  }
  return false;
}

// One aggregation over the pod's containers: regular ones summed, an init
// container beside the sidecars started before it, sidecars also added to
// the regular total, the init containers as a maximum. `non_missing` (may be
// empty) fills in a container's absent keys.
absl::StatusOr<Amounts> AggregateContainers(const api::v1::Pod& pod, ContainerList which, bool use_status,
                                            bool infeasible, const Amounts& non_missing) {
  auto container_requests = [&](const api::v1::Container& c) -> absl::StatusOr<Amounts> {
    const api::v1::ContainerStatus* cs = use_status ? FindContainerStatus(pod.status(), c.name()) : nullptr;
    const auto* list = ContainerRequests(c, cs, which, infeasible);
    absl::StatusOr<Amounts> r = list != nullptr ? ToAmounts(*list) : Amounts();
    if (!r.ok()) return r;
    for (const auto& [name, v] : non_missing) {
      if (list == nullptr || !list->contains(name)) (*r)[name] += v;
    }
    return r;
  };

  Amounts total;
  for (const auto& c : pod.spec().containers()) {
    SCHEDKIT_ASSIGN_OR_RETURN(Amounts r, container_requests(c));
    AddAll(total, r);
  }
  Amounts sidecars;
  Amounts init_max;
  for (const auto& c : pod.spec().init_containers()) {
    SCHEDKIT_ASSIGN_OR_RETURN(Amounts r, container_requests(c));
    if (c.restart_policy() == "Always") {
      AddAll(total, r);
      AddAll(sidecars, r);
      MaxAll(init_max, sidecars);
    } else {
      AddAll(r, sidecars);
      MaxAll(init_max, r);
    }
  }
  MaxAll(total, init_max);
  return total;
}

// resource.PodRequests for one pod; `pod_level_requests` false is upstream's
// SkipPodLevelResources. With `use_status` (upstream's
// UseStatusResources and InPlacePodLevelResourcesVerticalScaling, both on
// in v1.37) each resource is the largest of the spec's, the allocated and
// the actuated requests, summed over the containers first; the pod-level
// status, when it has both lists, stands for the containers' statuses.
absl::StatusOr<Amounts> AggregatePodRequests(const api::v1::Pod& pod, bool use_status, bool pod_level_requests,
                                             const Amounts& non_missing) {
  const api::v1::PodStatus& status = pod.status();
  use_status = use_status && StatusCounts(pod);
  const bool infeasible = use_status && ResizeInfeasible(pod);
  SCHEDKIT_ASSIGN_OR_RETURN(Amounts total,
                            AggregateContainers(pod, ContainerList::kSpec, use_status, infeasible, non_missing));
  if (use_status) {
    Amounts allocated, actuated;
    if (status.allocated_resources_size() > 0 && status.resources().requests_size() > 0) {
      SCHEDKIT_ASSIGN_OR_RETURN(allocated, ToAmounts(status.allocated_resources()));
      SCHEDKIT_ASSIGN_OR_RETURN(actuated, ToAmounts(status.resources().requests()));
    } else {
      SCHEDKIT_ASSIGN_OR_RETURN(allocated, AggregateContainers(pod, ContainerList::kAllocated, true, infeasible,
                                                               non_missing));
      SCHEDKIT_ASSIGN_OR_RETURN(actuated, AggregateContainers(pod, ContainerList::kActuated, true, infeasible,
                                                              non_missing));
    }
    if (infeasible) total.clear();
    MaxAll(total, actuated);
    MaxAll(total, allocated);
  }

  if (pod_level_requests && PodLevelRequestsSet(pod)) {
    Amounts pod_level;
    if (!(use_status && status.has_resources() && infeasible)) {
      SCHEDKIT_ASSIGN_OR_RETURN(pod_level, ToAmounts(pod.spec().resources().requests()));
    }
    if (use_status && status.has_resources()) {
      SCHEDKIT_ASSIGN_OR_RETURN(Amounts actuated, ToAmounts(status.resources().requests()));
      SCHEDKIT_ASSIGN_OR_RETURN(Amounts allocated, ToAmounts(status.allocated_resources()));
      MaxAll(pod_level, actuated);
      MaxAll(pod_level, allocated);
    }
    for (const auto& [name, v] : pod_level) {
      if (IsSupportedPodLevelResource(name)) total[name] = v;
    }
  }
  SCHEDKIT_ASSIGN_OR_RETURN(Amounts overhead, ToAmounts(pod.spec().overhead()));
  AddAll(total, overhead);
  return total;
}

// Exact amounts to scheduler units: millicores, bytes, counts.
Resource ToResource(const Amounts& amounts) {
  Resource out;
  for (const auto& [name, v] : amounts) {
    if (name == "cpu") {
      out.milli_cpu = RoundUp(v, kNanoPerMilli);
    } else if (name == "memory") {
      out.memory = RoundUp(v, kNanoPerUnit);
    } else if (name == "ephemeral-storage") {
      out.ephemeral_storage = RoundUp(v, kNanoPerUnit);
    } else if (name == "pods") {
      out.allowed_pod_number = RoundUp(v, kNanoPerUnit);
    } else if (IsScalarResourceName(name)) {
      out.SetScalar(Symbol::Intern(name), RoundUp(v, kNanoPerUnit));
    }
  }
  return out;
}

Amounts CpuMemoryDefaults() {
  return {{"cpu", kDefaultMilliCpuRequest * kNanoPerMilli}, {"memory", kDefaultMemoryRequest * kNanoPerUnit}};
}

}  // namespace

int64_t Resource::GetScalar(Symbol name) const {
  auto it = std::lower_bound(scalars.begin(), scalars.end(), Scalar{name, 0}, ScalarLess);
  return it != scalars.end() && it->name == name ? it->amount : 0;
}

void Resource::SetScalar(Symbol name, int64_t amount) {
  auto it = std::lower_bound(scalars.begin(), scalars.end(), Scalar{name, 0}, ScalarLess);
  if (it != scalars.end() && it->name == name) {
    it->amount = amount;
  } else {
    scalars.insert(it, Scalar{name, amount});
  }
}

void Resource::AddScalar(Symbol name, int64_t amount) {
  auto it = std::lower_bound(scalars.begin(), scalars.end(), Scalar{name, 0}, ScalarLess);
  if (it != scalars.end() && it->name == name) {
    it->amount += amount;
  } else {
    scalars.insert(it, Scalar{name, amount});
  }
}

void Resource::Add(const Resource& o) {
  milli_cpu += o.milli_cpu;
  memory += o.memory;
  ephemeral_storage += o.ephemeral_storage;
  allowed_pod_number += o.allowed_pod_number;
  for (const Scalar& s : o.scalars) AddScalar(s.name, s.amount);
}

void Resource::Subtract(const Resource& o) {
  milli_cpu -= o.milli_cpu;
  memory -= o.memory;
  ephemeral_storage -= o.ephemeral_storage;
  allowed_pod_number -= o.allowed_pod_number;
  for (const Scalar& s : o.scalars) AddScalar(s.name, -s.amount);
}

bool Resource::IsZeroRequest() const {
  if (milli_cpu != 0 || memory != 0 || ephemeral_storage != 0) return false;
  return std::all_of(scalars.begin(), scalars.end(), [](const Scalar& s) { return s.amount == 0; });
}

bool operator==(const Resource& a, const Resource& b) {
  if (a.milli_cpu != b.milli_cpu || a.memory != b.memory ||
      a.ephemeral_storage != b.ephemeral_storage || a.allowed_pod_number != b.allowed_pod_number) {
    return false;
  }
  // A scalar present with amount 0 equals an absent one.
  auto nonzero = [](const Resource& r) {
    absl::InlinedVector<Resource::Scalar, 2> out;
    for (const auto& s : r.scalars) {
      if (s.amount != 0) out.push_back(s);
    }
    return out;
  };
  auto x = nonzero(a), y = nonzero(b);
  return std::equal(x.begin(), x.end(), y.begin(), y.end(),
                    [](const Resource::Scalar& p, const Resource::Scalar& q) { return p.name == q.name && p.amount == q.amount; });
}

absl::StatusOr<Resource> Resource::FromList(const google::protobuf::Map<std::string, std::string>& list) {
  Resource r;
  for (const auto& [name, text] : list) {
    SCHEDKIT_ASSIGN_OR_RETURN(int64_t v, api::ParseResourceQuantity(name, text));
    if (name == "cpu") {
      r.milli_cpu += v;
    } else if (name == "memory") {
      r.memory += v;
    } else if (name == "ephemeral-storage") {
      r.ephemeral_storage += v;
    } else if (name == "pods") {
      r.allowed_pod_number += v;
    } else if (IsScalarResourceName(name)) {
      r.AddScalar(Symbol::Intern(name), v);
    }
  }
  return r;
}

bool IsHugePageResourceName(std::string_view name) { return name.starts_with("hugepages-"); }

bool IsExtendedResourceName(std::string_view name) {
  // Native resources have no domain or live under kubernetes.io; "requests."
  // is reserved for quota.
  if (name.find('/') == std::string_view::npos) return false;
  if ((name.find("kubernetes.io/") != std::string_view::npos)) return false;
  return !name.starts_with("requests.");
}

bool IsDraExtendedResourceName(std::string_view name) {
  return IsExtendedResourceName(name) || name.starts_with("deviceclass.resource.kubernetes.io/");
}

bool IsScalarResourceName(std::string_view name) {
  return IsExtendedResourceName(name) || IsHugePageResourceName(name) ||
         (name.find("kubernetes.io/") != std::string_view::npos) || name.starts_with("attachable-volumes-");
}

absl::StatusOr<PodRequests> ComputePodRequests(const api::v1::Pod& pod) {
  SCHEDKIT_ASSIGN_OR_RETURN(Amounts requests, AggregatePodRequests(pod, /*use_status=*/true, /*pod_level_requests=*/true, {}));

  // NodeInfo's non-zero view: containers missing a cpu/memory request count
  // the defaults; with pod-level requests only what is missing overall.
  Amounts non_missing = CpuMemoryDefaults();
  if (PodLevelRequestsSet(pod)) {
    if (requests.contains("cpu")) non_missing.erase("cpu");
    if (requests.contains("memory")) non_missing.erase("memory");
  }
  // Defaults change nothing where every container asks for both (and no
  // status list could lack them): the common pod is summed once.
  const bool status_counts = StatusCounts(pod);
  auto asks_both = [](const api::v1::Container& c) {
    return c.resources().requests().contains("cpu") && c.resources().requests().contains("memory");
  };
  if (!status_counts && std::all_of(pod.spec().containers().begin(), pod.spec().containers().end(), asks_both) &&
      std::all_of(pod.spec().init_containers().begin(), pod.spec().init_containers().end(), asks_both)) {
    non_missing.clear();
  }
  Amounts non_zero = requests;
  if (!non_missing.empty()) {
    SCHEDKIT_ASSIGN_OR_RETURN(non_zero, AggregatePodRequests(pod, /*use_status=*/true, /*pod_level_requests=*/true, non_missing));
  }

  PodRequests out;
  out.requests = ToResource(requests);
  if (status_counts) {
    SCHEDKIT_ASSIGN_OR_RETURN(Amounts spec_requests,
                              AggregatePodRequests(pod, /*use_status=*/false, /*pod_level_requests=*/true, {}));
    out.spec_requests = ToResource(spec_requests);
  } else {
    out.spec_requests = out.requests;
  }
  if (auto it = non_zero.find("cpu"); it != non_zero.end()) out.non_zero_milli_cpu = RoundUp(it->second, kNanoPerMilli);
  if (auto it = non_zero.find("memory"); it != non_zero.end()) out.non_zero_memory = RoundUp(it->second, kNanoPerUnit);
  return out;
}

absl::StatusOr<Resource> ComputeFitScoringRequests(const api::v1::Pod& pod) {
  SCHEDKIT_ASSIGN_OR_RETURN(Amounts requests, AggregatePodRequests(pod, /*use_status=*/false,
                                                                   /*pod_level_requests=*/false, CpuMemoryDefaults()));
  return ToResource(requests);
}

bool PodResourcesBeyondContainers(const api::v1::Pod& pod) { return PodLevelRequestsSet(pod) || StatusCounts(pod); }

}  // namespace schedkit::framework
