// NodeInfo's internals: scratch simulation copies that borrow a node's
// objects instead of owning them.
#include "framework/node_info_internals.h"

#include <array>

namespace schedkit::framework {
namespace {

void AssignBorrowed(std::vector<PodInfoPtr>& to, const std::vector<PodInfoPtr>& from) {
  to.clear();
  for (const PodInfoPtr& p : from) to.push_back(ScratchSimulation::Borrow(p));
}

}  // namespace

void NodeInfoInternals::AssignBorrowedSimulationCopy(NodeInfo& to, const NodeInfo& from) {
  // Member by member; a member added to NodeInfo must be added here too (the
  // scratch test compares against SimulationCopy with operator==).
  static_assert(sizeof(NodeInfo) == 448, "NodeInfo changed: update AssignBorrowedSimulationCopy");
  if (&to == &from) return;
  to.hot_ = from.hot_;
  to.labels_ = from.labels_;
  to.hot_labels_ = from.hot_labels_;
  to.taints_ = from.taints_;
  AssignBorrowed(to.pods_.items(), from.pods_.items());
  to.images_ = from.images_;
  to.allocatable_ = from.allocatable_;
  to.requested_ = from.requested_;
  to.node_ = std::shared_ptr<const api::v1::Node>(std::shared_ptr<const api::v1::Node>(), from.node_.get());
  to.used_ports_ = from.used_ports_;
  AssignBorrowed(to.pods_with_affinity_.items(), from.pods_with_affinity_.items());
  AssignBorrowed(to.pods_with_required_anti_affinity_.items(), from.pods_with_required_anti_affinity_.items());
  to.generation_ = from.generation_;
  to.lowest_pod_priority_ = from.lowest_pod_priority_;
  to.pods_at_lowest_priority_ = from.pods_at_lowest_priority_;
  to.declared_features_ = from.declared_features_;
  to.simulation_ = true;
}

void NodeInfoInternals::DropBorrowed(NodeInfo& n) {
  n.node_.reset();
  n.pods_.items().clear();
  n.pods_with_affinity_.items().clear();
  n.pods_with_required_anti_affinity_.items().clear();
  n.RecountLowestPriority();
}

namespace {

// Two per thread: a preemption dry run holds one while the nominated-pods
// pass it calls takes the other.
struct ScratchSlot {
  NodeInfo node;
  bool taken = false;
};

std::array<ScratchSlot, 2>& Scratch() {
  thread_local std::array<ScratchSlot, 2> slots;
  return slots;
}

}  // namespace

ScratchSimulation::ScratchSimulation(const NodeInfo& node) {
  for (ScratchSlot& slot : Scratch()) {
    if (slot.taken) continue;
    slot.taken = true;
    NodeInfoInternals::AssignBorrowedSimulationCopy(slot.node, node);
    node_ = &slot.node;
    return;
  }
  own_ = std::make_unique<NodeInfo>(node.SimulationCopy());
  node_ = own_.get();
}

ScratchSimulation::~ScratchSimulation() {
  if (own_ != nullptr) return;
  // No borrowed pointer outlives the node it was borrowed from.
  NodeInfoInternals::DropBorrowed(*node_);
  for (ScratchSlot& slot : Scratch()) {
    if (&slot.node == node_) slot.taken = false;
  }
}

}  // namespace schedkit::framework
