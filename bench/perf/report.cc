#include "report.h"

#include <cstdio>

#include "schedkit/base/str_cat.h"
#include "schedkit/base/upstream_version.h"

namespace schedkit::perf {
namespace {

std::string Format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), fmt, v);
  return buf;
}

nlohmann::ordered_json PercentileData(const Summary& s) {
  nlohmann::ordered_json d = nlohmann::ordered_json::object();
  if (s.count == 0) return d;  // as upstream: an item without data
  d["Average"] = s.average;
  d["Perc50"] = s.perc50;
  d["Perc90"] = s.perc90;
  d["Perc95"] = s.perc95;
  d["Perc99"] = s.perc99;
  return d;
}

nlohmann::ordered_json Item(nlohmann::ordered_json data, const char* unit, const char* metric, const Report& r) {
  nlohmann::ordered_json item;
  item["data"] = std::move(data);
  item["unit"] = unit;
  item["labels"] = {{"Metric", metric}, {"Name", RunName(r)}};
  return item;
}

// How many times slower than the floor the whole run was.
double RatioToFloor(const RunResult& run, const FloorResult& f) {
  const double pps = run.whole_run_pods_per_second();
  return pps > 0 ? f.pods_per_second() / pps : 0;
}

nlohmann::ordered_json FloorItem(const Report& r, const FloorResult& f, const char* scan) {
  nlohmann::ordered_json data;
  data["NsPerPod"] = f.ns_per_pod;
  data["PodsPerSecond"] = f.pods_per_second();
  data["NodesRead"] = f.nodes_read;
  data["Columns"] = f.columns;
  data["BytesPerPod"] = f.bytes_per_pod();
  data["WholeRunTimesFloor"] = RatioToFloor(*r.run, f);
  nlohmann::ordered_json item = Item(std::move(data), "ns", "MemoryReadFloor", r);
  item["labels"]["Scan"] = scan;
  return item;
}

// schedkit's whole-run pods/s over upstream's, on the same pods.
double UpstreamRatio(const Report& r) {
  const double theirs = r.upstream->pods_per_second();
  return theirs > 0 ? r.run->whole_run_pods_per_second() / theirs : 0;
}

}  // namespace

std::string RunName(const Report& r) {
  return schedkit::StrCat(r.workload->name, "/", r.nodes, "Nodes_", r.pods, "Pods",
                          r.distinct_pods ? "/DistinctPods" : "");
}

