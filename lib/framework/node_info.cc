#include "schedkit/framework/node_info.h"

#include "framework/node_info_internals.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <limits>
#include <mutex>

#include "schedkit/base/str_cat.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/well_known.h"

namespace schedkit::framework {
namespace {

std::atomic<int64_t> g_generation{0};

TaintEffect ParseTaintEffect(const std::string& effect) {
  if (effect == "PreferNoSchedule") return TaintEffect::kPreferNoSchedule;
  if (effect == "NoExecute") return TaintEffect::kNoExecute;
  return TaintEffect::kNoSchedule;
}

bool EraseByUid(std::vector<PodInfoPtr>& pods, const PodInfo& stored) {
  for (size_t i = 0; i < pods.size(); ++i) {
    if (pods[i]->SameUid(stored)) {
      pods[i] = std::move(pods.back());
      pods.pop_back();
      return true;
    }
  }
  return false;
}

// The keys HotLabel::Declare gave a place, by slot: `placed` counts them,
// and a key is written before the count that covers it is published, so a
// reader that loads the count sees every key below it.
struct DeclaredHotLabels {
  std::mutex mu;  // serializes Declare
  std::array<std::atomic<Symbol>, HotLabel::kMaxHotLabels> keys{};
  std::atomic<int> placed{0};
};

DeclaredHotLabels& Declared() {
  static DeclaredHotLabels* d = new DeclaredHotLabels;
  return *d;
}

}  // namespace

HotLabel HotLabel::Declare(std::string_view key) {
  const Symbol k = Symbol::Intern(key);
  DeclaredHotLabels& d = Declared();
  std::lock_guard<std::mutex> lock(d.mu);
  const int placed = d.placed.load(std::memory_order_relaxed);
  for (int i = 0; i < placed; ++i) {
    if (d.keys[i].load(std::memory_order_relaxed) == k) return HotLabel(k, i);
  }
  if (placed == kMaxHotLabels) return HotLabel(k, kMaxHotLabels);
  d.keys[placed].store(k, std::memory_order_relaxed);
  d.placed.store(placed + 1, std::memory_order_release);
  return HotLabel(k, placed);
}

int64_t NextGeneration() { return g_generation.fetch_add(1, std::memory_order_relaxed) + 1; }

void HostPortSet::Add(const HostPort& p) {
  if (p.port <= 0) return;
  if (std::find(ports_.begin(), ports_.end(), p) == ports_.end()) ports_.push_back(p);
}

void HostPortSet::Remove(const HostPort& p) {
  auto it = std::find(ports_.begin(), ports_.end(), p);
  if (it != ports_.end()) ports_.erase(it);
}

bool HostPortSet::Conflicts(const HostPort& p) const {
  if (p.port <= 0) return false;
  const Symbol any = well_known::IpAny();
  for (const HostPort& used : ports_) {
    if (used.port != p.port || used.protocol != p.protocol) continue;
    if (p.ip == any || used.ip == any || used.ip == p.ip) return true;
  }
  return false;
}

absl::StatusOr<NodeInfo> NodeInfo::Create(const api::v1::Node& node) {
  return Create(std::make_shared<const api::v1::Node>(node));
}

absl::StatusOr<NodeInfo> NodeInfo::Create(std::shared_ptr<const api::v1::Node> node) {
  NodeInfo n;
  SCHEDKIT_RETURN_IF_ERROR(n.SetNode(std::move(node)));
  return n;
}

absl::Status NodeInfo::SetNode(std::shared_ptr<const api::v1::Node> node) {
  const api::v1::Node& n = *node;
  auto alloc = Resource::FromList(n.status().allocatable());
  if (!alloc.ok()) {
    return absl::InvalidArgumentError(
        schedkit::StrCat("Node ", n.metadata().name(), ": status.allocatable.", alloc.status().message()));
  }
  hot_.name = Symbol::Intern(n.metadata().name());
  allocatable_ = *std::move(alloc);
  labels_ = api::LabelSet::FromMap(n.metadata().labels());
  const Symbol* zone = labels_.Find(well_known::LabelTopologyZone());
  hot_.has_zone_label = zone != nullptr;
  hot_.zone_label = zone != nullptr ? *zone : Symbol();
  DeclaredHotLabels& declared = Declared();
  hot_labels_.placed = static_cast<int8_t>(declared.placed.load(std::memory_order_acquire));
  hot_labels_.present = 0;
  for (int i = 0; i < hot_labels_.placed; ++i) {
    const Symbol* value = labels_.Find(declared.keys[i].load(std::memory_order_relaxed));
    hot_labels_.values[i] = value != nullptr ? *value : Symbol();
    if (value != nullptr) hot_labels_.present |= static_cast<uint8_t>(1u << i);
  }
  hot_.unschedulable = n.spec().unschedulable();
  declared_features_ = MapDeclaredFeatures(n.status().declared_features());
  taints_.clear();
  for (const auto& t : n.spec().taints()) {
    taints_.push_back(Taint{Symbol::Intern(t.key()), Symbol::Intern(t.value()), ParseTaintEffect(t.effect())});
  }
  // Every name of an image is an entry of its own, as upstream's image states.
  images_.clear();
  for (const auto& image : n.status().images()) {
    for (const std::string& name : image.names()) {
      const Symbol s = Symbol::Intern(name);
      auto it = std::find_if(images_.begin(), images_.end(), [&](const ImageOnNode& i) { return i.name == s; });
      if (it == images_.end()) {
        images_.push_back(ImageOnNode{s, image.size_bytes()});
      } else {
        it->size_bytes = image.size_bytes();
      }
    }
  }
  std::sort(images_.begin(), images_.end(),
            [](const ImageOnNode& a, const ImageOnNode& b) { return a.name < b.name; });
  node_ = std::move(node);
  Touch();
  return absl::OkStatus();
}

void NodeInfo::ClearNode() {
  node_.reset();
  Touch();
}

const ImageOnNode* NodeInfo::FindImage(Symbol name) const {
  auto it = std::lower_bound(images_.begin(), images_.end(), ImageOnNode{name, 0},
                             [](const ImageOnNode& a, const ImageOnNode& b) { return a.name < b.name; });
  return it != images_.end() && it->name == name ? &*it : nullptr;
}

void NodeInfo::AddPod(PodInfoPtr pod) {
  AddRequests(pod->requests(), +1);
  hot_.non_zero_milli_cpu += pod->non_zero_milli_cpu();
  hot_.non_zero_memory += pod->non_zero_memory();
  // The flags first: the lists lie beyond the pod's first lines.
  if (pod->has_host_ports()) {
    for (const HostPort& p : pod->host_ports()) used_ports_.Add(p);
  }
  if (pod->has_pod_affinity()) pods_with_affinity_.items().push_back(pod);
  if (pod->has_required_anti_affinity()) pods_with_required_anti_affinity_.items().push_back(pod);
  if (pod->priority() < lowest_pod_priority_) {
    lowest_pod_priority_ = pod->priority();
    pods_at_lowest_priority_ = 0;
  }
  if (pod->priority() == lowest_pod_priority_) ++pods_at_lowest_priority_;
  pods_.items().push_back(std::move(pod));
  Touch();
}

absl::Status NodeInfo::RemovePod(const PodInfo& pod) {
  // Usually the caller passes the very PodInfo that was added: find it by
  // address first, by UID only when that fails.
  std::vector<PodInfoPtr>& pods = pods_.items();
  auto it = std::find_if(pods.begin(), pods.end(), [&](const PodInfoPtr& p) { return p.get() == &pod; });
  if (it == pods.end()) {
    it = std::find_if(pods.begin(), pods.end(), [&](const PodInfoPtr& p) { return p->SameUid(pod); });
  }
  if (it == pods.end()) {
    return absl::NotFoundError(
        schedkit::StrCat("no pod ", pod.key(), " (uid ", pod.uid(), ") on node ", hot_.name.str()));
  }
  // Account with the stored PodInfo: it is what was added. Moved out, not
  // copied: preemption's dry runs remove pods by the thousand.
  PodInfoPtr stored = std::move(*it);
  *it = std::move(pods.back());
  pods.pop_back();
  // The stored pod's flags decided its lists when it was added.
  if (stored->has_pod_affinity()) EraseByUid(pods_with_affinity_.items(), *stored);
  if (stored->has_required_anti_affinity()) EraseByUid(pods_with_required_anti_affinity_.items(), *stored);
  AddRequests(stored->requests(), -1);
  hot_.non_zero_milli_cpu -= stored->non_zero_milli_cpu();
  hot_.non_zero_memory -= stored->non_zero_memory();
  if (stored->has_host_ports()) {
    for (const HostPort& p : stored->host_ports()) used_ports_.Remove(p);
  }
  if (stored->priority() == lowest_pod_priority_ && --pods_at_lowest_priority_ == 0) RecountLowestPriority();
  Touch();
  return absl::OkStatus();
}

void NodeInfo::RecountLowestPriority() {
  lowest_pod_priority_ = std::numeric_limits<int32_t>::max();
  pods_at_lowest_priority_ = 0;
  for (const PodInfoPtr& p : pods_.items()) {
    if (p->priority() < lowest_pod_priority_) {
      lowest_pod_priority_ = p->priority();
      pods_at_lowest_priority_ = 0;
    }
    if (p->priority() == lowest_pod_priority_) ++pods_at_lowest_priority_;
  }
}

// Only the slots that hold another pod are written: a snapshot copies a
// node's NodeInfo each time the node changes, and a change adds or removes a
// pod or two (removal moves the last pod into the gap), so most slots already
// hold the same pod and are left alone, without reference-count traffic. On
// a node with thousands of pods (a DaemonSet's target, a virtual node) that
// traffic was most of a cycle.
PodInfoList& PodInfoList::operator=(const PodInfoList& other) {
  if (this == &other) return *this;
  const size_t common = std::min(items_.size(), other.items_.size());
  PodInfoPtr* mine = items_.data();
  const PodInfoPtr* theirs = other.items_.data();
  for (size_t i = 0; i < common; ++i) {
    // The same pod and the same owner: a borrowed (non-owning) pointer of a
    // scratch simulation copy is not the owning one, though it points alike.
    const bool same = mine[i].get() == theirs[i].get() && !mine[i].owner_before(theirs[i]) &&
                      !theirs[i].owner_before(mine[i]);
    if (!same) mine[i] = theirs[i];
  }
  if (items_.size() > other.items_.size()) {
    items_.erase(items_.begin() + static_cast<std::ptrdiff_t>(other.items_.size()), items_.end());
  } else {
    items_.insert(items_.end(), other.items_.begin() + static_cast<std::ptrdiff_t>(common), other.items_.end());
  }
  return *this;
}

NodeInfo NodeInfo::SimulationCopy() const {
  NodeInfo copy = *this;
  copy.simulation_ = true;
  return copy;
}

void NodeInfo::AssignSimulationCopy(const NodeInfo& from) {
  if (this != &from) *this = from;
  simulation_ = true;
}

void NodeInfo::Touch() {
  generation_ = simulation_ ? generation_ + 1 : NextGeneration();
  hot_.has_taints = !taints_.empty();
  hot_.allocatable_milli_cpu = allocatable_.milli_cpu;
  hot_.allocatable_memory = allocatable_.memory;
  hot_.requested_milli_cpu = requested_.milli_cpu;
  hot_.requested_memory = requested_.memory;
  // Saturating, so that a check of free_pod_slots >= 1 agrees with
  // pods + 1 <= allowed for any allowed_pod_number.
  int64_t free = 0;
  if (__builtin_sub_overflow(allocatable_.allowed_pod_number, static_cast<int64_t>(pods_.items().size()), &free)) {
    free = std::numeric_limits<int64_t>::min();
  }
  hot_.free_pod_slots = static_cast<int32_t>(std::clamp<int64_t>(free, std::numeric_limits<int32_t>::min(),
                                                                 std::numeric_limits<int32_t>::max()));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
  static_assert(offsetof(NodeInfo, hot_) + sizeof(Figures) <= 64, "the figures fill one line");
  static_assert(offsetof(NodeInfo, labels_) >= 64 && offsetof(NodeInfo, pods_) + sizeof(pods_) <= 128,
                "the second line holds the label list, the hot labels and the pod list");
#pragma GCC diagnostic pop
}

// Requests never change the node's pod capacity, so allowed_pod_number is
// left alone, as upstream's NodeInfo.update does.
void NodeInfo::AddRequests(const Resource& r, int sign) {
  requested_.milli_cpu += sign * r.milli_cpu;
  requested_.memory += sign * r.memory;
  requested_.ephemeral_storage += sign * r.ephemeral_storage;
  for (const Resource::Scalar& s : r.scalars) requested_.AddScalar(s.name, sign * s.amount);
}

bool operator==(const NodeInfo& a, const NodeInfo& b) {
  auto same_pods = [](const std::vector<PodInfoPtr>& x, const std::vector<PodInfoPtr>& y) {
    return x == y;  // shared_ptr equality: identity
  };
  auto same_images = [](const std::vector<ImageOnNode>& x, const std::vector<ImageOnNode>& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end(), [](const ImageOnNode& p, const ImageOnNode& q) {
      return p.name == q.name && p.size_bytes == q.size_bytes;
    });
  };
  auto same_taints = [](const std::vector<Taint>& x, const std::vector<Taint>& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end(), [](const Taint& p, const Taint& q) {
      return p.key == q.key && p.value == q.value && p.effect == q.effect;
    });
  };
  return a.hot_ == b.hot_ && a.node_ == b.node_ && a.labels_ == b.labels_ && same_taints(a.taints_, b.taints_) &&
         a.allocatable_ == b.allocatable_ && a.requested_ == b.requested_ &&
         a.used_ports_.ports() == b.used_ports_.ports() &&
         same_images(a.images_, b.images_) && same_pods(a.pods_.items(), b.pods_.items()) &&
         same_pods(a.pods_with_affinity_.items(), b.pods_with_affinity_.items()) &&
         same_pods(a.pods_with_required_anti_affinity_.items(), b.pods_with_required_anti_affinity_.items()) &&
         a.lowest_pod_priority_ == b.lowest_pod_priority_ &&
         a.pods_at_lowest_priority_ == b.pods_at_lowest_priority_ &&
         a.hot_labels_.values == b.hot_labels_.values && a.hot_labels_.present == b.hot_labels_.present &&
         a.hot_labels_.placed == b.hot_labels_.placed && a.declared_features_ == b.declared_features_;
}

}  // namespace schedkit::framework
