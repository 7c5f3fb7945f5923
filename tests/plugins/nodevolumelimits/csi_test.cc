// Ports of upstream v1.35.8 pkg/scheduler/framework/plugins/nodevolumelimits
// csi_test.go:
//  - TestCSILimits: all 33 cases — the 11 with CSI volumes only, the 10
//    in-tree migration ones, the 8 ephemeral ones, "don't skip Filter when
//    the pod has inline migratable volumes" and "... has ephemeral volumes"
//    in the table below; "skip Filter when the pod only uses secrets and
//    configmaps" and the PreFilter half of "don't skip Filter when the pod
//    has pvcs" (whose Filter half is in the table) in "TestCSILimits".
//  - TestCSILimitsQHint: 4 of 4.
//  - TestCSILimitsDeletedVolumeAttachmentQHint: 6 of 6.
// and of k8s.io/csi-translation-lib v0.35.8:
//  - plugins/aws_ebs_test.go TestKubernetesVolumeIDToEBSVolumeID (4 of 4)
//    and TestTranslateInTreeInlineVolumeToCSI (4 of 5: an inline volume
//    without a source is never translated here);
//  - plugins/gce_pd_test.go TestTranslateInTreePVToCSIVolIDFmt (4 of 4);
//  - translate_test.go TestPluginNameMappings (2 of 2).
#include "plugins/nodevolumelimits/csi.h"

#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "plugins/nodevolumelimits/csi_translation.h"
#include "schedkit/testing/builders.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/testing/fake_handle.h"
#include "schedkit/testing/fake_storage_client.h"
#include "testing/must.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::Status;
using testing::MakeNode;
using testing::MakePod;

std::unique_ptr<framework::Plugin> NewPlugin() {
  // The plugin keeps the handle: one that outlives every test.
  static testing::FakeHandle h;
  auto plugin = NewNodeVolumeLimits(framework::PluginArgs(), h);
  REQUIRE(plugin.ok());
  return *std::move(plugin);
}

api::v1::Pod WithPlainVolumes(api::v1::Pod pod, int n) {
  for (int i = 0; i < n; ++i) pod.mutable_spec()->add_volumes();
  return pod;
}

api::v1::Volume EBSVolume(const std::string& name, const std::string& id) {
  api::v1::Volume v;
  v.set_name(name);
  v.mutable_aws_elastic_block_store()->set_volume_id(id);
  return v;
}

api::v1::Volume GCEVolume(const std::string& name, const std::string& pd) {
  api::v1::Volume v;
  v.set_name(name);
  v.mutable_gce_persistent_disk()->set_pd_name(pd);
  return v;
}

api::v1::Volume EphemeralVolume(const std::string& name) {
  api::v1::Volume v;
  v.set_name(name);
  v.mutable_ephemeral();
  return v;
}

// A claim in `ns` that the pod `pod`/`uid` controls (unowned without a uid).
api::v1::PersistentVolumeClaim OwnedClaim(const std::string& ns, const std::string& name,
                                          const std::string& pod, const std::string& uid) {
  api::v1::PersistentVolumeClaim pvc;
  pvc.mutable_metadata()->set_name(name);
  pvc.mutable_metadata()->set_namespace_(ns);
  if (!uid.empty()) {
    auto* owner = pvc.mutable_metadata()->add_owner_references();
    owner->set_kind("Pod");
    owner->set_name(pod);
    owner->set_uid(uid);
    owner->set_controller(true);
  }
  pvc.mutable_spec()->set_storage_class_name("csi-sc");
  return pvc;
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
      {"return a Queue when a deleted pod has a inline migratable volume",
       MakePod().Volume(EBSVolume("", "")).Node(node_name).Obj(), framework::QueueingHint::kQueue},
      {"return a QueueSkip when a deleted pod doesn't have any volume", MakePod().Node(node_name).Obj(),
       framework::QueueingHint::kSkip},
      {"return a QueueSkip when a deleted pod is not scheduled.",
       MakePod().PVC("csi-ebs.csi.aws.com-0").Obj(), framework::QueueingHint::kSkip},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      framework::EventObjects e;
      e.SetOld(&c.deleted);
      auto got = NodeVolumeLimits::IsSchedulableAfterPodDeleted(*new_pod, e);
      REQUIRE(got.ok());
      CHECK(*got == c.want);
    }
  }
}

// PreFilter, then Filter of `pod_obj` on `node`, with `client`'s objects.
Status PreFilterThenFilter(testing::FakeStorageClient& client, const api::v1::Pod& pod_obj,
                           const framework::NodeInfo& node, const framework::FeatureGates* gates = nullptr) {
  testing::FakeHandle h;
  h.set_client(&client);
  framework::PluginArgs args;
  if (gates != nullptr) args.set_gates(gates);
  auto built = NewNodeVolumeLimits(args, h);
  REQUIRE(built.ok());
  std::unique_ptr<framework::Plugin> plugin = *std::move(built);
  auto* pf = dynamic_cast<framework::PreFilterPlugin*>(plugin.get());
  auto* f = dynamic_cast<framework::FilterPlugin*>(plugin.get());
  auto pod = testing::Info(pod_obj);
  framework::CycleState state;
  const Status pre_filter = pf->PreFilter(state, *pod, {}).status;
  if (!pre_filter.IsSuccess()) return pre_filter;
  return f->Filter(state, *pod, node);
}

// TestCSILimits: upstream's fixture (getFakeCSIPVLister, getFakeCSIPVCLister,
// getFakeCSIStorageClassLister, getFakeVolumeAttachmentLister,
// getNodeWithPodAndVolumeLimits, enableMigrationOnNode) rebuilt in a
// FakeStorageClient. Claims "csi-<driver>-<j>" (j < 4) are bound to volumes
// of that name: a CSI volume of the driver with the name as handle, or for
// "kubernetes.io/aws-ebs" an in-tree EBS disk with the name as volume ID, or
// for "kubernetes.io/hostpath" a volume with none of schedkit's sources
// (hostPath is not in its API; like it, neither CSI nor migratable).
// "csi-4" is unbound with class "csi-sc", "csi-5" has neither, "csi-6" names
// a missing volume with class "csi-sc"; the class's provisioner is the first
// driver; `va_count` VolumeAttachments per driver attach "csi-<driver>-<j>"
// to the node. The fixture's claims are in the namespace MakePod gives
// ("default"; upstream's pods and claims have none). The CSINode lists each
// driver, with a count of `max_vols` under kLimits, and marks
// kubernetes.io/aws-ebs migrated.
enum class LimitSource { kLimits, kNoLimits, kNoCSINode };

struct LimitsCase {
  std::string test;
  api::v1::Pod new_pod;
  std::vector<api::v1::Pod> existing;
  int32_t max_vols;
  std::vector<std::string> drivers;
  int va_count = 0;
  LimitSource limit_source = LimitSource::kLimits;
  bool exceeds = false;
  std::vector<api::v1::PersistentVolumeClaim> extra_claims = {};
  std::optional<Status> want = std::nullopt;  // a status other than exceeds / fits
};

