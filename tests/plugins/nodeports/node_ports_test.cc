// NodePorts: upstream v1.35.8 nodeports/node_ports_test.go cases (TestNodePorts,
// TestPreFilterDisabled, Test_isSchedulableAfterPodDeleted, TestFits), plus
// events and args.
#include "plugins/nodeports/node_ports.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "framework/host_ports.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/plugins/names.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"
#include "testing/must.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::EventObjects;
using framework::QueueingHint;
using framework::Status;
using testing::MakeNode;
using testing::MakePod;

// Upstream's newPod(host, "PROTOCOL/IP/PORT"...): one container with these host ports.
api::v1::Pod NewPod(const std::string& host, const std::vector<std::string>& host_port_infos) {
  testing::PodBuilder b = MakePod().Node(host).Container("pause");
  for (const std::string& info : host_port_infos) {
    std::vector<std::string> parts = absl::StrSplit(info, '/');
    REQUIRE(parts.size() == 3);
    b.HostPort(std::stoi(parts[2]), parts[0], parts[1]);
  }
  return b.Obj();
}

// Upstream's newNodeInfo: a node holding one pod with these host ports.
framework::NodeInfo NewNodeInfo(const std::vector<std::string>& host_port_infos) {
  return MakeNode().Info({NewPod("p1", host_port_infos)});
}

// st.MakePod().InitContainerPort(sidecar, {{ContainerPort: 8001, HostPort: 8001, Protocol: TCP}}).
api::v1::Pod InitContainerPortPod(bool sidecar) {
  api::v1::Pod pod = MakePod().Obj();
  api::v1::Container* c = pod.mutable_spec()->add_init_containers();
  c->set_name("init-container");
  c->set_image("pause");
  if (sidecar) c->set_restart_policy("Always");
  api::v1::ContainerPort* p = c->add_ports();
  p->set_container_port(8001);
  p->set_host_port(8001);
  p->set_protocol("TCP");
  return pod;
}

TEST_CASE("TestNodePorts", "[nodeports]") {
  struct Case {
    std::string name;
    api::v1::Pod pod;
    framework::NodeInfo node;
    Status want_pre_filter;
    Status want_filter;
  };
  const Status reject(Code::kUnschedulable, Symbol::Intern(NodePorts::kErrReason));
  const std::vector<Case> cases = {
      {"skip filter", MakePod().Obj(), MakeNode().Info(), Status::Skip(), Status()},
      {"other port", NewPod("m1", {"UDP/127.0.0.1/8080"}),
       MakeNode().Info({NewPod("m1", {"UDP/127.0.0.1/9090"})}), Status(), Status()},
      {"same udp port", NewPod("m1", {"UDP/127.0.0.1/8080"}),
       MakeNode().Info({NewPod("m1", {"UDP/127.0.0.1/8080"})}), Status(), reject},
      {"same tcp port", NewPod("m1", {"TCP/127.0.0.1/8080"}),
       MakeNode().Info({NewPod("m1", {"TCP/127.0.0.1/8080"})}), Status(), reject},
      {"different host ip", NewPod("m1", {"TCP/127.0.0.1/8080"}),
       MakeNode().Info({NewPod("m1", {"TCP/127.0.0.2/8080"})}), Status(), Status()},
      {"different protocol", NewPod("m1", {"UDP/127.0.0.1/8080"}),
       MakeNode().Info({NewPod("m1", {"TCP/127.0.0.1/8080"})}), Status(), Status()},
      {"second udp port conflict", NewPod("m1", {"UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"}),
       MakeNode().Info({NewPod("m1", {"UDP/127.0.0.1/8080"})}), Status(), reject},
      {"first tcp port conflict", NewPod("m1", {"TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"}),
       MakeNode().Info({NewPod("m1", {"TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"})}), Status(), reject},
      {"first tcp port conflict due to 0.0.0.0 hostIP", NewPod("m1", {"TCP/0.0.0.0/8001"}),
       MakeNode().Info({NewPod("m1", {"TCP/127.0.0.1/8001"})}), Status(), reject},
      {"TCP hostPort conflict due to 0.0.0.0 hostIP",
       NewPod("m1", {"TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"}),
       MakeNode().Info({NewPod("m1", {"TCP/127.0.0.1/8001"})}), Status(), reject},
      {"second tcp port conflict to 0.0.0.0 hostIP", NewPod("m1", {"TCP/127.0.0.1/8001"}),
       MakeNode().Info({NewPod("m1", {"TCP/0.0.0.0/8001"})}), Status(), reject},
      {"second different protocol", NewPod("m1", {"UDP/127.0.0.1/8001"}),
       MakeNode().Info({NewPod("m1", {"TCP/0.0.0.0/8001"})}), Status(), Status()},
      {"UDP hostPort conflict due to 0.0.0.0 hostIP", NewPod("m1", {"UDP/127.0.0.1/8001"}),
       MakeNode().Info({NewPod("m1", {"TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"})}), Status(), reject},
      {"non-sidecar initContainer using hostPort", InitContainerPortPod(false),
       MakeNode().Info({NewPod("m1", {"TCP/0.0.0.0/8001"})}), Status::Skip(), Status()},
      {"TCP hostPort conflict from sidecar initContainer", InitContainerPortPod(true),
       MakeNode().Info({NewPod("m1", {"TCP/0.0.0.0/8001"})}), Status(), reject},
  };
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodePorts, h);
  auto* pre_filter = dynamic_cast<framework::PreFilterPlugin*>(plugin.get());
  auto* filter = dynamic_cast<framework::FilterPlugin*>(plugin.get());
  REQUIRE(pre_filter != nullptr);
  REQUIRE(filter != nullptr);
  for (const Case& c : cases) {
    DYNAMIC_SECTION("TestNodePorts/" << c.name) {
      framework::CycleState state;
      auto pod = framework::PodInfo::Create(c.pod).value();
      const auto pre = pre_filter->PreFilter(state, *pod, {});
      CHECK(pre.status.ToString() == c.want_pre_filter.ToString());
      CHECK(pre.result.AllNodes());
      if (!pre.status.IsSkip()) {
        REQUIRE(pre.status.IsSuccess());
        const Status got = filter->Filter(state, *pod, c.node);
        CHECK(got.ToString() == c.want_filter.ToString());
        CHECK(got == c.want_filter);
      }
    }
  }
}

