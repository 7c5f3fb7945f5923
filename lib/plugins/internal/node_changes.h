// Internal to the in-tree plugins: finding the nodes of a snapshot that
// changed since a plugin last looked, so that per-node results a plugin
// keeps across cycles (pod counts per domain) are recomputed only for them.
#ifndef SCHEDKIT_LIB_PLUGINS_INTERNAL_NODE_CHANGES_H_
#define SCHEDKIT_LIB_PLUGINS_INTERNAL_NODE_CHANGES_H_

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "schedkit/framework/snapshot.h"

namespace schedkit::plugins::internal {

// Remembers the generation of every position of Snapshot::nodes() as of the
// last Sync. A NodeInfo's generation moves on every change to it, and
// generations are unique in the process, so an equal generation at the same
// position of the same layout means an unchanged node.
class NodeChangeTracker {
 public:
  // Returns true when every position must be recomputed: the first sync, or
  // the snapshot's node order changed (`changed` is then left empty).
  // Otherwise fills `changed` with the positions whose node changed.
  bool Sync(const framework::Snapshot& snapshot, std::vector<int>& changed) {
    changed.clear();
    const std::span<const int64_t> now = snapshot.node_generations();
    const int64_t seen = seen_update_;
    seen_update_ = snapshot.updates();
    if (snapshot.layout_id() != layout_id_ || now.size() != generations_.size()) {
      layout_id_ = snapshot.layout_id();
      generations_.assign(now.begin(), now.end());
      return true;
    }
    // Usually the snapshot's log names the few positions changed since the
    // last look; they are checked against the generations like the rest.
    if (snapshot.ChangedSince(seen, changed)) {
      std::sort(changed.begin(), changed.end());
      size_t kept = 0;
      for (size_t k = 0; k < changed.size(); ++k) {
        const int i = changed[k];
        if (now[i] == generations_[i]) continue;  // unchanged, or a repeat
        generations_[i] = now[i];
        changed[kept++] = i;
      }
      changed.resize(kept);
      return false;
    }
    for (size_t i = 0; i < now.size(); ++i) {
      if (now[i] != generations_[i]) {
        generations_[i] = now[i];
        changed.push_back(static_cast<int>(i));
      }
    }
    return false;
  }

  // Forget everything: the next Sync reports a full recompute.
  void Reset() {
    layout_id_ = -1;
    seen_update_ = -1;
    generations_.clear();
  }

 private:
  int64_t layout_id_ = -1;
  int64_t seen_update_ = -1;  // Snapshot::updates() at the last Sync
  std::vector<int64_t> generations_;
};

}  // namespace schedkit::plugins::internal

#endif  // SCHEDKIT_LIB_PLUGINS_INTERNAL_NODE_CHANGES_H_
