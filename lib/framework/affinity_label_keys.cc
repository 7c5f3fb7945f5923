#include "framework/affinity_label_keys.h"

#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/synchronization/mutex.h"

namespace schedkit::framework {
namespace {

struct Keys {
  absl::Mutex mu;
  absl::flat_hash_set<Symbol> keys ABSL_GUARDED_BY(mu);
};

Keys& Registry() {
  static Keys* const keys = new Keys();  // never destroyed: used until exit
  return *keys;
}

}  // namespace

void AffinityLabelKeys::Note(const api::LabelSelector& selector) {
  Keys& r = Registry();
  {
    // Pods of one workload name the same keys: most calls only read.
    absl::ReaderMutexLock lock(&r.mu);
    bool all_known = true;
    for (const api::LabelRequirement& req : selector.requirements()) all_known = all_known && r.keys.contains(req.key);
    if (all_known) return;
  }
  absl::MutexLock lock(&r.mu);
  for (const api::LabelRequirement& req : selector.requirements()) r.keys.insert(req.key);
}

api::LabelSet AffinityLabelKeys::Project(const api::LabelSet& labels) {
  Keys& r = Registry();
  std::vector<api::LabelSet::Label> kept;
  kept.reserve(labels.size());
  absl::ReaderMutexLock lock(&r.mu);
  for (const api::LabelSet::Label& l : labels.labels()) {
    if (r.keys.contains(l.key)) kept.push_back(l);
  }
  return api::LabelSet::FromPairs(std::move(kept));
}

}  // namespace schedkit::framework
