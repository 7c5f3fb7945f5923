#include "plugins/podtopologyspread/domain_counts.h"

#include <algorithm>
#include <limits>

#include "absl/container/inlined_vector.h"
#include "plugins/podtopologyspread/common.h"

namespace schedkit::plugins::podtopologyspread_internal {

bool DomainCountsCache::Entry::Answers(Symbol query_ns, bool query_require_all_keys,
                                       const std::vector<Constraint>& query) const {
  if (query_ns != ns || query_require_all_keys != require_all_keys || query.size() != constraints.size()) {
    return false;
  }
  for (size_t k = 0; k < query.size(); ++k) {
    const Constraint& a = query[k];
    const Constraint& b = constraints[k];
    if (a.topology_key != b.topology_key || a.counts_pods != b.counts_pods || !(a.selector == b.selector)) {
      return false;
    }
  }
  return true;
}

void DomainCountsCache::Entry::CountNode(const framework::NodeInfo& node, Contribution* out) const {
  const size_t num = constraints.size();
  if (node.node() == nullptr || (require_all_keys && !NodeHasAllTopologyKeys(node, constraints))) {
    for (size_t k = 0; k < num; ++k) out[k] = Contribution{};
    return;
  }
  absl::InlinedVector<int64_t, 4> counts(num, 0);
  CountPodsMatchSelectors(node.pods(), constraints, ns, counts.data());
  for (size_t k = 0; k < num; ++k) {
    out[k] = Contribution{TopologyValueOrEmpty(node, constraints[k]), counts[k]};
  }
}

DomainCountsCache::Domain& DomainCountsCache::Entry::DomainOf(size_t k, Symbol value, int n) {
  auto [it, inserted] = index[k].try_emplace(value, static_cast<int32_t>(domains[k].size()));
  if (inserted) domains[k].push_back(Domain{value, 0, 0, n});
  return domains[k][it->second];
}

void DomainCountsCache::Entry::Recount(const framework::Snapshot& snapshot,
                                       framework::Parallelizer& parallelizer) {
  const std::span<const framework::NodeInfo* const> nodes = snapshot.nodes();
  const size_t num = constraints.size();
  contributions.assign(nodes.size() * num, Contribution{});
  parallelizer.ForEach(static_cast<int>(nodes.size()),
                       [&](int n) { CountNode(*nodes[n], &contributions[n * num]); });
  domains.assign(num, {});
  index.assign(num, {});
  // In node order, so each domain's `first` is set when it is created.
  for (size_t n = 0; n < nodes.size(); ++n) {
    for (size_t k = 0; k < num; ++k) {
      const Contribution& c = contributions[n * num + k];
      if (c.count < 0) continue;
      Domain& d = DomainOf(k, c.value, static_cast<int>(n));
      ++d.nodes;
      d.count += c.count;
    }
  }
}

bool DomainCountsCache::Entry::Replace(int n, const Contribution* fresh) {
  const size_t num = constraints.size();
  bool order_changed = false;
  bool first_left = false;
  for (size_t k = 0; k < num; ++k) {
    Contribution& old = contributions[n * num + k];
    const Contribution& now = fresh[k];
    if (old.count >= 0 && now.count >= 0 && old.value == now.value) {
      domains[k][index[k].at(old.value)].count += now.count - old.count;  // the common case
    } else {
      if (old.count >= 0) {
        Domain& d = domains[k][index[k].at(old.value)];
        d.count -= old.count;
        if (--d.nodes == 0) {
          order_changed = true;
        } else if (d.first == n) {
          first_left = true;
        }
      }
      if (now.count >= 0) {
        Domain& d = DomainOf(k, now.value, n);
        if (d.nodes++ == 0 || n < d.first) {
          d.first = n;
          order_changed = true;
        }
        d.count += now.count;
      }
    }
    old = now;
  }
  if (first_left) {
    RecomputeFirsts(contributions.size() / std::max<size_t>(num, 1));
    order_changed = true;
  }
  return order_changed;
}

void DomainCountsCache::Entry::RecomputeFirsts(size_t num_nodes) {
  const size_t num = constraints.size();
  for (auto& list : domains) {
    for (Domain& d : list) d.first = std::numeric_limits<int32_t>::max();
  }
  for (size_t n = 0; n < num_nodes; ++n) {
    for (size_t k = 0; k < num; ++k) {
      const Contribution& c = contributions[n * num + k];
      if (c.count < 0) continue;
      Domain& d = domains[k][index[k].at(c.value)];
      d.first = std::min(d.first, static_cast<int32_t>(n));
    }
  }
}

void DomainCountsCache::Entry::RebuildOrder() {
  for (size_t k = 0; k < domains.size(); ++k) {
    std::vector<Domain>& list = domains[k];
    std::erase_if(list, [](const Domain& d) { return d.nodes == 0; });
    std::sort(list.begin(), list.end(), [](const Domain& a, const Domain& b) { return a.first < b.first; });
    index[k].clear();
    for (size_t j = 0; j < list.size(); ++j) index[k][list[j].value] = static_cast<int32_t>(j);
  }
}

const DomainCountsCache::Result& DomainCountsCache::Get(const framework::Snapshot& snapshot,
                                                        framework::Parallelizer& parallelizer, Symbol ns,
                                                        bool require_all_keys,
                                                        const std::vector<Constraint>& constraints) {
  absl::MutexLock lock(&mu_);
  auto it = std::find_if(entries_.begin(), entries_.end(),
                         [&](const Entry& e) { return e.Answers(ns, require_all_keys, constraints); });
  if (it == entries_.end()) {
    if (entries_.size() == kMaxEntries) entries_.pop_back();
    entries_.emplace_front();
    Entry& e = entries_.front();
    e.ns = ns;
    e.require_all_keys = require_all_keys;
    e.constraints = constraints;
  } else if (it != entries_.begin()) {
    entries_.splice(entries_.begin(), entries_, it);
  }
  Entry& e = entries_.front();

  if (e.tracker.Sync(snapshot, changed_)) {
    e.Recount(snapshot, parallelizer);
    return e.domains;
  }
  const std::span<const framework::NodeInfo* const> nodes = snapshot.nodes();
  absl::InlinedVector<Contribution, 4> fresh(constraints.size());
  bool order_changed = false;
  for (int n : changed_) {
    e.CountNode(*nodes[n], fresh.data());
    order_changed |= e.Replace(n, fresh.data());
  }
  if (order_changed) e.RebuildOrder();
  return e.domains;
}

}  // namespace schedkit::plugins::podtopologyspread_internal
