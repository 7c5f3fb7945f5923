// Ports of upstream v1.35.8 pkg/scheduler/framework/plugins/volumerestrictions
// volume_restrictions_test.go, for the cases that apply to schedkit's model
// (pods carry only PVC volumes; no PersistentVolumeClaim objects exist):
//  - TestGCEDiskConflicts, TestAWSDiskConflicts, TestRBDDiskConflicts,
//    TestISCSIDiskConflicts: "nothing" (1 of 4 each). "one state", "same
//    state" and "different state" need GCE PD / AWS EBS / RBD / iSCSI volume
//    sources, which schedkit's Pod does not have.
//  - TestAccessModeConflicts: "nothing", "failed to get PVC" (2 of 5). The
//    other three need PVC objects with access modes.
//  - Test_isSchedulableAfterPodDeleted: "queue-has-same-claim",
//    "skip-no-same-claim" (2 of 10). The other eight use disk volume sources.
//  - Test_isSchedulableAfterPersistentVolumeClaimChange: none (0 of 5); it
//    needs PVC objects and the PersistentVolumeClaim/Add event.
#include "plugins/volumerestrictions/volume_restrictions.h"

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
  auto plugin = NewVolumeRestrictions(framework::PluginArgs(), h);
  REQUIRE(plugin.ok());
  return *std::move(plugin);
}

// Runs PreFilter and, when it succeeds, Filter, as the upstream tables do.
void CheckPreFilterThenFilter(const api::v1::Pod& pod_obj, const framework::NodeInfo& node,
                              const Status& want_pre_filter, const Status& want_filter) {
  auto plugin = NewPlugin();
  auto* pf = dynamic_cast<framework::PreFilterPlugin*>(plugin.get());
  auto* f = dynamic_cast<framework::FilterPlugin*>(plugin.get());
  REQUIRE(pf != nullptr);
  REQUIRE(f != nullptr);
  auto pod = framework::PodInfo::Create(pod_obj);
  REQUIRE(pod.ok());
  framework::CycleState state;
  auto r = pf->PreFilter(state, **pod, {});
  CHECK(r.status == want_pre_filter);
  if (r.status.IsSuccess()) CHECK(f->Filter(state, **pod, node) == want_filter);
}

TEST_CASE("TestGCEDiskConflicts", "[volumerestrictions]") {
  SECTION("nothing") {
    CheckPreFilterThenFilter(api::v1::Pod(), framework::NodeInfo(), Status::Skip(), Status());
  }
}
TEST_CASE("TestAWSDiskConflicts", "[volumerestrictions]") {
  SECTION("nothing") {
    CheckPreFilterThenFilter(api::v1::Pod(), framework::NodeInfo(), Status::Skip(), Status());
  }
}
TEST_CASE("TestRBDDiskConflicts", "[volumerestrictions]") {
  SECTION("nothing") {
    CheckPreFilterThenFilter(api::v1::Pod(), framework::NodeInfo(), Status::Skip(), Status());
  }
}
TEST_CASE("TestISCSIDiskConflicts", "[volumerestrictions]") {
  SECTION("nothing") {
    CheckPreFilterThenFilter(api::v1::Pod(), framework::NodeInfo(), Status::Skip(), Status());
  }
}

TEST_CASE("TestAccessModeConflicts", "[volumerestrictions]") {
  const auto pod_with_one_pvc =
      MakePod().Name("pod-with-one-pvc").Namespace("default").PVC("claim-with-rwop-1").Node("node-1").Obj();
  SECTION("nothing") {
    CheckPreFilterThenFilter(api::v1::Pod(), framework::NodeInfo(), Status::Skip(), Status());
  }
  SECTION("failed to get PVC") {
    CheckPreFilterThenFilter(pod_with_one_pvc, framework::NodeInfo(),
                             Status::WithText(Code::kUnschedulableAndUnresolvable,
                                              "persistentvolumeclaim \"claim-with-rwop-1\" not found"),
                             Status());
  }
}

TEST_CASE("Test_isSchedulableAfterPodDeleted", "[volumerestrictions]") {
  struct Case {
    std::string name;
    api::v1::Pod pod, old_obj;
    framework::QueueingHint expected;
  };
  const std::vector<Case> cases = {
      {"queue-has-same-claim", MakePod().Name("pod1").PVC("claim-rwop").Obj(),
       MakePod().Name("pod2").PVC("claim-rwop").Obj(), framework::QueueingHint::kQueue},
      {"skip-no-same-claim", MakePod().Name("pod1").PVC("claim-1-rwop").Obj(),
       MakePod().Name("pod2").PVC("claim-2-rwop").Obj(), framework::QueueingHint::kSkip},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      auto pod = framework::PodInfo::Create(c.pod);
      REQUIRE(pod.ok());
      framework::EventObjects e;
      e.old_pod = &c.old_obj;
      auto got = VolumeRestrictions::IsSchedulableAfterPodDeleted(**pod, e);
      REQUIRE(got.ok());
      CHECK(*got == c.expected);
    }
  }
}

