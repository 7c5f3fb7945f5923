#include "floor.h"

#include <algorithm>
#include <chrono>
#include <vector>

namespace schedkit::perf {

FloorResult MeasureFloor(const FloorOptions& options) {
  const int n = std::max(options.nodes, 1);
  const int read = std::clamp(options.nodes_read, 1, n);
  const int columns = std::max(options.columns, 3);
  const int pods = std::max(options.pods, 1);

  // Column 0: free milli-cpu, 1: free memory bytes, 2: free pod slots, then
  // the workload's extra columns (a topology id or a match count) compared
  // against a value every node satisfies.
  std::vector<std::vector<int64_t>> cols(static_cast<size_t>(columns), std::vector<int64_t>(static_cast<size_t>(n)));
  for (int i = 0; i < n; ++i) {
    cols[0][i] = 4000;
    cols[1][i] = int64_t{32} << 30;
    cols[2][i] = 110;
    for (int c = 3; c < columns; ++c) cols[c][i] = i % 3;
  }
  const int64_t req_cpu = 100;
  const int64_t req_mem = int64_t{500} << 20;

  const auto start = std::chrono::steady_clock::now();
  int next_start = 0;
  int64_t sink = 0;
  for (int p = 0; p < pods; ++p) {
    int best = -1;
    int64_t best_score = -1;
    for (int k = 0; k < read; ++k) {
      int i = next_start + k;
      if (i >= n) i -= n;
      bool fits = cols[0][i] >= req_cpu && cols[1][i] >= req_mem && cols[2][i] >= 1;
      for (int c = 3; c < columns; ++c) fits = fits && cols[c][i] < 3;
      // Least-allocated on cpu, as a score needs the same reads.
      const int64_t score = fits ? cols[0][i] : -1;
      if (score > best_score) {
        best_score = score;
        best = i;
      }
    }
    next_start = (next_start + read) % n;
    if (best >= 0) {
      cols[0][best] -= req_cpu;
      cols[1][best] -= req_mem;
      cols[2][best] -= 1;
      // Keep the cluster from filling up so every pod does the same work.
      if (cols[2][best] == 0 || cols[0][best] < req_cpu || cols[1][best] < req_mem) {
        cols[0][best] = 4000;
        cols[1][best] = int64_t{32} << 30;
        cols[2][best] = 110;
      }
      sink += best;
    }
  }
  const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  // The sink keeps the loop observable.
  volatile int64_t keep = sink;
  (void)keep;

  FloorResult r;
  r.nodes_read = read;
  r.columns = columns;
  r.ns_per_pod = ns / pods;
  return r;
}

}  // namespace schedkit::perf
