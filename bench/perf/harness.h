// What every schedkit-perf run is made of: the in-memory API server (a
// scheduler::Host), the scheduling thread, upstream's throughput sampler and
// the clocks and memory readings around them. RunWorkload (runner.h) and
// RunTrace (trace_runner.h) assemble them.
//
//   PerfHost host([&](const api::v1::Pod& p) { return Classify(p); });
//   SchedulingLoop loop(*sched, [&](const framework::PodInfo& p) { return IsMeasured(p); });
//   loop.Start();
//   ... add pods ...
//   loop.Stop();  // then loop.attempt_ms() is safe to read
#ifndef SCHEDKIT_BENCH_PERF_HARNESS_H_
#define SCHEDKIT_BENCH_PERF_HARNESS_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/time/time.h"
#include "schedkit/scheduler/scheduler.h"

namespace schedkit::perf {

using SteadyClock = std::chrono::steady_clock;

double Seconds(SteadyClock::duration d);
int64_t NowNanos();
// The resident set now, from /proc/self/statm; 0 if it cannot be read.
int64_t ResidentKb();

// Which of a run's pods a bind counts for.
enum class PodRole { kMeasured, kInit, kOther };

// The in-memory API server: every bind succeeds and is counted by the pod's
// role (upstream's throughput collector counts pods of the measured
// namespace whose spec.nodeName gets set); evicted victims are deleted at
// once through the scheduler, as the API server would. Bind and Evict run on
// the scheduler's threads.
class PerfHost : public scheduler::Host {
 public:
  explicit PerfHost(std::function<PodRole(const api::v1::Pod&)> role) : role_(std::move(role)) {}
  void set_scheduler(scheduler::Scheduler* s) { sched_ = s; }

  absl::Status Bind(const api::v1::Pod& pod, std::string_view node) override;
  absl::Status Evict(const api::v1::Pod& victim, const api::v1::Pod& preemptor, std::string_view node) override;

  // Keeps a copy of every init pod as bound (for --vs-upstream); set before
  // any pod is added.
  void RecordInitPlacements() { record_init_ = true; }
  // The init pods bound so far, with spec.nodeName set.
  api::ObjectSet TakeInitPlacements();

  int measured_bound() const { return measured_bound_.load(); }
  int init_bound() const { return init_bound_.load(); }
  int victims() const { return victims_.load(); }
  int64_t last_measured_bind_nanos() const { return last_measured_bind_nanos_.load(); }

 private:
  const std::function<PodRole(const api::v1::Pod&)> role_;
  scheduler::Scheduler* sched_ = nullptr;
  std::atomic<int> measured_bound_{0};
  std::atomic<int> init_bound_{0};
  std::atomic<int> victims_{0};
  std::atomic<int64_t> last_measured_bind_nanos_{0};
  bool record_init_ = false;
  std::mutex init_mu_;
  api::ObjectSet init_placed_ ABSL_GUARDED_BY(init_mu_);
};

// A thread that runs `tick` every `interval` (as Go's time.Ticker: the first
// tick one interval after Start) until Stop.
class Ticker {
 public:
  Ticker() = default;
  Ticker(const Ticker&) = delete;
  Ticker& operator=(const Ticker&) = delete;
  ~Ticker() { Stop(); }

  void Start(std::chrono::milliseconds interval, std::function<void()> tick);
  void Stop();

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopped_ = false;
  std::thread thread_;
};

// Upstream's throughputCollector (scheduler_perf/util.go): every second,
// the number of measured pods bound since the last sample over the measured
// interval. Ticks before the first bind are ignored, the first non-zero tick
// only sets the baseline, and intervals with no new bind are folded into the
// next sample, recorded once per interval it covers.
class ThroughputSampler {
 public:
  explicit ThroughputSampler(std::function<int()> count) : count_(std::move(count)) {}

  void Start();
  std::vector<double> Stop();

 private:
  void Tick();

  std::function<int()> count_;
  Ticker ticker_;
  // Ticker thread only (Stop joins it before samples_ is read).
  bool started_ = false;
  int last_count_ = 0;
  int skipped_ = 0;
  SteadyClock::time_point last_time_;
  std::vector<double> samples_;
};

// The scheduling thread: ScheduleOne in a loop, each call timed; the cycle
// observer (called on this thread inside ScheduleOne) says whose attempt it
// was. When no pod is ready it calls `on_idle` (if set): true means it gave
// the scheduler more to do, so the loop goes on at once; otherwise the loop
// sleeps from 10 us, doubling up to 1 ms (upstream blocks in Pop instead).
class SchedulingLoop {
 public:
  SchedulingLoop(scheduler::Scheduler& sched, std::function<bool(const framework::PodInfo&)> measured,
                 std::function<bool()> on_idle = nullptr);
  ~SchedulingLoop() { Stop(); }

  void Start();
  // Joins the thread; attempt_ms() is then safe to read.
  void Stop();

  int64_t attempts() const { return attempts_.load(); }
  int64_t measured_scheduled() const { return measured_scheduled_.load(); }
  int64_t measured_unschedulable() const { return measured_unschedulable_.load(); }
  int64_t measured_error() const { return measured_error_.load(); }
  std::vector<double>& attempt_ms() { return attempt_ms_; }

 private:
  void Loop();

  scheduler::Scheduler& sched_;
  const std::function<bool(const framework::PodInfo&)> measured_;
  const std::function<bool()> on_idle_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<int64_t> attempts_{0};
  std::atomic<int64_t> measured_scheduled_{0};
  std::atomic<int64_t> measured_unschedulable_{0};
  std::atomic<int64_t> measured_error_{0};
  // Scheduling thread only.
  bool attempt_measured_ = false;
  std::vector<double> attempt_ms_;
};

// Waits until count() reaches `target`; an error text when no progress was
// made for `stall`. `progress`, when set, gets the count about once a second.
std::string WaitForCount(const std::function<int()>& count, int target, absl::Duration stall,
                         const std::function<void(int)>& progress, const char* what);

}  // namespace schedkit::perf

#endif  // SCHEDKIT_BENCH_PERF_HARNESS_H_
