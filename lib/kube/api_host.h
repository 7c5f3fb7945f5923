// Internal: the Scheduler's Host over the Kubernetes API. Bind posts a
// Binding to the pod's binding subresource, carrying the pod's UID as
// upstream's DefaultBinder does, so a pod deleted and re-created under the
// same name is never bound by mistake.
#ifndef SCHEDKIT_LIB_KUBE_API_HOST_H_
#define SCHEDKIT_LIB_KUBE_API_HOST_H_

#include <string_view>

#include "schedkit/kube/api_client.h"
#include "schedkit/scheduler/host.h"

namespace schedkit::kube::internal {

class ApiHost : public scheduler::Host {
 public:
  explicit ApiHost(const ApiClient& client) : client_(client) {}

  // On a binding thread. OK on 201; the API's error otherwise (409 when the
  // pod is bound already or its UID changed, 404 when it is gone), which
  // the scheduler answers by forgetting the assumed pod and retrying.
  absl::Status Bind(const api::v1::Pod& pod, std::string_view node) override;

 private:
  const ApiClient& client_;
};

}  // namespace schedkit::kube::internal

#endif  // SCHEDKIT_LIB_KUBE_API_HOST_H_
