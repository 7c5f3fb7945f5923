// Ports of upstream v1.35.8 pkg/scheduler/framework/plugins/volumerestrictions
// volume_restrictions_test.go: TestGCEDiskConflicts, TestAWSDiskConflicts,
// TestRBDDiskConflicts, TestISCSIDiskConflicts, TestAccessModeConflicts,
// Test_isSchedulableAfterPodDeleted and
// Test_isSchedulableAfterPersistentVolumeClaimChange, every case. The claims
// live in a FakeStorageClient, the existing pods in the FakeHandle's
// snapshot, as upstream's listers and snapshot hold them.
#include "plugins/volumerestrictions/volume_restrictions.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"
#include "schedkit/testing/fake_storage_client.h"
#include "testing/must.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::Status;
using testing::MakeNode;
using testing::MakePod;

// The plugin over a snapshot of `existing` pods on node-1 and the `claims`.
struct World {
  testing::FakeStorageClient client;
  testing::FakeHandle handle;
  std::unique_ptr<framework::Plugin> plugin;

  World(const std::vector<api::v1::Pod>& existing, const std::vector<api::v1::PersistentVolumeClaim>& claims) {
    for (const auto& c : claims) client.Add(c);
    handle.set_client(&client);
    std::vector<api::v1::Node> nodes;
    if (!existing.empty()) nodes.push_back(MakeNode().Name("node-1").Obj());
    handle.SetCluster(nodes, existing);
    plugin = testing::MustNew(&NewVolumeRestrictions, handle);
  }
};

// Runs PreFilter and, when it succeeds, Filter, as the upstream tables do.
void CheckPreFilterThenFilter(World& w, const api::v1::Pod& pod_obj, const framework::NodeInfo& node,
                              const Status& want_pre_filter, const Status& want_filter) {
  auto* pf = dynamic_cast<framework::PreFilterPlugin*>(w.plugin.get());
  auto* f = dynamic_cast<framework::FilterPlugin*>(w.plugin.get());
  REQUIRE(pf != nullptr);
  REQUIRE(f != nullptr);
  auto pod = testing::Info(pod_obj);
  framework::CycleState state;
  auto r = pf->PreFilter(state, *pod, {});
  CHECK(r.status == want_pre_filter);
  if (r.status.IsSuccess()) CHECK(f->Filter(state, *pod, node) == want_filter);
}

void CheckPreFilterThenFilter(const api::v1::Pod& pod_obj, const framework::NodeInfo& node,
                              const Status& want_pre_filter, const Status& want_filter) {
  World w({}, {});
  CheckPreFilterThenFilter(w, pod_obj, node, want_pre_filter, want_filter);
}

framework::NodeInfo NodeWith(const std::vector<api::v1::Pod>& pods) { return MakeNode().Name("node-1").Info(pods); }

api::v1::Volume Gce(const std::string& pd) {
  api::v1::Volume v;
  v.mutable_gce_persistent_disk()->set_pd_name(pd);
  return v;
}
api::v1::Volume Aws(const std::string& id) {
  api::v1::Volume v;
  v.mutable_aws_elastic_block_store()->set_volume_id(id);
  return v;
}
api::v1::Volume Rbd(std::vector<std::string> monitors) {
  api::v1::Volume v;
  auto* rbd = v.mutable_rbd();
  for (auto& m : monitors) rbd->add_monitors(m);
  rbd->set_pool("foo");
  rbd->set_image("bar");
  rbd->set_fs_type("ext4");
  return v;
}
api::v1::Volume Iscsi(const std::string& iqn) {
  api::v1::Volume v;
  auto* iscsi = v.mutable_iscsi();
  iscsi->set_target_portal("127.0.0.1:3260");
  iscsi->set_iqn(iqn);
  return v;
}

const Status kDiskConflict = Status(Code::kUnschedulable, Symbol::Intern("node(s) had no available disk"));

// The four disk tables share their shape: "nothing", "one state",
// "same state" (conflict), "different state".
void CheckDiskTable(const api::v1::Volume& vol_state, const api::v1::Volume& vol_state2) {
  SECTION("nothing") { CheckPreFilterThenFilter(api::v1::Pod(), framework::NodeInfo(), Status::Skip(), Status()); }
  SECTION("one state") {
    CheckPreFilterThenFilter(api::v1::Pod(), NodeWith({MakePod().Volume(vol_state).Obj()}), Status::Skip(),
                             Status());
  }
  SECTION("same state") {
    CheckPreFilterThenFilter(MakePod().Volume(vol_state).Obj(), NodeWith({MakePod().Volume(vol_state).Obj()}),
                             Status(), kDiskConflict);
  }
  SECTION("different state") {
    CheckPreFilterThenFilter(MakePod().Volume(vol_state2).Obj(), NodeWith({MakePod().Volume(vol_state).Obj()}),
                             Status(), Status());
  }
}

