#include "schedkit/framework/metrics.h"

#include <map>
#include <vector>

#include "absl/strings/str_format.h"
#include <condition_variable>
#include <mutex>

#include "absl/base/thread_annotations.h"
#include "absl/time/clock.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::framework {
namespace {

std::vector<double> ExponentialBuckets(double start, double factor, int count) {
  std::vector<double> b;
  for (int i = 0; i < count; ++i, start *= factor) b.push_back(start);
  return b;
}

// Label pairs already rendered as `k="v",k2="v2"`, the series key.
using Labels = std::string;

std::string Escape(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string Label(std::string_view k, std::string_view v) { return schedkit::StrCat(k, "=\"", Escape(v), "\""); }

std::string FormatNumber(double v) { return absl::StrFormat("%.9g", v); }

struct Histogram {
  std::vector<uint64_t> counts;  // per bucket, not cumulative
  uint64_t count = 0;
  double sum = 0;
};

struct HistogramFamily {
  std::string help;
  std::vector<double> buckets;
  std::map<Labels, Histogram> series;

  void Observe(const Labels& labels, double v) {
    Histogram& h = series[labels];
    if (h.counts.empty()) h.counts.assign(buckets.size(), 0);
    for (size_t i = 0; i < buckets.size(); ++i) {
      if (v <= buckets[i]) {
        ++h.counts[i];
        break;
      }
    }
    ++h.count;
    h.sum += v;
  }
};

struct ScalarFamily {
  std::string help;
  std::string type;  // counter or gauge
  std::map<Labels, double> series;
};

}  // namespace

std::string_view ExtensionPointName(ExtensionPoint point) {
  switch (point) {
    case ExtensionPoint::kPreEnqueue: return "PreEnqueue";
    case ExtensionPoint::kPreFilter: return "PreFilter";
    case ExtensionPoint::kPreFilterExtensionAddPod: return "PreFilterExtensionAddPod";
    case ExtensionPoint::kPreFilterExtensionRemovePod: return "PreFilterExtensionRemovePod";
    case ExtensionPoint::kFilter: return "Filter";
    case ExtensionPoint::kPostFilter: return "PostFilter";
    case ExtensionPoint::kPreScore: return "PreScore";
    case ExtensionPoint::kScore: return "Score";
    case ExtensionPoint::kScoreExtensionNormalize: return "ScoreExtensionNormalize";
    case ExtensionPoint::kReserve: return "Reserve";
    case ExtensionPoint::kUnreserve: return "Unreserve";
    case ExtensionPoint::kPermit: return "Permit";
    case ExtensionPoint::kPreBind: return "PreBind";
    case ExtensionPoint::kBind: return "Bind";
    case ExtensionPoint::kPostBind: return "PostBind";
  }
  return "Unknown";
}

struct PrometheusRecorder::Impl {
  mutable std::mutex mu;
  std::map<std::string, HistogramFamily> histograms ABSL_GUARDED_BY(mu);
  std::map<std::string, ScalarFamily> scalars ABSL_GUARDED_BY(mu);
};

PrometheusRecorder::PrometheusRecorder() : impl_(std::make_unique<Impl>()) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto& h = impl_->histograms;
  h["scheduler_framework_extension_point_duration_seconds"] = {
      "Latency for running all plugins of a specific extension point.", ExponentialBuckets(0.0001, 2, 12), {}};
  h["scheduler_plugin_execution_duration_seconds"] = {
      "Duration for running a plugin at a specific extension point.", ExponentialBuckets(0.00001, 1.5, 20), {}};
  h["scheduler_scheduling_attempt_duration_seconds"] = {
      "Scheduling attempt latency in seconds (scheduling algorithm + binding)", ExponentialBuckets(0.001, 2, 15), {}};
  h["scheduler_preemption_victims"] = {"Number of selected preemption victims", ExponentialBuckets(1, 2, 7), {}};
  h["scheduler_permit_wait_duration_seconds"] = {"Duration of waiting on permit.", ExponentialBuckets(0.001, 2, 15), {}};
  h["scheduler_pod_scheduling_sli_duration_seconds"] = {
      "E2e latency for a pod being scheduled, from the time the pod enters the scheduling queue and might involve "
      "multiple scheduling attempts.",
      ExponentialBuckets(0.01, 2, 20),
      {}};
  h["scheduler_pod_scheduling_attempts"] = {
      "Number of attempts to successfully schedule a pod.", ExponentialBuckets(1, 2, 5), {}};
  auto& s = impl_->scalars;
  s["scheduler_schedule_attempts_total"] = {
      "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could not be scheduled, "
      "while 'error' means an internal scheduler problem.", "counter", {}};
  s["scheduler_pending_pods"] = {
      "Number of pending pods, by the queue type. 'active' means number of pods in activeQ; 'backoff' means number "
      "of pods in backoffQ; 'unschedulable' means number of pods in unschedulablePods that the scheduler attempted "
      "to schedule and failed; 'gated' is the number of unschedulable pods that the scheduler never attempted to "
      "schedule because they are gated.", "gauge", {}};
  s["scheduler_preemption_attempts_total"] = {"Total preemption attempts in the cluster till now", "counter", {}};
}

