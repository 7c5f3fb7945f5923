// Helpers shared by the noderesources tests, shaped after upstream's
// fit_test.go / test_util.go helpers (newResourcePod, makeNode, ...) so the
// ported tables read like the originals.
#ifndef SCHEDKIT_TESTS_PLUGINS_NODERESOURCES_TEST_UTIL_H_
#define SCHEDKIT_TESTS_PLUGINS_NODERESOURCES_TEST_UTIL_H_

#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "plugins/noderesources/args.h"
#include "plugins/noderesources/fit.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/api/v1/node.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/framework/cycle_state.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/status.h"
#include "schedkit/testing/builders.h"
#include "schedkit/testing/fake_handle.h"

namespace schedkit::plugins::noderesources::testutil {

inline const std::string kExtendedResourceA = "example.com/aaa";
inline const std::string kExtendedResourceB = "example.com/bbb";
inline const std::string kKubernetesIOResourceA = "kubernetes.io/something";
inline const std::string kKubernetesIOResourceB = "subdomain.kubernetes.io/something";
inline const std::string kHugePageResourceA = "hugepages-2Mi";
inline const std::string kExtendedResourceDRA = "extended.resource.dra.io/something";

// Upstream framework.Resource as the tests use it to describe a container.
struct Res {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral_storage = 0;
  int64_t pods = 0;
  std::vector<std::pair<std::string, int64_t>> scalars = {};
};

inline void SetRequests(google::protobuf::Map<std::string, std::string>* out, const Res& r) {
  (*out)["cpu"] = schedkit::StrCat(r.milli_cpu, "m");
  (*out)["memory"] = schedkit::StrCat(r.memory);
  (*out)["pods"] = schedkit::StrCat(r.pods);
  (*out)["ephemeral-storage"] = schedkit::StrCat(r.ephemeral_storage);
  for (const auto& [name, v] : r.scalars) (*out)[name] = schedkit::StrCat(v);
}

// Upstream newResourcePod: one container per Res, requesting every field
// (zeros included).
inline api::v1::Pod NewResourcePod(const std::vector<Res>& usage = {}) {
  api::v1::Pod pod = testing::MakePod().Obj();
  for (size_t i = 0; i < usage.size(); ++i) {
    auto* c = pod.mutable_spec()->add_containers();
    c->set_name(schedkit::StrCat("c", i));
    SetRequests(c->mutable_resources()->mutable_requests(), usage[i]);
  }
  return pod;
}

// Upstream newResourceInitPod: init containers from `usage`.
inline api::v1::Pod NewResourceInitPod(api::v1::Pod pod, const std::vector<Res>& usage) {
  for (size_t i = 0; i < usage.size(); ++i) {
    auto* c = pod.mutable_spec()->add_init_containers();
    c->set_name(schedkit::StrCat("init", i));
    SetRequests(c->mutable_resources()->mutable_requests(), usage[i]);
  }
  return pod;
}

inline api::v1::Pod NewResourceOverheadPod(api::v1::Pod pod, const testing::ResourceMap& overhead) {
  for (const auto& [k, v] : overhead) (*pod.mutable_spec()->mutable_overhead())[k] = v;
  return pod;
}

inline api::v1::Pod NewPodLevelResourcesPod(api::v1::Pod pod, const testing::ResourceMap& requests) {
  for (const auto& [k, v] : requests) (*pod.mutable_spec()->mutable_resources()->mutable_requests())[k] = v;
  return pod;
}

inline api::v1::Pod Named(api::v1::Pod pod, const std::string& name, const std::string& node = "") {
  pod.mutable_metadata()->set_name(name);
  pod.mutable_metadata()->set_uid(name);
  if (!node.empty()) pod.mutable_spec()->set_node_name(node);
  return pod;
}

// Upstream makeResources / makeAllocatableResources.
inline testing::ResourceMap MakeResources(int64_t milli_cpu, int64_t memory, int64_t pods, int64_t extended_a,
                                          int64_t storage, int64_t huge_page_a) {
  return {{"cpu", schedkit::StrCat(milli_cpu, "m")},
          {"memory", schedkit::StrCat(memory)},
          {"pods", schedkit::StrCat(pods)},
          {kExtendedResourceA, schedkit::StrCat(extended_a)},
          {"ephemeral-storage", schedkit::StrCat(storage)},
          {kHugePageResourceA, schedkit::StrCat(huge_page_a)}};
}

// Upstream test_util.go makeNode: capacity = allocatable = cpu (milli),
// memory and the extended resources; no pod count.
inline api::v1::Node MakeScoreNode(const std::string& name, int64_t milli_cpu, int64_t memory,
                                   const std::map<std::string, int64_t>& extended = {}) {
  testing::ResourceMap r = {{"cpu", schedkit::StrCat(milli_cpu, "m")}, {"memory", schedkit::StrCat(memory)}};
  for (const auto& [k, v] : extended) r.emplace_back(k, schedkit::StrCat(v));
  return testing::MakeNode().Name(name).Capacity(r).Obj();
}

// st.MakeNode().Capacity(...) adds "pods": "32" unless given; ours does not.
inline testing::ResourceMap WithPods(testing::ResourceMap r) {
  for (const auto& [k, v] : r) {
    if (k == "pods") return r;
  }
  r.emplace_back("pods", "32");
  return r;
}

// Gives every pod a distinct name (upstream's tables leave them unnamed).
inline std::vector<api::v1::Pod> NameAll(std::vector<api::v1::Pod> pods) {
  for (size_t i = 0; i < pods.size(); ++i) {
    pods[i].mutable_metadata()->set_name(schedkit::StrCat("existing-", i));
    pods[i].mutable_metadata()->set_uid(schedkit::StrCat("existing-", i));
  }
  return pods;
}

inline const std::string kExtendedRes = "abc.com/xyz";
inline std::vector<ResourceSpec> DefaultResourceSet() { return {{"cpu", 1}, {"memory", 1}}; }
inline std::vector<ResourceSpec> ExtendedResourceSet() {
  return {{"cpu", 1}, {"memory", 1}, {kExtendedRes, 1}};
}

// Upstream's internal config.NodeResourcesFitArgs literal (no v1 defaulting).
inline NodeResourcesFitArgs FitArgs(std::string type, std::vector<ResourceSpec> resources,
                                    std::optional<std::vector<UtilizationShapePoint>> shape = std::nullopt) {
  NodeResourcesFitArgs args;
  args.scoring_strategy = ScoringStrategy{std::move(type), std::move(resources), std::nullopt};
  if (shape)
    args.scoring_strategy->requested_to_capacity_ratio = RequestedToCapacityRatioParam{*std::move(shape)};
  return args;
}

struct ScoreResult {
  std::vector<int64_t> scores;
  std::vector<framework::Code> codes;
};

// Runs (optionally) PreScore, then Score on each node of the handle's
// snapshot in `node_names` order, as upstream's score tests do.
inline ScoreResult RunScore(framework::Plugin& plugin, testing::FakeHandle& h, const api::v1::Pod& pod,
                            const std::vector<std::string>& node_names, bool run_prescore,
                            framework::Status* prescore_status = nullptr) {
  framework::CycleState state;
  auto info = framework::PodInfo::Create(pod);
  ScoreResult out;
  if (!info.ok()) return out;
  if (run_prescore) {
    framework::Status s =
        dynamic_cast<framework::PreScorePlugin&>(plugin).PreScore(state, **info, h.snapshot().nodes());
    if (prescore_status != nullptr) *prescore_status = s;
    if (!s.IsSuccess()) return out;
  }
  auto& scorer = dynamic_cast<framework::ScorePlugin&>(plugin);
  for (const std::string& n : node_names) {
    const framework::NodeInfo* node = h.snapshot().Get(n);
    int64_t score = 0;
    framework::Status s =
        node == nullptr ? framework::Status::Error("no node") : scorer.Score(state, **info, *node, score);
    out.scores.push_back(score);
    out.codes.push_back(s.code());
  }
  return out;
}

// A node as st.MakeNode().Name(name).Capacity(capacity) builds it.
inline api::v1::Node N(const std::string& name, testing::ResourceMap capacity) {
  return testing::MakeNode().Name(name).Capacity(WithPods(std::move(capacity))).Obj();
}

struct StrategyCase {
  std::string name;
  api::v1::Pod requested_pod;
  std::vector<api::v1::Node> nodes;
  std::vector<api::v1::Pod> existing_pods;
  std::vector<int64_t> expected_scores;
  std::vector<ResourceSpec> resources;
  std::string want_err = {};  // substring of the construction error; empty: none
  framework::Code want_status_code = framework::Code::kSuccess;
};

// Upstream TestLeast/MostAllocatedScoringStrategy's loop: NewFit with the
// internal args, PreScore, then Score on every node.
inline void RunStrategyCases(const std::string& test, const std::string& type,
                             const std::vector<StrategyCase>& cases) {
  for (const StrategyCase& tc : cases) {
    DYNAMIC_SECTION(test << "/" << tc.name) {
      testing::FakeHandle h;
      h.SetCluster(tc.nodes, NameAll(tc.existing_pods));
      auto p = NewFit(FitArgs(type, tc.resources), h);
      if (!tc.want_err.empty()) {
        REQUIRE(!p.ok());
        CHECK_THAT(std::string(p.status().message()), Catch::Contains(tc.want_err));
        continue;
      }
      REQUIRE(p.ok());
      std::vector<std::string> names;
      for (const auto& n : tc.nodes) names.push_back(n.metadata().name());
      framework::Status prescore;
      ScoreResult got = RunScore(**p, h, tc.requested_pod, names, true, &prescore);
      CHECK(prescore.IsSuccess());
      CHECK(got.scores == tc.expected_scores);
      CHECK(got.codes == std::vector<framework::Code>(names.size(), tc.want_status_code));
    }
  }
}

}  // namespace schedkit::plugins::noderesources::testutil

#endif  // SCHEDKIT_TESTS_PLUGINS_NODERESOURCES_TEST_UTIL_H_
