// Ports of upstream v1.35.8 pkg/scheduler/framework/plugins/volumezone
// volume_zone_test.go, every case: TestSingleZone, TestMultiZone,
// TestWithBinding, TestIsSchedulableAfterPersistentVolumeClaimChange,
// TestIsSchedulableAfterStorageClassAdded and
// TestIsSchedulableAfterPersistentVolumeChange (the cases that hand a hint
// an object of the wrong type have no counterpart: EventObjects is typed).
// Each table runs PreFilter, then Filter on a fresh node, as upstream does:
// after a failed PreFilter, Filter recomputes and fails the same way.
//
// One text differs on purpose: upstream's TestWithBinding uses a fake
// StorageClass lister whose miss reads `storageclasses.storage.k8s.io ...`;
// the informer lister a running scheduler uses (and schedkit follows) says
// `storageclass.storage.k8s.io "Class_0" not found`.
#include "plugins/volumezone/volume_zone.h"

#include <catch2/catch.hpp>
#include <map>
#include <optional>
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

constexpr const char* kBetaZone = "failure-domain.beta.kubernetes.io/zone";
constexpr const char* kBetaRegion = "failure-domain.beta.kubernetes.io/region";
constexpr const char* kZone = "topology.kubernetes.io/zone";
constexpr const char* kRegion = "topology.kubernetes.io/region";

api::v1::PersistentVolume Pv(const std::string& name, const std::map<std::string, std::string>& labels) {
  api::v1::PersistentVolume pv;
  pv.mutable_metadata()->set_name(name);
  for (const auto& [k, v] : labels) (*pv.mutable_metadata()->mutable_labels())[k] = v;
  return pv;
}

api::v1::PersistentVolumeClaim Pvc(const std::string& name, const std::string& volume,
                                   std::optional<std::string> class_name = std::nullopt,
                                   const std::string& ns = "default") {
  api::v1::PersistentVolumeClaim c;
  c.mutable_metadata()->set_name(name);
  c.mutable_metadata()->set_namespace_(ns);
  c.mutable_spec()->set_volume_name(volume);
  if (class_name) c.mutable_spec()->set_storage_class_name(*class_name);
  return c;
}

api::v1::Pod PodWithVolume(const std::string& pod, const std::string& pvc) {
  return MakePod().Name(pod).Namespace("default").PVC(pvc).Obj();
}

struct Case {
  std::string name;
  api::v1::Pod pod;
  std::map<std::string, std::string> node_labels;
  Status want_pre_filter;
  Status want_filter;
};

const Status kConflict = Status(Code::kUnschedulableAndUnresolvable, Symbol::Intern("node(s) had no available volume zone"));

void RunTable(const testing::FakeStorageClient& client_in, const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    SECTION(c.name) {
      testing::FakeStorageClient client = client_in;
      testing::FakeHandle handle;
      handle.set_client(&client);
      auto plugin = testing::MustNew(&NewVolumeZone, handle);
      auto* pf = dynamic_cast<framework::PreFilterPlugin*>(plugin.get());
      auto* f = dynamic_cast<framework::FilterPlugin*>(plugin.get());
      REQUIRE(pf != nullptr);
      REQUIRE(f != nullptr);
      auto node_builder = MakeNode().Name("host1");
      for (const auto& [k, v] : c.node_labels) node_builder.Label(k, v);
      const framework::NodeInfo node = node_builder.Info();
      auto pod = testing::Info(c.pod);
      framework::CycleState state;
      CHECK(pf->PreFilter(state, *pod, {}).status == c.want_pre_filter);
      CHECK(f->Filter(state, *pod, node) == c.want_filter);
    }
  }
}

