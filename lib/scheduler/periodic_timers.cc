#include "scheduler/periodic_timers.h"

#include <utility>

namespace schedkit::scheduler {

void PeriodicTimers::Every(absl::Duration period, std::function<void()> work) {
  auto p = std::make_shared<Periodic>();
  p->period = period;
  p->work = std::move(work);
  {
    std::lock_guard<std::mutex> lock(mu_);
    periodics_.push_back(p);
  }
  Arm(p);
}

void PeriodicTimers::Arm(const std::shared_ptr<Periodic>& p) {
  std::weak_ptr<Periodic> weak = p;
  std::lock_guard<std::mutex> lock(p->mu);
  if (p->stopped) return;
  p->timer = clock_.AfterFunc(p->period, [this, weak] {
    auto self = weak.lock();
    if (self == nullptr) return;
    {
      std::lock_guard<std::mutex> lock(self->mu);
      if (self->stopped) return;
    }
    self->work();
    Arm(self);
  });
}

void PeriodicTimers::Stop() {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& p : periodics_) {
    std::lock_guard<std::mutex> p_lock(p->mu);
    p->stopped = true;
    if (p->timer) p->timer->Stop();
  }
}

}  // namespace schedkit::scheduler
