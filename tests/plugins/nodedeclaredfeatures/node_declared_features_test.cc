// NodeDeclaredFeatures: upstream v1.37.2 nodedeclaredfeatures_test.go
// (TestPreFilter, TestFilter, TestEnqueueExtensionsNodeUpdate,
// TestIsSchedulableAfterTargetPodUpdate, TestEventsToRegister) with the real
// registry in place of upstream's mock features, and component-helpers'
// per-feature InferForScheduling tests and FeatureMapper.TryMap.
#include "plugins/nodedeclaredfeatures/node_declared_features.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/declared_features.h"
#include "schedkit/plugins/names.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"
#include "testing/filter_nodes.h"
#include "testing/must.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::DeclaredFeatureSet;
using framework::QueueingHint;
using framework::Status;
using testing::MakeNode;
using testing::MakePod;

constexpr std::string_view kRestartAll = "RestartAllContainersOnContainerExits";
constexpr std::string_view kHostNetwork = "UserNamespacesHostNetworkSupport";
constexpr std::string_view kBindMounts = "VolumeBindMountOptions";

// A pod that needs RestartAllContainersOnContainerExits.
api::v1::Pod RestartAllPod() {
  api::v1::Pod pod = MakePod().Name("p").UID("p").Container("img").Obj();
  pod.mutable_spec()->mutable_containers(0)->add_restart_policy_rules()->set_action("RestartAllContainers");
  return pod;
}

// A pod that needs both RestartAllContainersOnContainerExits and
// UserNamespacesHostNetworkSupport.
api::v1::Pod TwoFeaturePod() {
  api::v1::Pod pod = RestartAllPod();
  pod.mutable_spec()->set_host_network(true);
  pod.mutable_spec()->set_host_users(false);
  return pod;
}

api::v1::Node FeatureNode(const std::string& name, const std::vector<std::string_view>& features) {
  api::v1::Node node = MakeNode().Name(name).Obj();
  for (std::string_view f : features) node.mutable_status()->add_declared_features(std::string(f));
  return node;
}

DeclaredFeatureSet Set(const std::vector<std::string_view>& sorted) {
  api::v1::Node node = FeatureNode("n", sorted);
  return framework::MapDeclaredFeatures(node.status().declared_features());
}

TEST_CASE("TestPreFilter", "[nodedeclaredfeatures]") {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodeDeclaredFeatures, h);
  auto* pre = dynamic_cast<framework::PreFilterPlugin*>(plugin.get());
  REQUIRE(pre != nullptr);
  SECTION("Pod with feature requirements") {
    framework::CycleState state;
    auto pod = framework::PodInfo::Create(RestartAllPod()).value();
    CHECK(pre->PreFilter(state, *pod, {}).status.IsSuccess());
  }
  SECTION("Pod with multiple feature requirements") {
    framework::CycleState state;
    auto pod = framework::PodInfo::Create(TwoFeaturePod()).value();
    CHECK(pre->PreFilter(state, *pod, {}).status.IsSuccess());
  }
  SECTION("Pod with no requirements") {
    framework::CycleState state;
    auto pod = framework::PodInfo::Create(MakePod().Container("img").Obj()).value();
    CHECK(pre->PreFilter(state, *pod, {}).status.IsSkip());
  }
}

TEST_CASE("TestFilter", "[nodedeclaredfeatures]") {
  const Status reject(Code::kUnschedulableAndUnresolvable, Symbol::Intern(NodeDeclaredFeatures::kErrReason));
  struct Case {
    std::string name;
    api::v1::Pod pod;
    api::v1::Node node;
    Status want;
  };
  const std::vector<Case> cases = {
      {"Node matches requirements", RestartAllPod(), FeatureNode("n", {kRestartAll}), Status()},
      {"Node does not match requirements", RestartAllPod(), FeatureNode("n", {kHostNetwork}), reject},
      {"Node with multiple features, pod requires subset", RestartAllPod(),
       FeatureNode("n", {kRestartAll, kHostNetwork}), Status()},
      {"Node has no declared features", RestartAllPod(), FeatureNode("n", {}), reject},
      {"Node with some but not all required features", TwoFeaturePod(), FeatureNode("n", {kRestartAll}), reject},
  };
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodeDeclaredFeatures, h);
  auto* pre = dynamic_cast<framework::PreFilterPlugin*>(plugin.get());
  auto* filter = dynamic_cast<framework::FilterPlugin*>(plugin.get());
  REQUIRE(filter != nullptr);
  for (const Case& c : cases) {
    DYNAMIC_SECTION("TestFilter/" << c.name) {
      framework::CycleState state;
      auto pod = framework::PodInfo::Create(c.pod).value();
      REQUIRE(pre->PreFilter(state, *pod, {}).status.IsSuccess());
      framework::NodeInfo node = framework::NodeInfo::Create(c.node).value();
      const Status got = filter->Filter(state, *pod, node);
      CHECK(got.ToString() == c.want.ToString());
      CHECK(testing::FilterThroughBatch(*filter, state, *pod, node) == got);
    }
  }
  SECTION("TestFilter/Error getting pre-filter state") {
    framework::CycleState state;
    auto pod = framework::PodInfo::Create(RestartAllPod()).value();
    framework::NodeInfo node = framework::NodeInfo::Create(FeatureNode("n", {kRestartAll})).value();
    CHECK(filter->Filter(state, *pod, node).code() == Code::kError);
  }
}

