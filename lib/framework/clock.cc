#include "schedkit/framework/clock.h"

#include <map>
#include <thread>
#include <utility>

#include <condition_variable>
#include <mutex>

#include "absl/base/thread_annotations.h"
#include "absl/time/clock.h"

namespace schedkit::framework {
namespace {

// Timers ordered by due time, then by creation; shared by both clocks.
class TimerQueue {
 public:
  struct Entry : Timer {
    explicit Entry(TimerQueue* q) : queue(q) {}
    bool Stop() override { return queue->Cancel(this); }
    TimerQueue* queue;
    std::function<void()> fn;
    std::multimap<std::pair<absl::Time, uint64_t>, std::shared_ptr<Entry>>::iterator it;
    bool pending = false;
  };

  std::shared_ptr<Timer> Add(absl::Time due, std::function<void()> fn) {
    auto e = std::make_shared<Entry>(this);
    e->fn = std::move(fn);
    std::lock_guard<std::mutex> lock(mu_);
    e->it = timers_.emplace(std::make_pair(due, next_++), e);
    e->pending = true;
    return e;
  }

  bool Cancel(Entry* e) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!e->pending) return false;
    e->pending = false;
    timers_.erase(e->it);
    return true;
  }

  // Removes and returns the earliest timer due at or before `now`.
  std::shared_ptr<Entry> PopDue(absl::Time now) {
    std::lock_guard<std::mutex> lock(mu_);
    if (timers_.empty() || timers_.begin()->first.first > now) return nullptr;
    auto e = timers_.begin()->second;
    timers_.erase(timers_.begin());
    e->pending = false;
    return e;
  }

  absl::Time Next() const {
    std::lock_guard<std::mutex> lock(mu_);
    return timers_.empty() ? absl::InfiniteFuture() : timers_.begin()->first.first;
  }

  std::mutex& mu() const { return mu_; }

 private:
  mutable std::mutex mu_;
  std::multimap<std::pair<absl::Time, uint64_t>, std::shared_ptr<Entry>> timers_;
  uint64_t next_ = 0;
};

// Wall time; one background thread runs due timers.
class RealClock : public Clock {
 public:
  RealClock() : thread_([this] { Loop(); }) { thread_.detach(); }

  absl::Time Now() const override { return absl::Now(); }

  std::shared_ptr<Timer> AfterFunc(absl::Duration delay, std::function<void()> fn) override {
    auto t = queue_.Add(absl::Now() + delay, std::move(fn));
    {
      std::lock_guard<std::mutex> lock(wake_mu_);
      ++wakeups_;
    }
    wake_cv_.notify_all();
    return t;
  }

 private:
  void Loop() {
    for (;;) {
      while (auto e = queue_.PopDue(absl::Now())) e->fn();
      std::unique_lock<std::mutex> lock(wake_mu_);
      const uint64_t seen = wakeups_;
      const absl::Time next = queue_.Next();
      auto changed = [&] { return wakeups_ != seen; };
      if (next == absl::InfiniteFuture()) {
        wake_cv_.wait(lock, changed);
      } else {
        wake_cv_.wait_until(lock, absl::ToChronoTime(next), changed);
      }
    }
  }

  TimerQueue queue_;
  std::mutex wake_mu_;
  std::condition_variable wake_cv_;
  uint64_t wakeups_ ABSL_GUARDED_BY(wake_mu_) = 0;
  std::thread thread_;
};

}  // namespace

struct FakeClock::State {
  mutable std::mutex mu;
  absl::Time now ABSL_GUARDED_BY(mu);
  TimerQueue queue;
};

Clock& Clock::Real() {
  static RealClock* clock = new RealClock();  // lives for the process
  return *clock;
}

FakeClock::FakeClock(absl::Time start) : state_(std::make_shared<State>()) {
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->now = start;
}

FakeClock::~FakeClock() = default;

absl::Time FakeClock::Now() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->now;
}

std::shared_ptr<Timer> FakeClock::AfterFunc(absl::Duration delay, std::function<void()> fn) {
  return state_->queue.Add(Now() + delay, std::move(fn));
}

void FakeClock::Advance(absl::Duration d) {
  absl::Time target;
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    target = state_->now + d;
  }
  // Step through due timers so each sees Now() equal to its due time.
  for (;;) {
    const absl::Time next = state_->queue.Next();
    if (next > target) break;
    {
      std::lock_guard<std::mutex> lock(state_->mu);
      if (next > state_->now) state_->now = next;
    }
    if (auto e = state_->queue.PopDue(next)) e->fn();
  }
  std::lock_guard<std::mutex> lock(state_->mu);
  state_->now = target;
}

absl::Time FakeClock::NextTimer() const { return state_->queue.Next(); }

}  // namespace schedkit::framework
