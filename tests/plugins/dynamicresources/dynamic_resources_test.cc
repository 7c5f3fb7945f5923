// Ports of upstream v1.35.8 pkg/scheduler/framework/plugins/dynamicresources
// dynamicresources_test.go, for what applies to schedkit's model (no
// ResourceClaims, ResourceSlices or DeviceClasses; the Pod message carries no
// resource claims, so claim references are passed explicitly where a case
// needs them):
//  - TestPlugin: "empty", "empty-with-extended-resources-enabled" (with
//    DRAExtendedResource at its v1.35 default, off; upstream's expectations
//    are the same with it on, as no DeviceClass maps an extended resource),
//    "missing-claim" (PreEnqueue verdict for its claim references) — 3 of 73.
//    The others need claim, class or slice objects, the allocator, API
//    reactors or non-default gates; "DRA-disabled" cannot apply (the gate is
//    GA and locked in v1.35).
//  - Test_isSchedulableAfterPodChange: "backoff-wrong-new-object",
//    "missing-claim", "wrong-pod" (3 of 5; "wrong-pod"'s pending claim is
//    never consulted because the UIDs differ). "complete" and "incomplete"
//    need the pending claim object.
//  - TestNormalizeScore: all 7 cases.
//  - Test_isSchedulableAfterClaimChange, TestAllocatorSelection,
//    Test_computesScore and extendeddynamicresources_test.go: none; they need
//    ResourceClaim objects, the structured allocator or DRAExtendedResource.
#include "plugins/dynamicresources/dynamic_resources.h"

#include <catch2/catch.hpp>

#include "schedkit/framework/feature_gates.h"
#include <climits>
#include <string>
#include <vector>

#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"
#include "testing/normalizes_by_maximum.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::Status;
using testing::MakeNode;
using testing::MakePod;

const std::string kPodName = "my-pod";
const std::string kPodUID = "1234";
const std::string kResourceName = "my-resource";
const std::string kClaimName = kPodName + "-" + kResourceName;
const std::string kNamespace = "default";

std::unique_ptr<DynamicResources> NewPlugin(testing::FakeHandle& h, std::string args = "") {
  auto plugin = NewDynamicResources(framework::PluginArgs(std::move(args)), h);
  REQUIRE(plugin.ok());
  auto* dr = dynamic_cast<DynamicResources*>(plugin->get());
  REQUIRE(dr != nullptr);
  plugin->release();
  return std::unique_ptr<DynamicResources>(dr);
}

// upstream's podWithClaimTemplate: spec.resourceClaims = [{my-resource, template my-pod-my-resource}].
PodResourceClaims ClaimTemplate() { return {{{kResourceName, std::nullopt, kClaimName}}, {}}; }
// upstream's podWithClaimTemplateInStatus: the same plus a status naming the claim.
PodResourceClaims ClaimTemplateInStatus() {
  PodResourceClaims c = ClaimTemplate();
  c.statuses.push_back({kResourceName, kClaimName});
  return c;
}

TEST_CASE("TestPlugin", "[dynamicresources]") {
  const auto worker = MakeNode().Name("worker").Obj();
  for (const std::string name : {"empty", "empty-with-extended-resources-enabled"}) {
    SECTION(name) {
      testing::FakeHandle h;
      h.SetCluster({worker}, {});
      auto p = NewPlugin(h);
      auto pod = MakePod().Name("foo").Namespace("default").Info();
      framework::CycleState state;

      CHECK(p->PreEnqueue(*pod) == Status());
      auto pre = p->PreFilter(state, *pod, h.snapshot().nodes());
      CHECK(pre.result.AllNodes());
      CHECK(pre.status == Status::Skip());
      // Upstream's table then runs Filter on every node (Skip is not a
      // rejection), and with one feasible node goes straight to Reserve.
      std::vector<const framework::NodeInfo*> feasible;
      for (const framework::NodeInfo* n : h.snapshot().nodes()) {
        Status s = p->Filter(state, *pod, *n);
        CHECK(s == Status());
        if (s.IsSuccess()) feasible.push_back(n);
      }
      REQUIRE(feasible.size() == 1);
      const Symbol selected = feasible[0]->name();
      CHECK(p->Reserve(state, *pod, selected) == Status());
      CHECK(p->PreBindPreFlight(state, *pod, selected) == Status::Skip());
      CHECK(p->PreBind(state, *pod, selected) == Status());
    }
  }
  SECTION("missing-claim") {
    auto pod = MakePod().Name(kPodName).Namespace(kNamespace).UID(kPodUID).Info();
    Status s = PodResourceClaimsStatus(*pod, ClaimTemplate());
    CHECK(s.code() == Code::kUnschedulableAndUnresolvable);
    CHECK(s.Message() == R"(pod "default/my-pod": ResourceClaim not created yet)");
  }
}