TEST_CASE("TestEnqueueExtensionsNodeUpdate and TestIsSchedulableAfterTargetPodUpdate", "[nodedeclaredfeatures]") {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodeDeclaredFeatures, h);
  auto* ext = dynamic_cast<framework::EnqueueExtensions*>(plugin.get());
  REQUIRE(ext != nullptr);
  const auto events = ext->EventsToRegister();
  REQUIRE(events.size() == 2);  // TestEventsToRegister/plugin enabled
  CHECK(events[0].event.resource == framework::EventResource::Node());
  CHECK(events[0].event.action == (framework::kActionAdd | framework::kActionUpdateNodeDeclaredFeature));
  auto pod = framework::PodInfo::Create(RestartAllPod()).value();

  const api::v1::Node with = FeatureNode("n", {kRestartAll});
  const api::v1::Node without = FeatureNode("n", {});
  auto node_hint = [&](const api::v1::Node* old_node, const api::v1::Node& new_node) {
    return events[0].hint(*pod, framework::EventObjects::Of<api::v1::Node>(old_node, &new_node)).value();
  };
  CHECK(node_hint(nullptr, with) == QueueingHint::kQueue);      // Node Add with feature
  CHECK(node_hint(&without, with) == QueueingHint::kQueue);     // Node Update (Features Added)
  CHECK(node_hint(&with, with) == QueueingHint::kSkip);         // Node Update (Features Unchanged)

  const api::v1::Pod plain = MakePod().Name("p").UID("p").Container("img").Obj();
  const api::v1::Pod needs = RestartAllPod();
  auto pod_hint = [&](const api::v1::Pod& old_pod, const api::v1::Pod& new_pod) {
    return events[1].hint(*pod, framework::EventObjects::Of<api::v1::Pod>(&old_pod, &new_pod)).value();
  };
  CHECK(pod_hint(plain, needs) == QueueingHint::kQueue);  // Pod Update adds requirement
  CHECK(pod_hint(needs, plain) == QueueingHint::kQueue);  // Pod Update removes requirement
  CHECK(pod_hint(needs, needs) == QueueingHint::kSkip);   // Pod Update with no change in requirements
}

// component-helpers nodedeclaredfeatures/features/*: InferForScheduling.
TEST_CASE("InferPodFeatures as the registry's features infer them", "[nodedeclaredfeatures]") {
  using framework::InferPodFeatures;
  CHECK(InferPodFeatures(MakePod().Container("img").Obj().spec()) == 0);
  CHECK(InferPodFeatures(RestartAllPod().spec()) == Set({kRestartAll}));
  api::v1::Pod init = MakePod().InitContainer("img").Container("img").Obj();
  init.mutable_spec()->mutable_init_containers(0)->add_restart_policy_rules()->set_action("RestartAllContainers");
  CHECK(InferPodFeatures(init.spec()) == Set({kRestartAll}));
  api::v1::Pod restart = MakePod().Container("img").Obj();
  restart.mutable_spec()->mutable_containers(0)->add_restart_policy_rules()->set_action("Restart");
  CHECK(InferPodFeatures(restart.spec()) == 0);

  api::v1::Pod host = MakePod().Container("img").Obj();
  host.mutable_spec()->set_host_network(true);
  CHECK(InferPodFeatures(host.spec()) == 0);  // hostUsers unset
  host.mutable_spec()->set_host_users(true);
  CHECK(InferPodFeatures(host.spec()) == 0);
  host.mutable_spec()->set_host_users(false);
  CHECK(InferPodFeatures(host.spec()) == Set({kHostNetwork}));
  host.mutable_spec()->set_host_network(false);
  CHECK(InferPodFeatures(host.spec()) == 0);

  api::v1::Pod mounts = MakePod().Container("img").Obj();
  auto* m = mounts.mutable_spec()->mutable_containers(0)->add_volume_mounts();
  m->set_name("v");
  CHECK(InferPodFeatures(mounts.spec()) == 0);
  m->add_bind_mount_options("noexec");
  CHECK(InferPodFeatures(mounts.spec()) == Set({kBindMounts}));
  api::v1::Pod ephemeral = MakePod().Container("img").Obj();
  ephemeral.mutable_spec()->add_ephemeral_containers()->add_volume_mounts()->add_bind_mount_options("nosuid");
  CHECK(InferPodFeatures(ephemeral.spec()) == Set({kBindMounts}));

  CHECK(InferPodFeatures(TwoFeaturePod().spec()) == Set({kRestartAll, kHostNetwork}));
}

// featureset.go TryMap: a sorted walk; unknown names are skipped, and an
// unsorted list loses what the walk has passed.
TEST_CASE("MapDeclaredFeatures reads the node's list as upstream's TryMap", "[nodedeclaredfeatures]") {
  CHECK(Set({}) == 0);
  CHECK(Set({kRestartAll, kHostNetwork, kBindMounts}) == (Set({kRestartAll}) | Set({kHostNetwork}) | Set({kBindMounts})));
  CHECK(Set({"AUnknownFeature", kRestartAll, "ZUnknown"}) == Set({kRestartAll}));
  // Unsorted: VolumeBindMountOptions first moves the walk past the others.
  CHECK(Set({kBindMounts, kRestartAll}) == Set({kBindMounts}));
  CHECK(framework::kDeclaredFeatures.size() == 9);
  for (size_t i = 1; i < framework::kDeclaredFeatures.size(); ++i) {
    CHECK(framework::kDeclaredFeatures[i - 1] < framework::kDeclaredFeatures[i]);
  }
}

TEST_CASE("NodeDeclaredFeatures name and args", "[nodedeclaredfeatures]") {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodeDeclaredFeatures, h);
  CHECK(plugin->Name() == names::kNodeDeclaredFeatures);
  CHECK_FALSE(NewNodeDeclaredFeatures(framework::PluginArgs(R"({"x": 1})"), h).ok());
}

}  // namespace
}  // namespace schedkit::plugins
