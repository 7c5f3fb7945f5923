// Internal to the framework (and the scheduler and in-tree plugins, which
// build on it): the framework's bookkeeping in a CycleState, which plugins
// written against the public headers do not see. Which plugins PreFilter and
// PreScore skipped, the nominations the cycle filters against (taken once
// when it starts), the filter chain derived after PreFilter, and what the
// binding cycle may drop.
//
//   CycleBookkeeping::SkipFilter(state).insert(plugin);     // PreFilter said Skip
//   if (const NominatedPodsSnapshot* n = CycleBookkeeping::NominatedPods(state)) ...
//
// Same threading as the CycleState it reads: written only from the
// sequential extension points, read from anywhere during the cycle.
#ifndef SCHEDKIT_LIB_FRAMEWORK_CYCLE_BOOKKEEPING_H_
#define SCHEDKIT_LIB_FRAMEWORK_CYCLE_BOOKKEEPING_H_

#include <memory>
#include <utility>

#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/nominated_pods.h"

namespace schedkit::framework {

class CycleBookkeeping {
 public:
  // Plugins whose PreFilter returned Skip: their Filter and PreFilter
  // extensions are not called this cycle.
  static SymbolSet& SkipFilter(CycleState& s) { return s.skip_filter_; }
  static const SymbolSet& SkipFilter(const CycleState& s) { return s.skip_filter_; }
  // Plugins whose PreScore returned Skip: their Score is not called.
  static SymbolSet& SkipScore(CycleState& s) { return s.skip_score_; }
  static const SymbolSet& SkipScore(const CycleState& s) { return s.skip_score_; }

  // The nominations this cycle filters against, taken from the nominator
  // when the cycle starts; null when the nominator answers only per node (or
  // outside a cycle), and then the framework asks it per node. Clones share it.
  static const NominatedPodsSnapshot* NominatedPods(const CycleState& s) { return s.nominated_pods_.get(); }
  static void SetNominatedPods(CycleState& s, std::shared_ptr<const NominatedPodsSnapshot> pods) {
    s.nominated_pods_ = std::move(pods);
  }

  // The filter chain the framework derived once this cycle's PreFilter had
  // run, so per-node filter calls outside the main pass (the nominated-pods
  // pass, preemption's dry runs) need not derive it again. Clones share it.
  static const std::shared_ptr<const ActiveFilterChain>& FilterChain(const CycleState& s) {
    return s.active_filter_chain_;
  }
  static void SetFilterChain(CycleState& s, std::shared_ptr<const ActiveFilterChain> chain) {
    s.active_filter_chain_ = std::move(chain);
  }

  // Deletes every entry whose data is SchedulingCycleOnly: the scheduler
  // calls it before the binding cycle starts.
  static void DeleteSchedulingCycleOnly(CycleState& s) {
    std::erase_if(s.entries_, [](const auto& e) { return e.second->SchedulingCycleOnly(); });
  }
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_LIB_FRAMEWORK_CYCLE_BOOKKEEPING_H_
