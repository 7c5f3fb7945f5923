// sample-plugin's table tests, on schedkit::testing: each case is a pod and
// nodes; RunFilter runs PreFilter, then Filter on every node (and checks the
// batch FilterNodes against it), as the framework would.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sample_plugin.h"
#include "schedkit/framework/status.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"
#include "schedkit/testing/must.h"
#include "schedkit/testing/plugin_runner.h"

namespace {

using schedkit::framework::Code;
using schedkit::framework::NodeInfo;
using schedkit::framework::PluginArgs;
using schedkit::testing::MakeNode;
using schedkit::testing::MakePod;
using schedkit::testing::Must;

constexpr char kArgs[] = R"({"favorite_color": "blue", "thanks_to": "thockin", "node_label": "color"})";

TEST_CASE("Filter keeps a pod off nodes of another color", "[sample]") {
  struct Case {
    std::string name;
    schedkit::testing::PodBuilder pod;
    std::vector<Code> want;  // per node: red, blue, unlabelled
  };
  const std::vector<Case> cases = {
      {"a pod without a color wants the favorite", MakePod().Name("p"),
       {Code::kUnschedulable, Code::kSuccess, Code::kSuccess}},
      {"a pod's own color wins", MakePod().Name("p").Label("color", "red"),
       {Code::kSuccess, Code::kUnschedulable, Code::kSuccess}},
      {"a color no node has", MakePod().Name("p").Label("color", "green"),
       {Code::kUnschedulable, Code::kUnschedulable, Code::kSuccess}},
  };
  const std::vector<NodeInfo> nodes = {MakeNode().Name("red").Label("color", "red").Info(),
                                       MakeNode().Name("blue").Label("color", "blue").Info(),
                                       MakeNode().Name("plain").Info()};
  schedkit::testing::FakeHandle handle;
  auto plugin = Must(sample::New(PluginArgs(kArgs), handle));
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      schedkit::testing::FilterRun run = Must(schedkit::testing::RunFilter(*plugin, *c.pod.Info(), nodes));
      REQUIRE(run.pre_filter.IsSuccess());
      REQUIRE(run.filter.size() == c.want.size());
      for (size_t i = 0; i < c.want.size(); ++i) {
        CHECK(run.filter[i].code() == c.want[i]);
        if (c.want[i] == Code::kUnschedulable) CHECK(run.filter[i].Message() == "node(s) had another color");
      }
    }
  }
}

// The sample as if it promised per-node outcomes (Plugin::OutcomesArePerNode).
class Promising final : public schedkit::framework::PreFilterPlugin, public schedkit::framework::FilterPlugin {
 public:
  explicit Promising(std::unique_ptr<schedkit::framework::Plugin> p) : p_(std::move(p)) {}
  std::string_view Name() const override { return p_->Name(); }
  bool OutcomesArePerNode() const override { return true; }
  Result PreFilter(schedkit::framework::CycleState& state, const schedkit::framework::PodInfo& pod,
                   std::span<const NodeInfo* const> nodes) override {
    return dynamic_cast<PreFilterPlugin&>(*p_).PreFilter(state, pod, nodes);
  }
  schedkit::framework::Status Filter(const schedkit::framework::CycleState& state,
                                     const schedkit::framework::PodInfo& pod, const NodeInfo& node) const override {
    return dynamic_cast<const FilterPlugin&>(*p_).Filter(state, pod, node);
  }

 private:
  std::unique_ptr<schedkit::framework::Plugin> p_;
};

TEST_CASE("the sample must not promise per-node outcomes: it reads a pod label", "[sample]") {
  schedkit::testing::FakeHandle handle;
  Promising plugin(Must(sample::New(PluginArgs(kArgs), handle)));
  const std::vector<NodeInfo> nodes = {MakeNode().Name("red").Label("color", "red").Info()};
  const std::vector<schedkit::framework::PodInfoPtr> pods = {MakePod().Name("a").Info(),
                                                             MakePod().Name("b").Label("color", "red").Info()};
  const absl::Status s = schedkit::testing::CheckOutcomesArePerNode(plugin, pods, nodes);
  CHECK(s.message() == "plugin \"sample-plugin\" promises per-node outcomes (OutcomesArePerNode), but its Filter "
                       "of pod default/b on node \"red\" gives Success where pod default/a of the same signature "
                       "got Unschedulable \"node(s) had another color\"");
}

TEST_CASE("PreBind records the binding with the thanks", "[sample]") {
  schedkit::testing::FakeHandle handle;
  auto plugin = Must(sample::New(PluginArgs(kArgs), handle));
  auto* sample = dynamic_cast<sample::SamplePlugin*>(plugin.get());
  REQUIRE(sample != nullptr);
  schedkit::framework::CycleState state;
  auto pod = MakePod().Name("p").Namespace("ns").Info();
  CHECK(sample->PreBind(state, *pod, schedkit::Symbol::Intern("blue")).IsSuccess());
  CHECK(sample->records() == std::vector<std::string>{"ns/p on blue, thanks to thockin"});
}

TEST_CASE("bad args name the field", "[sample]") {
  schedkit::testing::FakeHandle handle;
  struct Case {
    std::string args;
    std::string want;
  };
  const std::vector<Case> cases = {
      {R"({})", "sample-plugin args: favorite_color: Required value"},
      {R"({"favorite_color": "blue", "favorite_number": 101})",
       "sample-plugin args: favorite_number: Invalid value: 101: must be between 0 and 100, inclusive"},
      {R"({"favorite_color": "blue", "favourite_number": 1})", "sample-plugin args: favourite_number: unknown field"},
      {R"({"favorite_color": 7})", "sample-plugin args: favorite_color: expected a string, got an integer"},
  };
  for (const Case& c : cases) {
    INFO(c.args);
    auto plugin = sample::New(PluginArgs(c.args), handle);
    REQUIRE_FALSE(plugin.ok());
    CHECK(plugin.status().message() == c.want);
  }
}

}  // namespace
