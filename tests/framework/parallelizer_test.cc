// Parallelizer: a fan-out covers every index exactly once, in chunks of at
// most `grain`, whatever the thread count; small inputs run inline.
#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "schedkit/framework/parallelizer.h"

namespace schedkit::framework {
namespace {

TEST_CASE("ForRanges covers every index exactly once, in chunks of at most grain", "[parallelizer][tsan]") {
  for (int parallelism : {1, 2, 4}) {
    Parallelizer p(parallelism);
    for (int n : {0, 1, 63, 64, 65, 1000, 5000}) {
      INFO("parallelism " << parallelism << ", n " << n);
      std::vector<std::atomic<int>> hits(n);
      std::atomic<int> chunks{0};
      std::atomic<int> long_chunks{0};
      p.ForRanges(n, 64, [&](int begin, int end) {
        chunks.fetch_add(1);
        if (end - begin > 64 || end <= begin) long_chunks.fetch_add(1);
        for (int i = begin; i < end; ++i) hits[i].fetch_add(1);
      });
      for (int i = 0; i < n; ++i) REQUIRE(hits[i].load() == 1);
      if (p.parallelism() == 1 || n <= 64) {
        CHECK(chunks.load() == (n > 0 ? 1 : 0));  // [0, n) at once
      } else if (std::thread::hardware_concurrency() > 1) {
        CHECK(long_chunks.load() == 0);
      }
    }
  }
}

TEST_CASE("ForEach calls every index once; inputs within one grain run on the calling thread",
          "[parallelizer][tsan]") {
  Parallelizer p(4);
  std::vector<std::atomic<int>> hits(777);
  p.ForEach(777, [&](int i) { hits[i].fetch_add(1); });
  for (auto& h : hits) REQUIRE(h.load() == 1);
  const std::thread::id caller = std::this_thread::get_id();
  bool inline_only = true;  // written by the calling thread only, when inline
  p.ForRanges(50, 64, [&](int, int) { inline_only = inline_only && std::this_thread::get_id() == caller; });
  CHECK(inline_only);
}

TEST_CASE("one Parallelizer serves fan-outs from several threads at once", "[parallelizer][tsan]") {
  Parallelizer p(2);
  std::atomic<long> total{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < 3; ++t) {
    callers.emplace_back([&] {
      for (int round = 0; round < 20; ++round) {
        p.ForRanges(1000, 64, [&](int begin, int end) { total.fetch_add(end - begin); });
      }
    });
  }
  for (auto& c : callers) c.join();
  CHECK(total.load() == 3L * 20 * 1000);
}

}  // namespace
}  // namespace schedkit::framework
