#include "schedkit/framework/diagnosis.h"

#include <algorithm>
#include <map>

#include "schedkit/api/str_cat.h"
#include "schedkit/framework/snapshot.h"

namespace schedkit::framework {

const Status& NodeToStatus::Get(Symbol node) const {
  auto it = statuses_.find(node);
  return it == statuses_.end() ? absent_ : it->second;
}

void NodeToStatus::ForEachExplicitNode(const std::function<void(Symbol, const Status&)>& fn) const {
  for (const auto& [node, status] : statuses_) fn(node, status);
}

std::vector<const NodeInfo*> NodeToStatus::NodesForStatusCode(const Snapshot& snapshot, Code code) const {
  std::vector<const NodeInfo*> out;
  const bool absent_matches = absent_.code() == code;
  for (const NodeInfo* n : snapshot.nodes()) {
    auto it = statuses_.find(n->name());
    if (it == statuses_.end() ? absent_matches : it->second.code() == code) out.push_back(n);
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
    std::map<std::string, int> histogram;
    const NodeToStatus& nts = diagnosis.node_to_status;
    nts.ForEachExplicitNode([&](Symbol, const Status& s) {
      for (size_t i = 0; i < s.num_reasons(); ++i) ++histogram[std::string(s.reason(i))];
    });
    if (static_cast<int>(nts.size()) < num_all_nodes) {
      const Status& absent = nts.absent_status();
      for (size_t i = 0; i < absent.num_reasons(); ++i) {
        histogram[std::string(absent.reason(i))] += num_all_nodes - static_cast<int>(nts.size());
      }
    }
    // Sorted as strings, count first, as upstream does ("10 x" < "2 y").
    std::vector<std::string> entries;
    entries.reserve(histogram.size());
    for (const auto& [reason, count] : histogram) entries.push_back(schedkit::StrCat(count, " ", reason));
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
