// NoopClusterClient: a ClusterClient whose writes all succeed and change
// nothing, and which holds no PodDisruptionBudgets; the base of test and
// benchmark clients that hold some objects (override the reads they need).
//
//   class WorkloadClient : public testing::NoopClusterClient { ... };
#ifndef SCHEDKIT_TESTING_NOOP_CLUSTER_CLIENT_H_
#define SCHEDKIT_TESTING_NOOP_CLUSTER_CLIENT_H_

#include <memory>
#include <vector>

#include "schedkit/framework/handle.h"

namespace schedkit::testing {

class NoopClusterClient : public framework::ClusterClient {
 public:
  absl::Status Bind(const framework::PodInfo&, Symbol) override { return absl::OkStatus(); }
  absl::Status Evict(const framework::PodInfo&, const framework::PodInfo&, Symbol) override {
    return absl::OkStatus();
  }
  absl::Status ClearNominatedNodeName(const framework::PodInfo&) override { return absl::OkStatus(); }
  std::vector<std::shared_ptr<const api::v1::PodDisruptionBudget>> ListPodDisruptionBudgets() const override {
    return {};
  }
};

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTING_NOOP_CLUSTER_CLIENT_H_
