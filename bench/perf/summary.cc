#include "summary.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace schedkit::perf {

Summary Summarize(std::vector<double> samples) {
  Summary s;
  s.count = static_cast<int>(samples.size());
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  const size_t n = samples.size();
  auto perc = [&](int p) { return samples[static_cast<size_t>(std::ceil(static_cast<double>(n * p) / 100)) - 1]; };
  s.average = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(n);
  s.perc50 = perc(50);
  s.perc90 = perc(90);
  s.perc95 = perc(95);
  s.perc99 = perc(99);
  s.max = samples.back();
  return s;
}

}  // namespace schedkit::perf
