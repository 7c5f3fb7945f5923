#include "plugins/defaultpreemption/dry_run_memo.h"
#include "framework/cycle_bookkeeping.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace schedkit::plugins::preemption {

void DryRunMemo::Begin(const framework::Handle& handle, const framework::CycleState& state,
                       const framework::PodInfo& pod) {
  serving_ = nullptr;
  const std::optional<uint64_t> chain = handle.plugin_runner().PerNodeFilterChain(state);
  if (!chain.has_value() || pod.signature() == nullptr) return;
  if (framework::CycleBookkeeping::NominatedPods(state) == nullptr && handle.nominator() != nullptr) return;
  const framework::Snapshot& snap = handle.snapshot();
  if (signature_ == nullptr || !(*signature_ == *pod.signature()) || layout_id_ != snap.layout_id() ||
      node_objects_id_ != snap.node_objects_id() || chain_ != *chain) {
    signature_ = pod.signature();
    layout_id_ = snap.layout_id();
    node_objects_id_ = snap.node_objects_id();
    chain_ = *chain;
    by_position_.assign(static_cast<size_t>(snap.NumNodes()), Kept{});
  }
  snapshot_ = &snap;
  may_be_nominee_ = framework::CycleBookkeeping::NominatedPods(state) != nullptr && framework::CycleBookkeeping::NominatedPods(state)->MayList(pod);
  serving_ = &state;
}

DryRunMemo::Slot DryRunMemo::SlotFor(const framework::CycleState& state, const framework::PodInfo& pod,
                                     const framework::NodeInfo& node) const {
  Slot slot;
  if (serving_ != &state) return slot;
  // The snapshot's NodeInfos lie in one array in nodes() order; a node from
  // elsewhere has no position there.
  const std::span<const framework::NodeInfo* const> nodes = snapshot_->nodes();
  if (nodes.empty()) return slot;
  const auto base = reinterpret_cast<uintptr_t>(nodes[0]);
  const auto addr = reinterpret_cast<uintptr_t>(&node);
  if (addr < base || (addr - base) % sizeof(framework::NodeInfo) != 0) return slot;
  const size_t position = (addr - base) / sizeof(framework::NodeInfo);
  if (position >= nodes.size() || nodes[position] != &node) return slot;
  static const framework::NominatedPodsSnapshot::PodList kNone;
  const framework::NominatedPodsSnapshot::PodList& nominated =
      framework::CycleBookkeeping::NominatedPods(state) != nullptr ? framework::CycleBookkeeping::NominatedPods(state)->ListFor(node.name()) : kNone;
  // The pod's own nomination stays out of its dry run, which another pod of
  // its signature would count: then the outcome is this pod's alone.
  const auto is_pod = [&](const framework::PodInfoPtr& p) { return p->SameUid(pod); };
  if (may_be_nominee_ && nominated != nullptr && std::any_of(nominated->begin(), nominated->end(), is_pod)) {
    return slot;
  }
  slot.position_ = static_cast<int>(position);
  slot.nominated_ = &nominated;
  return slot;
}

const DryRunMemo::Outcome* DryRunMemo::Find(const Slot& slot) const {
  if (!slot.valid()) return nullptr;
  const Kept& kept = by_position_[static_cast<size_t>(slot.position_)];
  if (kept.generation != snapshot_->node_generations()[slot.position_] || kept.nominated != *slot.nominated_) {
    return nullptr;
  }
  return &kept.outcome;
}

void DryRunMemo::Keep(const Slot& slot, const framework::Status& status, const Victims* victims) {
  if (!slot.valid()) return;
  Kept& kept = by_position_[static_cast<size_t>(slot.position_)];
  kept.generation = snapshot_->node_generations()[slot.position_];
  kept.nominated = *slot.nominated_;
  kept.outcome.status = status;
  if (victims != nullptr) {
    kept.outcome.victims = *victims;
  } else {
    kept.outcome.victims.pods.clear();
    kept.outcome.victims.num_pdb_violations = 0;
  }
}

}  // namespace schedkit::plugins::preemption
