// schedkit-perf: PerfMain over the in-tree plugins (flags, workloads and exit
// codes in schedkit/bench/perf_main.h and bench/perf/README.md).
#include "schedkit/bench/perf_main.h"
#include "schedkit/plugins/in_tree.h"

int main(int argc, char** argv) {
  return schedkit::bench::PerfMain(argc, argv, schedkit::plugins::NewInTreeRegistry());
}
