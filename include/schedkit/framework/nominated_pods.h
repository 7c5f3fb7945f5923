// NominatedPodsSnapshot: every node's nominated pods at one moment, taken
// once per scheduling cycle so that the per-node filter pass and
// preemption's dry runs read them without the nominator's lock.
//
//   std::span<const PodInfoPtr> pods = snapshot.ForNode(node.name());
//
// Immutable once built, so shared freely between threads and cloned
// CycleStates.
#ifndef SCHEDKIT_FRAMEWORK_NOMINATED_PODS_H_
#define SCHEDKIT_FRAMEWORK_NOMINATED_PODS_H_

#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "schedkit/api/symbol.h"
#include "schedkit/framework/pod_info.h"

namespace schedkit::framework {

class NominatedPodsSnapshot {
 public:
  // Per node, a shared immutable list, so a nominator can keep the lists of
  // unchanged nodes from one snapshot to the next.
  using ByNode = absl::flat_hash_map<Symbol, std::shared_ptr<const std::vector<PodInfoPtr>>>;
  NominatedPodsSnapshot() = default;
  explicit NominatedPodsSnapshot(ByNode by_node) : by_node_(std::move(by_node)) {}

  std::span<const PodInfoPtr> ForNode(Symbol node) const {
    auto it = by_node_.find(node);
    if (it == by_node_.end() || it->second == nullptr) return {};
    return *it->second;
  }
  bool empty() const { return by_node_.empty(); }

 private:
  ByNode by_node_;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_NOMINATED_PODS_H_
