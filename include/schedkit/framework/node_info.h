// NodeInfo: the aggregated view of one node that filters and scores read —
// allocatable and requested resources as integers, labels and taints as
// Symbols, used host ports, images, and the pods on the node (with the
// subsets that carry pod affinity and required anti-affinity).
//
//   NodeInfo n = NodeInfo::Create(node).value();
//   n.AddPod(pod_info);             // what assume and nominated pods do
//   n.requested().milli_cpu;        // sum of the pods' requests
//   n.RemovePod(*pod_info);         // restores the previous state exactly
//
// The fields a filter or score touches are plain members read through
// accessors named after upstream's NodeInfo; no accessor allocates. A
// NodeInfo is a value: snapshots copy it, preemption clones it and edits the
// copy. Not thread-safe for mutation; a snapshot's NodeInfos are read-only.
#ifndef SCHEDKIT_FRAMEWORK_NODE_INFO_H_
#define SCHEDKIT_FRAMEWORK_NODE_INFO_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/api/selector.h"
#include "schedkit/base/symbol.h"
#include "schedkit/api/v1/node.h"
#include "schedkit/framework/declared_features.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/resource.h"

namespace schedkit::framework {

// An image present on a node, by one of its names (sizes in bytes).
struct ImageOnNode {
  Symbol name;
  int64_t size_bytes = 0;
};

// Host ports in use on a node, as upstream's HostPortInfo (a set).
class HostPortSet {
 public:
  void Add(const HostPort& p);
  void Remove(const HostPort& p);
  // Whether `p` conflicts: same protocol and port, and equal addresses or
  // either one 0.0.0.0.
  bool Conflicts(const HostPort& p) const;
  size_t size() const { return ports_.size(); }
  const std::vector<HostPort>& ports() const { return ports_; }

 private:
  std::vector<HostPort> ports_;
};

// A node label key that a plugin reads on every node in Filter or Score.
// Declared once, when the plugin is built (in its factory), its value is
// kept beside the label list's header in the NodeInfo's second line, as
// the zone label that topology spreading reads is kept in the first: a pass
// over thousands of nodes then reads it from a line it loads anyway, not
// from the label list's heap block.
//
//   label_(framework::HotLabel::Declare(args.node_label))   // in the constructor
//   const Symbol* color = node.label(label_);               // in Filter
//
// kMaxHotLabels keys get a place, first come first served, for the life of
// the process; a key declared again gets the same. Any other key, and a
// NodeInfo made before its key was declared, answers from the label list:
// the same answer, at the list's cost. Declare is thread-safe.
class HotLabel {
 public:
  static constexpr int kMaxHotLabels = 3;
  static HotLabel Declare(std::string_view key);

  Symbol key() const { return key_; }
  // Its place in NodeInfo, or kMaxHotLabels when it has none.
  int slot() const { return slot_; }

 private:
  HotLabel(Symbol key, int slot) : key_(key), slot_(slot) {}
  Symbol key_;
  int slot_ = kMaxHotLabels;
};

// A node's list of pods (held by value in NodeInfo), whose copy assignment
// writes only the slots that hold another pod: a snapshot copies a changed
// node's NodeInfo, where most slots already hold the same pod.
class PodInfoList {
 public:
  PodInfoList() = default;
  PodInfoList(std::initializer_list<PodInfoPtr> items) : items_(items) {}
  PodInfoList(const PodInfoList&) = default;
  PodInfoList(PodInfoList&&) noexcept = default;
  PodInfoList& operator=(PodInfoList&&) noexcept = default;
  PodInfoList& operator=(const PodInfoList& other);

  const std::vector<PodInfoPtr>& items() const { return items_; }
  std::vector<PodInfoPtr>& items() { return items_; }

 private:
  std::vector<PodInfoPtr> items_;
};

// Cache-line aligned, so the hot fields below share as few lines as they can.
class alignas(64) NodeInfo {
 public:
  NodeInfo() = default;
  static absl::StatusOr<NodeInfo> Create(std::shared_ptr<const api::v1::Node> node);
  static absl::StatusOr<NodeInfo> Create(const api::v1::Node& node);

  // Replaces the node object (labels, taints, allocatable, images), keeping pods.
  absl::Status SetNode(std::shared_ptr<const api::v1::Node> node);
  // Drops the node object but keeps the pods (a deleted node whose pods are
  // still known, upstream's "ghost" NodeInfo). node() is then null.
  void ClearNode();

  // A copy for a what-if (preemption's dry runs, the nominated-pods pass).
  // Its changes never reach a snapshot, so it counts its own generation up
  // instead of drawing on the process-wide counter, which simulations
  // running in parallel would contend on.
  NodeInfo SimulationCopy() const;
  // The same into this NodeInfo, reusing its buffers: for a loop that
  // simulates on node after node (no allocation once they are big enough).
  void AssignSimulationCopy(const NodeInfo& from);

  void AddPod(PodInfoPtr pod);
  // Removes the pod with the same UID; NotFound if absent. The last pod
  // takes the removed one's place, as upstream does.
  absl::Status RemovePod(const PodInfo& pod);

