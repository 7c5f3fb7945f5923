// Statistics of a set of samples as upstream scheduler_perf's collectors
// compute them: sorted, Average the mean, PercNN = samples[ceil(n*NN/100) - 1]
// (nearest rank), Max the largest. Shared by schedkit-perf and kube_bench.
#ifndef SCHEDKIT_BENCH_PERF_SUMMARY_H_
#define SCHEDKIT_BENCH_PERF_SUMMARY_H_

#include <vector>

namespace schedkit::perf {

struct Summary {
  double average = 0, perc50 = 0, perc90 = 0, perc95 = 0, perc99 = 0, max = 0;
  int count = 0;  // 0: every figure is 0
};
Summary Summarize(std::vector<double> samples);

}  // namespace schedkit::perf

#endif  // SCHEDKIT_BENCH_PERF_SUMMARY_H_
