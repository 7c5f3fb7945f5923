#include "framework/outcome_memo.h"

#include <algorithm>

namespace schedkit::framework {

void OutcomeMemo::Entry::Reset(const Snapshot& snap) {
  layout_id_ = snap.layout_id();
  node_objects_id_ = snap.node_objects_id();
  filters_ = 0;
  scores_ = 0;
  passed_at_.assign(static_cast<size_t>(snap.NumNodes()), -1);
  nominated_.clear();
  scored_at_.assign(static_cast<size_t>(snap.NumNodes()), -1);
  total_at_.assign(static_cast<size_t>(snap.NumNodes()), -1);
  total_.resize(static_cast<size_t>(snap.NumNodes()));
  nonzero_.store(0, std::memory_order_relaxed);
  totals_key_.clear();
}

void OutcomeMemo::Entry::StoreScores(size_t plugin, std::span<const int32_t> positions,
                                     std::span<const int64_t> scores) {
  std::vector<int64_t>& column = raw_[plugin];
  uint64_t any = 0;
  for (size_t k = 0; k < positions.size(); ++k) {
    column[positions[k]] = scores[k];
    any |= static_cast<uint64_t>(scores[k]);
  }
  if (any != 0) nonzero_.fetch_or(uint64_t{1} << plugin, std::memory_order_relaxed);
}

int OutcomeMemo::Entry::UnpassedIn(int begin, int end, std::span<const int64_t> generations) const {
  int unpassed = 0;
  for (int i = begin; i < end; ++i) unpassed += passed_at_[i] != generations[i] ? 1 : 0;
  return unpassed;
}

void OutcomeMemo::Entry::CopyTotals(int begin, int end, std::span<const int64_t> generations, int64_t* out,
                                    int32_t index, std::vector<int32_t>& untotaled) const {
  std::copy(total_.begin() + begin, total_.begin() + end, out);
  // Blocks of positions, each checked by a vectorized count; only a block
  // with a stale total is looked at node by node.
  constexpr int kBlock = 64;
  for (int b = begin; b < end; b += kBlock) {
    const int e = std::min(end, b + kBlock);
    int stale = 0;
    for (int p = b; p < e; ++p) stale += total_at_[p] != generations[p] ? 1 : 0;
    for (int p = b; stale > 0 && p < e; ++p) {
      if (total_at_[p] == generations[p]) continue;
      untotaled.push_back(index + (p - begin));
      --stale;
    }
  }
}

void OutcomeMemo::Entry::BeginFilters(uint64_t filters) {
  if (filters == filters_) return;
  filters_ = filters;
  std::fill(passed_at_.begin(), passed_at_.end(), -1);
  nominated_.clear();
}

void OutcomeMemo::Entry::BeginScores(uint64_t scores, size_t score_plugins) {
  if (scores == scores_ && raw_.size() >= score_plugins) return;
  scores_ = scores;
  std::fill(scored_at_.begin(), scored_at_.end(), -1);
  // Totals are sums over this plugin set.
  std::fill(total_at_.begin(), total_at_.end(), -1);
  nonzero_.store(0, std::memory_order_relaxed);
  raw_.resize(std::max(raw_.size(), score_plugins));
  for (size_t p = 0; p < raw_.size(); ++p) {
    if (scores & (uint64_t{1} << p)) {
      raw_[p].resize(scored_at_.size());
    } else {
      raw_[p] = {};
    }
  }
}

bool OutcomeMemo::Entry::UseTotalsKey(std::span<const int64_t> key) {
  if (std::equal(key.begin(), key.end(), totals_key_.begin(), totals_key_.end())) return false;
  totals_key_.assign(key.begin(), key.end());
  std::fill(total_at_.begin(), total_at_.end(), -1);
  return true;
}

OutcomeMemo::Entry* OutcomeMemo::For(const PodInfo& pod, const Snapshot& snap) {
  ++uses_;
  const std::shared_ptr<const PodSignature>& sig = pod.signature();
  if (sig == nullptr) return nullptr;  // an assigned pod, scheduled only by a test
  Entry* entry = nullptr;
  for (const auto& e : entries_) {
    if (e->signature_ == sig || *e->signature_ == *sig) {
      entry = e.get();
      break;
    }
  }
  if (entry == nullptr) {
    // A hash seen before is taken as the signature come back; a collision
    // only gives an entry one pod early.
    if (std::find(seen_.begin(), seen_.end(), sig->hash) == seen_.end()) {
      seen_[next_seen_] = sig->hash;
      next_seen_ = (next_seen_ + 1) % kSeen;
      return nullptr;
    }
    if (entries_.size() < kEntries) {
      entries_.push_back(std::make_unique<Entry>());
      entry = entries_.back().get();
    } else {
      entry = std::min_element(entries_.begin(), entries_.end(), [](const auto& a, const auto& b) {
                return a->last_used_ < b->last_used_;
              })->get();
    }
    entry->signature_ = sig;
    entry->layout_id_ = -1;
  }
  entry->last_used_ = uses_;
  if (entry->layout_id_ != snap.layout_id() || entry->node_objects_id_ != snap.node_objects_id()) {
    entry->Reset(snap);
  }
  return entry;
}

}  // namespace schedkit::framework
