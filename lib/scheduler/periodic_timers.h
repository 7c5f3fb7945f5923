// Internal to the scheduler: work that runs every period on a Clock until
// stopped — the queue's flushes (backoffQ every 1 s, the unschedulable pool
// every 30 s, as upstream's). Each timer re-arms itself from its callback, so
// a FakeClock in tests drives them like the real one.
//
//   PeriodicTimers timers(clock);
//   timers.Every(absl::Seconds(1), [&] { queue.FlushBackoffQCompleted(); });
//   timers.Stop();
//
// Thread-safe. After Stop returns, no work starts; work already running may
// finish.
#ifndef SCHEDKIT_LIB_SCHEDULER_PERIODIC_TIMERS_H_
#define SCHEDKIT_LIB_SCHEDULER_PERIODIC_TIMERS_H_

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/time/time.h"
#include "schedkit/framework/clock.h"

namespace schedkit::scheduler {

class PeriodicTimers {
 public:
  explicit PeriodicTimers(framework::Clock& clock) : clock_(clock) {}
  ~PeriodicTimers() { Stop(); }

  // Runs `work` every `period` from now on, on the clock's timer thread.
  void Every(absl::Duration period, std::function<void()> work);
  void Stop();

 private:
  struct Periodic {
    absl::Duration period;
    std::function<void()> work;
    std::mutex mu;
    std::shared_ptr<framework::Timer> timer ABSL_GUARDED_BY(mu);
    bool stopped ABSL_GUARDED_BY(mu) = false;
  };
  void Arm(const std::shared_ptr<Periodic>& p);

  framework::Clock& clock_;
  std::mutex mu_;
  std::vector<std::shared_ptr<Periodic>> periodics_ ABSL_GUARDED_BY(mu_);
};

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_LIB_SCHEDULER_PERIODIC_TIMERS_H_
