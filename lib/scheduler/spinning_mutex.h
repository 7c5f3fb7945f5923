// SpinningMutex / SpinningSharedMutex: std::mutex and std::shared_mutex that
// retry for a few microseconds before sleeping in the kernel.
//
// The scheduling queue and the pod table are locked by the scheduling thread
// several times per cycle and by the host's threads on every pod event, each
// time for about a microsecond. A plain pthread lock puts the loser of such a
// race to sleep on a futex and makes the winner pay a wake-up: two system
// calls and a context switch, ten times the critical section, and with a
// host adding pods as fast as they are scheduled it happened on nearly every
// pod (SchedulingBasic, bench/README.md). Go's sync.Mutex, which upstream's
// queue uses, spins briefly for the same reason.
//
// Built on the std types, not absl::Mutex (which spins too), because
// ThreadSanitizer sees the std types' pthread calls and not Debian's Abseil.
// Both meet the standard Lockable / SharedLockable requirements, so
// std::lock_guard, std::unique_lock, std::shared_lock and
// std::condition_variable_any work with them.
#ifndef SCHEDKIT_LIB_SCHEDULER_SPINNING_MUTEX_H_
#define SCHEDKIT_LIB_SCHEDULER_SPINNING_MUTEX_H_

#include <mutex>
#include <shared_mutex>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace schedkit::scheduler {

namespace spinning_internal {

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// About 5 us of retries on current x86 cores (a pause is tens of cycles):
// longer than the critical sections, short enough that a lock whose holder
// was preempted costs little before the waiter sleeps.
inline constexpr int kTries = 64;
inline constexpr int kPausesPerTry = 32;

template <typename TryLock>
bool Spin(TryLock try_lock) {
  for (int t = 0; t < kTries; ++t) {
    if (try_lock()) return true;
    for (int p = 0; p < kPausesPerTry; ++p) CpuRelax();
  }
  return false;
}

}  // namespace spinning_internal

// `Std` is std::mutex or std::shared_mutex; the shared members exist for the
// latter only.
template <typename Std>
class Spinning {
 public:
  void lock() {
    if (!spinning_internal::Spin([this] { return mu_.try_lock(); })) mu_.lock();
  }
  bool try_lock() { return mu_.try_lock(); }
  void unlock() { mu_.unlock(); }

  void lock_shared()
    requires requires(Std m) { m.lock_shared(); }
  {
    if (!spinning_internal::Spin([this] { return mu_.try_lock_shared(); })) mu_.lock_shared();
  }
  bool try_lock_shared()
    requires requires(Std m) { m.try_lock_shared(); }
  {
    return mu_.try_lock_shared();
  }
  void unlock_shared()
    requires requires(Std m) { m.unlock_shared(); }
  {
    mu_.unlock_shared();
  }

 private:
  Std mu_;
};

using SpinningMutex = Spinning<std::mutex>;
using SpinningSharedMutex = Spinning<std::shared_mutex>;

}  // namespace schedkit::scheduler

#endif  // SCHEDKIT_LIB_SCHEDULER_SPINNING_MUTEX_H_
