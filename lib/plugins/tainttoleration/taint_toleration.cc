#include "plugins/tainttoleration/taint_toleration.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "plugins/internal/args.h"
#include "plugins/internal/signers.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using framework::EventObjects;
using framework::QueueingHint;
using framework::TaintEffect;
using framework::Toleration;

const framework::StateKey& PreScoreStateKey() {
  static const framework::StateKey key = Symbol::Intern("PreScoreTaintToleration");
  return key;
}

// Not changed by other pods: clones copy the (short) list.
struct PreScoreState final : framework::StateData {
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PreScoreState>(*this);
  }
  std::vector<Toleration> prefer_no_schedule;
};

bool RejectsScheduling(TaintEffect effect) {
  return effect == TaintEffect::kNoSchedule || effect == TaintEffect::kNoExecute;
}

const char* EffectName(TaintEffect effect) {
  switch (effect) {
    case TaintEffect::kNoSchedule:
      return "NoSchedule";
    case TaintEffect::kPreferNoSchedule:
      return "PreferNoSchedule";
    case TaintEffect::kNoExecute:
      return "NoExecute";
    case TaintEffect::kAll:
      break;
  }
  return "";
}

// Toleration::Tolerates against a Node object's taint, comparing text: the
// hints see API objects, not interned NodeInfos, and run off the hot path.
bool ToleratesApiTaint(const Toleration& t, const api::v1::Taint& taint) {
  if (t.effect != TaintEffect::kAll && taint.effect() != EffectName(t.effect)) return false;
  if (!t.key.empty() && t.key.str() != taint.key()) return false;
  return t.exists || t.value.str() == taint.value();
}

// FindMatchingUntoleratedTaint with the DoNotSchedule filter.
bool HasUntoleratedTaint(const framework::PodInfo& pod, const api::v1::Node& node) {
  for (const api::v1::Taint& taint : node.spec().taints()) {
    if (taint.effect() != "NoSchedule" && taint.effect() != "NoExecute") continue;
    bool tolerated = false;
    for (const Toleration& t : pod.tolerations()) tolerated = tolerated || ToleratesApiTaint(t, taint);
    if (!tolerated) return true;
  }
  return false;
}

absl::StatusOr<QueueingHint> IsSchedulableAfterNodeChange(const framework::PodInfo& pod,
                                                          const EventObjects& e) {
  if (e.New<api::v1::Node>() == nullptr || e.Old<api::v1::Pod>() != nullptr || e.New<api::v1::Pod>() != nullptr) {
    return absl::InvalidArgumentError("expected a Node event");
  }
  const bool was_untolerated = e.Old<api::v1::Node>() == nullptr || HasUntoleratedTaint(pod, *e.Old<api::v1::Node>());
  const bool is_untolerated = HasUntoleratedTaint(pod, *e.New<api::v1::Node>());
  return was_untolerated && !is_untolerated ? QueueingHint::kQueue : QueueingHint::kSkip;
}

// Any toleration change of the rejected pod may help; other pods' do not.
// The pod's own new toleration (a TargetPod event): it may now tolerate a
// taint that kept it out. Since v1.37 upstream does not ask whose update it is.
absl::StatusOr<QueueingHint> IsSchedulableAfterPodTolerationChange(const framework::PodInfo&, const EventObjects&) {
  return QueueingHint::kQueue;
}

}  // namespace

std::string_view TaintToleration::Name() const { return names::kTaintToleration; }

framework::PreFilterPlugin::Result TaintToleration::PreFilter(framework::CycleState&, const framework::PodInfo&,
                                                             std::span<const framework::NodeInfo* const>) {
  return {};
}

framework::Status TaintToleration::Filter(const framework::CycleState&, const framework::PodInfo& pod,
                                          const framework::NodeInfo& node) const {
  static const Symbol kReason = Symbol::Intern(kErrReasonUntolerated);
  for (const framework::Taint& taint : node.taints()) {
    if (RejectsScheduling(taint.effect) && !framework::TolerationsTolerate(pod.tolerations(), taint)) {
      return framework::Status(framework::Code::kUnschedulableAndUnresolvable, kReason);
    }
  }
  return framework::Status();
}