TEST_CASE("Test_isSchedulableAfterPodChange", "[dynamicresources]") {
  const auto pod_with_claim_template = MakePod().Name(kPodName).Namespace(kNamespace).UID(kPodUID).Info();
  const auto in_status = MakePod().Name(kPodName).Namespace(kNamespace).UID(kPodUID).Obj();

  SECTION("backoff-wrong-new-object") {
    framework::EventObjects e;  // no updated pod
    CHECK_FALSE(
        DynamicResources::IsSchedulableAfterPodChange(*pod_with_claim_template, e, ClaimTemplate()).ok());
    CHECK_FALSE(DynamicResources::IsSchedulableAfterPodChange(*pod_with_claim_template, e).ok());
  }
  SECTION("missing-claim") {
    framework::EventObjects e;
    e.SetNew(&in_status);
    auto got =
        DynamicResources::IsSchedulableAfterPodChange(*pod_with_claim_template, e, ClaimTemplateInStatus());
    REQUIRE(got.ok());
    CHECK(*got == framework::QueueingHint::kSkip);
  }
  SECTION("wrong-pod") {
    auto other = MakePod().Name(kPodName + "2").Namespace(kNamespace).UID(kPodUID + "2").Info();
    framework::EventObjects e;
    e.SetNew(&in_status);
    auto got = DynamicResources::IsSchedulableAfterPodChange(*other, e, ClaimTemplateInStatus());
    REQUIRE(got.ok());
    CHECK(*got == framework::QueueingHint::kSkip);
  }
}

TEST_CASE("TestNormalizeScore", "[dynamicresources]") {
  testing::FakeHandle h;
  auto p = NewPlugin(h);
  struct Case {
    std::string name;
    std::vector<int64_t> scores, expected;
  };
  const int64_t max32 = INT32_MAX;
  const std::vector<Case> cases = {
      {"empty", {}, {}},
      {"single-score", {42}, {100}},
      {"all-same", {8, 8}, {100, 100}},
      {"all-same-very-large", {max32, max32}, {100, 100}},
      {"max-and-min-values", {max32, 0}, {100, 0}},
      {"mid-value", {99, 98, 97}, {100, 98, 97}},
      {"large-spread-lost-precision", {max32, max32 - 1, 1, 0}, {100, 99, 0, 0}},
  };
  framework::CycleState state;
  auto pod = MakePod().Info();
  for (const Case& c : cases) {
    SECTION(c.name) {
      std::vector<int64_t> scores = c.scores;
      const framework::ScoreExtensions* ext = p->GetScoreExtensions();
      REQUIRE(ext != nullptr);
      CHECK(ext->NormalizeScore(state, *pod, {}, scores).IsSuccess());
      CHECK(scores == c.expected);
      testing::CheckNormalizesByMaximum(*ext, c.scores, scores);
    }
  }
}

// --- schedkit-specific: the statuses that reach FitError messages ---

TEST_CASE("DynamicResources PostFilter", "[dynamicresources]") {
  testing::FakeHandle h;
  h.SetCluster({MakeNode().Name("n1").Obj()}, {});
  auto p = NewPlugin(h);
  CHECK(p->Name() == "DynamicResources");
  auto pod = MakePod().Name("p").Info();
  framework::NodeToStatus filtered;

  SECTION("after its PreFilter: no claims to deallocate, and no reason (v1.37)") {
    framework::CycleState state;
    REQUIRE(p->PreFilter(state, *pod, h.snapshot().nodes()).status.IsSkip());
    auto r = p->PostFilter(state, *pod, filtered);
    CHECK(r.status.code() == Code::kUnschedulable);
    CHECK(r.status.Reasons().empty());
    CHECK(r.nominating_info.mode == framework::NominatingInfo::Mode::kNoop);
    // A cloned state (preemption's dry runs) carries it too.
    auto cloned = p->PostFilter(*state.Clone(), *pod, filtered);
    CHECK(cloned.status.code() == Code::kUnschedulable);
    CHECK(cloned.status.Message().empty());
  }
  SECTION("its PreFilter never ran (an earlier PreFilter rejected the pod)") {
    framework::CycleState state;
    auto r = p->PostFilter(state, *pod, filtered);
    CHECK(r.status.code() == Code::kError);
    CHECK(r.status.Message() == "not found");
  }
}

