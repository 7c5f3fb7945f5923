#include "schedkit/framework/parallelizer.h"

#include <algorithm>
#include <atomic>

#if defined(SCHEDKIT_TSAN)
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include <condition_variable>
#include <mutex>

#include "absl/base/thread_annotations.h"
#else
#include "tbb/blocked_range.h"
#include "tbb/info.h"
#include "tbb/parallel_for.h"
#include "tbb/task_arena.h"
#endif

namespace schedkit::framework {

#if !defined(SCHEDKIT_TSAN)

// Production: a oneTBB arena with `parallelism` slots.
struct Parallelizer::Arena {
  explicit Arena(int threads) : arena(threads) {}

  void Run(int n, int grain, absl::FunctionRef<void(int, int)> fn) {
    arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<int>(0, n, grain),
                        [&](const tbb::blocked_range<int>& r) { fn(r.begin(), r.end()); },
                        tbb::simple_partitioner());
    });
  }

  tbb::task_arena arena;
};

int HardwareThreads() { return std::max(1, tbb::info::default_concurrency()); }

#else

// Under ThreadSanitizer: oneTBB's scheduler is not instrumented, so TSan
// cannot see its happens-before edges and would report every hand-off.
// This pool synchronizes with std::mutex, which TSan understands, so the
// races it reports are ours.
struct Parallelizer::Arena {
  explicit Arena(int threads) {
    for (int i = 1; i < threads; ++i) workers.emplace_back([this] { Loop(); });
  }
  ~Arena() {
    {
      std::lock_guard<std::mutex> lock(mu);
      stopping = true;
    }
    cv.notify_all();
    for (auto& t : workers) t.join();
  }

  void Run(int n, int grain, absl::FunctionRef<void(int, int)> fn) {
    std::lock_guard<std::mutex> call(call_mu);  // one fan-out at a time
    {
      std::lock_guard<std::mutex> lock(mu);
      job = &fn;
      job_n = n;
      job_grain = grain;
      next.store(0);
      active = static_cast<int>(workers.size());
      ++epoch;
    }
    cv.notify_all();
    Work(fn, n, grain);
    std::unique_lock<std::mutex> lock(mu);
    done_cv.wait(lock, [this] { return active == 0; });
    job = nullptr;
  }

  void Work(absl::FunctionRef<void(int, int)> fn, int n, int grain) {
    for (;;) {
      const int begin = next.fetch_add(grain);
      if (begin >= n) return;
      fn(begin, std::min(n, begin + grain));
    }
  }

  void Loop() {
    uint64_t seen = 0;
    for (;;) {
      absl::FunctionRef<void(int, int)>* fn;
      int n, grain;
      {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return stopping || epoch != seen; });
        if (stopping) return;
        seen = epoch;
        fn = job;
        n = job_n;
        grain = job_grain;
      }
      Work(*fn, n, grain);
      std::lock_guard<std::mutex> lock(mu);
      if (--active == 0) done_cv.notify_all();
    }
  }

  std::mutex call_mu;
  std::mutex mu;
  std::condition_variable cv;
  std::condition_variable done_cv;
  std::vector<std::thread> workers;
  absl::FunctionRef<void(int, int)>* job = nullptr;
  int job_n = 0;
  int job_grain = 1;
  std::atomic<int> next{0};
  int active = 0;
  uint64_t epoch = 0;
  bool stopping = false;
};

int HardwareThreads() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

#endif

Parallelizer::Parallelizer(int parallelism) : parallelism_(std::max(1, parallelism)) {
  // More threads than cores only adds contention (upstream's default of 16
  // goroutines is cheap; 16 OS threads on 2 cores are not).
  const int threads = std::min(parallelism_, HardwareThreads());
  if (threads > 1) arena_ = std::make_unique<Arena>(threads);
}

Parallelizer::~Parallelizer() = default;

void Parallelizer::ForEach(int n, absl::FunctionRef<void(int)> fn) {
  ForRanges(n, 1, [&](int begin, int end) {
    for (int i = begin; i < end; ++i) fn(i);
  });
}

void Parallelizer::ForRanges(int n, int grain, absl::FunctionRef<void(int, int)> fn) {
  if (n <= 0) return;
  grain = std::max(1, grain);
  if (arena_ == nullptr || n <= grain) {
    fn(0, n);
    return;
  }
  arena_->Run(n, grain, fn);
}

}  // namespace schedkit::framework
