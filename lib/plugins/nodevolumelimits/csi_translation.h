// Internal to NodeVolumeLimits: the part of upstream's CSI translation
// (k8s.io/csi-translation-lib v0.35) that attach-limit counting reads — which
// in-tree plugins migrate to which CSI driver, whether a node migrates them,
// and the CSI volume handle an in-tree GCE PD or AWS EBS disk becomes.
//
//   auto id = csi_translation::EBSVolumeID("aws://us-west-2a/vol-1");  // "vol-1"
//   auto handle = csi_translation::GCEPDVolumeHandle(pv);  // "projects/UNSPECIFIED/zones/<zone>/disks/<pd>"
//
// Of the in-tree sources only GCE PD and AWS EBS exist in schedkit's API, so
// only those are translated; the other plugins matter here by provisioner
// name alone (a StorageClass's). Pure functions; any thread.
#ifndef SCHEDKIT_LIB_PLUGINS_NODEVOLUMELIMITS_CSI_TRANSLATION_H_
#define SCHEDKIT_LIB_PLUGINS_NODEVOLUMELIMITS_CSI_TRANSLATION_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "schedkit/api/v1/csi_node.h"
#include "schedkit/api/v1/persistent_volume.h"

namespace schedkit::plugins::csi_translation {

inline constexpr std::string_view kGCEPDPlugin = "kubernetes.io/gce-pd";
inline constexpr std::string_view kGCEPDDriver = "pd.csi.storage.gke.io";
inline constexpr std::string_view kAWSEBSPlugin = "kubernetes.io/aws-ebs";
inline constexpr std::string_view kAWSEBSDriver = "ebs.csi.aws.com";
inline constexpr std::string_view kPortworxPlugin = "kubernetes.io/portworx-volume";
// The CSINode annotation listing, comma-separated, the in-tree plugins the
// node's kubelet has migrated.
inline constexpr std::string_view kMigratedPluginsAnnotation = "storage.alpha.kubernetes.io/migrated-plugins";

// Which nodes count an in-tree plugin's volumes as its CSI driver's
// (upstream's isCSIMigrationOn, v1.37: no plugin has a gate left).
enum class MigratedOn : uint8_t {
  kCSINode,  // any node with a CSINode
  kNever,    // translation exists, but the scheduler never turns it on
};

struct InTreePlugin {
  std::string_view name;    // "kubernetes.io/gce-pd"
  std::string_view driver;  // "pd.csi.storage.gke.io"
  MigratedOn on;
};

// The in-tree plugin named `name` when the translation library knows it
// (IsMigratableIntreePluginByName; GetCSINameFromInTreeName gives .driver),
// else null: GCE PD, AWS EBS, Azure Disk, Cinder, Portworx (kCSINode; up to
// v1.36 Portworx needed the CSINode's migrated-plugins annotation), Azure File
// and vSphere (kNever).
const InTreePlugin* FindInTreePlugin(std::string_view name);

// An EBS volume ID as the CSI driver knows it: IDs not starting "aws://" are
// already one; "aws://<zone>/<id>" is parsed as Go's net/url parses it and
// its path, trimmed of slashes, must be "vol-" followed by no slash. Errors
// carry upstream's text: "Invalid format for AWS volume (<id>)", or for an
// unparsable URL "Invalid disk name (<id>): parse \"<url>\": <reason>".
// Not modelled: a bracketed (IPv6 literal) host is not checked to be a valid
// IPv6 address.
absl::StatusOr<std::string> EBSVolumeID(std::string_view kubernetes_id);

// The handle of an inline GCE PD: its zone is unknown.
std::string GCEPDInlineHandle(std::string_view pd_name);

// The handle of an in-tree GCE PD PersistentVolume, from its zone label
// (failure-domain.beta.kubernetes.io/zone when non-empty, else
// topology.kubernetes.io/zone; zones joined by "__"): one zone makes it
// zonal, several regional (in the region they share), none unspecified.
// Error when the zones name no single region.
absl::StatusOr<std::string> GCEPDVolumeHandle(const api::v1::PersistentVolume& pv);

// The region of GCE zones "<locale>-<region>-<zone>" ("us-central1-a" is in
// "us-central1"), which must all share it.
absl::StatusOr<std::string> GCERegionFromZones(std::span<const std::string_view> zones);

}  // namespace schedkit::plugins::csi_translation

#endif  // SCHEDKIT_LIB_PLUGINS_NODEVOLUMELIMITS_CSI_TRANSLATION_H_