TEST_CASE("TestSingleZone", "[volumezone]") {
  testing::FakeStorageClient client;
  client.Add(Pv("Vol_1", {{kBetaZone, "us-west1-a"}}));
  client.Add(Pv("Vol_2", {{kBetaRegion, "us-west1"}, {"uselessLabel", "none"}}));
  client.Add(Pv("Vol_3", {{kBetaRegion, "us-west1"}}));
  client.Add(Pv("Vol_Stable_1", {{kZone, "us-west1-a"}}));
  client.Add(Pv("Vol_Stable_2", {{kRegion, "us-west1"}, {"uselessLabel", "none"}}));
  client.Add(Pv("Vol_Stable_3", {{kZone, "us-west1-a"}, {kRegion, "us-west1-a"}}));
  for (const char* n : {"1", "2", "3"}) client.Add(Pvc(std::string("PVC_") + n, std::string("Vol_") + n));
  client.Add(Pvc("PVC_4", "Vol_not_exist"));
  for (const char* n : {"1", "2", "3"}) {
    client.Add(Pvc(std::string("PVC_Stable_") + n, std::string("Vol_Stable_") + n));
  }
  RunTable(client, {
                       {"pod without volume", MakePod().Name("pod_1").Namespace("default").Obj(),
                        {{kBetaZone, "us-west1-a"}}, Status::Skip(), Status()},
                       {"node without labels", PodWithVolume("pod_1", "PVC_1"), {}, Status(), Status()},
                       {"beta zone label matched", PodWithVolume("pod_1", "PVC_1"),
                        {{kBetaZone, "us-west1-a"}, {"uselessLabel", "none"}}, Status(), Status()},
                       {"beta region label matched", PodWithVolume("pod_1", "PVC_2"),
                        {{kBetaRegion, "us-west1"}, {"uselessLabel", "none"}}, Status(), Status()},
                       {"beta region label doesn't match", PodWithVolume("pod_1", "PVC_2"),
                        {{kBetaRegion, "no_us-west1"}, {"uselessLabel", "none"}}, Status(), kConflict},
                       {"beta zone label doesn't match", PodWithVolume("pod_1", "PVC_1"),
                        {{kBetaZone, "no_us-west1-a"}, {"uselessLabel", "none"}}, Status(), kConflict},
                       {"zone label matched", PodWithVolume("pod_1", "PVC_Stable_1"),
                        {{kZone, "us-west1-a"}, {"uselessLabel", "none"}}, Status(), Status()},
                       {"region label matched", PodWithVolume("pod_1", "PVC_Stable_2"),
                        {{kRegion, "us-west1"}, {"uselessLabel", "none"}}, Status(), Status()},
                       {"region label doesn't match", PodWithVolume("pod_1", "PVC_Stable_2"),
                        {{kRegion, "no_us-west1"}, {"uselessLabel", "none"}}, Status(), kConflict},
                       {"zone label doesn't match", PodWithVolume("pod_1", "PVC_Stable_1"),
                        {{kZone, "no_us-west1-a"}, {"uselessLabel", "none"}}, Status(), kConflict},
                       {"pv with zone and region, node with only zone", PodWithVolume("pod_1", "PVC_Stable_3"),
                        {{kZone, "us-west1-a"}}, Status(), kConflict},
                       {"pv with zone,node with beta zone", PodWithVolume("pod_1", "PVC_Stable_1"),
                        {{kBetaZone, "us-west1-a"}}, Status(), kConflict},
                       {"pv with beta label,node with ga label, matched", PodWithVolume("pod_1", "PVC_1"),
                        {{kZone, "us-west1-a"}}, Status(), Status()},
                       {"pv with beta label,node with ga label, don't match", PodWithVolume("pod_1", "PVC_1"),
                        {{kZone, "us-west1-b"}}, Status(), kConflict},
                   });
}

TEST_CASE("TestMultiZone", "[volumezone]") {
  testing::FakeStorageClient client;
  client.Add(Pv("Vol_1", {{kBetaZone, "us-west1-a"}}));
  client.Add(Pv("Vol_2", {{kBetaZone, "us-west1-b"}, {"uselessLabel", "none"}}));
  client.Add(Pv("Vol_3", {{kBetaZone, "us-west1-c__us-west1-a"}}));
  client.Add(Pv("Vol_Stable_1", {{kZone, "us-west1-a"}}));
  client.Add(Pv("Vol_Stable_2", {{kZone, "us-west1-c__us-west1-a"}}));
  for (const char* n : {"1", "2", "3"}) client.Add(Pvc(std::string("PVC_") + n, std::string("Vol_") + n));
  client.Add(Pvc("PVC_4", "Vol_not_exist"));
  for (const char* n : {"1", "2"}) client.Add(Pvc(std::string("PVC_Stable_") + n, std::string("Vol_Stable_") + n));
  RunTable(client, {
                       {"node without labels", PodWithVolume("pod_1", "PVC_3"), {}, Status(), Status()},
                       {"beta zone label matched", PodWithVolume("pod_1", "PVC_3"),
                        {{kBetaZone, "us-west1-a"}, {"uselessLabel", "none"}}, Status(), Status()},
                       {"beta zone label doesn't match", PodWithVolume("pod_1", "PVC_1"),
                        {{kBetaZone, "us-west1-b"}, {"uselessLabel", "none"}}, Status(), kConflict},
                       {"zone label matched", PodWithVolume("pod_1", "PVC_Stable_2"),
                        {{kZone, "us-west1-a"}, {"uselessLabel", "none"}}, Status(), Status()},
                       {"zone label doesn't match", PodWithVolume("pod_1", "PVC_Stable_1"),
                        {{kZone, "us-west1-b"}, {"uselessLabel", "none"}}, Status(), kConflict},
                   });
}

