// sample-plugin: the scheduler-framework tutorial's plugin in C++. PreFilter
// reads its args and the pod into CycleState, Filter keeps the pod off nodes
// whose label `node_label` names another color, PreBind records the binding.
#ifndef SAMPLE_PLUGIN_SAMPLE_PLUGIN_H_
#define SAMPLE_PLUGIN_SAMPLE_PLUGIN_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "schedkit/framework/handle.h"
#include "schedkit/framework/plugin.h"
#include "schedkit/framework/plugin_args.h"

namespace sample {

inline constexpr std::string_view kName = "sample-plugin";

struct SampleArgs {
  std::string favorite_color;                         // required: what a pod wants unless it says
  int64_t favorite_number = 7;                        // 0..100
  std::string thanks_to;                              // named in PreBind's record
  std::string node_label = "sample.schedkit.io/color";  // the node label Filter reads
};
const schedkit::framework::ArgsSpec<SampleArgs>& SampleArgsSpec();

class SamplePlugin final : public schedkit::framework::PreFilterPlugin,
                           public schedkit::framework::FilterPlugin,
                           public schedkit::framework::PreBindPlugin {
 public:
  explicit SamplePlugin(SampleArgs args);

  std::string_view Name() const override { return kName; }
  // The color the pod wants: its own label `node_label`, else favorite_color.
  Result PreFilter(schedkit::framework::CycleState& state, const schedkit::framework::PodInfo& pod,
                   std::span<const schedkit::framework::NodeInfo* const> nodes) override;
  // Unschedulable on a node whose label `node_label` holds another color.
  schedkit::framework::Status Filter(const schedkit::framework::CycleState& state,
                                     const schedkit::framework::PodInfo& pod,
                                     const schedkit::framework::NodeInfo& node) const override;
  // Records "<pod> on <node>, thanks to <thanks_to>", and logs it at -v=2.
  schedkit::framework::Status PreBind(schedkit::framework::CycleState& state, const schedkit::framework::PodInfo& pod,
                                      schedkit::Symbol node) override;

  std::vector<std::string> records() const;

 private:
  const SampleArgs args_;
  const schedkit::framework::HotLabel label_;
  const schedkit::Symbol favorite_;
  mutable std::mutex mu_;
  std::vector<std::string> records_;
};

// The factory for Registry::Add(kName, &New).
absl::StatusOr<std::unique_ptr<schedkit::framework::Plugin>> New(const schedkit::framework::PluginArgs& args,
                                                                 schedkit::framework::Handle& handle);

}  // namespace sample

#endif  // SAMPLE_PLUGIN_SAMPLE_PLUGIN_H_
