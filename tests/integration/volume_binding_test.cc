// VolumeBinding's WaitForFirstConsumer path through a real Scheduler: claims
// bound to existing volumes or provisioned on the chosen node, with the
// host's PV/PVC writes, a PV controller in the host, its failures and the
// bind timeout. The invariant throughout: no volume is given to two claims,
// and a pod whose binding failed loses nothing it assumed.
#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "schedkit/api/v1/kinds.h"
#include "schedkit/api/lister.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/config/configuration.h"
#include "schedkit/framework/clock.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/scheduler/scheduler.h"
#include "schedkit/testing/builders.h"

namespace schedkit::scheduler {
namespace {

using testing::MakeNode;
using testing::MakePod;

// How the host's PV controller answers the scheduler's writes.
enum class Controller { kBinds, kRefuses, kSilent };

// Records binds and volume writes; as its PV controller, binds a claim to
// the volume the scheduler wrote for it and provisions "pvc-<claim>" for a
// claim given a selected node, reporting every write to the scheduler.
class VolumeHost : public Host {
 public:
  Scheduler* sched = nullptr;
  Controller controller = Controller::kBinds;

  absl::Status Bind(const api::v1::Pod& pod, std::string_view node) override {
    std::lock_guard<std::mutex> lock(mu_);
    bound_[pod.metadata().name()] = std::string(node);
    return absl::OkStatus();
  }

  absl::StatusOr<api::AnyObject> UpdateObject(const api::Kind& kind, const google::protobuf::Message& object) override {
    if (&kind == &api::KindOf<api::v1::PersistentVolume>()) {
      return Written(UpdatePersistentVolume(static_cast<const api::v1::PersistentVolume&>(object)));
    }
    return Written(UpdatePersistentVolumeClaim(static_cast<const api::v1::PersistentVolumeClaim&>(object)));
  }

  absl::StatusOr<api::v1::PersistentVolume> UpdatePersistentVolume(const api::v1::PersistentVolume& pv) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      ++pv_writes_;
    }
    if (controller == Controller::kRefuses) return absl::UnavailableError("apiserver is down");
    auto stored = std::make_shared<const api::v1::PersistentVolume>(pv);
    REQUIRE(sched->Upsert(stored).ok());
    if (controller == Controller::kBinds) {
      BindClaim(pv.spec().claim_ref().namespace_(), pv.spec().claim_ref().name(), pv.metadata().name());
    }
    return pv;
  }

  absl::StatusOr<api::v1::PersistentVolumeClaim> UpdatePersistentVolumeClaim(
      const api::v1::PersistentVolumeClaim& claim) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      ++claim_writes_;
      claims_[claim.metadata().name()] = claim;
    }
    if (controller == Controller::kRefuses) return absl::UnavailableError("apiserver is down");
    REQUIRE(sched->Upsert(std::make_shared<const api::v1::PersistentVolumeClaim>(claim)).ok());
    if (controller == Controller::kBinds) {
      const std::string node = claim.metadata().annotations().at("volume.kubernetes.io/selected-node");
      api::v1::PersistentVolume pv;
      pv.mutable_metadata()->set_name(schedkit::StrCat("pvc-", claim.metadata().name()));
      pv.mutable_spec()->set_storage_class_name(claim.spec().storage_class_name());
      auto* ref = pv.mutable_spec()->mutable_claim_ref();
      ref->set_namespace_(claim.metadata().namespace_());
      ref->set_name(claim.metadata().name());
      ref->set_uid(claim.metadata().uid());
      auto* term = pv.mutable_spec()->mutable_node_affinity()->mutable_required()->add_node_selector_terms();
      auto* r = term->add_match_expressions();
      r->set_key("kubernetes.io/hostname");
      r->set_operator_("In");
      r->add_values(node);
      REQUIRE(sched->Upsert(std::make_shared<const api::v1::PersistentVolume>(pv)).ok());
      BindClaim(claim.metadata().namespace_(), claim.metadata().name(), pv.metadata().name());
    }
    return claim;
  }

  std::map<std::string, std::string> bound() const {
    std::lock_guard<std::mutex> lock(mu_);
    return bound_;
  }
  int pv_writes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return pv_writes_;
  }
  int claim_writes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return claim_writes_;
  }
  void OnFailedScheduling(const api::v1::Pod& pod, const scheduler::SchedulingFailure& failure) override {
    std::lock_guard<std::mutex> lock(mu_);
    failures_[pod.metadata().name()] = std::string(failure.message);
  }
  std::string failure(const std::string& pod) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = failures_.find(pod);
    return it == failures_.end() ? "" : it->second;
  }

 private:
  template <typename T>
  static absl::StatusOr<api::AnyObject> Written(absl::StatusOr<T> stored) {
    if (!stored.ok()) return stored.status();
    return api::AnyObject(std::make_shared<const T>(*std::move(stored)));
  }

  void BindClaim(const std::string& ns, const std::string& name, const std::string& volume) {
    auto claim = sched->objects().Get<api::v1::PersistentVolumeClaim>(ns, name);
    REQUIRE(claim != nullptr);
    auto bound = std::make_shared<api::v1::PersistentVolumeClaim>(*claim);
    bound->mutable_spec()->set_volume_name(volume);
    (*bound->mutable_metadata()->mutable_annotations())["pv.kubernetes.io/bind-completed"] = "yes";
    REQUIRE(sched->Upsert(bound).ok());
  }

  mutable std::mutex mu_;
  std::map<std::string, std::string> bound_;
  std::map<std::string, std::string> failures_;
  std::map<std::string, api::v1::PersistentVolumeClaim> claims_;
  int pv_writes_ = 0;
  int claim_writes_ = 0;
};