void RunLimitsCase(const LimitsCase& c) {
  const std::string ns = "default";
  testing::FakeStorageClient client;
  for (const std::string& driver : c.drivers) {
    for (int j = 0; j < 4; ++j) {
      const std::string name = schedkit::StrCat("csi-", driver, "-", j);
      api::v1::PersistentVolume pv;
      pv.mutable_metadata()->set_name(name);
      if (driver == "kubernetes.io/aws-ebs") {
        pv.mutable_spec()->mutable_aws_elastic_block_store()->set_volume_id(name);
      } else if (driver != "kubernetes.io/hostpath") {
        pv.mutable_spec()->mutable_csi()->set_driver(driver);
        pv.mutable_spec()->mutable_csi()->set_volume_handle(name);
      }
      client.Add(pv);
      api::v1::PersistentVolumeClaim pvc;
      pvc.mutable_metadata()->set_name(name);
      pvc.mutable_metadata()->set_namespace_(ns);
      pvc.mutable_spec()->set_volume_name(name);
      client.Add(pvc);
    }
    for (int j = 0; j < c.va_count; ++j) {
      api::v1::VolumeAttachment va;
      va.mutable_metadata()->set_name(schedkit::StrCat("va-", driver, "-", j));
      va.mutable_spec()->set_node_name("node-for-max-pd-test-1");
      va.mutable_spec()->set_attacher(driver);
      va.mutable_spec()->mutable_source()->set_persistent_volume_name(
          schedkit::StrCat("csi-", driver, "-", j));
      client.Add(va);
    }
  }
  auto claim = [&](const std::string& name, bool with_class, const std::string& volume) {
    api::v1::PersistentVolumeClaim pvc;
    pvc.mutable_metadata()->set_name(name);
    pvc.mutable_metadata()->set_namespace_(ns);
    if (with_class) pvc.mutable_spec()->set_storage_class_name("csi-sc");
    pvc.mutable_spec()->set_volume_name(volume);
    client.Add(pvc);
  };
  claim("csi-4", true, "");
  claim("csi-5", false, "");
  claim("csi-6", true, "missing-in-action");
  for (const api::v1::PersistentVolumeClaim& extra : c.extra_claims) client.Add(extra);
  api::v1::StorageClass sc;
  sc.mutable_metadata()->set_name("csi-sc");
  sc.set_provisioner(c.drivers[0]);
  client.Add(sc);
  if (c.limit_source != LimitSource::kNoCSINode) {
    api::v1::CSINode csi_node;
    csi_node.mutable_metadata()->set_name("node-for-max-pd-test-1");
    (*csi_node.mutable_metadata()->mutable_annotations())["storage.alpha.kubernetes.io/migrated-plugins"] =
        "kubernetes.io/aws-ebs";
    for (const std::string& driver : c.drivers) {
      auto* d = csi_node.mutable_spec()->add_drivers();
      d->set_name(driver);
      if (c.limit_source == LimitSource::kLimits) d->mutable_allocatable()->set_count(c.max_vols);
    }
    client.Add(csi_node);
  }

  Status want;
  if (c.want.has_value()) {
    want = *c.want;
  } else if (c.exceeds) {
    want = Status(Code::kUnschedulable, Symbol::Intern("node(s) exceed max volume count"));
  }
  const Status got =
      PreFilterThenFilter(client, c.new_pod, MakeNode().Name("node-for-max-pd-test-1").Info(c.existing));
  INFO(got.Message());
  CHECK(got == want);
}

