// OutcomeMemo: per-node outcomes of the plugins whose Filter and Score depend
// on the one node alone (Plugin::OutcomesArePerNode), kept across cycles for
// the pods of one signature (PodInfo::signature). A workload's replicas ask
// the same questions of mostly unchanged nodes: once a node passed this
// signature's per-node filters, or got its per-node scores, the next replica
// reuses them for as long as the node's generation stays the one they were
// found at. Plugins that are not per node still run on every node.
//
// An entry stands for one signature in one snapshot layout with one set of
// node objects (ImageLocality reads how many nodes hold an image); a new
// layout or any changed node object empties it. Outcomes are per snapshot
// position. Only passes are kept, so a rejected node is filtered again and
// its status is fresh; the exception is the nominated-pods pass, whose
// verdict (pass or status) a node keeps while its nominations stay the same
// list: preemptors that pile up nominations would otherwise copy and filter
// every nominated node in every cycle.
//
// Thread-safety: one cycle at a time (the framework's). During a cycle's
// parallel passes each task reads and writes only its own positions.
#ifndef SCHEDKIT_LIB_FRAMEWORK_OUTCOME_MEMO_H_
#define SCHEDKIT_LIB_FRAMEWORK_OUTCOME_MEMO_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "schedkit/framework/nominated_pods.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/snapshot.h"
#include "schedkit/framework/status.h"

namespace schedkit::framework {

class OutcomeMemo {
 public:
  // One signature's outcomes. Plugin sets are bit masks over the
  // framework's filter or score plugins, by their index there.
  class Entry {
   public:
    // Whether the node at `position` passed every per-node filter of
    // `filters` (the set BeginFilters named) at its current generation.
    bool Passed(int position, std::span<const int64_t> generations) const {
      return passed_at_[position] == generations[position];
    }
    void SetPassed(int position, std::span<const int64_t> generations) {
      passed_at_[position] = generations[position];
    }
    // How many nodes at positions [begin, end) did not pass at their
    // current generation: one compare per node, no branch, vectorized.
    int UnpassedIn(int begin, int end, std::span<const int64_t> generations) const;
    bool Scored(int position, std::span<const int64_t> generations) const {
      return scored_at_[position] == generations[position];
    }
    // Marks the node's scores (stored with Score) as current.
    void SetScored(int position, std::span<const int64_t> generations) {
      scored_at_[position] = generations[position];
    }
    // The per-node score plugin `plugin`'s raw score column, by position.
    std::span<const int64_t> Scores(size_t plugin) const { return raw_[plugin]; }
    // Keeps `plugin`'s raw scores of the nodes at `positions` (SetScored
    // then marks them current). Tasks may store disjoint positions at once.
    void StoreScores(size_t plugin, std::span<const int32_t> positions, std::span<const int64_t> scores);
    // Whether `plugin`'s column has held a nonzero score since its scores
    // were last forgotten: until one does, its maximum is 0 without a look.
    bool MayHoldNonzeroScore(size_t plugin) const {
      return (nonzero_.load(std::memory_order_relaxed) >> plugin) & 1;
    }

    // A node's total (weighted sum over the cycle's score plugins, every one
    // per node, normalized), valid while the node's generation and the
    // totals key stay the ones it was found with.
    bool HasTotal(int position, std::span<const int64_t> generations) const {
      return total_at_[position] == generations[position];
    }
    int64_t Total(int position) const { return total_[position]; }
    void SetTotal(int position, std::span<const int64_t> generations, int64_t total) {
      total_at_[position] = generations[position];
      total_[position] = total;
    }
    // Copies the totals at positions [begin, end) to `out` and appends to
    // `untotaled` the indices (`index` for `begin`, on from there) of the
    // nodes without a current total, which `out` then holds garbage for.
    void CopyTotals(int begin, int end, std::span<const int64_t> generations, int64_t* out, int32_t index,
                    std::vector<int32_t>& untotaled) const;
    // The key of the totals: the column maxima the normalizing plugins
    // scaled by. A key other than the totals' own forgets them all; returns
    // whether it did.
    bool UseTotalsKey(std::span<const int64_t> key);

    // The nominated-pods pass (Framework::RunFilterPluginsWithNominatedPods)
    // on the node at `position` for a pod not among `nominated`, the node's
    // nominations (the same list object is the same nominations): its status
    // when kept at the node's current generation, else null. The signature
    // holds spec.priority, which picks the nominees that join the pass. Kept
    // only while every active filter is per node.
    const Status* NominatedVerdict(int position, std::span<const int64_t> generations,
                                   const NominatedPodsSnapshot::PodList& nominated) const {
      const NominatedPass& v = nominated_[position];
      if (v.generation != generations[position] || v.nominated != nominated) return nullptr;
      return &v.status;
    }
    void SetNominatedVerdict(int position, std::span<const int64_t> generations,
                             const NominatedPodsSnapshot::PodList& nominated, Status status) {
      nominated_[position] = NominatedPass{generations[position], nominated, std::move(status)};
    }
    // Sizes the verdicts before a parallel pass reads or sets them.
    void PrepareNominatedVerdicts() { nominated_.resize(passed_at_.size()); }

    // Start of a cycle's filter pass with this set of active per-node
    // filters: passes found with another set are forgotten.
    void BeginFilters(uint64_t filters);
    // The same for the score pass; `score_plugins` is how many score
    // plugins the framework has.
    void BeginScores(uint64_t scores, size_t score_plugins);

   private:
    friend class OutcomeMemo;
    void Reset(const Snapshot& snap);

    std::shared_ptr<const PodSignature> signature_;
    int64_t layout_id_ = -1;
    int64_t node_objects_id_ = -1;
    uint64_t filters_ = 0;
    uint64_t scores_ = 0;
    // Generation at which the node passed / was scored; -1 for never.
    std::vector<int64_t> passed_at_;
    struct NominatedPass {
      int64_t generation = -1;
      // Held, so that no later list can take its address while it is kept.
      NominatedPodsSnapshot::PodList nominated;
      Status status;
    };
    std::vector<NominatedPass> nominated_;  // sized on first use
    std::vector<int64_t> scored_at_;
    // Per score plugin index (only those in scores_ are sized), per position.
    std::vector<std::vector<int64_t>> raw_;
    std::atomic<uint64_t> nonzero_{0};  // score plugins whose column may hold a nonzero
    std::vector<int64_t> total_at_;  // generation of each total; -1 for none
    std::vector<int64_t> total_;
    std::vector<int64_t> totals_key_;
    uint64_t last_used_ = 0;
  };

  // Signatures kept at once; the least recently used one makes room.
  static constexpr size_t kEntries = 8;
  // Signatures remembered as seen once (by hash), so that a second pod of
  // one gets an entry.
  static constexpr size_t kSeen = 64;

  // The entry for `pod`'s signature in `snap`, emptied first when the
  // snapshot's layout or node objects changed since its last use; null the
  // first time a signature is seen. Storing outcomes costs more than
  // computing them, and only pays back when a later pod of the signature
  // reads them: a signature earns an entry by coming back, so pods that are
  // all different (batch jobs, each pod its own size) run as if the memo
  // were off, and a workload's replicas lose the memo for their first pod.
  Entry* For(const PodInfo& pod, const Snapshot& snap);

 private:
  std::vector<std::unique_ptr<Entry>> entries_;
  uint64_t uses_ = 0;
  std::array<uint64_t, kSeen> seen_{};  // signature hashes, a ring
  size_t next_seen_ = 0;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_LIB_FRAMEWORK_OUTCOME_MEMO_H_
