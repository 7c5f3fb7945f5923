// Internal: the Scheduler's Host over the Kubernetes API, making upstream's
// writes: the Binding (with the pod's UID, as DefaultBinder, so a pod
// deleted and re-created under the same name is never bound by mistake),
// the PodScheduled=False status patch with nominatedNodeName, preemption's
// DisruptionTarget condition and DELETE, the volume writes of VolumeBinding
// (as merge patches of the fields it sets), and the events (through an
// EventSink). Status patches retry as upstream's retry.OnError with its
// DefaultBackoff (4 tries, 10 ms growing by 5) on server errors, conflicts
// and broken connections.
#ifndef SCHEDKIT_LIB_KUBE_API_HOST_H_
#define SCHEDKIT_LIB_KUBE_API_HOST_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

#include "kube/event_sink.h"
#include "schedkit/kube/api_client.h"
#include "schedkit/scheduler/host.h"

namespace schedkit::kube::internal {

class ApiHost : public scheduler::Host {
 public:
  // `events` may be null (no events written). Both must outlive this.
  ApiHost(const ApiClient& client, EventSink* events) : client_(client), events_(events) {}

  // Every method runs on the scheduler's threads (scheduling or binding)
  // and blocks on the API; OnEvent only queues.
  //
  // OK on 201; the API's error otherwise (409 when the pod is bound already
  // or its UID changed, 404 when it is gone), which the scheduler answers
  // by forgetting the assumed pod and retrying.
  absl::Status Bind(const api::v1::Pod& pod, std::string_view node) override;
  // PATCH pods/{name}/status unless nothing changes; errors are logged.
  void OnFailedScheduling(const api::v1::Pod& pod, const scheduler::SchedulingFailure& failure) override;
  void OnNominatedNodeChanged(const api::v1::Pod& pod, std::string_view node) override;
  // The DisruptionTarget condition, then DELETE with the victim's UID as a
  // precondition (a namesake created since is left alone). NotFound when
  // the victim is gone (or was re-created); other API errors as they come.
  absl::Status Evict(const api::v1::Pod& victim, const api::v1::Pod& preemptor,
                     std::string_view node) override;
  void OnEvent(const scheduler::PodEvent& event) override;
  // A merge patch of the object's annotations (and a PersistentVolume's
  // claimRef, a ResourceClaim's finalizers), conditional on its
  // resourceVersion; the stored object back.
  absl::StatusOr<api::AnyObject> UpdateObject(const api::Kind& kind,
                                              const google::protobuf::Message& object) override;
  // A POST of the object (DynamicResources' claim for a pod's extended
  // resources); the stored object back. A DELETE of one.
  absl::StatusOr<api::AnyObject> CreateObject(const api::Kind& kind, const google::protobuf::Message& object) override;
  absl::Status DeleteObject(const api::Kind& kind, std::string_view namespace_name, std::string_view name) override;
  // ResourceClaims' status (DynamicResources): a merge patch of
  // status.allocation, reservedFor and devices, conditional on the
  // resourceVersion; a 409 is Aborted, so the plugin retries. A pod's
  // status.extendedResourceClaimStatus: a patch of that field.
  absl::StatusOr<api::AnyObject> UpdateObjectStatus(const api::Kind& kind,
                                                    const google::protobuf::Message& object) override;

  // Requests made, by kind (for tests and metrics).
  int64_t binds() const { return binds_.load(); }
  int64_t status_patches() const { return status_patches_.load(); }
  int64_t deletes() const { return deletes_.load(); }

 private:
  absl::Status PatchStatus(const api::v1::Pod& pod, const std::string& body);

  const ApiClient& client_;
  EventSink* const events_;
  std::atomic<int64_t> binds_{0};
  std::atomic<int64_t> status_patches_{0};
  std::atomic<int64_t> deletes_{0};
};

}  // namespace schedkit::kube::internal

#endif  // SCHEDKIT_LIB_KUBE_API_HOST_H_