TEST_CASE("TestCSILimits cases through Filter", "[nodevolumelimits]") {
  const std::string ebs = "ebs.csi.aws.com";
  const std::string gce = "pd.csi.storage.gke.io";
  const std::string ebs_in_tree = "kubernetes.io/aws-ebs";
  const std::string hostpath = "kubernetes.io/hostpath";
  constexpr LimitSource kLimits = LimitSource::kLimits;
  constexpr LimitSource kNoLimits = LimitSource::kNoLimits;
  constexpr LimitSource kNoCSINode = LimitSource::kNoCSINode;
  const auto running = MakePod().Name("running").PVC("csi-ebs.csi.aws.com-3").Obj();
  const auto pending = MakePod().Name("pending").PVC("csi-4").Obj();
  const auto unbound2 = MakePod().Name("unbound2").PVC("csi-4").Obj();
  const auto missing_pv = MakePod().Name("missing-pv").PVC("csi-6").Obj();
  const auto no_sc = MakePod().Name("no-sc").PVC("csi-5").Obj();
  const auto gce_two =
      MakePod().Name("gce-two").PVC("csi-pd.csi.storage.gke.io-1").PVC("csi-pd.csi.storage.gke.io-2").Obj();
  const auto ebs_one = MakePod().Name("ebs-one").PVC("csi-ebs.csi.aws.com-0").Obj();
  const auto ebs_two =
      MakePod().Name("ebs-two").PVC("csi-ebs.csi.aws.com-1").PVC("csi-ebs.csi.aws.com-2").Obj();
  const auto in_tree_one = MakePod().Name("in-tree-one").PVC("csi-kubernetes.io/aws-ebs-0").Obj();
  const auto in_tree_two = MakePod()
                               .Name("in-tree-two")
                               .PVC("csi-kubernetes.io/aws-ebs-1")
                               .PVC("csi-kubernetes.io/aws-ebs-2")
                               .Obj();
  const auto non_migratable = MakePod().Name("non-migratable").PVC("csi-kubernetes.io/hostpath-0").Obj();
  const auto inline_ebs = MakePod().Name("inline").Volume(EBSVolume("", "aws-inline1")).Obj();
  const auto inline_same_id =
      MakePod().Name("inline-same").Volume(EBSVolume("", "csi-ebs.csi.aws.com-1")).Obj();
  // Upstream's configMap and secret volumes are plain volumes here.
  const auto pvc_with_plain = MakePod()
                                  .Name("pvc-plain")
                                  .Volume(api::v1::Volume())
                                  .Volume(api::v1::Volume())
                                  .PVC("csi-ebs.csi.aws.com-0")
                                  .Obj();
  const auto inline_with_plain = MakePod()
                                     .Name("inline-plain")
                                     .Volume(api::v1::Volume())
                                     .Volume(api::v1::Volume())
                                     .Volume(EBSVolume("", "aws-inline1"))
                                     .Obj();
  const auto ephemeral =
      MakePod().Name("abc").Namespace("test").UID("12345").Volume(EphemeralVolume("xyz")).Obj();
  const auto ephemeral_two = MakePod()
                                 .Name("abc")
                                 .Namespace("test")
                                 .UID("12345II")
                                 .Volume(EphemeralVolume("x"))
                                 .Volume(EphemeralVolume("y"))
                                 .Obj();
  const auto ephemeral_with_plain = MakePod()
                                        .Name("abc")
                                        .Namespace("test")
                                        .Volume(api::v1::Volume())
                                        .Volume(api::v1::Volume())
                                        .Volume(EphemeralVolume("xyz"))
                                        .Obj();
  const auto ephemeral_claim = OwnedClaim("test", "abc-xyz", "abc", "12345");
  const auto conflicting_claim = OwnedClaim("test", "abc-xyz", "abc", "");
  const auto claim_x = OwnedClaim("test", "abc-x", "abc", "12345II");
  const auto claim_y = OwnedClaim("test", "abc-y", "abc", "12345II");
  // Upstream's fake lister names the resource in the plural; the informer's
  // lister (and schedkit) in the singular.
  const Status ephemeral_missing =
      Status::WithText(Code::kUnschedulableAndUnresolvable,
                       "looking up PVC test/abc-xyz: persistentvolumeclaim \"abc-xyz\" not found");
  const std::vector<LimitsCase> cases = {
      {"should count VolumeAttachments towards volume limit when no pods exist",
       ebs_one, {}, 2, {ebs}, 2, kLimits, true},
      {"should schedule pod when VolumeAttachments count does not exceed limit",
       ebs_one, {}, 2, {ebs}, 1, kLimits, false},
      {"fits when node volume limit >= new pods CSI volume",
       ebs_one, {running, ebs_two}, 4, {ebs}, 0, kLimits, false},
      {"doesn't when node volume limit <= pods CSI volume",
       ebs_one, {running, ebs_two}, 2, {ebs}, 0, kLimits, true},
      {"should when driver does not support volume limits",
       ebs_one, {running, ebs_two}, 2, {ebs}, 0, kNoLimits, false},
      {"count pending PVCs towards volume limit <= pods CSI volume",
       ebs_one, {pending, ebs_two}, 2, {ebs}, 0, kLimits, true},
      {"count multiple pending pvcs towards volume limit >= pods CSI volume",
       ebs_one, {pending, unbound2, ebs_two}, 4, {ebs}, 0, kLimits, false},
      {"should count PVCs with invalid PV name but valid SC",
       ebs_one, {missing_pv, ebs_two}, 2, {ebs}, 0, kLimits, true},
      {"don't count pvcs with missing SC towards volume limit",
       ebs_one, {running, no_sc}, 2, {ebs}, 0, kLimits, false},
      {"count pvcs with the same type towards volume limit",
       ebs_one, {gce_two, ebs_two}, 2, {ebs, gce}, 0, kLimits, true},
      {"don't count pvcs with different type towards volume limit",
       gce_two, {ebs_two, running}, 2, {ebs, gce}, 0, kLimits, false},
      // In-tree volume migration.
      {"should count in-tree volumes if migration is enabled",
       in_tree_one, {in_tree_two}, 2, {ebs_in_tree, ebs}, 0, kLimits, true},
      {"nil csi node",
       inline_ebs, {in_tree_two}, 0, {ebs_in_tree, ebs}, 0, kNoCSINode, false},
      {"should count unbound in-tree volumes if migration is enabled",
       pending, {in_tree_two}, 2, {ebs_in_tree, ebs}, 0, kLimits, true},
      {"should not limit pod if volume used does not report limits",
       in_tree_one, {in_tree_two}, 2, {ebs_in_tree, ebs}, 0, kNoLimits, false},
      {"should not count non-migratable in-tree volumes",
       non_migratable, {ebs_two}, 2, {hostpath, ebs}, 0, kLimits, false},
      {"should count in-tree inline volumes if migration is enabled",
       inline_ebs, {in_tree_two}, 2, {ebs_in_tree, ebs}, 0, kLimits, true},
      {"should count in-tree and csi volumes if migration is enabled (when scheduling in-tree volumes)",
       in_tree_one, {ebs_two}, 2, {ebs_in_tree, ebs}, 0, kLimits, true},
      {"should count in-tree, inline and csi volumes if migration is enabled (when scheduling in-tree "
       "volumes)",
       inline_ebs, {ebs_two, in_tree_one}, 3, {ebs_in_tree, ebs}, 0, kLimits, true},
      {"should not count in-tree, inline and csi volumes if migration is enabled (when scheduling in-tree "
       "volumes)",
       inline_same_id, {ebs_two, in_tree_one}, 3, {ebs_in_tree, ebs}, 0, kLimits, false},
      {"should count in-tree and csi volumes if migration is enabled (when scheduling csi volumes)",
       ebs_one, {in_tree_two}, 2, {ebs_in_tree, ebs}, 0, kLimits, true},
      // Ephemeral volumes.
      {"ephemeral volume missing",
       ephemeral, {}, 0, {ebs}, 0, kNoLimits, false, {}, ephemeral_missing},
      {"ephemeral volume not owned",
       ephemeral, {}, 0, {ebs}, 0, kNoLimits, false, {conflicting_claim},
       Status::Error("PVC test/abc-xyz was not created for pod test/abc (pod is not owner)")},
      {"ephemeral volume unbound",
       ephemeral, {}, 0, {ebs}, 0, kNoLimits, false, {ephemeral_claim}},
      {"ephemeral doesn't when node volume limit <= pods CSI volume",
       ephemeral, {running, ebs_two}, 2, {ebs}, 0, kLimits, true, {ephemeral_claim}},
      {"ephemeral doesn't when node volume limit <= pods ephemeral CSI volume",
       ebs_one, {running, ephemeral_two}, 2, {ebs}, 0, kLimits, true, {claim_x, claim_y}},
      // Upstream's ephemeralEnabled: false changes nothing (the field is not
      // read), hence the same verdict as the next case.
      {"persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent volume, "
       "ephemeral disabled",
       ebs_one, {running, ephemeral, ebs_two}, 3, {ebs}, 0, kLimits, true, {ephemeral_claim}},
      {"persistent doesn't when node volume limit <= pods ephemeral CSI volume + persistent volume",
       ebs_one, {running, ephemeral, ebs_two}, 3, {ebs}, 0, kLimits, true, {ephemeral_claim}},
      {"persistent okay when node volume limit > pods ephemeral CSI volume + persistent volume",
       ebs_one, {running, ephemeral, ebs_two}, 5, {ebs}, 0, kLimits, false, {ephemeral_claim}},
      // PreFilter does not skip these; Filter's verdicts.
      {"don't skip Filter when the pod has pvcs",
       pvc_with_plain, {}, 2, {ebs}, 0, kLimits, false},
      {"don't skip Filter when the pod has ephemeral volumes",
       ephemeral_with_plain, {}, 0, {ebs}, 0, kNoLimits, false, {}, ephemeral_missing},
      {"don't skip Filter when the pod has inline migratable volumes",
       inline_with_plain, {in_tree_two}, 2, {ebs_in_tree, ebs}, 0, kLimits, true},
  };
  for (const LimitsCase& c : cases) {
    SECTION(c.test) { RunLimitsCase(c); }
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

TEST_CASE("TestCSILimitsDeletedVolumeAttachmentQHint", "[nodevolumelimits]") {
  // Upstream's attachments of inline volumes carry an inlineVolumeSpec,
  // which schedkit's VolumeAttachment lacks; the hint reads only the attacher.
  auto attachment = [](const std::string& attacher) {
    api::v1::VolumeAttachment va;
    va.mutable_metadata()->set_name("volumeattachment1");
    va.mutable_spec()->set_node_name("fake-node");
    va.mutable_spec()->set_attacher(attacher);
    return va;
  };
  auto claim_volume = [] {
    api::v1::Volume v;
    v.mutable_persistent_volume_claim()->set_claim_name("pvc1");
    return v;
  };
  struct Case {
    std::string test;
    api::v1::Pod new_pod;
    api::v1::VolumeAttachment deleted;
    framework::QueueingHint want;
  };
  const std::vector<Case> cases = {
      {"a pod has PVC when VolumeAttachment is deleting",
       MakePod().Namespace("ns1").Volume(claim_volume()).Obj(), attachment("test.storage.gke.io"),
       framework::QueueingHint::kQueue},
      {"a pod has an Inline Migratable volume (AWSEBSDriver) when VolumeAttachment (AWSEBSDriver) is "
       "deleting (match)",
       MakePod().Namespace("ns1").Volume(EBSVolume("", "test")).Obj(), attachment("ebs.csi.aws.com"),
       framework::QueueingHint::kQueue},
      {"a pod has an Inline Migratable volume (GCEPDDriver) when VolumeAttachment (AWSEBSDriver) is deleting "
       "(no match)",
       MakePod().Namespace("ns1").Volume(GCEVolume("", "test")).Obj(), attachment("ebs.csi.aws.com"),
       framework::QueueingHint::kSkip},
      {"a pod has an Inline Migratable volume (AWSEBSDriver) and PVC when VolumeAttachment (AWSEBSDriver) is "
       "deleting",
       MakePod().Namespace("ns1").Volume(EBSVolume("", "test")).Volume(claim_volume()).Obj(),
       attachment("ebs.csi.aws.com"), framework::QueueingHint::kQueue},
      {"a pod has an Inline Migratable volume (AWSEBSDriver) and PVC when VolumeAttachment (AWSEBSDriver) "
       " is deleting",
       MakePod().Namespace("ns1").Volume(EBSVolume("", "test")).Volume(claim_volume()).Obj(),
       attachment("test.storage.gke.io"), framework::QueueingHint::kQueue},
      {"a pod has no PVC when VolumeAttachment is deleting", MakePod().Namespace("ns1").Obj(),
       attachment("test.storage.gke.io"), framework::QueueingHint::kSkip},
  };
  for (const Case& c : cases) {
    SECTION(c.test) {
      framework::EventObjects e;
      e.SetOld(&c.deleted);
      auto got = NodeVolumeLimits::IsSchedulableAfterVolumeAttachmentDeleted(*testing::Info(c.new_pod), e);
      REQUIRE(got.ok());
      CHECK(*got == c.want);
    }
  }
  SECTION("schedkit: an inline EBS disk that does not translate is an error, which queues") {
    framework::EventObjects e;
    const api::v1::VolumeAttachment va = attachment("ebs.csi.aws.com");
    e.SetOld(&va);
    auto got = NodeVolumeLimits::IsSchedulableAfterVolumeAttachmentDeleted(
        *MakePod().Volume(EBSVolume("bad", "aws://zone/disk-1")).Info(), e);
    REQUIRE_FALSE(got.ok());
    CHECK(std::string(got.status().message()) ==
          "converting volume(bad) from inline to csi: failed to translate Kubernetes ID to EBS Volume ID "
          "Invalid format for AWS volume (aws://zone/disk-1)");
  }
}

// --- csi-translation-lib's expectations for the handles the plugin counts ---

TEST_CASE("TestKubernetesVolumeIDToEBSVolumeID", "[nodevolumelimits]") {
  // aws_ebs_test.go's IDs.
  const std::string normal = "vol-02399794d890f9375";
  struct Case {
    std::string name, id;
    bool err;
  };
  const std::vector<Case> cases = {
      {"Normal ID format", normal, false},
      {"aws:///{volumeId} format", "aws:///vol-02399794d890f9375", false},
      {"aws://{zone}/{volumeId} format", "aws://us-west-2a/vol-02399794d890f9375", false},
      {"fails on invalid volume ID", "aws://us-west-2a/02399794d890f9375", true},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      auto got = csi_translation::EBSVolumeID(c.id);
      CHECK(got.ok() == !c.err);
      if (got.ok()) CHECK(*got == normal);
    }
  }
}

TEST_CASE("TestTranslateInTreeInlineVolumeToCSI (aws_ebs_test.go)", "[nodevolumelimits]") {
  // Each ID form names the volume "vol-02399794d890f9375": an inline disk
  // given so is the volume a pod on the node holds through a CSI PV of that
  // handle, so it adds nothing to a full node. Not ported: "fails on empty
  // volume source" (an inline volume without a source is never translated).
  testing::FakeStorageClient client;
  api::v1::PersistentVolume pv;
  pv.mutable_metadata()->set_name("pv");
  pv.mutable_spec()->mutable_csi()->set_driver("ebs.csi.aws.com");
  pv.mutable_spec()->mutable_csi()->set_volume_handle("vol-02399794d890f9375");
  client.Add(pv);
  api::v1::PersistentVolumeClaim pvc;
  pvc.mutable_metadata()->set_name("pvc");
  pvc.mutable_metadata()->set_namespace_("default");
  pvc.mutable_spec()->set_volume_name("pv");
  client.Add(pvc);
  api::v1::CSINode csi_node;
  csi_node.mutable_metadata()->set_name("n");
  auto* d = csi_node.mutable_spec()->add_drivers();
  d->set_name("ebs.csi.aws.com");
  d->mutable_allocatable()->set_count(1);
  client.Add(csi_node);
  const framework::NodeInfo node = MakeNode().Name("n").Info({MakePod().Name("holder").PVC("pvc").Obj()});
  struct Case {
    std::string name, id;
    bool err;
  };
  const std::vector<Case> cases = {
      {"Normal ID format", "vol-02399794d890f9375", false},
      {"aws:///{volumeId} format", "aws:///vol-02399794d890f9375", false},
      {"aws://{zone}/{volumeId} format", "aws://us-west-2a/vol-02399794d890f9375", false},
      {"fails on invalid volume ID", "aws://us-west-2a/02399794d890f9375", true},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      const Status got =
          PreFilterThenFilter(client, MakePod().Name("p").Volume(EBSVolume("volume", c.id)).Obj(), node);
      if (c.err) {
        CHECK(got == Status::Error("converting volume(volume) from inline to csi: failed to translate "
                                   "Kubernetes ID to EBS Volume ID Invalid format for AWS volume "
                                   "(aws://us-west-2a/02399794d890f9375)"));
      } else {
        CHECK(got.IsSuccess());
      }
    }
  }
}

