// The storage kinds the volume plugins read — PersistentVolume,
// PersistentVolumeClaim, StorageClass, CSINode, CSIDriver,
// CSIStorageCapacity, VolumeAttachment — and pod volumes of every source
// they look at decode from what kubectl prints, take the API server's
// defaults, are listed by StaticClusterLister, and bad ones are refused
// naming the object and field.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "schedkit/api/decode.h"
#include "schedkit/api/v1/kinds.h"
#include "schedkit/api/lister.h"

namespace schedkit {
namespace {

using Catch::Matchers::Contains;

constexpr char kStorage[] = R"(apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: fast}
provisioner: pd.csi.storage.gke.io
volumeBindingMode: WaitForFirstConsumer
allowedTopologies:
- matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [zone-a, zone-b]}]
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: slow}
provisioner: kubernetes.io/no-provisioner
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-1, labels: {topology.kubernetes.io/zone: zone-a}}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: slow
  claimRef: {namespace: shop, name: data, uid: u1}
  persistentVolumeReclaimPolicy: Retain
  csi: {driver: pd.csi.storage.gke.io, volumeHandle: disk-1}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [zone-a]}]
status: {phase: Bound}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: shop}
spec:
  accessModes: [ReadWriteOncePod]
  resources: {requests: {storage: 5Gi}}
  storageClassName: slow
  volumeName: pv-1
status: {phase: Bound}
---
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: node-1}
spec:
  drivers: [{name: pd.csi.storage.gke.io, nodeID: n1, topologyKeys: [topology.kubernetes.io/zone], allocatable: {count: 15}}]
---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: pd.csi.storage.gke.io}
spec: {attachRequired: true, storageCapacity: true}
---
apiVersion: storage.k8s.io/v1
kind: CSIStorageCapacity
metadata: {name: cap-a, namespace: kube-system}
storageClassName: fast
capacity: 100Gi
maximumVolumeSize: 50Gi
nodeTopology: {matchLabels: {topology.kubernetes.io/zone: zone-a}}
---
apiVersion: storage.k8s.io/v1
kind: VolumeAttachment
metadata: {name: csi-123}
spec: {attacher: pd.csi.storage.gke.io, nodeName: node-1, source: {persistentVolumeName: pv-1}}
status: {attached: true}
---
apiVersion: v1
kind: Pod
metadata: {name: db-0, namespace: shop}
spec:
  containers: [{name: c, image: x}]
  volumes:
  - {name: data, persistentVolumeClaim: {claimName: data}}
  - name: scratch
    ephemeral:
      volumeClaimTemplate:
        spec: {accessModes: [ReadWriteOnce], storageClassName: fast, resources: {requests: {storage: 1Gi}}}
  - {name: gce, gcePersistentDisk: {pdName: pd-1, readOnly: true}}
  - {name: ebs, awsElasticBlockStore: {volumeID: vol-1}}
  - {name: ceph, rbd: {monitors: [10.0.0.1:6789], image: img, pool: fast}}
  - {name: lun, iscsi: {targetPortal: 10.0.0.9:3260, iqn: iqn.x:a, lun: 0}}
  - {name: inline, csi: {driver: inline.csi.example.com, volumeAttributes: {size: 1Gi}}}
  - {name: cfg, configMap: {name: cfg}}
)";

