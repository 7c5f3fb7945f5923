#include "schedkit/scheduler/cache.h"

#include "schedkit/api/v1/namespace.h"
#include "schedkit/base/str_cat.h"

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
  // One probe of the table: the entry goes in first, and out again if the
  // node cannot take the pod.
  auto [entry, inserted] = pods_.Insert(Entry{pod, true});
  if (!inserted) return absl::AlreadyExistsError(schedkit::StrCat("pod ", pod->key(), " is already in the cache"));
  if (absl::Status s = state_.AddPod(std::move(pod)); !s.ok()) {
    pods_.Erase(entry->pod->uid());
    return s;
  }
  return absl::OkStatus();
}

absl::Status Cache::FinishBinding(const framework::PodInfo& pod) {
  std::lock_guard<std::mutex> lock(mu_);
  Entry* e = pods_.Find(pod.uid());
  if (e == nullptr) {
    return absl::NotFoundError(schedkit::StrCat("pod ", pod.key(), " is not in the cache"));
  }
  e->assumed = false;
  return absl::OkStatus();
}

absl::Status Cache::ForgetPod(const framework::PodInfo& pod) {
  std::lock_guard<std::mutex> lock(mu_);
  Entry* e = pods_.Find(pod.uid());
  if (e == nullptr || !e->assumed) {
    return absl::FailedPreconditionError(schedkit::StrCat("pod ", pod.key(), " is not assumed"));
  }
  if (e->pod->node_name() != pod.node_name()) {
    return absl::FailedPreconditionError(schedkit::StrCat("pod ", pod.key(), " was assumed on node ",
                                                          e->pod->node_name().str(), ", not ",
                                                          pod.node_name().str()));
  }
  absl::Status s = state_.RemovePod(*e->pod);
  pods_.Erase(pod.uid());
  return s;
}

absl::Status Cache::AddPod(framework::PodInfoPtr pod) {
  std::lock_guard<std::mutex> lock(mu_);
  if (Entry* e = pods_.Find(pod->uid()); e != nullptr) {
    if (!e->assumed) {
      return absl::AlreadyExistsError(schedkit::StrCat("pod ", pod->key(), " is already in the cache"));
    }
    // The host confirms what we assumed, or bound it elsewhere: either way
    // its object (newer, and on its real node) replaces ours.
    if (absl::Status s = state_.RemovePod(*e->pod); !s.ok()) return s;
    if (absl::Status s = state_.AddPod(pod); !s.ok()) return s;
    *e = Entry{std::move(pod), false};
    return absl::OkStatus();
  }
  if (absl::Status s = state_.AddPod(pod); !s.ok()) return s;
  pods_.Insert(Entry{std::move(pod), false});
  return absl::OkStatus();
}

absl::Status Cache::UpdatePod(framework::PodInfoPtr pod) {
  std::lock_guard<std::mutex> lock(mu_);
  Entry* e = pods_.Find(pod->uid());
  if (e == nullptr) {
    return absl::NotFoundError(schedkit::StrCat("pod ", pod->key(), " is not in the cache"));
  }
  if (e->assumed) {
    return absl::FailedPreconditionError(schedkit::StrCat("pod ", pod->key(), " is assumed; updates wait for its bind"));
  }
  if (absl::Status s = state_.RemovePod(*e->pod); !s.ok()) return s;
  if (absl::Status s = state_.AddPod(pod); !s.ok()) return s;
  e->pod = std::move(pod);
  return absl::OkStatus();
}

absl::Status Cache::RemovePod(const framework::PodInfo& pod) {
  std::lock_guard<std::mutex> lock(mu_);
  const Entry e = pods_.Take(pod.uid());
  if (e.pod == nullptr) {
    return absl::NotFoundError(schedkit::StrCat("pod ", pod.key(), " is not in the cache"));
  }
  return state_.RemovePod(*e.pod);
}

bool Cache::IsAssumed(const std::string& uid) const {
  std::lock_guard<std::mutex> lock(mu_);
  const Entry* e = pods_.Find(uid);
  return e != nullptr && e->assumed;
}

framework::PodInfoPtr Cache::GetPod(const std::string& uid) const {
  std::lock_guard<std::mutex> lock(mu_);
  const Entry* e = pods_.Find(uid);
  return e == nullptr ? nullptr : e->pod;
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
  pods_.ForEach([&](const Entry& e) { s.assumed_pods += e.assumed ? 1 : 0; });
  return s;
}

}  // namespace schedkit::scheduler
