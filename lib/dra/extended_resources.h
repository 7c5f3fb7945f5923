// Internal: extended resources backed by DRA (DRAExtendedResource, GA in
// v1.37). A DeviceClass stands for the extended resource its
// spec.extendedResourceName names, and always for the implicit
// "deviceclass.resource.kubernetes.io/<class name>". A pod asking for such a
// resource on a node that does not offer it in its allocatable gets the
// devices through a ResourceClaim the scheduler makes (DynamicResources);
// NodeResourcesFit leaves the resource to it there.
//
//   ExtendedResourceClasses classes(handle.objects().List<api::v1::DeviceClass>());
//   if (const api::v1::DeviceClass* c = classes.Find("example.com/gpu")) ...
//
// Immutable once built; any thread.
#ifndef SCHEDKIT_LIB_DRA_EXTENDED_RESOURCES_H_
#define SCHEDKIT_LIB_DRA_EXTENDED_RESOURCES_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "schedkit/api/object_set.h"
#include "schedkit/api/v1/device_class.h"
#include "schedkit/api/v1/pod.h"

namespace schedkit::dra {

// The prefix of a class's implicit extended resource name.
inline constexpr std::string_view kDeviceClassResourcePrefix = "deviceclass.resource.kubernetes.io/";

class ExtendedResourceClasses {
 public:
  ExtendedResourceClasses() = default;
  // Adds every class in name order, the order in which a scheduler starting
  // up hears of them, as upstream's extended resource cache does: of two
  // classes naming the same extended resource the newer (by
  // creationTimestamp; on a tie the smaller name) holds it, and a class that
  // loses so when it arrives gets no implicit name either.
  explicit ExtendedResourceClasses(const api::ObjectList<api::v1::DeviceClass>& classes);

  // The class backing `resource`, or null.
  const api::v1::DeviceClass* Find(std::string_view resource) const;
  bool empty() const { return by_resource_.empty(); }

 private:
  absl::flat_hash_map<std::string, std::shared_ptr<const api::v1::DeviceClass>> by_resource_;
};

// The container mapping of DRAExtendedResource (upstream's
// ContainerExtendedResourceRequest): which device request of the claim
// serves a container's extended resource.
struct ExtendedResourceMapping {
  std::string container;
  std::string resource;
  std::string request;
};

// The device requests of a pod's extended-resource claim and the mappings
// of its containers, for the resources `resources` (name and pod-level
// amount) that DRA serves on the node, as upstream's createRequestsAndMappings:
// per resource (by name) and container (init containers first, then the
// others), a request "container-<i>-request-<j>" (j: the resource's index
// among the container's sorted request names) for ExactCount devices of the
// class; long-lived containers (regular and sidecar) get their own, an init
// container reuses the requests of long-lived containers after it before
// asking for the rest, and of the init containers' own requests only the
// largest is kept, the others mapped to it. Requests come sorted by name.
struct ExtendedResourceRequests {
  std::vector<api::v1::DeviceRequest> requests;
  std::vector<ExtendedResourceMapping> mappings;
};
ExtendedResourceRequests ExtendedResourceRequestsFor(const api::v1::Pod& pod,
                                                     const std::vector<std::string>& resources,
                                                     const ExtendedResourceClasses& classes);

}  // namespace schedkit::dra

#endif  // SCHEDKIT_LIB_DRA_EXTENDED_RESOURCES_H_
