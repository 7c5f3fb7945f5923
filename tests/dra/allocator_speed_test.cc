// A rough time per Allocate call for a scheduler-like load; hidden ([.]),
// run it with `schedkit_dra_tests "[allocator-speed]"`. Real numbers belong
// in bench/. Also runs Allocate on several threads at once over one
// allocator, which the scheduler does (one call per node).
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "api/proto_json.h"
#include "dra/allocator.h"
#include "nlohmann/json.hpp"

namespace schedkit::dra {
namespace {

using nlohmann::json;

class Classes : public DeviceClassLister {
 public:
  Classes() {
    REQUIRE(api::internal::JsonToMessage(
                json::parse(R"({"metadata":{"name":"gpu"},"spec":{"selectors":[{"cel":{"expression":
                   "device.driver == 'gpu.example.com' && device.attributes['gpu.example.com'].model == 'a100'"}}]}})"),
                class_)
                .ok());
  }
  absl::StatusOr<const api::v1::DeviceClass*> Get(std::string_view name) const override {
    if (name != "gpu") return absl::NotFoundError("not found");
    return &class_;
  }

 private:
  api::v1::DeviceClass class_;
};

// `nodes` nodes, each with one slice of 8 GPUs on two NUMA nodes, the first
// `used` of them allocated; devices with index < 4 share a PCIe root.
struct Cluster {
  std::vector<api::v1::Node> nodes;
  std::vector<api::v1::ResourceSlice> slices;
  AllocatedState state;
};

Cluster MakeCluster(int nodes, int used) {
  Cluster c;
  c.nodes.resize(nodes);
  c.slices.resize(nodes);
  for (int n = 0; n < nodes; ++n) {
    const std::string node = "node-" + std::to_string(n);
    c.nodes[n].mutable_metadata()->set_name(node);
    json devices = json::array();
    for (int d = 0; d < 8; ++d) {
      devices.push_back({{"name", "gpu-" + std::to_string(d)},
                         {"attributes",
                          {{"model", {{"string", "a100"}}}, {"numa", {{"int", d / 4}}}, {"index", {{"int", d}}}}},
                         {"capacity", {{"memory", {{"value", "80Gi"}}}}}});
      if (d < used) c.state.allocated_devices.insert(DeviceId::Make("gpu.example.com", node, "gpu-" + std::to_string(d)));
    }
    json slice = {{"metadata", {{"name", node + "-gpus"}}},
                  {"spec",
                   {{"driver", "gpu.example.com"},
                    {"nodeName", node},
                    {"pool", {{"name", node}, {"generation", 1}, {"resourceSliceCount", 1}}},
                    {"devices", devices}}}};
    REQUIRE(api::internal::JsonToMessage(slice, c.slices[n]).ok());
  }
  return c;
}

api::v1::ResourceClaim TwoGpusOnOneNuma() {
  api::v1::ResourceClaim claim;
  REQUIRE(api::internal::JsonToMessage(json::parse(R"({
      "metadata": {"name": "c", "namespace": "default"},
      "spec": {"devices": {
        "requests": [{"name": "gpus", "exactly": {"deviceClassName": "gpu", "allocationMode": "ExactCount", "count": 2}}],
        "constraints": [{"matchAttribute": "gpu.example.com/numa"}]}}})"),
                                       claim)
              .ok());
  return claim;
}

std::unique_ptr<Allocator> NewAllocator(const Cluster& c, const Classes& classes, SelectorCache& cache) {
  AllocatorOptions options;
  options.features = kIncubatingFeatures;
  options.allocated_state = c.state;
  options.class_lister = &classes;
  for (const auto& s : c.slices) options.slices.push_back(&s);
  options.selector_cache = &cache;
  absl::StatusOr<std::unique_ptr<Allocator>> a = Allocator::Create(std::move(options));
  REQUIRE(a.ok());
  return *std::move(a);
}

TEST_CASE("allocator: concurrent Allocate calls agree with sequential ones", "[dra][allocator][tsan]") {
  const Cluster cluster = MakeCluster(64, 3);
  Classes classes;
  SelectorCache cache;
  std::unique_ptr<Allocator> allocator = NewAllocator(cluster, classes, cache);
  const api::v1::ResourceClaim claim = TwoGpusOnOneNuma();
  const api::v1::ResourceClaim* claims[] = {&claim};

  std::vector<std::string> sequential(cluster.nodes.size());
  for (size_t n = 0; n < cluster.nodes.size(); ++n) {
    AllocateResult r = allocator->Allocate(cluster.nodes[n], claims);
    REQUIRE(r.ok());
    REQUIRE(r->has_value());
    sequential[n] = (**r)[0].DebugString();
  }
  // Device 3 is taken, so NUMA 0 has one left: the pair comes from NUMA 1.
  CHECK(sequential[0].find("gpu-4") != std::string::npos);
  CHECK(sequential[0].find("gpu-5") != std::string::npos);

  std::vector<std::string> parallel(cluster.nodes.size());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (size_t n = t; n < cluster.nodes.size(); n += 4) {
        AllocateResult r = allocator->Allocate(cluster.nodes[n], claims);
        parallel[n] = r.ok() && r->has_value() ? (**r)[0].DebugString() : "failed";
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(parallel == sequential);
}

TEST_CASE("allocator: time per Allocate", "[.][allocator-speed]") {
  const Cluster cluster = MakeCluster(1000, 3);
  Classes classes;
  SelectorCache cache;
  const api::v1::ResourceClaim claim = TwoGpusOnOneNuma();
  const api::v1::ResourceClaim* claims[] = {&claim};

  const auto t0 = std::chrono::steady_clock::now();
  std::unique_ptr<Allocator> allocator = NewAllocator(cluster, classes, cache);
  const auto t1 = std::chrono::steady_clock::now();
  int allocated = 0;
  constexpr int kRounds = 5;
  for (int round = 0; round < kRounds; ++round) {
    for (const api::v1::Node& node : cluster.nodes) {
      AllocateResult r = allocator->Allocate(node, claims);
      allocated += r.ok() && r->has_value();
    }
  }
  const auto t2 = std::chrono::steady_clock::now();
  CHECK(allocated == kRounds * 1000);
  const double create_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  const double per_call_us =
      std::chrono::duration<double, std::micro>(t2 - t1).count() / (kRounds * cluster.nodes.size());
  WARN("Create over 1000 slices of 8 devices: " << create_ms << " ms; Allocate (2 GPUs, matchAttribute): "
                                                << per_call_us << " us per node");
}

}  // namespace
}  // namespace schedkit::dra
