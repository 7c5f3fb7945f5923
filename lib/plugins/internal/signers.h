// The values of upstream's shared signers (k8s.io/kube-scheduler/framework/
// signers.go) for the in-tree plugins' SignPod: each is canonical in what
// the upstream signer treats as unordered, and keeps every distinction the
// upstream value keeps, so that two pods sign alike exactly when upstream's
// JSON fragments are equal (up to what schedkit's world model holds: volume
// sources it does not model sign as an empty source).
#ifndef SCHEDKIT_LIB_PLUGINS_INTERNAL_SIGNERS_H_
#define SCHEDKIT_LIB_PLUGINS_INTERNAL_SIGNERS_H_

#include <string>

#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/resource.h"

namespace schedkit::plugins {

// Tolerations ordered by key, then value (ties keep the pod's order).
std::string TolerationsSignature(const framework::PodInfo& pod);
// The volumes' sources, ConfigMap and Secret volumes left out, sorted.
std::string VolumesSignature(const framework::PodInfo& pod);
// The distinct non-zero host ports of containers and init containers, sorted
// (upstream signs the port numbers alone, not protocol or host IP).
std::string HostPortsSignature(const framework::PodInfo& pod);
// Required terms and preferred terms, each with its requirements' values
// sorted and its requirements sorted, the terms sorted; distinguishes a pod
// without node affinity from one with an empty one.
std::string NodeAffinitySignature(const framework::PodInfo& pod);
std::string NodeSelectorSignature(const framework::PodInfo& pod);
std::string LabelsSignature(const framework::PodInfo& pod);
// The distinct normalized image names of containers and init containers.
std::string ImageNamesSignature(const framework::PodInfo& pod);
// A computed request: cpu, memory, ephemeral storage, pods, and every scalar.
std::string ResourcesSignature(const framework::Resource& request);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_INTERNAL_SIGNERS_H_