TEST_CASE("TestPreFilterDisabled", "[nodeports]") {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodePorts, h);
  framework::CycleState state;
  const framework::NodeInfo node = MakeNode().Info();
  const Status got = dynamic_cast<framework::FilterPlugin&>(*plugin).Filter(state, *MakePod().Info(), node);
  CHECK(got.code() == Code::kError);
  CHECK(got.Message() == "reading \"PreFilterNodePorts\" from cycleState: not found");
}

TEST_CASE("Test_isSchedulableAfterPodDeleted", "[nodeports]") {
  struct Case {
    std::string name;
    api::v1::Pod pod;
    std::optional<api::v1::Pod> old_pod;
    bool old_is_a_node = false;  // upstream passes a string: the wrong kind of object
    QueueingHint want;
    bool want_err = false;
  };
  const api::v1::Pod pod_with_host_port = MakePod().HostPort(8080).Obj();
  const std::vector<Case> cases = {
      {"backoff-wrong-old-object", pod_with_host_port, std::nullopt, true, QueueingHint::kQueue, true},
      {"skip-queue-on-unscheduled", pod_with_host_port, MakePod().Obj(), false, QueueingHint::kSkip},
      {"skip-queue-on-non-hostport", pod_with_host_port, MakePod().Node("fake-node").Obj(), false,
       QueueingHint::kSkip},
      {"skip-queue-on-unrelated-hostport", pod_with_host_port,
       MakePod().Node("fake-node").HostPort(8081).Obj(), false, QueueingHint::kSkip},
      {"queue-on-released-hostport", pod_with_host_port, MakePod().Node("fake-node").HostPort(8080).Obj(),
       false, QueueingHint::kQueue},
  };
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodePorts, h);
  const auto events = dynamic_cast<framework::EnqueueExtensions&>(*plugin).EventsToRegister();
  REQUIRE(events.size() == 2);
  REQUIRE(events[0].event.resource == framework::EventResource::AssignedPod());
  const framework::QueueingHintFn& hint = events[0].hint;
  REQUIRE(hint);
  const api::v1::Node some_node = MakeNode().Name("n").Obj();
  for (const Case& c : cases) {
    DYNAMIC_SECTION("Test_isSchedulableAfterPodDeleted/" << c.name) {
      auto pod = framework::PodInfo::Create(c.pod).value();
      EventObjects e;
      if (c.old_pod) e.SetOld(&*c.old_pod);
      if (c.old_is_a_node) e.SetOld(&some_node);
      const auto got = hint(*pod, e);
      if (c.want_err) {
        CHECK_FALSE(got.ok());
      } else {
        REQUIRE(got.ok());
        CHECK(*got == c.want);
      }
    }
  }
}

