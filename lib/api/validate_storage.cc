// Validation of the storage objects and of pod volumes, as the API server
// validates the fields the volume plugins read.
#include <string>

#include "api/validate.h"
#include "schedkit/api/v1/persistent_volume.h"
#include "schedkit/api/v1/persistent_volume_claim.h"
#include "schedkit/api/v1/storage_class.h"
#include "schedkit/api/v1/csi_node.h"
#include "schedkit/api/v1/csi_driver.h"
#include "schedkit/api/v1/csi_storage_capacity.h"
#include "schedkit/api/v1/volume_attachment.h"
#include "api/validate_fields.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::api::internal {
namespace {


template <typename Repeated>
absl::Status ValidateAccessModes(std::string_view path, const Repeated& modes) {
  if (modes.empty()) return FieldError(path, "at least 1 access mode is required");
  for (int i = 0; i < modes.size(); ++i) {
    SCHEDKIT_RETURN_IF_ERROR(OneOf(schedkit::StrCat(path, "[", i, "]"), modes[i],
                                   {"ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"}));
    if (modes[i] == "ReadWriteOncePod" && modes.size() > 1) {
      return FieldError(path, "may not use ReadWriteOncePod with other access modes");
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateVolumeMode(std::string_view path, bool has, const std::string& mode) {
  if (!has) return absl::OkStatus();
  return OneOf(path, mode, {"Filesystem", "Block"});
}

// A storage request or capacity: required, and a quantity.
template <typename Map>
absl::Status ValidateStorageSize(std::string_view path, const Map& list) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateResourceList(path, list));
  if (!list.contains("storage")) return FieldError(schedkit::StrCat(path, ".storage"), "required value");
  return absl::OkStatus();
}

absl::Status ValidateOptionalQuantity(std::string_view path, bool has, const std::string& text) {
  if (!has) return absl::OkStatus();
  auto q = Quantity::Parse(text);
  if (!q.ok()) return FieldError(path, std::string(q.status().message()));
  if (q->IsNegative()) return FieldError(path, schedkit::StrCat("must be non-negative, got \"", text, "\""));
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateClaimSpec(std::string_view path, const v1::PersistentVolumeClaimSpec& spec) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateAccessModes(schedkit::StrCat(path, ".accessModes"), spec.access_modes()));
  SCHEDKIT_RETURN_IF_ERROR(
      ValidateStorageSize(schedkit::StrCat(path, ".resources.requests"), spec.resources().requests()));
  SCHEDKIT_RETURN_IF_ERROR(
      ValidateResourceList(schedkit::StrCat(path, ".resources.limits"), spec.resources().limits()));
  if (spec.has_selector()) {
    SCHEDKIT_RETURN_IF_ERROR(ValidateLabelSelector(schedkit::StrCat(path, ".selector"), spec.selector()));
  }
  if (spec.has_storage_class_name() && !spec.storage_class_name().empty()) {
    SCHEDKIT_RETURN_IF_ERROR(
        ValidateName(schedkit::StrCat(path, ".storageClassName"), spec.storage_class_name()));
  }
  return ValidateVolumeMode(schedkit::StrCat(path, ".volumeMode"), spec.has_volume_mode(), spec.volume_mode());
}

absl::Status ValidatePodVolumes(const google::protobuf::RepeatedPtrField<v1::Volume>& volumes) {
  for (int i = 0; i < volumes.size(); ++i) {
    const v1::Volume& v = volumes[i];
    const std::string p = schedkit::StrCat("spec.volumes[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(Required(p + ".name", v.name()));
    if (v.has_ephemeral()) {
      if (!v.ephemeral().has_volume_claim_template()) {
        return FieldError(p + ".ephemeral.volumeClaimTemplate", "required value");
      }
      SCHEDKIT_RETURN_IF_ERROR(
          ValidateClaimSpec(p + ".ephemeral.volumeClaimTemplate.spec", v.ephemeral().volume_claim_template().spec()));
    }
    if (v.has_gce_persistent_disk()) {
      SCHEDKIT_RETURN_IF_ERROR(Required(p + ".gcePersistentDisk.pdName", v.gce_persistent_disk().pd_name()));
    }
    if (v.has_aws_elastic_block_store()) {
      SCHEDKIT_RETURN_IF_ERROR(
          Required(p + ".awsElasticBlockStore.volumeID", v.aws_elastic_block_store().volume_id()));
    }
    if (v.has_rbd()) {
      if (v.rbd().monitors().empty()) return FieldError(p + ".rbd.monitors", "required value");
      SCHEDKIT_RETURN_IF_ERROR(Required(p + ".rbd.image", v.rbd().image()));
    }
    if (v.has_iscsi()) {
      SCHEDKIT_RETURN_IF_ERROR(Required(p + ".iscsi.targetPortal", v.iscsi().target_portal()));
      SCHEDKIT_RETURN_IF_ERROR(Required(p + ".iscsi.iqn", v.iscsi().iqn()));
    }
    if (v.has_csi()) SCHEDKIT_RETURN_IF_ERROR(Required(p + ".csi.driver", v.csi().driver()));
  }
  return absl::OkStatus();
}


}  // namespace schedkit::api::internal

namespace schedkit::api {

// The per-kind checks are the kinds' traits; the field helpers stay internal.
using namespace internal;  // NOLINT(build/namespaces)

// The API server's defaults, which the volume plugins read as given.
void KindTraits<v1::StorageClass>::ApplyDefaults(v1::StorageClass& sc) {
  if (!sc.has_volume_binding_mode()) sc.set_volume_binding_mode("Immediate");
  if (!sc.has_reclaim_policy()) sc.set_reclaim_policy("Delete");
}

absl::Status KindTraits<v1::PersistentVolume>::Validate(const v1::PersistentVolume& pv) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateMeta("metadata", pv.metadata()));
  const v1::PersistentVolumeSpec& spec = pv.spec();
  SCHEDKIT_RETURN_IF_ERROR(ValidateStorageSize("spec.capacity", spec.capacity()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateAccessModes("spec.accessModes", spec.access_modes()));
  if (spec.has_claim_ref()) SCHEDKIT_RETURN_IF_ERROR(Required("spec.claimRef.name", spec.claim_ref().name()));
  if (spec.has_node_affinity()) {
    const v1::NodeSelector& required = spec.node_affinity().required();
    if (!spec.node_affinity().has_required()) return FieldError("spec.nodeAffinity.required", "required value");
    if (required.node_selector_terms().empty()) {
      return FieldError("spec.nodeAffinity.required.nodeSelectorTerms", "must have at least one node selector term");
    }
    for (int i = 0; i < required.node_selector_terms_size(); ++i) {
      const v1::NodeSelectorTerm& term = required.node_selector_terms(i);
      const std::string p = schedkit::StrCat("spec.nodeAffinity.required.nodeSelectorTerms[", i, "]");
      if (term.match_expressions().empty() && term.match_fields().empty()) {
        return FieldError(p, "must have at least one node selector requirement");
      }
      SCHEDKIT_RETURN_IF_ERROR(ValidateNodeSelectorTerm(p, term));
    }
  }
  SCHEDKIT_RETURN_IF_ERROR(ValidateVolumeMode("spec.volumeMode", spec.has_volume_mode(), spec.volume_mode()));
  SCHEDKIT_RETURN_IF_ERROR(OneOf("spec.persistentVolumeReclaimPolicy", spec.persistent_volume_reclaim_policy(),
                                 {"", "Retain", "Delete", "Recycle"}));
  if (spec.has_csi()) {
    SCHEDKIT_RETURN_IF_ERROR(Required("spec.csi.driver", spec.csi().driver()));
    SCHEDKIT_RETURN_IF_ERROR(Required("spec.csi.volumeHandle", spec.csi().volume_handle()));
  }
  return OneOf("status.phase", pv.status().phase(), {"", "Pending", "Available", "Bound", "Released", "Failed"});
}

absl::Status KindTraits<v1::PersistentVolumeClaim>::Validate(const v1::PersistentVolumeClaim& pvc) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateMeta("metadata", pvc.metadata()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateClaimSpec("spec", pvc.spec()));
  return OneOf("status.phase", pvc.status().phase(), {"", "Pending", "Bound", "Lost"});
}

