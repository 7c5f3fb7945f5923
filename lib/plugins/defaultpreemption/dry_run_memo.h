// DryRunMemo: DefaultPreemption's dry-run outcomes per node, kept from one
// preemption attempt to the next for preemptors of one signature. When many
// preemptors arrive together, each attempt walks past the same nodes: those
// nominated to earlier preemptors, which cannot take this one even with
// every lower-priority pod gone, and the same candidates with the same
// victims. A kept outcome answers for a node while the node (its
// generation), its nominations (the same list object) and the filter chain
// (Handle::PerNodeFilterChain) stay the same.
//
// Kept: "no fit even without the lower-priority pods" with its status, and,
// from attempts without PodDisruptionBudgets, a candidate's victims. Errors
// are not kept. The victims borrow the node's pods, as a fresh dry run's do
// (preemption::Victims); they are handed out only while the node's
// generation is the one they were found at, when the node still holds them.
//
// Thread-safety: Begin and End on the attempt's thread; between them, Find
// and Keep concurrently for distinct nodes (the evaluator's dry runs).
#ifndef SCHEDKIT_LIB_PLUGINS_DEFAULTPREEMPTION_DRY_RUN_MEMO_H_
#define SCHEDKIT_LIB_PLUGINS_DEFAULTPREEMPTION_DRY_RUN_MEMO_H_

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "plugins/defaultpreemption/evaluator.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/nominated_pods.h"
#include "schedkit/framework/node_info.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/snapshot.h"
#include "schedkit/framework/status.h"

namespace schedkit::plugins::preemption {

class DryRunMemo {
 public:
  // What a node's dry run found.
  struct Outcome {
    framework::Status status;
    Victims victims;  // on success
  };

  // Starts serving `pod`'s attempt in `state`, if the attempt allows it:
  // the filter chain has a per-node key and the cycle's nominations are
  // known from a snapshot (or there is no nominator). Outcomes kept for
  // another signature, snapshot layout, set of node objects or chain are
  // forgotten.
  void Begin(const framework::Handle& handle, const framework::CycleState& state, const framework::PodInfo& pod);
  // Stops serving until the next Begin.
  void End() { serving_ = nullptr; }

  // A lookup for one node of the attempt that began for `state`. Its
  // outcome is served, or kept after the dry run, only when the key is
  // valid (the node is in the snapshot and `pod` is not nominated to it).
  class Slot {
   public:
    bool valid() const { return position_ >= 0; }

   private:
    friend class DryRunMemo;
    int position_ = -1;
    const framework::NominatedPodsSnapshot::PodList* nominated_ = nullptr;
  };
  Slot SlotFor(const framework::CycleState& state, const framework::PodInfo& pod,
               const framework::NodeInfo& node) const;
  // The kept outcome for the slot's node, or null.
  const Outcome* Find(const Slot& slot) const;
  // Keeps `status` (a rejection) or, with `victims`, a candidate's outcome.
  void Keep(const Slot& slot, const framework::Status& status, const Victims* victims);

 private:
  struct Kept {
    int64_t generation = -1;
    // Held, so that no later list can take its address while it is kept.
    framework::NominatedPodsSnapshot::PodList nominated;
    Outcome outcome;
  };

  const framework::CycleState* serving_ = nullptr;
  const framework::Snapshot* snapshot_ = nullptr;
  std::shared_ptr<const framework::PodSignature> signature_;
  int64_t layout_id_ = -1;
  int64_t node_objects_id_ = -1;
  uint64_t chain_ = 0;
  // Whether the attempt's pod may be in a node's nominations
  // (NominatedPodsSnapshot::MayList); when not, no list is searched for it.
  bool may_be_nominee_ = false;
  std::vector<Kept> by_position_;
};

}  // namespace schedkit::plugins::preemption

#endif  // SCHEDKIT_LIB_PLUGINS_DEFAULTPREEMPTION_DRY_RUN_MEMO_H_
