// Clock: the time seam. The scheduler reads time and arms timers (Permit
// timeouts, backoff, flushes) only through a Clock, so tests drive it with a
// FakeClock and get deterministic timings.
//
//   FakeClock clock;
//   auto timer = clock.AfterFunc(absl::Seconds(5), [&] { fired = true; });
//   clock.Advance(absl::Seconds(5));   // runs the callback on this thread
//
// Thread-safe.
#ifndef SCHEDKIT_FRAMEWORK_CLOCK_H_
#define SCHEDKIT_FRAMEWORK_CLOCK_H_

#include <functional>
#include <memory>

#include "absl/time/time.h"

namespace schedkit::framework {

class Timer {
 public:
  virtual ~Timer() = default;
  // Prevents the callback if it has not started; true if it was prevented.
  virtual bool Stop() = 0;
};

class Clock {
 public:
  virtual ~Clock() = default;
  virtual absl::Time Now() const = 0;
  // Runs `fn` once, no earlier than `delay` from now, on a clock thread (the
  // real clock) or inside Advance (the fake one).
  virtual std::shared_ptr<Timer> AfterFunc(absl::Duration delay, std::function<void()> fn) = 0;

  // The process-wide wall clock.
  static Clock& Real();
};

class FakeClock : public Clock {
 public:
  explicit FakeClock(absl::Time start = absl::FromUnixSeconds(1700000000));
  ~FakeClock() override;

  absl::Time Now() const override;
  std::shared_ptr<Timer> AfterFunc(absl::Duration delay, std::function<void()> fn) override;

  // Moves time forward, running every timer that falls due (in due order).
  void Advance(absl::Duration d);
  // The earliest pending timer's due time, or InfiniteFuture.
  absl::Time NextTimer() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_CLOCK_H_