TEST_CASE("TestGCEDiskConflicts", "[volumerestrictions]") {
  CheckDiskTable(Gce("foo"), Gce("bar"));
  SECTION("pod with a volume that doesn't have restrictions") {
    api::v1::Volume none;
    none.set_name("volume with no restriction");
    CheckPreFilterThenFilter(MakePod().Volume(none).Obj(), framework::NodeInfo(), Status::Skip(), Status());
  }
}
TEST_CASE("TestAWSDiskConflicts", "[volumerestrictions]") { CheckDiskTable(Aws("foo"), Aws("bar")); }
TEST_CASE("TestRBDDiskConflicts", "[volumerestrictions]") { CheckDiskTable(Rbd({"a", "b"}), Rbd({"c", "d"})); }
TEST_CASE("TestISCSIDiskConflicts", "[volumerestrictions]") {
  CheckDiskTable(Iscsi("iqn.2016-12.server:storage.target01"), Iscsi("iqn.2017-12.server:storage.target01"));
}

api::v1::PersistentVolumeClaim Claim(const std::string& name, const std::string& mode) {
  api::v1::PersistentVolumeClaim c;
  c.mutable_metadata()->set_namespace_("default");
  c.mutable_metadata()->set_name(name);
  c.mutable_spec()->add_access_modes(mode);
  return c;
}

TEST_CASE("TestAccessModeConflicts", "[volumerestrictions]") {
  const auto pod_with_one_pvc =
      MakePod().Name("pod-with-one-pvc").Namespace("default").PVC("claim-with-rwop-1").Node("node-1").Obj();
  const auto pod_with_two_pvcs = MakePod()
                                     .Name("pod-with-two-pvcs")
                                     .Namespace("default")
                                     .PVC("claim-with-rwop-1")
                                     .PVC("claim-with-rwop-2")
                                     .Node("node-1")
                                     .Obj();
  const auto pod_with_one_conflict =
      MakePod().Name("pod-with-one-conflict").Namespace("default").PVC("claim-with-rwop-1").Node("node-1").Obj();
  const auto pod_with_two_conflicts = MakePod()
                                          .Name("pod-with-two-conflicts")
                                          .Namespace("default")
                                          .PVC("claim-with-rwop-1")
                                          .PVC("claim-with-rwop-2")
                                          .Node("node-1")
                                          .Obj();
  const auto pod_with_rwx =
      MakePod().Name("pod-with-rwx").Namespace("default").PVC("claim-with-rwx").Node("node-1").Obj();
  const auto rwop1 = Claim("claim-with-rwop-1", "ReadWriteOncePod");
  const auto rwop2 = Claim("claim-with-rwop-2", "ReadWriteOncePod");
  const auto rwx = Claim("claim-with-rwx", "ReadWriteMany");
  const Status conflict = Status(
      Code::kUnschedulable,
      Symbol::Intern("node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode already "
                     "in-use by another pod"));

  SECTION("nothing") { CheckPreFilterThenFilter(api::v1::Pod(), framework::NodeInfo(), Status::Skip(), Status()); }
  SECTION("failed to get PVC") {
    CheckPreFilterThenFilter(pod_with_one_pvc, framework::NodeInfo(),
                             Status::WithText(Code::kUnschedulableAndUnresolvable,
                                              "persistentvolumeclaim \"claim-with-rwop-1\" not found"),
                             Status());
  }
  SECTION("no access mode conflict") {
    World w({pod_with_rwx}, {rwop1, rwx});
    CheckPreFilterThenFilter(w, pod_with_one_pvc, NodeWith({pod_with_rwx}), Status::Skip(), Status());
  }
  SECTION("access mode conflict, unschedulable") {
    World w({pod_with_one_pvc, pod_with_rwx}, {rwop1, rwx});
    CheckPreFilterThenFilter(w, pod_with_one_conflict, NodeWith({pod_with_one_pvc, pod_with_rwx}), Status(),
                             conflict);
  }
  SECTION("two conflicts, unschedulable") {
    World w({pod_with_two_pvcs, pod_with_rwx}, {rwop1, rwop2, rwx});
    CheckPreFilterThenFilter(w, pod_with_two_conflicts, NodeWith({pod_with_two_pvcs, pod_with_rwx}), Status(),
                             conflict);
  }
}

