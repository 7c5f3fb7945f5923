// Ports of upstream v1.35.8 pkg/scheduler/framework/plugins/volumebinding
// binder_test.go (the volume binder: pod_volumes.h, assume_cache.h,
// bind_volumes.h), as facts: the tables' inputs and expected results.
//  - TestFindPodVolumesWithoutProvisioning: all 22 cases, each under the 3
//    CSIDriver variants (none, capacity tracking on, off).
//  - TestFindPodVolumesWithProvisioning: all 8 cases x 3 CSIDriver variants.
//  - TestFindPodVolumesWithCSIMigration: 2 of 4 ("pvc-bound,csinode-not-
//    migrated", "pvc-bound,missing-csinode"), where upstream does not
//    translate either. Left out: "pvc-bound" and "pvc-bound,node-different-
//    zone", which turn on translating the in-tree GCE PD volume to CSI
//    topology; schedkit does not translate in-tree PVs (volume_binding.h).
//  - TestAssumePodVolumes: all 7 cases. TestRevertAssumedPodVolumes.
//  - TestBindAPIUpdate: 8 of 11. TestCheckBindings: 17 of 20.
//    TestBindPodVolumes: 11 of 12 ("pod-deleted-after-time" fails by the
//    deadline: BindPodVolumes does not watch the pod, volume_binding.h).
//    Left out: the "nothing-to-bind-nil", "-bindings-nil" and
//    "-provisionings-nil" cases, which tell a nil slice from an empty one;
//    PodVolumes' vectors have no nil. bindAPIUpdate and checkBindings are not
//    separate functions here: both run through BindPodVolumes (see the
//    comments at each table).
//  - TestCheckBindingsWithCSIMigration: 3 of 6 ("binding-without-csinode",
//    "binding-non-migrated-plugin", "binding-node-pv-different-zones-
//    migration-off"), without translation upstream either. Left out, as
//    they translate: "provisioning-pvc-bound", "binding-node-pv-same-zone",
//    "binding-node-pv-in-different-zones".
//  - TestFindAssumeVolumes. TestCapacity: all 11 cases, driver opted in and
//    out; schedkit's PodVolumes does not keep the CSIStorageCapacity chosen
//    (upstream's DynamicProvision.NodeCapacity, only for scoring, whose gate
//    is off), so only the claims to provision are compared.
//  - TestGetEligibleNodes: left out; v1.35.8 has no GetEligibleNodes (nor
//    that test), and neither has schedkit.
// And passive_assume_cache_test.go (assume_cache.h): TestAssume (6 cases),
// TestRestore, TestConcurrentAssume, TestAssumeUpdateCache. Left out:
// TestBasicCache and TestPVCacheWithIndex (informer listing; ListVolumes is
// exercised through FindPodVolumes above) and TestDelayedInformerEvent
// (informer event order: the cache reads the client's current objects).
// And of component-helpers v0.35.8 storage/volume pv_helpers_test.go, on the
// scheduler path (a node, delayBinding), through PreFilter and FindPodVolumes:
//  - TestFindMatchVolumeWithNode: 12 of 14 cases with VolumeAttributesClass
//    on (GA in v1.35, always on in schedkit); left out: "fail-on-error" and
//    "fail-volumes-vac", which run with the gate off only.
//  - TestDelayBindingMode: all 5 cases, through PreFilter's classification.
//  TestMatchingWithBoundVolumes and the other PV-controller tables
//  (pkg/controller/volume/persistentvolume/index_test.go) match without a
//  node (node == nil), the PV controller's path, which schedkit has not.
#include <catch2/catch.hpp>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "google/protobuf/util/message_differencer.h"
#include "plugins/volumebinding/assume_cache.h"
#include "plugins/volumebinding/bind_volumes.h"
#include "plugins/volumebinding/pod_volumes.h"
#include "plugins/volumebinding/volume_binding.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"
#include "schedkit/testing/fake_storage_client.h"
#include "testing/must.h"

namespace schedkit::plugins {
namespace {

namespace vb = volumebinding;
using framework::Code;
using framework::Status;
using testing::FakeStorageClient;
using testing::MakeNode;
using testing::MakePod;
using PV = api::v1::PersistentVolume;
using PVC = api::v1::PersistentVolumeClaim;
using Binding = std::pair<PVC, PV>;

constexpr char kNodeLabelKey[] = "nodeKey";
constexpr char kProvisioner[] = "test-provisioner";
constexpr char kWaitClass[] = "waitClass";
constexpr char kImmediateClass[] = "immediateClass";
constexpr char kWaitClassWithProvisioner[] = "waitClassWithProvisioner";
constexpr char kTopoMismatchClass[] = "topoMismatchClass";
constexpr char kSelectedNode[] = "volume.kubernetes.io/selected-node";
constexpr char kBindCompleted[] = "pv.kubernetes.io/bind-completed";

const std::string kBindConflict = "node(s) didn't find available persistent volumes to bind";
const std::string kNodeConflict = "node(s) didn't match PersistentVolume's node affinity";
const std::string kNotEnoughSpace = "node(s) did not have enough free storage";
const std::string kPVNotExist = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";

// Waits that must end by the deadline end quickly; waits that end when the
// PV controller acts get upstream's bind timeout and end as soon as it does.
const absl::Duration kShortTimeout = absl::Milliseconds(20);
const absl::Duration kBindTimeout = absl::Seconds(10);

std::unique_ptr<VolumeBinding> NewPlugin(testing::FakeHandle& h) {
  auto plugin = NewVolumeBinding(framework::PluginArgs(""), h);
  REQUIRE(plugin.ok());
  auto* vb = dynamic_cast<VolumeBinding*>(plugin->get());
  REQUIRE(vb != nullptr);
  plugin->release();
  return std::unique_ptr<VolumeBinding>(vb);
}

// --- upstream's fixtures ---

enum class ClaimState { kUnbound, kPrebound, kBound, kSelectedNode };

// upstream's makeTestPVC
PVC TestPVC(const std::string& name, const std::string& size, const std::string& node, ClaimState state,
            const std::string& pv_name, const std::string& version, const std::string& class_name) {
  PVC c;
  c.set_kind("PersistentVolumeClaim");
  c.set_api_version("v1");
  auto* m = c.mutable_metadata();
  m->set_name(name);
  m->set_namespace_("testns");
  m->set_uid("pvc-uid");
  m->set_resource_version(version);
  (*c.mutable_spec()->mutable_resources()->mutable_requests())["storage"] = size;
  c.mutable_spec()->set_storage_class_name(class_name);
  c.mutable_spec()->set_volume_mode("Filesystem");
  switch (state) {
    case ClaimState::kSelectedNode:
      (*m->mutable_annotations())[kSelectedNode] = node;
      break;
    case ClaimState::kBound:
      (*m->mutable_annotations())[kBindCompleted] = "yes";
      [[fallthrough]];
    case ClaimState::kPrebound:
      c.mutable_spec()->set_volume_name(pv_name);
      break;
    case ClaimState::kUnbound:
      break;
  }
  return c;
}

// A required node affinity of one term with one `key In [value]`.
void SetAffinity(PV& pv, const std::string& key, const std::string& value) {
  auto* r = pv.mutable_spec()->mutable_node_affinity()->mutable_required()->add_node_selector_terms()
                ->add_match_expressions();
  r->set_key(key);
  r->set_operator_("In");
  r->add_values(value);
}

// upstream's makeTestPV
PV TestPV(const std::string& name, const std::string& node, const std::string& capacity,
          const std::string& version, const PVC* bound_to, const std::string& class_name) {
  PV pv;
  pv.mutable_metadata()->set_name(name);
  pv.mutable_metadata()->set_resource_version(version);
  (*pv.mutable_spec()->mutable_capacity())["storage"] = capacity;
  pv.mutable_spec()->set_storage_class_name(class_name);
  pv.mutable_spec()->set_volume_mode("Filesystem");
  pv.mutable_status()->set_phase("Available");
  if (!node.empty()) SetAffinity(pv, kNodeLabelKey, node);
  if (bound_to != nullptr) {
    auto* ref = pv.mutable_spec()->mutable_claim_ref();
    ref->set_kind(bound_to->kind());
    ref->set_api_version(bound_to->api_version());
    ref->set_resource_version(bound_to->metadata().resource_version());
    ref->set_name(bound_to->metadata().name());
    ref->set_namespace_(bound_to->metadata().namespace_());
    ref->set_uid(bound_to->metadata().uid());
    (*pv.mutable_metadata()->mutable_annotations())["pv.kubernetes.io/bound-by-controller"] = "yes";
  }
  return pv;
}

// upstream's makeTestPVForCSIMigration: no node affinity (translation would
// write it from the zone labels), a GCE PD (migratable) or RBD source.
PV MigrationPV(const PVC& claim, bool migratable) {
  PV pv = TestPV("pv-migration-bound", "node1", "1G", "1", &claim, kWaitClass);
  pv.mutable_spec()->clear_node_affinity();
  auto& labels = *pv.mutable_metadata()->mutable_labels();
  labels["failure-domain.beta.kubernetes.io/zone"] = "us-east-1";
  labels["failure-domain.beta.kubernetes.io/region"] = "us-east-1a";
  if (migratable) {
    pv.mutable_spec()->mutable_gce_persistent_disk()->set_pd_name("test-disk");
    pv.mutable_spec()->mutable_gce_persistent_disk()->set_fs_type("ext4");
  } else {
    pv.mutable_spec()->mutable_rbd()->set_image("test-disk");
  }
  return pv;
}

// upstream's makeGenericEphemeralPVC for the volume "test-volume" of the pod
// "test-pod" (upstream's owner reference carries the pod's UID).
PVC GenericEphemeralPVC(bool owned) {
  PVC c = TestPVC("test-pod-test-volume", "1G", "", ClaimState::kBound, "pv-bound", "1", kImmediateClass);
  if (owned) {
    auto* ref = c.mutable_metadata()->add_owner_references();
    ref->set_name("test-pod");
    ref->set_uid(MakePod().Name("test-pod").Obj().metadata().uid());
    ref->set_controller(true);
  }
  return c;
}

// upstream's addProvisionAnn / pvcSetSelectedNode
PVC WithSelectedNode(PVC c, const std::string& node = "node1") {
  (*c.mutable_metadata()->mutable_annotations())[kSelectedNode] = node;
  return c;
}

struct Fixtures {
  PVC unbound_pvc = TestPVC("unbound-pvc", "1G", "", ClaimState::kUnbound, "", "1", kWaitClass);
  PVC unbound_pvc2 = TestPVC("unbound-pvc2", "5G", "", ClaimState::kUnbound, "", "1", kWaitClass);
  PVC prebound_pvc = TestPVC("prebound-pvc", "1G", "", ClaimState::kPrebound, "pv-node1a", "1", kWaitClass);
  PVC prebound_pvc_node1a =
      TestPVC("unbound-pvc", "1G", "", ClaimState::kPrebound, "pv-node1a", "1", kWaitClass);
  PVC bound_pvc = TestPVC("bound-pvc", "1G", "", ClaimState::kBound, "pv-bound", "1", kWaitClass);
  PVC bound_pvc_node1a = TestPVC("unbound-pvc", "1G", "", ClaimState::kBound, "pv-node1a", "1", kWaitClass);
  PVC immediate_unbound_pvc =
      TestPVC("immediate-unbound-pvc", "1G", "", ClaimState::kUnbound, "", "1", kImmediateClass);
  PVC immediate_bound_pvc =
      TestPVC("immediate-bound-pvc", "1G", "", ClaimState::kBound, "pv-bound-immediate", "1",
              kImmediateClass);
  PVC provisioned_pvc =
      TestPVC("provisioned-pvc", "1Gi", "", ClaimState::kUnbound, "", "1", kWaitClassWithProvisioner);
  PVC provisioned_pvc2 =
      TestPVC("provisioned-pvc2", "1Gi", "", ClaimState::kUnbound, "", "1", kWaitClassWithProvisioner);
  PVC provisioned_pvc_higher_version =
      TestPVC("provisioned-pvc2", "1Gi", "", ClaimState::kUnbound, "", "2", kWaitClassWithProvisioner);
  PVC provisioned_pvc_bound =
      TestPVC("provisioned-pvc", "1Gi", "", ClaimState::kBound, "pv-bound", "1", kWaitClassWithProvisioner);
  PVC no_provisioner_pvc =
      TestPVC("no-provisioner-pvc", "1Gi", "", ClaimState::kUnbound, "", "1", kWaitClass);
  PVC topo_mismatch_pvc =
      TestPVC("topo-mismatch-pvc", "1Gi", "", ClaimState::kUnbound, "", "1", kTopoMismatchClass);
  PVC selected_node_pvc =
      TestPVC("provisioned-pvc", "1Gi", "node1", ClaimState::kSelectedNode, "", "1",
              kWaitClassWithProvisioner);
  PVC bound_migration_pvc =
      TestPVC("pvc-migration-bound", "1G", "", ClaimState::kBound, "pv-migration-bound", "1", kWaitClass);
  PVC conflicting_generic_pvc = GenericEphemeralPVC(false);
  PVC correct_generic_pvc = GenericEphemeralPVC(true);

