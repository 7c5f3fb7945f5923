#include "schedkit/testing/plugin_runner.h"

#include <string>

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
