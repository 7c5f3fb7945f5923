// Cache: the scheduler's view of bound and assumed pods on nodes. A pod is
// assumed on its chosen node as soon as the scheduling cycle picks it (so the
// next cycle sees its resources), confirmed when the bind succeeds, and
// forgotten when binding fails. Snapshots are brought up to date
// incrementally before each cycle (only changed nodes are copied).
//
//   cache.AssumePod(assumed);          // scheduling thread, after selection
//   cache.FinishBinding(*assumed);     // binding thread, bind succeeded
//   cache.ForgetPod(*assumed);         // binding failed: undo
//
// Thread-safe: a mutex guards the state; UpdateSnapshot copies under it.
#ifndef SCHEDKIT_SCHEDULER_CACHE_H_
#define SCHEDKIT_SCHEDULER_CACHE_H_

#include <memory>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include <condition_variable>
#include <mutex>

#include "absl/base/thread_annotations.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/snapshot.h"
#include "schedkit/scheduler/self_keyed_set.h"

namespace schedkit::scheduler {

class Cache {
 public:
  Cache();

  absl::Status AddNode(std::shared_ptr<const api::v1::Node> node);
  absl::Status UpdateNode(std::shared_ptr<const api::v1::Node> node);
  // A node that still holds pods (bound or assumed) stays as a ghost until
  // they go; assumed pods on a deleted node are forgotten when binding fails.
  absl::Status RemoveNode(std::string_view name);
  void SetNamespace(const api::v1::Namespace& ns);
  void RemoveNamespace(std::string_view name);

  // Adds `pod` (with spec.nodeName) as assumed: it counts on its node now.
  absl::Status AssumePod(framework::PodInfoPtr pod);
  // The bind of an assumed pod succeeded: it is now bound.
  absl::Status FinishBinding(const framework::PodInfo& pod);
  // Undoes AssumePod; an error if the pod is not assumed.
  absl::Status ForgetPod(const framework::PodInfo& pod);

  // A bound pod reported by the host. If it was assumed, this confirms it
  // (moving it if the host reports another node).
  absl::Status AddPod(framework::PodInfoPtr pod);
  absl::Status UpdatePod(framework::PodInfoPtr pod);
  absl::Status RemovePod(const framework::PodInfo& pod);

  bool IsAssumed(const std::string& uid) const;
  // The pod as the cache holds it (assumed or bound), or nullptr.
  framework::PodInfoPtr GetPod(const std::string& uid) const;

  void UpdateSnapshot(framework::Snapshot& snapshot) const;
  int NumNodes() const;
  struct Sizes {
    int nodes = 0;
    int pods = 0;
    int assumed_pods = 0;
  };
  Sizes sizes() const;

 private:
  mutable std::mutex mu_;
  framework::ClusterState state_ ABSL_GUARDED_BY(mu_);
  // A pod as added to the state, and whether it is still assumed; found by
  // the pod's uid.
  struct Entry {
    framework::PodInfoPtr pod;
    bool assumed = false;
  };
  struct UidOf {
    const std::string& operator()(const Entry& e) const { return e.pod->uid(); }
  };
  SelfKeyedSet<Entry, UidOf> pods_ ABSL_GUARDED_BY(mu_);
};

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_SCHEDULER_CACHE_H_
