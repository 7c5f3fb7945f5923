#include "plugins/defaultpreemption/default_preemption.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

#include "absl/status/status.h"
#include "plugins/defaultpreemption/go_sort.h"
#include "plugins/internal/args.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/framework/snapshot.h"
#include "schedkit/plugins/names.h"
#include "framework/node_info_internals.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::NodeInfo;
using framework::PodInfo;
using framework::PodInfoPtr;
using framework::Status;

constexpr std::string_view kName = names::kDefaultPreemption;
constexpr std::string_view kPercentageField = "minCandidateNodesPercentage";
constexpr std::string_view kAbsoluteField = "minCandidateNodesAbsolute";

const Symbol& ReasonNoVictims() {
  static const Symbol s = Symbol::Intern(DefaultPreemption::kReasonNoVictims);
  return s;
}

const Symbol& ReasonWaitingForPreemption() {
  static const Symbol s = Symbol::Intern("waiting for the preemption for this pod to be finished");
  return s;
}

// Whether the pod is terminating because a scheduler preempted it: its
// first DisruptionTarget condition is True with reason PreemptionByScheduler.
bool TerminatingByPreemption(const PodInfo& pod) {
  if (!pod.terminating()) return false;
  for (const api::v1::PodCondition& c : pod.pod().status().conditions()) {
    if (c.type() == "DisruptionTarget") return c.status() == "True" && c.reason() == "PreemptionByScheduler";
  }
  return false;
}

}  // namespace

const framework::ArgsSpec<DefaultPreemptionArgs>& DefaultPreemptionArgsSpec() {
  static const auto* spec =
      framework::ArgsSpec<DefaultPreemptionArgs>(std::string(kName))
          .Field(std::string(kPercentageField), &DefaultPreemptionArgs::min_candidate_nodes_percentage)
          .Field(std::string(kAbsoluteField), &DefaultPreemptionArgs::min_candidate_nodes_absolute)
          // Upstream ValidateDefaultPreemptionArgs: every violation, in its order.
          .Validate([](const DefaultPreemptionArgs& a, framework::ArgsErrors& errs) {
            const int32_t pct = a.min_candidate_nodes_percentage;
            const int32_t abs = a.min_candidate_nodes_absolute;
            if (pct < 0 || pct > 100) errs.Invalid(kPercentageField, pct, "not in valid range [0, 100]");
            if (abs < 0) errs.Invalid(kAbsoluteField, abs, "not in valid range [0, inf)");
            if (pct == 0 && abs == 0) {
              errs.Invalid(kPercentageField, 0, schedkit::StrCat("cannot be zero at the same time as ", kAbsoluteField));
              errs.Invalid(kAbsoluteField, 0, schedkit::StrCat("cannot be zero at the same time as ", kPercentageField));
            }
          })
          .Leak();
  return *spec;
}

absl::StatusOr<DefaultPreemptionArgs> ParseDefaultPreemptionArgs(const framework::PluginArgs& args) {
  return framework::DecodeArgs(args, DefaultPreemptionArgsSpec());
}

DefaultPreemption::DefaultPreemption(framework::Handle& handle, const DefaultPreemptionArgs& args)
    : handle_(handle), args_(args), evaluator_(kName, handle, *this) {}

std::string_view DefaultPreemption::Name() const { return kName; }

framework::PostFilterPlugin::Result DefaultPreemption::PostFilter(framework::CycleState& state, const PodInfo& pod,
                                                                  const framework::NodeToStatus& filtered) {
  int num_victims = 0;
  // The hooks may read more than the memo's key does: without them only.
  if (!is_eligible_pod_ && !more_important_pod_) dry_run_memo_.Begin(handle_, state, pod);
  framework::PostFilterPlugin::Result result = evaluator_.Preempt(state, pod, filtered, &num_victims);
  dry_run_memo_.End();
  // One observation per attempt (the recorder counts attempts and victims
  // together).
  handle_.metrics().ObservePreemption(num_victims);
  if (result.status.num_reasons() > 0) {
    std::string msg = result.status.Message();
    if (!msg.empty()) result.status = Status::WithText(result.status.code(), schedkit::StrCat("preemption: ", msg));
  }
  return result;
}

Status DefaultPreemption::PreEnqueue(const PodInfo& pod) {
  if (evaluator_.IsPodRunningPreemption(pod.uid())) {
    return Status(Code::kUnschedulableAndUnresolvable, ReasonWaitingForPreemption());
  }
  return Status();
}

