// Why a pod did not fit: per-node statuses, the plugins that rejected it, and
// FitError, whose message is upstream's text byte for byte:
//   "0/5 nodes are available: 2 Insufficient cpu, 3 node(s) had untolerated
//    taint(s). preemption: 0/5 nodes are available: ..."
#ifndef SCHEDKIT_FRAMEWORK_DIAGNOSIS_H_
#define SCHEDKIT_FRAMEWORK_DIAGNOSIS_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "schedkit/base/symbol.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/status.h"

namespace schedkit::framework {

class NodeInfo;
class Snapshot;

// Statuses of nodes that did not pass, by node name. Nodes never evaluated
// (absent) report `absent_status()` (UnschedulableAndUnresolvable by default).
class NodeToStatus {
 public:
  NodeToStatus() : absent_(Status(Code::kUnschedulableAndUnresolvable, std::initializer_list<Symbol>{})) {}
  // Copies leave the node index behind; it is rebuilt when needed.
  NodeToStatus(const NodeToStatus& other);
  NodeToStatus& operator=(const NodeToStatus& other);
  NodeToStatus(NodeToStatus&& other) noexcept;
  NodeToStatus& operator=(NodeToStatus&& other) noexcept;

  // After SetNew, the first few lookups scan the nodes it added (cheaper
  // than indexing them for one lookup, e.g. preemption's nominated node);
  // later ones index them first, under a lock, so that concurrent Gets stay
  // safe and a Get per node stays linear overall.
  const Status& Get(Symbol node) const;
  void Set(Symbol node, Status status);
  // Set for a node known to have no explicit status yet (a filter pass over
  // distinct nodes): it skips the node index, which a failing pass over
  // thousands of nodes would spend most of its bookkeeping on. Later calls
  // to Set index the appended nodes first.
  void SetNew(Symbol node, Status&& status);
  // Room for `n` explicit statuses in all, so a pass that rejects thousands
  // of nodes does not regrow on the way.
  void Reserve(size_t n);
  void SetAbsentNodesStatus(Status status) { absent_ = std::move(status); }
  const Status& absent_status() const { return absent_; }
  // Number of nodes with an explicit status.
  size_t size() const { return entries_.size(); }
  // In the order the nodes were first set.
  void ForEachExplicitNode(const std::function<void(Symbol, const Status&)>& fn) const;
  // Each distinct status held by some node, with how many nodes hold it, in
  // no particular order (what FitError's message counts).
  void ForEachStatusCount(const std::function<void(const Status&, int)>& fn) const;
  // Nodes of the snapshot whose status (explicit or absent) has `code`, in
  // snapshot order; what preemption takes as candidates.
  std::vector<const NodeInfo*> NodesForStatusCode(const Snapshot& snapshot, Code code) const;

 private:
  // A failing pass sets thousands of nodes, mostly in runs with one status
  // (say, "Insufficient cpu" from NodeResourcesFit): such a run stores the
  // status once, and the map holds small entries only.
  struct Entry {
    Symbol node;
    uint32_t status;  // index into statuses_
  };
  void AddStatus(Status&& status);
  // Indexes entries_[indexed_, end); the caller holds index_mu_ or has the
  // object to itself.
  void IndexAppended() const;
  // The status of `node`, looking at the index and the unindexed entries.
  const Status& Find(Symbol node) const;

  std::vector<Entry> entries_;
  std::vector<Status> statuses_;
  Status absent_;
  // node -> index into entries_[0, indexed_). Const lookups may extend it:
  // writes happen under index_mu_, and readers without the lock see
  // indexed_ == entries_.size() (acquire) first, after which nothing writes.
  mutable absl::flat_hash_map<Symbol, uint32_t> index_;
  mutable std::atomic<size_t> indexed_{0};
  mutable std::mutex index_mu_;
  mutable int scans_ = 0;  // lookups that scanned the unindexed entries; under index_mu_
};

struct Diagnosis {
  NodeToStatus node_to_status;
  absl::flat_hash_set<Symbol> unschedulable_plugins;
  absl::flat_hash_set<Symbol> pending_plugins;
  std::string pre_filter_msg;
  std::string post_filter_msg;
};

struct FitError {
  PodInfoPtr pod;
  int num_all_nodes = 0;
  Diagnosis diagnosis;

  // upstream's FitError.Error().
  std::string Message() const;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_DIAGNOSIS_H_
