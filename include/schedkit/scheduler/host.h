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
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "schedkit/api/lister.h"
#include "schedkit/api/v1/cluster.pb.h"

namespace schedkit::scheduler {

class Host {
 public:
  virtual ~Host() = default;

  // Binds `pod` to `node` (upstream: the pods/binding subresource). OK means
  // the pod now runs there; the scheduler treats it as bound. `pod` is the
  // object as the host delivered it, spec.nodeName unset: like upstream's
  // Binding request, the call names the pod and its target apart.
  virtual absl::Status Bind(const api::v1::Pod& pod, std::string_view node) = 0;

  // After a successful bind ("Scheduled" event); `pod` as in Bind.
  virtual void OnScheduled(const api::v1::Pod& pod, std::string_view node) {
    (void)pod;
    (void)node;
  }
  // An attempt failed ("FailedScheduling"): upstream's message text and the
  // plugins that rejected the pod. The pod stays queued and is retried.
  virtual void OnFailedScheduling(const api::v1::Pod& pod, std::string_view message,
                                  const std::vector<std::string>& unschedulable_plugins) {
    (void)pod;
    (void)message;
    (void)unschedulable_plugins;
  }
  // Preemption chose `victim` to make room for `preemptor` on `node`; the
  // host deletes it (and later reports DeletePod). Default: refuse.
  virtual absl::Status Evict(const api::v1::Pod& victim, const api::v1::Pod& preemptor, std::string_view node) {
    (void)victim;
    (void)preemptor;
    (void)node;
    return absl::UnimplementedError("this host does not evict pods");
  }
  // status.nominatedNodeName of `pod` changed; empty `node` clears it.
  virtual void OnNominatedNodeChanged(const api::v1::Pod& pod, std::string_view node) {
    (void)pod;
    (void)node;
  }

  // VolumeBinding's PreBind writes (upstream's PUTs of PersistentVolumes
  // and claims): `pv` with spec.claimRef set to the claim it is to be bound
  // to (static binding), or `claim` with the annotation
  // volume.kubernetes.io/selected-node naming the node to provision on.
  // Return the object as stored. The scheduler then waits, up to
  // VolumeBindingArgs.bindTimeoutSeconds, until the host reports (through
  // AddPersistentVolumeClaim and AddPersistentVolume) each claim bound, with
  // pv.kubernetes.io/bind-completed, to a volume whose node affinity admits
  // the node: a PV controller does that in a cluster. The scheduler changed
  // only spec.claimRef and annotations, so a host may send just those (a
  // merge patch). An error fails the pod's binding cycle (it is retried);
  // the default refuses.
  virtual absl::StatusOr<api::v1::PersistentVolume> UpdatePersistentVolume(const api::v1::PersistentVolume& pv) {
    (void)pv;
    return absl::UnimplementedError("this host does not bind volumes");
  }
  virtual absl::StatusOr<api::v1::PersistentVolumeClaim> UpdatePersistentVolumeClaim(
      const api::v1::PersistentVolumeClaim& claim) {
    (void)claim;
    return absl::UnimplementedError("this host does not provision volumes");
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
