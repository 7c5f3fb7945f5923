#include "harness.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <utility>

#include "schedkit/base/str_cat.h"

namespace schedkit::perf {

double Seconds(SteadyClock::duration d) { return std::chrono::duration<double>(d).count(); }

int64_t NowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(SteadyClock::now().time_since_epoch()).count();
}

int64_t ResidentKb() {
  std::ifstream statm("/proc/self/statm");
  int64_t size = 0, resident = 0;
  if (!(statm >> size >> resident)) return 0;
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

absl::Status PerfHost::Bind(const api::v1::Pod& pod, std::string_view node) {
  switch (role_(pod)) {
    case PodRole::kMeasured:
      measured_bound_.fetch_add(1);
      last_measured_bind_nanos_.store(NowNanos());
      break;
    case PodRole::kInit:
      if (record_init_) {
        std::lock_guard<std::mutex> lock(init_mu_);
        api::v1::Pod bound = pod;
        bound.mutable_spec()->set_node_name(std::string(node));
        init_placed_.Add(std::move(bound));
      }
      init_bound_.fetch_add(1);
      break;
    case PodRole::kOther:
      break;
  }
  return absl::OkStatus();
}

absl::Status PerfHost::Evict(const api::v1::Pod& victim, const api::v1::Pod&, std::string_view) {
  victims_.fetch_add(1);
  return sched_->DeletePod(victim.metadata().namespace_(), victim.metadata().name());
}

api::ObjectSet PerfHost::TakeInitPlacements() {
  std::lock_guard<std::mutex> lock(init_mu_);
  return std::move(init_placed_);
}

void Ticker::Start(std::chrono::milliseconds interval, std::function<void()> tick) {
  thread_ = std::thread([this, interval, tick = std::move(tick)] {
    auto next = SteadyClock::now() + interval;
    std::unique_lock<std::mutex> lock(mu_);
    while (!cv_.wait_until(lock, next, [this] { return stopped_; })) {
      lock.unlock();
      tick();
      lock.lock();
      // A late tick is not made up for, as a Go ticker drops missed ticks.
      next += interval;
      const auto now = SteadyClock::now();
      while (next <= now) next += interval;
    }
  });
}

void Ticker::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopped_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void ThroughputSampler::Start() {
  last_time_ = SteadyClock::now();
  ticker_.Start(std::chrono::seconds(1), [this] { Tick(); });
}

std::vector<double> ThroughputSampler::Stop() {
  ticker_.Stop();
  return samples_;
}

void ThroughputSampler::Tick() {
  const auto now = SteadyClock::now();
  const int scheduled = count_();
  if (scheduled == 0) return;
  if (!started_) {
    started_ = true;
    last_count_ = scheduled;
    last_time_ = now;
    return;
  }
  const int added = scheduled - last_count_;
  if (added == 0) {
    ++skipped_;
    return;
  }
  const double rate = added / Seconds(now - last_time_);
  for (int i = 0; i <= skipped_; ++i) samples_.push_back(rate);
  last_count_ = scheduled;
  last_time_ = now;
  skipped_ = 0;
}

SchedulingLoop::SchedulingLoop(scheduler::Scheduler& sched, std::function<bool(const framework::PodInfo&)> measured,
                               std::function<bool()> on_idle)
    : sched_(sched), measured_(std::move(measured)), on_idle_(std::move(on_idle)) {
  sched_.SetCycleObserver([this](const scheduler::CycleReport& r) {
    attempts_.fetch_add(1, std::memory_order_relaxed);
    if (!measured_(*r.pod)) return;
    attempt_measured_ = true;
    if (!r.node.empty()) {
      measured_scheduled_.fetch_add(1, std::memory_order_relaxed);
    } else if (r.code == framework::Code::kError) {
      measured_error_.fetch_add(1, std::memory_order_relaxed);
    } else {
      measured_unschedulable_.fetch_add(1, std::memory_order_relaxed);
    }
  });
}

void SchedulingLoop::Start() {
  thread_ = std::thread([this] { Loop(); });
}

void SchedulingLoop::Stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
  sched_.SetCycleObserver(nullptr);
}

void SchedulingLoop::Loop() {
  int idle_us = 0;
  while (!stop_.load(std::memory_order_relaxed)) {
    attempt_measured_ = false;
    const auto start = SteadyClock::now();
    if (sched_.ScheduleOne()) {
      idle_us = 0;
      if (attempt_measured_) attempt_ms_.push_back(Seconds(SteadyClock::now() - start) * 1e3);
      continue;
    }
    if (on_idle_ && on_idle_()) {
      idle_us = 0;
      continue;
    }
    // Nothing ready: back off from 10 us up to 1 ms, so a pod added while
    // idle waits at most about that long.
    idle_us = std::min(idle_us * 2 + 10, 1000);
    std::this_thread::sleep_for(std::chrono::microseconds(idle_us));
  }
}

std::string WaitForCount(const std::function<int()>& count, int target, absl::Duration stall,
                         const std::function<void(int)>& progress, const char* what) {
  int last = count();
  auto last_change = SteadyClock::now();
  auto last_report = SteadyClock::now();
  const auto stall_after = absl::ToChronoNanoseconds(stall);
  while (last < target) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const int now_count = count();
    const auto now = SteadyClock::now();
    if (now_count != last) {
      last = now_count;
      last_change = now;
    } else if (now - last_change > stall_after) {
      return schedkit::StrCat(what, ": ", last, " of ", target, " pods bound, none in the last ",
                              absl::FormatDuration(stall));
    }
    if (progress && now - last_report >= std::chrono::seconds(1)) {
      last_report = now;
      progress(last);
    }
  }
  return "";
}

}  // namespace schedkit::perf
