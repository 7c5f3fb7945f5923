#include "schedkit/framework/snapshot.h"

#include <algorithm>
#include <atomic>

#include "schedkit/base/str_cat.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/api/v1/namespace.h"
#include "schedkit/base/well_known.h"

namespace schedkit::framework {

// A NodeInfo in the most-recently-changed list.
struct ClusterState::Item {
  Symbol name;
  NodeInfo info;
  Item* prev = nullptr;
  Item* next = nullptr;
  std::string zone;  // zone key while the node is in the tree
  bool in_tree = false;
};

// Nodes grouped by zone key, zones and nodes in insertion order; list()
// interleaves zones round-robin, as upstream's nodeTree.
class ClusterState::NodeTree {
 public:
  void Add(const std::string& zone, Symbol node) {
    auto it = std::find_if(zones_.begin(), zones_.end(), [&](const Zone& z) { return z.key == zone; });
    if (it == zones_.end()) {
      zones_.push_back(Zone{zone, {}});
      it = zones_.end() - 1;
    }
    it->nodes.push_back(node);
  }

  void Remove(const std::string& zone, Symbol node) {
    auto it = std::find_if(zones_.begin(), zones_.end(), [&](const Zone& z) { return z.key == zone; });
    if (it == zones_.end()) return;
    auto n = std::find(it->nodes.begin(), it->nodes.end(), node);
    if (n != it->nodes.end()) it->nodes.erase(n);
    if (it->nodes.empty()) zones_.erase(it);
  }

  std::vector<Symbol> List() const {
    std::vector<Symbol> out;
    for (size_t index = 0;; ++index) {
      bool any = false;
      for (const Zone& z : zones_) {
        if (index < z.nodes.size()) {
          out.push_back(z.nodes[index]);
          any = true;
        }
      }
      if (!any) return out;
    }
  }

 private:
  struct Zone {
    std::string key;
    std::vector<Symbol> nodes;
  };
  std::vector<Zone> zones_;
};

std::string ZoneKey(const api::LabelSet& labels) {
  auto zone = labels.Get(well_known::LabelTopologyZone());
  if (!zone) zone = labels.Get(well_known::LabelFailureDomainZone());
  auto region = labels.Get(well_known::LabelTopologyRegion());
  if (!region) region = labels.Get(well_known::LabelFailureDomainRegion());
  const std::string_view z = zone ? zone->str() : "";
  const std::string_view r = region ? region->str() : "";
  if (z.empty() && r.empty()) return "";
  // The NUL keeps "a:" + "b" and "a" + ":b" apart, as upstream.
  return schedkit::StrCat(r, std::string_view(":\0:", 3), z);
}

// ---- Snapshot ----

namespace {

constexpr uint8_t kHasAffinity = 1;
constexpr uint8_t kHasRequiredAntiAffinity = 2;

uint8_t AffinityFlags(const NodeInfo& n) {
  return (n.pods_with_affinity().empty() ? 0 : kHasAffinity) |
         (n.pods_with_required_anti_affinity().empty() ? 0 : kHasRequiredAntiAffinity);
}

// Layout, node-object and namespace ids share one counter, so an id never names two
// states of any snapshot in the process.
int64_t NextSnapshotId() {
  static std::atomic<int64_t> next{0};
  return next.fetch_add(1, std::memory_order_relaxed) + 1;
}

}  // namespace

absl::StatusOr<Snapshot> Snapshot::FromLister(const api::ClusterLister& lister) {
  SCHEDKIT_ASSIGN_OR_RETURN(std::unique_ptr<ClusterState> state, ClusterState::FromLister(lister));
  Snapshot s;
  state->UpdateSnapshot(s);
  return s;
}

const NodeInfo* Snapshot::Get(Symbol name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : nodes_[it->second];
}

const NodeInfo* Snapshot::Get(std::string_view name) const {
  std::optional<Symbol> s = Symbol::Find(name);
  return s ? Get(*s) : nullptr;
}

int Snapshot::IndexOf(Symbol name) const {
  auto it = index_.find(name);
  return it == index_.end() ? -1 : it->second;
}

int Snapshot::ImageNumNodes(Symbol image) const {
  auto it = image_nodes_.find(image);
  return it == image_nodes_.end() ? 0 : it->second;
}

const api::LabelSet* Snapshot::NamespaceLabels(Symbol ns) const {
  auto it = namespaces_.find(ns);
  return it == namespaces_.end() ? nullptr : &it->second;
}

void Snapshot::RebuildLists() {
  nodes_.clear();
  index_.clear();
  image_nodes_.clear();
  nodes_.reserve(infos_.size());
  generations_.resize(infos_.size());
  for (size_t i = 0; i < infos_.size(); ++i) {
    const NodeInfo& info = infos_[i];
    index_[info.name()] = static_cast<int>(i);
    nodes_.push_back(&info);
    generations_[i] = info.generation();
    for (const ImageOnNode& img : info.images()) ++image_nodes_[img.name];
  }
  layout_id_ = NextSnapshotId();
  node_objects_id_ = NextSnapshotId();
  change_log_.clear();
  log_floor_ = updates_;
  RebuildAffinityLists();
}

bool Snapshot::ChangedSince(int64_t update, std::vector<int>& out) const {
  if (update < log_floor_ || update > updates_) return false;
  auto it = std::partition_point(change_log_.begin(), change_log_.end(),
                                 [update](const Change& c) { return c.update <= update; });
  for (; it != change_log_.end(); ++it) out.push_back(it->position);
  return true;
}

void Snapshot::RebuildAffinityLists() {
  with_affinity_.clear();
  with_required_anti_affinity_.clear();
  with_affinity_index_.clear();
  with_required_anti_affinity_index_.clear();
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const uint8_t flags = AffinityFlags(*nodes_[i]);
    if (flags & kHasAffinity) {
      with_affinity_.push_back(nodes_[i]);
      with_affinity_index_.push_back(static_cast<int>(i));
    }
    if (flags & kHasRequiredAntiAffinity) {
      with_required_anti_affinity_.push_back(nodes_[i]);
      with_required_anti_affinity_index_.push_back(static_cast<int>(i));
    }
  }
}

