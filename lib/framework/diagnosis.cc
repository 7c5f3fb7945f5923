#include "schedkit/framework/diagnosis.h"

#include <algorithm>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"

#include "schedkit/api/str_cat.h"
#include "schedkit/framework/snapshot.h"

namespace schedkit::framework {

const Status& NodeToStatus::Get(Symbol node) const {
  auto it = index_.find(node);
  return it == index_.end() ? absent_ : statuses_[entries_[it->second].status];
}

void NodeToStatus::Set(Symbol node, Status status) {
  if (statuses_.empty() || !(statuses_.back() == status)) statuses_.push_back(std::move(status));
  const auto status_index = static_cast<uint32_t>(statuses_.size() - 1);
  auto [it, inserted] = index_.try_emplace(node, static_cast<uint32_t>(entries_.size()));
  if (inserted) {
    entries_.push_back(Entry{node, status_index});
  } else {
    entries_[it->second].status = status_index;
  }
}

void NodeToStatus::Reserve(size_t n) {
  entries_.reserve(n);
  index_.reserve(n);
}

void NodeToStatus::ForEachExplicitNode(const std::function<void(Symbol, const Status&)>& fn) const {
  for (const Entry& e : entries_) fn(e.node, statuses_[e.status]);
}

std::vector<const NodeInfo*> NodeToStatus::NodesForStatusCode(const Snapshot& snapshot, Code code) const {
  std::vector<const NodeInfo*> out;
  const bool absent_matches = absent_.code() == code;
  for (const NodeInfo* n : snapshot.nodes()) {
    auto it = index_.find(n->name());
    if (it == index_.end() ? absent_matches : statuses_[entries_[it->second].status].code() == code) {
      out.push_back(n);
    }
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
    nts.ForEachExplicitNode([&](Symbol, const Status& s) {
      for (size_t i = 0; i < s.num_reasons(); ++i) add(s.reason(i), 1);
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