TEST_CASE("Test_isSchedulableAfterPodDeleted", "[volumerestrictions]") {
  struct Case {
    std::string name;
    api::v1::Pod pod, old_obj;
    framework::QueueingHint expected;
  };
  using framework::QueueingHint;
  auto with = [](const api::v1::Volume& v) { return MakePod().Volume(v).Obj(); };
  const std::vector<Case> cases = {
      {"queue-new-object-gcedisk-conflict", with(Gce("foo")), with(Gce("foo")), QueueingHint::kQueue},
      {"skip-new-object-gcedisk-no-conflict", with(Gce("foo")), with(Gce("bar")), QueueingHint::kSkip},
      {"queue-new-object-awsdisk-conflict", with(Aws("foo")), with(Aws("foo")), QueueingHint::kQueue},
      {"skip-new-object-awsdisk-no-conflict", with(Aws("foo")), with(Aws("bar")), QueueingHint::kSkip},
      {"queue-new-object-rbddisk-conflict", with(Rbd({"a", "b"})), with(Rbd({"a", "b"})), QueueingHint::kQueue},
      {"skip-new-object-rbddisk-no-conflict", with(Rbd({"a", "b"})), with(Rbd({"c", "d"})), QueueingHint::kSkip},
      {"queue-new-object-iscsidisk-conflict", with(Iscsi("iqn.2016-12.server:storage.target01")),
       with(Iscsi("iqn.2016-12.server:storage.target01")), QueueingHint::kQueue},
      {"skip-new-object-iscsidisk-no-conflict", with(Iscsi("iqn.2016-12.server:storage.target01")),
       with(Iscsi("iqn.2017-12.server:storage.target01")), QueueingHint::kSkip},
      {"queue-has-same-claim", MakePod().Name("pod1").PVC("claim-rwop").Obj(),
       MakePod().Name("pod2").PVC("claim-rwop").Obj(), QueueingHint::kQueue},
      {"skip-no-same-claim", MakePod().Name("pod1").PVC("claim-1-rwop").Obj(),
       MakePod().Name("pod2").PVC("claim-2-rwop").Obj(), QueueingHint::kSkip},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      framework::EventObjects e;
      e.SetOld(&c.old_obj);
      auto got = VolumeRestrictions::IsSchedulableAfterPodDeleted(*testing::Info(c.pod), e);
      REQUIRE(got.ok());
      CHECK(*got == c.expected);
    }
  }
}

TEST_CASE("Test_isSchedulableAfterPersistentVolumeClaimChange", "[volumerestrictions]") {
  const auto pod_with_one_pvc =
      MakePod().Name("pod-with-one-pvc").Namespace("default").PVC("claim-with-rwx-1").Node("node-1").Obj();
  const auto pod_with_two_pvcs = MakePod()
                                     .Name("pod-with-two-pvcs")
                                     .Namespace("default")
                                     .PVC("claim-with-rwx-1")
                                     .PVC("claim-with-rwx-2")
                                     .Node("node-1")
                                     .Obj();
  const auto pod_other_namespace = MakePod()
                                       .Name("pod-with-one-pvc")
                                       .Namespace("kube-system")
                                       .PVC("claim-with-rwx-1")
                                       .Node("claim-with-rwx-2")
                                       .Obj();
  const auto pvc1 = Claim("claim-with-rwx-1", "ReadWriteMany");
  const auto pvc2 = Claim("claim-with-rwx-2", "ReadWriteMany");
  struct Case {
    std::string name;
    api::v1::Pod pod;
    api::v1::PersistentVolumeClaim added;
    framework::QueueingHint expected;
  };
  using framework::QueueingHint;
  const std::vector<Case> cases = {
      {"queue-new-object-pvc-belong-pod", pod_with_two_pvcs, pvc1, QueueingHint::kQueue},
      {"skip-new-object-unused", pod_with_one_pvc, pvc2, QueueingHint::kSkip},
      {"skip-nil-old-object", pod_with_one_pvc, pvc2, QueueingHint::kSkip},
      {"skip-new-object-not-belong-pod", pod_with_one_pvc, pvc2, QueueingHint::kSkip},
      {"skip-new-object-namespace-not-equal-pod", pod_other_namespace, pvc1, QueueingHint::kSkip},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      framework::EventObjects e;
      e.SetNew(&c.added);
      auto got = VolumeRestrictions::IsSchedulableAfterClaimAdded(*testing::Info(c.pod), e);
      REQUIRE(got.ok());
      CHECK(*got == c.expected);
    }
  }
}

