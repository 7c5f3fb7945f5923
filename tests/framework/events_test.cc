// Which registrations an incoming cluster event wakes (facts from upstream's
// framework/types_test.go TestCloudEvent_Match).
#include <catch2/catch.hpp>

#include "schedkit/framework/events.h"

namespace schedkit::framework {
namespace {

TEST_CASE("cluster event matching follows upstream MatchClusterEvents", "[events]") {
  struct Case {
    const char* name;
    ClusterEvent registered;
    ClusterEvent incoming;
    bool want;
  };
  const Case cases[] = {
      {"wildcard event matches with all kinds of coming events",
       {EventResource::kWildcard, kActionAll, ""},
       {EventResource::kPod, kActionUpdateNodeLabel, ""},
       true},
      {"event with resource = 'Pod' matching with coming events carries same actionType",
       {EventResource::kPod, kActionUpdateNodeLabel | kActionUpdateNodeTaint, ""},
       {EventResource::kPod, kActionUpdateNodeLabel, ""},
       true},
      {"event with resource = 'Pod' matching with coming events carries unschedulablePod",
       {EventResource::kPod, kActionUpdateNodeLabel | kActionUpdateNodeTaint, ""},
       {EventResource::kUnscheduledPod, kActionUpdateNodeLabel, ""},
       true},
      {"event with resource = '*' matching with coming events carries same actionType",
       {EventResource::kWildcard, kActionUpdateNodeLabel, ""},
       {EventResource::kPod, kActionUpdateNodeLabel, ""},
       true},
      {"event with resource = '*' matching with coming events carries different actionType",
       {EventResource::kWildcard, kActionUpdateNodeLabel, ""},
       {EventResource::kPod, kActionUpdateNodeAllocatable, ""},
       false},
      {"event matching with coming events carries '*' resources",
       {EventResource::kPod, kActionUpdateNodeLabel, ""},
       {EventResource::kWildcard, kActionUpdateNodeLabel, ""},
       false},
      {"event with resource = '*' matching with coming events carrying a too broad actionType",
       {EventResource::kWildcard, kActionUpdateNodeLabel, ""},
       {EventResource::kPod, kActionUpdate, ""},
       false},
      {"event with resource = '*' matching with coming events carrying a more specific actionType",
       {EventResource::kWildcard, kActionUpdate, ""},
       {EventResource::kPod, kActionUpdateNodeLabel, ""},
       true},
      // What the fix was for: an unscheduled pod's own update with no specific
      // change does not wake TaintToleration's toleration registration.
      {"a plain pod update does not wake a toleration-only registration",
       {EventResource::kPod, kActionUpdatePodToleration, ""},
       {EventResource::kUnscheduledPod, kActionUpdate, ""},
       false},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(c.registered.Matches(c.incoming) == c.want);
  }
}

}  // namespace
}  // namespace schedkit::framework