TEST_CASE("TestWithBinding", "[volumezone]") {
  testing::FakeStorageClient client;
  api::v1::StorageClass immediate;
  immediate.mutable_metadata()->set_name("Class_Immediate");
  client.Add(immediate);
  api::v1::StorageClass wait;
  wait.mutable_metadata()->set_name("Class_Wait");
  wait.set_volume_binding_mode("WaitForFirstConsumer");
  client.Add(wait);
  client.Add(Pv("Vol_1", {{kBetaZone, "us-west1-a"}}));
  client.Add(Pvc("PVC_1", "Vol_1"));
  client.Add(Pvc("PVC_NoSC", "", "Class_0"));
  client.Add(Pvc("PVC_EmptySC", ""));
  client.Add(Pvc("PVC_WaitSC", "", "Class_Wait"));
  client.Add(Pvc("PVC_ImmediateSC", "", "Class_Immediate"));
  const std::map<std::string, std::string> node = {{kBetaZone, "us-west1-a"}, {"uselessLabel", "none"}};
  auto unresolvable = [](const char* text) { return Status::WithText(Code::kUnschedulableAndUnresolvable, text); };
  RunTable(client,
           {
               {"label zone failure domain matched", PodWithVolume("pod_1", "PVC_1"), node, Status(), Status()},
               {"unbound volume empty storage class", PodWithVolume("pod_1", "PVC_EmptySC"), node,
                unresolvable("PersistentVolumeClaim had no pv name and storageClass name"),
                unresolvable("PersistentVolumeClaim had no pv name and storageClass name")},
               {"unbound volume no storage class", PodWithVolume("pod_1", "PVC_NoSC"), node,
                unresolvable("storageclass.storage.k8s.io \"Class_0\" not found"),
                unresolvable("storageclass.storage.k8s.io \"Class_0\" not found")},
               {"unbound volume immediate binding mode", PodWithVolume("pod_1", "PVC_ImmediateSC"), node,
                unresolvable("VolumeBindingMode not set for StorageClass \"Class_Immediate\""),
                unresolvable("VolumeBindingMode not set for StorageClass \"Class_Immediate\"")},
               {"unbound volume wait binding mode", PodWithVolume("pod_1", "PVC_WaitSC"), node, Status::Skip(),
                Status()},
           });
}

// The plugin's hint registered for `resource`.
framework::QueueingHintFn HintFor(framework::EventResource resource) {
  testing::FakeHandle handle;
  auto plugin = testing::MustNew(&NewVolumeZone, handle);
  for (auto& e : dynamic_cast<framework::EnqueueExtensions*>(plugin.get())->EventsToRegister()) {
    if (e.event.resource == resource) return e.hint;
  }
  return nullptr;
}

framework::QueueingHint Hint(framework::EventResource resource, const api::v1::Pod& pod,
                             const framework::EventObjects& e) {
  auto hint = HintFor(resource);
  REQUIRE(hint);
  return testing::Must(hint(*testing::Info(pod), e));
}

TEST_CASE("TestIsSchedulableAfterPersistentVolumeClaimChange", "[volumezone]") {
  using framework::QueueingHint;
  const auto r = framework::EventResource::Of<api::v1::PersistentVolumeClaim>();
  const auto pvc1 = Pvc("PVC_1", "Vol_1");
  const auto pvc1_unbound = Pvc("PVC_1", "");
  const auto pvc1_ns1 = Pvc("PVC_1", "Vol_1", std::nullopt, "ns1");
  const auto no_pvc = MakePod().Name("pod_1").Namespace("default").Obj();
  auto added = [](const api::v1::PersistentVolumeClaim& n) {
    framework::EventObjects e;
    e.SetNew(&n);
    return e;
  };
  framework::EventObjects updated;
  updated.SetOld(&pvc1_unbound);
  updated.SetNew(&pvc1);
  CHECK(Hint(r, no_pvc, added(pvc1)) == QueueingHint::kSkip);                          // pvc-was-added-but-pod-refers-no-pvc
  CHECK(Hint(r, PodWithVolume("pod_1", "PVC_2"), added(pvc1)) == QueueingHint::kSkip);  // ...-bound-to-different-pvc
  CHECK(Hint(r, PodWithVolume("pod_1", "PVC_1"), added(pvc1_ns1)) == QueueingHint::kSkip);  // ...-but-different-ns
  CHECK(Hint(r, PodWithVolume("pod_1", "PVC_1"), added(pvc1)) == QueueingHint::kQueue);  // ...-bound-to-the-pvc
  CHECK(Hint(r, PodWithVolume("pod_1", "PVC_1"), updated) == QueueingHint::kQueue);  // pvc-was-updated-and-pod-was-bound-to-the-pvc
  CHECK(Hint(r, no_pvc, updated) == QueueingHint::kSkip);  // pvc-was-updated-but-pod-refers-no-pvc
  CHECK_FALSE(HintFor(r)(*testing::Info(no_pvc), framework::EventObjects()).ok());
}

