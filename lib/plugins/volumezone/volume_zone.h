// VolumeZone: rejects nodes whose zone/region labels do not match the
// topology labels of the PersistentVolumes bound to the pod's claims
// (upstream pkg/scheduler/framework/plugins/volumezone, v1.37).
//
//   auto plugin = NewVolumeZone(framework::PluginArgs(), handle);
//
// PreFilter reads each PVC volume's claim and, for a bound claim, its
// PersistentVolume through the Handle's ClusterClient; an unbound claim of a
// WaitForFirstConsumer class is skipped (VolumeBinding places it). A PV's
// zone and region labels (GA and beta keys; "__" separates several zones)
// become the topologies every node must match. Errors are upstream's:
// `persistentvolumeclaim "<claim>" not found`, "PersistentVolumeClaim had
// no name", "PersistentVolume had no name" (unbound, Immediate), ... all
// UnschedulableAndUnresolvable. No topologies: Skip.
//
// Filter: a node without any zone or region label fits (a single-zone
// cluster); otherwise every topology's key (or its GA form) must be on the
// node with one of the PV's values, else UnschedulableAndUnresolvable
// "node(s) had no available volume zone".
//
// Extension points as upstream: PreFilter, Filter, EnqueueExtensions:
// Node/Add|UpdateNodeLabel, StorageClass/Add, PersistentVolumeClaim/Add|Update
// and PersistentVolume/Add|Update with upstream's hints.
//
// Filter only reads the cycle state and the node; it may run concurrently.
#ifndef SCHEDKIT_LIB_PLUGINS_VOLUMEZONE_VOLUME_ZONE_H_
#define SCHEDKIT_LIB_PLUGINS_VOLUMEZONE_VOLUME_ZONE_H_

#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/base/symbol.h"
#include "schedkit/api/v1/persistent_volume.h"
#include "schedkit/api/v1/persistent_volume_claim.h"
#include "schedkit/api/v1/storage_class.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/batch_signature.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/registry.h"

namespace schedkit::plugins {

class VolumeZone final : public framework::PreFilterPlugin,
                         public framework::FilterPlugin,
                         public framework::EnqueueExtensions,
                         public framework::SignPlugin {
 public:
  // Upstream's ErrReasonConflict (unreachable without PersistentVolumes).
  static constexpr std::string_view kErrReasonConflict = "node(s) had no available volume zone";

  std::string_view Name() const override;
  // Adds the fields of the pod its filtering and scoring read (upstream's SignPod).
  framework::Status SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const override;
  PreFilterPlugin::Result PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                                    std::span<const framework::NodeInfo* const> nodes) override;
  framework::Status Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override;
  std::vector<framework::ClusterEventWithHint> EventsToRegister() const override;

  explicit VolumeZone(framework::Handle& handle) : handle_(handle) {}

 private:
  framework::Handle& handle_;
};

// One PersistentVolume topology label: its key (and the GA key a beta key
// stands for) and the zones or regions it allows.
struct VolumeTopology {
  Symbol key;
  Symbol ga_key;
  std::vector<Symbol> values;

  bool operator==(const VolumeTopology&) const = default;
};

// The PV's topology labels in upstream's order (beta zone, beta region, GA
// zone, GA region); a label whose value has an empty zone is left out.
std::vector<VolumeTopology> VolumeTopologies(const api::v1::PersistentVolume& pv);

// VolumeZone has no args type upstream; pluginConfig args are ignored.
absl::StatusOr<std::unique_ptr<framework::Plugin>> NewVolumeZone(const framework::PluginArgs& args,
                                                                 framework::Handle& handle);

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_VOLUMEZONE_VOLUME_ZONE_H_
