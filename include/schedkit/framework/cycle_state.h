// CycleState: per-scheduling-cycle storage where plugins keep what they
// computed once for the pod (in PreFilter/PreScore) for their per-node calls.
//
//   static const StateKey kKey = StateKey("PreFilterNodeResourcesFit");
//   state.Write(kKey, std::make_unique<MyState>(...));          // PreFilter
//   const auto* s = state.Read<MyState>(kKey);                   // Filter, per node
//
// Keys are interned, so a Read is a short scan comparing integers: cheap
// enough for Filter and Score. Clone() deep-copies every entry through
// StateData::Clone, for the nominated-pods pass and preemption's dry runs.
// Besides the plugins' data, a CycleState carries the framework's own notes
// on the cycle, which only the framework reads.
//
// Thread-safety: Read may run concurrently from Filter/Score on many threads.
// Write and Delete happen only from extension points that run sequentially
// (PreFilter, PreScore, Reserve, Permit, ...) and never during Filter/Score.
#ifndef SCHEDKIT_FRAMEWORK_CYCLE_STATE_H_
#define SCHEDKIT_FRAMEWORK_CYCLE_STATE_H_

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "schedkit/base/symbol.h"

namespace schedkit::framework {

// What a plugin stores; Clone must return an independent copy when the
// plugin's PreFilterExtensions mutate it, and may share immutable parts.
class StateData {
 public:
  virtual ~StateData() = default;
  virtual std::unique_ptr<StateData> Clone() const = 0;
  // True for data read only by the scheduling cycle (PreFilter to Permit).
  // The scheduler frees it before the binding cycle starts, so what it
  // shares with a plugin's cross-cycle cache is unshared again by the next
  // cycle and the cache can update in place.
  virtual bool SchedulingCycleOnly() const { return false; }
};

using StateKey = Symbol;

// A few plugin names (the skip sets): inline storage, so that cloning a
// CycleState for every node of a preemption dry run does not allocate.
class SymbolSet {
 public:
  bool contains(Symbol s) const { return std::find(items_.begin(), items_.end(), s) != items_.end(); }
  void insert(Symbol s) {
    if (!contains(s)) items_.push_back(s);
  }
  void clear() { items_.clear(); }
  bool empty() const { return items_.empty(); }
  size_t size() const { return items_.size(); }
  auto begin() const { return items_.begin(); }
  auto end() const { return items_.end(); }
  // Same items in the same order.
  friend bool operator==(const SymbolSet& a, const SymbolSet& b) { return a.items_ == b.items_; }

 private:
  absl::InlinedVector<Symbol, 8> items_;
};

// The framework's bookkeeping in a CycleState (which plugins the cycle
// skips, the nominations it filters against, its derived filter chain):
// defined by the framework (lib/framework/cycle_bookkeeping.h), not
// reachable from a plugin.
class CycleBookkeeping;
struct ActiveFilterChain;
class NominatedPodsSnapshot;

class CycleState {
 public:
  CycleState() = default;
  CycleState(const CycleState&) = delete;
  CycleState& operator=(const CycleState&) = delete;

  // Stores `data` under `key`, replacing what was there.
  void Write(StateKey key, std::unique_ptr<StateData> data);
  // nullptr when the key was never written (upstream's ErrNotFound).
  const StateData* ReadData(StateKey key) const;
  StateData* MutableData(StateKey key);
  // The data under `key` as the type its writer stored; nullptr when the
  // key was never written. T must be that type: debug builds abort naming
  // the key when it is not, release builds do not check.
  template <typename T>
  const T* Read(StateKey key) const {
    const StateData* data = ReadData(key);
#ifndef NDEBUG
    if (data != nullptr && dynamic_cast<const T*>(data) == nullptr) WrongType(key);
#endif
    return static_cast<const T*>(data);
  }
  template <typename T>
  T* Mutable(StateKey key) {
    StateData* data = MutableData(key);
#ifndef NDEBUG
    if (data != nullptr && dynamic_cast<T*>(data) == nullptr) WrongType(key);
#endif
    return static_cast<T*>(data);
  }
  void Delete(StateKey key);

  // A deep copy (StateData::Clone), for simulations: the nominated-pods
  // pass, preemption's dry runs.
  std::unique_ptr<CycleState> Clone() const;

 private:
  friend class CycleBookkeeping;
  [[noreturn]] static void WrongType(StateKey key);

  std::vector<std::pair<StateKey, std::unique_ptr<StateData>>> entries_;
  SymbolSet skip_filter_;
  SymbolSet skip_score_;
  std::shared_ptr<const NominatedPodsSnapshot> nominated_pods_;
  std::shared_ptr<const ActiveFilterChain> active_filter_chain_;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_CYCLE_STATE_H_
