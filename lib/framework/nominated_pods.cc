#include "schedkit/framework/nominated_pods.h"

#include <algorithm>

namespace schedkit::framework {

NominatedPodsSnapshot::Shard::Shard(const ByNode& nodes) : by_node(nodes) {
  for (const auto& [node, pods] : by_node) {
    const uint32_t bit = FilterBit(Hash(node));
    may_have[bit / 64] |= uint64_t{1} << (bit % 64);
    for (const PodInfoPtr& p : *pods) uid_hashes.push_back(p->uid_hash());
  }
  std::sort(uid_hashes.begin(), uid_hashes.end());
}

bool NominatedPodsSnapshot::MayList(const PodInfo& pod) const {
  for (const std::shared_ptr<const Shard>& shard : shards_) {
    if (shard == nullptr) continue;
    if (std::binary_search(shard->uid_hashes.begin(), shard->uid_hashes.end(), pod.uid_hash())) return true;
  }
  return false;
}

NominatedPodsSnapshot::NominatedPodsSnapshot(const ByNode& by_node) {
  std::array<ByNode, 1 << kShardBits> split;
  for (const auto& [node, pods] : by_node) {
    if (pods == nullptr) continue;
    split[ShardOf(node)].emplace(node, pods);
    ++nodes_;
  }
  for (size_t i = 0; i < split.size(); ++i) {
    if (!split[i].empty()) shards_[i] = std::make_shared<const Shard>(split[i]);
  }
}

const NominatedPodsSnapshot::PodList& NominatedPodsSnapshot::ListFor(Symbol node) const {
  const uint32_t h = Hash(node);
  const Shard* shard = shards_[ShardOf(node)].get();
  // Most nodes have no nominated pod: a bit answers for them, where the map
  // would hash (a filter pass asks for every node).
  if (shard == nullptr || !shard->MayHave(h)) return kNoList;
  auto it = shard->by_node.find(node);
  return it == shard->by_node.end() ? kNoList : it->second;
}

void NominatedPodsSnapshot::Builder::Set(Symbol node, PodList pods) {
  const size_t i = ShardOf(node);
  ByNode& shard = shards_[i];
  built_[i] = nullptr;
  if (pods == nullptr) {
    nodes_ -= shard.erase(node);
    return;
  }
  auto [it, inserted] = shard.insert_or_assign(node, std::move(pods));
  nodes_ += inserted ? 1 : 0;
}

const NominatedPodsSnapshot::PodList& NominatedPodsSnapshot::Builder::Find(Symbol node) const {
  const ByNode& shard = shards_[ShardOf(node)];
  auto it = shard.find(node);
  return it == shard.end() ? kNoList : it->second;
}

NominatedPodsSnapshot NominatedPodsSnapshot::Builder::Build() {
  NominatedPodsSnapshot out;
  for (size_t i = 0; i < shards_.size(); ++i) {
    if (built_[i] == nullptr && !shards_[i].empty()) built_[i] = std::make_shared<const Shard>(shards_[i]);
    out.shards_[i] = built_[i];
  }
  out.nodes_ = nodes_;
  return out;
}

}  // namespace schedkit::framework
