// DryRunMemo: which dry-run outcomes it serves, and when it forgets them.
#include "plugins/defaultpreemption/dry_run_memo.h"

#include <catch2/catch.hpp>

#include <memory>
#include <optional>
#include <vector>

#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"
#include "framework/cycle_bookkeeping.h"

namespace schedkit::plugins::preemption {
namespace {

using framework::Code;
using framework::CycleState;
using framework::NominatedPodsSnapshot;
using framework::PodInfoPtr;
using framework::Status;
using testing::MakeNode;
using testing::MakePod;

// A handle whose filter chain key the test sets.
class KeyedHandle : public testing::FakeHandle {
 public:
  std::optional<uint64_t> chain = 1;
  std::optional<uint64_t> PerNodeFilterChain(const CycleState&) const override { return chain; }
};

Symbol S(std::string_view s) { return Symbol::Intern(s); }

PodInfoPtr Preemptor(const std::string& name, const char* cpu = "2") {
  return MakePod().Name(name).UID(name).Priority(100).Req({{"cpu", cpu}}).Info();
}

struct Fixture {
  KeyedHandle handle;
  NominatedPodsSnapshot::ByNode by_node;
  Fixture() {
    handle.SetCluster({MakeNode().Name("n0").Capacity({{"cpu", "4"}}).Obj(),
                       MakeNode().Name("n1").Capacity({{"cpu", "4"}}).Obj()},
                      {MakePod().Name("low").Node("n0").Req({{"cpu", "3"}}).Obj()});
    by_node[S("n1")] = std::make_shared<const std::vector<PodInfoPtr>>(1, Preemptor("nominee"));
  }
  // A cycle's state with a snapshot of by_node as it is now.
  std::unique_ptr<CycleState> State() const {
    auto state = std::make_unique<CycleState>();
    framework::CycleBookkeeping::SetNominatedPods(*state, std::make_shared<const NominatedPodsSnapshot>(by_node));
    return state;
  }
  const framework::NodeInfo& Node(std::string_view name) const { return *handle.snapshot().Get(name); }
};

const Status kNoFit(Code::kUnschedulable, S("Insufficient cpu"));

TEST_CASE("DryRunMemo serves what it kept for the signature while node and nominations stay", "[preemption][memo]") {
  Fixture f;
  DryRunMemo memo;
  const auto state_owner = f.State();
  CycleState& state = *state_owner;
  const PodInfoPtr a = Preemptor("a");
  memo.Begin(f.handle, state, *a);
  DryRunMemo::Slot n1 = memo.SlotFor(state, *a, f.Node("n1"));
  REQUIRE(n1.valid());
  CHECK(memo.Find(n1) == nullptr);
  memo.Keep(n1, kNoFit, nullptr);
  Victims victims;
  victims.pods.push_back(f.Node("n0").pods()[0]);
  DryRunMemo::Slot n0 = memo.SlotFor(state, *a, f.Node("n0"));
  memo.Keep(n0, Status(), &victims);
  memo.End();
  CHECK_FALSE(memo.SlotFor(state, *a, f.Node("n1")).valid());  // not between Begin and End

  // Another preemptor of the signature, in a new cycle with the same lists.
  const auto next_owner = f.State();
  CycleState& next = *next_owner;
  const PodInfoPtr b = Preemptor("b");
  memo.Begin(f.handle, next, *b);
  const DryRunMemo::Outcome* kept = memo.Find(memo.SlotFor(next, *b, f.Node("n1")));
  REQUIRE(kept != nullptr);
  CHECK(kept->status == kNoFit);
  kept = memo.Find(memo.SlotFor(next, *b, f.Node("n0")));
  REQUIRE(kept != nullptr);
  CHECK(kept->status.IsSuccess());
  REQUIRE(kept->victims.pods.size() == 1);
  CHECK(kept->victims.pods[0]->name() == S("low"));
  memo.End();

  SECTION("a new list of nominations for the node") {
    f.by_node[S("n1")] = std::make_shared<const std::vector<PodInfoPtr>>(*f.by_node[S("n1")]);
    const auto later_owner = f.State();
    CycleState& later = *later_owner;
    memo.Begin(f.handle, later, *b);
    CHECK(memo.Find(memo.SlotFor(later, *b, f.Node("n1"))) == nullptr);
    CHECK(memo.Find(memo.SlotFor(later, *b, f.Node("n0"))) != nullptr);
  }
  SECTION("a changed node") {
    REQUIRE(f.handle.state().AddPod(MakePod().Name("new").Node("n0").Req({{"cpu", "1"}}).Info()).ok());
    f.handle.Refresh();
    const auto later_owner = f.State();
    CycleState& later = *later_owner;
    memo.Begin(f.handle, later, *b);
    CHECK(memo.Find(memo.SlotFor(later, *b, f.Node("n0"))) == nullptr);
    CHECK(memo.Find(memo.SlotFor(later, *b, f.Node("n1"))) != nullptr);
  }
  SECTION("a preemptor of another signature, then the first one's again") {
    const PodInfoPtr big = Preemptor("big", "3");
    const auto later_owner = f.State();
    CycleState& later = *later_owner;
    memo.Begin(f.handle, later, *big);
    CHECK(memo.Find(memo.SlotFor(later, *big, f.Node("n1"))) == nullptr);
    memo.End();
    memo.Begin(f.handle, later, *b);
    CHECK(memo.Find(memo.SlotFor(later, *b, f.Node("n1"))) == nullptr);  // one signature at a time
  }
  SECTION("another filter chain") {
    f.handle.chain = 2;
    const auto later_owner = f.State();
    CycleState& later = *later_owner;
    memo.Begin(f.handle, later, *b);
    CHECK(memo.Find(memo.SlotFor(later, *b, f.Node("n1"))) == nullptr);
  }
}

TEST_CASE("DryRunMemo has no slot where the outcome would not be the signature's alone", "[preemption][memo]") {
  Fixture f;
  DryRunMemo memo;
  const PodInfoPtr a = Preemptor("a");

  // A chain without a per-node key.
  f.handle.chain = std::nullopt;
  const auto state_owner = f.State();
  CycleState& state = *state_owner;
  memo.Begin(f.handle, state, *a);
  CHECK_FALSE(memo.SlotFor(state, *a, f.Node("n0")).valid());
  f.handle.chain = 1;

  // A node the pod itself is nominated to: its dry run leaves itself out.
  f.by_node[S("n1")] = std::make_shared<const std::vector<PodInfoPtr>>(
      std::vector<PodInfoPtr>{a, Preemptor("beside")});
  const auto own_owner = f.State();
  CycleState& own = *own_owner;
  memo.Begin(f.handle, own, *a);
  CHECK(memo.SlotFor(own, *a, f.Node("n0")).valid());
  CHECK_FALSE(memo.SlotFor(own, *a, f.Node("n1")).valid());
  // Another state than the one the attempt began with.
  const auto other_owner = f.State();
  CycleState& other = *other_owner;
  CHECK_FALSE(memo.SlotFor(other, *a, f.Node("n0")).valid());
  CHECK(memo.SlotFor(own, *a, f.Node("n0")).valid());
  // A NodeInfo that is not the snapshot's.
  const framework::NodeInfo copy = f.Node("n0");
  CHECK_FALSE(memo.SlotFor(own, *a, copy).valid());

  // Nominations not known from a snapshot while a nominator exists.
  struct NoSnapshot : framework::PodNominator {
    std::vector<PodInfoPtr> NominatedPodsForNode(Symbol) const override { return {}; }
    void AddNominatedPod(PodInfoPtr, Symbol) override {}
    void DeleteNominatedPodIfExists(const framework::PodInfo&) override {}
  } nominator;
  f.handle.set_nominator(&nominator);
  CycleState bare;
  memo.Begin(f.handle, bare, *a);
  CHECK_FALSE(memo.SlotFor(bare, *a, f.Node("n0")).valid());
  // ... and without a nominator there are none to know.
  f.handle.set_nominator(nullptr);
  memo.Begin(f.handle, bare, *a);
  CHECK(memo.SlotFor(bare, *a, f.Node("n0")).valid());
}

}  // namespace
}  // namespace schedkit::plugins::preemption
