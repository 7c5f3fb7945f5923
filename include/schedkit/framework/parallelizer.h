// Parallelizer: runs the pieces of one scheduling step (filter or score over
// nodes, preemption dry runs) on a fixed pool of `parallelism` threads.
//
//   handle.parallelizer().ForEach(n, [&](int i) { out[i] = Work(nodes[i]); });
//
// Results go into caller-preallocated slots by index, so output order never
// depends on thread timing. Small inputs run inline on the calling thread,
// where spawning would cost more than it saves. Thread-safe; ForEach may be
// called from several threads at once.
#ifndef SCHEDKIT_FRAMEWORK_PARALLELIZER_H_
#define SCHEDKIT_FRAMEWORK_PARALLELIZER_H_

#include <memory>

#include "absl/functional/function_ref.h"

namespace schedkit::framework {

class Parallelizer {
 public:
  // parallelism 1 runs everything on the calling thread.
  explicit Parallelizer(int parallelism);
  ~Parallelizer();
  Parallelizer(const Parallelizer&) = delete;
  Parallelizer& operator=(const Parallelizer&) = delete;

  int parallelism() const { return parallelism_; }

  // Calls fn(i) for every i in [0, n); returns when all are done.
  void ForEach(int n, absl::FunctionRef<void(int)> fn);
  // Calls fn(begin, end) over disjoint chunks covering [0, n), each at most
  // `grain` long (a thread may take several in a row); returns when all are
  // done. With one thread, or n <= grain, [0, n) is one chunk run on the
  // calling thread.
  void ForRanges(int n, int grain, absl::FunctionRef<void(int, int)> fn);

 private:
  struct Arena;
  int parallelism_;
  std::unique_ptr<Arena> arena_;
};

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_PARALLELIZER_H_