TEST_CASE("TestIsSchedulableAfterStorageClassAdded", "[volumezone]") {
  using framework::QueueingHint;
  const auto r = framework::EventResource::Of<api::v1::StorageClass>();
  api::v1::StorageClass no_mode;
  no_mode.mutable_metadata()->set_name("SC_1");
  api::v1::StorageClass wait = no_mode;
  wait.set_volume_binding_mode("WaitForFirstConsumer");
  framework::EventObjects e;
  e.SetNew(&no_mode);
  CHECK(Hint(r, PodWithVolume("pod_1", "PVC_1"), e) == QueueingHint::kSkip);  // sc-doesn't-have-volume-binding-mode
  e.SetNew(&wait);
  CHECK(Hint(r, PodWithVolume("pod_1", "PVC_1"), e) == QueueingHint::kQueue);  // new-sc-is-wait-for-first-consumer-mode
}

TEST_CASE("TestIsSchedulableAfterPersistentVolumeChange", "[volumezone]") {
  using framework::QueueingHint;
  const auto r = framework::EventResource::Of<api::v1::PersistentVolume>();
  const auto pod = PodWithVolume("pod_1", "PVC_1");
  const auto a = Pv("Vol_1", {{kBetaZone, "us-west1-a"}});
  const auto b = Pv("Vol_1", {{kBetaZone, "us-west1-b"}});
  const auto a_and_zone = Pv("Vol_1", {{kBetaZone, "us-west1-a"}, {kZone, "zone"}});
  auto change = [](const api::v1::PersistentVolume* o, const api::v1::PersistentVolume& n) {
    framework::EventObjects e;
    e.SetOld(o);
    e.SetNew(&n);
    return e;
  };
  CHECK(Hint(r, pod, change(nullptr, b)) == QueueingHint::kQueue);          // new-pv-was-added
  CHECK(Hint(r, pod, change(&a, b)) == QueueingHint::kQueue);               // pv-was-updated-and-changed-topology
  CHECK(Hint(r, pod, change(&a, a_and_zone)) == QueueingHint::kQueue);      // pv-was-updated-and-added-topology-label
  CHECK(Hint(r, pod, change(&a_and_zone, a_and_zone)) == QueueingHint::kSkip);  // pv-was-updated-but-no-topology-is-changed
}

// --- schedkit-specific ---

TEST_CASE("VolumeZone lookups and labels", "[volumezone]") {
  testing::FakeStorageClient client;
  client.Add(Pvc("bound-nowhere", "missing-pv"));
  client.Add(Pv("spaces", {{kZone, " a __ b "}}));
  client.Add(Pv("empty-zone", {{kZone, "a____b"}}));
  client.Add(Pvc("spaces", "spaces"));
  client.Add(Pvc("empty-zone", "empty-zone"));
  RunTable(client,
           {
               {"claim missing", PodWithVolume("p", "nope"), {{kZone, "a"}},
                Status::WithText(Code::kUnschedulableAndUnresolvable, "persistentvolumeclaim \"nope\" not found"),
                Status::WithText(Code::kUnschedulableAndUnresolvable, "persistentvolumeclaim \"nope\" not found")},
               {"volume missing", PodWithVolume("p", "bound-nowhere"), {{kZone, "a"}},
                Status::WithText(Code::kUnschedulableAndUnresolvable, "persistentvolume \"missing-pv\" not found"),
                Status::WithText(Code::kUnschedulableAndUnresolvable, "persistentvolume \"missing-pv\" not found")},
               // Zones are trimmed; a label with an empty zone is ignored.
               {"trimmed zones", PodWithVolume("p", "spaces"), {{kZone, "b"}}, Status(), Status()},
               {"empty zone ignored", PodWithVolume("p", "empty-zone"), {{kZone, "c"}}, Status::Skip(), Status()},
           });
  const auto topologies = VolumeTopologies(Pv("x", {{kBetaZone, "a"}, {kRegion, "r"}}));
  REQUIRE(topologies.size() == 2);
  CHECK(topologies[0].key.str() == kBetaZone);
  CHECK(topologies[0].ga_key.str() == kZone);
  CHECK(topologies[1].key.str() == kRegion);
}

}  // namespace
}  // namespace schedkit::plugins
