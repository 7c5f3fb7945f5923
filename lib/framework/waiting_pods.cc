#include "framework/waiting_pods.h"

#include "framework/framework_impl.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/framework/framework.h"

namespace schedkit::framework {
namespace {

// Go's %v of a duration as upstream prints it in the Permit timeout message.
std::string GoDuration(absl::Duration d) {
  if (d == absl::ZeroDuration()) return "0s";
  return absl::FormatDuration(d);
}

}  // namespace

std::vector<Symbol> WaitingPodImpl::pending_plugins() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Symbol> out;
  for (const auto& [plugin, timer] : pending_) out.push_back(plugin);
  return out;
}

void WaitingPodImpl::AddPending(Symbol plugin, std::shared_ptr<Timer> timer) {
  std::lock_guard<std::mutex> lock(mu_);
  pending_.emplace_back(plugin, std::move(timer));
}

void WaitingPodImpl::Allow(Symbol plugin) {
  std::lock_guard<std::mutex> lock(mu_);
  if (result_) return;
  for (auto it = pending_.begin(); it != pending_.end(); ++it) {
    if (it->first == plugin) {
      if (it->second) it->second->Stop();
      pending_.erase(it);
      break;
    }
  }
  if (pending_.empty()) {
    result_ = Status();
    cv_.notify_all();
  }
}

void WaitingPodImpl::Reject(Symbol plugin, std::string message) {
  std::lock_guard<std::mutex> lock(mu_);
  if (result_) return;
  for (auto& [p, timer] : pending_) {
    if (timer) timer->Stop();
  }
  Status s = Status::WithText(Code::kUnschedulable, std::move(message));
  s.WithPlugin(plugin);
  result_ = std::move(s);
  cv_.notify_all();
}

Status WaitingPodImpl::Wait() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return result_.has_value(); });
  return *result_;
}

void WaitingPodMap::Park(const PodInfoPtr& pod, Symbol node,
                       const std::vector<std::pair<Symbol, absl::Duration>>& waits, Clock& clock) {
  auto wp = std::make_shared<WaitingPodImpl>(pod, node);
  std::weak_ptr<WaitingPodImpl> weak = wp;
  for (const auto& [plugin, timeout] : waits) {
    auto timer = clock.AfterFunc(timeout, [weak, plugin = plugin, timeout = timeout] {
      if (auto p = weak.lock()) {
        p->Reject(plugin, schedkit::StrCat("rejected due to timeout after waiting ", GoDuration(timeout),
                                           " at plugin ", plugin.str()));
      }
    });
    wp->AddPending(plugin, std::move(timer));
  }
  std::lock_guard<std::mutex> lock(mu_);
  pods_[pod->uid()] = std::move(wp);
}

std::shared_ptr<WaitingPodImpl> WaitingPodMap::Get(std::string_view uid) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = pods_.find(absl::string_view(uid.data(), uid.size()));
  return it == pods_.end() ? nullptr : it->second;
}

void WaitingPodMap::Remove(std::string_view uid) {
  std::lock_guard<std::mutex> lock(mu_);
  pods_.erase(absl::string_view(uid.data(), uid.size()));
}

void WaitingPodMap::ForEach(const std::function<void(WaitingPod&)>& fn) const {
  std::vector<std::shared_ptr<WaitingPodImpl>> pods;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [uid, wp] : pods_) pods.push_back(wp);
  }
  for (const auto& wp : pods) fn(*wp);
}

// ---- the Handle's view of the parked pods, and the binding cycle's wait

Status Framework::WaitOnPermit(const PodInfo& pod) {
  std::shared_ptr<WaitingPodImpl> wp = impl_->waiting.Get(pod.uid());
  if (wp == nullptr) return Status();
  const absl::Time start = impl_->options.clock->Now();
  Status s = wp->Wait();
  impl_->waiting.Remove(pod.uid());
  impl_->metrics->ObservePermitWait(CodeName(s.code()), impl_->options.clock->Now() - start);
  if (s.IsSuccess()) return s;
  if (s.IsRejected()) return s;
  Status err = Status::Error(schedkit::StrCat("waiting on permit for pod: ", s.Message()));
  err.WithPlugin(s.plugin());
  return err;
}

void Framework::IterateOverWaitingPods(const std::function<void(WaitingPod&)>& fn) { impl_->waiting.ForEach(fn); }

bool Framework::HasWaitingPod(std::string_view uid) const { return impl_->waiting.Get(uid) != nullptr; }

bool Framework::AllowWaitingPod(std::string_view uid, Symbol plugin) {
  std::shared_ptr<WaitingPodImpl> wp = impl_->waiting.Get(uid);
  if (wp == nullptr) return false;
  wp->Allow(plugin);
  return true;
}

bool Framework::RejectWaitingPod(std::string_view uid, std::string message) {
  std::shared_ptr<WaitingPodImpl> wp = impl_->waiting.Get(uid);
  if (wp == nullptr) return false;
  wp->Reject(Symbol(), std::move(message));
  return true;
}

}  // namespace schedkit::framework

