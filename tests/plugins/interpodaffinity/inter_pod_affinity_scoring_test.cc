// Ported from upstream v1.35.8 pkg/scheduler/framework/plugins/interpodaffinity/scoring_test.go.
//
// Not ported (cannot be expressed here): the two TestPreferredAffinity cases
// "invalid Affinity fails PreScore" and "invalid AntiAffinity fails PreScore".
// Upstream parses the pod inside PreScore and fails on the label value
// "{{.bad-value.}}"; schedkit parses pods once into PodInfo before any plugin
// runs, and its selector compiler does not validate label values.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "schedkit/base/str_cat.h"
#include "test_util.h"

namespace schedkit::ipa_test {
namespace {

using framework::CycleState;

struct NodeScore {
  std::string name;
  int64_t score;
  friend bool operator==(const NodeScore&, const NodeScore&) = default;
};

std::ostream& operator<<(std::ostream& os, const NodeScore& s) { return os << s.name << "=" << s.score; }

// PreScore, then Score on each of `nodes` in order, then NormalizeScore, as
// the upstream tests drive the plugin.
struct ScoreRun {
  Status pre_score;
  std::vector<NodeScore> scores;
};

ScoreRun RunScore(testing::FakeHandle& h, plugins::InterPodAffinity& p, const framework::PodInfo& pod,
                  const std::vector<api::v1::Node>& nodes) {
  ScoreRun out;
  CycleState state;
  out.pre_score = p.PreScore(state, pod, h.snapshot().nodes());
  if (!out.pre_score.IsSuccess()) return out;
  std::vector<const framework::NodeInfo*> infos;
  std::vector<int64_t> raw;
  for (const auto& n : nodes) {
    const framework::NodeInfo& info = NodeInfoOf(h, n.metadata().name());
    int64_t score = -1;
    const Status s = p.Score(state, pod, info, score);
    REQUIRE(s.IsSuccess());
    infos.push_back(&info);
    raw.push_back(score);
  }
  REQUIRE(p.NormalizeScore(state, pod, infos, raw).IsSuccess());
  for (size_t i = 0; i < nodes.size(); ++i) out.scores.push_back({nodes[i].metadata().name(), raw[i]});
  return out;
}

TEST_CASE("TestPreferredAffinity", "[interpodaffinity][score]") {
  const LabelMap rg_china = {{"region", "China"}};
  const LabelMap rg_india = {{"region", "India"}};
  const LabelMap az_az1 = {{"az", "az1"}};
  const LabelMap az_az2 = {{"az", "az2"}};
  const LabelMap rg_china_az1 = {{"region", "China"}, {"az", "az1"}};
  const LabelMap s1 = {{"security", "S1"}};
  const LabelMap s2 = {{"security", "S2"}};
  constexpr int64_t kMax = framework::kMaxNodeScore;

  const auto stay_with_s1_in_region =
      AffinityBuilder().Preferred(5, Term(Sel({{"security", "In", {"S1"}}}), "region")).Obj();
  const auto stay_with_s2_in_region =
      AffinityBuilder().Preferred(6, Term(Sel({{"security", "In", {"S2"}}}), "region")).Obj();
  const auto affinity3 =
      AffinityBuilder()
          .Preferred(8, Term(Sel({{"security", "NotIn", {"S1"}}, {"security", "In", {"S2"}}}), "region"))
          .Preferred(2, Term(Sel({{"security", "Exists", {}}, {"wrongkey", "DoesNotExist", {}}}), "region"))
          .Obj();
  const auto hard_affinity =
      AffinityBuilder()
          .Required(Term(Sel({{"security", "In", {"S1", "value2"}}}), "region"))
          .Required(Term(Sel({{"security", "Exists", {}}, {"wrongkey", "DoesNotExist", {}}}), "region"))
          .Obj();
  const auto away_from_s1_in_az =
      AffinityBuilder().PreferredAnti(5, Term(Sel({{"security", "In", {"S1"}}}), "az")).Obj();
  const auto away_from_s2_in_az =
      AffinityBuilder().PreferredAnti(5, Term(Sel({{"security", "In", {"S2"}}}), "az")).Obj();
  const auto stay_with_s1_in_region_away_from_s2_in_az =
      AffinityBuilder()
          .Preferred(8, Term(Sel({{"security", "In", {"S1"}}}), "region"))
          .PreferredAnti(5, Term(Sel({{"security", "In", {"S2"}}}), "az"))
          .Obj();
  const auto affinity_namespace_selector =
      AffinityBuilder()
          .Preferred(5, Term(Sel({{"security", "In", {"S1"}}}), "region", {"subteam2.team2"},
                             Sel({{"team", "In", {"team1"}}})))
          .Obj();
  const auto anti_affinity_namespace_selector =
      AffinityBuilder()
          .PreferredAnti(5, Term(Sel({{"security", "In", {"S1"}}}), "region", {"subteam2.team2"},
                                 Sel({{"team", "In", {"team1"}}})))
          .Obj();

  auto pod = [](const LabelMap& labels, std::string node = "", std::string ns = "") {
    auto b = Pod().Namespace(std::move(ns)).Labels(labels);
    if (!node.empty()) b.Node(std::move(node));
    return b.Obj();
  };
  auto with = [](api::v1::Pod p, const api::v1::Affinity& a) { return WithAffinity(std::move(p), a); };

  struct Case {
    std::string name;
    api::v1::Pod pod;
    std::vector<api::v1::Pod> pods;
    std::vector<api::v1::Node> nodes;
    std::vector<NodeScore> expected;
    bool ignore_preferred_terms_of_existing_pods = false;
    Status want_status = Status();
  };
  const std::vector<Case> cases = {
      {"all nodes are same priority as Affinity is nil",
       pod(s1),
       {},
       {Node("node1", rg_china), Node("node2", rg_india), Node("node3", az_az1)},
       {},
       false,
       Status::Skip()},
      {"Affinity: pod that matches topology key & pods in nodes will get high score comparing to others"
       "which doesn't match either pods in nodes or in topology key",
       with(pod(s1), stay_with_s1_in_region),
       {pod(s1, "node1"), pod(s2, "node2"), pod(s1, "node3")},
       {Node("node1", rg_china), Node("node2", rg_india), Node("node3", az_az1)},
       {{"node1", kMax}, {"node2", 0}, {"node3", 0}}},
      {"All the nodes that have the same topology key & label value with one of them has an existing pod "
       "that match "
       "the affinity rules, have the same score",
       with(pod({}), stay_with_s1_in_region),
       {pod(s1, "node1")},
       {Node("node1", rg_china), Node("node2", rg_china_az1), Node("node3", rg_india)},
       {{"node1", kMax}, {"node2", kMax}, {"node3", 0}}},
      {"Affinity: nodes in one region has more matching pods comparing to other region, so the region which "
       "has more "
       "matches will get high score",
       with(pod(s1), stay_with_s2_in_region),
       {pod(s2, "node1"), pod(s2, "node1"), pod(s2, "node2"), pod(s2, "node3"), pod(s2, "node4"),
        pod(s2, "node5")},
       {Node("node1", rg_china), Node("node2", rg_india), Node("node3", rg_china), Node("node4", rg_china),
        Node("node5", rg_india)},
       {{"node1", kMax}, {"node2", 0}, {"node3", kMax}, {"node4", kMax}, {"node5", 0}}},
      {"Affinity: different Label operators and values for pod affinity scheduling preference, including "
       "some match "
       "failures ",
       with(pod(s1), affinity3),
       {pod(s1, "node1"), pod(s2, "node2"), pod(s1, "node3")},
       {Node("node1", rg_china), Node("node2", rg_india), Node("node3", az_az1)},
       {{"node1", 20}, {"node2", kMax}, {"node3", 0}}},
      {"Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod "
       "affinity "
       "symmetry",
       pod(s2),
       {with(pod(s1, "node1"), stay_with_s1_in_region), with(pod(s2, "node2"), stay_with_s2_in_region)},
       {Node("node1", rg_china), Node("node2", rg_india), Node("node3", az_az1)},
       {{"node1", 0}, {"node2", kMax}, {"node3", 0}}},
      {"Affinity symmetry with namespace selector",
       pod(s1, "", "subteam1.team1"),
       {with(pod(s1, "node1"), affinity_namespace_selector), with(pod(s2, "node2"), stay_with_s2_in_region)},
       {Node("node1", rg_china), Node("node2", rg_india), Node("node3", az_az1)},
       {{"node1", kMax}, {"node2", 0}, {"node3", 0}}},
      {"AntiAffinity symmetry with namespace selector",
       pod(s1, "", "subteam1.team1"),
       {with(pod(s1, "node1"), anti_affinity_namespace_selector),
        with(pod(s2, "node2"), stay_with_s2_in_region)},
       {Node("node1", rg_china), Node("node2", rg_india), Node("node3", az_az1)},
       {{"node1", 0}, {"node2", kMax}, {"node3", kMax}}},
      {"Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity "
       "symmetry",
       pod(s1),
       {with(pod(s1, "node1"), hard_affinity), with(pod(s2, "node2"), hard_affinity)},
       {Node("node1", rg_china), Node("node2", rg_india), Node("node3", az_az1)},
       {{"node1", kMax}, {"node2", kMax}, {"node3", 0}}},
      {"Anti Affinity: pod that does not match existing pods in node will get high score ",
       with(pod(s1), away_from_s1_in_az),
       {pod(s1, "node1"), pod(s2, "node2")},
       {Node("node1", az_az1), Node("node2", rg_china)},
       {{"node1", 0}, {"node2", kMax}}},
      {"Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score "
       "comparing "
       "to others ",
       with(pod(s1), away_from_s1_in_az),
       {pod(s1, "node1"), pod(s1, "node2")},
       {Node("node1", az_az1), Node("node2", rg_china)},
       {{"node1", 0}, {"node2", kMax}}},
      {"Anti Affinity: one node has more matching pods comparing to other node, so the node which has more "
       "unmatches "
       "will get high score",
       with(pod(s1), away_from_s1_in_az),
       {pod(s1, "node1"), pod(s1, "node1"), pod(s2, "node2")},
       {Node("node1", az_az1), Node("node2", rg_india)},
       {{"node1", 0}, {"node2", kMax}}},
      {"Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score",
       pod(s2),
       {with(pod(s1, "node1"), away_from_s2_in_az), with(pod(s2, "node2"), away_from_s1_in_az)},
       {Node("node1", az_az1), Node("node2", az_az2)},
       {{"node1", 0}, {"node2", kMax}}},
      {"Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both "
       "pod "
       "affinity & anti affinity",
       with(pod(s1), stay_with_s1_in_region_away_from_s2_in_az),
       {pod(s1, "node1"), pod(s1, "node2")},
       {Node("node1", rg_china), Node("node2", az_az1)},
       {{"node1", kMax}, {"node2", 0}}},
      {"Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and "
       "existing "
       "pods have the same labels",
       with(pod(s1), stay_with_s1_in_region_away_from_s2_in_az),
       {pod(s1, "node1"), pod(s1, "node1"), pod(s1, "node2"), pod(s1, "node3"), pod(s1, "node3"),
        pod(s1, "node4"), pod(s1, "node5")},
       {Node("node1", rg_china_az1), Node("node2", rg_india), Node("node3", rg_china),
        Node("node4", rg_china), Node("node5", rg_india)},
       {{"node1", kMax}, {"node2", 0}, {"node3", kMax}, {"node4", kMax}, {"node5", 0}}},
      {"Affinity and Anti Affinity and symmetry: considered only "
       "preferredDuringSchedulingIgnoredDuringExecution in "
       "both pod affinity & anti affinity & symmetry",
       with(pod(s1), stay_with_s1_in_region_away_from_s2_in_az),
       {pod(s1, "node1"), pod(s2, "node2"), with(pod({}, "node3"), stay_with_s1_in_region_away_from_s2_in_az),
        with(pod({}, "node4"), away_from_s1_in_az)},
       {Node("node1", rg_china), Node("node2", az_az1), Node("node3", rg_india), Node("node4", az_az2)},
       {{"node1", kMax}, {"node2", 0}, {"node3", kMax}, {"node4", 0}}},
      {"Avoid panic when partial nodes in a topology don't have pods with affinity",
       pod(s1),
       {pod(s1, "node1"), with(pod({}, "node2"), stay_with_s1_in_region_away_from_s2_in_az)},
       {Node("node1", rg_china), Node("node2", rg_china)},
       {{"node1", 0}, {"node2", 0}}},
      {"Affinity with pods matching NamespaceSelector",
       with(pod(s1, "", "subteam1.team1"), affinity_namespace_selector),
       {pod(s1, "node1", "subteam1.team1"), pod(s1, "node1", "subteam1.team1"),
        pod(s1, "node1", "subteam1.team2"), pod(s1, "node2", "subteam2.team1")},
       {Node("node1", rg_china), Node("node2", rg_india)},
       {{"node1", kMax}, {"node2", 0}}},
      {"Affinity with pods matching both NamespaceSelector and Namespaces fields",
       with(pod(s1, "", "subteam1.team1"), affinity_namespace_selector),
       {pod(s1, "node1", "subteam1.team1"), pod(s1, "node1", "subteam1.team1"),
        pod(s1, "node1", "subteam2.team2"), pod(s1, "node2", "subteam2.team1")},
       {Node("node1", rg_china), Node("node2", rg_india)},
       {{"node1", kMax}, {"node2", 0}}},
      {"Affinity with pods matching NamespaceSelector",
       with(pod(s1, "", "subteam1.team1"), anti_affinity_namespace_selector),
       {pod(s1, "node1", "subteam1.team1"), pod(s1, "node1", "subteam1.team1"),
        pod(s1, "node1", "subteam1.team2"), pod(s1, "node2", "subteam2.team1")},
       {Node("node1", rg_china), Node("node2", rg_india)},
       {{"node1", 0}, {"node2", kMax}}},
      {"Affinity with pods matching both NamespaceSelector and Namespaces fields",
       with(pod(s1, "", "subteam1.team1"), anti_affinity_namespace_selector),
       {pod(s1, "node1", "subteam1.team1"), pod(s1, "node1", "subteam1.team1"),
        pod(s1, "node1", "subteam2.team2"), pod(s1, "node2", "subteam2.team1")},
       {Node("node1", rg_china), Node("node2", rg_india)},
       {{"node1", 0}, {"node2", kMax}}},
      {"Ignore preferred terms of existing pods",
       pod(s2),
       {with(pod(s1, "node1"), stay_with_s1_in_region_away_from_s2_in_az),
        with(pod(s2, "node2"), stay_with_s2_in_region)},
       {Node("node1", rg_china), Node("node2", rg_india)},
       {{"node1", 0}, {"node2", 0}},
       true,
       Status::Skip()},
      {"Do not ignore preferred terms of existing pods",
       pod(s2),
       {with(pod(s1, "node1"), stay_with_s1_in_region_away_from_s2_in_az),
        with(pod(s2, "node2"), stay_with_s2_in_region)},
       {Node("node1", rg_china), Node("node2", rg_india)},
       {{"node1", 0}, {"node2", kMax}},
       false},
      {"No nodes to score", pod(s2), {}, {}, {}, false, Status::Skip()},
  };

  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    DYNAMIC_SECTION("TestPreferredAffinity #" << i << ": " << c.name) {
      testing::FakeHandle h;
      h.SetCluster(c.nodes, c.pods, TeamNamespaces());
      auto p = NewPlugin(
          h, schedkit::StrCat(R"({"hardPodAffinityWeight": 1, "ignorePreferredTermsOfExistingPods": )",
                              c.ignore_preferred_terms_of_existing_pods ? "true" : "false", "}"));
      const ScoreRun run = RunScore(h, *p, *Info(c.pod), c.nodes);
      REQUIRE(run.pre_score.ToString() == c.want_status.ToString());
      if (!run.pre_score.IsSuccess()) continue;
      CHECK(run.scores == c.expected);
    }
  }
}

TEST_CASE("TestPreferredAffinityWithHardPodAffinitySymmetricWeight", "[interpodaffinity][score]") {
  const LabelMap service_s1 = {{"service", "S1"}};
  const LabelMap rg_china = {{"region", "China"}};
  const LabelMap rg_india = {{"region", "India"}};
  const LabelMap az_az1 = {{"az", "az1"}};
  constexpr int64_t kMax = framework::kMaxNodeScore;
  const auto hard_pod_affinity = AffinityBuilder()
                                     .Required(Term(Sel({{"service", "In", {"S1"}}}), "region",
                                                    {"", "subteam2.team2"}, Sel({{"team", "In", {"team1"}}})))
                                     .Obj();
  const std::vector<api::v1::Pod> pods = {WithAffinity(Pod().Node("node1").Obj(), hard_pod_affinity),
                                          WithAffinity(Pod().Node("node2").Obj(), hard_pod_affinity)};
  const std::vector<api::v1::Node> nodes = {Node("node1", rg_china), Node("node2", rg_india),
                                            Node("node3", az_az1)};

  struct Case {
    std::string name;
    api::v1::Pod pod;
    int32_t hard_pod_affinity_weight;
    std::vector<NodeScore> expected;
    Status want_status = Status();
  };
  const std::vector<Case> cases = {
      {"with default weight",
       Pod().Labels(service_s1).Obj(),
       1,
       {{"node1", kMax}, {"node2", kMax}, {"node3", 0}}},
      {"with zero weight", Pod().Labels(service_s1).Obj(), 0, {}, Status::Skip()},
      {"with no matching namespace",
       Pod().Namespace("subteam1.team2").Labels(service_s1).Obj(),
       1,
       {},
       Status::Skip()},
      {"with matching NamespaceSelector",
       Pod().Namespace("subteam1.team1").Labels(service_s1).Obj(),
       1,
       {{"node1", kMax}, {"node2", kMax}, {"node3", 0}}},
      {"with matching Namespaces",
       Pod().Namespace("subteam2.team2").Labels(service_s1).Obj(),
       1,
       {{"node1", kMax}, {"node2", kMax}, {"node3", 0}}},
  };

  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    DYNAMIC_SECTION("TestPreferredAffinityWithHardPodAffinitySymmetricWeight #" << i << ": " << c.name) {
      testing::FakeHandle h;
      h.SetCluster(nodes, pods, TeamNamespaces());
      auto p =
          NewPlugin(h, schedkit::StrCat(R"({"hardPodAffinityWeight": )", c.hard_pod_affinity_weight, "}"));
      const ScoreRun run = RunScore(h, *p, *Info(c.pod), nodes);
      REQUIRE(run.pre_score.ToString() == c.want_status.ToString());
      if (!run.pre_score.IsSuccess()) continue;
      CHECK(run.scores == c.expected);
    }
  }
}