nlohmann::ordered_json DataItemsJson(const Report& r) {
  const RunResult& run = *r.run;
  nlohmann::ordered_json items = nlohmann::ordered_json::array();
  items.push_back(Item(PercentileData(Summarize(run.throughput_samples)), "pods/s", "SchedulingThroughput", r));
  items.push_back(Item(PercentileData(Summarize(run.attempt_ms)), "ms", "SchedulingAttemptDuration", r));
  items.push_back(Item({{"Average", run.whole_run_pods_per_second()}}, "pods/s", "SchedulingThroughputWholeRun", r));
  items.push_back(FloorItem(r, r.floor_sampled, "sampled"));
  items.push_back(FloorItem(r, r.floor_all, "all-nodes"));
  items.push_back(Item({{"Value", static_cast<double>(run.peak_rss_kb) / 1024.0}}, "MiB", "PeakRSS", r));
  items.push_back(Item({{"BytesPerNode", run.bytes_per_node()},
                        {"BytesPerInitPod", run.bytes_per_init_pod()},
                        {"NodesMiB", static_cast<double>(run.rss_nodes_kb - run.rss_start_kb) / 1024.0},
                        {"InitPodsMiB", static_cast<double>(run.rss_init_kb - run.rss_nodes_kb) / 1024.0}},
                       "bytes", "Memory", r));

  nlohmann::ordered_json s;
  s["Nodes"] = run.nodes;
  s["InitPods"] = run.init_pods;
  s["InitScheduled"] = run.init_scheduled;
  s["MeasuredPods"] = run.measured_pods;
  // Every measured pod of every built-in workload is schedulable
  // (CheckSchedulable); a workload file's need not be.
  if (!run.trace) s["MeasuredSchedulable"] = run.measured_pods;
  s["MeasuredScheduled"] = run.measured_scheduled;
  s["Complete"] = run.complete();
  s["PreemptionVictims"] = run.preemption_victims;
  s["ChurnPods"] = run.churn_pods;
  s["ChurnNodes"] = run.churn_nodes;
  s["ChurnTicks"] = run.churn_ticks;
  if (run.trace) {
    s["Batches"] = run.batches;
    s["TraceDeletions"] = run.trace_deletions;
    s["PendingAtEnd"] = run.pending_at_end;
  }
  s["Attempts"] = run.attempts;
  s["MeasuredAttempts"] = run.measured_attempts;
  s["MeasuredAttemptsScheduled"] = run.measured_attempts_scheduled;
  s["MeasuredAttemptsUnschedulable"] = run.measured_attempts_unschedulable;
  s["MeasuredAttemptsError"] = run.measured_attempts_error;
  s["ThroughputSamples"] = run.throughput_samples.size();
  s["InitSeconds"] = run.init_seconds;
  s["MeasuredSeconds"] = run.measured_seconds;
  s["Parallelism"] = r.parallelism;
  s["Binding"] = r.binding;
  s["OutcomeMemo"] = r.memoize;
  s["DistinctPods"] = r.distinct_pods;
  s["Allocator"] = r.allocator;
  s["ThresholdV135"] = r.workload->threshold_v135;
  s["Threshold2026"] = r.workload->threshold_2026;
  nlohmann::ordered_json summary = Item(std::move(s), "pods", "Summary", r);
  if (!run.complete()) summary["labels"]["Error"] = run.error;
  items.push_back(std::move(summary));
  if (r.upstream) {
    nlohmann::ordered_json theirs =
        Item({{"Average", r.upstream->pods_per_second()}}, "pods/s", "SchedulingThroughputWholeRun", r);
    theirs["labels"]["Scheduler"] = "kube-scheduler";
    items.push_back(std::move(theirs));
    nlohmann::ordered_json v;
    v["Ratio"] = UpstreamRatio(r);
    v["UpstreamPods"] = r.upstream->pods;
    v["UpstreamScheduled"] = r.upstream->scheduled;
    v["UpstreamAttempts"] = r.upstream->attempts;
    v["UpstreamSeconds"] = r.upstream->seconds;
    items.push_back(Item(std::move(v), "x", "VsUpstream", r));
  }

  nlohmann::ordered_json out;
  out["version"] = "v1";
  out["dataItems"] = std::move(items);
  return out;
}

