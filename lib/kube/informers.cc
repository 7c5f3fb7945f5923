#include "kube/informers.h"

#include <functional>
#include <utility>

#include "kube/decode_object.h"
#include "kube/log.h"
#include "schedkit/api/status_macros.h"
#include "schedkit/api/str_cat.h"

namespace schedkit::kube::internal {
namespace {

using nlohmann::json;
namespace v1 = api::v1;

std::string MetaField(const json& object, const char* field) {
  const auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return "";
  return meta->value(field, "");
}

// A delete of something the scheduler never held is no news.
absl::Status IgnoreNotFound(absl::Status s) { return absl::IsNotFound(s) ? absl::OkStatus() : s; }

// Add-or-replace and delete for a kind the Scheduler keys by namespace and
// name, whose Add replaces.
template <typename T>
std::pair<std::function<absl::Status(const json&)>, std::function<absl::Status(const json&)>> Namespaced(
    absl::Status (*validate)(const T&), absl::Status (scheduler::Scheduler::*add)(std::shared_ptr<const T>),
    absl::Status (scheduler::Scheduler::*remove)(std::string_view, std::string_view),
    scheduler::Scheduler& s) {
  return {[&s, validate, add](const json& o) -> absl::Status {
            SCHEDKIT_ASSIGN_OR_RETURN(auto object, DecodeObject<T>(o, validate));
            return (s.*add)(std::move(object));
          },
          [&s, remove](const json& o) {
            return IgnoreNotFound((s.*remove)(MetaField(o, "namespace"), MetaField(o, "name")));
          }};
}

// The same for a kind without a namespace.
template <typename T>
std::pair<std::function<absl::Status(const json&)>, std::function<absl::Status(const json&)>> ClusterScoped(
    absl::Status (*validate)(const T&), absl::Status (scheduler::Scheduler::*add)(std::shared_ptr<const T>),
    absl::Status (scheduler::Scheduler::*remove)(std::string_view), scheduler::Scheduler& s) {
  return {[&s, validate, add](const json& o) -> absl::Status {
            SCHEDKIT_ASSIGN_OR_RETURN(auto object, DecodeObject<T>(o, validate));
            return (s.*add)(std::move(object));
          },
          [&s, remove](const json& o) { return IgnoreNotFound((s.*remove)(MetaField(o, "name"))); }};
}

}  // namespace

// One kind's events into the scheduler; an object that does not decode is
// logged and counted, never fatal.
class SchedulerInformers::KindHandler : public ReflectorHandler {
 public:
  using Apply = std::function<absl::Status(const json&)>;
  KindHandler(std::string kind, Apply put, Apply remove, std::atomic<int64_t>& rejected)
      : kind_(std::move(kind)), put_(std::move(put)), remove_(std::move(remove)), rejected_(rejected) {}

  void OnAdd(const json& object) override { Report(object, put_(object)); }
  void OnUpdate(const json& /*old_object*/, const json& object) override { Report(object, put_(object)); }
  void OnDelete(const json& object) override { Report(object, remove_(object)); }

 private:
  void Report(const json& object, const absl::Status& s) {
    if (s.ok()) return;
    ++rejected_;
    const std::string ns = MetaField(object, "namespace");
    const std::string key = ns.empty() ? MetaField(object, "name") : ns + "/" + MetaField(object, "name");
    Log(Severity::kWarning, "informers", schedkit::StrCat(kind_, " ", key, ": ", s.message()));
  }