// --- schedkit-specific ---

TEST_CASE("VolumeRestrictions read-only disks and RBD pools", "[volumerestrictions]") {
  api::v1::Volume ro = Gce("foo");
  ro.mutable_gce_persistent_disk()->set_read_only(true);
  // Two read-only mounts of one PD share it; a writer does not.
  CheckPreFilterThenFilter(MakePod().Volume(ro).Obj(), NodeWith({MakePod().Volume(ro).Obj()}), Status(), Status());
  CheckPreFilterThenFilter(MakePod().Volume(Gce("foo")).Obj(), NodeWith({MakePod().Volume(ro).Obj()}), Status(),
                           kDiskConflict);
  // AWS EBS volumes conflict even when both are read-only.
  api::v1::Volume aws_ro = Aws("foo");
  aws_ro.mutable_aws_elastic_block_store()->set_read_only(true);
  CheckPreFilterThenFilter(MakePod().Volume(aws_ro).Obj(), NodeWith({MakePod().Volume(aws_ro).Obj()}), Status(),
                           kDiskConflict);
  // An unset RBD pool is the API server's default, "rbd".
  api::v1::Volume unset = Rbd({"a"});
  unset.mutable_rbd()->clear_pool();
  api::v1::Volume named = Rbd({"a"});
  named.mutable_rbd()->set_pool("rbd");
  CheckPreFilterThenFilter(MakePod().Volume(unset).Obj(), NodeWith({MakePod().Volume(named).Obj()}), Status(),
                           kDiskConflict);
}

TEST_CASE("VolumeRestrictions Filter and extensions over the ReadWriteOncePod state", "[volumerestrictions]") {
  World w({}, {});
  auto* f = dynamic_cast<framework::FilterPlugin*>(w.plugin.get());
  auto* pf = dynamic_cast<framework::PreFilterPlugin*>(w.plugin.get());
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
  CHECK(f->Filter(*cloned, *pod, node).code() == Code::kUnschedulable);
  // The original is untouched.
  CHECK(f->Filter(state, *pod, node).IsSuccess());
  CHECK(ext->RemovePod(*cloned, *pod, *other, node).IsSuccess());
  CHECK(f->Filter(*cloned, *pod, node).IsSuccess());
  // A pod without the claim changes nothing.
  CHECK(ext->AddPod(*cloned, *pod, *MakePod().Name("x").PVC("other").Info(), node).IsSuccess());
  CHECK(f->Filter(*cloned, *pod, node).IsSuccess());
}

TEST_CASE("VolumeRestrictions events and hint edges", "[volumerestrictions]") {
  World w({}, {});
  auto* ee = dynamic_cast<framework::EnqueueExtensions*>(w.plugin.get());
  auto events = ee->EventsToRegister();
  REQUIRE(events.size() == 3);
  CHECK(events[0].event.resource == framework::EventResource::AssignedPod());
  CHECK(events[0].event.action == framework::kActionDelete);
  CHECK(static_cast<bool>(events[0].hint));
  CHECK(events[1].event.resource == framework::EventResource::Node());
  CHECK(events[1].event.action == framework::kActionAdd);
  CHECK(events[2].event.resource == framework::EventResource::Of<api::v1::PersistentVolumeClaim>());
  CHECK(events[2].event.action == framework::kActionAdd);

  auto pod = MakePod().Name("pod1").Namespace("a").PVC("c").Info();
  const auto other_ns = MakePod().Name("pod2").Namespace("b").PVC("c").Obj();
  framework::EventObjects e;
  e.SetOld(&other_ns);
  CHECK(*VolumeRestrictions::IsSchedulableAfterPodDeleted(*pod, e) == framework::QueueingHint::kSkip);
  CHECK_FALSE(VolumeRestrictions::IsSchedulableAfterPodDeleted(*pod, framework::EventObjects()).ok());
  CHECK_FALSE(VolumeRestrictions::IsSchedulableAfterClaimAdded(*pod, framework::EventObjects()).ok());
}

}  // namespace
}  // namespace schedkit::plugins
