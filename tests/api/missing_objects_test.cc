// A dump that names objects it lacks is read, as the API server and
// kube-scheduler's caches hold it; FindMissingObjects says what is missing.
#include "schedkit/api/missing_objects.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "schedkit/api/decode.h"
#include "schedkit/api/v1/kinds.h"

namespace {

namespace api = schedkit::api;

api::DecodedCluster MustDecode(const std::string& text) {
  absl::StatusOr<api::DecodedCluster> d = api::Decode(text, "dump.yaml");
  INFO(d.status().ToString());
  REQUIRE(d.ok());
  return *std::move(d);
}

const char* const kClaimOfGold =
    "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c, namespace: shop}\n"
    "spec: {accessModes: [ReadWriteOnce], storageClassName: gold, resources: {requests: {storage: 1Gi}}}\n";

TEST_CASE("A pod bound to a node the dump lacks is read and named once", "[decode][missing]") {
  absl::StatusOr<api::DecodedCluster> loaded =
      api::LoadPaths({std::string(SCHEDKIT_TESTS_DIR) + "/api/testdata/missing_node.yaml"});
  INFO(loaded.status().ToString());
  REQUIRE(loaded.ok());  // was: "Pod default/orphan: spec.nodeName: unknown Node" and no cluster
  CHECK(loaded->objects.Of<api::v1::Pod>().size() == 1);
  const std::vector<api::MissingObject> missing = api::FindMissingObjects(loaded->objects);
  REQUIRE(missing.size() == 1);
  CHECK(missing[0].kind == "Node");
  CHECK(missing[0].name == "ghost-node");
  CHECK(missing[0].first_reference == "Pod default/orphan: spec.nodeName");
  CHECK(missing[0].references == 1);
  CHECK(api::DescribeMissingObjects(loaded->objects) ==
        "the cluster lacks 1 object that others name: Node \"ghost-node\" (Pod default/orphan: spec.nodeName); "
        "scheduling the rest as kube-scheduler would");
}

TEST_CASE("Claims, claim templates and ephemeral volumes naming a missing class", "[decode][missing]") {
  const api::DecodedCluster d = MustDecode(
      std::string(kClaimOfGold) +
      "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c}]\n"
      "  volumes: [{name: e, ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce], "
      "storageClassName: gold, resources: {requests: {storage: 1Gi}}}}}}]\n"
      "---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  replicas: 3\n"
      "  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n"
      "    spec: {containers: [{name: c}]}\n  volumeClaimTemplates:\n"
      "  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], storageClassName: fast, "
      "resources: {requests: {storage: 1Gi}}}\n"
      "---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: standard}\n"
      "provisioner: example.com/csi\n"
      "---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: ok, namespace: shop}\n"
      "spec: {accessModes: [ReadWriteOnce], storageClassName: standard, resources: {requests: {storage: 1Gi}}}\n");
  CHECK(api::ValidateCluster(d.objects).ok());
  const std::vector<api::MissingObject> missing = api::FindMissingObjects(d.objects);
  REQUIRE(missing.size() == 2);
  CHECK(missing[0].name == "gold");
  CHECK(missing[0].kind == "StorageClass");
  CHECK(missing[0].first_reference == "PersistentVolumeClaim shop/c: spec.storageClassName");
  CHECK(missing[0].references == 2);
  CHECK(missing[1].name == "fast");
  CHECK(missing[1].first_reference == "StatefulSet default/db: spec.volumeClaimTemplates[0].spec.storageClassName");
  CHECK(missing[1].references == 1);
  CHECK(api::DescribeMissingObjects(d.objects) ==
        "the cluster lacks 2 objects that others name: StorageClass \"gold\" (PersistentVolumeClaim shop/c: "
        "spec.storageClassName, and 1 more), StorageClass \"fast\" (StatefulSet default/db: "
        "spec.volumeClaimTemplates[0].spec.storageClassName); scheduling the rest as kube-scheduler would");
}

TEST_CASE("Nothing missing is an empty description; duplicates still fail", "[decode][missing]") {
  const api::DecodedCluster d = MustDecode(
      "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
      "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {nodeName: n1, containers: [{name: c}]}\n"
      "---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: plain}\n"
      "spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n");
  CHECK(api::FindMissingObjects(d.objects).empty());
  CHECK(api::DescribeMissingObjects(d.objects).empty());

  const api::DecodedCluster twice = MustDecode(std::string(kClaimOfGold) + "---\n" + kClaimOfGold);
  CHECK(std::string(api::ValidateCluster(twice.objects).message()) ==
        "PersistentVolumeClaim shop/c: duplicate name (persistentvolumeclaims #1 and #2 in load order)");
}

}  // namespace