// Not upstream: NormalizeScore's float64 arithmetic, including truncation of
// fractions and negative raw scores.
TEST_CASE("InterPodAffinity NormalizeScore maps [min, max] to [0, 100] in float64",
          "[interpodaffinity][score]") {
  testing::FakeHandle h;
  const LabelMap s1 = {{"security", "S1"}};
  h.SetCluster({Node("n1", {{"zone", "a"}}), Node("n2", {{"zone", "b"}}), Node("n3", {{"zone", "c"}})},
               {Pod().Node("n1").Labels(s1).Obj()});
  auto p = NewPlugin(h);
  const auto pod = Info(
      Pod().Labels(s1).PodAffinity(kPreferred, Term(Sel({{"security", "In", {"S1"}}}), "zone"), 7).Obj());
  CycleState state;
  REQUIRE(p->PreScore(state, *pod, h.snapshot().nodes()).IsSuccess());
  std::vector<const framework::NodeInfo*> infos(3, &NodeInfoOf(h, "n1"));

  std::vector<int64_t> scores = {-7, 0, 14};
  REQUIRE(p->NormalizeScore(state, *pod, infos, scores).IsSuccess());
  // 100 * (7/21) = 33.33.., 100 * (21/21) = 100.
  CHECK(scores == std::vector<int64_t>{0, 33, 100});

  scores = {1, 2, 3};
  REQUIRE(p->NormalizeScore(state, *pod, infos, scores).IsSuccess());
  CHECK(scores == std::vector<int64_t>{0, 50, 100});

  scores = {5, 5, 5};
  REQUIRE(p->NormalizeScore(state, *pod, infos, scores).IsSuccess());
  CHECK(scores == std::vector<int64_t>{0, 0, 0});

  // 100 * (29/100) is 28.999999999999996 in float64: truncated to 28.
  scores = {0, 29, 100};
  REQUIRE(p->NormalizeScore(state, *pod, infos, scores).IsSuccess());
  CHECK(scores == std::vector<int64_t>{0, 28, 100});
}