// --- schedkit-specific ---

TEST_CASE("VolumeRestrictions PreFilter reports the first PVC", "[volumerestrictions]") {
  auto plugin = NewPlugin();
  auto* pf = dynamic_cast<framework::PreFilterPlugin*>(plugin.get());
  CHECK(plugin->Name() == "VolumeRestrictions");
  api::v1::Pod obj = MakePod().Name("p").Obj();
  obj.mutable_spec()->add_volumes()->set_name("scratch");
  *obj.mutable_spec()->add_volumes() = MakePod().PVC("a").Obj().spec().volumes(0);
  *obj.mutable_spec()->add_volumes() = MakePod().PVC("b").Obj().spec().volumes(0);
  auto pod = framework::PodInfo::Create(obj);
  REQUIRE(pod.ok());
  framework::CycleState state;
  auto r = pf->PreFilter(state, **pod, {});
  CHECK(r.status.code() == Code::kUnschedulableAndUnresolvable);
  CHECK(r.status.Message() == "persistentvolumeclaim \"a\" not found");
  // Only non-PVC volumes: nothing to check.
  api::v1::Pod only_scratch = MakePod().Name("q").Obj();
  only_scratch.mutable_spec()->add_volumes()->set_name("scratch");
  auto pod2 = framework::PodInfo::Create(only_scratch);
  REQUIRE(pod2.ok());
  CHECK(pf->PreFilter(state, **pod2, {}).status.IsSkip());
  CHECK(pf->GetPreFilterExtensions() != nullptr);
}

TEST_CASE("VolumeRestrictions Filter and extensions over the ReadWriteOncePod state",
          "[volumerestrictions]") {
  auto plugin = NewPlugin();
  auto* f = dynamic_cast<framework::FilterPlugin*>(plugin.get());
  auto* pf = dynamic_cast<framework::PreFilterPlugin*>(plugin.get());
  const framework::PreFilterExtensions* ext = pf->GetPreFilterExtensions();
  auto pod = MakePod().Name("p").PVC("rwop").Info();
  const framework::NodeInfo node = MakeNode().Name("n").Info();
  framework::CycleState state;

  // Without PreFilter state: upstream's error text.
  Status missing = f->Filter(state, *pod, node);
  CHECK(missing.code() == Code::kError);
  CHECK(missing.Message() == "cannot read \"PreFilterVolumeRestrictions\" from cycleState");
  auto other = MakePod().Name("o").PVC("rwop").Info();
  CHECK(ext->AddPod(state, *pod, *other, node).Message() == missing.Message());

  auto s = std::make_unique<VolumeRestrictionsState>();
  s->read_write_once_pod_pvcs = {"rwop"};
  state.Write(Symbol::Intern("PreFilterVolumeRestrictions"), std::move(s));
  CHECK(f->Filter(state, *pod, node).IsSuccess());

  auto cloned = state.Clone();
  CHECK(ext->AddPod(*cloned, *pod, *other, node).IsSuccess());
  Status conflict = f->Filter(*cloned, *pod, node);
  CHECK(conflict.code() == Code::kUnschedulable);
  CHECK(
      conflict.Message() ==
      "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already in-use by "
      "another pod");
  // The original is untouched.
  CHECK(f->Filter(state, *pod, node).IsSuccess());
  CHECK(ext->RemovePod(*cloned, *pod, *other, node).IsSuccess());
  CHECK(f->Filter(*cloned, *pod, node).IsSuccess());
  // A pod without the claim changes nothing.
  CHECK(ext->AddPod(*cloned, *pod, *MakePod().Name("x").PVC("other").Info(), node).IsSuccess());
  CHECK(f->Filter(*cloned, *pod, node).IsSuccess());
}

TEST_CASE("VolumeRestrictions events and hint edges", "[volumerestrictions]") {
  auto plugin = NewPlugin();
  auto* ee = dynamic_cast<framework::EnqueueExtensions*>(plugin.get());
  auto events = ee->EventsToRegister();
  REQUIRE(events.size() == 2);
  CHECK(events[0].event.resource == framework::EventResource::kPod);
  CHECK(events[0].event.action == framework::kActionDelete);
  CHECK(static_cast<bool>(events[0].hint));
  CHECK(events[1].event.resource == framework::EventResource::kNode);
  CHECK(events[1].event.action == framework::kActionAdd);

  auto pod = MakePod().Name("pod1").Namespace("a").PVC("c").Info();
  const auto other_ns = MakePod().Name("pod2").Namespace("b").PVC("c").Obj();
  framework::EventObjects e;
  e.old_pod = &other_ns;
  CHECK(*VolumeRestrictions::IsSchedulableAfterPodDeleted(*pod, e) == framework::QueueingHint::kSkip);
  CHECK_FALSE(VolumeRestrictions::IsSchedulableAfterPodDeleted(*pod, framework::EventObjects()).ok());
}

}  // namespace
}  // namespace schedkit::plugins
