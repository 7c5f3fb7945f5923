// The pod label keys that some pod affinity term's label selector names, in
// any pod this process has parsed: a set that only grows.
//
// Whether an affinity term selects a pod depends on the pod's labels under
// those keys alone, so a cache keyed by an incoming pod's labels may key by
// their projection onto the set instead (InterPodAffinity's hit sums): pods
// that differ only in other labels (a pod-template-hash, a job index, a
// StatefulSet pod name) then share an entry. Because the set only grows and
// every term is noted (PodInfo::Create) before its pod reaches a snapshot,
// two pods with equal projections agree on every key that any pod in that
// snapshot, or an earlier one, selects on.
//
//   api::LabelSet key = AffinityLabelKeys::Project(pod.labels());
//
// Thread-safe.
#ifndef SCHEDKIT_LIB_FRAMEWORK_AFFINITY_LABEL_KEYS_H_
#define SCHEDKIT_LIB_FRAMEWORK_AFFINITY_LABEL_KEYS_H_

#include "schedkit/api/selector.h"

namespace schedkit::framework {

class AffinityLabelKeys {
 public:
  // Adds the keys `selector`'s requirements name. Called for every compiled
  // pod affinity or anti-affinity term, before its pod is handed on.
  static void Note(const api::LabelSelector& selector);
  // `labels` restricted to the keys noted so far.
  static api::LabelSet Project(const api::LabelSet& labels);
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_LIB_FRAMEWORK_AFFINITY_LABEL_KEYS_H_
