// Ports of upstream v1.35.8 pkg/scheduler/framework/plugins/nodevolumelimits
// csi_test.go, for what applies to schedkit's model (pods carry only PVC
// volumes; no CSINode, PVC, PV, StorageClass, VolumeAttachment or CSIDriver
// objects exist):
//  - TestCSILimits: "skip Filter when the pod only uses secrets and
//    configmaps" (its configMap/secret volumes become volumes without a PVC
//    source, the only non-PVC volume schedkit's Pod can hold) and the
//    PreFilter half of "don't skip Filter when the pod has pvcs" (its Filter
//    half needs the PVC object upstream's fake lister holds). The other 30
//    cases count volumes against CSINode limits using PVC/PV/StorageClass/
//    VolumeAttachment objects, ephemeral or in-tree inline volumes.
//  - TestCSILimitsQHint: 3 of 4 ("return a Queue when a deleted pod has a
//    PVC", "return a QueueSkip when a deleted pod doesn't have any volume",
//    "return a QueueSkip when a deleted pod is not scheduled."); the inline
//    migratable (AWS EBS) case cannot be expressed.
//  - TestCSILimitsAddedPVCQHint, TestCSILimitsDeletedVolumeAttachmentQHint,
//    TestCSILimitsAfterCSINodeUpdatedQHint, TestVolumeLimitScalingGate: none;
//    they need PVC, VolumeAttachment and CSINode objects and events.
#include "plugins/nodevolumelimits/csi.h"

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
  auto plugin = NewNodeVolumeLimits(framework::PluginArgs(), h);
  REQUIRE(plugin.ok());
  return *std::move(plugin);
}

api::v1::Pod WithPlainVolumes(api::v1::Pod pod, int n) {
  for (int i = 0; i < n; ++i) pod.mutable_spec()->add_volumes();
  return pod;
}

TEST_CASE("TestCSILimits", "[nodevolumelimits]") {
  auto plugin = NewPlugin();
  auto* pf = dynamic_cast<framework::PreFilterPlugin*>(plugin.get());
  REQUIRE(pf != nullptr);
  framework::CycleState state;

  SECTION("skip Filter when the pod only uses secrets and configmaps") {
    auto pod = framework::PodInfo::Create(WithPlainVolumes(api::v1::Pod(), 2));
    REQUIRE(pod.ok());
    CHECK(pf->PreFilter(state, **pod, {}).status == Status::Skip());
  }
  SECTION("don't skip Filter when the pod has pvcs") {
    api::v1::Pod obj = WithPlainVolumes(api::v1::Pod(), 2);
    obj.mutable_spec()->add_volumes()->mutable_persistent_volume_claim()->set_claim_name(
        "csi-ebs.csi.aws.com-0");
    auto pod = framework::PodInfo::Create(obj);
    REQUIRE(pod.ok());
    CHECK(pf->PreFilter(state, **pod, {}).status == Status());
  }
}

TEST_CASE("TestCSILimitsQHint", "[nodevolumelimits]") {
  // Upstream sets the deleted pod's nodeName to its test node unless the case
  // says the pod is not scheduled.
  const std::string node_name = "node-for-max-pd-test-1";
  auto new_pod = MakePod().PVC("csi-ebs.csi.aws.com-2").Info();
  struct Case {
    std::string name;
    api::v1::Pod deleted;
    framework::QueueingHint want;
  };
  const std::vector<Case> cases = {
      {"return a Queue when a deleted pod has a PVC", MakePod().PVC("placeholder").Node(node_name).Obj(),
       framework::QueueingHint::kQueue},
      {"return a QueueSkip when a deleted pod doesn't have any volume", MakePod().Node(node_name).Obj(),
       framework::QueueingHint::kSkip},
      {"return a QueueSkip when a deleted pod is not scheduled.",
       MakePod().PVC("csi-ebs.csi.aws.com-0").Obj(), framework::QueueingHint::kSkip},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      framework::EventObjects e;
      e.old_pod = &c.deleted;
      auto got = NodeVolumeLimits::IsSchedulableAfterPodDeleted(*new_pod, e);
      REQUIRE(got.ok());
      CHECK(*got == c.want);
    }
  }
}

