// The allocator's quantity arithmetic: canonical texts as upstream's
// resource.Quantity prints them, and the one table case whose recorded facts
// are lossy (consumable-capacity-requests-are-not-modified), run here with
// the quantities upstream's table really uses.
#include <memory>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "api/proto_json.h"
#include "dra/allocator.h"
#include "dra/quantity_value.h"
#include "nlohmann/json.hpp"

namespace schedkit::dra {
namespace {

std::string Canonical(std::string_view text) {
  absl::StatusOr<QuantityValue> q = QuantityValue::Parse(text);
  REQUIRE(q.ok());
  return q->String();
}

TEST_CASE("QuantityValue prints canonical text as upstream", "[dra][allocator]") {
  CHECK(Canonical("0") == "0");
  CHECK(Canonical("1Gi") == "1Gi");
  CHECK(Canonical("1.5Gi") == "1536Mi");
  CHECK(Canonical("100Mi") == "100Mi");
  CHECK(Canonical("1024") == "1024");
  CHECK(Canonical("2000") == "2k");
  CHECK(Canonical("1500") == "1500");
  CHECK(Canonical("0.5") == "500m");
  CHECK(Canonical("0.3") == "300m");
  CHECK(Canonical("1e3") == "1e3");
  CHECK(Canonical("18446744073709551616") == "18446744073709551616");
  // Upstream has no suffix beyond E for decimal SI and prints none.
  CHECK(Canonical("1000000000000000000000") == "1");
  CHECK(QuantityValue::FromInt(1000, QuantityFormat::kBinarySI).String() == "1k");
  CHECK(QuantityValue::FromInt(4096, QuantityFormat::kBinarySI).String() == "4Ki");
  CHECK(QuantityValue::FromMilli(1500, QuantityFormat::kDecimalSI).String() == "1500m");
  CHECK(QuantityValue::FromInt(-1073741824, QuantityFormat::kBinarySI).String() == "-1Gi");
}

TEST_CASE("QuantityValue rounds Value and MilliValue up, away from zero", "[dra][allocator]") {
  CHECK(QuantityValue::Parse("0.1").value().Value() == 1);
  CHECK(QuantityValue::Parse("-0.1").value().Value() == -1);
  CHECK(QuantityValue::Parse("1n").value().MilliValue() == 1);
  CHECK(QuantityValue::Parse("18446744073709551616").value().Value() == std::numeric_limits<int64_t>::max());
  CHECK(QuantityValue::Parse("18446744073709551616").value().CmpInt64(std::numeric_limits<int64_t>::max()) > 0);
}

template <typename Message>
Message FromJson(const char* text) {
  Message m;
  REQUIRE(api::internal::JsonToMessage(nlohmann::json::parse(text), m).ok());
  return m;
}

class OneClass : public DeviceClassLister {
 public:
  absl::StatusOr<const api::v1::DeviceClass*> Get(std::string_view name) const override {
    if (name != class_.metadata().name()) return absl::NotFoundError("not found");
    return &class_;
  }
  api::v1::DeviceClass class_ = FromJson<api::v1::DeviceClass>(
      R"({"metadata":{"name":"class-a"},"spec":{"selectors":[{"cel":{"expression":"device.driver == \"driver-a\""}}]}})");
};

// Upstream's "consumable-capacity-requests-are-not-modified" with its real
// 1e21 quantities: the second share consumes 1e21, which prints as "1".
TEST_CASE("allocator: a 1e21 share prints as upstream's", "[dra][allocator]") {
  const auto slice = FromJson<api::v1::ResourceSlice>(R"({
    "metadata": {"name": "slice-1"},
    "spec": {"driver": "driver-a", "nodeName": "node-1",
             "pool": {"name": "pool-1", "generation": 1, "resourceSliceCount": 1},
             "devices": [{"name": "device-1", "allowMultipleAllocations": true,
                          "capacity": {"capacity-0": {"value": "1000000000000000000002",
                                                      "requestPolicy": {"default": "1000000000000000000000",
                                                                        "validRange": {"min": "2"}}}}}]}})");
  const auto claim = FromJson<api::v1::ResourceClaim>(R"({
    "metadata": {"name": "claim-0"},
    "spec": {"devices": {"requests": [
      {"name": "req-0", "exactly": {"deviceClassName": "class-a", "allocationMode": "ExactCount", "count": 1,
                                    "capacity": {"requests": {"capacity-0": "2"}}}},
      {"name": "req-1", "exactly": {"deviceClassName": "class-a", "allocationMode": "ExactCount", "count": 1,
                                    "capacity": {"requests": {"capacity-0": "1000000000000000000000"}}}}]}}})");
  const auto node = FromJson<api::v1::Node>(R"({"metadata": {"name": "node-1"}})");
  OneClass classes;
  SelectorCache cache;
  AllocatorOptions options;
  options.features.consumable_capacity = true;
  options.class_lister = &classes;
  options.slices = {&slice};
  options.selector_cache = &cache;
  options.new_share_id = [] { return std::string("share"); };
  absl::StatusOr<std::unique_ptr<Allocator>> allocator = Allocator::Create(std::move(options));
  REQUIRE(allocator.ok());
  const api::v1::ResourceClaim* claims[] = {&claim};
  AllocateResult got = (*allocator)->Allocate(node, claims);
  REQUIRE(got.ok());
  REQUIRE(got->has_value());
  const auto& results = (**got)[0].devices().results();
  REQUIRE(results.size() == 2);
  CHECK(results[0].consumed_capacity().at("capacity-0") == "2");
  CHECK(results[1].consumed_capacity().at("capacity-0") == "1");
}

}  // namespace
}  // namespace schedkit::dra
