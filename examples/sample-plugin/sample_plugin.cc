#include "sample_plugin.h"

#include <utility>

#include "schedkit/base/log.h"
#include "schedkit/base/str_cat.h"

namespace sample {
namespace fw = schedkit::framework;

const fw::ArgsSpec<SampleArgs>& SampleArgsSpec() {
  static const auto* spec = fw::ArgsSpec<SampleArgs>(std::string(kName))
                                .Field("favorite_color", &SampleArgs::favorite_color).Required()
                                .Field("favorite_number", &SampleArgs::favorite_number).Range(0, 100)
                                .Field("thanks_to", &SampleArgs::thanks_to)
                                .Field("node_label", &SampleArgs::node_label)
                                .Leak();
  return *spec;
}

namespace {

// What PreFilter computed once for the pod, for Filter on every node.
struct WantedColor : fw::StateData {
  explicit WantedColor(schedkit::Symbol c) : color(c) {}
  std::unique_ptr<fw::StateData> Clone() const override { return std::make_unique<WantedColor>(*this); }
  schedkit::Symbol color;
};

const fw::StateKey& Key() {
  static const fw::StateKey key = schedkit::Symbol::Intern("PreFilterSample");
  return key;
}

}  // namespace

SamplePlugin::SamplePlugin(SampleArgs args)
    : args_(std::move(args)),
      label_(fw::HotLabel::Declare(args_.node_label)),  // Filter reads it on every node
      favorite_(schedkit::Symbol::Intern(args_.favorite_color)) {}

fw::PreFilterPlugin::Result SamplePlugin::PreFilter(fw::CycleState& state, const fw::PodInfo& pod,
                                                    std::span<const fw::NodeInfo* const>) {
  state.Write(Key(), std::make_unique<WantedColor>(pod.labels().Get(label_.key()).value_or(favorite_)));
  return {};
}

fw::Status SamplePlugin::Filter(const fw::CycleState& state, const fw::PodInfo&, const fw::NodeInfo& node) const {
  // A constant reason: the failure message counts nodes per reason.
  static const schedkit::Symbol kOtherColor = schedkit::Symbol::Intern("node(s) had another color");
  const WantedColor* wanted = state.Read<WantedColor>(Key());
  if (wanted == nullptr) return fw::Status::Error("sample-plugin: PreFilter did not run");
  const schedkit::Symbol* color = node.label(label_);
  if (color == nullptr || *color == wanted->color) return fw::Status();
  return fw::Status(fw::Code::kUnschedulable, kOtherColor);
}

fw::Status SamplePlugin::PreBind(fw::CycleState&, const fw::PodInfo& pod, schedkit::Symbol node) {
  std::string record = schedkit::StrCat(pod.namespace_().str(), "/", pod.name().str(), " on ", node.str(),
                                        ", thanks to ", args_.thanks_to);
  schedkit::LogInfo(2, kName, record);  // with -v=2
  std::lock_guard<std::mutex> lock(mu_);
  records_.push_back(std::move(record));
  return fw::Status();
}

std::vector<std::string> SamplePlugin::records() const {
  std::lock_guard<std::mutex> lock(mu_);
  return records_;
}

absl::StatusOr<std::unique_ptr<fw::Plugin>> New(const fw::PluginArgs& args, fw::Handle&) {
  absl::StatusOr<SampleArgs> decoded = fw::DecodeArgs(args, SampleArgsSpec());
  if (!decoded.ok()) return decoded.status();
  return std::make_unique<SamplePlugin>(*std::move(decoded));
}

}  // namespace sample
