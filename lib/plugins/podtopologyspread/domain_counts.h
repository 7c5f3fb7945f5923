// Internal to PodTopologySpread: pods matching a set of constraints per
// topology domain over every node of the snapshot, kept across cycles.
//
// Upstream recounts every pod on every node for every pod it schedules. The
// count of a node depends only on that node (its labels and pods) and on the
// query (namespace, selectors, topology keys), and pods of one workload ask
// the same query again and again; so the cache keeps each node's count and
// per-domain sums, and a cycle recounts only the nodes whose generation moved
// since the query was last asked. The result equals a full recount.
//
// Valid only for pods whose node inclusion does not depend on the pod itself
// (no nodeSelector or required node affinity, no constraint honouring
// taints); the plugin falls back to counting for the others.
#ifndef SCHEDKIT_LIB_PLUGINS_PODTOPOLOGYSPREAD_DOMAIN_COUNTS_H_
#define SCHEDKIT_LIB_PLUGINS_PODTOPOLOGYSPREAD_DOMAIN_COUNTS_H_

#include <cstdint>
#include <list>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/synchronization/mutex.h"
#include "plugins/internal/node_changes.h"
#include "plugins/podtopologyspread/pod_topology_spread.h"
#include "schedkit/framework/parallelizer.h"
#include "schedkit/framework/snapshot.h"

namespace schedkit::plugins::podtopologyspread_internal {

class DomainCountsCache {
 public:
  struct Domain {
    Symbol value;
    int64_t count = 0;  // matching pods
    int32_t nodes = 0;  // eligible nodes in the domain
    int32_t first = 0;  // position of its first eligible node
  };
  // Per constraint, every domain with at least one eligible node, in the
  // order of each domain's first eligible node in Snapshot::nodes().
  using Result = std::vector<std::vector<Domain>>;

  // Counts for `constraints` of a pod in namespace `ns` over
  // snapshot.nodes(). With `require_all_keys`, a node lacking any
  // constraint's topology key is not eligible; without, its domain for a
  // missing key is "". The reference stays valid until the next call.
  const Result& Get(const framework::Snapshot& snapshot, framework::Parallelizer& parallelizer, Symbol ns,
                    bool require_all_keys, const std::vector<PodTopologySpread::Constraint>& constraints);

 private:
  // What one node adds to one constraint's domain; count < 0: not eligible.
  struct Contribution {
    Symbol value;
    int64_t count = -1;
  };
  struct Entry {
    Symbol ns;
    bool require_all_keys = false;
    std::vector<PodTopologySpread::Constraint> constraints;
    internal::NodeChangeTracker tracker;
    std::vector<Contribution> contributions;  // node-major, constraints.size() per node
    // Per constraint: the domains (between updates, also ones whose last
    // node left, with nodes == 0), and each value's position among them.
    Result domains;
    std::vector<absl::flat_hash_map<Symbol, int32_t>> index;

    bool Answers(Symbol ns, bool require_all_keys,
                 const std::vector<PodTopologySpread::Constraint>& constraints) const;
    void CountNode(const framework::NodeInfo& node, Contribution* out) const;
    void Recount(const framework::Snapshot& snapshot, framework::Parallelizer& parallelizer);
    // Moves node `n`'s contributions to `fresh`; returns whether the domain
    // order may have changed.
    bool Replace(int n, const Contribution* fresh);
    Domain& DomainOf(size_t k, Symbol value, int n);
    void RecomputeFirsts(size_t num_nodes);
    void RebuildOrder();
  };

  // A handful of recent queries, most recent first: workloads interleave.
  static constexpr size_t kMaxEntries = 16;

  absl::Mutex mu_;
  std::list<Entry> entries_ ABSL_GUARDED_BY(mu_);
  std::vector<int> changed_ ABSL_GUARDED_BY(mu_);
};

}  // namespace schedkit::plugins::podtopologyspread_internal

#endif  // SCHEDKIT_LIB_PLUGINS_PODTOPOLOGYSPREAD_DOMAIN_COUNTS_H_
