#include "schedkit/testing/plugin_runner.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>

#include "schedkit/base/str_cat.h"

namespace schedkit::testing {
namespace {

std::vector<const framework::NodeInfo*> Pointers(std::span<const framework::NodeInfo> nodes) {
  std::vector<const framework::NodeInfo*> out;
  out.reserve(nodes.size());
  for (const framework::NodeInfo& n : nodes) out.push_back(&n);
  return out;
}

}  // namespace

absl::StatusOr<FilterRun> RunFilter(framework::Plugin& plugin, const framework::PodInfo& pod,
                                    std::span<const framework::NodeInfo> nodes) {
  auto* filter = dynamic_cast<framework::FilterPlugin*>(&plugin);
  if (filter == nullptr) {
    return absl::InvalidArgumentError(schedkit::StrCat("plugin \"", plugin.Name(), "\" is no FilterPlugin"));
  }
  FilterRun run;
  run.state = std::make_unique<framework::CycleState>();
  const std::vector<const framework::NodeInfo*> all = Pointers(nodes);
  if (auto* pre = dynamic_cast<framework::PreFilterPlugin*>(&plugin); pre != nullptr) {
    framework::PreFilterPlugin::Result r = pre->PreFilter(*run.state, pod, all);
    run.pre_filter = r.status;
    run.pre_filter_result = r.result;
    if (!r.status.IsSuccess()) return run;
  }
  for (const framework::NodeInfo* node : all) run.filter.push_back(filter->Filter(*run.state, pod, *node));

  // The batch call on every node at once must say what Filter said.
  std::vector<uint8_t> passing(all.size(), 1);
  std::vector<framework::Status> statuses(all.size());
  filter->FilterNodes(*run.state, pod, all, passing, statuses);
  for (size_t i = 0; i < all.size(); ++i) {
    const framework::Status& batch = passing[i] ? framework::Status() : statuses[i];
    if (batch == run.filter[i] && (passing[i] != 0) == run.filter[i].IsSuccess()) continue;
    return absl::InternalError(schedkit::StrCat("plugin \"", plugin.Name(), "\": FilterNodes on node \"",
                                                all[i]->name().str(), "\" gives \"", batch.Message(),
                                                "\" where Filter gives \"", run.filter[i].Message(), "\""));
  }
  return run;
}

absl::StatusOr<std::vector<int64_t>> RunScore(framework::Plugin& plugin, const framework::PodInfo& pod,
                                              std::span<const framework::NodeInfo> nodes) {
  auto* score = dynamic_cast<framework::ScorePlugin*>(&plugin);
  if (score == nullptr) {
    return absl::InvalidArgumentError(schedkit::StrCat("plugin \"", plugin.Name(), "\" is no ScorePlugin"));
  }
  framework::CycleState state;
  const std::vector<const framework::NodeInfo*> all = Pointers(nodes);
  if (auto* pre = dynamic_cast<framework::PreScorePlugin*>(&plugin); pre != nullptr) {
    const framework::Status s = pre->PreScore(state, pod, all);
    if (s.IsSkip()) return std::vector<int64_t>{};
    if (!s.IsSuccess()) return absl::InternalError(schedkit::StrCat("PreScore: ", s.Message()));
  }
  std::vector<int64_t> scores(all.size());
  for (size_t i = 0; i < all.size(); ++i) {
    const framework::Status s = score->Score(state, pod, *all[i], scores[i]);
    if (!s.IsSuccess()) return absl::InternalError(schedkit::StrCat("Score: ", s.Message()));
  }
  if (const framework::ScoreExtensions* ext = score->GetScoreExtensions(); ext != nullptr) {
    const framework::Status s = ext->NormalizeScore(state, pod, all, scores);
    if (!s.IsSuccess()) return absl::InternalError(schedkit::StrCat("NormalizeScore: ", s.Message()));
  }
  return scores;
}

}  // namespace schedkit::testing

