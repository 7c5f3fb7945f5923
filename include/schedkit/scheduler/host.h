// The host interface: how a program embeds the scheduler. The host supplies
// cluster state (a ClusterLister for the initial state, then events through
// Scheduler::AddPod/UpdateNode/...) and implements Host to receive decisions.
//
//   class MyHost : public schedkit::scheduler::Host {
//     absl::Status Bind(const api::v1::Pod& pod, std::string_view node) override {
//       return client.Bind(pod.metadata().namespace_(), pod.metadata().name(), node);
//     }
//   };
//
// Every callback may run on a binding thread, concurrently with the
// scheduling thread and other binding threads. A callback that returns an
// error or throws is contained: the pod is unreserved, forgotten and retried
// with backoff; the scheduler itself keeps running.
#ifndef SCHEDKIT_SCHEDULER_HOST_H_
#define SCHEDKIT_SCHEDULER_HOST_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "schedkit/api/lister.h"
#include "google/protobuf/message.h"
#include "schedkit/api/kind.h"
#include "schedkit/api/object_set.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::scheduler {

// What upstream writes to a pod's status when an attempt fails.
struct SchedulingFailure {
  // The profile that tried.
  std::string_view scheduler_name;
  // The PodScheduled condition's reason: "Unschedulable" when plugins
  // rejected the pod, "SchedulerError" when something failed.
  std::string_view reason;
  // The condition's message: the FitError or error text, whole.
  std::string_view message;
  // The plugins that rejected the pod, sorted (empty on an error).
  const std::vector<std::string>& unschedulable_plugins;
  // When set, status.nominatedNodeName becomes this ("" clears it):
  // preemption's nomination, or its "not helpful". Unset leaves it as is.
  std::optional<std::string_view> nominated_node;
};

// One event about a pod, as events.k8s.io/v1 holds it.
struct PodEvent {
  // The pod as the host last delivered it (a Scheduled pod's spec.nodeName is
  // not set yet: the node is in the note); an event reads only its metadata.
  const api::v1::Pod& regarding;
  // The other pod involved (the preemptor of a Preempted victim), or null.
  const api::v1::Pod* related;
  // The profile's schedulerName (upstream's reportingController).
  std::string_view reporting_controller;
  std::string_view type;    // "Normal" or "Warning"
  std::string_view reason;  // "Scheduled", "FailedScheduling", "Preempted", ...
  std::string_view action;  // "Binding", "Scheduling", "Preempting", ...
  // At most 1024 bytes (upstream's NoteLengthLimit; longer text is cut to
  // 1020 bytes and " ...").
  std::string_view note;
};

class Host {
 public:
  virtual ~Host() = default;

  // Binds `pod` to `node` (upstream: the pods/binding subresource). OK means
  // the pod now runs there; the scheduler treats it as bound. `pod` is the
  // object as the host delivered it, spec.nodeName unset: like upstream's
  // Binding request, the call names the pod and its target apart.
  virtual absl::Status Bind(const api::v1::Pod& pod, std::string_view node) = 0;

  // After a successful bind; `pod` as in Bind.
  virtual void OnScheduled(const api::v1::Pod& pod, std::string_view node) {
    (void)pod;
    (void)node;
  }
  // An attempt failed and the pod stays pending (it is retried): what
  // upstream writes to its status (condition PodScheduled=False and, when
  // preemption decided it, status.nominatedNodeName). Not called when the
  // pod was deleted, re-created or bound meanwhile.
  virtual void OnFailedScheduling(const api::v1::Pod& pod, const SchedulingFailure& failure) {
    (void)pod;
    (void)failure;
  }
  // Preemption chose `victim` to make room for `preemptor` on `node`; the
  // host deletes it (and later reports DeletePod). NotFound means it is gone
  // already (no Preempted event follows). Default: refuse.
  virtual absl::Status Evict(const api::v1::Pod& victim, const api::v1::Pod& preemptor, std::string_view node) {
    (void)victim;
    (void)preemptor;
    (void)node;
    return absl::UnimplementedError("this host does not evict pods");
  }
  // status.nominatedNodeName of `pod` is to change outside a failure: set
  // before a binding cycle whose PreBind has work or whose Permit waits
  // (upstream's NominatedNodeNameForExpectation), cleared ("" `node`) for
  // lower-priority pods nominated where a preemptor goes.
  virtual void OnNominatedNodeChanged(const api::v1::Pod& pod, std::string_view node) {
    (void)pod;
    (void)node;
  }
  // Every event upstream's scheduler records: Scheduled, FailedScheduling,
  // Preempted and any a plugin records. From the scheduling thread, binding
  // threads and plugins' threads: must be thread-safe and should not block
  // on the network (queue the event, send it later).
  virtual void OnEvent(const PodEvent& event) { (void)event; }