  PV pv_bound_generic = TestPV("pv-bound", "node1", "1G", "1", &correct_generic_pvc, kWaitClass);
  PV pv_node1a = TestPV("pv-node1a", "node1", "5G", "1", nullptr, kWaitClass);
  PV pv_node1b = TestPV("pv-node1b", "node1", "10G", "1", nullptr, kWaitClass);
  PV pv_node1c = TestPV("pv-node1b", "node1", "5G", "1", nullptr, kWaitClass);
  PV pv_node2 = TestPV("pv-node2", "node2", "1G", "1", nullptr, kWaitClass);
  PV pv_bound = TestPV("pv-bound", "node1", "1G", "1", &bound_pvc, kWaitClass);
  PV pv_node1a_bound = TestPV("pv-node1a", "node1", "5G", "1", &unbound_pvc, kWaitClass);
  PV pv_node1b_bound = TestPV("pv-node1b", "node1", "10G", "1", &unbound_pvc2, kWaitClass);
  PV pv_node1b_bound_higher_version = TestPV("pv-node1b", "node1", "10G", "2", &unbound_pvc2, kWaitClass);
  PV pv_bound_immediate =
      TestPV("pv-bound-immediate", "node1", "1G", "1", &immediate_bound_pvc, kImmediateClass);
  PV pv_bound_immediate_node2 =
      TestPV("pv-bound-immediate", "node2", "1G", "1", &immediate_bound_pvc, kImmediateClass);
  PV migration_pv_bound = MigrationPV(bound_migration_pvc, true);
  PV migration_pv_bound_to_unbound = MigrationPV(unbound_pvc, true);
  PV nonmigration_pv_bound_to_unbound = MigrationPV(unbound_pvc, false);
};

const Fixtures& F() {
  static const Fixtures* const f = new Fixtures();
  return *f;
}

api::v1::Node Node1() { return MakeNode().Name("node1").Label(kNodeLabelKey, "node1").Obj(); }
api::v1::Node Node2() { return MakeNode().Name("node2").Label(kNodeLabelKey, "node2").Obj(); }
api::v1::Node Node1NoLabels() { return MakeNode().Name("node1").Obj(); }
api::v1::Node Node1Zone(const std::string& zone) {
  return MakeNode().Name("node1").Label("topology.gke.io/zone", zone).Obj();
}

// upstream's makeCSINode
api::v1::CSINode CSINode(const std::string& name, const std::string& migrated) {
  api::v1::CSINode n;
  n.mutable_metadata()->set_name(name);
  (*n.mutable_metadata()->mutable_annotations())["storage.alpha.kubernetes.io/migrated-plugins"] = migrated;
  return n;
}

// upstream's makeCSIDriver
api::v1::CSIDriver CSIDriver(const std::string& name, bool storage_capacity) {
  api::v1::CSIDriver d;
  d.mutable_metadata()->set_name(name);
  d.mutable_spec()->set_storage_capacity(storage_capacity);
  return d;
}

// upstream's makeCapacity: nodeTopology {} (every node), or the node's nodeKey.
api::v1::CSIStorageCapacity Capacity(const std::string& class_name, const api::v1::Node* node,
                                     const std::string& capacity, const std::string& maximum_volume_size) {
  api::v1::CSIStorageCapacity c;
  c.mutable_metadata()->set_name("net");
  c.set_storage_class_name(class_name);
  auto* topology = c.mutable_node_topology();
  if (node != nullptr) {
    (*topology->mutable_match_labels())[kNodeLabelKey] = node->metadata().labels().at(kNodeLabelKey);
  }
  if (!capacity.empty()) c.set_capacity(capacity);
  if (!maximum_volume_size.empty()) c.set_maximum_volume_size(maximum_volume_size);
  return c;
}

api::v1::StorageClass Class(const std::string& name, const std::string& mode, const std::string& provisioner,
                            const std::vector<std::string>& allowed_node_keys = {}) {
  api::v1::StorageClass sc;
  sc.mutable_metadata()->set_name(name);
  sc.set_volume_binding_mode(mode);
  sc.set_provisioner(provisioner);
  if (!allowed_node_keys.empty()) {
    auto* r = sc.add_allowed_topologies()->add_match_label_expressions();
    r->set_key(kNodeLabelKey);
    for (const auto& v : allowed_node_keys) r->add_values(v);
  }
  return sc;
}

// upstream's newTestBinder: its four StorageClasses.
void AddClasses(FakeStorageClient& client) {
  client.Add(
      Class(kWaitClassWithProvisioner, "WaitForFirstConsumer", kProvisioner, {"node1", "reference-value"}));
  client.Add(Class(kImmediateClass, "Immediate", ""));
  client.Add(Class(kWaitClass, "WaitForFirstConsumer", "kubernetes.io/no-provisioner"));
  client.Add(Class(kTopoMismatchClass, "WaitForFirstConsumer", kProvisioner, {"reference-value"}));
}

// upstream's makePod("test-pod").withNamespace("testns").withPVCSVolume(pvcs)
api::v1::Pod TestPod(const std::vector<PVC>& pvcs) {
  auto b = MakePod().Name("test-pod").Namespace("testns");
  for (const auto& c : pvcs) b.PVC(c.metadata().name());
  return b.Obj();
}

// ... .withGenericEphemeralVolume(volume)
api::v1::Pod EphemeralPod(const std::string& volume) {
  api::v1::Volume v;
  v.set_name(volume);
  v.mutable_ephemeral();
  return MakePod().Name("test-pod").Namespace("testns").Volume(v).Obj();
}

// --- comparing ---

template <typename T>
std::string Diff(const T& want, const T& got) {
  std::string out;
  google::protobuf::util::MessageDifferencer d;
  d.ReportDifferencesToString(&out);
  d.Compare(want, got);
  return out;
}

// Without resourceVersions, as upstream's validateBind and the API reactor's
// checks compare.
PV NoVersion(PV pv) {
  pv.mutable_metadata()->clear_resource_version();
  if (pv.spec().has_claim_ref()) pv.mutable_spec()->mutable_claim_ref()->clear_resource_version();
  return pv;
}
PVC NoVersion(PVC c) {
  c.mutable_metadata()->clear_resource_version();
  return c;
}

// upstream's validatePodCache
void CheckPodVolumes(const vb::PodVolumes& got, const std::vector<Binding>& bindings,
                     const std::vector<PVC>& provisions) {
  REQUIRE(got.static_bindings.size() == bindings.size());
  for (size_t i = 0; i < bindings.size(); ++i) {
    CHECK(Diff(bindings[i].first, *got.static_bindings[i].claim) == "");
    CHECK(Diff(bindings[i].second, *got.static_bindings[i].pv) == "");
  }
  REQUIRE(got.provisions.size() == provisions.size());
  for (size_t i = 0; i < provisions.size(); ++i) CHECK(Diff(provisions[i], *got.provisions[i]) == "");
}

vb::PodVolumes MakePodVolumes(const std::vector<Binding>& bindings, const std::vector<PVC>& provisions) {
  vb::PodVolumes v;
  for (const auto& [claim, pv] : bindings) {
    v.static_bindings.push_back({std::make_shared<const PVC>(claim), std::make_shared<const PV>(pv)});
  }
  for (const auto& c : provisions) v.provisions.push_back(std::make_shared<const PVC>(c));
  return v;
}

// --- the scheduler path of upstream's findPodVolumes ---

// What upstream's findPodVolumes returns, on the scheduler path: the
// plugin's PreFilter gathers the pod's claims (GetPodVolumeClaims, and the
// refusal of unbound immediate claims), FindPodVolumes decides the node.
struct Found {
  // Upstream's error: PreFilter refused the pod, or FindPodVolumes gave an Error.
  bool failed = false;
  // The node's verdict; Success also for a pod without claims (PreFilter's Skip).
  Status status;
  vb::PodVolumes volumes;
  std::vector<std::string> Reasons() const {
    return status.IsSuccess() ? std::vector<std::string>{} : status.Reasons();
  }
};

class Binder {
 public:
  Binder(FakeStorageClient& client, const std::vector<api::v1::Node>& nodes) {
    h_.set_client(&client);
    h_.SetCluster(nodes, {});
    plugin_ = NewPlugin(h_);
  }