  const std::string kind_;
  const Apply put_, remove_;
  std::atomic<int64_t>& rejected_;
};

SchedulerInformers::SchedulerInformers(const ApiClient& client, scheduler::Scheduler& s,
                                       std::set<std::string> profiles, ReflectorOptions options)
    : client_(client) {
  auto add = [&](std::string kind, std::string path, std::string field_selector,
                 std::pair<KindHandler::Apply, KindHandler::Apply> apply) {
    handlers_.push_back(std::make_unique<KindHandler>(std::move(kind), std::move(apply.first),
                                                      std::move(apply.second), rejected_));
    reflectors_.push_back(std::make_unique<Reflector>(
        client_, ResourceSpec{std::move(path), std::move(field_selector)}, *handlers_.back(), options));
  };

  // Pods: assigned ones for the cache, unassigned ones this scheduler is
  // responsible for; finished pods leave through the field selector.
  auto pod_put = [&s, profiles = std::move(profiles)](const json& o) -> absl::Status {
    SCHEDKIT_ASSIGN_OR_RETURN(auto pod, DecodeObject<v1::Pod>(o, api::internal::ValidatePod));
    if (pod->spec().node_name().empty() && !profiles.contains(pod->spec().scheduler_name())) {
      return absl::OkStatus();
    }
    absl::Status updated = s.UpdatePod(pod);
    if (absl::IsNotFound(updated)) return s.AddPod(std::move(pod));
    return updated;
  };
  auto pod_remove = [&s](const json& o) {
    return IgnoreNotFound(s.DeletePod(MetaField(o, "namespace"), MetaField(o, "name")));
  };
  add("Pod", "/api/v1/pods", "status.phase!=Succeeded,status.phase!=Failed", {pod_put, pod_remove});

  // Nodes: UpdateNode adds one it does not know.
  add("Node", "/api/v1/nodes", "",
      {[&s](const json& o) -> absl::Status {
         SCHEDKIT_ASSIGN_OR_RETURN(auto node, DecodeObject<v1::Node>(o, api::internal::ValidateNode));
         return s.UpdateNode(std::move(node));
       },
       [&s](const json& o) { return IgnoreNotFound(s.DeleteNode(MetaField(o, "name"))); }});
  // Namespaces: only their labels matter (namespace selectors); the
  // scheduler keeps a deleted namespace's labels, which no pod can use.
  add("Namespace", "/api/v1/namespaces", "",
      {[&s](const json& o) -> absl::Status {
         SCHEDKIT_ASSIGN_OR_RETURN(auto ns, DecodeObject<v1::Namespace>(o, api::internal::ValidateNamespace));
         s.SetNamespace(*ns);
         return absl::OkStatus();
       },
       [](const json&) { return absl::OkStatus(); }});

  using S = scheduler::Scheduler;
  namespace in = api::internal;
  add("PodDisruptionBudget", "/apis/policy/v1/poddisruptionbudgets", "",
      Namespaced<v1::PodDisruptionBudget>(in::ValidatePodDisruptionBudget, &S::AddPodDisruptionBudget,
                                          &S::DeletePodDisruptionBudget, s));
  add("Service", "/api/v1/services", "",
      Namespaced<v1::Service>(in::ValidateService, &S::AddService, &S::DeleteService, s));
  add("ReplicationController", "/api/v1/replicationcontrollers", "",
      Namespaced<v1::ReplicationController>(in::ValidateReplicationController, &S::AddReplicationController,
                                            &S::DeleteReplicationController, s));
  add("ReplicaSet", "/apis/apps/v1/replicasets", "",
      Namespaced<v1::ReplicaSet>(in::ValidateReplicaSet, &S::AddReplicaSet, &S::DeleteReplicaSet, s));
  add("StatefulSet", "/apis/apps/v1/statefulsets", "",
      Namespaced<v1::StatefulSet>(in::ValidateStatefulSet, &S::AddStatefulSet, &S::DeleteStatefulSet, s));
  add("PersistentVolume", "/api/v1/persistentvolumes", "",
      ClusterScoped<v1::PersistentVolume>(in::ValidatePersistentVolume, &S::AddPersistentVolume,
                                          &S::DeletePersistentVolume, s));
  add("PersistentVolumeClaim", "/api/v1/persistentvolumeclaims", "",
      Namespaced<v1::PersistentVolumeClaim>(in::ValidatePersistentVolumeClaim, &S::AddPersistentVolumeClaim,
                                            &S::DeletePersistentVolumeClaim, s));
  add("StorageClass", "/apis/storage.k8s.io/v1/storageclasses", "",
      ClusterScoped<v1::StorageClass>(in::ValidateStorageClass, &S::AddStorageClass, &S::DeleteStorageClass,
                                      s));
  add("CSINode", "/apis/storage.k8s.io/v1/csinodes", "",
      ClusterScoped<v1::CSINode>(in::ValidateCSINode, &S::AddCSINode, &S::DeleteCSINode, s));
  add("CSIDriver", "/apis/storage.k8s.io/v1/csidrivers", "",
      ClusterScoped<v1::CSIDriver>(in::ValidateCSIDriver, &S::AddCSIDriver, &S::DeleteCSIDriver, s));
  add("CSIStorageCapacity", "/apis/storage.k8s.io/v1/csistoragecapacities", "",
      Namespaced<v1::CSIStorageCapacity>(in::ValidateCSIStorageCapacity, &S::AddCSIStorageCapacity,
                                         &S::DeleteCSIStorageCapacity, s));
  add("VolumeAttachment", "/apis/storage.k8s.io/v1/volumeattachments", "",
      ClusterScoped<v1::VolumeAttachment>(in::ValidateVolumeAttachment, &S::AddVolumeAttachment,
                                          &S::DeleteVolumeAttachment, s));
}

SchedulerInformers::~SchedulerInformers() { Stop(); }

void SchedulerInformers::Start() {
  for (auto& reflector : reflectors_) {
    Reflector* r = reflector.get();
    threads_.emplace_back([this, r] { r->Run(stop_); });
  }
}

bool SchedulerInformers::WaitForCacheSync(absl::Duration timeout) const {
  const absl::Time deadline = absl::Now() + timeout;
  for (;;) {
    bool all = true;
    for (const auto& r : reflectors_) all = all && r->HasSynced();
    if (all) return true;
    if (absl::Now() >= deadline) return false;
    absl::SleepFor(absl::Milliseconds(50));
  }
}

void SchedulerInformers::Stop() {
  stop_ = true;
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

}  // namespace schedkit::kube::internal