namespace {

// Adds or removes nodes[index] in a list kept in node order.
void SetMembership(std::vector<const NodeInfo*>& list, std::vector<int>& positions, const NodeInfo* node, int index,
                   bool member) {
  const auto it = std::lower_bound(positions.begin(), positions.end(), index);
  const bool present = it != positions.end() && *it == index;
  if (member == present) return;
  const auto at = it - positions.begin();
  if (member) {
    list.insert(list.begin() + at, node);
    positions.insert(it, index);
  } else {
    list.erase(list.begin() + at);
    positions.erase(it);
  }
}

}  // namespace

void Snapshot::UpdateAffinityLists(int index, uint8_t old_flags, uint8_t new_flags) {
  if ((old_flags ^ new_flags) & kHasAffinity) {
    SetMembership(with_affinity_, with_affinity_index_, nodes_[index], index, new_flags & kHasAffinity);
  }
  if ((old_flags ^ new_flags) & kHasRequiredAntiAffinity) {
    SetMembership(with_required_anti_affinity_, with_required_anti_affinity_index_, nodes_[index], index,
                  new_flags & kHasRequiredAntiAffinity);
  }
}

// ---- ClusterState ----

ClusterState::ClusterState() : tree_(std::make_unique<NodeTree>()) {}
ClusterState::~ClusterState() = default;

absl::StatusOr<std::unique_ptr<ClusterState>> ClusterState::FromLister(const api::ClusterLister& lister) {
  auto state = std::make_unique<ClusterState>();
  SCHEDKIT_ASSIGN_OR_RETURN(auto nodes, lister.List<api::v1::Node>());
  for (auto& n : nodes) SCHEDKIT_RETURN_IF_ERROR(state->AddNode(n));
  SCHEDKIT_ASSIGN_OR_RETURN(auto namespaces, lister.List<api::v1::Namespace>());
  for (auto& ns : namespaces) state->SetNamespace(*ns);
  SCHEDKIT_ASSIGN_OR_RETURN(auto pods, lister.List<api::v1::Pod>());
  for (auto& p : pods) {
    if (p->spec().node_name().empty()) continue;
    SCHEDKIT_ASSIGN_OR_RETURN(PodInfoPtr info, PodInfo::Create(p));
    SCHEDKIT_RETURN_IF_ERROR(state->AddPod(std::move(info)));
  }
  return state;
}

