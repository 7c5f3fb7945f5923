#include "schedkit/framework/cycle_state.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "schedkit/framework/nominated_pods.h"

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

void CycleState::Delete(StateKey key) {
  entries_.erase(std::remove_if(entries_.begin(), entries_.end(), [&](const auto& e) { return e.first == key; }),
                 entries_.end());
}

void CycleState::WrongType(StateKey key) {
  std::fprintf(stderr, "CycleState: the data under \"%.*s\" is not of the type read\n",
               static_cast<int>(key.str().size()), key.str().data());
  std::abort();
}

std::unique_ptr<CycleState> CycleState::Clone() const {
  auto out = std::make_unique<CycleState>();
  out->entries_.reserve(entries_.size());
  for (const auto& [k, v] : entries_) out->entries_.emplace_back(k, v ? v->Clone() : nullptr);
  out->skip_filter_ = skip_filter_;
  out->skip_score_ = skip_score_;
  out->nominated_pods_ = nominated_pods_;
  out->active_filter_chain_ = active_filter_chain_;
  return out;
}

}  // namespace schedkit::framework
