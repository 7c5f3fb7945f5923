// The stand-in resource-claim controller makes the claims pods name through
// templates as kube-controller-manager does (pkg/controller/resourceclaim,
// v1.37): the template's spec and metadata, the pod as owner, a generated
// name, and the pod's status recording it.
#include <catch2/catch.hpp>
#include <string>

#include "schedkit/api/decode.h"
#include "schedkit/api/v1/kinds.h"
#include "sim/claim_controller.h"

namespace schedkit::sim {
namespace {

constexpr char kCluster[] = R"(
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: two-gpus, namespace: ml}
spec:
  metadata:
    labels: {team: ml}
    annotations: {note: from-template}
  spec:
    devices:
      requests:
      - name: gpus
        exactly: {deviceClassName: gpu.example.com, count: 2}
---
apiVersion: v1
kind: Pod
metadata: {name: trainer, namespace: ml, uid: trainer-uid}
spec:
  containers: [{name: main}]
  resourceClaims:
  - {name: gpus, resourceClaimTemplateName: two-gpus}
  - {name: nic, resourceClaimName: shared-nic}
  - {name: missing, resourceClaimTemplateName: no-such-template}
---
apiVersion: v1
kind: Pod
metadata: {name: a-pod-with-a-rather-long-name-for-its-job, namespace: ml, uid: long-uid}
spec:
  containers: [{name: main}]
  resourceClaims:
  - {name: a-claim-with-an-even-longer-name-than-the-pod, resourceClaimTemplateName: two-gpus}
---
apiVersion: v1
kind: Pod
metadata: {name: recorded, namespace: ml, uid: recorded-uid}
spec:
  containers: [{name: main}]
  resourceClaims:
  - {name: gpus, resourceClaimTemplateName: two-gpus}
status:
  resourceClaimStatuses:
  - {name: gpus, resourceClaimName: recorded-gpus-abcde}
)";

TEST_CASE("claims are made from templates as the resource-claim controller makes them", "[sim][dra]") {
  absl::StatusOr<api::DecodedCluster> d = api::Decode(kCluster, "cluster.yaml");
  REQUIRE(d.ok());
  api::ObjectSet cluster = d->objects;
  const std::vector<std::string> made = CreateClaimsFromTemplates(cluster);
  REQUIRE(made.size() == 2);

  const auto claims = cluster.Of<api::v1::ResourceClaim>();
  REQUIRE(claims.size() == 2);
  const api::v1::ResourceClaim& claim = claims[0];
  const api::v1::ObjectMeta& meta = claim.metadata();
  CHECK(meta.namespace_() == "ml");
  CHECK(meta.generate_name() == "trainer-gpus-");
  REQUIRE(meta.name().size() == std::string("trainer-gpus-").size() + 5);
  CHECK(meta.name().starts_with("trainer-gpus-"));
  CHECK(made[0] == "ml/" + meta.name());
  CHECK(meta.labels().at("team") == "ml");
  CHECK(meta.annotations().at("note") == "from-template");
  CHECK(meta.annotations().at("resource.kubernetes.io/pod-claim-name") == "gpus");
  REQUIRE(meta.owner_references_size() == 1);
  CHECK(meta.owner_references(0).kind() == "Pod");
  CHECK(meta.owner_references(0).name() == "trainer");
  CHECK(meta.owner_references(0).uid() == "trainer-uid");
  CHECK(meta.owner_references(0).controller());
  CHECK(claim.spec().devices().requests(0).exactly().count() == 2);

  // The pod records its claim; a claim by name and a missing template record nothing.
  const api::v1::Pod& trainer = cluster.Of<api::v1::Pod>()[0];
  REQUIRE(trainer.status().resource_claim_statuses_size() == 1);
  CHECK(trainer.status().resource_claim_statuses(0).name() == "gpus");
  CHECK(trainer.status().resource_claim_statuses(0).resource_claim_name() == meta.name());

  // Past 57 characters both parts are cut in proportion (and, as upstream's,
  // the trailing '-' is lost), leaving room for the five characters.
  const api::v1::ObjectMeta& long_meta = claims[1].metadata();
  CHECK(long_meta.generate_name() == "a-pod-with-a-rather-long-n-a-claim-with-an-even-longer-n");
  CHECK(long_meta.name().size() == 56 + 5);

  // A pod that already records its claim (a dump) is left alone.
  const api::v1::Pod& recorded = cluster.Of<api::v1::Pod>()[2];
  REQUIRE(recorded.status().resource_claim_statuses_size() == 1);
  CHECK(recorded.status().resource_claim_statuses(0).resource_claim_name() == "recorded-gpus-abcde");

  // The same input gives the same names: runs repeat.
  api::ObjectSet again = d->objects;
  CreateClaimsFromTemplates(again);
  CHECK(again.Of<api::v1::ResourceClaim>()[0].metadata().name() == meta.name());
}

}  // namespace
}  // namespace schedkit::sim