  Found Find(const api::v1::Pod& pod, std::string_view node_name) {
    const framework::NodeInfo* node = h_.snapshot().Get(node_name);
    REQUIRE(node != nullptr);
    framework::CycleState state;
    auto info = testing::Info(pod);
    Found f;
    auto r = plugin_->PreFilter(state, *info, h_.snapshot().nodes());
    if (r.status.IsSkip()) return f;
    if (!r.status.IsSuccess()) {
      f.failed = true;
      f.status = r.status;
      return f;
    }
    const auto* s = state.Read<VolumeBindingState>(Symbol::Intern("VolumeBinding"));
    REQUIRE(s != nullptr);
    REQUIRE(s->claims != nullptr);
    f.status = vb::FindPodVolumes(*s->claims, *node, &f.volumes);
    f.failed = f.status.IsError();
    // Filter is FindPodVolumes without the volumes.
    CHECK(plugin_->Filter(state, *info, *node) == f.status);
    return f;
  }

  testing::FakeHandle& handle() { return h_; }
  VolumeBinding& plugin() { return *plugin_; }

 private:
  testing::FakeHandle h_;
  std::unique_ptr<VolumeBinding> plugin_;
};

struct FindCase {
  std::string name = {};
  std::vector<PV> pvs = {};
  std::vector<PVC> pod_pvcs = {};
  // The claims the cluster holds; unset: pod_pvcs.
  std::optional<std::vector<PVC>> cache_pvcs = {};
  // Unset: a pod with pod_pvcs.
  std::optional<api::v1::Pod> pod = {};
  std::vector<Binding> bindings = {};
  std::vector<PVC> provisions = {};
  std::vector<std::string> reasons = {};
  bool should_fail = false;
  // Provisioning that a CSIDriver with capacity tracking blocks (no
  // CSIStorageCapacity objects): NotEnoughSpace, nothing provisioned.
  bool needs_capacity = false;
};

// upstream's run of TestFindPodVolumesWith(out)Provisioning. Upstream also
// expects the bindings found before a node fails ("two-unbound-pvcs,partial-
// match"); on a failing node FindPodVolumes leaves them unspecified, as
// Filter does not use them, so they are compared on success only.
void RunFind(const FindCase& c, std::optional<bool> capacity_tracking) {
  INFO(c.name);
  FakeStorageClient client;
  AddClasses(client);
  if (capacity_tracking) client.Add(CSIDriver(kProvisioner, *capacity_tracking));
  for (const auto& pv : c.pvs) client.Add(pv);
  for (const auto& pvc : c.cache_pvcs.value_or(c.pod_pvcs)) client.Add(pvc);
  Binder binder(client, {Node1()});
  Found f = binder.Find(c.pod.value_or(TestPod(c.pod_pvcs)), "node1");
  INFO(f.status.ToString());
  CHECK(f.failed == c.should_fail);
  if (f.failed) return;
  std::vector<std::string> reasons = c.reasons;
  const bool blocked = c.needs_capacity && capacity_tracking.value_or(false);
  if (blocked) reasons.push_back(kNotEnoughSpace);
  CHECK(f.Reasons() == reasons);
  if (f.status.IsSuccess()) {
    CheckPodVolumes(f.volumes, c.bindings, blocked ? std::vector<PVC>{} : c.provisions);
  }
}

void RunFindUnderDrivers(const std::vector<FindCase>& cases) {
  for (std::optional<bool> capacity :
       {std::optional<bool>(), std::optional<bool>(true), std::optional<bool>(false)}) {
    const char* driver = !capacity    ? "no CSIDriver"
                         : *capacity ? "CSIDriver with capacity tracking"
                                     : "CSIDriver without capacity tracking";
    INFO(driver);
    for (const FindCase& c : cases) RunFind(c, capacity);
  }
}

TEST_CASE("TestFindPodVolumesWithoutProvisioning", "[volumebinding][binder]") {
  const Fixtures& o = F();
  const std::vector<FindCase> cases = {
      {.name = "no-volumes", .pod = MakePod().Name("test-pod").Namespace("testns").Obj()},
      {.name = "no-pvcs",
       .pod = [] {
         api::v1::Volume v;  // no source: an emptyDir as far as VolumeBinding is concerned
         v.set_name("scratch");
         return MakePod().Name("test-pod").Namespace("testns").Volume(v).Obj();
       }()},
      {.name = "pvc-not-found",
       .pod_pvcs = {o.bound_pvc},
       .cache_pvcs = std::vector<PVC>{},
       .should_fail = true},
      {.name = "bound-pvc", .pvs = {o.pv_bound}, .pod_pvcs = {o.bound_pvc}},
      {.name = "bound-pvc,pv-not-exists", .pod_pvcs = {o.bound_pvc}, .reasons = {kPVNotExist}},
      {.name = "prebound-pvc", .pvs = {o.pv_node1a_bound}, .pod_pvcs = {o.prebound_pvc}, .should_fail = true},
      {.name = "unbound-pvc,pv-same-node",
       .pvs = {o.pv_node2, o.pv_node1a, o.pv_node1b},
       .pod_pvcs = {o.unbound_pvc},
       .bindings = {{o.unbound_pvc, o.pv_node1a}}},
      {.name = "unbound-pvc,pv-different-node",
       .pvs = {o.pv_node2},
       .pod_pvcs = {o.unbound_pvc},
       .reasons = {kBindConflict}},
      {.name = "two-unbound-pvcs",
       .pvs = {o.pv_node1a, o.pv_node1b},
       .pod_pvcs = {o.unbound_pvc, o.unbound_pvc2},
       .bindings = {{o.unbound_pvc, o.pv_node1a}, {o.unbound_pvc2, o.pv_node1b}}},
      {.name = "two-unbound-pvcs,order-by-size",
       .pvs = {o.pv_node1a, o.pv_node1b},
       .pod_pvcs = {o.unbound_pvc2, o.unbound_pvc},
       .bindings = {{o.unbound_pvc, o.pv_node1a}, {o.unbound_pvc2, o.pv_node1b}}},
      {.name = "two-unbound-pvcs,partial-match",
       .pvs = {o.pv_node1a},
       .pod_pvcs = {o.unbound_pvc, o.unbound_pvc2},
       .bindings = {{o.unbound_pvc, o.pv_node1a}},
       .reasons = {kBindConflict}},
      {.name = "one-bound,one-unbound",
       .pvs = {o.pv_bound, o.pv_node1a},
       .pod_pvcs = {o.unbound_pvc, o.bound_pvc},
       .bindings = {{o.unbound_pvc, o.pv_node1a}}},
      {.name = "one-bound,one-unbound,no-match",
       .pvs = {o.pv_bound, o.pv_node2},
       .pod_pvcs = {o.unbound_pvc, o.bound_pvc},
       .reasons = {kBindConflict}},
      {.name = "one-prebound,one-unbound",
       .pvs = {o.pv_node1a, o.pv_node1b},
       .pod_pvcs = {o.unbound_pvc, o.prebound_pvc},
       .should_fail = true},
      {.name = "immediate-bound-pvc", .pvs = {o.pv_bound_immediate}, .pod_pvcs = {o.immediate_bound_pvc}},
      {.name = "immediate-bound-pvc-wrong-node",
       .pvs = {o.pv_bound_immediate_node2},
       .pod_pvcs = {o.immediate_bound_pvc},
       .reasons = {kNodeConflict}},
      {.name = "immediate-unbound-pvc", .pod_pvcs = {o.immediate_unbound_pvc}, .should_fail = true},
      {.name = "immediate-unbound-pvc,delayed-mode-bound",
       .pvs = {o.pv_bound},
       .pod_pvcs = {o.immediate_unbound_pvc, o.bound_pvc},
       .should_fail = true},
      {.name = "immediate-unbound-pvc,delayed-mode-unbound",
       .pod_pvcs = {o.immediate_unbound_pvc, o.unbound_pvc},
       .should_fail = true},
      {.name = "generic-ephemeral,no-pvc", .pod = EphemeralPod("no-such-pvc"), .should_fail = true},
      {.name = "generic-ephemeral,with-pvc",
       .pvs = {o.pv_bound_generic},
       .cache_pvcs = std::vector<PVC>{o.correct_generic_pvc},
       .pod = EphemeralPod("test-volume")},
      {.name = "generic-ephemeral,wrong-pvc",
       .pvs = {o.pv_bound_generic},
       .cache_pvcs = std::vector<PVC>{o.conflicting_generic_pvc},
       .pod = EphemeralPod("test-volume"),
       .should_fail = true},
  };
  REQUIRE(cases.size() == 22);
  RunFindUnderDrivers(cases);
}

TEST_CASE("TestFindPodVolumesWithProvisioning", "[volumebinding][binder]") {
  const Fixtures& o = F();
  const std::vector<FindCase> cases = {
      {.name = "one-provisioned",
       .pod_pvcs = {o.provisioned_pvc},
       .provisions = {o.provisioned_pvc},
       .needs_capacity = true},
      {.name = "two-unbound-pvcs,one-matched,one-provisioned",
       .pvs = {o.pv_node1a},
       .pod_pvcs = {o.unbound_pvc, o.provisioned_pvc},
       .bindings = {{o.unbound_pvc, o.pv_node1a}},
       .provisions = {o.provisioned_pvc},
       .needs_capacity = true},
      {.name = "one-bound,one-provisioned",
       .pvs = {o.pv_bound},
       .pod_pvcs = {o.bound_pvc, o.provisioned_pvc},
       .provisions = {o.provisioned_pvc},
       .needs_capacity = true},
      {.name = "one-binding,one-selected-node",
       .pvs = {o.pv_bound},
       .pod_pvcs = {o.bound_pvc, o.selected_node_pvc},
       .provisions = {o.selected_node_pvc},
       .needs_capacity = true},
      {.name = "immediate-unbound-pvc", .pod_pvcs = {o.immediate_unbound_pvc}, .should_fail = true},
      {.name = "one-immediate-bound,one-provisioned",
       .pvs = {o.pv_bound_immediate},
       .pod_pvcs = {o.immediate_bound_pvc, o.provisioned_pvc},
       .provisions = {o.provisioned_pvc},
       .needs_capacity = true},
      {.name = "invalid-provisioner", .pod_pvcs = {o.no_provisioner_pvc}, .reasons = {kBindConflict}},
      {.name = "volume-topology-unsatisfied", .pod_pvcs = {o.topo_mismatch_pvc}, .reasons = {kBindConflict}},
  };
  RunFindUnderDrivers(cases);
}

TEST_CASE("TestFindPodVolumesWithCSIMigration", "[volumebinding][binder]") {
  const Fixtures& o = F();
  for (bool with_csi_node : {true, false}) {
    const char* name = with_csi_node ? "pvc-bound,csinode-not-migrated" : "pvc-bound,missing-csinode";
    INFO(name);
    FakeStorageClient client;
    AddClasses(client);
    client.Add(o.migration_pv_bound);
    client.Add(o.bound_migration_pvc);
    if (with_csi_node) client.Add(CSINode("node1", ""));
    Binder binder(client, {Node1Zone("us-east-1")});
    Found f = binder.Find(TestPod({o.bound_migration_pvc}), "node1");
    CHECK_FALSE(f.failed);
    CHECK(f.Reasons().empty());
  }
}

// --- AssumePodVolumes and RevertAssumedPodVolumes ---

// upstream's validateAssume: the cache shows the volumes bound to their
// claims and the claims to provision on node1.
void CheckAssumed(const vb::AssumeCache& cache, const std::vector<Binding>& bindings,
                  const std::vector<PVC>& provisions) {
  for (const auto& [claim, pv] : bindings) {
    auto got = cache.GetVolume(pv.metadata().name());
    REQUIRE(got != nullptr);
    REQUIRE(got->spec().has_claim_ref());
    CHECK(got->spec().claim_ref().name() == claim.metadata().name());
    CHECK(got->spec().claim_ref().namespace_() == claim.metadata().namespace_());
  }
  for (const auto& c : provisions) {
    auto got = cache.GetClaim(c.metadata().namespace_(), c.metadata().name());
    REQUIRE(got != nullptr);
    auto it = got->metadata().annotations().find(kSelectedNode);
    CHECK((it != got->metadata().annotations().end() && it->second == "node1"));
  }
}

// upstream's validateCacheRestored: the cache shows the cluster's volumes
// (the very objects) and claims without a selected node.
void CheckRestored(const vb::AssumeCache& cache, const FakeStorageClient& client,
                   const std::vector<Binding>& bindings, const std::vector<PVC>& provisions) {
  for (const auto& [claim, pv] : bindings) {
    auto got = cache.GetVolume(pv.metadata().name());
    if (got != nullptr) CHECK(got == client.Get<api::v1::PersistentVolume>(pv.metadata().name()));
  }
  for (const auto& c : provisions) {
    auto got = cache.GetClaim(c.metadata().namespace_(), c.metadata().name());
    REQUIRE(got != nullptr);
    CHECK_FALSE(got->metadata().annotations().contains(kSelectedNode));
  }
}

TEST_CASE("TestAssumePodVolumes", "[volumebinding][binder]") {
  const Fixtures& o = F();
  struct Case {
    std::string name = {};
    std::vector<PVC> pod_pvcs = {};
    std::vector<PV> pvs = {};
    std::vector<Binding> bindings = {};
    std::vector<PVC> provisions = {};
    bool should_fail = false;
    bool all_bound = false;
    // Unset: bindings / provisions, unchanged.
    std::optional<std::vector<Binding>> want_bindings = {};
    std::optional<std::vector<PVC>> want_provisions = {};
  };
  const std::vector<Case> cases = {
      {.name = "all-bound", .pod_pvcs = {o.bound_pvc}, .pvs = {o.pv_bound}, .all_bound = true},
      {.name = "one-binding",
       .pod_pvcs = {o.unbound_pvc},
       .pvs = {o.pv_node1a},
       .bindings = {{o.unbound_pvc, o.pv_node1a}},
       .want_bindings = std::vector<Binding>{{o.unbound_pvc, o.pv_node1a_bound}}},
      {.name = "two-bindings",
       .pod_pvcs = {o.unbound_pvc, o.unbound_pvc2},
       .pvs = {o.pv_node1a, o.pv_node1b},
       .bindings = {{o.unbound_pvc, o.pv_node1a}, {o.unbound_pvc2, o.pv_node1b}},
       .want_bindings =
           std::vector<Binding>{{o.unbound_pvc, o.pv_node1a_bound}, {o.unbound_pvc2, o.pv_node1b_bound}}},
      {.name = "pv-already-bound",
       .pod_pvcs = {o.unbound_pvc},
       .pvs = {o.pv_node1a_bound},
       .bindings = {{o.unbound_pvc, o.pv_node1a_bound}}},
      {.name = "tmpupdate-failed",
       .pod_pvcs = {o.unbound_pvc},
       .pvs = {o.pv_node1a},
       .bindings = {{o.unbound_pvc, o.pv_node1a}, {o.unbound_pvc2, o.pv_node1b}},
       .should_fail = true},
      {.name = "one-binding, one-pvc-provisioned",
       .pod_pvcs = {o.unbound_pvc, o.provisioned_pvc},
       .pvs = {o.pv_node1a},
       .bindings = {{o.unbound_pvc, o.pv_node1a}},
       .provisions = {o.provisioned_pvc},
       .want_bindings = std::vector<Binding>{{o.unbound_pvc, o.pv_node1a_bound}},
       .want_provisions = std::vector<PVC>{o.selected_node_pvc}},
      {.name = "one-binding, one-provision-tmpupdate-failed",
       .pod_pvcs = {o.unbound_pvc, o.provisioned_pvc_higher_version},
       .pvs = {o.pv_node1a},
       .bindings = {{o.unbound_pvc, o.pv_node1a}},
       .provisions = {o.provisioned_pvc2},
       .should_fail = true},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    FakeStorageClient client;
    AddClasses(client);
    for (const auto& pvc : c.pod_pvcs) client.Add(pvc);
    for (const auto& pv : c.pvs) client.Add(pv);
    testing::FakeHandle h;
    h.set_client(&client);
    vb::AssumeCache cache(h);
    vb::PodVolumes volumes = MakePodVolumes(c.bindings, c.provisions);
    auto all_bound = vb::AssumePodVolumes(TestPod(c.pod_pvcs), Symbol::Intern("node1"), volumes, cache);
    INFO(all_bound.status().ToString());
    CHECK(all_bound.ok() != c.should_fail);
    CHECK(all_bound.value_or(false) == c.all_bound);
    const auto& want_bindings = c.want_bindings.value_or(c.bindings);
    const auto& want_provisions = c.want_provisions.value_or(c.provisions);
    if (c.should_fail) {
      CheckRestored(cache, client, c.bindings, c.provisions);
    } else {
      CheckAssumed(cache, want_bindings, want_provisions);
    }
    CheckPodVolumes(volumes, want_bindings, want_provisions);
  }
}

TEST_CASE("TestRevertAssumedPodVolumes", "[volumebinding][binder]") {
  const Fixtures& o = F();
  FakeStorageClient client;
  AddClasses(client);
  client.Add(o.unbound_pvc);
  client.Add(o.provisioned_pvc);
  client.Add(o.pv_node1a);
  testing::FakeHandle h;
  h.set_client(&client);
  vb::AssumeCache cache(h);
  const std::vector<Binding> bindings = {{o.unbound_pvc, o.pv_node1a}};
  vb::PodVolumes volumes = MakePodVolumes(bindings, {o.provisioned_pvc});
  auto all_bound = vb::AssumePodVolumes(TestPod({o.unbound_pvc, o.provisioned_pvc}), Symbol::Intern("node1"),
                                        volumes, cache);
  REQUIRE(all_bound.ok());
  CHECK_FALSE(*all_bound);
  CheckAssumed(cache, {{o.unbound_pvc, o.pv_node1a_bound}}, {o.selected_node_pvc});
  vb::RevertAssumedPodVolumes(volumes, cache);
  CheckRestored(cache, client, bindings, {o.provisioned_pvc});
}

// --- BindPodVolumes ---

enum class Outcome { kBound, kWaiting, kFailed };

// BindPodVolumes' result as upstream's checkBindings answer: bound (OK),
// not yet (the wait ran to its deadline), or an error.
Outcome OutcomeOf(const absl::Status& s) {
  if (s.ok()) return Outcome::kBound;
  return absl::IsDeadlineExceeded(s) ? Outcome::kWaiting : Outcome::kFailed;
}

const char* Name(Outcome o) {
  switch (o) {
    case Outcome::kBound:
      return "bound";
    case Outcome::kWaiting:
      return "waiting";
    case Outcome::kFailed:
      return "failed";
  }
  return "";
}

absl::Status Bind(const api::v1::Pod& pod, const api::v1::Node& node, vb::PodVolumes& volumes,
                  FakeStorageClient& client, absl::Duration timeout) {
  return vb::BindPodVolumes(pod, Symbol::Intern(node.metadata().name()),
                            api::LabelSet::FromMap(node.metadata().labels()), volumes, client, client, timeout);
}

// The API server holds a newer version of the object named `name` than the
// scheduler: writing it conflicts. Other writes go through.
void ConflictOnPV(FakeStorageClient& client, std::string name) {
  client.set_on_pv_write([&client, name](const PV& pv) -> absl::StatusOr<std::shared_ptr<const PV>> {
    if (pv.metadata().name() == name) return absl::AbortedError("the object has been modified");
    return client.Apply(pv);
  });
}
void ConflictOnPVC(FakeStorageClient& client, std::string name) {
  client.set_on_pvc_write([&client, name](const PVC& c) -> absl::StatusOr<std::shared_ptr<const PVC>> {
    if (c.metadata().name() == name) return absl::AbortedError("the object has been modified");
    return client.Apply(c);
  });
}

// upstream's bindAPIUpdate is the first half of BindPodVolumes: the cases
// run BindPodVolumes with the claims held (unbound) and check the writes.
// A successful write leaves BindPodVolumes waiting for the PV controller
// (up to a short deadline: that half is TestCheckBindings'); a failed one
// is its error, as upstream's, unwrapped. Upstream's bindAPIUpdate also
// restores the cache for the volumes it did not write; here BindPodVolumes
// has no cache and Unreserve (RevertAssumedPodVolumes, which upstream's
// Unreserve runs too) restores them, so the cache is checked after it. The
// API's newer versions of "api-update-failed" and "provision-api-update-
// failed" are a write hook's conflicts: the cluster holds the cached ones.
TEST_CASE("TestBindAPIUpdate", "[volumebinding][binder]") {
  const Fixtures& o = F();
  struct Case {
    std::string name = {};
    std::vector<Binding> bindings = {};
    std::vector<PV> cached_pvs = {};
    std::vector<PVC> provisioned_pvcs = {};
    std::vector<PVC> cached_pvcs = {};
    // Whose writes conflict.
    std::string conflicting_pv = {};
    std::string conflicting_pvc = {};
    bool should_fail = false;
    // The cluster's (and after Unreserve the cache's) objects, without versions.
    std::vector<PV> want_pvs = {};
    std::vector<PVC> want_pvcs = {};
  };
  const std::vector<Case> cases = {
      {.name = "nothing-to-bind-empty"},
      {.name = "one-binding",
       .bindings = {{o.unbound_pvc, o.pv_node1a_bound}},
       .cached_pvs = {o.pv_node1a},
       .want_pvs = {o.pv_node1a_bound}},
      {.name = "two-bindings",
       .bindings = {{o.unbound_pvc, o.pv_node1a_bound}, {o.unbound_pvc2, o.pv_node1b_bound}},
       .cached_pvs = {o.pv_node1a, o.pv_node1b},
       .want_pvs = {o.pv_node1a_bound, o.pv_node1b_bound}},
      {.name = "api-already-updated",
       .bindings = {{o.unbound_pvc, o.pv_node1a_bound}},
       .cached_pvs = {o.pv_node1a_bound},
       .want_pvs = {o.pv_node1a_bound}},
      {.name = "api-update-failed",
       .bindings = {{o.unbound_pvc, o.pv_node1a_bound}, {o.unbound_pvc2, o.pv_node1b_bound}},
       .cached_pvs = {o.pv_node1a, o.pv_node1b},
       .conflicting_pv = "pv-node1b",
       .should_fail = true,
       .want_pvs = {o.pv_node1a_bound, o.pv_node1b}},
      {.name = "one-provisioned-pvc",
       .provisioned_pvcs = {WithSelectedNode(o.provisioned_pvc)},
       .cached_pvcs = {o.provisioned_pvc},
       .want_pvcs = {WithSelectedNode(o.provisioned_pvc)}},
      {.name = "provision-api-update-failed",
       .provisioned_pvcs = {WithSelectedNode(o.provisioned_pvc), WithSelectedNode(o.provisioned_pvc2)},
       .cached_pvcs = {o.provisioned_pvc, o.provisioned_pvc2},
       .conflicting_pvc = "provisioned-pvc2",
       .should_fail = true,
       .want_pvcs = {WithSelectedNode(o.provisioned_pvc), o.provisioned_pvc2}},
      {.name = "binding-succeed, provision-api-update-failed",
       .bindings = {{o.unbound_pvc, o.pv_node1a_bound}},
       .cached_pvs = {o.pv_node1a},
       .provisioned_pvcs = {WithSelectedNode(o.provisioned_pvc), WithSelectedNode(o.provisioned_pvc2)},
       .cached_pvcs = {o.provisioned_pvc, o.provisioned_pvc2},
       .conflicting_pvc = "provisioned-pvc2",
       .should_fail = true,
       .want_pvs = {o.pv_node1a_bound},
       .want_pvcs = {WithSelectedNode(o.provisioned_pvc), o.provisioned_pvc2}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    FakeStorageClient client;
    AddClasses(client);
    for (const auto& pv : c.cached_pvs) client.Add(pv);
    for (const auto& pvc : c.cached_pvcs) client.Add(pvc);
    for (const auto& b : c.bindings) client.Add(b.first);
    if (!c.conflicting_pv.empty()) ConflictOnPV(client, c.conflicting_pv);
    if (!c.conflicting_pvc.empty()) ConflictOnPVC(client, c.conflicting_pvc);
    testing::FakeHandle h;
    h.set_client(&client);
    vb::AssumeCache cache(h);
    // upstream's assumeVolumes
    for (const auto& b : c.bindings) REQUIRE(cache.AssumeVolume(std::make_shared<const PV>(b.second)).ok());
    for (const auto& pvc : c.provisioned_pvcs) {
      REQUIRE(cache.AssumeClaim(std::make_shared<const PVC>(pvc)).ok());
    }

    vb::PodVolumes volumes = MakePodVolumes(c.bindings, c.provisioned_pvcs);
    absl::Status s = Bind(TestPod({}), Node1(), volumes, client, absl::Milliseconds(1));
    INFO(s.ToString());
    if (c.should_fail) {
      CHECK(absl::IsAborted(s));
    } else {
      CHECK((s.ok() || absl::IsDeadlineExceeded(s)));
    }
    // Every write up to the failing one was sent, in order.
    const auto pv_writes = client.pv_writes();
    const size_t want_pv_writes =
        c.conflicting_pv.empty() ? c.bindings.size() : 2;  // the conflict is the second binding
    REQUIRE(pv_writes.size() == want_pv_writes);
    for (size_t i = 0; i < pv_writes.size(); ++i) CHECK(Diff(c.bindings[i].second, pv_writes[i]) == "");
    CHECK(client.pvc_writes().size() == (c.conflicting_pv.empty() ? c.provisioned_pvcs.size() : 0));

    vb::RevertAssumedPodVolumes(volumes, cache);
    for (const auto& want : c.want_pvs) {
      auto held = client.Get<api::v1::PersistentVolume>(want.metadata().name());
      REQUIRE(held != nullptr);
      CHECK(Diff(NoVersion(want), NoVersion(*held)) == "");
      auto cached = cache.GetVolume(want.metadata().name());
      REQUIRE(cached != nullptr);
      CHECK(Diff(NoVersion(want), NoVersion(*cached)) == "");
    }
    for (const auto& want : c.want_pvcs) {
      auto held = client.Get<api::v1::PersistentVolumeClaim>("testns", want.metadata().name());
      REQUIRE(held != nullptr);
      CHECK(Diff(NoVersion(want), NoVersion(*held)) == "");
      auto cached = cache.GetClaim("testns", want.metadata().name());
      REQUIRE(cached != nullptr);
      CHECK(Diff(NoVersion(want), NoVersion(*cached)) == "");
    }
  }
}

// Writes that leave the cluster as it is, for the checkBindings tables: the
// write answers with the held object (or, when there is none, the write).
void WritesChangeNothing(FakeStorageClient& client) {
  client.set_on_pv_write([&client](const PV& pv) -> absl::StatusOr<std::shared_ptr<const PV>> {
    if (auto held = client.Get<api::v1::PersistentVolume>(pv.metadata().name())) return held;
    return std::make_shared<const PV>(pv);
  });
  client.set_on_pvc_write([&client](const PVC& c) -> absl::StatusOr<std::shared_ptr<const PVC>> {
    auto held = client.Get<api::v1::PersistentVolumeClaim>(c.metadata().namespace_(), c.metadata().name());
    if (held != nullptr) return held;
    return std::make_shared<const PVC>(c);
  });
}

struct CheckCase {
  std::string name = {};
  std::vector<PV> init_pvs = {};
  std::vector<PVC> init_pvcs = {};
  std::vector<Binding> bindings = {};
  std::vector<PVC> provisioned_pvcs = {};
  // API updates before checking.
  std::vector<PV> api_pvs = {};
  std::vector<PVC> api_pvcs = {};
  // Deletions before checking (instead of the updates).
  bool delete_pvs = false;
  bool delete_pvcs = false;
  Outcome want = Outcome::kWaiting;
  api::v1::Node node = Node1();
  std::vector<api::v1::CSINode> csi_nodes = {};
};

// upstream's checkBindings is BindPodVolumes' wait: the cases run
// BindPodVolumes with writes that change nothing, so that it checks the
// cluster as the case sets it up. Upstream's bound is OK, its error an
// error, and neither a wait to the deadline.
void RunCheck(const CheckCase& c) {
  INFO(c.name);
  FakeStorageClient client;
  AddClasses(client);
  for (const auto& pv : c.init_pvs) client.Add(pv);
  for (const auto& pvc : c.init_pvcs) client.Add(pvc);
  for (const auto& n : c.csi_nodes) client.Add(n);
  if (c.delete_pvs) {
    for (const auto& pv : c.init_pvs) client.DeletePersistentVolume(pv.metadata().name());
  } else {
    for (const auto& pv : c.api_pvs) REQUIRE(client.Apply(pv).ok());
  }
  if (c.delete_pvcs) {
    for (const auto& pvc : c.init_pvcs) client.DeletePersistentVolumeClaim("testns", pvc.metadata().name());
  } else {
    for (const auto& pvc : c.api_pvcs) REQUIRE(client.Apply(pvc).ok());
  }
  WritesChangeNothing(client);
  vb::PodVolumes volumes = MakePodVolumes(c.bindings, c.provisioned_pvcs);
  absl::Status s = Bind(TestPod({}), c.node, volumes, client, kShortTimeout);
  INFO(s.ToString());
  CHECK(Name(OutcomeOf(s)) == std::string(Name(c.want)));
  if (!s.ok() && !absl::IsDeadlineExceeded(s)) {
    CHECK_THAT(std::string(s.message()), Catch::StartsWith("binding volumes: "));
  }
}

TEST_CASE("TestCheckBindings", "[volumebinding][binder]") {
  const Fixtures& o = F();
  const std::vector<CheckCase> cases = {
      {.name = "nothing-to-bind", .want = Outcome::kBound},
      {.name = "binding-bound",
       .init_pvs = {o.pv_node1a_bound},
       .init_pvcs = {o.bound_pvc_node1a},
       .bindings = {{o.unbound_pvc, o.pv_node1a_bound}},
       .want = Outcome::kBound},
      {.name = "binding-prebound",
       .init_pvs = {o.pv_node1a_bound},
       .init_pvcs = {o.prebound_pvc_node1a},
       .bindings = {{o.unbound_pvc, o.pv_node1a_bound}}},
      {.name = "binding-unbound",
       .init_pvs = {o.pv_node1a_bound},
       .init_pvcs = {o.unbound_pvc},
       .bindings = {{o.unbound_pvc, o.pv_node1a_bound}}},
      {.name = "binding-pvc-not-exists",
       .init_pvs = {o.pv_node1a_bound},
       .bindings = {{o.unbound_pvc, o.pv_node1a_bound}},
       .want = Outcome::kFailed},
      {.name = "binding-pv-not-exists",
       .init_pvs = {o.pv_node1a_bound},
       .init_pvcs = {o.bound_pvc_node1a},
       .bindings = {{o.unbound_pvc, o.pv_node1a_bound}},
       .delete_pvs = true,
       .want = Outcome::kFailed},
      {.name = "binding-claimref-nil",
       .init_pvs = {o.pv_node1a},
       .init_pvcs = {o.bound_pvc_node1a},
       .bindings = {{o.unbound_pvc, o.pv_node1a_bound}},
       .api_pvs = {o.pv_node1a},
       .api_pvcs = {o.bound_pvc_node1a},
       .want = Outcome::kFailed},
      {.name = "binding-claimref-uid-empty",
       .init_pvs = {o.pv_node1a_bound},
       .init_pvcs = {o.bound_pvc_node1a},
       .bindings = {{o.unbound_pvc, o.pv_node1a_bound}},
       .api_pvs = {[&] {
         PV pv = o.pv_node1a_bound;
         pv.mutable_spec()->mutable_claim_ref()->clear_uid();  // upstream's pvRemoveClaimUID
         return pv;
       }()},
       .api_pvcs = {o.bound_pvc_node1a},
       .want = Outcome::kFailed},
      {.name = "binding-one-bound,one-unbound",
       .init_pvs = {o.pv_node1a_bound, o.pv_node1b_bound},
       .init_pvcs = {o.bound_pvc_node1a, o.unbound_pvc2},
       .bindings = {{o.unbound_pvc, o.pv_node1a_bound}, {o.unbound_pvc2, o.pv_node1b_bound}}},
      {.name = "provisioning-pvc-bound",
       .init_pvs = {o.pv_bound},
       .init_pvcs = {o.provisioned_pvc_bound},
       .provisioned_pvcs = {WithSelectedNode(o.provisioned_pvc)},
       .api_pvcs = {WithSelectedNode(o.provisioned_pvc_bound)},
       .want = Outcome::kBound},
      {.name = "provisioning-pvc-unbound",
       .init_pvcs = {WithSelectedNode(o.provisioned_pvc)},
       .provisioned_pvcs = {WithSelectedNode(o.provisioned_pvc)}},
      {.name = "provisioning-pvc-not-exists",
       .init_pvcs = {o.provisioned_pvc},
       .provisioned_pvcs = {WithSelectedNode(o.provisioned_pvc)},
       .delete_pvcs = true,
       .want = Outcome::kFailed},
      {.name = "provisioning-pvc-annotations-nil",
       .init_pvcs = {o.provisioned_pvc},
       .provisioned_pvcs = {WithSelectedNode(o.provisioned_pvc)},
       .api_pvcs = {o.provisioned_pvc},
       .want = Outcome::kFailed},
      {.name = "provisioning-pvc-selected-node-dropped",
       .init_pvcs = {o.provisioned_pvc},
       .provisioned_pvcs = {WithSelectedNode(o.provisioned_pvc)},
       .api_pvcs = {[&] {
         PVC c = o.provisioned_pvc;
         c.mutable_metadata()->clear_annotations();  // upstream's pvcSetEmptyAnnotations
         return c;
       }()},
       .want = Outcome::kFailed},
      {.name = "provisioning-pvc-selected-node-wrong-node",
       .init_pvcs = {o.provisioned_pvc},
       .provisioned_pvcs = {WithSelectedNode(o.provisioned_pvc)},
       .api_pvcs = {WithSelectedNode(o.provisioned_pvc, "wrong-node")},
       .want = Outcome::kFailed},
      {.name = "binding-bound-provisioning-unbound",
       .init_pvs = {o.pv_node1a_bound},
       .init_pvcs = {o.bound_pvc_node1a, WithSelectedNode(o.provisioned_pvc)},
       .bindings = {{o.unbound_pvc, o.pv_node1a_bound}},
       .provisioned_pvcs = {WithSelectedNode(o.provisioned_pvc)}},
      {.name = "tolerate-provisioning-pvc-bound-pv-not-found",
       .init_pvs = {o.pv_node1a},
       .init_pvcs = {o.provisioned_pvc},
       .provisioned_pvcs = {WithSelectedNode(o.provisioned_pvc)},
       .api_pvcs = {WithSelectedNode(o.provisioned_pvc_bound)},
       .delete_pvs = true},
  };
  REQUIRE(cases.size() == 17);
  for (const CheckCase& c : cases) RunCheck(c);
}

TEST_CASE("TestCheckBindingsWithCSIMigration", "[volumebinding][binder]") {
  const Fixtures& o = F();
  const std::vector<CheckCase> cases = {
      {.name = "binding-without-csinode",
       .init_pvs = {o.migration_pv_bound_to_unbound},
       .init_pvcs = {o.unbound_pvc},
       .bindings = {{o.unbound_pvc, o.migration_pv_bound_to_unbound}},
       .node = Node1Zone("us-east-1")},
      {.name = "binding-non-migrated-plugin",
       .init_pvs = {o.migration_pv_bound_to_unbound},
       .init_pvcs = {o.unbound_pvc},
       .bindings = {{o.unbound_pvc, o.migration_pv_bound_to_unbound}},
       .node = Node1Zone("us-east-1"),
       .csi_nodes = {CSINode("node1", "")}},
      {.name = "binding-node-pv-different-zones-migration-off",
       .init_pvs = {o.nonmigration_pv_bound_to_unbound},
       .init_pvcs = {o.unbound_pvc},
       .bindings = {{o.unbound_pvc, o.nonmigration_pv_bound_to_unbound}},
       .node = Node1Zone("us-east-2"),
       .csi_nodes = {CSINode("node1", "kubernetes.io/gce-pd")}},
  };
  for (const CheckCase& c : cases) RunCheck(c);
}

// upstream's delayFunc, which runs 5s into BindPodVolumes: the PV
// controller's reaction runs on its own thread once the first of
// BindPodVolumes' writes is stored, so that it lands while BindPodVolumes
// checks or waits. Join() returns what it reported (Catch assertions are
// not for other threads).
class ControllerAfterWrite {
 public:
  ControllerAfterWrite(FakeStorageClient& client, std::function<absl::Status(FakeStorageClient&)> react)
      : client_(client) {
    client.set_on_pv_write([this](const PV& pv) {
      auto stored = client_.Apply(pv);
      Written();
      return stored;
    });
    client.set_on_pvc_write([this](const PVC& c) {
      auto stored = client_.Apply(c);
      Written();
      return stored;
    });
    thread_ = std::thread([this, react = std::move(react)] {
      if (written_.get_future().wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
        result_ = absl::DeadlineExceededError("no write came");
        return;
      }
      result_ = react(client_);
    });
  }
  ~ControllerAfterWrite() {
    if (thread_.joinable()) thread_.join();
  }
  absl::Status Join() {
    thread_.join();
    return result_;
  }

 private:
  void Written() {
    std::call_once(once_, [this] { written_.set_value(); });
  }

  FakeStorageClient& client_;
  std::promise<void> written_;
  std::once_flag once_;
  absl::Status result_;
  std::thread thread_;
};

// upstream's PV controller binding `claim` to `volume`.
absl::Status BindClaim(FakeStorageClient& client, PVC claim, const std::string& volume) {
  claim.mutable_spec()->set_volume_name(volume);
  (*claim.mutable_metadata()->mutable_annotations())[kBindCompleted] = "yes";
  return client.Apply(claim).status();
}

TEST_CASE("TestBindPodVolumes", "[volumebinding][binder][tsan]") {
  const Fixtures& o = F();
  using React = std::function<absl::Status(FakeStorageClient&)>;
  struct Case {
    std::string name = {};
    std::vector<api::v1::Node> nodes = {Node1()};
    std::vector<PV> init_pvs = {};
    std::vector<PVC> init_pvcs = {};
    std::optional<Binding> binding = {};
    std::optional<PVC> claim_to_provision = {};
    std::optional<PV> api_pv = {};
    std::optional<PVC> api_pvc = {};
    React after_write = {};
    // OK when the case succeeds.
    absl::StatusCode want = absl::StatusCode::kOk;
    absl::Duration timeout = kBindTimeout;
  };
  const std::vector<Case> cases = {
      {.name = "nothing-to-bind-empty"},
      {.name = "already-bound",
       .init_pvs = {o.pv_node1a_bound},
       .init_pvcs = {o.bound_pvc_node1a},
       .binding = Binding{o.unbound_pvc, o.pv_node1a_bound}},
      {.name = "binding-static-pv-succeeds-after-time",
       .init_pvs = {o.pv_node1a},
       .init_pvcs = {o.unbound_pvc},
       .binding = Binding{o.unbound_pvc, o.pv_node1a_bound},
       .after_write = [&](FakeStorageClient& c) { return BindClaim(c, o.unbound_pvc, "pv-node1a"); }},
      {.name = "binding-dynamic-pv-succeeds-after-time",
       .init_pvcs = {o.provisioned_pvc},
       .claim_to_provision = WithSelectedNode(o.provisioned_pvc),
       .after_write = [](FakeStorageClient& c) -> absl::Status {
         auto claim = c.Get<api::v1::PersistentVolumeClaim>("testns", "provisioned-pvc");
         if (claim == nullptr) return absl::NotFoundError("provisioned-pvc");
         c.Add(TestPV("dynamic-pv", "node1", "1G", "1", claim.get(), kWaitClass));
         return BindClaim(c, *claim, "dynamic-pv");
       }},
      {.name = "bound-by-pv-controller-before-bind",
       .init_pvs = {o.pv_node1a},
       .init_pvcs = {o.unbound_pvc},
       .binding = Binding{o.unbound_pvc, o.pv_node1a_bound},
       .api_pv = o.pv_node1a_bound,
       .api_pvc = o.bound_pvc_node1a,
       .want = absl::StatusCode::kAborted},  // the write conflicts
      // schedkit's BindPodVolumes does not stop when the pod is deleted
      // (volume_binding.h): it fails by the deadline instead.
      {.name = "pod-deleted-after-time",
       .init_pvs = {o.pv_node1a},
       .init_pvcs = {o.unbound_pvc},
       .binding = Binding{o.unbound_pvc, o.pv_node1a_bound},
       .want = absl::StatusCode::kDeadlineExceeded,
       .timeout = kShortTimeout},
      {.name = "binding-times-out",
       .init_pvs = {o.pv_node1a},
       .init_pvcs = {o.unbound_pvc},
       .binding = Binding{o.unbound_pvc, o.pv_node1a_bound},
       .want = absl::StatusCode::kDeadlineExceeded,
       .timeout = kShortTimeout},
      {.name = "binding-fails",
       .init_pvs = {o.pv_node1b},
       .init_pvcs = {o.unbound_pvc2},
       .binding = Binding{o.unbound_pvc2, o.pv_node1b_bound},
       .want = absl::StatusCode::kDeadlineExceeded,
       .timeout = kShortTimeout},
      {.name = "check-fails",
       .init_pvs = {o.pv_node1a},
       .init_pvcs = {o.unbound_pvc},
       .binding = Binding{o.unbound_pvc, o.pv_node1a_bound},
       .after_write =
           [](FakeStorageClient& c) {
             c.DeletePersistentVolumeClaim("testns", "unbound-pvc");
             return absl::OkStatus();
           },
       .want = absl::StatusCode::kNotFound},
      {.name = "node-affinity-fails",
       .nodes = {Node1NoLabels()},
       .init_pvs = {o.pv_node1a_bound},
       .init_pvcs = {o.bound_pvc_node1a},
       .binding = Binding{o.unbound_pvc, o.pv_node1a_bound},
       .want = absl::StatusCode::kFailedPrecondition},
      {.name = "node-affinity-fails-dynamic-provisioning",
       .nodes = {Node1(), Node2()},
       .init_pvs = {o.pv_node1a, o.pv_node2},
       .init_pvcs = {o.selected_node_pvc},
       .claim_to_provision = o.selected_node_pvc,
       .after_write = [&](FakeStorageClient& c) { return BindClaim(c, o.selected_node_pvc, "pv-node2"); },
       .want = absl::StatusCode::kFailedPrecondition},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    FakeStorageClient client;
    AddClasses(client);
    for (const auto& pv : c.init_pvs) client.Add(pv);
    for (const auto& pvc : c.init_pvcs) client.Add(pvc);
    if (c.api_pv) REQUIRE(client.Apply(*c.api_pv).ok());
    if (c.api_pvc) REQUIRE(client.Apply(*c.api_pvc).ok());
    std::optional<ControllerAfterWrite> controller;
    if (c.after_write) controller.emplace(client, c.after_write);
    std::vector<Binding> bindings;
    if (c.binding) bindings.push_back(*c.binding);
    std::vector<PVC> provisions;
    if (c.claim_to_provision) provisions.push_back(*c.claim_to_provision);
    vb::PodVolumes volumes = MakePodVolumes(bindings, provisions);
    const absl::Time start = absl::Now();
    absl::Status s = Bind(TestPod({}), c.nodes[0], volumes, client, c.timeout);
    INFO(s.ToString());
    CHECK(s.code() == c.want);
    // Waits that the PV controller ends do not run to the deadline.
    if (c.timeout == kBindTimeout) CHECK(absl::Now() - start < absl::Seconds(5));
    if (controller) CHECK(controller->Join().ok());
  }
}

TEST_CASE("TestFindAssumeVolumes", "[volumebinding][binder]") {
  const Fixtures& o = F();
  FakeStorageClient client;
  AddClasses(client);
  for (const PV& pv : {o.pv_node2, o.pv_node1a, o.pv_node1c}) client.Add(pv);
  client.Add(o.unbound_pvc);
  Binder binder(client, {Node1()});
  const auto pod_obj = TestPod({o.unbound_pvc});

  // 1. Find matching PVs.
  Found found = binder.Find(pod_obj, "node1");
  REQUIRE(found.status.IsSuccess());
  REQUIRE(found.volumes.static_bindings.size() == 1);

  // 2. Assume them (Reserve: FindPodVolumes on the node, then AssumePodVolumes).
  framework::CycleState state;
  auto pod = testing::Info(pod_obj);
  REQUIRE(binder.plugin().PreFilter(state, *pod, binder.handle().snapshot().nodes()).status.IsSuccess());
  REQUIRE(binder.plugin().Reserve(state, *pod, Symbol::Intern("node1")).IsSuccess());
  const auto* s = state.Read<VolumeBindingState>(Symbol::Intern("VolumeBinding"));
  REQUIRE(s != nullptr);
  CHECK_FALSE(s->all_bound);
  REQUIRE(s->volumes.static_bindings.size() == 1);
  const auto& assumed = s->volumes.static_bindings[0];
  CHECK(assumed.pv->metadata().name() == found.volumes.static_bindings[0].pv->metadata().name());
  REQUIRE(assumed.pv->spec().has_claim_ref());
  CHECK(assumed.pv->spec().claim_ref().name() == "unbound-pvc");

  // 3. Finding again always returns the assumed volume.
  for (int i = 0; i < 50; ++i) {
    Found again = binder.Find(pod_obj, "node1");
    REQUIRE(again.status.IsSuccess());
    CheckPodVolumes(again.volumes, {{o.unbound_pvc, *assumed.pv}}, {});
  }
}

TEST_CASE("TestCapacity", "[volumebinding][binder]") {
  const Fixtures& o = F();
  const api::v1::Node node1 = Node1(), node2 = Node2();
  struct Case {
    std::string name = {};
    std::vector<api::v1::CSIStorageCapacity> capacities = {};
    std::vector<std::string> reasons = {};
  };
  const std::vector<Case> cases = {
      {"network-attached", {Capacity(kWaitClassWithProvisioner, nullptr, "1Gi", "")}, {}},
      {"local-storage", {Capacity(kWaitClassWithProvisioner, &node1, "1Gi", "")}, {}},
      {"multiple",
       {Capacity(kWaitClassWithProvisioner, nullptr, "1Gi", ""),
        Capacity(kWaitClassWithProvisioner, &node2, "1Gi", ""),
        Capacity(kWaitClassWithProvisioner, &node1, "1Gi", "")},
       {}},
      {"no-storage", {}, {kNotEnoughSpace}},
      {"wrong-node", {Capacity(kWaitClassWithProvisioner, &node2, "1Gi", "")}, {kNotEnoughSpace}},
      {"wrong-storage-class", {Capacity(kWaitClass, &node1, "1Gi", "")}, {kNotEnoughSpace}},
      {"insufficient-storage", {Capacity(kWaitClassWithProvisioner, &node1, "1Mi", "")}, {kNotEnoughSpace}},
      {"insufficient-volume-size",
       {Capacity(kWaitClassWithProvisioner, &node1, "1Gi", "1Mi")},
       {kNotEnoughSpace}},
      {"zero-storage", {Capacity(kWaitClassWithProvisioner, &node1, "0Mi", "")}, {kNotEnoughSpace}},
      {"zero-volume-size", {Capacity(kWaitClassWithProvisioner, &node1, "", "0Mi")}, {kNotEnoughSpace}},
      {"nil-storage", {Capacity(kWaitClassWithProvisioner, &node1, "", "")}, {kNotEnoughSpace}},
  };
  for (bool opt_in : {true, false}) {
    INFO("CSIDriver.StorageCapacity=" << opt_in);
    for (const Case& c : cases) {
      INFO(c.name);
      FakeStorageClient client;
      AddClasses(client);
      client.Add(CSIDriver(kProvisioner, opt_in));
      for (const auto& capacity : c.capacities) client.Add(capacity);
      client.Add(o.provisioned_pvc);
      Binder binder(client, {node1});
      Found f = binder.Find(TestPod({o.provisioned_pvc}), "node1");
      INFO(f.status.ToString());
      CHECK_FALSE(f.failed);
      const std::vector<std::string> reasons = opt_in ? c.reasons : std::vector<std::string>{};
      CHECK(f.Reasons() == reasons);
      if (reasons.empty()) CheckPodVolumes(f.volumes, {}, {o.provisioned_pvc});
    }
  }
}

// --- component-helpers pv_helpers_test.go ---

// makeTestVolume, named after its UID (upstream's names repeat: one cluster
// cannot hold two volumes of one name).
PV HelperVolume(const std::string& uid, const std::string& capacity, bool available,
                const std::string& class_name, const std::string& affinity_value) {
  PV pv;
  pv.mutable_metadata()->set_name(uid);
  pv.mutable_metadata()->set_uid(uid);
  (*pv.mutable_spec()->mutable_capacity())["storage"] = capacity;
  pv.mutable_spec()->add_access_modes("ReadWriteOnce");
  pv.mutable_spec()->add_access_modes("ReadOnlyMany");
  pv.mutable_spec()->set_volume_mode("Filesystem");
  pv.mutable_spec()->set_storage_class_name(class_name);
  if (available) pv.mutable_status()->set_phase("Available");
  if (!affinity_value.empty()) SetAffinity(pv, "key1", affinity_value);
  return pv;
}

// makeTestPersistentVolumeClaim
PVC HelperClaim(const std::string& name, const std::string& size, const std::string& access_mode,
                const std::string& vac = "") {
  PVC c;
  c.mutable_metadata()->set_name(name);
  c.mutable_metadata()->set_namespace_("myns");
  c.mutable_spec()->add_access_modes(access_mode);
  (*c.mutable_spec()->mutable_resources()->mutable_requests())["storage"] = size;
  c.mutable_spec()->set_storage_class_name("wait");
  c.mutable_spec()->set_volume_mode("Filesystem");
  if (!vac.empty()) c.mutable_spec()->set_volume_attributes_class_name(vac);
  return c;
}

// The FindMatchingVolume table on the scheduler path: the claim is the pod's,
// its class "wait" is WaitForFirstConsumer without a provisioner (so a claim
// without a volume fails the node with BindConflict), the node has the
// case's label. upstream's excludedVolumes are the volumes other claims of
// the pod take first: claims of 50G, smaller than the case's, so matched
// before it, each taking the smallest free volume of the node.
TEST_CASE("TestFindMatchVolumeWithNode", "[volumebinding][binder]") {
  std::vector<PV> volumes = {
      HelperVolume("local-small", "5G", true, "", ""),
      HelperVolume("local-pd-very-large", "200E", true, "large", ""),
      HelperVolume("affinity-pv", "100G", true, "wait", "value1"),
      HelperVolume("affinity-pv2", "150G", true, "wait", "value1"),
      [] {
        PV pv = HelperVolume("affinity-prebound", "100G", true, "wait", "value1");
        pv.mutable_spec()->mutable_claim_ref()->set_name("claim02");
        pv.mutable_spec()->mutable_claim_ref()->set_namespace_("myns");
        return pv;
      }(),
      HelperVolume("affinity-pv3", "200G", true, "wait", "value3"),
      HelperVolume("affinity-pv4", "200G", false, "wait", "value4"),
  };
  std::vector<PV> volumes_with_vac = volumes;
  for (PV& pv : volumes_with_vac) pv.mutable_spec()->set_volume_attributes_class_name("gold");

  struct Case {
    std::string name = {};
    std::string expected_match;  // a volume's UID; empty: none
    PVC claim = {};
    std::string node_value;  // the node's key1
    const std::vector<PV>* volumes = {};
    // How many volumes upstream excludes (affinity-pv, then affinity-pv2).
    int excluded = 0;
  };
  const std::vector<Case> cases = {
      {"success-match", "affinity-pv", HelperClaim("claim01", "100G", "ReadWriteOnce"), "value1", &volumes},
      {"success-prebound", "affinity-prebound", HelperClaim("claim02", "100G", "ReadWriteOnce"), "value1",
       &volumes},
      {"success-exclusion", "affinity-pv2", HelperClaim("claim01", "100G", "ReadWriteOnce"), "value1",
       &volumes, 1},
      {"fail-exclusion", "", HelperClaim("claim01", "100G", "ReadWriteOnce"), "value1", &volumes, 2},
      {"fail-accessmode", "", HelperClaim("claim01", "100G", "ReadWriteMany"), "value1", &volumes},
      {"fail-nodeaffinity", "", HelperClaim("claim01", "100G", "ReadWriteOnce"), "value2", &volumes},
      {"fail-prebound-node-affinity", "", HelperClaim("claim02", "100G", "ReadWriteOnce"), "value3",
       &volumes},
      {"fail-nonavaliable", "", HelperClaim("claim04", "100G", "ReadWriteOnce"), "value4", &volumes},
      {"success-bad-and-good-node-affinity", "affinity-pv3", HelperClaim("claim03", "100G", "ReadWriteOnce"),
       "value3", &volumes},
      {"success-match-with-vac", "affinity-pv", HelperClaim("claim01", "100G", "ReadWriteOnce", "gold"),
       "value1", &volumes_with_vac},
      {"fail-vac", "", HelperClaim("claim01", "100G", "ReadWriteOnce", "silver"), "value1", &volumes},
      {"fail-prebound-vac", "", HelperClaim("claim02", "100G", "ReadWriteOnce", "silver"), "value1",
       &volumes_with_vac},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    FakeStorageClient client;
    client.Add(Class("wait", "WaitForFirstConsumer", "kubernetes.io/no-provisioner"));
    for (const PV& pv : *c.volumes) client.Add(pv);
    std::vector<PVC> claims;
    for (int i = 0; i < c.excluded; ++i) {
      claims.push_back(HelperClaim("taker" + std::to_string(i), "50G", "ReadWriteOnce"));
    }
    claims.push_back(c.claim);
    auto pod = MakePod().Name("pod").Namespace("myns");
    for (const PVC& claim : claims) {
      client.Add(claim);
      pod.PVC(claim.metadata().name());
    }
    Binder binder(client, {MakeNode().Name("node").Label("key1", c.node_value).Obj()});
    Found f = binder.Find(pod.Obj(), "node");
    INFO(f.status.ToString());
    REQUIRE_FALSE(f.failed);
    if (c.expected_match.empty()) {
      CHECK(f.Reasons() == std::vector<std::string>{kBindConflict});
      continue;
    }
    REQUIRE(f.status.IsSuccess());
    REQUIRE(f.volumes.static_bindings.size() == claims.size());
    const auto& mine = f.volumes.static_bindings.back();
    CHECK(mine.claim->metadata().name() == c.claim.metadata().name());
    CHECK(mine.pv->metadata().uid() == c.expected_match);
  }
}

// IsDelayBindingMode, as PreFilter uses it: an unbound claim of a
// WaitForFirstConsumer class is delayed (PreFilter passes), any other is
// immediate ("pod has unbound immediate PersistentVolumeClaims"), and a
// class without a mode is an error.
TEST_CASE("TestDelayBindingMode", "[volumebinding][binder]") {
  FakeStorageClient client;
  api::v1::StorageClass no_mode;
  no_mode.mutable_metadata()->set_name("no-mode");
  client.Add(no_mode);
  client.Add(Class("immediate-mode", "Immediate", ""));
  client.Add(Class("wait-mode", "WaitForFirstConsumer", ""));
  struct Case {
    std::string name = {};
    std::optional<std::string> class_name = {};
    bool should_delay = false;
    bool should_fail = false;
  };
  const std::vector<Case> cases = {
      {"nil-class", std::nullopt},
      {"class-not-found", "not-here"},
      {"no-mode-class", "no-mode", false, true},
      {"immediate-mode-class", "immediate-mode"},
      {"wait-mode-class", "wait-mode", true},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    PVC claim;
    claim.mutable_metadata()->set_name(c.name);
    claim.mutable_metadata()->set_namespace_("default");
    if (c.class_name) claim.mutable_spec()->set_storage_class_name(*c.class_name);
    FakeStorageClient with_claim = client;
    with_claim.Add(claim);
    testing::FakeHandle h;
    h.set_client(&with_claim);
    auto plugin = NewPlugin(h);
    framework::CycleState state;
    Status s = plugin->PreFilter(state, *MakePod().Name("p").PVC(c.name).Info(), {}).status;
    INFO(s.ToString());
    if (c.should_fail) {
      CHECK(s.IsError());
    } else if (c.should_delay) {
      CHECK(s.IsSuccess());
    } else {
      CHECK(s == Status::WithText(Code::kUnschedulableAndUnresolvable,
                                  "pod has unbound immediate PersistentVolumeClaims"));
    }
  }
}

// --- passive_assume_cache_test.go ---

// upstream's makeObj, as a claim.
PVC CacheObj(const std::string& name, const std::string& version, const std::string& ns) {
  PVC c;
  c.mutable_metadata()->set_name(name);
  c.mutable_metadata()->set_namespace_(ns);
  c.mutable_metadata()->set_resource_version(version);
  return c;
}

// upstream's verifyObj: the cache shows `want` for want's key.
void CheckCached(const vb::AssumeCache& cache, const PVC& want) {
  auto got = cache.GetClaim(want.metadata().namespace_(), want.metadata().name());
  REQUIRE(got != nullptr);
  CHECK(Diff(want, *got) == "");
}

TEST_CASE("TestAssume", "[volumebinding][binder]") {
  struct Case {
    std::string name = {};
    PVC old = {};
    PVC assumed = {};
    bool should_succeed = false;
  };
  const std::vector<Case> cases = {
      {"success-same-version", CacheObj("pvc1", "5", "ns1"), CacheObj("pvc1", "5", "ns1"), true},
      {"fail-new-higher-version", CacheObj("pvc1", "5", "ns1"), CacheObj("pvc1", "6", "ns1")},
      {"fail-old-not-found", CacheObj("pvc2", "5", "ns1"), CacheObj("pvc1", "5", "ns1")},
      {"fail-new-lower-version", CacheObj("pvc1", "5", "ns1"), CacheObj("pvc1", "4", "ns1")},
      {"fail-new-bad-version", CacheObj("pvc1", "5", "ns1"), CacheObj("pvc1", "a", "ns1")},
      {"fail-old-bad-version", CacheObj("pvc1", "a", "ns1"), CacheObj("pvc1", "5", "ns1")},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    FakeStorageClient client;
    client.Add(c.old);
    testing::FakeHandle h;
    h.set_client(&client);
    vb::AssumeCache cache(h);
    CheckCached(cache, c.old);
    // A copy that Get can tell from the held object.
    PVC assumed = c.assumed;
    (*assumed.mutable_metadata()->mutable_annotations())["assumed"] = "yes";
    CHECK(cache.AssumeClaim(std::make_shared<const PVC>(assumed)).ok() == c.should_succeed);
    CheckCached(cache, c.should_succeed ? assumed : c.old);
  }
}

TEST_CASE("TestRestore", "[volumebinding][binder]") {
  FakeStorageClient client;
  testing::FakeHandle h;
  h.set_client(&client);
  vb::AssumeCache cache(h);
  const PVC old = CacheObj("pvc1", "5", "ns1");
  PVC assumed = old;
  (*assumed.mutable_metadata()->mutable_annotations())["assumed"] = "yes";

  cache.RestoreClaim(std::make_shared<const PVC>());  // an object that does not exist
  client.Add(old);
  CheckCached(cache, old);
  cache.RestoreClaim(std::make_shared<const PVC>(old));
  CheckCached(cache, old);
  auto assumed_ptr = std::make_shared<const PVC>(assumed);
  REQUIRE(cache.AssumeClaim(assumed_ptr).ok());
  CheckCached(cache, assumed);
  cache.RestoreClaim(assumed_ptr);
  CheckCached(cache, old);
}

// Two pods' assumptions: the second, on a newer version, survives the
// first's restore.
TEST_CASE("TestConcurrentAssume", "[volumebinding][binder]") {
  FakeStorageClient client;
  testing::FakeHandle h;
  h.set_client(&client);
  vb::AssumeCache cache(h);
  auto assumed = [](PVC c) {
    (*c.mutable_metadata()->mutable_annotations())["assumed"] = "yes";
    return std::make_shared<const PVC>(c);
  };
  client.Add(CacheObj("pvc1", "5", "ns1"));
  auto obj1_update = assumed(CacheObj("pvc1", "5", "ns1"));
  REQUIRE(cache.AssumeClaim(obj1_update).ok());
  CheckCached(cache, *obj1_update);

  client.Update(CacheObj("pvc1", "7", "ns1"));  // changed elsewhere
  auto obj2_update = assumed(CacheObj("pvc1", "7", "ns1"));
  REQUIRE(cache.AssumeClaim(obj2_update).ok());
  cache.RestoreClaim(obj1_update);  // the first binding failed with a conflict
  CheckCached(cache, *obj2_update);
}

// The scheduler receiving the object again, unchanged, keeps the assumption.
TEST_CASE("TestAssumeUpdateCache", "[volumebinding][binder]") {
  FakeStorageClient client;
  testing::FakeHandle h;
  h.set_client(&client);
  vb::AssumeCache cache(h);
  const PVC obj = CacheObj("test-pvc0", "1", "test-ns");
  client.Add(obj);
  CheckCached(cache, obj);
  PVC new_obj = WithSelectedNode(obj, "test-node");
  REQUIRE(cache.AssumeClaim(std::make_shared<const PVC>(new_obj)).ok());
  CheckCached(cache, new_obj);
  client.Update(obj);
  CheckCached(cache, new_obj);
}

}  // namespace
}  // namespace schedkit::plugins
