// NominatedPodsSnapshot: the bit filter in front of its map never hides a
// node's nominated pods.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "schedkit/base/symbol.h"
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

NominatedPodsSnapshot::PodList ListOf(std::string_view pod, std::string_view node) {
  return std::make_shared<const std::vector<PodInfoPtr>>(
      std::vector<PodInfoPtr>{MakePod().Name(std::string(pod)).NominatedNodeName(std::string(node)).Info()});
}

TEST_CASE("NominatedPodsSnapshot::Builder keeps each snapshot as it was built", "[nominated_pods]") {
  NominatedPodsSnapshot::Builder builder;
  CHECK(builder.Build().empty());
  constexpr int kNodes = 3000;
  auto node = [](int i) { return Symbol::Intern("node-" + std::to_string(i)); };
  for (int i = 0; i < kNodes; ++i) builder.Set(node(i), ListOf("p-" + std::to_string(i), node(i).str()));
  const NominatedPodsSnapshot first = builder.Build();

  // Change one node, remove one, add one: the next snapshot has the new
  // lists, the unchanged nodes keep their very lists, and the first
  // snapshot still answers as when it was built.
  builder.Set(node(5), ListOf("moved-here", "node-5"));
  builder.Set(node(6), nullptr);
  builder.Set(node(kNodes), ListOf("new", node(kNodes).str()));
  CHECK(builder.Find(node(6)) == nullptr);
  CHECK(builder.Find(node(5))->front()->name() == Symbol::Intern("moved-here"));
  const NominatedPodsSnapshot second = builder.Build();

  CHECK(first.ForNode(node(5)).front()->name() == Symbol::Intern("p-5"));
  CHECK(first.ForNode(node(6)).size() == 1);
  CHECK(first.ForNode(node(kNodes)).empty());
  CHECK(second.ForNode(node(5)).front()->name() == Symbol::Intern("moved-here"));
  CHECK(second.ForNode(node(6)).empty());
  CHECK(second.ListFor(node(6)) == nullptr);
  CHECK(second.ForNode(node(kNodes)).front()->name() == Symbol::Intern("new"));
  int same_list = 0;
  for (int i = 0; i < kNodes; ++i) {
    if (i == 5 || i == 6) continue;
    same_list += first.ListFor(node(i)) == second.ListFor(node(i)) ? 1 : 0;
  }
  CHECK(same_list == kNodes - 2);
  CHECK(first.ListFor(node(5)) != second.ListFor(node(5)));

  // MayList finds the pods in some list, and not the others.
  CHECK(second.MayList(*second.ForNode(node(5)).front()));
  CHECK(second.MayList(*second.ForNode(node(kNodes)).front()));
  CHECK(first.MayList(*first.ForNode(node(6)).front()));
  CHECK_FALSE(second.MayList(*first.ForNode(node(6)).front()));
  CHECK_FALSE(first.MayList(*second.ForNode(node(kNodes)).front()));
  CHECK_FALSE(second.MayList(*MakePod().Name("elsewhere").UID("elsewhere").Info()));

  // Removing every node leaves an empty snapshot.
  for (int i = 0; i <= kNodes; ++i) builder.Set(node(i), nullptr);
  const NominatedPodsSnapshot none = builder.Build();
  CHECK(none.empty());
  CHECK(none.ForNode(node(0)).empty());
  CHECK_FALSE(none.MayList(*first.ForNode(node(0)).front()));
  CHECK_FALSE(second.empty());
}

}  // namespace
}  // namespace schedkit::framework
