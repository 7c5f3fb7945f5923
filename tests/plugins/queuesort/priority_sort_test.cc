// Port of upstream v1.35.8 pkg/scheduler/framework/plugins/queuesort
// priority_sort_test.go: TestLess (all 4 cases).
#include "plugins/queuesort/priority_sort.h"

#include <catch2/catch.hpp>
#include <limits>
#include <string>
#include <vector>

#include "absl/time/clock.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"

namespace schedkit::plugins {
namespace {

using testing::MakePod;

framework::QueuedPodInfo Queued(int32_t priority, absl::Time timestamp = absl::InfinitePast()) {
  framework::QueuedPodInfo q;
  q.pod = MakePod().Priority(priority).Info();
  q.timestamp = timestamp;
  return q;
}

TEST_CASE("TestLess", "[queuesort]") {
  testing::FakeHandle h;
  auto plugin = NewPrioritySort(framework::PluginArgs(), h);
  REQUIRE(plugin.ok());
  auto* sort = dynamic_cast<framework::QueueSortPlugin*>(plugin->get());
  REQUIRE(sort != nullptr);
  CHECK(sort->Name() == "PrioritySort");

  const int32_t low = 10, high = 100;
  const absl::Time t1 = absl::Now();
  const absl::Time t2 = t1 + absl::Seconds(1);
  struct Case {
    std::string name;
    framework::QueuedPodInfo p1, p2;
    bool expected;
  };
  const std::vector<Case> cases = {
      // Upstream leaves Timestamp zero in the first two cases.
      {"p1.priority less than p2.priority", Queued(low), Queued(high), false},
      {"p1.priority greater than p2.priority", Queued(high), Queued(low), true},
      {"equal priority. p1 is added to schedulingQ earlier than p2", Queued(high, t1), Queued(high, t2),
       true},
      {"equal priority. p2 is added to schedulingQ earlier than p1", Queued(high, t2), Queued(high, t1),
       false},
  };
  for (const Case& c : cases) {
    SECTION(c.name) { CHECK(sort->Less(c.p1, c.p2) == c.expected); }
  }
}

// schedkit-specific: an unset priority counts as 0, and equal timestamps are
// not "less" either way (upstream's Before is strict).
TEST_CASE("PrioritySort edge cases", "[queuesort]") {
  PrioritySort sort;
  framework::QueuedPodInfo unset;
  unset.pod = MakePod().Info();
  CHECK(sort.Less(Queued(1), unset));
  CHECK_FALSE(sort.Less(Queued(-1), unset) == sort.Less(unset, Queued(-1)));
  const absl::Time t = absl::Now();
  CHECK_FALSE(sort.Less(Queued(5, t), Queued(5, t)));
}

// schedkit-specific: Rank orders as Less does, the queue's fast path relies
// on it (lower rank, then the earlier timestamp).
TEST_CASE("PrioritySort Rank agrees with Less", "[queuesort]") {
  PrioritySort sort;
  const absl::Time t = absl::Now();
  const std::vector<int32_t> priorities = {std::numeric_limits<int32_t>::min(), -7, 0, 1, 1000000000,
                                           std::numeric_limits<int32_t>::max()};
  for (int32_t pa : priorities) {
    for (int32_t pb : priorities) {
      for (int dt : {-1, 0, 1}) {
        const framework::QueuedPodInfo a = Queued(pa, t);
        const framework::QueuedPodInfo b = Queued(pb, t + absl::Seconds(dt));
        const int64_t ra = *sort.Rank(*a.pod);
        const int64_t rb = *sort.Rank(*b.pod);
        INFO(pa << " " << pb << " " << dt);
        CHECK(sort.Less(a, b) == (ra < rb || (ra == rb && a.timestamp < b.timestamp)));
      }
    }
  }
  framework::QueuedPodInfo unset;
  unset.pod = MakePod().Info();
  CHECK(*sort.Rank(*unset.pod) == 0);
}

}  // namespace
}  // namespace schedkit::plugins
