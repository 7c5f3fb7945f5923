// The plugin-authoring guide's fragments (README.md) that are not already in
// the sample's own sources, compiled and run here; a test of schedkit's tree
// checks that every fragment of the guide appears verbatim in this folder.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "sample_plugin.h"
#include "schedkit/api/v1/node.h"
#include "schedkit/api/v1/storage_class.h"
#include "schedkit/framework/events.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/testing/fake_handle.h"
#include "schedkit/testing/must.h"

namespace {

namespace fw = schedkit::framework;

// Events: a plugin that rejects pods says which cluster events may change its mind.
class ColorEvents final : public fw::EnqueueExtensions {
 public:
  std::string_view Name() const override { return "color-events"; }
  std::vector<fw::ClusterEventWithHint> EventsToRegister() const override {
    // A node added or relabelled may carry the color a rejected pod wants.
    return {{{fw::EventResource::Node(), fw::kActionAdd | fw::kActionUpdateNodeLabel},
             [](const fw::PodInfo&, const fw::EventObjects& e) -> absl::StatusOr<fw::QueueingHint> {
               return e.New<schedkit::api::v1::Node>() != nullptr ? fw::QueueingHint::kQueue
                                                                  : fw::QueueingHint::kSkip;
             }}};
  }
};

// Objects: what a plugin reads of the cluster beyond nodes and pods.
size_t CountStorageClasses(const fw::Handle& handle) {
  schedkit::api::ObjectList<schedkit::api::v1::StorageClass> classes =
      handle.objects().List<schedkit::api::v1::StorageClass>();
  return classes.size();
}

TEST_CASE("guide: registering the plugin", "[guide]") {
  schedkit::framework::Registry registry = schedkit::plugins::NewInTreeRegistry();
  schedkit::testing::Must(registry.Add(std::string(sample::kName), &sample::New));
  CHECK(registry.Find("sample-plugin") != nullptr);
}

TEST_CASE("guide: events and object listers", "[guide]") {
  ColorEvents events;
  CHECK(events.EventsToRegister().size() == 1);
  schedkit::testing::FakeHandle handle;
  CHECK(CountStorageClasses(handle) == 0);
}

}  // namespace
