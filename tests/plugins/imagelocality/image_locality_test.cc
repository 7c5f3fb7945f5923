// Ports of upstream v1.37.2 pkg/scheduler/framework/plugins/imagelocality
// image_locality_test.go: TestImageLocalityPriority (all 9 cases) and
// TestNormalizedImageName (all 4 cases). TestImageSignature is not ported:
// schedkit has no SignPlugin interface.
#include "plugins/imagelocality/image_locality.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"

namespace schedkit::plugins {
namespace {

using testing::MakeNode;
using testing::MakePod;

constexpr int64_t kMb = 1024 * 1024;

struct Image {
  std::vector<std::string> names;
  int64_t size;
};

api::v1::Node ImageNode(const std::string& name, const std::vector<Image>& images) {
  auto b = MakeNode().Name(name);
  for (const auto& i : images) b.Image(i.names, i.size);
  return b.Obj();
}

const std::vector<Image> kNode403002000 = {
    {{"gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"}, 40 * kMb},
    {{"gcr.io/300:latest", "gcr.io/300:v1"}, 300 * kMb},
    {{"gcr.io/2000:latest"}, 2000 * kMb},
};
const std::vector<Image> kNode25010 = {
    {{"gcr.io/250:latest"}, 250 * kMb},
    {{"gcr.io/10:latest", "gcr.io/10:v1"}, 10 * kMb},
};
const std::vector<Image> kNode60040900 = {
    {{"gcr.io/600:latest"}, 600 * kMb},
    {{"gcr.io/40:latest"}, 40 * kMb},
    {{"gcr.io/900:latest"}, 900 * kMb},
};
const std::vector<Image> kNode300600900 = {
    {{"gcr.io/300:latest"}, 300 * kMb},
    {{"gcr.io/600:latest"}, 600 * kMb},
    {{"gcr.io/900:latest"}, 900 * kMb},
};
const std::vector<Image> kNode400030 = {
    {{"gcr.io/4000:latest"}, 4000 * kMb},
    {{"gcr.io/30:latest"}, 30 * kMb},
};
const std::vector<Image> kNode203040 = {
    {{"gcr.io/20:latest"}, 20 * kMb},
    {{"gcr.io/30:latest"}, 30 * kMb},
    {{"gcr.io/40:latest"}, 40 * kMb},
};
const std::vector<Image> kNodeWithNoImages = {};

struct Case {
  std::string name;
  api::v1::Pod pod;
  std::vector<api::v1::Node> nodes;
  std::vector<int64_t> expected;
};

TEST_CASE("TestImageLocalityPriority", "[imagelocality]") {
  const auto test40250 = MakePod().Container("gcr.io/40").Container("gcr.io/250").Obj();
  const auto test40300 = MakePod().Container("gcr.io/40").Container("gcr.io/300").Obj();
  const auto test_min_max = MakePod().Container("gcr.io/10").Container("gcr.io/4000").Obj();
  const auto test300600900 =
      MakePod().Container("gcr.io/300").Container("gcr.io/600").Container("gcr.io/900").Obj();
  const auto test3040 = MakePod().Container("gcr.io/30").Container("gcr.io/40").Obj();
  const auto test30_init300 = MakePod().Container("gcr.io/30").InitContainer("gcr.io/300").Obj();
  auto test_image_volume = MakePod().Container("gcr.io/30").Obj();
  {
    api::v1::Volume* v = test_image_volume.mutable_spec()->add_volumes();
    v->set_name("imageVolume");
    v->mutable_image()->set_reference("gcr.io/300");
  }
  const auto test30300_as_containers = MakePod().Container("gcr.io/30").Container("gcr.io/300").Obj();

  const std::vector<Case> cases = {
      {"two images spread on two nodes, prefer the larger image one",
       test40250,
       {ImageNode("node1", kNode403002000), ImageNode("node2", kNode25010)},
       {0, 5}},
      {"two images on one node, prefer this node",
       test40300,
       {ImageNode("node1", kNode403002000), ImageNode("node2", kNode25010)},
       {7, 0}},
      {"if exceed limit, use limit",
       test_min_max,
       {ImageNode("node1", kNode400030), ImageNode("node2", kNode25010)},
       {framework::kMaxNodeScore, 0}},
      {"if exceed limit, use limit (with node which has no images present)",
       test_min_max,
       {ImageNode("node1", kNode400030), ImageNode("node2", kNode25010),
        ImageNode("node3", kNodeWithNoImages)},
       {66, 0, 0}},
      {"pod with multiple large images, node2 is preferred",
       test300600900,
       {ImageNode("node1", kNode60040900), ImageNode("node2", kNode300600900),
        ImageNode("node3", kNodeWithNoImages)},
       {32, 36, 0}},
      {"pod with multiple small images",
       test3040,
       {ImageNode("node1", kNode203040), ImageNode("node2", kNode400030)},
       {1, 0}},
      {"pod with ImageVolume",
       test_image_volume,
       {ImageNode("node1", kNode300600900), ImageNode("node2", kNode400030)},
       {6, 0}},
      {"same images as ImageVolume pod but as regular container images",
       test30300_as_containers,
       {ImageNode("node1", kNode300600900), ImageNode("node2", kNode400030)},
       {6, 0}},
      {"include InitContainers: two images spread on two nodes, prefer the larger image one",
       test30_init300,
       {ImageNode("node1", kNode403002000), ImageNode("node2", kNode203040)},
       {6, 0}},
      // Not upstream: no node holds any of the pod's images.
      {"images on no node", test300600900,
       {ImageNode("node1", kNodeWithNoImages), ImageNode("node2", kNodeWithNoImages)},
       {0, 0}},
  };

  for (const Case& c : cases) {
    SECTION(c.name) {
      testing::FakeHandle h;
      h.SetCluster(c.nodes, {});
      auto plugin = NewImageLocality(framework::PluginArgs(), h);
      REQUIRE(plugin.ok());
      auto* score_plugin = dynamic_cast<framework::ScorePlugin*>(plugin->get());
      REQUIRE(score_plugin != nullptr);
      REQUIRE(score_plugin->GetScoreExtensions() == nullptr);
      auto pod = framework::PodInfo::Create(c.pod);
      REQUIRE(pod.ok());
      framework::CycleState state;
      std::vector<int64_t> got;
      for (const auto& n : c.nodes) {
        const framework::NodeInfo* node = h.snapshot().Get(n.metadata().name());
        REQUIRE(node != nullptr);
        int64_t score = -1;
        framework::Status s = score_plugin->Score(state, **pod, *node, score);
        CHECK(s.IsSuccess());
        got.push_back(score);
      }
      CHECK(got == c.expected);
      // The framework's batch call gives the same scores.
      std::vector<const framework::NodeInfo*> nodes;
      for (const auto& n : c.nodes) nodes.push_back(h.snapshot().Get(n.metadata().name()));
      std::vector<int64_t> batch(nodes.size(), -1);
      CHECK(score_plugin->ScoreNodes(state, **pod, nodes, batch).IsSuccess());
      CHECK(batch == c.expected);
    }
  }
}

TEST_CASE("TestNormalizedImageName", "[imagelocality]") {
  const std::string digest = "sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2";
  struct NameCase {
    std::string name, input, output;
  };
  const std::vector<NameCase> cases = {
      {"add :latest postfix 1", "root", "root:latest"},
      {"add :latest postfix 2", "gcr.io:5000/root", "gcr.io:5000/root:latest"},
      {"keep it as is 1", "root:tag", "root:tag"},
      {"keep it as is 2", "root@" + digest, "root@" + digest},
  };
  for (const auto& c : cases) {
    SECTION(c.name) { CHECK(framework::NormalizedImageName(c.input) == c.output); }
  }
}

// schedkit-specific checks of the arithmetic edges.
TEST_CASE("ImageLocality priority edges", "[imagelocality]") {
  // No containers: max threshold 0, so (23Mi-23Mi)/(0-23Mi) = 0 as in Go.
  CHECK(ImageLocalityPriority(0, 0) == 0);
  CHECK(ImageLocalityPriority(5000 * kMb, 1) == 100);
  CHECK(ImageLocalityPriority(23 * kMb, 3) == 0);
}

TEST_CASE("ImageLocality ignores args and has the upstream name", "[imagelocality]") {
  testing::FakeHandle h;
  auto plugin = NewImageLocality(framework::PluginArgs(R"({"anything": 1})"), h);
  REQUIRE(plugin.ok());
  CHECK((*plugin)->Name() == "ImageLocality");
}

}  // namespace
}  // namespace schedkit::plugins