api::v1::PersistentVolume GCEPV(const std::string& name, const std::string& pd,
                                const std::map<std::string, std::string>& labels) {
  api::v1::PersistentVolume pv;
  pv.mutable_metadata()->set_name(name);
  for (const auto& [k, v] : labels) (*pv.mutable_metadata()->mutable_labels())[k] = v;
  pv.mutable_spec()->mutable_gce_persistent_disk()->set_pd_name(pd);
  return pv;
}

TEST_CASE("TestTranslateInTreePVToCSIVolIDFmt", "[nodevolumelimits]") {
  const std::string beta = "failure-domain.beta.kubernetes.io/zone";
  const std::string ga = "topology.kubernetes.io/zone";
  struct Case {
    std::string desc, key, value, want;
  };
  const std::vector<Case> cases = {
      {"beta topology key zonal", beta, "us-east1-a", "projects/UNSPECIFIED/zones/us-east1-a/disks/pd-name"},
      {"v1 topology key zonal", ga, "us-east1-a", "projects/UNSPECIFIED/zones/us-east1-a/disks/pd-name"},
      {"beta topology key regional", beta, "us-central1-a__us-central1-c",
       "projects/UNSPECIFIED/regions/us-central1/disks/pd-name"},
      {"v1 topology key regional", ga, "us-central1-a__us-central1-c",
       "projects/UNSPECIFIED/regions/us-central1/disks/pd-name"},
  };
  for (const Case& c : cases) {
    SECTION(c.desc) {
      auto got = csi_translation::GCEPDVolumeHandle(GCEPV("pv", "pd-name", {{c.key, c.value}}));
      REQUIRE(got.ok());
      CHECK(*got == c.want);
    }
  }
}

TEST_CASE("TestPluginNameMappings", "[nodevolumelimits]") {
  struct Case {
    std::string name, in_tree, csi;
  };
  const std::vector<Case> cases = {
      {"GCE PD plugin name", "kubernetes.io/gce-pd", "pd.csi.storage.gke.io"},
      {"AWS EBS plugin name", "kubernetes.io/aws-ebs", "ebs.csi.aws.com"},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      const csi_translation::InTreePlugin* p = csi_translation::FindInTreePlugin(c.in_tree);
      REQUIRE(p != nullptr);
      CHECK(p->driver == c.csi);
    }
  }
}

// --- schedkit-specific ---