PrometheusRecorder::~PrometheusRecorder() = default;

void PrometheusRecorder::ObserveExtensionPoint(ExtensionPoint point, Code status, std::string_view profile,
                                               absl::Duration d) {
  const Labels l = schedkit::StrCat(Label("extension_point", ExtensionPointName(point)), ",",
                                    Label("profile", profile), ",", Label("status", CodeName(status)));
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->histograms["scheduler_framework_extension_point_duration_seconds"].Observe(l, absl::ToDoubleSeconds(d));
}

void PrometheusRecorder::ObservePlugin(std::string_view plugin, ExtensionPoint point, Code status,
                                       absl::Duration d) {
  const Labels l = schedkit::StrCat(Label("extension_point", ExtensionPointName(point)), ",",
                                    Label("plugin", plugin), ",", Label("status", CodeName(status)));
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->histograms["scheduler_plugin_execution_duration_seconds"].Observe(l, absl::ToDoubleSeconds(d));
}

void PrometheusRecorder::ObserveScheduleAttempt(std::string_view result, std::string_view profile,
                                                absl::Duration d) {
  const Labels l = schedkit::StrCat(Label("profile", profile), ",", Label("result", result));
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->histograms["scheduler_scheduling_attempt_duration_seconds"].Observe(l, absl::ToDoubleSeconds(d));
  impl_->scalars["scheduler_schedule_attempts_total"].series[l] += 1;
}

void PrometheusRecorder::SetPendingPods(std::string_view queue, int64_t count) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->scalars["scheduler_pending_pods"].series[Label("queue", queue)] = static_cast<double>(count);
}

void PrometheusRecorder::ObservePreemption(int victims) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->scalars["scheduler_preemption_attempts_total"].series[""] += 1;
  impl_->histograms["scheduler_preemption_victims"].Observe("", victims);
}

void PrometheusRecorder::ObservePermitWait(std::string_view result, absl::Duration d) {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->histograms["scheduler_permit_wait_duration_seconds"].Observe(Label("result", result),
                                                                      absl::ToDoubleSeconds(d));
}

void PrometheusRecorder::ObservePodScheduled(int attempts, absl::Duration since_first_attempt) {
  // Attempts are capped in the label to keep the series few, as upstream.
  const Labels l = Label("attempts", attempts >= 15 ? std::string("15+") : std::to_string(attempts));
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->histograms["scheduler_pod_scheduling_sli_duration_seconds"].Observe(
      l, absl::ToDoubleSeconds(since_first_attempt));
  impl_->histograms["scheduler_pod_scheduling_attempts"].Observe("", attempts);
}

std::string PrometheusRecorder::Render() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  std::string out;
  auto braces = [](const std::string& labels, const std::string& extra) {
    std::string all = labels;
    if (!extra.empty()) all = all.empty() ? extra : schedkit::StrCat(all, ",", extra);
    return all.empty() ? std::string() : schedkit::StrCat("{", all, "}");
  };
  for (const auto& [name, fam] : impl_->scalars) {
    schedkit::StrAppend(&out, "# HELP ", name, " ", fam.help, "\n# TYPE ", name, " ", fam.type, "\n");
    for (const auto& [labels, v] : fam.series) {
      schedkit::StrAppend(&out, name, braces(labels, ""), " ", FormatNumber(v), "\n");
    }
  }
  for (const auto& [name, fam] : impl_->histograms) {
    schedkit::StrAppend(&out, "# HELP ", name, " ", fam.help, "\n# TYPE ", name, " histogram\n");
    for (const auto& [labels, h] : fam.series) {
      uint64_t cumulative = 0;
      for (size_t i = 0; i < fam.buckets.size(); ++i) {
        cumulative += h.counts[i];
        schedkit::StrAppend(&out, name, "_bucket", braces(labels, Label("le", FormatNumber(fam.buckets[i]))), " ",
                            cumulative, "\n");
      }
      schedkit::StrAppend(&out, name, "_bucket", braces(labels, Label("le", "+Inf")), " ", h.count, "\n");
      schedkit::StrAppend(&out, name, "_sum", braces(labels, ""), " ", FormatNumber(h.sum), "\n");
      schedkit::StrAppend(&out, name, "_count", braces(labels, ""), " ", h.count, "\n");
    }
  }
  return out;
}

}  // namespace schedkit::framework
