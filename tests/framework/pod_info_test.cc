// PodInfo's copies for assume and nomination: what each view of the API
// object shows, and the deferred node-named object under concurrent readers.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "schedkit/base/symbol.h"
#include "schedkit/framework/pod_info.h"
#include "schedkit/testing/builders.h"

namespace schedkit::framework {
namespace {

using testing::MakePod;

TEST_CASE("WithNodeName: pod() shows the node, received_pod() the object as delivered", "[pod_info]") {
  const PodInfoPtr queued = MakePod().Name("p").UID("u").Label("app", "web").Req({{"cpu", "100m"}}).Info();
  const PodInfoPtr assumed = queued->WithNodeName(Symbol::Intern("n1"));

  CHECK(assumed->node_name() == Symbol::Intern("n1"));
  CHECK(assumed->pod().spec().node_name() == "n1");
  CHECK(assumed->pod_ptr()->spec().node_name() == "n1");
  CHECK(&assumed->pod() == assumed->pod_ptr().get());
  // One object, made once.
  CHECK(&assumed->pod() == &assumed->pod());
  CHECK(assumed->received_pod().spec().node_name().empty());
  CHECK(&assumed->received_pod() == &queued->pod());
  // Everything else is the queued pod's.
  CHECK(assumed->uid() == "u");
  CHECK(assumed->key() == queued->key());
  CHECK(assumed->requests().milli_cpu == 100);
  CHECK(assumed->labels() == queued->labels());
  CHECK(assumed->pod().metadata().labels().at("app") == "web");

  // The original is untouched.
  CHECK(queued->node_name().empty());
  CHECK(queued->pod().spec().node_name().empty());
  CHECK(&queued->received_pod() == &queued->pod());
}

TEST_CASE("WithNodeName twice names the second node, and nomination keeps the node", "[pod_info]") {
  const PodInfoPtr queued = MakePod().Name("p").UID("u").Info();
  const PodInfoPtr on_n1 = queued->WithNodeName(Symbol::Intern("n1"));
  CHECK(on_n1->pod().spec().node_name() == "n1");  // made before the next copy
  const PodInfoPtr on_n2 = on_n1->WithNodeName(Symbol::Intern("n2"));
  CHECK(on_n2->pod().spec().node_name() == "n2");
  CHECK(on_n1->pod().spec().node_name() == "n1");

  const PodInfoPtr nominated = on_n2->WithNominatedNodeName("n3");
  CHECK(nominated->pod().spec().node_name() == "n2");
  CHECK(nominated->pod().status().nominated_node_name() == "n3");
  CHECK(nominated->node_name() == Symbol::Intern("n2"));
  CHECK(nominated->nominated_node_name() == Symbol::Intern("n3"));
  CHECK(&nominated->received_pod() == &nominated->pod());
}

TEST_CASE("The deferred node-named object is made once under concurrent readers", "[pod_info][tsan]") {
  const PodInfoPtr queued = MakePod().Name("p").UID("u").Info();
  for (int round = 0; round < 20; ++round) {
    const PodInfoPtr assumed = queued->WithNodeName(Symbol::Intern("n1"));
    constexpr int kReaders = 4;
    // Catch's assertions are not thread-safe: readers record, the test checks.
    std::vector<const api::v1::Pod*> seen(kReaders, nullptr);
    std::vector<std::string> node_names(kReaders);
    std::vector<std::thread> readers;
    for (int r = 0; r < kReaders; ++r) {
      readers.emplace_back([&, r] {
        seen[r] = &assumed->pod();
        node_names[r] = assumed->pod_ptr()->spec().node_name();
      });
    }
    for (std::thread& t : readers) t.join();
    for (const api::v1::Pod* p : seen) CHECK(p == &assumed->pod());
    for (const std::string& name : node_names) CHECK(name == "n1");
  }
}

TEST_CASE("The first-line flags agree with the lists they stand for", "[pod_info]") {
  using testing::AffinityKind;
  struct Case {
    const char* name;
    PodInfoPtr pod;
    bool host_ports, required_anti_affinity, pod_affinity;
  };
  const std::vector<Case> cases = {
      {"plain", MakePod().Name("a").Info(), false, false, false},
      {"host port", MakePod().Name("b").HostPort(80).Info(), true, false, false},
      {"required anti-affinity", MakePod().Name("c").PodAntiAffinityExists("app", "zone", AffinityKind::kRequired).Info(),
       false, true, true},
      {"preferred anti-affinity only",
       MakePod().Name("d").PodAntiAffinityExists("app", "zone", AffinityKind::kPreferred).Info(), false, false, true},
      {"required affinity only", MakePod().Name("e").PodAffinityExists("app", "zone", AffinityKind::kRequired).Info(),
       false, false, true},
  };
  for (const Case& c : cases) {
    DYNAMIC_SECTION(c.name) {
      for (const PodInfoPtr& view : {c.pod, c.pod->WithNodeName("n1"), c.pod->WithNominatedNodeName("n2")}) {
        CHECK(view->has_host_ports() == c.host_ports);
        CHECK(view->has_host_ports() == !view->host_ports().empty());
        CHECK(view->has_required_anti_affinity() == c.required_anti_affinity);
        CHECK(view->has_required_anti_affinity() == !view->required_anti_affinity_terms().empty());
        CHECK(view->has_pod_affinity() == c.pod_affinity);
      }
    }
  }
}

TEST_CASE("Only a pod that may be scheduled keeps a signature", "[pod_info]") {
  const PodInfoPtr queued = MakePod().Name("p").UID("u").Req({{"cpu", "100m"}}).Info();
  REQUIRE(queued->signature() != nullptr);
  // Replicas of one spec sign alike; another request signs apart.
  const PodInfoPtr replica = MakePod().Name("q").UID("v").Req({{"cpu", "100m"}}).Info();
  const PodInfoPtr bigger = MakePod().Name("r").UID("w").Req({{"cpu", "200m"}}).Info();
  CHECK(*queued->signature() == *replica->signature());
  CHECK_FALSE(*queued->signature() == *bigger->signature());
  CHECK(queued->signature()->bytes.size() == queued->signature()->bytes.capacity());

  // Nomination keeps the pod pending: the copy shares the signature.
  CHECK(queued->WithNominatedNodeName("n2")->signature() == queued->signature());
  // Assumed on a node, or delivered with one, a pod is not scheduled again.
  CHECK(queued->WithNodeName("n1")->signature() == nullptr);
  CHECK(MakePod().Name("b").UID("x").Node("n1").Info()->signature() == nullptr);
}

api::LabelSet Labels(const std::string& zone, const std::string& arch) {
  return api::LabelSet::FromPairs({{Symbol::Intern("zone"), Symbol::Intern(zone)}, {Symbol::Intern("arch"), Symbol::Intern(arch)}});
}

TEST_CASE("Node selectors, preferred terms, spread constraints and gates read alike through every copy",
          "[pod_info]") {
  api::v1::NodeSelectorTerm term;
  auto* req = term.add_match_expressions();
  req->set_key("disk");
  req->set_operator_("In");
  req->add_values("ssd");
  const PodInfoPtr rich = MakePod()
                              .Name("rich")
                              .NodeSelector({{"zone", "a"}})
                              .NodeAffinityIn("arch", {"amd64"})
                              .PreferredNodeAffinity(7, term)
                              .PodAffinityExists("app", "zone", testing::AffinityKind::kPreferred)
                              .SpreadConstraint(1, "zone", "DoNotSchedule", std::nullopt)
                              .SchedulingGates({"wait"})
                              .Info();
  const PodInfoPtr plain = MakePod().Name("plain").Info();
  for (const PodInfoPtr& view : {rich, rich->WithNodeName("n1"), rich->WithNominatedNodeName("n2")}) {
    CHECK(view->has_node_selector());
    CHECK(view->has_required_node_affinity());
    CHECK(view->preferred_node_affinity().size() == 1);
    CHECK(view->preferred_node_affinity()[0].weight == 7);
    CHECK(view->preferred_affinity_terms().size() == 1);
    CHECK(view->preferred_anti_affinity_terms().empty());
    CHECK(view->spread_constraints().size() == 1);
    CHECK(view->scheduling_gates() == std::vector<Symbol>{Symbol::Intern("wait")});
    CHECK(view->MatchesNodeSelectorAndAffinity(Labels("a", "amd64"),
                                               Symbol::Intern("n")));
    CHECK_FALSE(view->MatchesNodeSelectorAndAffinity(Labels("b", "amd64"),
                                                     Symbol::Intern("n")));
    CHECK_FALSE(view->MatchesNodeSelectorAndAffinity(Labels("a", "arm64"),
                                                     Symbol::Intern("n")));
  }
  CHECK_FALSE(plain->has_node_selector());
  CHECK_FALSE(plain->has_required_node_affinity());
  CHECK(plain->preferred_node_affinity().empty());
  CHECK(plain->preferred_affinity_terms().empty());
  CHECK(plain->spread_constraints().empty());
  CHECK(plain->scheduling_gates().empty());
  CHECK(plain->MatchesNodeSelectorAndAffinity(api::LabelSet(), Symbol::Intern("n")));
}

TEST_CASE("A PodInfo starts on a cache line", "[pod_info]") {
  // The hot fields are laid out for line-aligned objects (see pod_info.h).
  for (int i = 0; i < 8; ++i) {
    PodInfoPtr p = MakePod().Name("p" + std::to_string(i)).Info();
    CHECK(reinterpret_cast<uintptr_t>(p.get()) % 64 == 0);
  }
  // A bound pod's record: with a million of them, each 64 bytes more is
  // 61 MiB (bench/README.md, "Scale").
  CHECK(sizeof(PodInfo) <= 448);
}

}  // namespace
}  // namespace schedkit::framework
