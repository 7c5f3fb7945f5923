// NominatedPodsSnapshot: the bit filter in front of its map never hides a
// node's nominated pods.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "schedkit/api/symbol.h"
#include "schedkit/framework/nominated_pods.h"
#include "schedkit/testing/builders.h"

namespace schedkit::framework {
namespace {

using testing::MakePod;

TEST_CASE("NominatedPodsSnapshot answers for every node, with and without nominations", "[nominated_pods]") {
  // More nodes than the filter has bits, every seventh nominated: bits are
  // shared, so the map must decide the shared ones.
  constexpr int kNodes = 20000;
  NominatedPodsSnapshot::ByNode by_node;
  for (int i = 0; i < kNodes; i += 7) {
    const std::string name = "node-" + std::to_string(i);
    by_node[Symbol::Intern(name)] = std::make_shared<const std::vector<PodInfoPtr>>(
        std::vector<PodInfoPtr>{MakePod().Name("p-" + std::to_string(i)).NominatedNodeName(name).Info()});
  }
  by_node[Symbol::Intern("listed-without-pods")] = nullptr;
  const NominatedPodsSnapshot snapshot(std::move(by_node));
  CHECK_FALSE(snapshot.empty());
  int with = 0;
  int wrong = 0;
  for (int i = 0; i < kNodes; ++i) {
    const std::span<const PodInfoPtr> pods = snapshot.ForNode(Symbol::Intern("node-" + std::to_string(i)));
    const bool nominated = i % 7 == 0;
    if (nominated) {
      ++with;
      if (pods.size() != 1 || pods[0]->name() != Symbol::Intern("p-" + std::to_string(i))) ++wrong;
    } else if (!pods.empty()) {
      ++wrong;
    }
  }
  CHECK(with == (kNodes + 6) / 7);
  CHECK(wrong == 0);
  CHECK(snapshot.ForNode(Symbol::Intern("listed-without-pods")).empty());
  CHECK(NominatedPodsSnapshot().ForNode(Symbol::Intern("node-0")).empty());
  CHECK(NominatedPodsSnapshot().empty());
}

}  // namespace
}  // namespace schedkit::framework
