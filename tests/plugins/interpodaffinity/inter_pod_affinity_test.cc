// InterPodAffinity: args, registration and queueing hints. The hint tables
// are ported from upstream v1.35.8 pkg/scheduler/framework/plugins/interpodaffinity/plugin_test.go.
//
// Not ported: TestPodAffinitySignature (3 cases). It tests SignPod, upstream's
// SignPlugin extension point for pod signatures, which schedkit's framework
// does not have.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "test_util.h"

namespace schedkit::ipa_test {
namespace {

using framework::EventObjects;
using framework::QueueingHint;

TEST_CASE("InterPodAffinity args: defaults", "[interpodaffinity][args]") {
  for (const std::string json :
       {"", "{}", "null",
        R"({"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "InterPodAffinityArgs"})"}) {
    INFO(json);
    auto args = plugins::ParseInterPodAffinityArgs(framework::PluginArgs(json));
    REQUIRE(args.ok());
    CHECK(args->hard_pod_affinity_weight == 1);
    CHECK_FALSE(args->ignore_preferred_terms_of_existing_pods);
  }
}

TEST_CASE("InterPodAffinity args: explicit values", "[interpodaffinity][args]") {
  auto args = plugins::ParseInterPodAffinityArgs(
      framework::PluginArgs(R"({"hardPodAffinityWeight": 100, "ignorePreferredTermsOfExistingPods": true})"));
  REQUIRE(args.ok());
  CHECK(args->hard_pod_affinity_weight == 100);
  CHECK(args->ignore_preferred_terms_of_existing_pods);

  args = plugins::ParseInterPodAffinityArgs(framework::PluginArgs(R"({"hardPodAffinityWeight": 0})"));
  REQUIRE(args.ok());
  CHECK(args->hard_pod_affinity_weight == 0);
}

TEST_CASE("InterPodAffinity args: errors name the field", "[interpodaffinity][args]") {
  struct Case {
    std::string json;
    std::string want;
  };
  const std::vector<Case> cases = {
      {R"({"hardPodAffinityWeight": -1})",
       "InterPodAffinity args: hardPodAffinityWeight: Invalid value: -1: not in valid range [0, 100]"},
      {R"({"hardPodAffinityWeight": 101})",
       "InterPodAffinity args: hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]"},
      // An int32 in upstream's type: a value past it fails decoding.
      {R"({"hardPodAffinityWeight": 4294967297})",
       "InterPodAffinity args: hardPodAffinityWeight: Invalid value: 4294967297: not a 32-bit integer"},
      {R"({"hardPodAffinityWeight": "1"})", "hardPodAffinityWeight"},
      {R"({"hardPodAffinityWeight": 1.5})", "hardPodAffinityWeight"},
      {R"({"ignorePreferredTermsOfExistingPods": 1})", "ignorePreferredTermsOfExistingPods"},
      {R"({"hardPodAffinityWeigth": 1})", "InterPodAffinity args: hardPodAffinityWeigth: unknown field"},
      {R"({"hardPodAffinityWeight": 1, "extra": {}})", "InterPodAffinity args: extra: unknown field"},
      {R"([1])", "InterPodAffinity args"},
      {R"({"hardPodAffinityWeight": )", "InterPodAffinity args"},
  };
  for (const Case& c : cases) {
    INFO(c.json);
    auto args = plugins::ParseInterPodAffinityArgs(framework::PluginArgs(c.json));
    REQUIRE_FALSE(args.ok());
    CHECK(args.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK_THAT(std::string(args.status().message()), Catch::Contains(c.want));
    testing::FakeHandle h;
    CHECK_FALSE(plugins::NewInterPodAffinity(framework::PluginArgs(c.json), h).ok());
  }
}

TEST_CASE("InterPodAffinity name and extension points", "[interpodaffinity]") {
  testing::FakeHandle h;
  auto p = NewPlugin(h, R"({"hardPodAffinityWeight": 3})");
  CHECK(p->Name() == "InterPodAffinity");
  CHECK(p->args().hard_pod_affinity_weight == 3);
  CHECK(p->GetPreFilterExtensions() != nullptr);
  CHECK(p->GetScoreExtensions() != nullptr);

  const auto events = p->EventsToRegister();
  REQUIRE(events.size() == 3);
  CHECK(events[0].event.resource == framework::EventResource::AssignedPod());
  CHECK(events[0].event.action ==
        (framework::kActionAdd | framework::kActionUpdatePodLabel | framework::kActionDelete));
  CHECK(events[0].hint);
  // The pod's own label update always queues (isSchedulableAfterTargetPodUpdateLabel).
  CHECK(events[1].event.resource == framework::EventResource::TargetPod());
  CHECK(events[1].event.action == framework::kActionUpdatePodLabel);
  REQUIRE(events[1].hint);
  CHECK(*events[1].hint(*Info(Pod().Name("p").Obj()), EventObjects()) == QueueingHint::kQueue);
  CHECK(events[2].event.resource == framework::EventResource::Node());
  CHECK(events[2].event.action == (framework::kActionAdd | framework::kActionUpdateNodeLabel));
  CHECK(events[2].hint);
}

// Upstream v1.37.2 plugin_test.go Test_isSchedulableAfterAssignedPodChange.
TEST_CASE("Test_isSchedulableAfterPodChange", "[interpodaffinity][hints]") {
  struct Case {
    std::string name;
    api::v1::Pod pod;
    std::optional<api::v1::Pod> old_pod, new_pod;
    QueueingHint expected;
  };
  const auto affinity_pod =
      Pod().Name("p").PodAffinityIn("service", "region", {"securityscan", "value2"}, kRequired).Obj();
  const auto anti_affinity_pod =
      Pod().Name("p").PodAntiAffinityIn("service", "region", {"securityscan", "value2"}, kRequired).Obj();
  const auto multi_term_pod = Pod()
                                  .Name("p")
                                  .PodAffinityExists("aaa", "hostname", kRequired)
                                  .PodAffinityExists("bbb", "hostname", kRequired)
                                  .Obj();
  const std::vector<Case> cases = {
      {"add a pod which matches the pod affinity", affinity_pod, std::nullopt,
       Pod().Node("fake-node").Label("service", "securityscan").Obj(), QueueingHint::kQueue},
      {"add an un-scheduled pod", affinity_pod, std::nullopt, Pod().Label("service", "securityscan").Obj(),
       QueueingHint::kSkip},
      {"add a pod which doesn't match the pod affinity", affinity_pod, std::nullopt,
       Pod().Node("fake-node").Label("aaa", "a").Obj(), QueueingHint::kSkip},
      {"update a pod from non-match to match pod affinity", affinity_pod,
       Pod().Node("fake-node").Label("aaa", "a").Obj(),
       Pod().Node("fake-node").Label("service", "securityscan").Obj(), QueueingHint::kQueue},
      {"the updating pod matches target pod's affinity both before and after label changes", affinity_pod,
       Pod().Node("fake-node").Label("service", "value2").Obj(),
       Pod().Node("fake-node").Label("service", "securityscan").Obj(), QueueingHint::kSkip},
      {"update an un-scheduled pod", affinity_pod, Pod().Label("service", "securityscan").Obj(),
       Pod().Label("service", "securityscan").Obj(), QueueingHint::kSkip},
      {"update a pod from match to non-match the pod affinity", affinity_pod,
       Pod().Node("fake-node").Label("service", "securityscan").Obj(),
       Pod().Node("fake-node").Label("aaa", "a").Obj(), QueueingHint::kSkip},
      {"update a pod from match to non-match pod's affinity - multiple terms case", multi_term_pod,
       Pod().Node("fake-node").Label("aaa", "a").Obj(),
       Pod().Node("fake-node").Label("service", "securityscan").Obj(), QueueingHint::kSkip},
      {"update a pod from non-match to match pod's affinity - multiple terms case", multi_term_pod,
       Pod().Node("fake-node").Label("aaa", "a").Obj(),
       Pod().Node("fake-node").Label("aaa", "").Label("bbb", "").Obj(), QueueingHint::kQueue},
      {"modify pod label to change it from satisfying pod anti-affinity to not satisfying anti-affinity",
       anti_affinity_pod, Pod().Node("fake-node").Label("service", "securityscan").Obj(),
       Pod().Node("fake-node").Label("service", "aaaa").Obj(), QueueingHint::kQueue},
      {"modify pod label to change it from not satisfying pod anti-affinity to satisfying anti-affinity",
       anti_affinity_pod, Pod().Node("fake-node").Label("service", "bbb").Obj(),
       Pod().Node("fake-node").Label("service", "securityscan").Obj(), QueueingHint::kSkip},
      {"delete a pod which doesn't match pod's anti-affinity", anti_affinity_pod,
       Pod().Node("fake-node").Label("aaa", "a").Obj(), std::nullopt, QueueingHint::kSkip},
      {"delete a pod which matches pod's anti-affinity", anti_affinity_pod,
       Pod().Node("fake-node").Label("service", "securityscan").Obj(), std::nullopt, QueueingHint::kQueue},
      // v1.37's new rows.
      {"delete a pod with anti-affinity that matches pending pod", Pod().Name("p").Label("service", "securityscan").Obj(),
       Pod().Node("fake-node").PodAntiAffinityIn("service", "region", {"securityscan", "value2"}, kRequired).Obj(),
       std::nullopt, QueueingHint::kQueue},
      {"delete a pod with anti-affinity that doesn't match pending pod", Pod().Name("p").Label("service", "foo").Obj(),
       Pod().Node("fake-node").PodAntiAffinityIn("service", "region", {"securityscan", "value2"}, kRequired).Obj(),
       std::nullopt, QueueingHint::kSkip},
      {"delete a pod which doesn't match pending pod's anti-affinity and has anti-affinity that doesn't match "
       "pending pod",
       Pod().Name("p").PodAntiAffinityIn("service", "region", {"securityscan", "value2"}, kRequired).Label("service", "foo").Obj(),
       Pod().Node("fake-node").PodAntiAffinityIn("service", "region", {"securityscan", "value2"}, kRequired).Label("service", "foo").Obj(),
       std::nullopt, QueueingHint::kSkip},
      {"delete a nominated pod which doesn't match pod's anti-affinity", anti_affinity_pod,
       Pod().NominatedNodeName("fake-node").Label("aaa", "a").Obj(), std::nullopt, QueueingHint::kSkip},
      {"delete a nominated pod which matches pod's anti-affinity", anti_affinity_pod,
       Pod().NominatedNodeName("fake-node").Label("service", "securityscan").Obj(), std::nullopt, QueueingHint::kQueue},
      {"modify pod label to change it from matching only one of target pod's anti-affinity terms to matching none",
       Pod().UID("p").Name("p").PodAntiAffinityIn("service", "region", {"securityscan"}, kRequired)
           .PodAntiAffinityIn("app", "region", {"web"}, kRequired).Obj(),
       Pod().UID("other").Node("fake-node").Label("service", "securityscan").Label("app", "bar").Obj(),
       Pod().UID("other").Node("fake-node").Label("service", "foo").Label("app", "bar").Obj(), QueueingHint::kQueue},
      {"modify pod label but it still matches one of target pod's anti-affinity terms",
       Pod().UID("p").Name("p").PodAntiAffinityIn("service", "region", {"securityscan"}, kRequired)
           .PodAntiAffinityIn("app", "region", {"web"}, kRequired).Obj(),
       Pod().UID("other").Node("fake-node").Label("service", "securityscan").Label("app", "bar").Obj(),
       Pod().UID("other").Node("fake-node").Label("service", "foo").Label("app", "web").Obj(), QueueingHint::kSkip},
      {"delete a pod which matches only one of target pod's anti-affinity terms",
       Pod().UID("p").Name("p").PodAntiAffinityIn("service", "region", {"securityscan"}, kRequired)
           .PodAntiAffinityIn("app", "region", {"web"}, kRequired).Obj(),
       Pod().UID("other").Node("fake-node").Label("service", "securityscan").Obj(), std::nullopt, QueueingHint::kQueue},
      {"delete a pod with anti-affinity that matches pending pod on only one term",
       Pod().Name("p").Label("service", "securityscan").Obj(),
       Pod().Node("fake-node").UID("other").PodAntiAffinityIn("service", "region", {"securityscan"}, kRequired)
           .PodAntiAffinityIn("app", "region", {"web"}, kRequired).Obj(),
       std::nullopt, QueueingHint::kQueue},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    DYNAMIC_SECTION("Test_isSchedulableAfterPodChange #" << i << ": " << c.name) {
      EventObjects event;
      if (c.old_pod) event.SetOld(&*c.old_pod);
      if (c.new_pod) event.SetNew(&*c.new_pod);
      const auto hint = plugins::InterPodAffinity::IsSchedulableAfterPodChange(*Info(c.pod), event);
      REQUIRE(hint.ok());
      CHECK(*hint == c.expected);

      // The registered hint is the same function.
      testing::FakeHandle h;
      auto p = NewPlugin(h);
      const auto registered = p->EventsToRegister()[0].hint(*Info(c.pod), event);
      REQUIRE(registered.ok());
      CHECK(*registered == c.expected);
    }
  }
}

TEST_CASE("Test_isSchedulableAfterNodeChange", "[interpodaffinity][hints]") {
  struct Case {
    std::string name;
    api::v1::Pod pod;
    std::optional<api::v1::Node> old_node;
    api::v1::Node new_node;
    QueueingHint expected;
  };
  auto node = [](const LabelMap& labels) { return testing::MakeNode().Name("node-a").Labels(labels).Obj(); };
  const auto affinity_zone =
      Pod().Name("p").PodAffinityIn("service", "zone", {"securityscan", "value2"}, kRequired).Obj();
  const auto affinity_region =
      Pod().Name("p").PodAffinityIn("service", "region", {"securityscan", "value2"}, kRequired).Obj();
  const auto anti_zone =
      Pod()
          .Name("p")
          .PodAntiAffinity(kRequired, Term(testing::Selector({{"another", "label"}}), "zone"))
          .Obj();
  const std::vector<Case> cases = {
      // affinity
      {"add a new node with matched pod affinity topologyKey", affinity_zone, std::nullopt,
       node({{"zone", "zone1"}}), QueueingHint::kQueue},
      {"add a new node without matched topologyKey", affinity_region, std::nullopt, node({{"zone", "zone1"}}),
       QueueingHint::kSkip},
      {"update node label but not topologyKey", affinity_zone, node({{"aaa", "a"}}), node({{"aaa", "b"}}),
       QueueingHint::kSkip},
      {"update node label that isn't related to the pod affinity", affinity_zone, node({{"zone", "zone1"}}),
       node({{"zone", "zone1"}, {"unrelated-label", "unrelated"}}), QueueingHint::kSkip},
      {"update node with different affinity topologyKey value", affinity_zone, node({{"zone", "zone1"}}),
       node({{"zone", "zone2"}}), QueueingHint::kQueue},
      {"update node to have the affinity topology label", affinity_zone, node({{"aaa", "a"}}),
       node({{"zone", "zone1"}}), QueueingHint::kQueue},
      // anti-affinity
      {"add a new node with matched pod anti-affinity topologyKey", anti_zone, std::nullopt,
       node({{"zone", "zone1"}}), QueueingHint::kQueue},
      {"add a new node without matched pod anti-affinity topologyKey", anti_zone, std::nullopt, node({}),
       QueueingHint::kQueue},
      {"update node label that isn't related to the pod anti-affinity", anti_zone, node({{"zone", "zone1"}}),
       node({{"zone", "zone1"}, {"unrelated-label", "unrelated"}}), QueueingHint::kSkip},
      {"update node with different anti-affinity topologyKey value", anti_zone, node({{"zone", "zone1"}}),
       node({{"zone", "zone2"}}), QueueingHint::kQueue},
      {"update node to have the anti-affinity topology label", anti_zone, node({{"aaa", "a"}}),
       node({{"zone", "zone1"}}), QueueingHint::kSkip},
      {"update node label not to have anti-affinity topology label", anti_zone, node({{"zone", "zone1"}}),
       node({{"aaa", "a"}}), QueueingHint::kQueue},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    DYNAMIC_SECTION("Test_isSchedulableAfterNodeChange #" << i << ": " << c.name) {
      EventObjects event;
      if (c.old_node) event.SetOld(&*c.old_node);
      event.SetNew(&c.new_node);
      const auto hint = plugins::InterPodAffinity::IsSchedulableAfterNodeChange(*Info(c.pod), event);
      REQUIRE(hint.ok());
      CHECK(*hint == c.expected);

      testing::FakeHandle h;
      auto p = NewPlugin(h);
      const auto registered = p->EventsToRegister()[2].hint(*Info(c.pod), event);
      REQUIRE(registered.ok());
      CHECK(*registered == c.expected);
    }
  }
}

}  // namespace
}  // namespace schedkit::ipa_test
