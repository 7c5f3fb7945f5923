// NominatedPodsSnapshot: every node's nominated pods at one moment, taken
// once per scheduling cycle so that the per-node filter pass and
// preemption's dry runs read them without the nominator's lock.
//
//   std::span<const PodInfoPtr> pods = snapshot.ForNode(node.name());
//
// Immutable once built, so shared freely between threads and cloned
// CycleStates. A nominator that changes a few nodes between cycles builds
// its snapshots with a NominatedPodsSnapshot::Builder, which shares the
// unchanged parts: a snapshot then costs what changed, not every nomination.
#ifndef SCHEDKIT_FRAMEWORK_NOMINATED_PODS_H_
#define SCHEDKIT_FRAMEWORK_NOMINATED_PODS_H_

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "schedkit/base/symbol.h"
#include "schedkit/framework/pod_info.h"

namespace schedkit::framework {

class NominatedPodsSnapshot {
  struct Shard;
  static constexpr int kShardBits = 6;

 public:
  // One node's pods, a shared immutable list: a list stays the same object
  // for as long as the node's nominations do, so its address tells whether
  // they changed (see ListFor).
  using PodList = std::shared_ptr<const std::vector<PodInfoPtr>>;
  using ByNode = absl::flat_hash_map<Symbol, PodList>;

  NominatedPodsSnapshot() = default;
  explicit NominatedPodsSnapshot(const ByNode& by_node);

  std::span<const PodInfoPtr> ForNode(Symbol node) const {
    const PodList& list = ListFor(node);
    if (list == nullptr) return {};
    return *list;
  }
  // The node's list itself (null without nominations). Whoever keeps a copy
  // of the pointer may compare a later snapshot's list with it: the same
  // pointer is the same nominations.
  const PodList& ListFor(Symbol node) const;
  bool empty() const { return nodes_ == 0; }
  // False when `pod` is in no node's list: a pass may then skip looking for
  // it in each list. True when it is, and, rarely, when another pod's uid
  // hashes alike.
  bool MayList(const PodInfo& pod) const;

  // Keeps nominations per node and builds snapshots that share every shard
  // no Set touched since the last Build. Not thread-safe.
  class Builder {
   public:
    // `pods` null removes the node's nominations.
    void Set(Symbol node, PodList pods);
    const PodList& Find(Symbol node) const;
    NominatedPodsSnapshot Build();

   private:
    std::array<ByNode, 1 << kShardBits> shards_;
    std::array<std::shared_ptr<const Shard>, 1 << kShardBits> built_;  // null where changed since
    size_t nodes_ = 0;
  };

 private:
  // A multiplicative hash of the id: its top bits pick the shard, the next
  // ones the filter bit, so that nodes interned one after another spread.
  static uint32_t Hash(Symbol node) { return node.id() * 2654435761u; }
  static size_t ShardOf(Symbol node) { return Hash(node) >> (32 - kShardBits); }
  static uint32_t FilterBit(uint32_t hash) { return (hash >> (32 - kShardBits - 8)) & 255; }

  struct Shard {
    explicit Shard(const ByNode& nodes);
    bool MayHave(uint32_t hash) const {
      const uint32_t bit = FilterBit(hash);
      return (may_have[bit / 64] >> (bit % 64)) & 1;
    }
    ByNode by_node;
    // A one-hash Bloom filter of the nodes in by_node.
    std::array<uint64_t, 4> may_have{};
    // PodInfo::uid_hash of every pod in the lists, sorted.
    std::vector<size_t> uid_hashes;
  };
  static inline const PodList kNoList{};

  std::array<std::shared_ptr<const Shard>, 1 << kShardBits> shards_;
  size_t nodes_ = 0;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_NOMINATED_PODS_H_