TEST_CASE("Storage kinds decode with the fields the scheduler reads", "[decode][storage]") {
  absl::StatusOr<api::DecodedCluster> d = api::Decode(kStorage, "storage.yaml");
  INFO(d.status().ToString());
  REQUIRE(d.ok());
  CHECK(d->skipped_kinds.empty());
  const api::ObjectSet& c = d->objects;
  REQUIRE(api::ValidateCluster(c).ok());

  REQUIRE(c.Of<api::v1::StorageClass>().size() == 2);
  CHECK(c.Of<api::v1::StorageClass>()[0].volume_binding_mode() == "WaitForFirstConsumer");
  CHECK(c.Of<api::v1::StorageClass>()[0].allowed_topologies(0).match_label_expressions(0).values(1) == "zone-b");
  CHECK(c.Of<api::v1::StorageClass>()[1].volume_binding_mode() == "Immediate");  // the API server's defaults
  CHECK(c.Of<api::v1::StorageClass>()[1].reclaim_policy() == "Delete");

  REQUIRE(c.Of<api::v1::PersistentVolume>().size() == 1);
  const api::v1::PersistentVolume& pv = c.Of<api::v1::PersistentVolume>()[0];
  CHECK(pv.spec().capacity().at("storage") == "10Gi");
  CHECK(pv.spec().claim_ref().namespace_() == "shop");
  CHECK(pv.spec().csi().volume_handle() == "disk-1");
  CHECK(pv.spec().node_affinity().required().node_selector_terms(0).match_expressions(0).values(0) == "zone-a");
  CHECK(pv.status().phase() == "Bound");

  REQUIRE(c.Of<api::v1::PersistentVolumeClaim>().size() == 1);
  const api::v1::PersistentVolumeClaim& pvc = c.Of<api::v1::PersistentVolumeClaim>()[0];
  CHECK(pvc.spec().access_modes(0) == "ReadWriteOncePod");
  CHECK(pvc.spec().resources().requests().at("storage") == "5Gi");
  CHECK(pvc.spec().volume_name() == "pv-1");

  REQUIRE(c.Of<api::v1::CSINode>().size() == 1);
  CHECK(c.Of<api::v1::CSINode>()[0].spec().drivers(0).node_id() == "n1");
  CHECK(c.Of<api::v1::CSINode>()[0].spec().drivers(0).allocatable().count() == 15);
  REQUIRE(c.Of<api::v1::CSIDriver>().size() == 1);
  CHECK(c.Of<api::v1::CSIDriver>()[0].spec().storage_capacity());
  REQUIRE(c.Of<api::v1::CSIStorageCapacity>().size() == 1);
  CHECK(c.Of<api::v1::CSIStorageCapacity>()[0].capacity() == "100Gi");
  CHECK(c.Of<api::v1::CSIStorageCapacity>()[0].node_topology().match_labels().at("topology.kubernetes.io/zone") == "zone-a");
  REQUIRE(c.Of<api::v1::VolumeAttachment>().size() == 1);
  CHECK(c.Of<api::v1::VolumeAttachment>()[0].spec().source().persistent_volume_name() == "pv-1");

  const auto& volumes = c.Of<api::v1::Pod>()[0].spec().volumes();
  REQUIRE(volumes.size() == 8);
  CHECK(volumes[0].persistent_volume_claim().claim_name() == "data");
  CHECK(volumes[1].ephemeral().volume_claim_template().spec().storage_class_name() == "fast");
  CHECK(volumes[2].gce_persistent_disk().read_only());
  CHECK(volumes[3].aws_elastic_block_store().volume_id() == "vol-1");
  CHECK(volumes[4].rbd().pool() == "fast");
  CHECK(volumes[5].iscsi().iqn() == "iqn.x:a");
  CHECK(volumes[6].csi().driver() == "inline.csi.example.com");
  CHECK(volumes[7].name() == "cfg");  // a source the scheduler does not read

  const api::StaticClusterLister lister(c);
  CHECK(lister.List<api::v1::PersistentVolume>()->size() == 1);
  CHECK(lister.List<api::v1::PersistentVolumeClaim>()->size() == 1);
  CHECK(lister.List<api::v1::StorageClass>()->size() == 2);
  CHECK(lister.List<api::v1::CSINode>()->size() == 1);
  CHECK(lister.List<api::v1::CSIDriver>()->size() == 1);
  CHECK(lister.List<api::v1::CSIStorageCapacity>()->size() == 1);
  CHECK(lister.List<api::v1::VolumeAttachment>()->size() == 1);
}

