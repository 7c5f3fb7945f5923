#include "scheduler/nominator.h"

#include <algorithm>
#include <mutex>
#include <utility>

namespace schedkit::scheduler {

using framework::PodInfoPtr;

void Nominator::PodChanged(const std::string& uid) {
  auto it = node_of_.find(uid);
  if (it != node_of_.end()) Resolve(it->second);
}

void Nominator::Resolve(Symbol node) {
  ++version_;
  auto it = pods_on_.find(node);
  if (it == pods_on_.end()) {
    resolved_.Set(node, nullptr);
    return;
  }
  auto pods = std::make_shared<std::vector<PodInfoPtr>>();
  pods->reserve(it->second.size());
  for (const PodInfoPtr& p : it->second) {
    PodInfoPtr latest = latest_(p->uid());
    pods->push_back(latest != nullptr ? std::move(latest) : p);
  }
  resolved_.Set(node, std::move(pods));
}

void Nominator::Delete(const std::string& uid) {
  auto it = node_of_.find(uid);
  if (it == node_of_.end()) return;
  auto nit = pods_on_.find(it->second);
  if (nit != pods_on_.end()) {
    std::vector<PodInfoPtr>& pods = nit->second;
    pods.erase(std::remove_if(pods.begin(), pods.end(), [&](const PodInfoPtr& p) { return p->uid() == uid; }),
               pods.end());
    if (pods.empty()) pods_on_.erase(nit);
  }
  const Symbol node = it->second;
  node_of_.erase(it);
  Resolve(node);
}

void Nominator::Add(const PodInfoPtr& pod, std::optional<Symbol> node) {
  Delete(pod->uid());
  const Symbol target = node.has_value() ? *node : pod->nominated_node_name();
  if (target.empty()) return;
  // Upstream re-reads the pod from its lister and skips bound pods; the
  // pod given here is the freshest we have.
  if (!pod->node_name().empty()) return;
  node_of_[pod->uid()] = target;
  std::vector<PodInfoPtr>& pods = pods_on_[target];
  for (const PodInfoPtr& p : pods) {
    if (p->uid() == pod->uid()) return;
  }
  pods.push_back(pod);
  Resolve(target);
}

void Nominator::Update(const framework::PodInfo* old_pod, const PodInfoPtr& new_pod) {
  std::optional<Symbol> keep;
  const Symbol old_nnn = old_pod != nullptr ? old_pod->nominated_node_name() : Symbol();
  const std::string& old_uid = old_pod != nullptr ? old_pod->uid() : new_pod->uid();
  if (old_nnn.empty() && new_pod->nominated_node_name().empty()) {
    auto it = node_of_.find(old_uid);
    if (it != node_of_.end()) keep = it->second;
  }
  Delete(old_uid);
  Add(new_pod, keep);
}

std::shared_ptr<const framework::NominatedPodsSnapshot> Nominator::Snapshot() {
  std::lock_guard<SpinningMutex> lock(snapshot_mu_);
  if (snapshot_ != nullptr && snapshot_version_ == version_) return snapshot_;
  snapshot_ = std::make_shared<const framework::NominatedPodsSnapshot>(resolved_.Build());
  snapshot_version_ = version_;
  return snapshot_;
}

}  // namespace schedkit::scheduler
