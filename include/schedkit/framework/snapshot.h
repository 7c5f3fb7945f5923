// Snapshot: the read-only view of the cluster one scheduling cycle uses, and
// ClusterState, the mutable aggregate it is taken from.
//
//   ClusterState state;                    // or ClusterState::FromLister(lister)
//   state.AddNode(node); state.AddPod(pod_info);
//   Snapshot snap;
//   state.UpdateSnapshot(snap);            // copies only nodes changed since
//   for (const NodeInfo* n : snap.nodes()) ...
//
// Layout, for the hot path: the snapshot owns its NodeInfos in one array, in
// upstream's zone round-robin node order (what the filter loop and its
// rotating start index walk), so a pass over the nodes reads memory forward
// and the hardware prefetches it. A changed node is updated in place;
// unchanged nodes are never touched. Only a change of the node set or order
// lays the array out again, which invalidates NodeInfo pointers from earlier
// cycles (layout_id() changes with it). `nodes()` points into the array;
// lookups by name go through a hash map on the interned name. Per-node hot
// data lives at the front of NodeInfo as plain integers and Symbols; there
// are no strings to compare in a filter.
//
// Incremental update follows upstream's cache: every change stamps the
// NodeInfo with a new global generation and moves it to the front of a
// most-recently-changed list, so UpdateSnapshot walks only the nodes changed
// since the snapshot's generation.
//
// Thread-safety: a Snapshot is immutable between updates and may be read by
// any number of threads; ClusterState is not synchronized (the scheduler's
// cache wraps it with a lock).
#ifndef SCHEDKIT_FRAMEWORK_SNAPSHOT_H_
#define SCHEDKIT_FRAMEWORK_SNAPSHOT_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "schedkit/api/lister.h"
#include "schedkit/api/selector.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/pod_info.h"

// Namespaces reach the snapshot only through ClusterState::SetNamespace; a
// plugin reads their labels as LabelSets and never compiles their message.
namespace schedkit::api::v1 {
class Namespace;
}  // namespace schedkit::api::v1

namespace schedkit::framework {

class Snapshot {
 public:
  Snapshot() = default;
  Snapshot(const Snapshot&) = delete;
  Snapshot& operator=(const Snapshot&) = delete;
  Snapshot(Snapshot&&) = default;
  Snapshot& operator=(Snapshot&&) = default;

  // A snapshot of bound pods and nodes, as upstream's cache.NewSnapshot.
  static absl::StatusOr<Snapshot> FromLister(const api::ClusterLister& lister);

  int NumNodes() const { return static_cast<int>(nodes_.size()); }
  // Every node, in zone round-robin order.
  std::span<const NodeInfo* const> nodes() const { return nodes_; }
  const NodeInfo* Get(Symbol name) const;
  const NodeInfo* Get(std::string_view name) const;
  // Position of the node in nodes(), or -1.
  int IndexOf(Symbol name) const;
  // Position in nodes() of `node`, which must be one of this snapshot's
  // NodeInfos (from nodes() or Get): pointer arithmetic, no lookup.
  int PositionOf(const NodeInfo& node) const { return static_cast<int>(&node - infos_.data()); }
  std::span<const NodeInfo* const> have_pods_with_affinity() const { return with_affinity_; }
  std::span<const NodeInfo* const> have_pods_with_required_anti_affinity() const {
    return with_required_anti_affinity_;
  }
  // Number of nodes that have the image (by any node-reported name).
  int ImageNumNodes(Symbol image) const;
  // Labels of a namespace, or nullptr for an unknown namespace.
  const api::LabelSet* NamespaceLabels(Symbol ns) const;

  // The highest node generation this snapshot reflects.
  int64_t generation() const { return generation_; }
  // Each node's generation, aligned with nodes(): a plugin that caches
  // something per node finds the nodes changed since it last looked by
  // comparing these, without touching the NodeInfos.
  std::span<const int64_t> node_generations() const { return generations_; }
  // Names the current nodes() order; process-wide unique, and new whenever
  // nodes are added, removed or reordered, so per-position caches know when
  // positions stop meaning the same nodes.
  int64_t layout_id() const { return layout_id_; }
  // The same plugins, cheaper between cycles: updates() counts the updates
  // this snapshot took; ChangedSince(u, out) appends the positions whose
  // generation changed after update `u` of this layout (possibly repeated)
  // and returns true, or returns false when its bounded log no longer
  // reaches back that far, in which case compare node_generations().
  int64_t updates() const { return updates_; }
  bool ChangedSince(int64_t update, std::vector<int>& out) const;
  // Process-wide unique, new whenever namespace labels change.
  int64_t namespaces_id() const { return namespaces_id_; }
  // Process-wide unique, new with every new layout and whenever a node
  // object was replaced: what holds for the set of node objects (how many
  // nodes hold an image, say) holds while it is the same.
  int64_t node_objects_id() const { return node_objects_id_; }
  // How many NodeInfos the last UpdateSnapshot copied; for tests and metrics.
  int last_update_copies() const { return last_update_copies_; }