  // --- read side (hot) ---
  Symbol name() const { return hot_.name; }
  const api::v1::Node* node() const { return node_.get(); }
  const std::shared_ptr<const api::v1::Node>& node_ptr() const { return node_; }
  const api::LabelSet& labels() const { return labels_; }
  // labels().Find("topology.kubernetes.io/zone"), from the first line: the
  // key topology spreading reads on every node, where the label list would
  // cost a line and a heap block more per node. nullptr when unlabelled.
  const Symbol* zone_label() const { return hot_.has_zone_label ? &hot_.zone_label : nullptr; }
  // labels().Find(label.key()), from the second line when the label has a
  // place there (HotLabel).
  const Symbol* label(HotLabel label) const {
    const int slot = label.slot();
    if (slot >= hot_labels_.placed) return labels_.Find(label.key());
    return (hot_labels_.present >> slot) & 1 ? &hot_labels_.values[slot] : nullptr;
  }
  const std::vector<Taint>& taints() const { return taints_; }
  bool has_taints() const { return hot_.has_taints; }
  bool unschedulable() const { return hot_.unschedulable; }
  const Resource& allocatable() const { return allocatable_; }
  const Resource& requested() const { return requested_; }
  // cpu/memory with scoring's non-zero defaults per container.
  int64_t non_zero_requested_milli_cpu() const { return hot_.non_zero_milli_cpu; }
  int64_t non_zero_requested_memory() const { return hot_.non_zero_memory; }
  // allocatable() and requested() cpu and memory again, and the pods the
  // node still has room for (allocatable pods minus pods, saturating): the
  // copies in the first line, for passes over many nodes.
  int64_t allocatable_milli_cpu() const { return hot_.allocatable_milli_cpu; }
  int64_t allocatable_memory() const { return hot_.allocatable_memory; }
  int64_t requested_milli_cpu() const { return hot_.requested_milli_cpu; }
  int64_t requested_memory() const { return hot_.requested_memory; }
  int32_t free_pod_slots() const { return hot_.free_pod_slots; }
  const HostPortSet& used_ports() const { return used_ports_; }
  // node.status.declaredFeatures against the registry (declared_features.h).
  DeclaredFeatureSet declared_features() const { return declared_features_; }
  // Sorted by name id.
  const std::vector<ImageOnNode>& images() const { return images_; }
  const ImageOnNode* FindImage(Symbol name) const;

  const std::vector<PodInfoPtr>& pods() const { return pods_.items(); }
  int num_pods() const { return static_cast<int>(pods_.items().size()); }
  // The lowest priority among the pods (INT32_MAX without pods). A pod of
  // no higher priority can preempt nothing here: preemption's dry runs learn
  // that from this figure instead of reading every pod.
  int32_t lowest_pod_priority() const { return lowest_pod_priority_; }
  const std::vector<PodInfoPtr>& pods_with_affinity() const { return pods_with_affinity_.items(); }
  const std::vector<PodInfoPtr>& pods_with_required_anti_affinity() const {
    return pods_with_required_anti_affinity_.items();
  }

  // Bumped (from a process-wide counter) on every change; snapshots copy a
  // node only when its generation moved.
  int64_t generation() const { return generation_; }

  // Exact structural equality, pods compared by identity and order; for tests.
  friend bool operator==(const NodeInfo& a, const NodeInfo& b);

 private:
  void Touch();
  void AddRequests(const Resource& r, int sign);
  void RecountLowestPriority();

  // First line: what the default filters and scores read of every node, so
  // that a pass over thousands of nodes loads one line per node. The cpu,
  // memory and pod figures copy allocatable_ and requested_; Touch, which
  // every change calls, refreshes them.
  struct Figures {
    Symbol name;
    bool unschedulable = false;
    bool has_taints = false;
    bool has_zone_label = false;
    // Saturating at the int32 bounds: only free_pod_slots >= 1 is asked.
    int32_t free_pod_slots = 0;
    Symbol zone_label;
    int64_t allocatable_milli_cpu = 0;
    int64_t allocatable_memory = 0;
    int64_t requested_milli_cpu = 0;
    int64_t requested_memory = 0;
    int64_t non_zero_milli_cpu = 0;
    int64_t non_zero_memory = 0;
    friend bool operator==(const Figures&, const Figures&) = default;
  };
  Figures hot_;
  // Second line: the lists that plugins for labels (node affinity, topology
  // keys) and pods start from, and the declared hot labels' values. Taints
  // come after: they are read only where has_taints, in the first line, says.
  api::LabelSet labels_;
  struct HotLabelValues {
    std::array<Symbol, HotLabel::kMaxHotLabels> values;
    // Bit i: values[i] holds the node's label; the first `placed` slots
    // were declared when the labels were read (SetNode).
    uint8_t present = 0;
    int8_t placed = 0;
  };
  HotLabelValues hot_labels_;
  PodInfoList pods_;
  std::vector<Taint> taints_;
  // Images are read only for pods whose images some node already holds.
  std::vector<ImageOnNode> images_;
  Resource allocatable_;
  Resource requested_;
  std::shared_ptr<const api::v1::Node> node_;
  HostPortSet used_ports_;
  PodInfoList pods_with_affinity_;
  PodInfoList pods_with_required_anti_affinity_;
  int64_t generation_ = 0;
  // lowest_pod_priority() and how many pods have it: a removal rescans the
  // pods only when the last of them leaves.
  int32_t lowest_pod_priority_ = std::numeric_limits<int32_t>::max();
  int32_t pods_at_lowest_priority_ = 0;
  bool simulation_ = false;
  DeclaredFeatureSet declared_features_ = 0;

  // Prefetching and scratch simulations (lib/framework/node_info_internals.h).
  friend class NodeInfoInternals;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_NODE_INFO_H_