std::string Table(const Report& r) {
  const RunResult& run = *r.run;
  const Workload& w = *r.workload;
  std::string out;
  auto line = [&](const char* key, const std::string& value) { out += schedkit::StrCat("  ", key, value, "\n"); };

  out += schedkit::StrCat(RunName(r), run.trace ? "    (" : "    (upstream ", w.upstream, ")\n");
  line("cluster      ", schedkit::StrCat(run.nodes, " nodes; ", run.init_pods, " init pods (", run.init_scheduled,
                                         " bound in ", Format("%.1f", run.init_seconds), " s); ", run.measured_pods,
                                         " measured pods; parallelism ", r.parallelism,
                                         "; binding on the ", r.binding,
                                         r.memoize ? "" : "; outcome memo off",
                                         r.distinct_pods ? "; distinct measured pods" : "", "; ", r.allocator,
                                         " malloc"));
  std::string bound = schedkit::StrCat(run.measured_scheduled, "/", run.measured_pods, " measured pods bound");
  if (run.preemption_victims > 0) bound += schedkit::StrCat(", ", run.preemption_victims, " preemption victims");
  if (w.churn != Churn::kNone) {
    bound += schedkit::StrCat(", churn: ", run.churn_ticks, " ticks, ", run.churn_pods, " unschedulable pods");
    if (run.churn_nodes > 0) bound += schedkit::StrCat(", ", run.churn_nodes, " nodes");
  }
  if (run.trace) {
    bound += schedkit::StrCat("; trace: ", run.batches, " batches, ", run.trace_deletions, " pods deleted, ",
                              run.pending_at_end, " measured pods pending at the end");
  }
  line("scheduled    ", bound);
  if (!run.complete()) line("INCOMPLETE   ", run.error);

  const Summary t = Summarize(run.throughput_samples);
  std::string thresholds = "upstream threshold (Average): ";
  thresholds += w.threshold_v135 > 0 ? schedkit::StrCat(w.threshold_v135, " in v1.35.8") : "none in v1.35.8";
  if (w.threshold_2026 > 0) thresholds += schedkit::StrCat(", ", w.threshold_2026, " in 2026");
  if (t.count > 0) {
    line("throughput   ", schedkit::StrCat("Average ", Format("%.1f", t.average), "  Perc50 ", Format("%.1f", t.perc50),
                                           "  Perc90 ", Format("%.1f", t.perc90), "  Perc95 ", Format("%.1f", t.perc95),
                                           "  Perc99 ", Format("%.1f", t.perc99), " pods/s (", t.count,
                                           " 1-second samples)"));
  } else {
    line("throughput   ", "no 1-second sample (the measured phase was too short); see the whole run");
  }
  line("             ", thresholds);
  line("whole run    ", schedkit::StrCat(run.measured_scheduled, " pods in ", Format("%.3f", run.measured_seconds),
                                         " s = ", Format("%.1f", run.whole_run_pods_per_second()), " pods/s"));
  const Summary a = Summarize(run.attempt_ms);
  line("attempts     ", schedkit::StrCat(run.measured_attempts, " for measured pods (", run.measured_attempts_scheduled,
                                         " scheduled, ", run.measured_attempts_unschedulable, " unschedulable, ",
                                         run.measured_attempts_error, " error); ", run.attempts, " in all"));
  if (a.count > 0) {
    line("attempt ms   ", schedkit::StrCat("avg ", Format("%.3f", a.average), "  p50 ", Format("%.3f", a.perc50),
                                           "  p90 ", Format("%.3f", a.perc90), "  p95 ", Format("%.3f", a.perc95),
                                           "  p99 ", Format("%.3f", a.perc99), "  max ", Format("%.3f", a.max)));
  }
  for (const auto* f : {&r.floor_sampled, &r.floor_all}) {
    line(f == &r.floor_sampled ? "floor        " : "             ",
         schedkit::StrCat(f == &r.floor_sampled ? "sampled " : "all     ", f->nodes_read, " nodes x ", f->columns,
                          " int64 = ", Format("%.1f", static_cast<double>(f->bytes_per_pod()) / 1024.0), " KiB/pod: ", Format("%.2f", f->ns_per_pod / 1e3),
                          " us/pod = ", Format("%.0f", f->pods_per_second()), " pods/s; whole run is ",
                          Format("%.0f", RatioToFloor(run, *f)), "x the floor"));
  }
  line("             ", schedkit::StrCat("columns: ", w.floor_columns_doc));
  line("peak RSS     ", schedkit::StrCat(Format("%.0f", static_cast<double>(run.peak_rss_kb) / 1024.0), " MiB"));
  line("memory       ", schedkit::StrCat(Format("%.0f", run.bytes_per_node()), " bytes per node, ",
                                         Format("%.0f", run.bytes_per_init_pod()),
                                         " per init pod (resident set growth while loading them)"));
  if (r.upstream) {
    line("upstream     ", schedkit::StrCat("kube-scheduler ", kUpstreamVersion, " (schedkit-oracle --throughput), same cluster: ",
                                           r.upstream->scheduled, "/", r.pods, " measured pods bound in ",
                                           Format("%.3f", r.upstream->seconds), " s = ",
                                           Format("%.1f", r.upstream->pods_per_second()), " pods/s, ",
                                           r.upstream->attempts, " scheduling attempts (schedkit: ",
                                           run.attempts, ")"));
    line("             ", schedkit::StrCat("schedkit's whole run is ", Format("%.1f", UpstreamRatio(r)),
                                           "x upstream's pods/s"));
  }
  return out;
}

}  // namespace schedkit::perf
