// HotLabel: a declared node label key answers from NodeInfo's second line,
// with the label list's answer in every case — declared before or after the
// NodeInfo was made, beyond the places there are, present or absent.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "schedkit/framework/node_info.h"
#include "schedkit/testing/builders.h"

namespace schedkit::framework {
namespace {

using testing::MakeNode;

// What the label list says, for comparison.
std::string ListSays(const NodeInfo& n, Symbol key) {
  const Symbol* v = n.labels().Find(key);
  return v == nullptr ? "<none>" : std::string(v->str());
}
std::string HotSays(const NodeInfo& n, HotLabel key) {
  const Symbol* v = n.label(key);
  return v == nullptr ? "<none>" : std::string(v->str());
}

TEST_CASE("HotLabel answers as the label list, wherever the value is kept", "[framework][node_info]") {
  // Made before any of its keys is declared: the list answers.
  NodeInfo early = MakeNode().Name("early").Label("hot-test/a", "1").Label("hot-test/b", "2").Info();

  const HotLabel a = HotLabel::Declare("hot-test/a");
  CHECK(HotLabel::Declare("hot-test/a").slot() == a.slot());  // the same key, the same place
  std::vector<HotLabel> keys = {a};
  for (int i = 0; i < HotLabel::kMaxHotLabels + 1; ++i) {
    keys.push_back(HotLabel::Declare("hot-test/k" + std::to_string(i)));
  }
  // The process has kMaxHotLabels places: later keys have none.
  CHECK(keys.back().slot() == HotLabel::kMaxHotLabels);
  keys.push_back(HotLabel::Declare("hot-test/b"));

  NodeInfo late =
      MakeNode().Name("late").Label("hot-test/a", "x").Label("hot-test/k0", "y").Label("hot-test/b", "z").Info();
  for (const HotLabel& k : keys) {
    INFO(k.key().str());
    CHECK(HotSays(early, k) == ListSays(early, k.key()));
    CHECK(HotSays(late, k) == ListSays(late, k.key()));
  }
  CHECK(HotSays(late, a) == "x");
  CHECK(HotSays(early, a) == "1");

  // New labels on the node: the kept values follow.
  REQUIRE(late.SetNode(MakeNode().Name("late").Label("hot-test/k0", "w").Ptr()).ok());
  CHECK(HotSays(late, a) == "<none>");
  CHECK(HotSays(late, keys[1]) == "w");
  // Copies (snapshots, simulations) carry them.
  const NodeInfo copy = late.SimulationCopy();
  CHECK(HotSays(copy, keys[1]) == "w");
}

}  // namespace
}  // namespace schedkit::framework