 private:
  friend class ClusterState;
  // Derives everything aligned with infos_ (a new layout).
  void RebuildLists();
  void RebuildAffinityLists();
  // The node at `index` gained or lost pods with affinity (flags: has pods
  // with affinity, with required anti-affinity): adds it to or drops it from
  // the lists, in node order.
  void UpdateAffinityLists(int index, uint8_t old_flags, uint8_t new_flags);

  // One NodeInfo per node, in nodes() order; nodes_ points into it.
  std::vector<NodeInfo> infos_;
  std::vector<const NodeInfo*> nodes_;
  absl::flat_hash_map<Symbol, int> index_;
  std::vector<const NodeInfo*> with_affinity_;
  std::vector<const NodeInfo*> with_required_anti_affinity_;
  // Positions in nodes_ of the entries of the two lists above.
  std::vector<int> with_affinity_index_;
  std::vector<int> with_required_anti_affinity_index_;
  // Aligned with nodes_.
  std::vector<int64_t> generations_;
  // Positions changed in place, by update number, oldest first; complete for
  // updates after log_floor_. Cleared with each new layout.
  struct Change {
    int64_t update;
    int position;
  };
  std::vector<Change> change_log_;
  int64_t updates_ = 0;
  int64_t log_floor_ = 0;
  absl::flat_hash_map<Symbol, int> image_nodes_;
  absl::flat_hash_map<Symbol, api::LabelSet> namespaces_;
  int64_t namespaces_version_ = -1;
  int64_t order_version_ = -1;
  int64_t layout_id_ = -1;
  int64_t namespaces_id_ = -1;
  int64_t node_objects_id_ = -1;
  int64_t generation_ = 0;
  int last_update_copies_ = 0;
};

class ClusterState {
 public:
  ClusterState();
  ~ClusterState();
  ClusterState(const ClusterState&) = delete;
  ClusterState& operator=(const ClusterState&) = delete;

  // Nodes, bound pods and namespaces from the lister; pending pods skipped.
  static absl::StatusOr<std::unique_ptr<ClusterState>> FromLister(const api::ClusterLister& lister);

  absl::Status AddNode(std::shared_ptr<const api::v1::Node> node);
  absl::Status UpdateNode(std::shared_ptr<const api::v1::Node> node);
  // A node with pods left stays as a ghost (not schedulable, not in
  // snapshots) until its pods are removed, as upstream.
  absl::Status RemoveNode(std::string_view name);

  // The pod must have spec.nodeName; a pod on an unknown node creates a ghost.
  absl::Status AddPod(PodInfoPtr pod);
  absl::Status RemovePod(const PodInfo& pod);

  void SetNamespace(const api::v1::Namespace& ns);
  void RemoveNamespace(std::string_view name);

  // Brings `snapshot` up to date, copying only NodeInfos changed since its
  // generation; rebuilds the node order when nodes were added or removed.
  void UpdateSnapshot(Snapshot& snapshot) const;

  const NodeInfo* GetNodeInfo(Symbol name) const;
  // Nodes with a Node object (ghosts excluded).
  int NumNodes() const { return num_nodes_; }

 private:
  struct Item;
  class NodeTree;

  Item* FindItem(Symbol name) const;
  Item* GetOrCreateItem(Symbol name);
  void MoveToFront(Item* item);
  void DeleteItem(Item* item);

  absl::flat_hash_map<Symbol, std::unique_ptr<Item>> items_;
  Item* head_ = nullptr;
  std::unique_ptr<NodeTree> tree_;
  int num_nodes_ = 0;
  // Bumped whenever the set of schedulable nodes or their order changes.
  int64_t order_version_ = 0;
  absl::flat_hash_map<Symbol, api::LabelSet> namespaces_;
  int64_t namespaces_version_ = 0;
};

// Upstream's zone key: region and zone labels (stable, else the beta
// failure-domain ones) joined; empty when the node has neither.
std::string ZoneKey(const api::LabelSet& labels);

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_SNAPSHOT_H_