TEST_CASE("DynamicResources Score and the other points without state", "[dynamicresources]") {
  testing::FakeHandle h;
  h.SetCluster({MakeNode().Name("n1").Obj(), MakeNode().Name("n2").Obj()}, {});
  auto p = NewPlugin(h);
  auto pod = MakePod().Name("p").Info();
  const Symbol n1 = Symbol::Intern("n1");

  framework::CycleState with_state;
  REQUIRE(p->PreFilter(with_state, *pod, h.snapshot().nodes()).status.IsSkip());
  std::vector<int64_t> scores;
  for (const framework::NodeInfo* n : h.snapshot().nodes()) {
    int64_t score = -1;
    CHECK(p->Score(with_state, *pod, *n, score).IsSuccess());
    scores.push_back(score);
  }
  CHECK(scores == std::vector<int64_t>{0, 0});
  std::vector<int64_t> batch = {-1, -1};  // the framework's call over a run of nodes
  CHECK(p->ScoreNodes(with_state, *pod, h.snapshot().nodes(), batch).IsSuccess());
  CHECK(batch == scores);
  CHECK(p->NormalizeScore(with_state, *pod, h.snapshot().nodes(), scores).IsSuccess());
  CHECK(scores == std::vector<int64_t>{0, 0});
  p->Unreserve(with_state, *pod, n1);

  framework::CycleState empty;
  int64_t score = -1;
  CHECK(p->Score(empty, *pod, *h.snapshot().nodes()[0], score).Message() == "not found");
  CHECK(score == 0);
  CHECK(p->ScoreNodes(empty, *pod, h.snapshot().nodes(), batch).Message() == "not found");
  CHECK(p->Filter(empty, *pod, *h.snapshot().nodes()[0]).Message() == "not found");
  CHECK(p->Reserve(empty, *pod, n1).Message() == "not found");
  CHECK(p->PreBind(empty, *pod, n1).Message() == "not found");
  CHECK(p->PreBindPreFlight(empty, *pod, n1).code() == Code::kError);
  p->Unreserve(empty, *pod, n1);
}

TEST_CASE("DynamicResources claim references against an empty claim cache", "[dynamicresources]") {
  auto pod = MakePod().Name(kPodName).Namespace(kNamespace).UID(kPodUID).Info();
  SECTION("named claim") {
    PodResourceClaims c{{{kResourceName, kClaimName, std::nullopt}}, {}};
    CHECK(PodResourceClaimsStatus(*pod, c) ==
          Status::WithText(Code::kUnschedulableAndUnresolvable,
                           R"(could not find ResourceClaim "default/my-pod-my-resource")"));
  }
  SECTION("template with its claim recorded") {
    CHECK(PodResourceClaimsStatus(*pod, ClaimTemplateInStatus()).Message() ==
          R"(could not find ResourceClaim "default/my-pod-my-resource")");
  }
  SECTION("template whose claim was intentionally not created") {
    PodResourceClaims c = ClaimTemplate();
    c.statuses.push_back({kResourceName, std::nullopt});
    CHECK(PodResourceClaimsStatus(*pod, c).IsSuccess());
    CHECK_FALSE(CheckPodResourceClaims(kNamespace, kPodName, c).has_value());
  }
  SECTION("neither field set") {
    PodResourceClaims c{{{kResourceName, std::nullopt, std::nullopt}}, {}};
    CHECK(PodResourceClaimsStatus(*pod, c).Message() ==
          R"(pod "default/my-pod", spec.resourceClaim "my-resource": none of the supported fields are set)");
  }
  SECTION("today's pods carry none") {
    CHECK(ResourceClaimsOf(pod->pod()).empty());
    testing::FakeHandle h;
    auto p = NewPlugin(h);
    const auto updated = pod->pod();
    framework::EventObjects e;
    e.SetNew(&updated);
    CHECK(*DynamicResources::IsSchedulableAfterPodChange(*pod, e) == framework::QueueingHint::kQueue);
  }
}

TEST_CASE("DynamicResources events", "[dynamicresources]") {
  testing::FakeHandle h;
  auto p = NewPlugin(h);
  auto events = p->EventsToRegister();
  REQUIRE(events.size() == 2);
  CHECK(events[0].event.resource == framework::EventResource::Node());
  CHECK(events[0].event.action == (framework::kActionAdd | framework::kActionUpdateNodeLabel |
                                   framework::kActionUpdateNodeAllocatable));
  CHECK_FALSE(static_cast<bool>(events[0].hint));
  CHECK(events[1].event.resource == framework::EventResource::TargetPod());
  CHECK(events[1].event.action == framework::kActionUpdatePodGeneratedResourceClaim);
  REQUIRE(static_cast<bool>(events[1].hint));
  auto pod = MakePod().Name("p").Info();
  const auto same = pod->pod();
  CHECK(*events[1].hint(*pod, framework::EventObjects::Added(same)) ==
        framework::QueueingHint::kQueue);
}