  // Object writes from plugins (ClusterClient::UpdateObject), as upstream's
  // plugins PUT objects: VolumeBinding's PreBind writes a PersistentVolume
  // with spec.claimRef set to the claim it is to be bound to (static
  // binding), or a PersistentVolumeClaim with the annotation
  // volume.kubernetes.io/selected-node naming the node to provision on.
  // `object` is of `kind`. Return the object as stored (of `kind`). The
  // scheduler then waits, up to VolumeBindingArgs.bindTimeoutSeconds, until
  // the host reports (through Scheduler::Upsert) each claim bound, with
  // pv.kubernetes.io/bind-completed, to a volume whose node affinity admits
  // the node: a PV controller does that in a cluster. The scheduler changed
  // only spec.claimRef and annotations, so a host may send just those (a
  // merge patch). An error fails the pod's binding cycle (it is retried);
  // the default refuses. Called on a binding thread.
  virtual absl::StatusOr<api::AnyObject> UpdateObject(const api::Kind& kind, const google::protobuf::Message& object) {
    (void)object;
    return absl::UnimplementedError(schedkit::StrCat("this host does not update ", kind.kind(), " objects"));
  }
  // Status writes from plugins (ClusterClient::UpdateObjectStatus), as
  // upstream's plugins PUT a status subresource: DynamicResources writes a
  // ResourceClaim's status.allocation and status.reservedFor in PreBind (its
  // finalizer comes first, through UpdateObject), and clears them when it
  // deallocates (PostFilter) or unreserves. Conditional on the object's
  // resourceVersion when set: return Aborted when the stored object is
  // newer (the plugin reads it again and retries), NotFound when it is
  // gone. Return the object as stored; then report it as any change (the
  // plugin keeps the stored copy meanwhile). Called on a binding thread, and
  // on the scheduling thread from PostFilter; the default refuses.
  virtual absl::StatusOr<api::AnyObject> UpdateObjectStatus(const api::Kind& kind,
                                                            const google::protobuf::Message& object) {
    (void)object;
    return absl::UnimplementedError(schedkit::StrCat("this host does not update the status of ", kind.kind(), " objects"));
  }
  // Object creation from plugins (ClusterClient::CreateObject), as upstream's
  // plugins POST objects: DynamicResources' PreBind creates the ResourceClaim
  // for a pod's extended resources backed by DRA (metadata.generateName set,
  // name empty: give it a name as the API server does), and the pod's
  // status.extendedResourceClaimStatus then names it (UpdateObjectStatus of
  // the Pod: a host may send just that field). Return the object as stored
  // (name, uid and resourceVersion set); AlreadyExists when the name is
  // taken. Report it later as any change. Called on a binding thread; the
  // default refuses.
  virtual absl::StatusOr<api::AnyObject> CreateObject(const api::Kind& kind, const google::protobuf::Message& object) {
    (void)object;
    return absl::UnimplementedError(schedkit::StrCat("this host does not create ", kind.kind(), " objects"));
  }
  // Object deletion from plugins (ClusterClient::DeleteObject): DynamicResources
  // deletes an extended-resource claim that a failed binding left (its
  // finalizer removed first, through UpdateObject). NotFound when it is
  // gone. Called on a binding thread, and on the scheduling thread from
  // PostFilter; the default refuses.
  virtual absl::Status DeleteObject(const api::Kind& kind, std::string_view namespace_name, std::string_view name) {
    (void)namespace_name;
    (void)name;
    return absl::UnimplementedError(schedkit::StrCat("this host does not delete ", kind.kind(), " objects"));
  }
};

// Where binding cycles run. The default runs them on a small thread pool;
// tests use an executor that runs tasks inline or on demand.
class Executor {
 public:
  virtual ~Executor() = default;
  virtual void Submit(std::function<void()> task) = 0;
};

// Runs each task immediately on the submitting thread: deterministic, for
// tests and single-threaded hosts (binding then blocks the scheduling loop).
class InlineExecutor : public Executor {
 public:
  void Submit(std::function<void()> task) override { task(); }
};

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_SCHEDULER_HOST_H_
