// Resource: a vector of resource amounts in scheduler units (cpu in
// millicores, memory and storage in bytes, pods and extended resources as
// counts), and the pod request arithmetic of upstream v1.37.
//
//   Resource req = ComputePodRequests(pod).spec_requests;   // what NodeResourcesFit checks
//   if (req.milli_cpu > node.allocatable().milli_cpu - node.requested().milli_cpu) ...
//
// Kept as plain integers so filters compare without parsing; scalar
// (extended, hugepages) resources sit in a small vector keyed by Symbol.
// Thread-safe as a value type.
#ifndef SCHEDKIT_FRAMEWORK_RESOURCE_H_
#define SCHEDKIT_FRAMEWORK_RESOURCE_H_

#include <cstdint>
#include <string_view>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "google/protobuf/map.h"
#include "schedkit/base/symbol.h"
#include "schedkit/api/v1/pod.h"

namespace schedkit::framework {

// Defaults upstream substitutes for a container's missing cpu/memory request
// when scoring (schedutil.DefaultMilliCPURequest / DefaultMemoryRequest).
inline constexpr int64_t kDefaultMilliCpuRequest = 100;
inline constexpr int64_t kDefaultMemoryRequest = 200 * 1024 * 1024;

struct Resource {
  struct Scalar {
    Symbol name;
    int64_t amount = 0;
  };

  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral_storage = 0;
  int64_t allowed_pod_number = 0;
  // Extended resources, hugepages-*, attachable-volumes-*; sorted by name id.
  absl::InlinedVector<Scalar, 2> scalars;

  int64_t GetScalar(Symbol name) const;
  void SetScalar(Symbol name, int64_t amount);
  void AddScalar(Symbol name, int64_t amount);

  void Add(const Resource& other);
  void Subtract(const Resource& other);
  // True when cpu, memory, ephemeral storage and every scalar are zero
  // (allowed_pod_number is not a request and is ignored).
  bool IsZeroRequest() const;

  // Parses a resource list ("cpu": "500m", ...) as upstream's
  // framework.NewResource does: known names into fields, scalar resource names
  // into `scalars`, anything else ignored.
  static absl::StatusOr<Resource> FromList(
      const google::protobuf::Map<std::string, std::string>& list);

  friend bool operator==(const Resource& a, const Resource& b);
};

// Upstream's resource-name classes (v1helper / schedutil).
bool IsExtendedResourceName(std::string_view name);
bool IsHugePageResourceName(std::string_view name);
bool IsScalarResourceName(std::string_view name);
// Upstream's IsDRAExtendedResourceName: an extended resource name, or a
// DeviceClass's implicit one, "deviceclass.resource.kubernetes.io/<class>"
// (DRAExtendedResource: either may be served by DRA devices).
bool IsDraExtendedResourceName(std::string_view name);

struct PodRequests {
  // resource.PodRequests: containers summed, restartable init containers
  // (sidecars) added and carried into later init containers, init containers
  // as a maximum, pod-level requests for cpu/memory/hugepages, plus overhead.
  // For a resized pod each resource is the largest of what the spec asks,
  // what the kubelet allocated and what it actuated (status), as NodeInfo
  // accounts the pod and scoring reads it.
  Resource requests;
  // The same from the spec alone: what NodeResourcesFit's PreFilter checks
  // and signs (a pod waiting for a node has no resize status anyway).
  Resource spec_requests;
  // The same with 100m cpu / 200Mi memory for every container missing a
  // request, as upstream's scoring and NodeInfo.NonZeroRequested use.
  int64_t non_zero_milli_cpu = 0;
  int64_t non_zero_memory = 0;
};

// Quantities are summed exactly (in units of 10^-9) before rounding up to
// scheduler units, as upstream adds resource.Quantity values.
absl::StatusOr<PodRequests> ComputePodRequests(const api::v1::Pod& pod);

// NodeResourcesFit's view of the incoming pod when it scores, as v1.37.2
// builds Fit's scorer (without its pod-level or status options): the
// containers' spec requests alone, every container missing a cpu or memory
// request counting the default. For a pod where
// !PodResourcesBeyondContainers(pod) this is requests() with non_zero_*
// for cpu and memory.
absl::StatusOr<Resource> ComputeFitScoringRequests(const api::v1::Pod& pod);

// The pod has pod-level requests or a resize status: something besides its
// containers' spec requests may count.
bool PodResourcesBeyondContainers(const api::v1::Pod& pod);

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_RESOURCE_H_
