// Internal to InterPodAffinity: per (topology key, value) sums of what every
// node of the snapshot contributes for one query, kept across cycles.
//
// Upstream walks every pod on every node for every pod it schedules. What a
// node contributes depends only on that node (labels, pods) and on the query
// (the incoming pod's terms, or its namespace and labels), and pods of one
// workload ask the same query again and again; so the cache keeps each
// node's hits and their sums, and a cycle redoes only the nodes whose
// generation moved since the query was last asked. The sums equal a full
// recount.
#ifndef SCHEDKIT_LIB_PLUGINS_INTERPODAFFINITY_HIT_SUMS_H_
#define SCHEDKIT_LIB_PLUGINS_INTERPODAFFINITY_HIT_SUMS_H_

#include <algorithm>
#include <cstdint>
#include <list>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "plugins/interpodaffinity/inter_pod_affinity.h"
#include "plugins/interpodaffinity/matching.h"
#include "plugins/internal/node_changes.h"
#include "schedkit/framework/parallelizer.h"
#include "schedkit/framework/snapshot.h"

namespace schedkit::plugins::interpodaffinity {

// Sums for PreFilter: every hit adds 1, so a pair exists while its count is
// positive, exactly TopologyCounts::Update's rule. Handing the counts to a
// cycle's state shares the table (copy on write).
struct CountSums {
  TopologyCounts counts;
  void Apply(const std::vector<Hit>& hits, int sign) {
    for (const Hit& h : hits) counts.Update(h.key, h.value, sign * h.delta);
  }
};

// Sums for PreScore: deltas are weights and may cancel, and a pair exists
// while some hit creates it even when its weights sum to zero; so each pair
// also counts its hits.
struct ScoreSums {
  struct Sum {
    Symbol key;
    Symbol value;
    int64_t sum = 0;
    int32_t hits = 0;
  };
  absl::flat_hash_map<uint64_t, Sum> sums;  // TopologyCounts::Pack(key, value)

  void Apply(const std::vector<Hit>& hits, int sign) {
    for (const Hit& h : hits) {
      const uint64_t packed = TopologyCounts::Pack(h.key, h.value);
      Sum& s = sums.try_emplace(packed, Sum{h.key, h.value, 0, 0}).first->second;
      s.sum += sign * h.delta;
      s.hits += sign;
      if (s.hits == 0) sums.erase(packed);
    }
  }
};

// `Query` is any equality-comparable value that, with the snapshot's node,
// fully determines a node's hits; `Sums` is CountSums or ScoreSums.
template <typename Query, typename Sums>
class HitSumsCache {
 public:
  // The sums of `node_hits(node, out)` over snapshot.nodes(). `node_hits`
  // must append the hits `query` gives for one node; it runs for the nodes
  // changed since the query's last call (every node on the first), in
  // parallel. The reference stays valid until the next call.
  template <typename NodeHits>
  const Sums& Get(const framework::Snapshot& snapshot, framework::Parallelizer& parallelizer,
                  const Query& query, const NodeHits& node_hits) {
    absl::MutexLock lock(&mu_);
    auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.query == query; });
    if (it == entries_.end()) {
      if (entries_.size() == kMaxEntries) entries_.pop_back();
      entries_.emplace_front();
      entries_.front().query = query;
    } else if (it != entries_.begin()) {
      entries_.splice(entries_.begin(), entries_, it);
    }
    Entry& e = entries_.front();
    const std::span<const framework::NodeInfo* const> nodes = snapshot.nodes();

    if (e.tracker.Sync(snapshot, changed_)) {
      e.per_node.assign(nodes.size(), {});
      parallelizer.ForEach(static_cast<int>(nodes.size()), [&](int n) { node_hits(*nodes[n], e.per_node[n]); });
      e.sums = Sums();
      for (const std::vector<Hit>& hits : e.per_node) e.sums.Apply(hits, 1);
      return e.sums;
    }
    for (int n : changed_) {
      e.sums.Apply(e.per_node[n], -1);
      e.per_node[n].clear();
      node_hits(*nodes[n], e.per_node[n]);
      e.sums.Apply(e.per_node[n], 1);
    }
    return e.sums;
  }

 private:
  struct Entry {
    Query query;
    internal::NodeChangeTracker tracker;
    std::vector<std::vector<Hit>> per_node;  // aligned with Snapshot::nodes()
    Sums sums;
  };
  static constexpr size_t kMaxEntries = 16;  // workloads interleave

  absl::Mutex mu_;
  std::list<Entry> entries_ ABSL_GUARDED_BY(mu_);
  std::vector<int> changed_ ABSL_GUARDED_BY(mu_);
};

// What each cached computation depends on besides the node. Every query
// names the snapshot's namespace labels, which namespace selectors read.
struct ExistingAntiAffinityQuery {
  Symbol ns;  // the incoming pod's namespace and labels, projected onto
  api::LabelSet labels;  // the keys affinity terms name (AffinityLabelKeys)
  int64_t namespaces_id = 0;
  friend bool operator==(const ExistingAntiAffinityQuery&, const ExistingAntiAffinityQuery&) = default;
};
struct IncomingTermsQuery {
  bool affinity = false;  // all terms must match (affinity), or each counts (anti-affinity)
  std::vector<framework::AffinityTerm> terms;
  int64_t namespaces_id = 0;
  friend bool operator==(const IncomingTermsQuery&, const IncomingTermsQuery&) = default;
};
struct PreScoreQuery {
  Symbol ns;
  api::LabelSet labels;  // projected, as ExistingAntiAffinityQuery's
  std::vector<framework::WeightedAffinityTerm> preferred_affinity;
  std::vector<framework::WeightedAffinityTerm> preferred_anti_affinity;
  int64_t namespaces_id = 0;
  friend bool operator==(const PreScoreQuery&, const PreScoreQuery&) = default;
};

}  // namespace schedkit::plugins::interpodaffinity

namespace schedkit::plugins {

struct InterPodAffinity::Caches {
  interpodaffinity::HitSumsCache<interpodaffinity::ExistingAntiAffinityQuery, interpodaffinity::CountSums>
      existing_anti_affinity;
  interpodaffinity::HitSumsCache<interpodaffinity::IncomingTermsQuery, interpodaffinity::CountSums> incoming;
  interpodaffinity::HitSumsCache<interpodaffinity::PreScoreQuery, interpodaffinity::ScoreSums> pre_score;
};

}  // namespace schedkit::plugins

#endif  // SCHEDKIT_LIB_PLUGINS_INTERPODAFFINITY_HIT_SUMS_H_