TEST_CASE("Bad storage objects are refused naming the object and field", "[decode][storage][errors]") {
  struct Case {
    std::string text;
    std::string want;
  };
  const std::string pv = "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv}\n";
  const std::string pvc = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\n";
  for (const Case& c : std::vector<Case>{
           {pv + "spec: {capacity: {storage: 10Gi}, accessModes: [ReadWriteSometimes]}\n",
            "s.yaml: document 1 (PersistentVolume pv): spec.accessModes[0]: unsupported value "
            "\"ReadWriteSometimes\""},
           {pv + "spec: {capacity: {storage: ten}, accessModes: [ReadWriteOnce]}\n",
            "s.yaml: document 1 (PersistentVolume pv): spec.capacity.storage"},
           {pv + "spec:\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n"
                 "  nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: z, operator: Near}]}]}}\n",
            "s.yaml: document 1 (PersistentVolume pv): "
            "spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].operator"},
           {pv + "spec:\n  capacity: {storage: 1Gi}\n  accessModes: [ReadWriteOnce]\n"
                 "  nodeAffinity: {required: {nodeSelectorTerms: []}}\n",
            "spec.nodeAffinity.required.nodeSelectorTerms: must have at least one node selector term"},
           {pv + "spec: {accessModes: [ReadWriteOnce]}\n", "spec.capacity.storage: required value"},
           {pvc + "spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Zi}}}\n",
            "s.yaml: document 1 (PersistentVolumeClaim c): spec.resources.requests.storage"},
           {pvc + "spec: {resources: {requests: {storage: 1Gi}}}\n",
            "(PersistentVolumeClaim c): spec.accessModes: at least 1 access mode is required"},
           {pvc + "spec: {accessModes: [ReadWriteOncePod, ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n",
            "spec.accessModes: may not use ReadWriteOncePod with other access modes"},
           {"apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: s}\nprovisioner: p\n"
            "volumeBindingMode: Later\n",
            "s.yaml: document 1 (StorageClass s): volumeBindingMode: unsupported value \"Later\""},
           {"apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: s}\n",
            "(StorageClass s): provisioner: required value"},
           {"apiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: n}\n"
            "spec: {drivers: [{name: d, allocatable: {count: -1}}]}\n",
            "(CSINode n): spec.drivers[0].allocatable.count: must be greater than or equal to 0"},
           {"apiVersion: storage.k8s.io/v1\nkind: CSIStorageCapacity\nmetadata: {name: c}\n"
            "storageClassName: s\ncapacity: lots\n",
            "(CSIStorageCapacity c): capacity"},
           {"apiVersion: storage.k8s.io/v1\nkind: VolumeAttachment\nmetadata: {name: v}\nspec: {attacher: a}\n",
            "(VolumeAttachment v): spec.nodeName: required value"},
           {"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n"
            "  volumes: [{name: e, ephemeral: {volumeClaimTemplate: {spec: {accessModes: [Sometimes]}}}}]\n",
            "(Pod p): spec.volumes[0].ephemeral.volumeClaimTemplate.spec.accessModes[0]"},
           {"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n"
            "  volumes: [{name: g, gcePersistentDisk: {readOnly: true}}]\n",
            "(Pod p): spec.volumes[0].gcePersistentDisk.pdName: required value"},
       }) {
    absl::StatusOr<api::DecodedCluster> d = api::Decode(c.text, "s.yaml");
    INFO(c.text);
    REQUIRE_FALSE(d.ok());
    CHECK(d.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK_THAT(std::string(d.status().message()), Contains(c.want));
  }
}

TEST_CASE("Duplicate volumes fail the cluster", "[decode][storage][errors]") {
  const std::string pv =
      "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv}\n"
      "spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce]}\n";
  absl::StatusOr<api::DecodedCluster> twice = api::Decode(pv + "---\n" + pv, "s.yaml");
  REQUIRE(twice.ok());
  CHECK_THAT(std::string(api::ValidateCluster(twice->objects).message()),
             Contains("PersistentVolume pv: duplicate name (persistentvolumes #1 and #2"));
}

}  // namespace
}  // namespace schedkit
