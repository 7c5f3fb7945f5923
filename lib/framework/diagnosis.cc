#include "schedkit/framework/diagnosis.h"

#include <algorithm>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"

#include "schedkit/base/str_cat.h"
#include "schedkit/framework/snapshot.h"

namespace schedkit::framework {

namespace {
// Lookups that may scan the unindexed entries before they get indexed: a
// scan costs a small fraction of indexing them, so this bounds the total.
constexpr int kScansBeforeIndexing = 4;
}  // namespace

NodeToStatus::NodeToStatus(const NodeToStatus& other)
    : entries_(other.entries_), statuses_(other.statuses_), absent_(other.absent_) {}

NodeToStatus& NodeToStatus::operator=(const NodeToStatus& other) {
  if (this == &other) return *this;
  entries_ = other.entries_;
  statuses_ = other.statuses_;
  absent_ = other.absent_;
  index_.clear();
  indexed_.store(0, std::memory_order_relaxed);
  scans_ = 0;
  return *this;
}

NodeToStatus::NodeToStatus(NodeToStatus&& other) noexcept
    : entries_(std::move(other.entries_)),
      statuses_(std::move(other.statuses_)),
      absent_(std::move(other.absent_)),
      index_(std::move(other.index_)),
      indexed_(other.indexed_.load(std::memory_order_relaxed)),
      scans_(other.scans_) {
  other.entries_.clear();
  other.index_.clear();
  other.indexed_.store(0, std::memory_order_relaxed);
}

NodeToStatus& NodeToStatus::operator=(NodeToStatus&& other) noexcept {
  if (this == &other) return *this;
  entries_ = std::move(other.entries_);
  statuses_ = std::move(other.statuses_);
  absent_ = std::move(other.absent_);
  index_ = std::move(other.index_);
  indexed_.store(other.indexed_.load(std::memory_order_relaxed), std::memory_order_relaxed);
  scans_ = other.scans_;
  other.entries_.clear();
  other.index_.clear();
  other.indexed_.store(0, std::memory_order_relaxed);
  return *this;
}

const Status& NodeToStatus::Find(Symbol node) const {
  if (auto it = index_.find(node); it != index_.end()) return statuses_[entries_[it->second].status];
  for (size_t i = indexed_.load(std::memory_order_relaxed); i < entries_.size(); ++i) {
    if (entries_[i].node == node) return statuses_[entries_[i].status];
  }
  return absent_;
}

const Status& NodeToStatus::Get(Symbol node) const {
  if (indexed_.load(std::memory_order_acquire) < entries_.size()) {
    std::lock_guard<std::mutex> lock(index_mu_);
    if (indexed_.load(std::memory_order_relaxed) < entries_.size()) {
      if (scans_ < kScansBeforeIndexing) {
        ++scans_;
        return Find(node);
      }
      IndexAppended();
    }
  }
  return Find(node);
}

void NodeToStatus::AddStatus(Status&& status) {
  // An equal status joins the run and is left untouched: moving from it would
  // write to memory a filter thread just wrote, for nothing.
  if (statuses_.empty() || !(statuses_.back() == status)) statuses_.push_back(std::move(status));
}

void NodeToStatus::IndexAppended() const {
  size_t i = indexed_.load(std::memory_order_relaxed);
  for (; i < entries_.size(); ++i) index_.emplace(entries_[i].node, static_cast<uint32_t>(i));
  indexed_.store(i, std::memory_order_release);
}

void NodeToStatus::Set(Symbol node, Status status) {
  IndexAppended();
  AddStatus(std::move(status));
  const auto status_index = static_cast<uint32_t>(statuses_.size() - 1);
  auto [it, inserted] = index_.try_emplace(node, static_cast<uint32_t>(entries_.size()));
  if (inserted) {
    entries_.push_back(Entry{node, status_index});
    indexed_.store(entries_.size(), std::memory_order_relaxed);
  } else {
    entries_[it->second].status = status_index;
  }
}

void NodeToStatus::SetNew(Symbol node, Status&& status) {
  AddStatus(std::move(status));
  entries_.push_back(Entry{node, static_cast<uint32_t>(statuses_.size() - 1)});
}

void NodeToStatus::Reserve(size_t n) { entries_.reserve(n); }

void NodeToStatus::ForEachExplicitNode(const std::function<void(Symbol, const Status&)>& fn) const {
  for (const Entry& e : entries_) fn(e.node, statuses_[e.status]);
}

void NodeToStatus::ForEachStatusCount(const std::function<void(const Status&, int)>& fn) const {
  std::vector<int> counts(statuses_.size(), 0);
  for (const Entry& e : entries_) ++counts[e.status];
  for (size_t i = 0; i < statuses_.size(); ++i) {
    if (counts[i] > 0) fn(statuses_[i], counts[i]);
  }
}

std::vector<const NodeInfo*> NodeToStatus::NodesForStatusCode(const Snapshot& snapshot, Code code) const {
  const std::span<const NodeInfo* const> nodes = snapshot.nodes();
  const size_t n = nodes.size();
  // Per snapshot position: explicit status code matches (1), does not (0),
  // or no explicit status (2).
  std::vector<uint8_t> verdict(n, 2);
  // A filter pass sets nodes in snapshot order from a rotated start, skipping
  // those that pass: follow the snapshot with a cursor while the entries keep
  // that order, and look the rest up by name.
  size_t e = 0;
  if (!entries_.empty() && n > 0) {
    const int first = snapshot.IndexOf(entries_[0].node);
    if (first >= 0) {
      size_t at = static_cast<size_t>(first);
      for (size_t steps = 0; e < entries_.size() && steps < n; ++steps, at = at + 1 == n ? 0 : at + 1) {
        if (nodes[at]->name() != entries_[e].node) continue;
        verdict[at] = statuses_[entries_[e].status].code() == code ? 1 : 0;
        ++e;
      }
    }
  }
  for (; e < entries_.size(); ++e) {
    const int pos = snapshot.IndexOf(entries_[e].node);
    if (pos >= 0) verdict[pos] = statuses_[entries_[e].status].code() == code ? 1 : 0;
  }
  const uint8_t absent = absent_.code() == code ? 1 : 0;
  std::vector<const NodeInfo*> out;
  for (size_t i = 0; i < n; ++i) {
    if ((verdict[i] == 2 ? absent : verdict[i]) == 1) out.push_back(nodes[i]);
  }
  return out;
}

std::string FitError::Message() const {
  std::string msg = schedkit::StrCat("0/", num_all_nodes, " nodes are available:");
  if (!diagnosis.pre_filter_msg.empty()) {
    // The PreFilter rejection was copied to every node; counting it per node
    // would only repeat it.
    schedkit::StrAppend(&msg, " ", diagnosis.pre_filter_msg, ".");
  } else {
    // A failed pass has one status per node but only a few distinct reasons,
    // mostly interned: count them in a short list, comparing the text only
    // when the storage differs. The views stay valid while `diagnosis` lives.
    struct Count {
      std::string_view reason;
      int count;
    };
    constexpr size_t kLinearReasons = 16;  // past this many, an index by text
    absl::InlinedVector<Count, kLinearReasons> histogram;
    absl::flat_hash_map<std::string_view, size_t> index;
    auto add = [&](std::string_view reason, int n) {
      if (histogram.size() <= kLinearReasons) {
        for (Count& c : histogram) {
          if ((c.reason.data() == reason.data() && c.reason.size() == reason.size()) || c.reason == reason) {
            c.count += n;
            return;
          }
        }
        histogram.push_back({reason, n});
        if (histogram.size() > kLinearReasons) {
          for (size_t i = 0; i < histogram.size(); ++i) index.emplace(histogram[i].reason, i);
        }
        return;
      }
      auto [it, inserted] = index.emplace(reason, histogram.size());
      if (inserted) {
        histogram.push_back({reason, n});
      } else {
        histogram[it->second].count += n;
      }
    };
    const NodeToStatus& nts = diagnosis.node_to_status;
    nts.ForEachStatusCount([&](const Status& s, int nodes) {
      for (size_t i = 0; i < s.num_reasons(); ++i) add(s.reason(i), nodes);
    });
    if (static_cast<int>(nts.size()) < num_all_nodes) {
      const Status& absent = nts.absent_status();
      for (size_t i = 0; i < absent.num_reasons(); ++i) {
        add(absent.reason(i), num_all_nodes - static_cast<int>(nts.size()));
      }
    }
    // Sorted as strings, count first, as upstream does ("10 x" < "2 y").
    std::vector<std::string> entries;
    entries.reserve(histogram.size());
    for (const Count& c : histogram) entries.push_back(schedkit::StrCat(c.count, " ", c.reason));
    std::sort(entries.begin(), entries.end());
    if (!entries.empty()) {
      msg += " ";
      for (size_t i = 0; i < entries.size(); ++i) {
        if (i > 0) msg += ", ";
        msg += entries[i];
      }
      msg += ".";
    }
  }
  // PostFilter messages (preemption's) carry their own punctuation.
  if (!diagnosis.post_filter_msg.empty()) schedkit::StrAppend(&msg, " ", diagnosis.post_filter_msg);
  return msg;
}

}  // namespace schedkit::framework