// Not upstream: Score and NormalizeScore fail without PreScore state.
TEST_CASE("InterPodAffinity Score without PreScore state", "[interpodaffinity][score]") {
  testing::FakeHandle h;
  h.SetCluster({Node("n1")}, {});
  auto p = NewPlugin(h);
  const auto pod = Info(Pod().Obj());
  CycleState state;
  int64_t score = 0;
  CHECK(p->Score(state, *pod, NodeInfoOf(h, "n1"), score).code() == Code::kError);
  std::vector<int64_t> scores = {0};
  std::vector<const framework::NodeInfo*> infos = {&NodeInfoOf(h, "n1")};
  CHECK(p->NormalizeScore(state, *pod, infos, scores).code() == Code::kError);
}

// Not upstream: PreScore chunks nodes in parallel; scores must not depend on it.
TEST_CASE("InterPodAffinity PreScore gives the same scores in parallel", "[interpodaffinity][score]") {
  std::vector<api::v1::Node> nodes;
  std::vector<api::v1::Pod> pods;
  for (int i = 0; i < 250; ++i) {
    const std::string name = "node" + std::to_string(i);
    nodes.push_back(Node(name, {{"zone", "z" + std::to_string(i % 11)}, {"hostname", name}}));
    auto b = Pod().Name("p" + std::to_string(i)).Node(name).Label("app", i % 4 == 0 ? "web" : "db");
    if (i % 6 == 0) b.PodAntiAffinityIn("app", "zone", {"web"}, kPreferred);
    if (i % 9 == 0) b.PodAffinityIn("app", "hostname", {"web"}, kRequired);
    pods.push_back(b.Obj());
  }
  const auto pod = Info(Pod()
                            .Name("incoming")
                            .Label("app", "web")
                            .PodAffinity(kPreferred, Term(Sel({{"app", "In", {"db"}}}), "zone"), 3)
                            .PodAntiAffinity(kPreferred, Term(Sel({{"app", "In", {"web"}}}), "hostname"), 10)
                            .Obj());
  auto run = [&](int parallelism) {
    testing::FakeHandle h(parallelism);
    h.SetCluster(nodes, pods);
    auto p = NewPlugin(h);
    return RunScore(h, *p, *pod, nodes);
  };
  const ScoreRun serial = run(1);
  const ScoreRun parallel = run(4);
  REQUIRE(serial.pre_score.IsSuccess());
  CHECK(serial.scores == parallel.scores);
}

}  // namespace
}  // namespace schedkit::ipa_test
