// Internal to the scheduling queue: the pods nominated to nodes by preemption
// (upstream's nominator in backend/queue). A nomination names the pod as the
// queue held it then; the lists the filter pass reads resolve each nominated
// pod to the queue's latest copy, so that an update of a nominated pod is
// seen without a new nomination.
//
//   Nominator nominator([&](const std::string& uid) { return LatestCopy(uid); });
//   nominator.Add(pod, node);               // ModeOverride
//   std::shared_ptr<const NominatedPodsSnapshot> s = nominator.Snapshot();
//
// Guarded by the queue's lock: the mutating methods need it held exclusively,
// the readers (Snapshot, ForNode, HasAny) at least shared. Snapshot also
// takes a lock of its own, because readers rebuild it concurrently.
#ifndef SCHEDKIT_LIB_SCHEDULER_NOMINATOR_H_
#define SCHEDKIT_LIB_SCHEDULER_NOMINATOR_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "schedkit/base/symbol.h"
#include "schedkit/framework/nominated_pods.h"
#include "schedkit/framework/pod_info.h"
#include "scheduler/spinning_mutex.h"

namespace schedkit::scheduler {

class Nominator {
 public:
  // `latest(uid)`: the queue's latest copy of a pod it holds, or null.
  explicit Nominator(std::function<framework::PodInfoPtr(const std::string& uid)> latest)
      : latest_(std::move(latest)) {}

  // Upstream addNominatedPodUnlocked: nominates `pod` to `node` (ModeOverride),
  // or, with no node, to its status.nominatedNodeName (ModeNoop), replacing
  // an earlier nomination. A pod already bound (spec.nodeName set) is not
  // nominated.
  void Add(const framework::PodInfoPtr& pod, std::optional<Symbol> node);
  // Drops the pod's nomination, if any.
  void Delete(const std::string& uid);
  // Upstream UpdateNominatedPod: keeps an in-memory nomination across an
  // update that neither sets nor clears status.nominatedNodeName.
  void Update(const framework::PodInfo* old_pod, const framework::PodInfoPtr& new_pod);
  // The queue's copy of the pod changed (or it left the queue): a nominated
  // pod's node list is resolved again.
  void PodChanged(const std::string& uid);

  bool HasAny() const { return !node_of_.empty(); }
  // The pods nominated to `node`, each in its latest copy; null for none.
  const framework::NominatedPodsSnapshot::PodList& ForNode(Symbol node) const { return resolved_.Find(node); }
  // Every node's list at once; rebuilt only after a nomination, or the
  // queue's copy of a nominated pod, changed. A reader, despite rebuilding.
  std::shared_ptr<const framework::NominatedPodsSnapshot> Snapshot();

 private:
  // Rebuilds one node's list of latest copies; the next Snapshot() sees the
  // new version and rebuilds the node's shard.
  void Resolve(Symbol node);

  const std::function<framework::PodInfoPtr(const std::string&)> latest_;
  absl::flat_hash_map<Symbol, std::vector<framework::PodInfoPtr>> pods_on_;
  absl::flat_hash_map<std::string, Symbol> node_of_;
  // pods_on_ with each pod in its latest copy, kept per node. Snapshot()
  // builds from it under the shared lock and snapshot_mu_: Build only
  // touches what Set (under the exclusive lock) does not read.
  framework::NominatedPodsSnapshot::Builder resolved_;
  uint64_t version_ = 0;
  // The last snapshot and the version it was built at.
  SpinningMutex snapshot_mu_;
  std::shared_ptr<const framework::NominatedPodsSnapshot> snapshot_ ABSL_GUARDED_BY(snapshot_mu_);
  uint64_t snapshot_version_ ABSL_GUARDED_BY(snapshot_mu_) = 0;
};

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_LIB_SCHEDULER_NOMINATOR_H_
