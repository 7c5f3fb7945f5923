// NodeName: upstream v1.37.2 nodename/node_name_test.go cases, plus events and args.
#include "plugins/nodename/node_name.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "schedkit/framework/cycle_state.h"
#include "schedkit/plugins/names.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"
#include "testing/filter_nodes.h"
#include "testing/must.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::Status;
using testing::MakeNode;
using testing::MakePod;

TEST_CASE("TestNodeName", "[nodename]") {
  struct Case {
    std::string name;
    api::v1::Pod pod;
    api::v1::Node node;
    Status want;
  };
  const Status reject(Code::kUnschedulableAndUnresolvable, Symbol::Intern(NodeName::kErrReason));
  const std::vector<Case> cases = {
      {"no host specified", MakePod().Obj(), MakeNode().Obj(), Status()},
      {"host matches", MakePod().Node("foo").Obj(), MakeNode().Name("foo").Obj(), Status()},
      {"host doesn't match", MakePod().Node("bar").Obj(), MakeNode().Name("foo").Obj(), reject},
  };
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodeName, h);
  auto* filter = dynamic_cast<framework::FilterPlugin*>(plugin.get());
  REQUIRE(filter != nullptr);
  for (const Case& c : cases) {
    DYNAMIC_SECTION("TestNodeName/" << c.name) {
      framework::CycleState state;
      auto pod = framework::PodInfo::Create(c.pod).value();
      framework::NodeInfo node = framework::NodeInfo::Create(c.node).value();
      const Status got = filter->Filter(state, *pod, node);
      CHECK(got.ToString() == c.want.ToString());
      CHECK(got == c.want);
      CHECK(testing::FilterThroughBatch(*filter, state, *pod, node) == got);
    }
  }
}

// Upstream v1.37.2 TestNodeName_PreFilter: a pod naming its node narrows the
// candidates to it; one that does not leaves every node.
TEST_CASE("TestNodeName_PreFilter", "[nodename]") {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodeName, h);
  auto* pre = dynamic_cast<framework::PreFilterPlugin*>(plugin.get());
  REQUIRE(pre != nullptr);
  framework::CycleState state;
  SECTION("assigned pod with nodeName set, prefilter restricts to assigned node") {
    auto pod = framework::PodInfo::Create(MakePod().Node("foo").Obj()).value();
    framework::PreFilterPlugin::Result r = pre->PreFilter(state, *pod, {});
    CHECK(r.status.IsSuccess());
    REQUIRE_FALSE(r.result.AllNodes());
    CHECK(*r.result.node_names == absl::flat_hash_set<Symbol>{Symbol::Intern("foo")});
  }
  SECTION("unassigned pod without nodeName set, prefilter returns nil") {
    auto pod = framework::PodInfo::Create(MakePod().Obj()).value();
    framework::PreFilterPlugin::Result r = pre->PreFilter(state, *pod, {});
    CHECK(r.status.IsSuccess());
    CHECK(r.result.AllNodes());
  }
}

TEST_CASE("NodeName reason text and name", "[nodename]") {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodeName, h);
  CHECK(plugin->Name() == names::kNodeName);
  CHECK(NodeName::kErrReason == "node(s) didn't match the requested node name");
}

TEST_CASE("NodeName registers Node/Add without a hint", "[nodename]") {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodeName, h);
  auto* ext = dynamic_cast<framework::EnqueueExtensions*>(plugin.get());
  REQUIRE(ext != nullptr);
  const auto events = ext->EventsToRegister();
  REQUIRE(events.size() == 1);
  CHECK(events[0].event.resource == framework::EventResource::Node());
  CHECK(events[0].event.action == framework::kActionAdd);
  CHECK(events[0].event.label == "NodeAdd");
  CHECK_FALSE(events[0].hint);
}

TEST_CASE("NodeName args", "[nodename]") {
  testing::FakeHandle h;
  CHECK(NewNodeName(framework::PluginArgs("{}"), h).ok());
  CHECK(NewNodeName(framework::PluginArgs(R"({"apiVersion": "kubescheduler.config.k8s.io/v1"})"), h).ok());
  auto bad = NewNodeName(framework::PluginArgs(R"({"nodeName": "x"})"), h);
  REQUIRE_FALSE(bad.ok());
  CHECK(std::string(bad.status().message()).find("nodeName") != std::string::npos);
}

}  // namespace
}  // namespace schedkit::plugins
