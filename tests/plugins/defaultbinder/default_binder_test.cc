// Port of upstream v1.35.8 pkg/scheduler/framework/plugins/defaultbinder
// default_binder_test.go: TestDefaultBinder, both cases ("successful",
// "binding error"). Upstream runs each case twice, with and without its
// asynchronous API dispatcher; schedkit has no dispatcher (the host's
// ClusterClient is the only path), so each case runs once.
#include "plugins/defaultbinder/default_binder.h"

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"

namespace schedkit::plugins {
namespace {

using testing::MakePod;

// Records the binding it was asked for, or fails with `inject_err`.
class FakeClient : public framework::ClusterClient {
 public:
  struct Binding {
    std::string ns, name, uid, node;
  };
  std::optional<absl::Status> inject_err;
  std::optional<Binding> got;

  absl::Status Bind(const framework::PodInfo& pod, Symbol node) override {
    if (inject_err) return *inject_err;
    got = Binding{pod.pod().metadata().namespace_(), pod.pod().metadata().name(), pod.uid(),
                  std::string(node.str())};
    return absl::OkStatus();
  }
  absl::Status Evict(const framework::PodInfo&, const framework::PodInfo&, Symbol) override {
    return absl::UnimplementedError("evict");
  }
  absl::Status ClearNominatedNodeName(const framework::PodInfo&) override {
    return absl::UnimplementedError("clear");
  }
};

TEST_CASE("TestDefaultBinder", "[defaultbinder]") {
  const auto test_pod = MakePod().Name("foo").Namespace("ns").Info();
  const Symbol test_node = Symbol::Intern("foohost.kubernetes.mydomain.com");

  testing::FakeHandle h;
  FakeClient client;
  h.set_client(&client);
  auto plugin = NewDefaultBinder(framework::PluginArgs(), h);
  REQUIRE(plugin.ok());
  auto* binder = dynamic_cast<framework::BindPlugin*>(plugin->get());
  REQUIRE(binder != nullptr);
  CHECK(binder->Name() == "DefaultBinder");
  framework::CycleState state;

  SECTION("successful") {
    framework::Status s = binder->Bind(state, *test_pod, test_node);
    CHECK(s.IsSuccess());
    REQUIRE(client.got.has_value());
    CHECK(client.got->ns == "ns");
    CHECK(client.got->name == "foo");
    CHECK(client.got->node == "foohost.kubernetes.mydomain.com");
  }
  SECTION("binding error") {
    client.inject_err = absl::InternalError("binding error");
    framework::Status s = binder->Bind(state, *test_pod, test_node);
    CHECK(s.code() == framework::Code::kError);
    CHECK(s.Message() == "binding error");
    CHECK_FALSE(client.got.has_value());
  }
}

TEST_CASE("DefaultBinder without a client is an error", "[defaultbinder]") {
  testing::FakeHandle h;
  auto plugin = NewDefaultBinder(framework::PluginArgs(), h);
  REQUIRE(plugin.ok());
  auto* binder = dynamic_cast<framework::BindPlugin*>(plugin->get());
  framework::CycleState state;
  framework::Status s =
      binder->Bind(state, *MakePod().Name("foo").Namespace("ns").Info(), Symbol::Intern("n1"));
  CHECK(s.code() == framework::Code::kError);
  CHECK(s.Message() == "no cluster client to bind pod ns/foo to node n1");
}

}  // namespace
}  // namespace schedkit::plugins
