// MetricsRecorder: where the framework and scheduler report durations and
// outcomes, under upstream's metric names. The default PrometheusRecorder
// keeps histograms and renders the Prometheus text exposition format.
//
//   PrometheusRecorder metrics;
//   ... build the scheduler with &metrics ...
//   std::cout << metrics.Render();   // scheduler_framework_extension_point_duration_seconds_bucket{...}
//
// Implementations must be thread-safe: binding cycles report concurrently.
#ifndef SCHEDKIT_FRAMEWORK_METRICS_H_
#define SCHEDKIT_FRAMEWORK_METRICS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/time/time.h"
#include "schedkit/framework/status.h"

namespace schedkit::framework {

enum class ExtensionPoint : uint8_t {
  kPreEnqueue,
  kPreFilter,
  kPreFilterExtensionAddPod,
  kPreFilterExtensionRemovePod,
  kFilter,
  kPostFilter,
  kPreScore,
  kScore,
  kScoreExtensionNormalize,
  kReserve,
  kUnreserve,
  kPermit,
  kPreBind,
  kBind,
  kPostBind,
};

// Upstream's label values: "PreFilter", "Filter", "ScoreExtensionNormalize", ...
std::string_view ExtensionPointName(ExtensionPoint point);

class MetricsRecorder {
 public:
  virtual ~MetricsRecorder() = default;
  // scheduler_framework_extension_point_duration_seconds{extension_point,status,profile}
  virtual void ObserveExtensionPoint(ExtensionPoint point, Code status, std::string_view profile,
                                     absl::Duration d) = 0;
  // scheduler_plugin_execution_duration_seconds{plugin,extension_point,status}
  virtual void ObservePlugin(std::string_view plugin, ExtensionPoint point, Code status, absl::Duration d) = 0;
  // scheduler_schedule_attempts_total and scheduler_scheduling_attempt_duration_seconds
  // {result=scheduled|unschedulable|error, profile}
  virtual void ObserveScheduleAttempt(std::string_view result, std::string_view profile, absl::Duration d) = 0;
  // scheduler_pending_pods{queue=active|backoff|unschedulable|gated}
  virtual void SetPendingPods(std::string_view queue, int64_t count) = 0;
  // scheduler_preemption_attempts_total and scheduler_preemption_victims
  virtual void ObservePreemption(int victims) = 0;
  // scheduler_permit_wait_duration_seconds{result}
  virtual void ObservePermitWait(std::string_view result, absl::Duration d) = 0;
  // A pod bound after `attempts` scheduling attempts, `since_first_attempt`
  // after its first one: scheduler_pod_scheduling_sli_duration_seconds
  // {attempts="1".."14","15+"} and scheduler_pod_scheduling_attempts. A
  // binding thread; the default records nothing.
  virtual void ObservePodScheduled(int attempts, absl::Duration since_first_attempt) {
    (void)attempts;
    (void)since_first_attempt;
  }
};

// Discards everything; the default when the host passes none.
class NoopMetricsRecorder : public MetricsRecorder {
 public:
  void ObserveExtensionPoint(ExtensionPoint, Code, std::string_view, absl::Duration) override {}
  void ObservePlugin(std::string_view, ExtensionPoint, Code, absl::Duration) override {}
  void ObserveScheduleAttempt(std::string_view, std::string_view, absl::Duration) override {}
  void SetPendingPods(std::string_view, int64_t) override {}
  void ObservePreemption(int) override {}
  void ObservePermitWait(std::string_view, absl::Duration) override {}
};

// Histograms with upstream's bucket layouts, exported as Prometheus text.
class PrometheusRecorder : public MetricsRecorder {
 public:
  PrometheusRecorder();
  ~PrometheusRecorder() override;

  void ObserveExtensionPoint(ExtensionPoint point, Code status, std::string_view profile,
                             absl::Duration d) override;
  void ObservePlugin(std::string_view plugin, ExtensionPoint point, Code status, absl::Duration d) override;
  void ObserveScheduleAttempt(std::string_view result, std::string_view profile, absl::Duration d) override;
  void SetPendingPods(std::string_view queue, int64_t count) override;
  void ObservePreemption(int victims) override;
  void ObservePermitWait(std::string_view result, absl::Duration d) override;
  void ObservePodScheduled(int attempts, absl::Duration since_first_attempt) override;

  // Every metric in the Prometheus text exposition format (version 0.0.4),
  // families and series sorted for stable output.
  std::string Render() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_METRICS_H_