ClusterState::Item* ClusterState::FindItem(Symbol name) const {
  auto it = items_.find(name);
  return it == items_.end() ? nullptr : it->second.get();
}

ClusterState::Item* ClusterState::GetOrCreateItem(Symbol name) {
  auto [it, inserted] = items_.try_emplace(name);
  if (inserted) {
    it->second = std::make_unique<Item>();
    Item* item = it->second.get();
    item->name = name;
    item->next = head_;
    if (head_ != nullptr) head_->prev = item;
    head_ = item;
  }
  return it->second.get();
}

void ClusterState::MoveToFront(Item* item) {
  if (item == head_) return;
  if (item->prev != nullptr) item->prev->next = item->next;
  if (item->next != nullptr) item->next->prev = item->prev;
  item->prev = nullptr;
  item->next = head_;
  if (head_ != nullptr) head_->prev = item;
  head_ = item;
}

void ClusterState::DeleteItem(Item* item) {
  if (item->prev != nullptr) item->prev->next = item->next;
  if (item->next != nullptr) item->next->prev = item->prev;
  if (head_ == item) head_ = item->next;
  items_.erase(item->name);
}

absl::Status ClusterState::AddNode(std::shared_ptr<const api::v1::Node> node) {
  const Symbol name = Symbol::Intern(node->metadata().name());
  if (Item* existing = FindItem(name); existing != nullptr && existing->info.node() != nullptr) {
    return absl::AlreadyExistsError(schedkit::StrCat("Node ", node->metadata().name(), " already exists"));
  }
  Item* item = GetOrCreateItem(name);
  if (absl::Status s = item->info.SetNode(std::move(node)); !s.ok()) {
    if (item->info.pods().empty()) DeleteItem(item);  // leave no trace of a bad node
    return s;
  }
  MoveToFront(item);
  item->zone = ZoneKey(item->info.labels());
  tree_->Add(item->zone, name);
  item->in_tree = true;
  ++num_nodes_;
  ++order_version_;
  return absl::OkStatus();
}

absl::Status ClusterState::UpdateNode(std::shared_ptr<const api::v1::Node> node) {
  const Symbol name = Symbol::Intern(node->metadata().name());
  Item* item = FindItem(name);
  if (item == nullptr || item->info.node() == nullptr) return AddNode(std::move(node));
  SCHEDKIT_RETURN_IF_ERROR(item->info.SetNode(std::move(node)));
  MoveToFront(item);
  std::string zone = ZoneKey(item->info.labels());
  if (zone != item->zone) {
    tree_->Remove(item->zone, name);
    item->zone = std::move(zone);
    tree_->Add(item->zone, name);
    ++order_version_;
  }
  return absl::OkStatus();
}

absl::Status ClusterState::RemoveNode(std::string_view name) {
  std::optional<Symbol> sym = Symbol::Find(name);
  Item* item = sym ? FindItem(*sym) : nullptr;
  if (item == nullptr || item->info.node() == nullptr) {
    return absl::NotFoundError(schedkit::StrCat("Node ", name, " not found"));
  }
  tree_->Remove(item->zone, *sym);
  item->in_tree = false;
  --num_nodes_;
  ++order_version_;
  if (item->info.pods().empty()) {
    DeleteItem(item);
  } else {
    item->info.ClearNode();
    MoveToFront(item);
  }
  return absl::OkStatus();
}

absl::Status ClusterState::AddPod(PodInfoPtr pod) {
  if (pod->node_name().empty()) {
    return absl::InvalidArgumentError(schedkit::StrCat("Pod ", pod->key(), " has no spec.nodeName"));
  }
  Item* item = GetOrCreateItem(pod->node_name());
  item->info.AddPod(std::move(pod));
  MoveToFront(item);
  return absl::OkStatus();
}

