// Internal to the scheduler: the Executor for binding cycles when the host
// gives none — a fixed pool of threads taking tasks in submission order.
//
//   ThreadPoolExecutor pool(4);
//   pool.Submit([] { BindingCycle(...); });
//
// Thread-safe. The destructor runs the tasks already submitted, then joins.
#ifndef SCHEDKIT_LIB_SCHEDULER_THREAD_POOL_EXECUTOR_H_
#define SCHEDKIT_LIB_SCHEDULER_THREAD_POOL_EXECUTOR_H_

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "schedkit/scheduler/host.h"

namespace schedkit::scheduler {

class ThreadPoolExecutor : public Executor {
 public:
  explicit ThreadPoolExecutor(int threads);
  ~ThreadPoolExecutor() override;
  void Submit(std::function<void()> task) override;

 private:
  void Loop();

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> workers_;
};

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_LIB_SCHEDULER_THREAD_POOL_EXECUTOR_H_