void TaintToleration::FilterNodes(const framework::CycleState& state, const framework::PodInfo& pod,
                                  std::span<const framework::NodeInfo* const> nodes, std::span<uint8_t> passing,
                                  std::span<framework::Status> statuses) const {
  // A node without taints passes whatever the pod tolerates.
  FilterNodesWithQuickPass(state, pod, nodes, passing, statuses,
                           [](const framework::NodeInfo& node) { return !node.has_taints(); });
}

framework::Status TaintToleration::PreScore(framework::CycleState& state, const framework::PodInfo& pod,
                                            std::span<const framework::NodeInfo* const>) {
  auto s = std::make_unique<PreScoreState>();
  for (const Toleration& t : pod.tolerations()) {
    // An empty effect tolerates every effect, PreferNoSchedule included.
    if (t.effect == TaintEffect::kAll || t.effect == TaintEffect::kPreferNoSchedule) {
      s->prefer_no_schedule.push_back(t);
    }
  }
  state.Write(PreScoreStateKey(), std::move(s));
  return framework::Status();
}

namespace {

framework::Status PreScoreStateNotFound() {
  return framework::Status::Error("failed to read \"PreScoreTaintToleration\" from cycleState: not found");
}

// PreferNoSchedule taints on the node that the pod does not tolerate.
int64_t CountIntolerable(const std::vector<Toleration>& prefer_no_schedule, const framework::NodeInfo& node) {
  int64_t intolerable = 0;
  if (!node.has_taints()) return intolerable;  // without touching the list's line
  for (const framework::Taint& taint : node.taints()) {
    if (taint.effect != TaintEffect::kPreferNoSchedule) continue;
    if (!framework::TolerationsTolerate(prefer_no_schedule, taint)) ++intolerable;
  }
  return intolerable;
}

}  // namespace

framework::Status TaintToleration::Score(const framework::CycleState& state, const framework::PodInfo&,
                                         const framework::NodeInfo& node, int64_t& score) const {
  const auto* s = state.Read<PreScoreState>(PreScoreStateKey());
  if (s == nullptr) return PreScoreStateNotFound();
  score = CountIntolerable(s->prefer_no_schedule, node);
  return framework::Status();
}

framework::Status TaintToleration::ScoreNodes(const framework::CycleState& state, const framework::PodInfo&,
                                              std::span<const framework::NodeInfo* const> nodes,
                                              std::span<int64_t> scores) const {
  const auto* s = state.Read<PreScoreState>(PreScoreStateKey());
  if (s == nullptr) return PreScoreStateNotFound();
  for (size_t i = 0; i < nodes.size(); ++i) scores[i] = CountIntolerable(s->prefer_no_schedule, *nodes[i]);
  return framework::Status();
}

framework::Status TaintToleration::NormalizeScore(const framework::CycleState&, const framework::PodInfo&,
                                                  std::span<const framework::NodeInfo* const>,
                                                  std::span<int64_t> scores) const {
  kNormalization.Apply(scores);
  return framework::Status();
}

std::vector<framework::ClusterEventWithHint> TaintToleration::EventsToRegister() const {
  using framework::EventResource;
  return {
      {{EventResource::Node(), framework::kActionAdd | framework::kActionUpdateNodeTaint, "Node"},
       IsSchedulableAfterNodeChange},
      {{EventResource::TargetPod(), framework::kActionUpdatePodToleration, "TargetPodUpdatePodToleration"},
       IsSchedulableAfterPodTolerationChange},
  };
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewTaintToleration(const framework::PluginArgs& args,
                                                                      framework::Handle&) {
  SCHEDKIT_RETURN_IF_ERROR(internal::CheckNoArgs(args, names::kTaintToleration));
  return std::make_unique<TaintToleration>();
}

framework::Status TaintToleration::SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const {
  signature.Add(framework::kTolerationsSigner, TolerationsSignature(pod));
  return framework::Status();
}

}  // namespace schedkit::plugins