TEST_CASE("EBS volume IDs parse as Go's net/url parses them", "[nodevolumelimits]") {
  // Values csi-translation-lib v0.35.8's KubernetesVolumeIDToEBSVolumeID
  // gives (run with Go 1.26's net/url).
  struct Case {
    std::string id;
    std::string want;  // the volume ID, or the error's text
    bool err = false;
  };
  auto invalid_format = [](const std::string& id) {
    return Case{id, schedkit::StrCat("Invalid format for AWS volume (", id, ")"), true};
  };
  auto invalid_name = [](const std::string& id, const std::string& reason) {
    return Case{id, schedkit::StrCat("Invalid disk name (", id, "): parse ", reason), true};
  };
  const std::vector<Case> cases = {
      {"aws:/vol-1", "aws:/vol-1"},  // not "aws://": taken as it is
      {"AWS://zone/vol-1", "AWS://zone/vol-1"},
      {"aws://us-east-1a//vol-1//", "vol-1"},
      {"aws://us-east-1a/vol-%41", "vol-A"},
      {"aws://zone/%76ol-1", "vol-1"},
      {"aws://zone/vol-1 2", "vol-1 2"},
      {"aws://us-east-1a/vol-1?x=y", "vol-1"},
      {"aws://us-east-1a/vol-1?", "vol-1"},
      {"aws://us-east-1a/vol-1#frag", "vol-1"},
      {"aws://zone/vol-1#\t", "vol-1"},
      {"aws://us-east-1a:80/vol-1", "vol-1"},
      {"aws://us-east-1a:/vol-1", "vol-1"},
      {"aws://a:b:1/vol-1", "vol-1"},
      {"aws://us%C3%A9east/vol-1", "vol-1"},
      {"aws://us%25east/vol-1", "vol-1"},
      {"aws://us\"east/vol-1", "vol-1"},
      {"aws://user@zone/vol-1", "vol-1"},
      {"aws://u@v@zone/vol-1", "vol-1"},
      {"aws://zon\xC3\xA9/vol-1", "vol-1"},
      invalid_format("aws://"),
      invalid_format("aws://us-east-1a"),
      invalid_format("aws://us-east-1a/"),
      invalid_format("aws://us-east-1a/vol-1/x"),
      invalid_format("aws://us-east-1a/vol-%2Fa"),
      invalid_format("aws://zone?/vol-1"),
      invalid_format("aws://zone#/vol-1"),
      invalid_name("aws://us-east-1a/vol-%zz", "\"aws://us-east-1a/vol-%zz\": invalid URL escape \"%zz\""),
      invalid_name("aws://us-east-1a/vol-%4", "\"aws://us-east-1a/vol-%4\": invalid URL escape \"%4\""),
      invalid_name("aws://us-east-1a/vol-1#fr%zz",
                   "\"aws://us-east-1a/vol-1#fr%zz\": invalid URL escape \"%zz\""),
      invalid_name("aws://us-east-1a:8x/vol-1",
                   "\"aws://us-east-1a:8x/vol-1\": invalid port \":8x\" after host"),
      invalid_name("aws://us east/vol-1", "\"aws://us east/vol-1\": invalid character \" \" in host name"),
      invalid_name("aws://us{east/vol-1", "\"aws://us{east/vol-1\": invalid character \"{\" in host name"),
      invalid_name("aws://zone\\/vol-1", "\"aws://zone\\\\/vol-1\": invalid character \"\\\\\" in host name"),
      invalid_name("aws://us%41east/vol-1", "\"aws://us%41east/vol-1\": invalid URL escape \"%41\""),
      invalid_name("aws://us er@zone/vol-1", "\"aws://us er@zone/vol-1\": net/url: invalid userinfo"),
      invalid_name("aws://u\xC3\xA9@zone/vol-1", "\"aws://u\xC3\xA9@zone/vol-1\": net/url: invalid userinfo"),
      invalid_name("aws://u%zz:p@zone/vol-1", "\"aws://u%zz:p@zone/vol-1\": invalid URL escape \"%zz\""),
      invalid_name("aws://u:p%@zone/vol-1", "\"aws://u:p%@zone/vol-1\": invalid URL escape \"%\""),
      invalid_name("aws://a%:b@zone/vol-1", "\"aws://a%:b@zone/vol-1\": invalid URL escape \"%\""),
      invalid_name("aws://x[a]/vol-1", "\"aws://x[a]/vol-1\": invalid IP-literal"),
      invalid_name("aws://zone/vol-\tx",
                   "\"aws://zone/vol-\\tx\": net/url: invalid control character in URL"),
  };
  for (const Case& c : cases) {
    INFO(c.id);
    auto got = csi_translation::EBSVolumeID(c.id);
    if (c.err) {
      REQUIRE_FALSE(got.ok());
      CHECK(std::string(got.status().message()) == c.want);
    } else {
      REQUIRE(got.ok());
      CHECK(*got == c.want);
    }
  }
}

TEST_CASE("GCE PD PersistentVolume handles by zone labels", "[nodevolumelimits]") {
  // Values csi-translation-lib v0.35.8's TranslateInTreePVToCSI gives.
  const std::string beta = "failure-domain.beta.kubernetes.io/zone";
  const std::string ga = "topology.kubernetes.io/zone";
  auto handle = [](const std::map<std::string, std::string>& labels) {
    return csi_translation::GCEPDVolumeHandle(GCEPV("pv", "pd", labels));
  };
  CHECK(*handle({}) == "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/pd");
  CHECK(*handle({{ga, ""}}) == "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/pd");
  // The beta label wins unless empty.
  CHECK(*handle({{beta, ""}, {ga, "us-east1-b"}}) == "projects/UNSPECIFIED/zones/us-east1-b/disks/pd");
  CHECK(*handle({{beta, "us-east1-a"}, {ga, "us-west1-b"}}) ==
        "projects/UNSPECIFIED/zones/us-east1-a/disks/pd");
  // One zone is taken as it is; several must share a region.
  CHECK(*handle({{beta, "zone1"}}) == "projects/UNSPECIFIED/zones/zone1/disks/pd");
  CHECK(*handle({{beta, "a-b-c__a-b-d"}}) == "projects/UNSPECIFIED/regions/a-b/disks/pd");
  CHECK(*handle({{beta, "a-b-c__a-b-c"}}) == "projects/UNSPECIFIED/regions/a-b/disks/pd");
  for (const char* bad :
       {"us-central1-a__europe-west1-b", "us-central1-a__", "__", "a-b-c-d__a-b-c", "zone1__zone2"}) {
    INFO(bad);
    CHECK_FALSE(handle({{beta, bad}}).ok());
  }
  CHECK(csi_translation::GCEPDInlineHandle("pd") == "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/pd");
}

TEST_CASE("In-tree plugins and where they migrate", "[nodevolumelimits]") {
  using csi_translation::MigratedOn;
  struct Case {
    std::string plugin, driver;
    MigratedOn on;
  };
  const std::vector<Case> cases = {
      {"kubernetes.io/gce-pd", "pd.csi.storage.gke.io", MigratedOn::kCSINode},
      {"kubernetes.io/aws-ebs", "ebs.csi.aws.com", MigratedOn::kCSINode},
      {"kubernetes.io/azure-disk", "disk.csi.azure.com", MigratedOn::kCSINode},
      {"kubernetes.io/cinder", "cinder.csi.openstack.org", MigratedOn::kCSINode},
      {"kubernetes.io/portworx-volume", "pxd.portworx.com", MigratedOn::kCSINode},
      {"kubernetes.io/azure-file", "file.csi.azure.com", MigratedOn::kNever},
      {"kubernetes.io/vsphere-volume", "csi.vsphere.vmware.com", MigratedOn::kNever},
  };
  for (const Case& c : cases) {
    INFO(c.plugin);
    const csi_translation::InTreePlugin* p = csi_translation::FindInTreePlugin(c.plugin);
    REQUIRE(p != nullptr);
    CHECK(p->driver == c.driver);
    CHECK(p->on == c.on);
  }
  CHECK(csi_translation::FindInTreePlugin("kubernetes.io/hostpath") == nullptr);
  CHECK(csi_translation::FindInTreePlugin("ebs.csi.aws.com") == nullptr);
}

// A storage world for the schedkit cases: claims in "default", a CSINode per
// call to Limits.
struct Storage {
  testing::FakeStorageClient client;

