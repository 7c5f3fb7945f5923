// Internal: the informers kube-scheduler starts (eventhandlers.go), one
// reflector per kind its plugins read, each decoding the API's objects and
// handing them to a Scheduler as its events. Pods are filtered as upstream:
// assigned pods go to the cache, unassigned ones only when one of our
// profiles is responsible for them (spec.schedulerName).
#ifndef SCHEDKIT_LIB_KUBE_INFORMERS_H_
#define SCHEDKIT_LIB_KUBE_INFORMERS_H_

#include <atomic>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/time/time.h"
#include "kube/reflector.h"
#include "schedkit/kube/api_client.h"
#include "schedkit/scheduler/scheduler.h"

namespace schedkit::kube::internal {

class SchedulerInformers {
 public:
  // `profiles`: the schedulerNames this scheduler answers for. `client` and
  // `scheduler` must outlive this; Stop (or the destructor) before either goes.
  SchedulerInformers(const ApiClient& client, scheduler::Scheduler& scheduler, std::set<std::string> profiles,
                     ReflectorOptions options = {});
  ~SchedulerInformers();

  // One thread per reflector.
  void Start();
  // Upstream's WaitForCacheSync: true once every reflector handed over its
  // first list; false after `timeout`.
  bool WaitForCacheSync(absl::Duration timeout) const;
  // Stops and joins the reflectors (each within about a second).
  void Stop();

  // Objects the API sent that did not decode or validate (logged, skipped).
  int64_t rejected_objects() const { return rejected_.load(); }

 private:
  class KindHandler;
  const ApiClient& client_;
  std::vector<std::unique_ptr<KindHandler>> handlers_;
  std::vector<std::unique_ptr<Reflector>> reflectors_;
  std::vector<std::thread> threads_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> rejected_{0};
};

}  // namespace schedkit::kube::internal

#endif  // SCHEDKIT_LIB_KUBE_INFORMERS_H_