namespace schedkit::testing {
namespace {

// One pod's outcomes on every node: "Success", "Unschedulable \"reason\"",
// a raw score, or what PreFilter/PreScore said instead.
struct Outcomes {
  std::vector<std::string> filter;
  std::vector<std::string> score;
};

std::string Describe(const framework::Status& s) {
  if (s.IsSuccess()) return "Success";
  return schedkit::StrCat(framework::CodeName(s.code()), " \"", s.Message(), "\"");
}

Outcomes Run(framework::Plugin& plugin, const framework::PodInfo& pod,
             std::span<const framework::NodeInfo* const> nodes) {
  Outcomes out;
  if (auto* filter = dynamic_cast<framework::FilterPlugin*>(&plugin); filter != nullptr) {
    framework::CycleState state;
    framework::Status pre;
    if (auto* p = dynamic_cast<framework::PreFilterPlugin*>(&plugin); p != nullptr) {
      pre = p->PreFilter(state, pod, nodes).status;
    }
    for (const framework::NodeInfo* node : nodes) {
      out.filter.push_back(pre.IsSuccess() ? Describe(filter->Filter(state, pod, *node))
                                           : schedkit::StrCat("PreFilter ", Describe(pre)));
    }
  }
  if (auto* score = dynamic_cast<framework::ScorePlugin*>(&plugin); score != nullptr) {
    framework::CycleState state;
    framework::Status pre;
    if (auto* p = dynamic_cast<framework::PreScorePlugin*>(&plugin); p != nullptr) pre = p->PreScore(state, pod, nodes);
    for (const framework::NodeInfo* node : nodes) {
      int64_t v = 0;
      const framework::Status s = pre.IsSuccess() ? score->Score(state, pod, *node, v) : pre;
      out.score.push_back(s.IsSuccess() ? schedkit::StrCat(v) : schedkit::StrCat(pre.IsSuccess() ? "" : "PreScore ",
                                                                                 Describe(s)));
    }
  }
  return out;
}

}  // namespace

absl::Status CheckOutcomesArePerNode(framework::Plugin& plugin, std::span<const framework::PodInfoPtr> pods,
                                     std::span<const framework::NodeInfo> nodes) {
  if (!plugin.OutcomesArePerNode()) {
    return absl::InvalidArgumentError(
        schedkit::StrCat("plugin \"", plugin.Name(), "\" does not promise per-node outcomes (OutcomesArePerNode)"));
  }
  if (dynamic_cast<framework::FilterPlugin*>(&plugin) == nullptr &&
      dynamic_cast<framework::ScorePlugin*>(&plugin) == nullptr) {
    return absl::InvalidArgumentError(
        schedkit::StrCat("plugin \"", plugin.Name(), "\" is neither a FilterPlugin nor a ScorePlugin"));
  }
  const std::vector<const framework::NodeInfo*> all = Pointers(nodes);
  // The first pod of each signature and its outcomes, in table order.
  std::vector<std::pair<const framework::PodInfo*, Outcomes>> firsts;
  for (const framework::PodInfoPtr& pod : pods) {
    Outcomes got = Run(plugin, *pod, all);
    const auto same = [&](const auto& f) {
      return f.first->signature() != nullptr && pod->signature() != nullptr &&
             *f.first->signature() == *pod->signature();
    };
    auto first = std::find_if(firsts.begin(), firsts.end(), same);
    if (first == firsts.end()) {
      firsts.emplace_back(pod.get(), std::move(got));
      continue;
    }
    const Outcomes& kept = first->second;
    for (const auto& [point, fresh, was] : {std::tuple("Filter", &got.filter, &kept.filter),
                                            std::tuple("Score", &got.score, &kept.score)}) {
      for (size_t i = 0; i < all.size() && i < fresh->size(); ++i) {
        if ((*fresh)[i] == (*was)[i]) continue;
        return absl::FailedPreconditionError(schedkit::StrCat(
            "plugin \"", plugin.Name(), "\" promises per-node outcomes (OutcomesArePerNode), but its ", point,
            " of pod ", pod->key(), " on node \"", all[i]->name().str(), "\" gives ", (*fresh)[i], " where pod ",
            first->first->key(), " of the same signature got ", (*was)[i]));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace schedkit::testing
