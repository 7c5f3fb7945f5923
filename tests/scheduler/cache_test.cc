// Cache on its own: assumed pods (assume, forget, finish binding, the host's
// confirmation), bound pods, and the incremental snapshot, as upstream's
// backend/cache/cache_test.go checks them (TestAssumePodScheduled,
// TestAddPodWillConfirm, TestAddPodWillReplaceAssumed, TestForgetPod,
// TestUpdatePod, TestRemovePod, TestNodeOperators), with schedkit's own
// rules where it differs: an assumed pod's update waits for its bind, and
// assumed pods never expire (upstream's durationToExpireAssumedPod is 0).
#include "schedkit/scheduler/cache.h"

#include <catch2/catch.hpp>
#include <string>

#include "absl/status/status.h"
#include "schedkit/framework/snapshot.h"
#include "schedkit/testing/builders.h"
#include "testing/must.h"

namespace schedkit::scheduler {
namespace {

using framework::PodInfoPtr;
using testing::MakeNode;
using testing::MakePod;

PodInfoPtr PodOn(const std::string& name, const std::string& node, const std::string& cpu) {
  return testing::Info(MakePod().Name(name).UID(name + "-uid").Node(node).Req({{"cpu", cpu}}).Obj());
}

// The cpu the cache counts on `node`, in millicores, as a fresh snapshot shows it.
int64_t RequestedMilliCpu(const Cache& cache, const std::string& node) {
  framework::Snapshot snap;
  cache.UpdateSnapshot(snap);
  const framework::NodeInfo* info = snap.Get(node);
  REQUIRE(info != nullptr);
  return info->requested().milli_cpu;
}

struct Fixture {
  Cache cache;
  Fixture() {
    for (const char* name : {"node-1", "node-2"}) {
      REQUIRE(cache.AddNode(std::make_shared<const api::v1::Node>(
                                MakeNode().Name(name).Capacity({{"cpu", "4"}, {"memory", "8Gi"}}).Obj()))
                  .ok());
    }
  }
};

TEST_CASE("AssumePod counts the pod on its node at once, once", "[cache]") {
  Fixture f;
  const PodInfoPtr pod = PodOn("p", "node-1", "500m");
  REQUIRE(f.cache.AssumePod(pod).ok());
  CHECK(f.cache.IsAssumed(pod->uid()));
  CHECK(f.cache.GetPod(pod->uid()) == pod);
  CHECK(RequestedMilliCpu(f.cache, "node-1") == 500);
  CHECK(RequestedMilliCpu(f.cache, "node-2") == 0);
  CHECK(absl::IsAlreadyExists(f.cache.AssumePod(pod)));
  CHECK(RequestedMilliCpu(f.cache, "node-1") == 500);
  CHECK(f.cache.sizes().assumed_pods == 1);
}

TEST_CASE("ForgetPod undoes AssumePod, and only that", "[cache]") {
  Fixture f;
  const PodInfoPtr pod = PodOn("p", "node-1", "500m");
  REQUIRE(f.cache.AssumePod(pod).ok());
  // The pod as assumed on another node is not the one the cache holds.
  CHECK(absl::IsFailedPrecondition(f.cache.ForgetPod(*PodOn("p", "node-2", "500m"))));
  REQUIRE(f.cache.ForgetPod(*pod).ok());
  CHECK_FALSE(f.cache.IsAssumed(pod->uid()));
  CHECK(f.cache.GetPod(pod->uid()) == nullptr);
  CHECK(RequestedMilliCpu(f.cache, "node-1") == 0);
  CHECK(absl::IsFailedPrecondition(f.cache.ForgetPod(*pod)));  // no longer assumed

  // A bound pod cannot be forgotten: only RemovePod takes it out.
  const PodInfoPtr bound = PodOn("b", "node-1", "1");
  REQUIRE(f.cache.AddPod(bound).ok());
  CHECK(absl::IsFailedPrecondition(f.cache.ForgetPod(*bound)));
  CHECK(RequestedMilliCpu(f.cache, "node-1") == 1000);
}

TEST_CASE("FinishBinding keeps the pod counted; assumed pods never expire", "[cache]") {
  Fixture f;
  const PodInfoPtr pod = PodOn("p", "node-1", "250m");
  CHECK(absl::IsNotFound(f.cache.FinishBinding(*pod)));
  REQUIRE(f.cache.AssumePod(pod).ok());
  REQUIRE(f.cache.FinishBinding(*pod).ok());
  // Bound now, though the host has not confirmed it: no longer assumed, so
  // it cannot be forgotten, and it stays counted until the host adds or
  // deletes it (no expiry).
  CHECK_FALSE(f.cache.IsAssumed(pod->uid()));
  CHECK(absl::IsFailedPrecondition(f.cache.ForgetPod(*pod)));
  CHECK(RequestedMilliCpu(f.cache, "node-1") == 250);
  CHECK(f.cache.sizes().pods == 1);
  CHECK(f.cache.sizes().assumed_pods == 0);
}

TEST_CASE("AddPod confirms an assumed pod, keeping the host's newer object (TestAddPodWillConfirm)",
          "[cache]") {
  Fixture f;
  const PodInfoPtr assumed = PodOn("p", "node-1", "500m");
  REQUIRE(f.cache.AssumePod(assumed).ok());
  const PodInfoPtr confirmed = PodOn("p", "node-1", "500m");
  REQUIRE(f.cache.AddPod(confirmed).ok());
  CHECK_FALSE(f.cache.IsAssumed(confirmed->uid()));
  CHECK(f.cache.GetPod(confirmed->uid()) == confirmed);
  CHECK(RequestedMilliCpu(f.cache, "node-1") == 500);
  // A second add of a bound pod is refused.
  CHECK(absl::IsAlreadyExists(f.cache.AddPod(confirmed)));
}

TEST_CASE("AddPod of an assumed pod bound elsewhere follows the host (TestAddPodWillReplaceAssumed)",
          "[cache]") {
  Fixture f;
  REQUIRE(f.cache.AssumePod(PodOn("p", "node-1", "500m")).ok());
  const PodInfoPtr elsewhere = PodOn("p", "node-2", "500m");
  REQUIRE(f.cache.AddPod(elsewhere).ok());
  CHECK(RequestedMilliCpu(f.cache, "node-1") == 0);
  CHECK(RequestedMilliCpu(f.cache, "node-2") == 500);
  CHECK_FALSE(f.cache.IsAssumed(elsewhere->uid()));
  CHECK(f.cache.GetPod(elsewhere->uid())->node_name().str() == "node-2");
}

TEST_CASE("UpdatePod replaces a bound pod; an assumed pod's update waits for its bind (TestUpdatePod)",
          "[cache]") {
  Fixture f;
  CHECK(absl::IsNotFound(f.cache.UpdatePod(PodOn("p", "node-1", "1"))));
  REQUIRE(f.cache.AddPod(PodOn("p", "node-1", "1")).ok());
  REQUIRE(f.cache.UpdatePod(PodOn("p", "node-1", "2")).ok());
  CHECK(RequestedMilliCpu(f.cache, "node-1") == 2000);

  const PodInfoPtr assumed = PodOn("q", "node-2", "1");
  REQUIRE(f.cache.AssumePod(assumed).ok());
  CHECK(absl::IsFailedPrecondition(f.cache.UpdatePod(PodOn("q", "node-2", "3"))));
  CHECK(RequestedMilliCpu(f.cache, "node-2") == 1000);
}

TEST_CASE("RemovePod takes out bound and assumed pods (TestRemovePod)", "[cache]") {
  Fixture f;
  const PodInfoPtr bound = PodOn("b", "node-1", "1");
  const PodInfoPtr assumed = PodOn("a", "node-1", "500m");
  REQUIRE(f.cache.AddPod(bound).ok());
  REQUIRE(f.cache.AssumePod(assumed).ok());
  REQUIRE(f.cache.RemovePod(*bound).ok());
  REQUIRE(f.cache.RemovePod(*assumed).ok());
  CHECK(RequestedMilliCpu(f.cache, "node-1") == 0);
  CHECK(f.cache.sizes().pods == 0);
  CHECK(absl::IsNotFound(f.cache.RemovePod(*bound)));
}

TEST_CASE("A removed node stays as a ghost while pods remain on it (TestNodeOperators)", "[cache]") {
  Fixture f;
  const PodInfoPtr pod = PodOn("p", "node-1", "1");
  REQUIRE(f.cache.AddPod(pod).ok());
  REQUIRE(f.cache.RemoveNode("node-1").ok());
  CHECK(f.cache.NumNodes() == 1);
  framework::Snapshot snap;
  f.cache.UpdateSnapshot(snap);
  CHECK(snap.NumNodes() == 1);  // ghosts are not schedulable
  CHECK(snap.Get("node-1") == nullptr);
  // The pod can still be removed; then the ghost goes too.
  REQUIRE(f.cache.RemovePod(*pod).ok());
  CHECK(absl::IsNotFound(f.cache.RemoveNode("node-1")));
  CHECK(absl::IsNotFound(f.cache.RemovePod(*pod)));
}

TEST_CASE("Snapshots copy only the nodes that changed", "[cache]") {
  Fixture f;
  framework::Snapshot snap;
  f.cache.UpdateSnapshot(snap);
  CHECK(snap.last_update_copies() == 2);
  REQUIRE(f.cache.AssumePod(PodOn("p", "node-1", "100m")).ok());
  f.cache.UpdateSnapshot(snap);
  CHECK(snap.last_update_copies() == 1);
  CHECK(snap.Get("node-1")->requested().milli_cpu == 100);
  CHECK(snap.Get("node-2")->requested().milli_cpu == 0);
  f.cache.UpdateSnapshot(snap);
  CHECK(snap.last_update_copies() == 0);
}

}  // namespace
}  // namespace schedkit::scheduler