absl::Status ClusterState::RemovePod(const PodInfo& pod) {
  Item* item = FindItem(pod.node_name());
  if (item == nullptr) {
    return absl::NotFoundError(schedkit::StrCat("Pod ", pod.key(), ": node ", pod.node_name().str(), " not found"));
  }
  SCHEDKIT_RETURN_IF_ERROR(item->info.RemovePod(pod));
  if (item->info.node() == nullptr && item->info.pods().empty()) {
    DeleteItem(item);  // the last pod of a deleted node
  } else {
    MoveToFront(item);
  }
  return absl::OkStatus();
}

void ClusterState::SetNamespace(const api::v1::Namespace& ns) {
  namespaces_[Symbol::Intern(ns.metadata().name())] = api::LabelSet::FromMap(ns.metadata().labels());
  ++namespaces_version_;
}

void ClusterState::RemoveNamespace(std::string_view name) {
  if (auto s = Symbol::Find(name)) namespaces_.erase(*s);
  ++namespaces_version_;
}

const NodeInfo* ClusterState::GetNodeInfo(Symbol name) const {
  Item* item = FindItem(name);
  return item == nullptr ? nullptr : &item->info;
}

void ClusterState::UpdateSnapshot(Snapshot& snap) const {
  snap.last_update_copies_ = 0;
  ++snap.updates_;
  // Every addition, removal or reordering of nodes bumps order_version_, so
  // with the same version the snapshot has the same nodes at the same
  // positions and only changed NodeInfos are copied, in place.
  if (snap.order_version_ == order_version_) {
    for (Item* item = head_; item != nullptr && item->info.generation() > snap.generation_; item = item->next) {
      if (item->info.node() == nullptr) continue;  // ghosts are not schedulable
      const int pos = snap.IndexOf(item->name);
      if (pos < 0) continue;
      NodeInfo& slot = snap.infos_[pos];
      for (const ImageOnNode& img : slot.images()) --snap.image_nodes_[img.name];
      const uint8_t had_flags = AffinityFlags(slot);
      const bool node_replaced = slot.node() != item->info.node();
      slot = item->info;
      if (node_replaced) snap.node_objects_id_ = NextSnapshotId();
      for (const ImageOnNode& img : slot.images()) ++snap.image_nodes_[img.name];
      snap.generations_[pos] = slot.generation();
      snap.change_log_.push_back({snap.updates_, pos});
      if (const uint8_t flags = AffinityFlags(slot); flags != had_flags) {
        snap.UpdateAffinityLists(pos, had_flags, flags);
      }
      ++snap.last_update_copies_;
    }
  } else {
    // New layout: NodeInfos laid out in node order, so a filter pass walks
    // memory forward. Unchanged ones move over from the old layout.
    const std::vector<Symbol> order = tree_->List();
    std::vector<NodeInfo> laid_out;
    laid_out.reserve(order.size());
    for (Symbol name : order) {
      const Item* item = FindItem(name);
      if (item == nullptr || item->info.node() == nullptr) continue;
      const int old_pos = snap.IndexOf(name);
      if (old_pos >= 0 && snap.infos_[old_pos].generation() == item->info.generation()) {
        laid_out.push_back(std::move(snap.infos_[old_pos]));
      } else {
        laid_out.push_back(item->info);
        ++snap.last_update_copies_;
      }
    }
    snap.infos_ = std::move(laid_out);
    snap.RebuildLists();
    snap.order_version_ = order_version_;
  }
  // Bounded: the oldest half goes once the log outgrows the node count, so a
  // plugin that has not looked for that long compares generations instead.
  if (const size_t limit = std::max<size_t>(256, snap.infos_.size()); snap.change_log_.size() > limit) {
    const size_t drop = snap.change_log_.size() / 2;
    snap.log_floor_ = snap.change_log_[drop - 1].update;
    snap.change_log_.erase(snap.change_log_.begin(), snap.change_log_.begin() + static_cast<long>(drop));
  }
  if (head_ != nullptr) snap.generation_ = std::max(snap.generation_, head_->info.generation());
  if (snap.namespaces_version_ != namespaces_version_) {
    snap.namespaces_ = namespaces_;
    snap.namespaces_version_ = namespaces_version_;
    snap.namespaces_id_ = NextSnapshotId();
  }
}

}  // namespace schedkit::framework