  void Bound(const std::string& claim, const api::v1::PersistentVolume& pv) {
    client.Add(pv);
    api::v1::PersistentVolumeClaim pvc;
    pvc.mutable_metadata()->set_name(claim);
    pvc.mutable_metadata()->set_namespace_("default");
    pvc.mutable_spec()->set_volume_name(pv.metadata().name());
    client.Add(pvc);
  }
  void Unbound(const std::string& claim, const std::string& provisioner) {
    api::v1::StorageClass sc;
    sc.mutable_metadata()->set_name(schedkit::StrCat("class-", claim));
    sc.set_provisioner(provisioner);
    client.Add(sc);
    api::v1::PersistentVolumeClaim pvc;
    pvc.mutable_metadata()->set_name(claim);
    pvc.mutable_metadata()->set_namespace_("default");
    pvc.mutable_spec()->set_storage_class_name(sc.metadata().name());
    client.Add(pvc);
  }
  void Limits(const std::string& node, const std::vector<std::string>& drivers, int32_t count,
              const std::string& migrated_plugins = "") {
    api::v1::CSINode csi_node;
    csi_node.mutable_metadata()->set_name(node);
    if (!migrated_plugins.empty()) {
      (*csi_node.mutable_metadata()->mutable_annotations())["storage.alpha.kubernetes.io/migrated-plugins"] =
          migrated_plugins;
    }
    for (const std::string& driver : drivers) {
      auto* d = csi_node.mutable_spec()->add_drivers();
      d->set_name(driver);
      d->mutable_allocatable()->set_count(count);
    }
    client.Add(csi_node);
  }
  Status Filter(const api::v1::Pod& pod, const framework::NodeInfo& node,
                const framework::FeatureGates* gates = nullptr) {
    return PreFilterThenFilter(client, pod, node, gates);
  }
};

api::v1::PersistentVolume EBSPV(const std::string& name, const std::string& id) {
  api::v1::PersistentVolume pv;
  pv.mutable_metadata()->set_name(name);
  pv.mutable_spec()->mutable_aws_elastic_block_store()->set_volume_id(id);
  return pv;
}

const Status kExceeds(Code::kUnschedulable, Symbol::Intern("node(s) exceed max volume count"));

TEST_CASE("NodeVolumeLimits counts inline disks as their CSI drivers' where a CSINode is",
          "[nodevolumelimits]") {
  Storage s;
  s.Limits("limited", {"pd.csi.storage.gke.io", "ebs.csi.aws.com"}, 1);
  const auto holder = MakePod().Name("holder").Volume(GCEVolume("pd-1", "pd-1")).Obj();
  const auto other = MakePod().Name("other").Volume(GCEVolume("pd-2", "pd-2")).Obj();
  const auto same = MakePod().Name("same").Volume(GCEVolume("pd-1", "pd-1")).Obj();
  // With a CSINode, each PD is a pd.csi.storage.gke.io volume; a shared one counts once.
  CHECK(s.Filter(other, MakeNode().Name("limited").Info({holder})) == kExceeds);
  CHECK(s.Filter(same, MakeNode().Name("limited").Info({holder})).IsSuccess());
  // Without a CSINode there is no migration and no limit.
  CHECK(s.Filter(other, MakeNode().Name("plain").Info({holder})).IsSuccess());
  // EBS IDs: "aws://<zone>/<vol-id>" is the volume "vol-id".
  const auto ebs_holder = MakePod().Name("e1").Volume(EBSVolume("ebs", "vol-123")).Obj();
  CHECK(s.Filter(MakePod().Name("e2").Volume(EBSVolume("ebs", "aws://us-east-1a/vol-123")).Obj(),
                 MakeNode().Name("limited").Info({ebs_holder}))
            .IsSuccess());
  CHECK(s.Filter(MakePod().Name("e3").Volume(EBSVolume("ebs", "vol-456")).Obj(),
                 MakeNode().Name("limited").Info({ebs_holder})) == kExceeds);
}

TEST_CASE("NodeVolumeLimits inline disks that do not translate", "[nodevolumelimits]") {
  Storage s;
  s.Limits("limited", {"ebs.csi.aws.com"}, 5);
  const std::string translate_error =
      "converting volume(bad) from inline to csi: failed to translate Kubernetes ID to EBS Volume ID "
      "Invalid format for AWS volume (aws://us-east-1a/disk-9)";
  const api::v1::Volume bad = EBSVolume("bad", "aws://us-east-1a/disk-9");
  const Status missing =
      Status::WithText(Code::kUnschedulableAndUnresolvable,
                       "looking up PVC default/gone: persistentvolumeclaim \"gone\" not found");
  // Only nodes with a CSINode translate inline disks.
  CHECK(s.Filter(MakePod().Name("p").Volume(bad).Obj(), MakeNode().Name("limited").Info()) ==
        Status::Error(translate_error));
  CHECK(s.Filter(MakePod().Name("p").Volume(bad).Obj(), MakeNode().Name("plain").Info()).IsSuccess());
  // The first failing volume decides, so a later missing claim shows where
  // the disk is not translated.
  const auto disk_first = MakePod().Name("p").Volume(bad).PVC("gone").Obj();
  CHECK(s.Filter(disk_first, MakeNode().Name("limited").Info()) == Status::Error(translate_error));
  CHECK(s.Filter(disk_first, MakeNode().Name("plain").Info()) == missing);
  const auto claim_first = MakePod().Name("p").PVC("gone").Volume(bad).Obj();
  CHECK(s.Filter(claim_first, MakeNode().Name("limited").Info()) == missing);
  CHECK(s.Filter(claim_first, MakeNode().Name("plain").Info()) == missing);
  // A pod on the node with such a disk: an Error where limits are checked.
  const auto counted = MakePod().Name("new").Volume(EBSVolume("ok", "vol-1")).Obj();
  const auto holder = MakePod().Name("holder").Volume(bad).Obj();
  CHECK(s.Filter(counted, MakeNode().Name("limited").Info({holder})) == Status::Error(translate_error));
  CHECK(s.Filter(counted, MakeNode().Name("plain").Info({holder})).IsSuccess());
}