api::v1::StorageClass Class(const std::string& name, const std::string& provisioner) {
  api::v1::StorageClass sc;
  sc.mutable_metadata()->set_name(name);
  sc.set_provisioner(provisioner);
  sc.set_volume_binding_mode("WaitForFirstConsumer");
  return sc;
}

api::v1::PersistentVolumeClaim Claim(const std::string& name, const std::string& class_name,
                                     const std::string& size) {
  api::v1::PersistentVolumeClaim c;
  c.mutable_metadata()->set_name(name);
  c.mutable_metadata()->set_namespace_("default");
  c.mutable_metadata()->set_uid("uid-" + name);
  c.mutable_spec()->add_access_modes("ReadWriteOnce");
  c.mutable_spec()->set_storage_class_name(class_name);
  (*c.mutable_spec()->mutable_resources()->mutable_requests())["storage"] = size;
  return c;
}

api::v1::PersistentVolume LocalVolume(const std::string& name, const std::string& node, const std::string& size) {
  api::v1::PersistentVolume pv;
  pv.mutable_metadata()->set_name(name);
  pv.mutable_spec()->set_storage_class_name("local");
  pv.mutable_spec()->add_access_modes("ReadWriteOnce");
  (*pv.mutable_spec()->mutable_capacity())["storage"] = size;
  auto* term = pv.mutable_spec()->mutable_node_affinity()->mutable_required()->add_node_selector_terms();
  auto* r = term->add_match_expressions();
  r->set_key("kubernetes.io/hostname");
  r->set_operator_("In");
  r->add_values(node);
  pv.mutable_status()->set_phase("Available");
  return pv;
}

struct VolumeEnv {
  framework::FakeClock clock;
  InlineExecutor executor;
  api::ObjectSet cluster;
  VolumeHost host;
  std::unique_ptr<Scheduler> sched;

  VolumeEnv() {
    for (const std::string n : {"n1", "n2", "n3"}) {
      cluster.Add(MakeNode()
                                 .Name(n)
                                 .Label("kubernetes.io/hostname", n)
                                 .Capacity({{"cpu", "4"}, {"memory", "8Gi"}, {"pods", "110"}})
                                 .Obj());
    }
    cluster.Add(Class("local", "kubernetes.io/no-provisioner"));
    cluster.Add(Class("csi", "csi.example.com"));
  }

