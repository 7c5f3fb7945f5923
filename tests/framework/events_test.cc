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
       {EventResource::Wildcard(), kActionAll, ""},
       {EventResource::Pod(), kActionUpdateNodeLabel, ""},
       true},
      {"event with resource = 'Pod' matching with coming events carries same actionType",
       {EventResource::Pod(), kActionUpdateNodeLabel | kActionUpdateNodeTaint, ""},
       {EventResource::Pod(), kActionUpdateNodeLabel, ""},
       true},
      {"event with resource = 'Pod' matching with coming events carries unschedulablePod",
       {EventResource::Pod(), kActionUpdateNodeLabel | kActionUpdateNodeTaint, ""},
       {EventResource::UnscheduledPod(), kActionUpdateNodeLabel, ""},
       true},
      {"event with resource = '*' matching with coming events carries same actionType",
       {EventResource::Wildcard(), kActionUpdateNodeLabel, ""},
       {EventResource::Pod(), kActionUpdateNodeLabel, ""},
       true},
      {"event with resource = '*' matching with coming events carries different actionType",
       {EventResource::Wildcard(), kActionUpdateNodeLabel, ""},
       {EventResource::Pod(), kActionUpdateNodeAllocatable, ""},
       false},
      {"event matching with coming events carries '*' resources",
       {EventResource::Pod(), kActionUpdateNodeLabel, ""},
       {EventResource::Wildcard(), kActionUpdateNodeLabel, ""},
       false},
      {"event with resource = '*' matching with coming events carrying a too broad actionType",
       {EventResource::Wildcard(), kActionUpdateNodeLabel, ""},
       {EventResource::Pod(), kActionUpdate, ""},
       false},
      {"event with resource = '*' matching with coming events carrying a more specific actionType",
       {EventResource::Wildcard(), kActionUpdate, ""},
       {EventResource::Pod(), kActionUpdateNodeLabel, ""},
       true},
      // What the fix was for: an unscheduled pod's own update with no specific
      // change does not wake TaintToleration's toleration registration.
      {"a plain pod update does not wake a toleration-only registration",
       {EventResource::Pod(), kActionUpdatePodToleration, ""},
       {EventResource::UnscheduledPod(), kActionUpdate, ""},
       false},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(c.registered.Matches(c.incoming) == c.want);
  }
}

}  // namespace
}  // namespace schedkit::framework
