#include "schedkit/scheduler/cache.h"

#include "schedkit/api/str_cat.h"

namespace schedkit::scheduler {

Cache::Cache() = default;

absl::Status Cache::AddNode(std::shared_ptr<const api::v1::Node> node) {
  std::lock_guard<std::mutex> lock(mu_);
  return state_.AddNode(std::move(node));
}

absl::Status Cache::UpdateNode(std::shared_ptr<const api::v1::Node> node) {
  std::lock_guard<std::mutex> lock(mu_);
  return state_.UpdateNode(std::move(node));
}

absl::Status Cache::RemoveNode(std::string_view name) {
  std::lock_guard<std::mutex> lock(mu_);
  return state_.RemoveNode(name);
}

void Cache::SetNamespace(const api::v1::Namespace& ns) {
  std::lock_guard<std::mutex> lock(mu_);
  state_.SetNamespace(ns);
}

void Cache::RemoveNamespace(std::string_view name) {
  std::lock_guard<std::mutex> lock(mu_);
  state_.RemoveNamespace(name);
}

absl::Status Cache::AssumePod(framework::PodInfoPtr pod) {
  std::lock_guard<std::mutex> lock(mu_);
  if (pods_.contains(pod->uid())) {
    return absl::AlreadyExistsError(schedkit::StrCat("pod ", pod->key(), " is already in the cache"));
  }
  if (absl::Status s = state_.AddPod(pod); !s.ok()) return s;
  const std::string uid = pod->uid();
  pods_[uid] = Entry{std::move(pod), true};
  return absl::OkStatus();
}

absl::Status Cache::FinishBinding(const framework::PodInfo& pod) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = pods_.find(pod.uid());
  if (it == pods_.end()) {
    return absl::NotFoundError(schedkit::StrCat("pod ", pod.key(), " is not in the cache"));
  }
  it->second.assumed = false;
  return absl::OkStatus();
}

absl::Status Cache::ForgetPod(const framework::PodInfo& pod) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = pods_.find(pod.uid());
  if (it == pods_.end() || !it->second.assumed) {
    return absl::FailedPreconditionError(schedkit::StrCat("pod ", pod.key(), " is not assumed"));
  }
  if (it->second.pod->node_name() != pod.node_name()) {
    return absl::FailedPreconditionError(schedkit::StrCat("pod ", pod.key(), " was assumed on node ",
                                                          it->second.pod->node_name().str(), ", not ",
                                                          pod.node_name().str()));
  }
  absl::Status s = state_.RemovePod(*it->second.pod);
  pods_.erase(it);
  return s;
}

absl::Status Cache::AddPod(framework::PodInfoPtr pod) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = pods_.find(pod->uid());
  if (it != pods_.end()) {
    if (!it->second.assumed) {
      return absl::AlreadyExistsError(schedkit::StrCat("pod ", pod->key(), " is already in the cache"));
    }
    // The host confirms what we assumed, or bound it elsewhere: either way
    // its object (newer, and on its real node) replaces ours.
    if (absl::Status s = state_.RemovePod(*it->second.pod); !s.ok()) return s;
    if (absl::Status s = state_.AddPod(pod); !s.ok()) return s;
    it->second = Entry{std::move(pod), false};
    return absl::OkStatus();
  }
  if (absl::Status s = state_.AddPod(pod); !s.ok()) return s;
  const std::string uid = pod->uid();
  pods_[uid] = Entry{std::move(pod), false};
  return absl::OkStatus();
}

absl::Status Cache::UpdatePod(framework::PodInfoPtr pod) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = pods_.find(pod->uid());
  if (it == pods_.end()) {
    return absl::NotFoundError(schedkit::StrCat("pod ", pod->key(), " is not in the cache"));
  }
  if (it->second.assumed) {
    return absl::FailedPreconditionError(schedkit::StrCat("pod ", pod->key(), " is assumed; updates wait for its bind"));
  }
  if (absl::Status s = state_.RemovePod(*it->second.pod); !s.ok()) return s;
  if (absl::Status s = state_.AddPod(pod); !s.ok()) return s;
  it->second.pod = std::move(pod);
  return absl::OkStatus();
}

absl::Status Cache::RemovePod(const framework::PodInfo& pod) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = pods_.find(pod.uid());
  if (it == pods_.end()) {
    return absl::NotFoundError(schedkit::StrCat("pod ", pod.key(), " is not in the cache"));
  }
  absl::Status s = state_.RemovePod(*it->second.pod);
  pods_.erase(it);
  return s;
}

bool Cache::IsAssumed(const std::string& uid) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = pods_.find(uid);
  return it != pods_.end() && it->second.assumed;
}

framework::PodInfoPtr Cache::GetPod(const std::string& uid) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = pods_.find(uid);
  return it == pods_.end() ? nullptr : it->second.pod;
}

void Cache::UpdateSnapshot(framework::Snapshot& snapshot) const {
  std::lock_guard<std::mutex> lock(mu_);
  state_.UpdateSnapshot(snapshot);
}

int Cache::NumNodes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return state_.NumNodes();
}

Cache::Sizes Cache::sizes() const {
  std::lock_guard<std::mutex> lock(mu_);
  Sizes s;
  s.nodes = state_.NumNodes();
  s.pods = static_cast<int>(pods_.size());
  for (const auto& [uid, e] : pods_) s.assumed_pods += e.assumed ? 1 : 0;
  return s;
}

}  // namespace schedkit::scheduler
