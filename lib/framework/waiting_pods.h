// Internal to the framework: the pods parked at Permit (upstream's
// waitingPodsMap). RunPermitPlugins parks a pod when a plugin says Wait, with
// one timer per waiting plugin; the binding cycle blocks in Wait until every
// plugin allowed it, one rejected it, or a timer rejected it on expiry.
//
//   waiting.Park(pod, node, {{plugin, timeout}}, clock);
//   ... on the binding thread:
//   std::shared_ptr<WaitingPodImpl> wp = waiting.Get(pod.uid());
//   Status s = wp->Wait();
//   waiting.Remove(pod.uid());
//
// Thread-safe: Allow and Reject may come from any thread (plugins, timers,
// the host) while the binding thread waits.
#ifndef SCHEDKIT_LIB_FRAMEWORK_WAITING_PODS_H_
#define SCHEDKIT_LIB_FRAMEWORK_WAITING_PODS_H_

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/time/time.h"
#include "schedkit/framework/clock.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/framework/status.h"

namespace schedkit::framework {

// One pod parked at Permit on `node`, until each pending plugin allowed it or
// one rejected it.
class WaitingPodImpl : public WaitingPod {
 public:
  WaitingPodImpl(PodInfoPtr pod, Symbol node) : pod_(std::move(pod)), node_(node) {}

  const PodInfo& pod() const override { return *pod_; }
  Symbol node() const override { return node_; }
  std::vector<Symbol> pending_plugins() const override;
  void Allow(Symbol plugin) override;
  void Reject(Symbol plugin, std::string message) override;

  // Adds a plugin the pod waits for, with the timer that rejects it on expiry.
  void AddPending(Symbol plugin, std::shared_ptr<Timer> timer);
  // Blocks until the outcome: Success once every pending plugin allowed the
  // pod, else the rejection (Unschedulable, naming the plugin).
  Status Wait();

 private:
  PodInfoPtr pod_;
  Symbol node_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::pair<Symbol, std::shared_ptr<Timer>>> pending_ ABSL_GUARDED_BY(mu_);
  std::optional<Status> result_ ABSL_GUARDED_BY(mu_);
};

// The parked pods of one framework, by uid.
class WaitingPodMap {
 public:
  // Parks `pod` on `node` for the plugins of `waits`; each plugin's timer
  // rejects the pod after its timeout, with upstream's message.
  void Park(const PodInfoPtr& pod, Symbol node, const std::vector<std::pair<Symbol, absl::Duration>>& waits,
            Clock& clock);
  // The parked pod with this uid, or null.
  std::shared_ptr<WaitingPodImpl> Get(std::string_view uid) const;
  void Remove(std::string_view uid);
  // Calls `fn` for each parked pod, outside the lock (fn may Allow or Reject).
  void ForEach(const std::function<void(WaitingPod&)>& fn) const;

 private:
  mutable std::mutex mu_;
  absl::flat_hash_map<std::string, std::shared_ptr<WaitingPodImpl>> pods_ ABSL_GUARDED_BY(mu_);
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_LIB_FRAMEWORK_WAITING_PODS_H_