  void Start(int bind_timeout_seconds = 600) {
    auto cfg = config::ParseConfiguration(schedkit::StrCat(R"({
      "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
      "profiles": [{"schedulerName": "default-scheduler",
        "pluginConfig": [{"name": "VolumeBinding", "args": {"bindTimeoutSeconds": )",
                                                           bind_timeout_seconds, "}}]}]}"));
    REQUIRE(cfg.ok());
    SchedulerOptions o;
    o.clock = &clock;
    o.executor = &executor;
    o.seed = 7;
    api::StaticClusterLister lister(cluster);
    auto s = Scheduler::Create(*cfg, plugins::NewInTreeRegistry(), host, lister, o);
    INFO(s.status().ToString());
    REQUIRE(s.ok());
    sched = *std::move(s);
    host.sched = sched.get();
  }
};

TEST_CASE("WaitForFirstConsumer claims bind to a fitting local volume, once, the roomiest first",
          "[integration][storage]") {
  VolumeEnv env;
  env.cluster.Add(LocalVolume("pv-n2-big", "n2", "100Gi"));
  env.cluster.Add(LocalVolume("pv-n3-small", "n3", "20Gi"));
  for (const std::string name : {"a", "b", "c"}) {
    env.cluster.Add(Claim("data-" + name, "local", "10Gi"));
    env.cluster.Add(MakePod().Name(name).PVC("data-" + name).Obj());
  }
  env.Start();
  env.sched->RunUntilIdle();
  // Two volumes for three claims. VolumeBinding scores capacity (v1.37's
  // default shape favours low utilization): the first pod takes n2's 100Gi
  // volume (10% used) over n3's 20Gi (50%), the second the other, the third
  // finds none.
  CHECK(env.host.bound() == std::map<std::string, std::string>{{"a", "n2"}, {"b", "n3"}});
  CHECK(env.host.pv_writes() == 2);
  CHECK_THAT(env.host.failure("c"),
             Catch::StartsWith("0/3 nodes are available: 3 node(s) didn't find available persistent volumes to bind."));
  auto a = env.sched->objects().Get<api::v1::PersistentVolumeClaim>("default", "data-a");
  CHECK(a->spec().volume_name() == "pv-n2-big");
}

TEST_CASE("WaitForFirstConsumer claims are provisioned on the chosen node", "[integration][storage]") {
  VolumeEnv env;
  env.cluster.Add(Claim("data", "csi", "10Gi"));
  env.cluster.Add(MakePod().Name("db").PVC("data").Obj());
  env.Start();
  env.sched->RunUntilIdle();
  REQUIRE(env.host.bound().size() == 1);
  const std::string node = env.host.bound().at("db");
  auto claim = env.sched->objects().Get<api::v1::PersistentVolumeClaim>("default", "data");
  CHECK(claim->metadata().annotations().at("volume.kubernetes.io/selected-node") == node);
  CHECK(claim->spec().volume_name() == "pvc-data");
  CHECK(env.host.claim_writes() == 1);
}

TEST_CASE("a failed volume write gives back what the pod assumed", "[integration][storage]") {
  VolumeEnv env;
  env.cluster.Add(LocalVolume("pv-n1", "n1", "10Gi"));
  env.cluster.Add(Claim("data-a", "local", "10Gi"));
  env.cluster.Add(MakePod().Name("a").PVC("data-a").Obj());
  env.Start();
  env.host.controller = Controller::kRefuses;
  env.sched->RunUntilIdle();
  CHECK(env.host.bound().empty());
  CHECK_THAT(env.host.failure("a"), Catch::Contains("apiserver is down"));

  // The volume was not lost: another pod's claim can have it...
  REQUIRE(env.sched->Upsert(
                       std::make_shared<const api::v1::PersistentVolumeClaim>(Claim("data-b", "local", "5Gi")))
              .ok());
  env.host.controller = Controller::kBinds;
  REQUIRE(env.sched->AddPod(std::make_shared<const api::v1::Pod>(MakePod().Name("b").PVC("data-b").Obj())).ok());
  env.sched->RunUntilIdle();
  CHECK(env.host.bound() == std::map<std::string, std::string>{{"b", "n1"}});
  // ...and then a's retry finds none left.
  env.clock.Advance(absl::Seconds(20));
  env.sched->RunUntilIdle();
  CHECK(env.host.bound().size() == 1);
  CHECK_THAT(env.host.failure("a"), Catch::Contains("didn't find available persistent volumes to bind"));
}

TEST_CASE("a PV controller that never binds times the pod out", "[integration][storage]") {
  VolumeEnv env;
  env.cluster.Add(LocalVolume("pv-n1", "n1", "10Gi"));
  env.cluster.Add(Claim("data-a", "local", "10Gi"));
  env.cluster.Add(MakePod().Name("a").PVC("data-a").Obj());
  env.Start(/*bind_timeout_seconds=*/1);
  env.host.controller = Controller::kSilent;
  const absl::Time start = absl::Now();
  env.sched->RunUntilIdle();
  CHECK(absl::Now() - start >= absl::Seconds(1));
  CHECK(absl::Now() - start < absl::Seconds(30));
  CHECK(env.host.bound().empty());
  CHECK_THAT(env.host.failure("a"), Catch::Contains("binding volumes: context deadline exceeded"));
}

}  // namespace
}  // namespace schedkit::scheduler