TEST_CASE("NodeVolumeLimits counts in-tree PersistentVolumes as their CSI volumes where a CSINode is",
          "[nodevolumelimits]") {
  Storage s;
  s.Limits("limited", {"pd.csi.storage.gke.io", "ebs.csi.aws.com"}, 1);
  const std::string zone = "topology.kubernetes.io/zone";
  s.Bound("zonal", GCEPV("pv-zonal", "disk", {{zone, "us-east1-a"}}));
  s.Bound("zonal-again",
          GCEPV("pv-zonal-again", "disk", {{"failure-domain.beta.kubernetes.io/zone", "us-east1-a"}}));
  s.Bound("regional", GCEPV("pv-regional", "disk", {{zone, "us-central1-a__us-central1-c"}}));
  s.Bound("no-region", GCEPV("pv-no-region", "disk", {{zone, "us-central1-a__europe-west1-b"}}));
  s.Bound("unspecified", GCEPV("pv-unspecified", "disk", {}));
  s.Bound("ebs", EBSPV("pv-ebs", "aws://us-east-1a/vol-7"));
  s.Bound("ebs-bad", EBSPV("pv-ebs-bad", "aws://us-east-1a/disk-7"));
  api::v1::PersistentVolume rbd;
  rbd.mutable_metadata()->set_name("pv-rbd");
  rbd.mutable_spec()->mutable_rbd();
  s.Bound("rbd", rbd);
  api::v1::PersistentVolume iscsi;
  iscsi.mutable_metadata()->set_name("pv-iscsi");
  iscsi.mutable_spec()->mutable_iscsi();
  s.Bound("iscsi", iscsi);

  auto on = [](const std::string& claim) { return MakePod().Name(claim).PVC(claim).Obj(); };
  const framework::NodeInfo zonal_node = MakeNode().Name("limited").Info({on("zonal")});
  // The same disk in the same zone is one volume, by either zone label.
  CHECK(s.Filter(on("zonal-again"), zonal_node).IsSuccess());
  // The regional, unspecified-zone and inline handles of the disk differ.
  CHECK(s.Filter(on("regional"), zonal_node) == kExceeds);
  CHECK(s.Filter(on("unspecified"), zonal_node) == kExceeds);
  CHECK(s.Filter(MakePod().Name("inline").Volume(GCEVolume("disk", "disk")).Obj(), zonal_node) == kExceeds);
  CHECK(s.Filter(MakePod().Name("inline").Volume(GCEVolume("disk", "disk")).Obj(),
                 MakeNode().Name("limited").Info({on("unspecified")}))
            .IsSuccess());
  // Without a CSINode: no migration, no limit.
  CHECK(s.Filter(on("regional"), MakeNode().Name("plain").Info({on("zonal")})).IsSuccess());
  // An EBS PV is its volume ID's volume, shared with an inline disk of it.
  const framework::NodeInfo ebs_node = MakeNode().Name("limited").Info({on("ebs")});
  CHECK(s.Filter(MakePod().Name("inline").Volume(EBSVolume("v", "vol-7")).Obj(), ebs_node).IsSuccess());
  CHECK(s.Filter(MakePod().Name("inline").Volume(EBSVolume("v", "vol-8")).Obj(), ebs_node) == kExceeds);
  // PVs that do not translate, and sources that do not migrate, count
  // nowhere and are no error, on either side.
  for (const char* claim : {"no-region", "ebs-bad", "rbd", "iscsi"}) {
    INFO(claim);
    CHECK(s.Filter(on(claim), zonal_node).IsSuccess());
    CHECK(s.Filter(on(claim), ebs_node).IsSuccess());
    CHECK(s.Filter(on("regional"), MakeNode().Name("limited").Info({on(claim)})).IsSuccess());
  }
}

TEST_CASE("NodeVolumeLimits counts claims of in-tree provisioners under their CSI drivers",
          "[nodevolumelimits]") {
  Storage s;
  const std::vector<std::string> drivers = {
      "pd.csi.storage.gke.io", "ebs.csi.aws.com",    "disk.csi.azure.com",     "cinder.csi.openstack.org",
      "pxd.portworx.com",      "file.csi.azure.com", "csi.vsphere.vmware.com", "kubernetes.io/azure-file"};
  // Limit 0: any volume counted for a driver fails the node.
  s.Limits("limited", drivers, 0);
  s.Limits("portworx", drivers, 0, "kubernetes.io/aws-ebs,kubernetes.io/portworx-volume");
  for (const char* p : {"gce-pd", "aws-ebs", "azure-disk", "cinder", "portworx-volume", "azure-file",
                        "vsphere-volume"}) {
    s.Unbound(p, schedkit::StrCat("kubernetes.io/", p));
  }
  auto pod = [](const std::string& claim) { return MakePod().Name(claim).PVC(claim).Obj(); };
  for (const char* counted : {"gce-pd", "aws-ebs", "azure-disk", "cinder"}) {
    INFO(counted);
    CHECK(s.Filter(pod(counted), MakeNode().Name("limited").Info()) == kExceeds);
    CHECK(s.Filter(pod(counted), MakeNode().Name("plain").Info()).IsSuccess());
  }
  // Portworx wherever a CSINode is (v1.37; v1.35 wanted the CSINode's
  // migrated-plugins annotation to list it).
  CHECK(s.Filter(pod("portworx-volume"), MakeNode().Name("limited").Info()) == kExceeds);
  CHECK(s.Filter(pod("portworx-volume"), MakeNode().Name("portworx").Info()) == kExceeds);
  CHECK(s.Filter(pod("portworx-volume"), MakeNode().Name("plain").Info()).IsSuccess());
  // Azure File and vSphere never migrate here: not even under their plugin name.
  for (const char* never : {"azure-file", "vsphere-volume"}) {
    INFO(never);
    CHECK(s.Filter(pod(never), MakeNode().Name("limited").Info()).IsSuccess());
    CHECK(s.Filter(pod(never), MakeNode().Name("portworx").Info()).IsSuccess());
  }
}

TEST_CASE("NodeVolumeLimits counts migrated volumes of the node's pods", "[nodevolumelimits]") {
  Storage s;
  s.Limits("limited", {"pd.csi.storage.gke.io", "pxd.portworx.com"}, 1);
  s.Limits("portworx", {"pd.csi.storage.gke.io", "pxd.portworx.com"}, 1, "kubernetes.io/portworx-volume");
  s.Unbound("gce", "kubernetes.io/gce-pd");
  s.Unbound("gce-2", "kubernetes.io/gce-pd");
  s.Unbound("px", "kubernetes.io/portworx-volume");
  s.Unbound("px-2", "kubernetes.io/portworx-volume");
  s.Bound("pd", GCEPV("pv-pd", "disk", {{"topology.kubernetes.io/zone", "us-east1-a"}}));
  auto pod = [](const std::string& name, const std::string& claim) {
    return MakePod().Name(name).PVC(claim).Obj();
  };
  // The node's pods' claims of in-tree classes take the CSI driver's slots.
  CHECK(s.Filter(pod("new", "gce-2"), MakeNode().Name("limited").Info({pod("old", "gce")})) == kExceeds);
  CHECK(s.Filter(pod("new", "pd"), MakeNode().Name("limited").Info({pod("old", "gce")})) == kExceeds);
  CHECK(s.Filter(pod("new", "gce"), MakeNode().Name("limited").Info({pod("old", "gce")})).IsSuccess());
  CHECK(s.Filter(pod("new", "gce-2"), MakeNode().Name("limited").Info({pod("old", "pd")})) == kExceeds);
  // Portworx claims on the node count wherever a CSINode is (v1.37).
  CHECK(s.Filter(pod("new", "px-2"), MakeNode().Name("portworx").Info({pod("old", "px")})) == kExceeds);
  CHECK(s.Filter(pod("new", "px-2"), MakeNode().Name("limited").Info({pod("old", "px")})) == kExceeds);
}

api::v1::PersistentVolume CSIPV(const std::string& name, const std::string& driver, const std::string& handle) {
  api::v1::PersistentVolume pv;
  pv.mutable_metadata()->set_name(name);
  pv.mutable_spec()->mutable_csi()->set_driver(driver);
  pv.mutable_spec()->mutable_csi()->set_volume_handle(handle);
  return pv;
}

api::v1::CSIDriver Driver(const std::string& name, std::optional<bool> prevent) {
  api::v1::CSIDriver d;
  d.mutable_metadata()->set_name(name);
  if (prevent) d.mutable_spec()->set_prevent_pod_scheduling_if_missing(*prevent);
  return d;
}

