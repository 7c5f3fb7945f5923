// The in-tree plugins' batch signatures (their SignPod), through a profile's
// Framework::SignPod: which pods sign alike and which decline. The
// order-insensitivity cases are upstream's signers_test.go rows
// (k8s.io/kube-scheduler/framework, v0.37.2: TestHostPortsSigner,
// TestTolerationsSigner, TestVolumesSigner, TestNodeAffinitySigner), checked
// as equalities of whole signatures since schedkit's bytes are its own; the
// declines are the plugins' SignPod in v1.37.2.
#include <catch2/catch.hpp>

#include <memory>
#include <optional>
#include <string>

#include "schedkit/config/configuration.h"
#include "schedkit/framework/framework.h"
#include "schedkit/plugins/in_tree.h"
#include "schedkit/testing/builders.h"

namespace schedkit {
namespace {

using testing::AffinityKind;
using testing::MakePod;

// The default profile, with PodTopologySpread's system default constraints
// replaced by none (the default ones decline every pod) unless `system`.
std::unique_ptr<framework::Framework> Profile(bool system = false, bool ignore_preferred = false) {
  config::SchedulerConfiguration cfg = config::DefaultConfiguration();
  framework::Profile& p = cfg.profiles[0];
  if (!system) p.plugin_args["PodTopologySpread"] = framework::PluginArgs(R"({"defaultingType":"List"})");
  if (ignore_preferred) {
    p.plugin_args["InterPodAffinity"] = framework::PluginArgs(R"({"ignorePreferredTermsOfExistingPods":true})");
  }
  auto fw = framework::Framework::Create(plugins::NewInTreeRegistry(), p);
  INFO(fw.status().ToString());
  REQUIRE(fw.ok());
  return *std::move(fw);
}

api::v1::NodeSelectorTerm Term(std::string key, std::vector<std::string> values) {
  api::v1::NodeSelectorTerm t;
  auto* r = t.add_match_expressions();
  r->set_key(std::move(key));
  r->set_operator_("In");
  for (auto& v : values) r->add_values(std::move(v));
  return t;
}

api::v1::Volume Disk(std::string name, std::string pd) {
  api::v1::Volume v;
  v.set_name(std::move(name));
  v.mutable_gce_persistent_disk()->set_pd_name(std::move(pd));
  return v;
}

TEST_CASE("signature: every in-tree plugin signs; the default profile batches", "[integration][batch]") {
  auto fw = Profile(/*system=*/true);
  CHECK(fw->Batches());
  // The system default spread constraints decline every pod.
  CHECK_FALSE(fw->SignPod(*MakePod().Name("a").Req({{"cpu", "1"}}).Info()).has_value());
}

TEST_CASE("signature: replicas sign alike; what the plugins read tells pods apart", "[integration][batch]") {
  auto fw = Profile();
  const auto sign = [&](const testing::PodBuilder& b) { return fw->SignPod(*b.Info()); };
  const auto base = [] { return MakePod().Namespace("ns").Label("app", "web").Req({{"cpu", "1"}}).Container("nginx"); };
  const auto a = sign(base().Name("a").UID("ua"));
  REQUIRE(a.has_value());
  CHECK(sign(base().Name("b").UID("ub")) == a);

  CHECK(sign(base().Name("b").Req({{"cpu", "1"}})) != a);                        // NodeResourcesFit
  CHECK(sign(base().Name("b").Label("tier", "x")) != a);                         // InterPodAffinity
  CHECK(sign(base().Name("b").Toleration("k")) != a);                            // TaintToleration
  CHECK(sign(base().Name("b").HostPort(80)) != a);                               // NodePorts
  CHECK(sign(base().Name("b").NodeSelector({{"zone", "a"}})) != a);              // NodeAffinity
  CHECK(sign(base().Name("b").NodeAffinityIn("zone", {"a"})) != a);              // NodeAffinity
  CHECK(sign(base().Name("b").Node("n1")) != a);                                 // NodeName
  CHECK(sign(base().Name("b").Container("redis")) != a);                         // ImageLocality
  CHECK(sign(base().Name("b").Volume(Disk("d", "pd"))) != a);                    // volume plugins
  CHECK(sign(base().Name("b").SchedulerName("other")) != a);                     // the framework's own fragment
}

TEST_CASE("signature: what upstream's signers sort is order-insensitive", "[integration][batch]") {
  auto fw = Profile();
  const auto sign = [&](const testing::PodBuilder& b) { return fw->SignPod(*b.Info()); };
  SECTION("TestHostPortsSigner: multiple containers, unsorted host ports, duplicates") {
    CHECK(sign(MakePod().Name("a").HostPort(8080).HostPort(80).HostPort(8080)) ==
          sign(MakePod().Name("b").HostPort(80).HostPort(8080)));
  }
  SECTION("TestTolerationsSigner: multiple tolerations, unsorted") {
    CHECK(sign(MakePod().Name("a").Toleration("b", "Equal", "2").Toleration("a", "Equal", "1")) ==
          sign(MakePod().Name("b").Toleration("a", "Equal", "1").Toleration("b", "Equal", "2")));
    CHECK(sign(MakePod().Name("a").Toleration("a", "Equal", "1")) !=
          sign(MakePod().Name("b").Toleration("a", "Equal", "2")));
  }
  SECTION("TestVolumesSigner: mixed volumes, sorted") {
    CHECK(sign(MakePod().Name("a").Volume(Disk("x", "pd2")).Volume(Disk("y", "pd1"))) ==
          sign(MakePod().Name("b").Volume(Disk("y", "pd1")).Volume(Disk("x", "pd2"))));
    // The volume's name is not part of its source.
    CHECK(sign(MakePod().Name("a").Volume(Disk("x", "pd1"))) == sign(MakePod().Name("b").Volume(Disk("y", "pd1"))));
  }
  SECTION("TestNodeAffinitySigner: affinity unsorted; nil and empty affinity differ") {
    CHECK(sign(MakePod().Name("a").NodeAffinityTerm(Term("k", {"b", "a"})).NodeAffinityTerm(Term("j", {"c"}))) ==
          sign(MakePod().Name("b").NodeAffinityTerm(Term("j", {"c"})).NodeAffinityTerm(Term("k", {"a", "b"}))));
    CHECK(sign(MakePod().Name("a").PreferredNodeAffinity(1, Term("k", {"a"}))) !=
          sign(MakePod().Name("b").PreferredNodeAffinity(2, Term("k", {"a"}))));
    testing::PodBuilder empty = MakePod().Name("b");
    api::v1::Pod with_empty = empty.Obj();
    with_empty.mutable_spec()->mutable_affinity()->mutable_node_affinity();
    auto info = framework::PodInfo::Create(std::make_shared<const api::v1::Pod>(with_empty));
    REQUIRE(info.ok());
    CHECK(fw->SignPod(**info) != sign(MakePod().Name("a")));
  }
  SECTION("image names: a set over containers and init containers") {
    CHECK(sign(MakePod().Name("a").Container("nginx").Container("redis").Container("nginx")) ==
          sign(MakePod().Name("b").Container("redis").InitContainer("nginx:latest")));
  }
}

TEST_CASE("signature: the plugins that decline", "[integration][batch]") {
  auto fw = Profile();
  CHECK_FALSE(fw->SignPod(*MakePod().Name("a").SpreadConstraint(1, "zone", "DoNotSchedule", std::nullopt).Info()));
  CHECK_FALSE(fw->SignPod(*MakePod().Name("a").PodAffinityExists("app", "zone", AffinityKind::kRequired).Info()));
  CHECK_FALSE(fw->SignPod(*MakePod().Name("a").PodAntiAffinityExists("app", "zone", AffinityKind::kPreferred).Info()));
  // A decliner asked first next time must not change the answer for others.
  CHECK(fw->SignPod(*MakePod().Name("b").Info()).has_value());
}

TEST_CASE("signature: with ignorePreferredTermsOfExistingPods labels do not count", "[integration][batch]") {
  auto fw = Profile(false, /*ignore_preferred=*/true);
  CHECK(fw->SignPod(*MakePod().Name("a").Label("app", "x").Info()) ==
        fw->SignPod(*MakePod().Name("b").Label("app", "y").Info()));
}

}  // namespace
}  // namespace schedkit
