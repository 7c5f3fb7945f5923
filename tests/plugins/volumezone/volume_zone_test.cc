// Ports of upstream v1.35.8 pkg/scheduler/framework/plugins/volumezone
// volume_zone_test.go, for what applies to a cluster without
// PersistentVolumeClaims, PersistentVolumes and StorageClasses:
//  - TestSingleZone: "pod without volume" (1 of 14). The other 13 use PVCs
//    bound to labelled PVs held by upstream's fake listers.
//  - TestMultiZone (0 of 5) and TestWithBinding (0 of 5): every case needs
//    PVC, PV or StorageClass objects.
//  - The queueing-hint tests (PVC added, StorageClass added, PV changed):
//    none; those objects and events do not exist in schedkit.
#include "plugins/volumezone/volume_zone.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::Status;
using testing::MakeNode;
using testing::MakePod;

std::unique_ptr<framework::Plugin> NewPlugin() {
  testing::FakeHandle h;
  auto plugin = NewVolumeZone(framework::PluginArgs(), h);
  REQUIRE(plugin.ok());
  return *std::move(plugin);
}

TEST_CASE("TestSingleZone", "[volumezone]") {
  auto plugin = NewPlugin();
  auto* pf = dynamic_cast<framework::PreFilterPlugin*>(plugin.get());
  auto* f = dynamic_cast<framework::FilterPlugin*>(plugin.get());
  REQUIRE(pf != nullptr);
  REQUIRE(f != nullptr);

  SECTION("pod without volume") {
    auto pod = MakePod().Name("pod_1").Namespace("default").Info();
    const framework::NodeInfo node =
        MakeNode().Name("host1").Label("failure-domain.beta.kubernetes.io/zone", "us-west1-a").Info();
    framework::CycleState state;
    CHECK(pf->PreFilter(state, *pod, {}).status == Status::Skip());
    CHECK(f->Filter(state, *pod, node) == Status());
  }
}

// --- schedkit-specific: the verdicts upstream gives with empty listers ---

TEST_CASE("VolumeZone with PVC volumes in a cluster without PVCs", "[volumezone]") {
  auto plugin = NewPlugin();
  CHECK(plugin->Name() == "VolumeZone");
  auto* pf = dynamic_cast<framework::PreFilterPlugin*>(plugin.get());
  auto* f = dynamic_cast<framework::FilterPlugin*>(plugin.get());
  CHECK(pf->GetPreFilterExtensions() == nullptr);
  const framework::NodeInfo zoned = MakeNode().Name("n1").Label("topology.kubernetes.io/zone", "a").Info();
  const framework::NodeInfo plain = MakeNode().Name("n2").Info();

  auto pod = MakePod().Name("p").PVC("PVC_1").PVC("PVC_2").Info();
  const Status want =
      Status::WithText(Code::kUnschedulableAndUnresolvable, "persistentvolumeclaim \"PVC_1\" not found");
  framework::CycleState state;
  CHECK(pf->PreFilter(state, *pod, {}).status == want);
  // Filter without state recomputes, as upstream's fallback.
  CHECK(f->Filter(state, *pod, zoned) == want);
  CHECK(f->Filter(state, *pod, plain) == want);

  api::v1::Pod unnamed = MakePod().Name("u").Obj();
  unnamed.mutable_spec()->add_volumes()->mutable_persistent_volume_claim();
  auto upod = framework::PodInfo::Create(unnamed);
  REQUIRE(upod.ok());
  const Status no_name =
      Status::WithReasons(Code::kUnschedulableAndUnresolvable, {"PersistentVolumeClaim had no name"});
  CHECK(pf->PreFilter(state, **upod, {}).status == no_name);
  CHECK(f->Filter(state, **upod, zoned) == no_name);

  // Volumes without a PVC: Skip, and every node fits.
  api::v1::Pod scratch = MakePod().Name("s").Obj();
  scratch.mutable_spec()->add_volumes()->set_name("scratch");
  auto spod = framework::PodInfo::Create(scratch);
  REQUIRE(spod.ok());
  CHECK(pf->PreFilter(state, **spod, {}).status.IsSkip());
  CHECK(f->Filter(state, **spod, zoned).IsSuccess());
}

TEST_CASE("VolumeZone registers node events only", "[volumezone]") {
  auto plugin = NewPlugin();
  auto* ee = dynamic_cast<framework::EnqueueExtensions*>(plugin.get());
  auto events = ee->EventsToRegister();
  REQUIRE(events.size() == 1);
  CHECK(events[0].event.resource == framework::EventResource::kNode);
  CHECK(events[0].event.action == (framework::kActionAdd | framework::kActionUpdateNodeLabel));
  CHECK_FALSE(static_cast<bool>(events[0].hint));
}

}  // namespace
}  // namespace schedkit::plugins