// Upstream v1.37.2 csi_test.go TestVolumeLimitScalingGate: the pod's claim
// is bound to an ebs.csi.aws.com volume.
TEST_CASE("TestVolumeLimitScalingGate", "[nodevolumelimits]") {
  const std::string ebs = "ebs.csi.aws.com";
  auto pod = MakePod().Name("p").PVC("csi-ebs.csi.aws.com-0").Obj();
  const Status not_installed = Status::WithText(Code::kUnschedulable, "ebs.csi.aws.com CSI driver is not installed on the node");
  struct Case {
    std::string name;
    bool driver_on_node;  // limitSource "csinode" (limit 2), else "no-csi-driver"
    bool csi_driver_present;
    bool prevent;
    Status want;
    bool gate = true;
  };
  const std::vector<Case> cases = {
      {"gate enabled - allow scheduling when CSIDriver exists but PreventPodSchedulingIfMissing is not set", false,
       true, false, Status()},
      {"gate enabled - fail when driver not installed and PreventPodSchedulingIfMissing is true", false, true, true,
       not_installed},
      {"gate disabled - skip driver presence check (regardless of CSIDriver presence)", false, true, true, Status(),
       false},
      {"gate enabled - driver installed within limit", true, true, true, Status()},
      {"gate enabled - allow scheduling when CSIDriver object missing", false, false, false, Status()},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION("TestVolumeLimitScalingGate/" << c.name) {
      Storage s;
      s.Bound("csi-ebs.csi.aws.com-0", CSIPV("csi-ebs-pv", ebs, "vol-1"));
      if (c.csi_driver_present) s.client.Add(Driver(ebs, c.prevent ? std::optional<bool>(true) : std::nullopt));
      s.Limits("node", c.driver_on_node ? std::vector<std::string>{ebs} : std::vector<std::string>{}, 2);
      framework::FeatureGates gates;
      REQUIRE(gates.Set(c.gate ? "VolumeLimitScaling=true" : "VolumeLimitScaling=false").ok());
      CHECK(s.Filter(pod, MakeNode().Name("node").Info(), &gates) == c.want);
    }
  }
}

// Not upstream: where the driver check reaches.
TEST_CASE("NodeVolumeLimits asks for drivers that want to be on the node, and only for those", "[nodevolumelimits]") {
  Storage s;
  s.Bound("csi", CSIPV("csi-pv", "ebs.csi.aws.com", "vol-1"));
  s.Bound("migrated", EBSPV("ebs-pv", "vol-2"));
  s.client.Add(Driver("ebs.csi.aws.com", true));
  s.client.Add(Driver("other.csi.example.com", false));
  s.Limits("bare", {}, 0);
  s.Limits("has-ebs", {"ebs.csi.aws.com"}, 5);
  auto pod = [](const std::string& claim) { return MakePod().Name(claim).PVC(claim).Obj(); };
  const Status not_installed = Status::WithText(Code::kUnschedulable, "ebs.csi.aws.com CSI driver is not installed on the node");
  // A node without a CSINode has no driver: a CSI volume of a driver that
  // asks cannot go there...
  CHECK(s.Filter(pod("csi"), MakeNode().Name("no-csinode").Info()) == not_installed);
  CHECK(s.Filter(pod("csi"), MakeNode().Name("bare").Info()) == not_installed);
  CHECK(s.Filter(pod("csi"), MakeNode().Name("has-ebs").Info()).IsSuccess());
  // ...while an in-tree volume does not migrate there, so it asks nothing.
  CHECK(s.Filter(pod("migrated"), MakeNode().Name("no-csinode").Info()).IsSuccess());
  CHECK(s.Filter(pod("migrated"), MakeNode().Name("bare").Info()) == not_installed);
  // A driver that does not ask, or has no CSIDriver, is taken as installed.
  s.Bound("other", CSIPV("other-pv", "other.csi.example.com", "h"));
  s.Bound("unknown", CSIPV("unknown-pv", "unknown.csi.example.com", "h"));
  CHECK(s.Filter(pod("other"), MakeNode().Name("bare").Info()).IsSuccess());
  CHECK(s.Filter(pod("unknown"), MakeNode().Name("no-csinode").Info()).IsSuccess());
}

// Counts the CSINode lookups Filter makes.
class CountingClient : public testing::FakeStorageClient {
 public:
  api::AnyObject GetObject(const api::Kind& kind, std::string_view namespace_name,
                           std::string_view name) const override {
    if (&kind == &api::KindOf<api::v1::CSINode>()) ++csi_node_lookups;
    return FakeStorageClient::GetObject(kind, namespace_name, name);
  }
  mutable int csi_node_lookups = 0;
};

TEST_CASE("NodeVolumeLimits Filter does no per-node work for pods with nothing to count",
          "[nodevolumelimits]") {
  CountingClient client;
  api::v1::PersistentVolume rbd;
  rbd.mutable_metadata()->set_name("pv-rbd");
  rbd.mutable_spec()->mutable_rbd();
  client.Add(rbd);
  api::v1::StorageClass never;
  never.mutable_metadata()->set_name("azure-file");
  never.set_provisioner("kubernetes.io/azure-file");
  client.Add(never);
  api::v1::StorageClass gce;
  gce.mutable_metadata()->set_name("gce");
  gce.set_provisioner("kubernetes.io/gce-pd");
  client.Add(gce);
  auto claim = [&](const std::string& name, const std::string& volume, const std::string& sc) {
    api::v1::PersistentVolumeClaim pvc;
    pvc.mutable_metadata()->set_name(name);
    pvc.mutable_metadata()->set_namespace_("default");
    pvc.mutable_spec()->set_volume_name(volume);
    pvc.mutable_spec()->set_storage_class_name(sc);
    client.Add(pvc);
  };
  claim("rbd", "pv-rbd", "");
  claim("no-class", "", "");
  claim("azure-file", "", "azure-file");
  claim("gce", "", "gce");
  testing::FakeHandle h;
  h.set_client(&client);
  auto plugin = testing::MustNew(&NewNodeVolumeLimits, h);
  auto* pf = dynamic_cast<framework::PreFilterPlugin*>(plugin.get());
  auto* f = dynamic_cast<framework::FilterPlugin*>(plugin.get());
  const std::vector<framework::NodeInfo> nodes = {MakeNode().Name("n1").Info(), MakeNode().Name("n2").Info()};
  auto lookups = [&](const api::v1::Pod& obj) {
    auto pod = testing::Info(obj);
    framework::CycleState state;
    REQUIRE(pf->PreFilter(state, *pod, {}).status.IsSuccess());
    client.csi_node_lookups = 0;
    for (const framework::NodeInfo& n : nodes) CHECK(f->Filter(state, *pod, n).IsSuccess());
    return client.csi_node_lookups;
  };
  CHECK(lookups(MakePod().PVC("rbd").PVC("no-class").PVC("azure-file").Obj()) == 0);
  CHECK(lookups(MakePod().PVC("gce").Obj()) == 2);
  CHECK(lookups(MakePod().Volume(GCEVolume("d", "d")).Obj()) == 2);
}

TEST_CASE("NodeVolumeLimits events and hint edges", "[nodevolumelimits]") {
  auto plugin = NewPlugin();
  auto* ee = dynamic_cast<framework::EnqueueExtensions*>(plugin.get());
  auto events = ee->EventsToRegister();
  REQUIRE(events.size() == 5);
  CHECK(events[0].event.resource == framework::EventResource::Of<api::v1::CSINode>());
  CHECK_FALSE(static_cast<bool>(events[0].hint));
  CHECK(events[2].event.resource == framework::EventResource::AssignedPod());
  CHECK(events[2].event.action == framework::kActionDelete);
  CHECK(static_cast<bool>(events[2].hint));

  auto pod = MakePod().Info();
  CHECK_FALSE(NodeVolumeLimits::IsSchedulableAfterPodDeleted(*pod, framework::EventObjects()).ok());
  // Nominated but not bound still counts as placed.
  api::v1::Pod nominated = MakePod().PVC("x").Obj();
  nominated.mutable_status()->set_nominated_node_name("n1");
  framework::EventObjects e;
  e.SetOld(&nominated);
  CHECK(*NodeVolumeLimits::IsSchedulableAfterPodDeleted(*pod, e) == framework::QueueingHint::kQueue);
  // Bound, but only non-PVC volumes.
  const api::v1::Pod plain = WithPlainVolumes(MakePod().Node("n1").Obj(), 1);
  e.SetOld(&plain);
  CHECK(*NodeVolumeLimits::IsSchedulableAfterPodDeleted(*pod, e) == framework::QueueingHint::kSkip);
}

}  // namespace
}  // namespace schedkit::plugins
