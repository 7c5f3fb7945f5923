// NoopClusterClient: a ClusterClient whose binds, evictions and nomination
// writes all succeed and change nothing, and which updates no object; the
// base of test and benchmark clients (override the writes they need).
//
//   class RecordingClient : public testing::NoopClusterClient { ... };
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
};

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTING_NOOP_CLUSTER_CLIENT_H_
