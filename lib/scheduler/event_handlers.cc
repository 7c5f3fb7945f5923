// The informer-style event handlers (upstream's eventhandlers.go) for nodes
// and pods as the host sees them change; every other kind goes through
// object_events.cc.
// Each updates the cache and the pod table, then tells the queue the cluster
// event it amounts to, so that pods a plugin rejected for its lack may move.
#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "scheduler/pod_update_events.h"
#include "scheduler/scheduler_impl.h"

namespace schedkit::scheduler {
namespace {

using framework::ClusterEvent;
using framework::EventResource;
using framework::PodInfo;
using framework::PodInfoPtr;

std::string PodKey(std::string_view ns, std::string_view name) { return schedkit::StrCat(ns, "/", name); }

// Node update → the events upstream derives (NodeSchedulingPropertiesChange,
// v1.37), one per kind of change, in its order: a plugin registered for one
// kind must not miss it because another changed too.
std::vector<framework::ActionType> NodeUpdateActions(const api::v1::Node& o, const api::v1::Node& n) {
  std::vector<framework::ActionType> out;
  auto same_map = [](const auto& x, const auto& y) {
    if (x.size() != y.size()) return false;
    for (const auto& [k, v] : x) {
      auto it = y.find(k);
      if (it == y.end() || it->second != v) return false;
    }
    return true;
  };
  // Turning schedulable reads as a taint change (upstream has no action of
  // its own for spec.unschedulable).
  if (o.spec().unschedulable() && !n.spec().unschedulable()) out.push_back(framework::kActionUpdateNodeTaint);
  if (!same_map(o.status().allocatable(), n.status().allocatable())) {
    out.push_back(framework::kActionUpdateNodeAllocatable);
  }
  if (!same_map(o.metadata().labels(), n.metadata().labels())) out.push_back(framework::kActionUpdateNodeLabel);
  if (o.spec().taints().size() != n.spec().taints().size() ||
      !std::equal(o.spec().taints().begin(), o.spec().taints().end(), n.spec().taints().begin(),
                  [](const auto& x, const auto& y) {
                    return x.key() == y.key() && x.value() == y.value() && x.effect() == y.effect();
                  })) {
    out.push_back(framework::kActionUpdateNodeTaint);
  }
  // Conditions compare as type → status.
  auto statuses = [](const api::v1::Node& node) {
    absl::flat_hash_map<std::string_view, std::string_view> m;
    for (const auto& c : node.status().conditions()) m[c.type()] = c.status();
    return m;
  };
  if (statuses(o) != statuses(n)) out.push_back(framework::kActionUpdateNodeCondition);
  if (!same_map(o.metadata().annotations(), n.metadata().annotations())) {
    out.push_back(framework::kActionUpdateNodeAnnotation);
  }
  const auto& fo = o.status().declared_features();
  const auto& fn = n.status().declared_features();
  if (fo.size() != fn.size() || !std::equal(fo.begin(), fo.end(), fn.begin())) {
    out.push_back(framework::kActionUpdateNodeDeclaredFeature);
  }
  return out;
}

std::string NodeUpdateLabel(framework::ActionType a) {
  switch (a) {
    case framework::kActionUpdateNodeAllocatable:
      return "NodeUpdateNodeAllocatable";
    case framework::kActionUpdateNodeLabel:
      return "NodeUpdateNodeLabel";
    case framework::kActionUpdateNodeTaint:
      return "NodeUpdateNodeTaint";
    case framework::kActionUpdateNodeCondition:
      return "NodeUpdateNodeCondition";
    case framework::kActionUpdateNodeAnnotation:
      return "NodeUpdateNodeAnnotation";
    case framework::kActionUpdateNodeDeclaredFeature:
      return "NodeUpdateNodeDeclaredFeature";
    default:
      return "NodeUpdate";
  }
}

}  // namespace

absl::Status Scheduler::AddNode(std::shared_ptr<const api::v1::Node> node) {
  if (absl::Status s = impl_->cache.AddNode(node); !s.ok()) return s;
  {
    std::lock_guard<SpinningMutex> lock(impl_->pods_mu);
    impl_->nodes[node->metadata().name()] = node;
  }
  impl_->queue->OnClusterEventShared(ClusterEvent{EventResource::Node(), framework::kActionAdd, "NodeAdd"},
                                     SharedEventObjects::Of<api::v1::Node>(nullptr, std::move(node)));
  return absl::OkStatus();
}

absl::Status Scheduler::UpdateNode(std::shared_ptr<const api::v1::Node> node) {
  if (absl::Status s = impl_->cache.UpdateNode(node); !s.ok()) return s;
  std::shared_ptr<const api::v1::Node> old;
  {
    std::lock_guard<SpinningMutex> lock(impl_->pods_mu);
    auto& slot = impl_->nodes[node->metadata().name()];
    old = std::move(slot);
    slot = node;
  }
  if (old == nullptr) {
    impl_->queue->OnClusterEventShared(ClusterEvent{EventResource::Node(), framework::kActionAdd, "NodeAdd"},
                                       SharedEventObjects::Of<api::v1::Node>(nullptr, std::move(node)));
    return absl::OkStatus();
  }
  const std::vector<framework::ActionType> actions = NodeUpdateActions(*old, *node);
  for (framework::ActionType a : actions) {
    impl_->queue->OnClusterEventShared(ClusterEvent{EventResource::Node(), a, NodeUpdateLabel(a)},
                                       SharedEventObjects::Of<api::v1::Node>(old, node));
  }
  return absl::OkStatus();
}

absl::Status Scheduler::DeleteNode(std::string_view name) {
  if (absl::Status s = impl_->cache.RemoveNode(name); !s.ok()) return s;
  {
    std::lock_guard<SpinningMutex> lock(impl_->pods_mu);
    impl_->nodes.erase(std::string(name));
  }
  impl_->queue->OnClusterEvent(ClusterEvent{EventResource::Node(), framework::kActionDelete, "NodeDelete"}, {});
  return absl::OkStatus();
}

absl::Status Scheduler::AddPod(std::shared_ptr<const api::v1::Pod> pod) {
  auto info = framework::PodInfo::Create(std::move(pod));
  if (!info.ok()) return info.status();
  PodInfoPtr p = *std::move(info);
  {
    std::lock_guard<SpinningMutex> lock(impl_->pods_mu);
    if (!impl_->pods.Insert(p).second) {
      return absl::AlreadyExistsError(schedkit::StrCat("pod ", p->key(), " already exists"));
    }
  }
  if (!p->node_name().empty()) {
    if (absl::Status s = impl_->cache.AddPod(p); !s.ok()) {
      // Refused by the cache: the table forgets it too, so a corrected add
      // is not refused as a duplicate.
      std::lock_guard<SpinningMutex> lock(impl_->pods_mu);
      if (const PodInfoPtr* in = impl_->pods.Find(p->key()); in != nullptr && *in == p) impl_->pods.Erase(p->key());
      return s;
    }
    impl_->queue->OnClusterEventShared(
        ClusterEvent{EventResource::AssignedPod(), framework::kActionAdd, "AssignedPodAdd"},
        SharedEventObjects::Of<api::v1::Pod>(nullptr, p->pod_ptr()));
    return absl::OkStatus();
  }
  if (impl_->FrameworkForPod(*p) == nullptr) return absl::OkStatus();  // another scheduler's pod
  impl_->queue->Add(std::move(p));
  return absl::OkStatus();
}

absl::Status Scheduler::UpdatePod(std::shared_ptr<const api::v1::Pod> pod) {
  auto info = framework::PodInfo::Create(std::move(pod));
  if (!info.ok()) return info.status();
  PodInfoPtr p = *std::move(info);
  PodInfoPtr old;
  {
    std::lock_guard<SpinningMutex> lock(impl_->pods_mu);
    PodInfoPtr* in = impl_->pods.Find(p->key());
    if (in == nullptr) return absl::NotFoundError(schedkit::StrCat("pod ", p->key(), " not found"));
    old = *in;
    *in = p;
  }
  const bool was_bound = !old->node_name().empty() && !impl_->cache.IsAssumed(old->uid());
  if (!p->node_name().empty()) {
    if (was_bound) {
      if (absl::Status s = impl_->cache.UpdatePod(p); !s.ok()) {
        // Refused by the cache: the table keeps what the cache holds.
        std::lock_guard<SpinningMutex> lock(impl_->pods_mu);
        if (PodInfoPtr* in = impl_->pods.Find(p->key()); in != nullptr && *in == p) *in = old;
        return s;
      }
      for (const ClusterEvent& event : PodUpdateEvents(*old, *p, /*target=*/false)) {
        impl_->queue->OnClusterEventShared(event,
                                           SharedEventObjects::Of<api::v1::Pod>(old->pod_ptr(), p->pod_ptr()));
      }
    } else {
      // Bound by the host (or confirming our own bind).
      impl_->queue->Delete(*old);
      if (absl::Status s = impl_->cache.AddPod(p); !s.ok() && !absl::IsAlreadyExists(s)) return s;
      impl_->queue->OnClusterEventShared(
          ClusterEvent{EventResource::AssignedPod(), framework::kActionAdd, "AssignedPodAdd"},
          SharedEventObjects::Of<api::v1::Pod>(nullptr, p->pod_ptr()));
    }
    return absl::OkStatus();
  }
  // The cache holds the pod (assumed, or bound by us and not yet
  // confirmed): this update was written before the bind, e.g. our own
  // status patch coming back. The queue must not take the pod again, or it
  // would be scheduled twice (upstream's updatePodInSchedulingQueue skips
  // assumed pods too), and the table keeps the pod's node.
  if (impl_->cache.GetPod(p->uid()) != nullptr) {
    if (!old->node_name().empty()) {
      std::lock_guard<SpinningMutex> lock(impl_->pods_mu);
      if (PodInfoPtr* in = impl_->pods.Find(p->key()); in != nullptr && *in == p) *in = old;
    }
    return absl::OkStatus();
  }
  if (impl_->FrameworkForPod(*p) != nullptr) impl_->queue->Update(old, p);
  return absl::OkStatus();
}

absl::Status Scheduler::DeletePod(std::string_view namespace_name, std::string_view name) {
  PodInfoPtr old;
  {
    std::lock_guard<SpinningMutex> lock(impl_->pods_mu);
    old = impl_->pods.Take(PodKey(namespace_name, name));
    if (old == nullptr) return absl::NotFoundError(schedkit::StrCat("pod ", namespace_name, "/", name, " not found"));
  }
  impl_->queue->DeleteNominatedPodIfExists(*old);
  PodInfoPtr cached = impl_->cache.GetPod(old->uid());
  if (cached != nullptr) {
    // A waiting pod is rejected; an assumed one is forgotten by its binding cycle.
    for (auto& fw : impl_->frameworks) fw->RejectWaitingPod(old->uid(), "pod deleted");
    if (!impl_->cache.IsAssumed(old->uid())) {
      if (absl::Status s = impl_->cache.RemovePod(*cached); !s.ok()) return s;
    }
    impl_->queue->OnClusterEventShared(
        ClusterEvent{EventResource::AssignedPod(), framework::kActionDelete, "AssignedPodDelete"},
        SharedEventObjects::Of<api::v1::Pod>(cached->pod_ptr(), nullptr));
    return absl::OkStatus();
  }
  impl_->queue->Delete(*old);
  return absl::OkStatus();
}

}  // namespace schedkit::scheduler
