// Node-declared features (NodeDeclaredFeatures, GA in v1.37): what a node's
// kubelet says it supports, in node.status.declaredFeatures, and what a pod
// needs of its node, inferred from the pod's spec. Both are sets over the
// registry kube-scheduler v1.37.2 knows (component-helpers'
// nodedeclaredfeatures), one bit per feature in the registry's name order.
//
//   DeclaredFeatureSet needs = InferPodFeatures(pod.spec());
//   bool fits = (needs & node_info.declared_features()) == needs;
#ifndef SCHEDKIT_FRAMEWORK_DECLARED_FEATURES_H_
#define SCHEDKIT_FRAMEWORK_DECLARED_FEATURES_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "google/protobuf/repeated_ptr_field.h"
#include "schedkit/api/v1/pod.h"

namespace schedkit::framework {

// Bit i stands for kDeclaredFeatures[i].
using DeclaredFeatureSet = uint32_t;

// The registry, sorted by name (Go's byte order).
inline constexpr std::array<std::string_view, 9> kDeclaredFeatures = {
    "DRANodeAllocatableResources",
    "DRAOptionalNodeOperations",
    "ExtendWebSocketsToKubelet",
    "InPlacePodLevelResourcesVerticalScaling",
    "InPlacePodVerticalScalingInitContainers",
    "InPlacePodVerticalScalingMemoryBackedVolumes",
    "RestartAllContainersOnContainerExits",
    "UserNamespacesHostNetworkSupport",
    "VolumeBindMountOptions",
};

// A node's declared features (upstream's FeatureMapper.TryMap): the list is
// walked alongside the registry, both taken as sorted, and names the
// registry lacks are skipped. The kubelet publishes the list sorted; an
// unsorted one may lose features here exactly as it does upstream.
DeclaredFeatureSet MapDeclaredFeatures(const google::protobuf::RepeatedPtrField<std::string>& sorted_names);

// The features a pod needs for scheduling (InferForPodScheduling): a
// container or init container with a RestartAllContainers restart rule,
// hostNetwork with hostUsers false, and bind mount options on any
// container's volume mount. The registry's other features are never
// inferred for scheduling.
DeclaredFeatureSet InferPodFeatures(const api::v1::PodSpec& spec);

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_DECLARED_FEATURES_H_
