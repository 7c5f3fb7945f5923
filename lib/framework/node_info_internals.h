// Internal to the framework and the in-tree plugins: the parts of NodeInfo
// that serve speed rather than meaning, which plugins written against the
// public headers do not see. Prefetching a node's lines ahead of a pass over
// many nodes, scratch simulation copies that do not allocate, and the
// process-wide generation counter snapshots compare.
//
//   for (int i = 0; i < n; ++i) {
//     if (i + 8 < n) PrefetchHotLines(*nodes[i + 8]);
//     ...
//   }
//   ScratchSimulation sim(node);       // a what-if copy in the thread's scratch
//   sim.node().RemovePod(victim);
#ifndef SCHEDKIT_LIB_FRAMEWORK_NODE_INFO_INTERNALS_H_
#define SCHEDKIT_LIB_FRAMEWORK_NODE_INFO_INTERNALS_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "schedkit/framework/node_info.h"
#include "schedkit/framework/pod_info.h"

namespace schedkit::framework {

// The next value of the process-wide generation counter.
int64_t NextGeneration();

// What only the framework reaches of a NodeInfo (NodeInfo's friend).
class NodeInfoInternals {
 public:
  // The leading bytes that hold the hot fields: the first line has the
  // figures every default filter and score reads of every node, the second
  // the label and pod lists and the declared hot labels (HotLabel).
  static constexpr size_t kHotBytes = 128;

  static const int32_t* LowestPodPriorityAddress(const NodeInfo& n) { return &n.lowest_pod_priority_; }
  // `to` becomes a simulation copy of `from` whose node object and pod lists
  // are borrowed: they point at `from`'s without owning them.
  static void AssignBorrowedSimulationCopy(NodeInfo& to, const NodeInfo& from);
  // Drops the borrowed node object and empties the pod lists, keeping their
  // buffers.
  static void DropBorrowed(NodeInfo& n);
};

// Asks the cache for the lines every default filter and score reads, ahead
// of a pass over many nodes (they are scattered over the heap, and a pass
// otherwise waits for each node's first line in turn).
inline void PrefetchHotLines(const NodeInfo& n) {
  const char* p = reinterpret_cast<const char*>(&n);
  for (size_t offset = 0; offset < NodeInfoInternals::kHotBytes; offset += 64) __builtin_prefetch(p + offset);
}
// The same for a what-if on the node (a dry run): all its lines, which the
// simulation copy reads. Then, once those are in, PrefetchPods.
inline void PrefetchWholeNode(const NodeInfo& n) {
  const char* p = reinterpret_cast<const char*>(&n);
  for (size_t offset = 0; offset < sizeof(NodeInfo); offset += 64) __builtin_prefetch(p + offset);
}
// The line of lowest_pod_priority(), for a walk that reads only that.
inline void PrefetchLowestPodPriority(const NodeInfo& n) {
  __builtin_prefetch(NodeInfoInternals::LowestPodPriorityAddress(n));
}
// The two lines that passes over a pod read (requests, priority, start
// time, the list flags).
inline void PrefetchPod(const PodInfo& pod) {
  __builtin_prefetch(&pod);
  __builtin_prefetch(reinterpret_cast<const char*>(&pod) + 64);
}
// The hot lines of the node's pods.
inline void PrefetchPods(const NodeInfo& n) {
  for (const PodInfoPtr& pod : n.pods()) PrefetchPod(*pod);
}

// A simulation copy of a node made in the calling thread's scratch NodeInfo,
// whose buffers outlive each use: what-if loops over many nodes (preemption's
// dry runs, the nominated-pods pass) then copy without allocating. A second
// one alive on the same thread gets a copy of its own.
//
// The copy borrows the node's API object and pods: node_ptr() and the pod
// lists point at them without owning them, so that a copy costs no reference
// counting. `node` must therefore outlive the ScratchSimulation and keep them
// meanwhile; a pointer taken from the copy's node_ptr() or lists must not be
// kept beyond it (pods added to the copy are owned as usual).
class ScratchSimulation {
 public:
  explicit ScratchSimulation(const NodeInfo& node);
  ~ScratchSimulation();
  ScratchSimulation(const ScratchSimulation&) = delete;
  ScratchSimulation& operator=(const ScratchSimulation&) = delete;

  NodeInfo& node() { return *node_; }

  // `pod` without ownership, for adding to the copy a pod that outlives it
  // (a nominated pod, a victim reprieved in a dry run): copying and dropping
  // it touches no reference count, whose locked instructions would also
  // hold back the loads of the pods that follow.
  static PodInfoPtr Borrow(const PodInfoPtr& pod) { return PodInfoPtr(PodInfoPtr(), pod.get()); }

 private:
  std::unique_ptr<NodeInfo> own_;  // when the thread's scratch is taken
  NodeInfo* node_ = nullptr;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_LIB_FRAMEWORK_NODE_INFO_INTERNALS_H_
