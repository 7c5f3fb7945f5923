#include "schedkit/framework/parallelizer.h"

#include <algorithm>

#include "tbb/blocked_range.h"
#include "tbb/parallel_for.h"
#include "tbb/task_arena.h"

namespace schedkit::framework {

struct Parallelizer::Arena {
  explicit Arena(int threads) : arena(threads) {}
  tbb::task_arena arena;
};

Parallelizer::Parallelizer(int parallelism) : parallelism_(std::max(1, parallelism)) {
  if (parallelism_ > 1) arena_ = std::make_unique<Arena>(parallelism_);
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
  arena_->arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<int>(0, n, grain),
                      [&](const tbb::blocked_range<int>& r) { fn(r.begin(), r.end()); },
                      tbb::simple_partitioner());
  });
}

}  // namespace schedkit::framework
