// The workload kinds PodTopologySpread's default selector reads — Service,
// ReplicationController, ReplicaSet, StatefulSet — decode from what kubectl
// prints (fields the scheduler does not read are ignored), take the API
// server's namespace default, are listed by StaticClusterLister, and bad
// ones are refused naming the object and field.
#include <catch2/catch.hpp>
#include <string>

#include "schedkit/api/decode.h"
#include "schedkit/api/v1/kinds.h"
#include "schedkit/api/lister.h"

namespace schedkit {
namespace {

using Catch::Matchers::Contains;

constexpr char kWorkloads[] = R"(apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  selector: {app: web}
  ports: [{port: 80}]
---
apiVersion: v1
kind: ReplicationController
metadata: {name: legacy}
spec:
  replicas: 2
  selector: {app: legacy}
  template: {metadata: {labels: {app: legacy}}, spec: {containers: [{name: c, image: x}]}}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: web-7d4b9
  namespace: shop
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: d1, controller: true}]
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
    matchExpressions: [{key: tier, operator: In, values: [front]}]
  template: {metadata: {labels: {app: web, tier: front}}, spec: {containers: [{name: c, image: x}]}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  serviceName: db
  selector: {matchLabels: {app: db}}
)";

TEST_CASE("Workload kinds decode with the fields the scheduler reads", "[decode][workloads]") {
  absl::StatusOr<api::DecodedCluster> d = api::Decode(kWorkloads, "workloads.yaml");
  INFO(d.status().ToString());
  REQUIRE(d.ok());
  CHECK(d->skipped_kinds.empty());
  const api::ObjectSet& c = d->objects;
  REQUIRE(c.Of<api::v1::Service>().size() == 1);
  CHECK(c.Of<api::v1::Service>()[0].metadata().namespace_() == "shop");
  CHECK(c.Of<api::v1::Service>()[0].spec().selector().at("app") == "web");
  REQUIRE(c.Of<api::v1::ReplicationController>().size() == 1);
  CHECK(c.Of<api::v1::ReplicationController>()[0].metadata().namespace_() == "default");  // the API server's default
  CHECK(c.Of<api::v1::ReplicationController>()[0].spec().replicas() == 2);
  CHECK(c.Of<api::v1::ReplicationController>()[0].spec().selector().at("app") == "legacy");
  REQUIRE(c.Of<api::v1::ReplicaSet>().size() == 1);
  const api::v1::ReplicaSet& rs = c.Of<api::v1::ReplicaSet>()[0];
  CHECK(rs.spec().replicas() == 3);
  REQUIRE(rs.spec().has_selector());
  CHECK(rs.spec().selector().match_labels().at("app") == "web");
  CHECK(rs.spec().selector().match_expressions(0).operator_() == "In");
  CHECK(rs.metadata().owner_references(0).kind() == "Deployment");
  REQUIRE(c.Of<api::v1::StatefulSet>().size() == 1);
  CHECK(c.Of<api::v1::StatefulSet>()[0].spec().service_name() == "db");
  CHECK_FALSE(c.Of<api::v1::StatefulSet>()[0].spec().has_replicas());

  const api::StaticClusterLister lister(c);
  CHECK(lister.List<api::v1::Service>()->size() == 1);
  CHECK(lister.List<api::v1::ReplicationController>()->size() == 1);
  CHECK(lister.List<api::v1::ReplicaSet>()->size() == 1);
  CHECK(lister.List<api::v1::StatefulSet>()->size() == 1);
}

TEST_CASE("Bad workloads are refused naming the object and field", "[decode][workloads][errors]") {
  struct Case {
    std::string text;
    std::string want;
  };
  for (const Case& c : std::vector<Case>{
           {"apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: rs}\nspec: {replicas: 1}\n",
            "w.yaml: document 1 (ReplicaSet rs): spec.selector: required value"},
           {"apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: ss}\n"
            "spec: {selector: {matchExpressions: [{key: a, operator: Near}]}}\n",
            "w.yaml: document 1 (StatefulSet ss): spec.selector.matchExpressions[0].operator"},
           {"apiVersion: v1\nkind: ReplicationController\nmetadata: {name: rc}\nspec: {replicas: -1}\n",
            "w.yaml: document 1 (ReplicationController rc): spec.replicas: must be greater than or "
            "equal to 0, got -1"},
           {"apiVersion: v1\nkind: Service\nmetadata: {name: Bad_Name}\n",
            "w.yaml: document 1 (Service Bad_Name): metadata.name"},
           {"apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {selector: [a]}\n",
            "w.yaml: document 1 (Service s): spec.selector"},
       }) {
    absl::StatusOr<api::DecodedCluster> d = api::Decode(c.text, "w.yaml");
    INFO(c.text);
    REQUIRE_FALSE(d.ok());
    CHECK(d.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK_THAT(std::string(d.status().message()), Contains(c.want));
  }
  // Two objects of one kind with one namespace/name.
  absl::StatusOr<api::DecodedCluster> twice = api::Decode(
      "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: s}\n",
      "w.yaml");
  REQUIRE(twice.ok());
  const absl::Status s = api::ValidateCluster(twice->objects);
  CHECK_THAT(std::string(s.message()), Contains("Service default/s: duplicate name (services #1 and #2"));
}

}  // namespace
}  // namespace schedkit