absl::Status KindTraits<v1::StorageClass>::Validate(const v1::StorageClass& sc) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateMeta("metadata", sc.metadata()));
  SCHEDKIT_RETURN_IF_ERROR(Required("provisioner", sc.provisioner()));
  if (sc.has_reclaim_policy()) SCHEDKIT_RETURN_IF_ERROR(OneOf("reclaimPolicy", sc.reclaim_policy(), {"Delete", "Retain"}));
  if (sc.has_volume_binding_mode()) {
    SCHEDKIT_RETURN_IF_ERROR(
        OneOf("volumeBindingMode", sc.volume_binding_mode(), {"Immediate", "WaitForFirstConsumer"}));
  }
  for (int i = 0; i < sc.allowed_topologies_size(); ++i) {
    const v1::TopologySelectorTerm& term = sc.allowed_topologies(i);
    for (int j = 0; j < term.match_label_expressions_size(); ++j) {
      const auto& r = term.match_label_expressions(j);
      const std::string p = schedkit::StrCat("allowedTopologies[", i, "].matchLabelExpressions[", j, "]");
      SCHEDKIT_RETURN_IF_ERROR(Required(p + ".key", r.key()));
      if (r.values().empty()) return FieldError(p + ".values", "must specify as least one value");
    }
  }
  return absl::OkStatus();
}

absl::Status KindTraits<v1::CSINode>::Validate(const v1::CSINode& node) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateMeta("metadata", node.metadata()));
  for (int i = 0; i < node.spec().drivers_size(); ++i) {
    const v1::CSINodeDriver& d = node.spec().drivers(i);
    const std::string p = schedkit::StrCat("spec.drivers[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(Required(p + ".name", d.name()));
    if (d.allocatable().has_count() && d.allocatable().count() < 0) {
      return FieldError(p + ".allocatable.count",
                        schedkit::StrCat("must be greater than or equal to 0, got ", d.allocatable().count()));
    }
  }
  return absl::OkStatus();
}

absl::Status KindTraits<v1::CSIDriver>::Validate(const v1::CSIDriver& driver) { return ValidateMeta("metadata", driver.metadata()); }

absl::Status KindTraits<v1::CSIStorageCapacity>::Validate(const v1::CSIStorageCapacity& c) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateMeta("metadata", c.metadata()));
  SCHEDKIT_RETURN_IF_ERROR(Required("storageClassName", c.storage_class_name()));
  if (c.has_node_topology()) SCHEDKIT_RETURN_IF_ERROR(ValidateLabelSelector("nodeTopology", c.node_topology()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateOptionalQuantity("capacity", c.has_capacity(), c.capacity()));
  return ValidateOptionalQuantity("maximumVolumeSize", c.has_maximum_volume_size(), c.maximum_volume_size());
}

absl::Status KindTraits<v1::VolumeAttachment>::Validate(const v1::VolumeAttachment& va) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateMeta("metadata", va.metadata()));
  SCHEDKIT_RETURN_IF_ERROR(Required("spec.attacher", va.spec().attacher()));
  return Required("spec.nodeName", va.spec().node_name());
}

}  // namespace schedkit::api