// --- schedkit-specific: the verdicts upstream gives with empty informers ---

TEST_CASE("NodeVolumeLimits Filter for a pod with PVCs", "[nodevolumelimits]") {
  auto plugin = NewPlugin();
  CHECK(plugin->Name() == "NodeVolumeLimits");
  auto* pf = dynamic_cast<framework::PreFilterPlugin*>(plugin.get());
  auto* f = dynamic_cast<framework::FilterPlugin*>(plugin.get());
  CHECK(pf->GetPreFilterExtensions() == nullptr);
  const framework::NodeInfo n1 = MakeNode().Name("n1").Info();
  const framework::NodeInfo n2 = MakeNode().Name("n2").Info();

  auto pod = framework::PodInfo::Create(
      WithPlainVolumes(MakePod().Name("p").Namespace("test").PVC("data").PVC("logs").Obj(), 1));
  REQUIRE(pod.ok());
  const Status want = Status::WithText(Code::kUnschedulableAndUnresolvable,
                                       "looking up PVC test/data: persistentvolumeclaim \"data\" not found");
  framework::CycleState state;
  // Without PreFilter (as upstream's tests call it) and after it: the same.
  CHECK(f->Filter(state, **pod, n1) == want);
  REQUIRE(pf->PreFilter(state, **pod, {}).status.IsSuccess());
  CHECK(f->Filter(state, **pod, n1) == want);
  CHECK(f->Filter(state, **pod, n2) == want);
  CHECK(f->Filter(*state.Clone(), **pod, n2) == want);

  // An empty claim name is an error, as upstream.
  api::v1::Pod unnamed = MakePod().Name("u").Obj();
  unnamed.mutable_spec()->add_volumes()->mutable_persistent_volume_claim();
  auto upod = framework::PodInfo::Create(unnamed);
  REQUIRE(upod.ok());
  framework::CycleState ustate;
  REQUIRE(pf->PreFilter(ustate, **upod, {}).status.IsSuccess());
  Status got = f->Filter(ustate, **upod, n1);
  CHECK(got.code() == Code::kError);
  CHECK(got.Message() == "PersistentVolumeClaim had no name");

  // No volumes, or none with a PVC: Success.
  framework::CycleState empty;
  CHECK(f->Filter(empty, *MakePod().Info(), n1).IsSuccess());
  auto plain = framework::PodInfo::Create(WithPlainVolumes(MakePod().Obj(), 3));
  CHECK(f->Filter(empty, **plain, n1).IsSuccess());
}

TEST_CASE("NodeVolumeLimits events and hint edges", "[nodevolumelimits]") {
  auto plugin = NewPlugin();
  auto* ee = dynamic_cast<framework::EnqueueExtensions*>(plugin.get());
  auto events = ee->EventsToRegister();
  REQUIRE(events.size() == 1);
  CHECK(events[0].event.resource == framework::EventResource::kPod);
  CHECK(events[0].event.action == framework::kActionDelete);
  CHECK(static_cast<bool>(events[0].hint));

  auto pod = MakePod().Info();
  CHECK_FALSE(NodeVolumeLimits::IsSchedulableAfterPodDeleted(*pod, framework::EventObjects()).ok());
  // Nominated but not bound still counts as placed.
  api::v1::Pod nominated = MakePod().PVC("x").Obj();
  nominated.mutable_status()->set_nominated_node_name("n1");
  framework::EventObjects e;
  e.old_pod = &nominated;
  CHECK(*NodeVolumeLimits::IsSchedulableAfterPodDeleted(*pod, e) == framework::QueueingHint::kQueue);
  // Bound, but only non-PVC volumes.
  const api::v1::Pod plain = WithPlainVolumes(MakePod().Node("n1").Obj(), 1);
  e.old_pod = &plain;
  CHECK(*NodeVolumeLimits::IsSchedulableAfterPodDeleted(*pod, e) == framework::QueueingHint::kSkip);
}

}  // namespace
}  // namespace schedkit::plugins