TEST_CASE("TestFits", "[nodeports]") {
  struct Case {
    std::string desc;
    api::v1::Pod pod;
    framework::NodeInfo existing;
    bool expect;
  };
  const std::vector<Case> cases = {
      {"non-conflicting ports", NewPod("p", {"TCP/127.0.0.1/80"}), NewNodeInfo({"TCP/127.0.0.1/9090"}), true},
      {"multiple non-conflicting ports",
       NewPod("p", {"TCP/127.0.0.1/80", "TCP/127.0.1.1/80", "TCP/127.0.1.1/90", "TCP/127.0.1.1/100"}),
       NewNodeInfo({"TCP/127.0.0.1/9090", "TCP/127.0.0.1/9191", "TCP/127.0.1.1/8080"}), true},
      {"same ports on different protocols", NewPod("m1", {"TCP/127.0.0.1/80"}),
       NewNodeInfo({"UDP/127.0.0.1/80"}), true},
      {"conflicting ports", NewPod("m1", {"TCP/127.0.0.1/80"}), NewNodeInfo({"TCP/127.0.0.1/80"}), false},
      {"multiple ports, some conflicting",
       NewPod("p", {"TCP/127.0.0.1/80", "TCP/127.0.1.1/80", "TCP/127.0.1.1/90", "TCP/127.0.1.1/100"}),
       NewNodeInfo({"TCP/127.0.0.1/9090", "TCP/127.0.1.1/90", "TCP/127.0.1.1/8080"}), false},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION("TestFits/" << c.desc) {
      CHECK(NodePortsFit(*framework::PodInfo::Create(c.pod).value(), c.existing) == c.expect);
    }
  }
}

TEST_CASE("HostPortsOf follows util.GetHostPorts", "[nodeports]") {
  api::v1::Pod pod = InitContainerPortPod(true);
  *pod.mutable_spec()->add_init_containers() = InitContainerPortPod(false).spec().init_containers(0);
  pod.mutable_spec()->mutable_init_containers(1)->mutable_ports(0)->set_host_port(9000);
  api::v1::Container* c = pod.mutable_spec()->add_containers();
  c->add_ports()->set_container_port(80);  // no host port: not wanted
  api::v1::ContainerPort* p = c->add_ports();
  p->set_host_port(443);
  p->set_protocol("");
  const auto ports = framework::HostPortsOf(pod);
  REQUIRE(ports.size() == 2);
  CHECK(ports[0] == framework::HostPort{Symbol::Intern("0.0.0.0"), framework::Protocol::kTCP, 8001});
  CHECK(ports[1] == framework::HostPort{Symbol::Intern("0.0.0.0"), framework::Protocol::kTCP, 443});
}

// A sidecar's host port held by a pod already on the node counts as used,
// as upstream's NodeInfo does (util.GetHostPorts).
TEST_CASE("NodePorts sees sidecar ports of pods on the node", "[nodeports]") {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodePorts, h);
  framework::CycleState state;
  auto pod = framework::PodInfo::Create(NewPod("", {"TCP/0.0.0.0/8001"})).value();
  REQUIRE(dynamic_cast<framework::PreFilterPlugin&>(*plugin).PreFilter(state, *pod, {}).status.IsSuccess());
  const framework::NodeInfo node = MakeNode().Info({InitContainerPortPod(true)});
  CHECK(dynamic_cast<framework::FilterPlugin&>(*plugin).Filter(state, *pod, node).code() ==
        Code::kUnschedulable);
}

TEST_CASE("NodePorts registers Pod/Delete and Node/Add", "[nodeports]") {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodePorts, h);
  CHECK(plugin->Name() == names::kNodePorts);
  const auto events = dynamic_cast<framework::EnqueueExtensions&>(*plugin).EventsToRegister();
  REQUIRE(events.size() == 2);
  CHECK(events[0].event.resource == framework::EventResource::AssignedPod());
  CHECK(events[0].event.action == framework::kActionDelete);
  CHECK(events[1].event.resource == framework::EventResource::Node());
  CHECK(events[1].event.action == framework::kActionAdd);
  CHECK_FALSE(events[1].hint);
}

TEST_CASE("NodePorts state clones share the wanted ports", "[nodeports]") {
  testing::FakeHandle h;
  auto plugin = testing::MustNew(&NewNodePorts, h);
  framework::CycleState state;
  auto pod = framework::PodInfo::Create(NewPod("", {"TCP/0.0.0.0/8001"})).value();
  REQUIRE(dynamic_cast<framework::PreFilterPlugin&>(*plugin).PreFilter(state, *pod, {}).status.IsSuccess());
  auto clone = state.Clone();
  const framework::NodeInfo node = MakeNode().Info({NewPod("m1", {"TCP/127.0.0.1/8001"})});
  CHECK(dynamic_cast<framework::FilterPlugin&>(*plugin).Filter(*clone, *pod, node).code() ==
        Code::kUnschedulable);
}

TEST_CASE("NodePorts args", "[nodeports]") {
  testing::FakeHandle h;
  CHECK(NewNodePorts(framework::PluginArgs("{}"), h).ok());
  auto bad = NewNodePorts(framework::PluginArgs(R"({"ports": []})"), h);
  REQUIRE_FALSE(bad.ok());
  CHECK(std::string(bad.status().message()).find("ports") != std::string::npos);
}

}  // namespace
}  // namespace schedkit::plugins
