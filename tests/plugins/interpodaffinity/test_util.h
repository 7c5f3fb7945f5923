// Shared helpers for the InterPodAffinity tests: upstream-shaped pod, term and
// affinity builders, and plugin construction on a FakeHandle.
#ifndef SCHEDKIT_TESTS_PLUGINS_INTERPODAFFINITY_TEST_UTIL_H_
#define SCHEDKIT_TESTS_PLUGINS_INTERPODAFFINITY_TEST_UTIL_H_

#include <catch2/catch.hpp>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "plugins/interpodaffinity/inter_pod_affinity.h"
#include "schedkit/api/v1/kinds.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/status.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"
#include "testing/must.h"

namespace schedkit::ipa_test {

using framework::Code;
using framework::Status;
using testing::AffinityKind;
using testing::LabelMap;
using testing::SelectorRequirement;

inline constexpr AffinityKind kRequired = AffinityKind::kRequired;
inline constexpr AffinityKind kPreferred = AffinityKind::kPreferred;

inline const std::string kReasonAffinity = "node(s) didn't match pod affinity rules";
inline const std::string kReasonAntiAffinity = "node(s) didn't match pod anti-affinity rules";
inline const std::string kReasonExistingAntiAffinity =
    "node(s) didn't satisfy existing pods anti-affinity rules";

// Upstream's st.MakePod() leaves the namespace empty; ours defaults it to
// "default". The ported tables rely on the empty namespace.
inline testing::PodBuilder Pod() { return testing::MakePod().Namespace(""); }

inline api::v1::Node Node(std::string name, const LabelMap& labels = {}) {
  return testing::MakeNode().Name(std::move(name)).Labels(labels).Obj();
}

inline api::v1::Namespace Namespace(std::string name, const LabelMap& labels = {}) {
  api::v1::Namespace ns;
  ns.mutable_metadata()->set_name(std::move(name));
  for (const auto& [k, v] : labels) (*ns.mutable_metadata()->mutable_labels())[k] = v;
  return ns;
}

// Upstream scoring_test.go's `namespaces`.
inline std::vector<api::v1::Namespace> TeamNamespaces() {
  return {Namespace("subteam1.team1", {{"team", "team1"}}), Namespace("subteam2.team1", {{"team", "team1"}}),
          Namespace("subteam1.team2", {{"team", "team2"}}), Namespace("subteam2.team2", {{"team", "team2"}})};
}

inline api::v1::LabelSelector Sel(const std::vector<SelectorRequirement>& expressions) {
  return testing::Selector({}, expressions);
}

inline api::v1::PodAffinityTerm Term(
    std::optional<api::v1::LabelSelector> selector, std::string topology_key,
    std::vector<std::string> namespaces = {},
    std::optional<api::v1::LabelSelector> namespace_selector = std::nullopt) {
  api::v1::PodAffinityTerm t;
  if (selector) *t.mutable_label_selector() = *selector;
  t.set_topology_key(std::move(topology_key));
  for (auto& ns : namespaces) t.add_namespaces(std::move(ns));
  if (namespace_selector) *t.mutable_namespace_selector() = *namespace_selector;
  return t;
}

// Upstream's PodAffinityNotIn / PodAntiAffinityNotIn terms.
inline api::v1::PodAffinityTerm NotInTerm(std::string key, std::string topology_key,
                                          std::vector<std::string> values) {
  return Term(Sel({{std::move(key), "NotIn", std::move(values)}}), std::move(topology_key));
}

// A v1.Affinity with pod (anti-)affinity terms.
class AffinityBuilder {
 public:
  AffinityBuilder& Required(api::v1::PodAffinityTerm t) {
    *a_.mutable_pod_affinity()->add_required_during_scheduling_ignored_during_execution() = std::move(t);
    return *this;
  }
  AffinityBuilder& RequiredAnti(api::v1::PodAffinityTerm t) {
    *a_.mutable_pod_anti_affinity()->add_required_during_scheduling_ignored_during_execution() = std::move(t);
    return *this;
  }
  AffinityBuilder& Preferred(int32_t weight, api::v1::PodAffinityTerm t) {
    auto* w = a_.mutable_pod_affinity()->add_preferred_during_scheduling_ignored_during_execution();
    w->set_weight(weight);
    *w->mutable_pod_affinity_term() = std::move(t);
    return *this;
  }
  AffinityBuilder& PreferredAnti(int32_t weight, api::v1::PodAffinityTerm t) {
    auto* w = a_.mutable_pod_anti_affinity()->add_preferred_during_scheduling_ignored_during_execution();
    w->set_weight(weight);
    *w->mutable_pod_affinity_term() = std::move(t);
    return *this;
  }
  // Sets podAffinity / podAntiAffinity present even without terms.
  AffinityBuilder& WithEmptyAffinity() {
    a_.mutable_pod_affinity();
    return *this;
  }
  AffinityBuilder& WithEmptyAntiAffinity() {
    a_.mutable_pod_anti_affinity();
    return *this;
  }
  const api::v1::Affinity& Obj() const { return a_; }

 private:
  api::v1::Affinity a_;
};

inline api::v1::Pod WithAffinity(api::v1::Pod pod, const api::v1::Affinity& affinity) {
  *pod.mutable_spec()->mutable_affinity() = affinity;
  return pod;
}

// Upstream filtering_test.go's createPodWithAffinityTerms.
inline api::v1::Pod CreatePodWithAffinityTerms(std::string ns, std::string node_name, const LabelMap& labels,
                                               const std::vector<api::v1::PodAffinityTerm>& affinity,
                                               const std::vector<api::v1::PodAffinityTerm>& anti_affinity) {
  AffinityBuilder a;
  a.WithEmptyAffinity().WithEmptyAntiAffinity();
  for (const auto& t : affinity) a.Required(t);
  for (const auto& t : anti_affinity) a.RequiredAnti(t);
  auto builder = Pod().Namespace(std::move(ns)).Labels(labels);
  if (!node_name.empty()) builder.Node(std::move(node_name));
  return WithAffinity(builder.Obj(), a.Obj());
}

using testing::Info;

inline std::unique_ptr<plugins::InterPodAffinity> NewPlugin(testing::FakeHandle& h,
                                                            std::string args_json = "") {
  auto p = plugins::NewInterPodAffinity(framework::PluginArgs(std::move(args_json)), h);
  REQUIRE(p.ok());
  auto* raw = dynamic_cast<plugins::InterPodAffinity*>(p->get());
  REQUIRE(raw != nullptr);
  p->release();
  return std::unique_ptr<plugins::InterPodAffinity>(raw);
}

inline const framework::NodeInfo& NodeInfoOf(const testing::FakeHandle& h, std::string_view name) {
  const framework::NodeInfo* n = h.snapshot().Get(name);
  REQUIRE(n != nullptr);
  return *n;
}

inline Status Want(Code code, const std::string& reason) { return Status(code, Symbol::Intern(reason)); }

using Counts = std::map<std::pair<std::string, std::string>, int64_t>;

}  // namespace schedkit::ipa_test

#endif  // SCHEDKIT_TESTS_PLUGINS_INTERPODAFFINITY_TEST_UTIL_H_