std::vector<framework::ClusterEventWithHint> DefaultPreemption::EventsToRegister() const {
  return {
      {{framework::EventResource::AssignedPod(), framework::kActionDelete, "AssignedPodDelete"},
       [](const PodInfo&, const framework::EventObjects&) -> absl::StatusOr<framework::QueueingHint> {
         return framework::QueueingHint::kSkip;
       }},
  };
}

int32_t DefaultPreemption::CalculateNumCandidates(int32_t num_nodes) const {
  int64_t n = static_cast<int64_t>(num_nodes) * args_.min_candidate_nodes_percentage / 100;
  n = std::max<int64_t>(n, args_.min_candidate_nodes_absolute);
  return static_cast<int32_t>(std::min<int64_t>(n, num_nodes));
}

std::pair<int32_t, int32_t> DefaultPreemption::GetOffsetAndNumCandidates(int32_t num_nodes) {
  int32_t offset = 0;
  if (offset_source_) {
    offset = offset_source_(num_nodes);
  } else if (num_nodes > 0) {
    // The high 32 bits scaled into [0, num_nodes): portable, unlike
    // std::uniform_int_distribution, and unbiased enough for an offset.
    offset = static_cast<int32_t>(((rng_() >> 32) * static_cast<uint64_t>(num_nodes)) >> 32);
  }
  return {offset, CalculateNumCandidates(num_nodes)};
}

bool DefaultPreemption::IsPreemptionAllowed(const NodeInfo& node, const PodInfo& victim,
                                            const PodInfo& preemptor) const {
  return victim.priority() < preemptor.priority() && (!is_eligible_pod_ || is_eligible_pod_(node, victim, preemptor));
}

std::pair<bool, std::string> DefaultPreemption::PodEligibleToPreemptOthers(
    const PodInfo& pod, const Status& nominated_node_status) const {
  if (pod.preempt_never()) return {false, "not eligible due to preemptionPolicy=Never."};
  const Symbol nominated = pod.nominated_node_name();
  if (!nominated.empty()) {
    // Filters ruled the nominated node out for good: preempt elsewhere.
    if (nominated_node_status.code() == Code::kUnschedulableAndUnresolvable) return {true, ""};
    // Victims of an earlier preemption still terminating there: wait for them.
    if (const NodeInfo* node = handle_.snapshot().Get(nominated)) {
      for (const PodInfoPtr& p : node->pods()) {
        if (IsPreemptionAllowed(*node, *p, pod) && TerminatingByPreemption(*p)) {
          return {false, "not eligible due to a terminating pod on the nominated node."};
        }
      }
    }
  }
  return {true, ""};
}

std::optional<Status> DefaultPreemption::StatusWithoutDryRun(const PodInfo& pod, const NodeInfo& node) const {
  // Only lower-priority pods can be victims.
  if (node.lowest_pod_priority() >= pod.priority()) {
    return Status(Code::kUnschedulableAndUnresolvable, ReasonNoVictims());
  }
  return std::nullopt;
}

