#include "schedkit/framework/cycle_state.h"

#include <algorithm>

namespace schedkit::framework {

void CycleState::Write(StateKey key, std::unique_ptr<StateData> data) {
  for (auto& [k, v] : entries_) {
    if (k == key) {
      v = std::move(data);
      return;
    }
  }
  entries_.emplace_back(key, std::move(data));
}

const StateData* CycleState::ReadData(StateKey key) const {
  for (const auto& [k, v] : entries_) {
    if (k == key) return v.get();
  }
  return nullptr;
}

StateData* CycleState::MutableData(StateKey key) {
  for (auto& [k, v] : entries_) {
    if (k == key) return v.get();
  }
  return nullptr;
}

void CycleState::DeleteSchedulingCycleOnly() {
  std::erase_if(entries_, [](const auto& e) { return e.second->SchedulingCycleOnly(); });
}

void CycleState::Delete(StateKey key) {
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(), [&](const auto& e) { return e.first == key; }),
                 entries_.end());
}

std::unique_ptr<CycleState> CycleState::Clone() const {
  auto out = std::make_unique<CycleState>();
  out->entries_.reserve(entries_.size());
  for (const auto& [k, v] : entries_) out->entries_.emplace_back(k, v ? v->Clone() : nullptr);
  out->skip_filter_ = skip_filter_;
  out->skip_score_ = skip_score_;
  out->record_plugin_metrics_ = record_plugin_metrics_;
  out->nominated_pods_ = nominated_pods_;
  out->active_filter_chain_ = active_filter_chain_;
  return out;
}

}  // namespace schedkit::framework
