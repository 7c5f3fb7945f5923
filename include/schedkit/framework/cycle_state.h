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
#include "schedkit/framework/nominated_pods.h"

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

// A framework's filter chain with one cycle's skipped plugins removed;
// defined by the framework, opaque here.
struct ActiveFilterChain;

class CycleState {
 public:
  CycleState() = default;
  CycleState(const CycleState&) = delete;
  CycleState& operator=(const CycleState&) = delete;

  void Write(StateKey key, std::unique_ptr<StateData> data);
  // nullptr when the key was never written (upstream's ErrNotFound).
  const StateData* ReadData(StateKey key) const;
  StateData* MutableData(StateKey key);
  template <typename T>
  const T* Read(StateKey key) const {
    return static_cast<const T*>(ReadData(key));
  }
  template <typename T>
  T* Mutable(StateKey key) {
    return static_cast<T*>(MutableData(key));
  }
  void Delete(StateKey key);
  // Deletes every entry whose data is SchedulingCycleOnly.
  void DeleteSchedulingCycleOnly();

  std::unique_ptr<CycleState> Clone() const;

  // Plugins whose PreFilter returned Skip: their Filter and PreFilter
  // extensions are not called this cycle.
  const SymbolSet& skip_filter_plugins() const { return skip_filter_; }
  SymbolSet& skip_filter_plugins() { return skip_filter_; }
  // Plugins whose PreScore returned Skip: their Score is not called.
  const SymbolSet& skip_score_plugins() const { return skip_score_; }
  SymbolSet& skip_score_plugins() { return skip_score_; }

  // The nominations this cycle filters against, taken from the nominator
  // when the cycle starts; null when the nominator answers only per node (or
  // outside a cycle), and then the framework asks it per node. Clones share it.
  const NominatedPodsSnapshot* nominated_pods() const { return nominated_pods_.get(); }
  void set_nominated_pods(std::shared_ptr<const NominatedPodsSnapshot> pods) { nominated_pods_ = std::move(pods); }

  // The filter chain the framework derived once this cycle's PreFilter had
  // run, so per-node filter calls outside the main pass (the nominated-pods
  // pass, preemption's dry runs) need not derive it again. Clones share it.
  const std::shared_ptr<const ActiveFilterChain>& active_filter_chain() const { return active_filter_chain_; }
  void set_active_filter_chain(std::shared_ptr<const ActiveFilterChain> chain) {
    active_filter_chain_ = std::move(chain);
  }

  // Whether this cycle samples per-plugin durations (upstream: 10% of cycles).
  bool record_plugin_metrics() const { return record_plugin_metrics_; }
  void set_record_plugin_metrics(bool v) { record_plugin_metrics_ = v; }

 private:
  std::vector<std::pair<StateKey, std::unique_ptr<StateData>>> entries_;
  SymbolSet skip_filter_;
  SymbolSet skip_score_;
  bool record_plugin_metrics_ = false;
  std::shared_ptr<const NominatedPodsSnapshot> nominated_pods_;
  std::shared_ptr<const ActiveFilterChain> active_filter_chain_;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_CYCLE_STATE_H_
