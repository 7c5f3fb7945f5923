// Tests for schedkit::api::EncodeClusterJson: what it writes decodes back to
// the same objects (the fixture sets every schema field), and the text is
// what kubectl and the Go decoders expect.
#include "schedkit/api/encode.h"

#include <catch2/catch.hpp>

#include <string>

#include "google/protobuf/util/message_differencer.h"
#include "nlohmann/json.hpp"
#include "schedkit/api/decode.h"
#include "schedkit/api/v1/namespace.h"
#include "schedkit/api/v1/node.h"
#include "schedkit/api/v1/pod.h"
#include "testing/object_set_differences.h"

namespace {

namespace api = schedkit::api;
using google::protobuf::util::MessageDifferencer;

api::ObjectSet Load(const std::string& relative) {
  absl::StatusOr<api::DecodedCluster> loaded =
      api::LoadPaths({std::string(SCHEDKIT_TESTS_DIR) + "/api/testdata/" + relative});
  INFO(loaded.status().ToString());
  REQUIRE(loaded.ok());
  return loaded->objects;
}

TEST_CASE("EncodeClusterJson output decodes to the objects it was given", "[encode]") {
  for (const char* fixture : {"cluster.json", "cluster.yaml", "dir"}) {
    INFO(fixture);
    const api::ObjectSet original = Load(fixture);
    REQUIRE(!original.Of<api::v1::Pod>().empty());
    absl::StatusOr<api::DecodedCluster> again = api::Decode(api::EncodeClusterJson(original), "encoded");
    INFO(again.status().ToString());
    REQUIRE(again.ok());
    CHECK(again->skipped_kinds.empty());
    CHECK(schedkit::testing::ObjectSetDifferences(original, again->objects).empty());
  }
}

TEST_CASE("EncodeClusterJson writes a List with kinds, numbers as numbers, unset fields omitted", "[encode]") {
  api::ObjectSet cluster;
  api::v1::Pod pod;
  pod.mutable_metadata()->set_name("p");
  pod.mutable_spec()->set_priority(0);  // optional: set to zero is still written
  api::v1::Toleration& t = *pod.mutable_spec()->add_tolerations();
  t.set_key("k");
  t.set_toleration_seconds(30);
  cluster.Add(std::move(pod));
  api::v1::Node node;
  node.mutable_metadata()->set_name("n");
  cluster.Add(std::move(node));
  api::v1::Namespace ns;
  ns.mutable_metadata()->set_name("ns");
  cluster.Add(std::move(ns));

  const nlohmann::json list = nlohmann::json::parse(api::EncodeClusterJson(cluster));
  CHECK(list["apiVersion"] == "v1");
  CHECK(list["kind"] == "List");
  REQUIRE(list["items"].size() == 3);
  // Namespaces first, then nodes, then pods.
  CHECK(list["items"][0]["kind"] == "Namespace");
  CHECK(list["items"][1]["kind"] == "Node");
  const nlohmann::json& p = list["items"][2];
  CHECK(p["kind"] == "Pod");
  CHECK(p["apiVersion"] == "v1");
  CHECK(p["spec"]["priority"] == 0);
  CHECK(p["spec"]["tolerations"][0]["tolerationSeconds"].is_number_integer());
  CHECK(p["spec"]["tolerations"][0]["tolerationSeconds"] == 30);
  CHECK_FALSE(p["spec"].contains("nodeName"));
  CHECK_FALSE(p.contains("status"));
}

}  // namespace