Status DefaultPreemption::SelectVictimsOnNode(const framework::CycleState& state, const PodInfo& pod,
                                              const NodeInfo& node, std::span<const preemption::PdbInfo> pdbs,
                                              preemption::Victims& victims) const {
  // Without lower-priority pods the node cannot change: skip the copies.
  if (std::optional<Status> status = StatusWithoutDryRun(pod, node)) return *std::move(status);

  // What an earlier attempt found here for this signature, if the node and
  // its nominations are unchanged. Victims depend on the budgets too: they
  // are kept and served only without any.
  const preemption::DryRunMemo::Slot slot = dry_run_memo_.SlotFor(state, pod, node);
  if (const preemption::DryRunMemo::Outcome* kept = dry_run_memo_.Find(slot)) {
    if (!kept->status.IsSuccess()) return kept->status;
    if (pdbs.empty()) {
      victims = kept->victims;
      return Status();
    }
  }

  // The state is copied only when an extension will change it.
  std::unique_ptr<framework::CycleState> state_copy;
  if (handle_.plugin_runner().HasActivePreFilterExtensions(state)) state_copy = state.Clone();
  const framework::CycleState& sim_state = state_copy ? *state_copy : state;
  framework::ScratchSimulation sim(node);
  NodeInfo& sim_node = sim.node();
  auto remove_pod = [&](const PodInfo& p) -> Status {
    if (absl::Status s = sim_node.RemovePod(p); !s.ok()) return Status::Error(std::string(s.message()));
    if (!state_copy) return Status();
    Status s = handle_.plugin_runner().RunPreFilterExtensionRemovePod(*state_copy, pod, p, sim_node);
    return s.IsSuccess() ? Status() : Status::Error(s.Message());
  };
  auto add_pod = [&](const PodInfoPtr& p) -> Status {
    sim_node.AddPod(p);
    if (!state_copy) return Status();
    Status s = handle_.plugin_runner().RunPreFilterExtensionAddPod(*state_copy, pod, *p, sim_node);
    return s.IsSuccess() ? Status() : Status::Error(s.Message());
  };

  // First remove every pod that may be preempted and see whether the pod
  // fits at all. The loop walks the original list; removals edit the copy.
  // Sized once: a dry run per node would otherwise grow these step by step.
  // The lists, and the victims handed out, borrow the node's pods (see
  // Victims).
  std::vector<PodInfoPtr> potential;
  potential.reserve(node.pods().size());
  for (const PodInfoPtr& p : node.pods()) {
    if (!IsPreemptionAllowed(sim_node, *p, pod)) continue;
    potential.push_back(framework::ScratchSimulation::Borrow(p));
    if (Status s = remove_pod(*p); !s.IsSuccess()) return s;
  }
  if (potential.empty()) return Status(Code::kUnschedulableAndUnresolvable, ReasonNoVictims());
  // Still no fit: this node is no candidate. (Affinity of the pod to one of
  // the victims is deliberately not considered, as upstream.)
  if (Status s = handle_.plugin_runner().RunFilterPluginsWithNominatedPods(sim_state, pod, sim_node); !s.IsSuccess()) {
    if (s.IsRejected()) dry_run_memo_.Keep(slot, s, nullptr);
    return s;
  }

  // Reprieve as many as possible, the most important first: PDB-violating
  // pods before the others, so that violations are avoided where possible.
  // Sorted exactly as upstream's sort.Slice orders them (see go_sort.h); the
  // order of pods that never started is fixed now, in the node's order.
  const preemption::VictimImportance importance(potential);
  auto sort_by_importance = [this, &importance](std::vector<PodInfoPtr>& pods) {
    if (more_important_pod_) {
      preemption::GoSortSlice(pods, [this](const PodInfoPtr& a, const PodInfoPtr& b) {
        return more_important_pod_(*a, *b);
      });
    } else {
      preemption::GoSortSlice(pods, [&importance](const PodInfoPtr& a, const PodInfoPtr& b) {
        return importance(a, b);
      });
    }
  };
  sort_by_importance(potential);
  std::vector<PodInfoPtr> violating;
  std::vector<PodInfoPtr> non_violating;
  if (pdbs.empty()) {
    non_violating.swap(potential);  // no budget to charge: nothing violates
  } else {
    preemption::SplitByPdbViolation(potential, pdbs, violating, non_violating);
  }

  std::vector<PodInfoPtr>& out = victims.pods;
  out.clear();
  out.reserve(violating.size() + non_violating.size());
  int64_t num_violating = 0;
  // Adds `p` back; if the pod no longer fits, takes it out again as a victim.
  auto reprieve = [&](const PodInfoPtr& p, bool& fits) -> Status {
    if (Status s = add_pod(p); !s.IsSuccess()) return s;
    fits = handle_.plugin_runner().RunFilterPluginsWithNominatedPods(sim_state, pod, sim_node).IsSuccess();
    if (!fits) {
      if (Status s = remove_pod(*p); !s.IsSuccess()) return s;
      out.push_back(p);
    }
    return Status();
  };
  for (const PodInfoPtr& p : violating) {
    bool fits = false;
    if (Status s = reprieve(p, fits); !s.IsSuccess()) return s;
    if (!fits) ++num_violating;
  }
  for (const PodInfoPtr& p : non_violating) {
    bool fits = false;
    if (Status s = reprieve(p, fits); !s.IsSuccess()) return s;
  }
  // Both groups were sorted on their own; merge them back into one order.
  if (!violating.empty() && !non_violating.empty()) sort_by_importance(out);
  victims.num_pdb_violations = num_violating;
  if (pdbs.empty()) dry_run_memo_.Keep(slot, Status(), &victims);
  return Status();
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewDefaultPreemption(const framework::PluginArgs& args,
                                                                        framework::Handle& handle) {
  SCHEDKIT_ASSIGN_OR_RETURN(DefaultPreemptionArgs parsed, ParseDefaultPreemptionArgs(args));
  return std::make_unique<DefaultPreemption>(handle, parsed);
}

}  // namespace schedkit::plugins
