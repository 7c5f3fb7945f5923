// NominatedPodsSnapshot: every node's nominated pods at one moment, taken
// once per scheduling cycle so that the per-node filter pass and
// preemption's dry runs read them without the nominator's lock.
//
//   std::span<const PodInfoPtr> pods = snapshot.ForNode(node.name());
//
// Immutable once built, so shared freely between threads and cloned
// CycleStates.
#ifndef SCHEDKIT_FRAMEWORK_NOMINATED_PODS_H_
#define SCHEDKIT_FRAMEWORK_NOMINATED_PODS_H_

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "schedkit/api/symbol.h"
#include "schedkit/framework/pod_info.h"

namespace schedkit::framework {

class NominatedPodsSnapshot {
 public:
  // Per node, a shared immutable list, so a nominator can keep the lists of
  // unchanged nodes from one snapshot to the next.
  using ByNode = absl::flat_hash_map<Symbol, std::shared_ptr<const std::vector<PodInfoPtr>>>;
  NominatedPodsSnapshot() = default;
  explicit NominatedPodsSnapshot(ByNode by_node) : by_node_(std::move(by_node)) {
    for (const auto& [node, pods] : by_node_) may_have_[Bit(node) / 64] |= uint64_t{1} << (Bit(node) % 64);
  }

  std::span<const PodInfoPtr> ForNode(Symbol node) const {
    // Most nodes have no nominated pod: a bit answers for them, where the
    // map would hash (a filter pass asks for every node).
    if ((may_have_[Bit(node) / 64] >> (Bit(node) % 64) & 1) == 0) return {};
    auto it = by_node_.find(node);
    if (it == by_node_.end() || it->second == nullptr) return {};
    return *it->second;
  }
  bool empty() const { return by_node_.empty(); }

 private:
  static constexpr uint32_t kBits = 8192;
  // A multiplicative hash of the id onto the bits, so that nodes interned
  // one after another spread out.
  static uint32_t Bit(Symbol node) { return (node.id() * 2654435761u) >> (32 - 13); }
  static_assert(kBits == 1u << 13);

  ByNode by_node_;
  // A one-hash Bloom filter of the nodes in by_node_.
  std::array<uint64_t, kBits / 64> may_have_{};
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_NOMINATED_PODS_H_
