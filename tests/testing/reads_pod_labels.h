// Test plugin: the newcomer's mistake. It promises per-node outcomes
// (OutcomesArePerNode) but reads the pod's labels, which are metadata, not
// part of the pod's signature: replicas of one template that differ only in
// a label then share the memo's outcomes. Filter rejects the node the pod's
// "avoid" label names; Score gives 100 to the node its "prefer" label names.
#ifndef SCHEDKIT_TESTS_TESTING_READS_POD_LABELS_H_
#define SCHEDKIT_TESTS_TESTING_READS_POD_LABELS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/plugin_args.h"

namespace schedkit::testing {

class ReadsPodLabels : public framework::FilterPlugin, public framework::ScorePlugin {
 public:
  static constexpr std::string_view kName = "ReadsPodLabels";
  static absl::StatusOr<std::unique_ptr<framework::Plugin>> New(const framework::PluginArgs&, framework::Handle&) {
    return std::make_unique<ReadsPodLabels>();
  }

  std::string_view Name() const override { return kName; }
  bool OutcomesArePerNode() const override { return true; }
  framework::Status Filter(const framework::CycleState&, const framework::PodInfo& pod,
                           const framework::NodeInfo& node) const override {
    static const Symbol kAvoided = Symbol::Intern("avoided");
    if (Label(pod, "avoid") == node.name().str()) return framework::Status(framework::Code::kUnschedulable, kAvoided);
    return framework::Status();
  }
  framework::Status Score(const framework::CycleState&, const framework::PodInfo& pod,
                          const framework::NodeInfo& node, int64_t& score) const override {
    score = Label(pod, "prefer") == node.name().str() ? 100 : 0;
    return framework::Status();
  }
  const framework::ScoreExtensions* GetScoreExtensions() const override { return nullptr; }

 private:
  static std::string Label(const framework::PodInfo& pod, const std::string& key) {
    const auto& labels = pod.pod().metadata().labels();
    auto it = labels.find(key);
    return it == labels.end() ? "" : it->second;
  }
};

}  // namespace schedkit::testing

#endif  // SCHEDKIT_TESTS_TESTING_READS_POD_LABELS_H_
