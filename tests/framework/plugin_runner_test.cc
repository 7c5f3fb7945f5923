// schedkit::testing::RunFilter and RunScore: a plugin's extension points run
// as the framework runs them, and a FilterNodes that disagrees with Filter is
// caught.
#include "schedkit/testing/plugin_runner.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "schedkit/testing/builders.h"
#include "schedkit/testing/must.h"

namespace schedkit::framework {
namespace {

using testing::MakeNode;
using testing::MakePod;

const Symbol& Odd() {
  static const Symbol s = Symbol::Intern("odd node");
  return s;
}

// Rejects nodes whose name ends in an odd digit; `lying` makes its batch
// call pass every node.
class Parity final : public PreFilterPlugin, public FilterPlugin, public ScorePlugin, public ScoreExtensions {
 public:
  explicit Parity(bool lying, bool reject_all = false) : lying_(lying), reject_all_(reject_all) {}
  std::string_view Name() const override { return "Parity"; }
  PreFilterPlugin::Result PreFilter(CycleState&, const PodInfo&, std::span<const NodeInfo* const>) override {
    if (reject_all_) return {{}, Status(Code::kUnschedulableAndUnresolvable, Odd())};
    return {};
  }
  Status Filter(const CycleState&, const PodInfo&, const NodeInfo& node) const override {
    const std::string_view name = node.name().str();
    return (name.back() - '0') % 2 == 1 ? Status(Code::kUnschedulable, Odd()) : Status();
  }
  void FilterNodes(const CycleState& state, const PodInfo& pod, std::span<const NodeInfo* const> nodes,
                   std::span<uint8_t> passing, std::span<Status> statuses) const override {
    if (lying_) return;
    FilterPlugin::FilterNodes(state, pod, nodes, passing, statuses);
  }
  Status Score(const CycleState&, const PodInfo&, const NodeInfo& node, int64_t& score) const override {
    score = node.name().str().back() - '0';
    return Status();
  }
  const ScoreExtensions* GetScoreExtensions() const override { return this; }
  Status NormalizeScore(const CycleState&, const PodInfo&, std::span<const NodeInfo* const>,
                        std::span<int64_t> scores) const override {
    for (int64_t& s : scores) s *= 10;
    return Status();
  }

 private:
  bool lying_;
  bool reject_all_;
};

TEST_CASE("RunFilter runs PreFilter, Filter and FilterNodes, and checks one against the other",
          "[framework][testing]") {
  const std::vector<NodeInfo> nodes = {MakeNode().Name("n0").Info(), MakeNode().Name("n1").Info(),
                                       MakeNode().Name("n2").Info()};
  auto pod = MakePod().Name("p").Info();

  Parity honest(/*lying=*/false);
  testing::FilterRun run = testing::Must(testing::RunFilter(honest, *pod, nodes));
  CHECK(run.pre_filter.IsSuccess());
  REQUIRE(run.filter.size() == 3);
  CHECK(run.filter[0].IsSuccess());
  CHECK(run.filter[1].code() == Code::kUnschedulable);
  CHECK(run.filter[1].Message() == "odd node");
  CHECK(run.filter[2].IsSuccess());
  CHECK(run.state != nullptr);

  Parity lying(/*lying=*/true);
  absl::StatusOr<testing::FilterRun> caught = testing::RunFilter(lying, *pod, nodes);
  REQUIRE_FALSE(caught.ok());
  CHECK(caught.status().message() ==
        "plugin \"Parity\": FilterNodes on node \"n1\" gives \"\" where Filter gives \"odd node\"");

  Parity rejecting(/*lying=*/false, /*reject_all=*/true);
  testing::FilterRun rejected = testing::Must(testing::RunFilter(rejecting, *pod, nodes));
  CHECK(rejected.pre_filter.code() == Code::kUnschedulableAndUnresolvable);
  CHECK(rejected.filter.empty());
}

TEST_CASE("RunScore gives the normalized scores in node order", "[framework][testing]") {
  const std::vector<NodeInfo> nodes = {MakeNode().Name("n3").Info(), MakeNode().Name("n1").Info()};
  Parity plugin(/*lying=*/false);
  CHECK(testing::Must(testing::RunScore(plugin, *MakePod().Name("p").Info(), nodes)) ==
        std::vector<int64_t>{30, 10});
}

TEST_CASE("Must throws the status it was given", "[framework][testing]") {
  CHECK_THROWS_WITH(testing::Must(absl::StatusOr<int>(absl::NotFoundError("no such thing"))),
                    "NOT_FOUND: no such thing");
  CHECK(testing::Must(absl::StatusOr<int>(3)) == 3);
  CHECK_NOTHROW(testing::Must(absl::OkStatus()));
}

}  // namespace
}  // namespace schedkit::framework