TEST_CASE("DynamicResources args follow the gates (SetDefaults_ and ValidateDynamicResourcesArgs)",
          "[dynamicresources]") {
  auto parse = [](const char* json, const char* gates) {
    framework::FeatureGates g;
    REQUIRE(g.Set(gates).ok());
    framework::PluginArgs args(json);
    args.set_gates(&g);
    return ParseDynamicResourcesArgs(args);
  };
  // Without DRASchedulerFilterTimeout: no timeout by default, and none may be given.
  auto off = parse("{}", "DRASchedulerFilterTimeout=false");
  REQUIRE(off.ok());
  CHECK_FALSE(off->filter_timeout.has_value());
  CHECK(parse(R"({"filterTimeout": "5s"})", "DRASchedulerFilterTimeout=false").status().message() ==
        "DynamicResources args: filterTimeout: Forbidden: DRASchedulingFilterTimeout feature gate is disabled");
  // With binding conditions: a 600s default and a 1s floor.
  auto on = parse("{}", "DRADeviceBindingConditions=true");
  REQUIRE(on.ok());
  CHECK(on->binding_timeout == absl::Seconds(600));
  CHECK(parse(R"({"bindingTimeout": "500ms"})", "DRADeviceBindingConditions=true").status().message() ==
        R"(DynamicResources args: bindingTimeout: Invalid value: "500ms": must be at least 1 second)");
  CHECK(parse(R"({"bindingTimeout": "2s"})", "DRADeviceBindingConditions=true")->binding_timeout ==
        absl::Seconds(2));
}

TEST_CASE("DynamicResources args", "[dynamicresources]") {
  testing::FakeHandle h;
  SECTION("defaults") { CHECK(NewPlugin(h)->filter_timeout() == absl::Seconds(10)); }
  SECTION("filterTimeout") {
    CHECK(NewPlugin(h, R"({"filterTimeout": "1m30s"})")->filter_timeout() == absl::Seconds(90));
    CHECK(NewPlugin(h, R"({"filterTimeout": "0s"})")->filter_timeout() == absl::ZeroDuration());
    CHECK(NewPlugin(h, R"({"filterTimeout": "250ms", "bindingTimeout": null})")->filter_timeout() ==
          absl::Milliseconds(250));
  }
  SECTION("negative filterTimeout") {
    auto a = NewDynamicResources(framework::PluginArgs(R"({"filterTimeout": "-1s"})"), h);
    REQUIRE_FALSE(a.ok());
    CHECK(a.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(std::string(a.status().message()) ==
          R"(DynamicResources args: filterTimeout: Invalid value: "-1s": must be zero or positive)");
  }
  SECTION("malformed durations") {
    for (const char* bad : {R"({"filterTimeout": "10"})", R"({"filterTimeout": "inf"})",
                            R"({"filterTimeout": 10})", R"({"filterTimeout": ""})"}) {
      auto a = NewDynamicResources(framework::PluginArgs(bad), h);
      CHECK_FALSE(a.ok());
      CHECK_THAT(std::string(a.status().message()), Catch::Contains("filterTimeout"));
    }
  }
  SECTION("bindingTimeout: 10m by default with v1.37's gates, at least 1s") {
    auto d = ParseDynamicResourcesArgs(framework::PluginArgs());
    REQUIRE(d.ok());
    CHECK(d->binding_timeout == absl::Minutes(10));
    CHECK(NewDynamicResources(framework::PluginArgs(R"({"bindingTimeout": "30s"})"), h).ok());
    auto a = NewDynamicResources(framework::PluginArgs(R"({"bindingTimeout": "500ms"})"), h);
    CHECK_FALSE(a.ok());
  }
  SECTION("bindingTimeout is forbidden with DRADeviceBindingConditions off") {
    framework::FeatureGates off;
    REQUIRE(off.Set("DRADeviceBindingConditions=false").ok());
    framework::PluginArgs args(R"({"bindingTimeout": "10m"})");
    args.set_gates(&off);
    auto a = NewDynamicResources(args, h);
    REQUIRE_FALSE(a.ok());
    CHECK(std::string(a.status().message()) ==
          "DynamicResources args: bindingTimeout: Forbidden: DRADeviceBindingConditions or "
          "DRAResourceClaimDeviceStatus feature gate is disabled");
  }
  SECTION("unknown field") {
    auto a = NewDynamicResources(framework::PluginArgs(R"({"filterTimeoutSeconds": 5})"), h);
    REQUIRE_FALSE(a.ok());
    CHECK(std::string(a.status().message()) == "DynamicResources args: filterTimeoutSeconds: unknown field");
  }
}

}  // namespace
}  // namespace schedkit::plugins
