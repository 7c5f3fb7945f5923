#include "plugins/defaultpreemption/evaluator.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/framework/snapshot.h"
#include "framework/node_info_internals.h"

namespace schedkit::plugins::preemption {
namespace {

using framework::Code;
using framework::NodeInfo;
using framework::PodInfo;
using framework::PodInfoPtr;
using framework::Status;

const Symbol& ReasonNotHelpful() {
  static const Symbol s = Symbol::Intern("Preemption is not helpful for scheduling");
  return s;
}

}  // namespace

std::vector<PdbInfo> CompilePdbs(const std::vector<std::shared_ptr<const api::v1::PodDisruptionBudget>>& pdbs) {
  std::vector<PdbInfo> out;
  out.reserve(pdbs.size());
  for (const auto& pdb : pdbs) {
    if (pdb == nullptr) continue;
    PdbInfo info;
    info.ns = Symbol::Intern(pdb->metadata().namespace_());
    if (pdb->spec().has_selector()) {
      absl::StatusOr<api::LabelSelector> sel = api::LabelSelector::Compile(pdb->spec().selector());
      if (sel.ok() && !sel->IsEverything() && !sel->MatchesNothing()) {
        info.selector = *std::move(sel);
        info.selects_nothing = false;
      }
    }
    info.disruptions_allowed = pdb->status().disruptions_allowed();
    for (const auto& [name, unused_time] : pdb->status().disrupted_pods()) {
      if (std::optional<Symbol> s = Symbol::Find(name)) info.disrupted_pods.insert(*s);
    }
    out.push_back(std::move(info));
  }
  return out;
}

void SplitByPdbViolation(std::span<const PodInfoPtr> pods, std::span<const PdbInfo> pdbs,
                         std::vector<PodInfoPtr>& violating, std::vector<PodInfoPtr>& non_violating) {
  absl::InlinedVector<int32_t, 8> allowed(pdbs.size());
  for (size_t i = 0; i < pdbs.size(); ++i) allowed[i] = pdbs[i].disruptions_allowed;
  for (const PodInfoPtr& pod : pods) {
    bool violated = false;
    // A pod without labels matches no PDB.
    if (!pod->labels().empty()) {
      for (size_t i = 0; i < pdbs.size(); ++i) {
        const PdbInfo& pdb = pdbs[i];
        if (pdb.ns != pod->namespace_() || pdb.selects_nothing || !pdb.selector.Matches(pod->labels())) continue;
        if (pdb.disrupted_pods.contains(pod->name())) continue;
        // Every matching PDB is charged, even after one is already violated.
        if (--allowed[i] < 0) violated = true;
      }
    }
    (violated ? violating : non_violating).push_back(pod);
  }
}

bool MoreImportantPod(const PodInfo& a, const PodInfo& b) {
  if (a.priority() != b.priority()) return a.priority() > b.priority();
  return a.start_time() < b.start_time();
}

VictimImportance::VictimImportance(std::span<const PodInfoPtr> pods) {
  int64_t rank = 0;
  for (const PodInfoPtr& p : pods) {
    if (p->start_time() == absl::InfiniteFuture()) unstarted_rank_.emplace(p.get(), ++rank);
  }
}

absl::Time VictimImportance::StartTime(const PodInfo& p) const {
  const absl::Time t = p.start_time();
  if (t != absl::InfiniteFuture()) return t;
  // "Now": far after any real start time, one reading per victim in order.
  static const absl::Time kNow = absl::FromUnixSeconds(int64_t{7258118400});  // 2200-01-01
  const auto it = unstarted_rank_.find(&p);
  return kNow + absl::Nanoseconds(it == unstarted_rank_.end() ? 0 : it->second);
}

bool VictimImportance::operator()(const PodInfoPtr& a, const PodInfoPtr& b) const {
  if (a->priority() != b->priority()) return a->priority() > b->priority();
  return StartTime(*a) < StartTime(*b);
}

VictimSummary Summarize(const Victims& victims) {
  VictimSummary out;
  out.first_priority = victims.pods[0]->priority();
  int32_t max_priority = out.first_priority;
  for (const PodInfoPtr& p : victims.pods) {
    // Shifting every priority by 2^31 keeps them positive, so that more
    // victims of a negative priority never sum lower than fewer.
    out.shifted_priority_sum +=
        static_cast<int64_t>(p->priority()) + (int64_t{std::numeric_limits<int32_t>::max()} + 1);
    if (p->priority() > max_priority) {
      max_priority = p->priority();
      out.earliest_started = absl::InfiniteFuture();
      out.unstarted = false;
    } else if (p->priority() < max_priority) {
      continue;
    }
    const absl::Time t = p->start_time();
    if (t == absl::InfiniteFuture()) {
      out.unstarted = true;
    } else {
      out.earliest_started = std::min(out.earliest_started, t);
    }
  }
  return out;
}

std::vector<Interface::ScoreFunc> DefaultScoreFuncs(absl::Time now) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  // The dry run's summary when there is one; candidates made elsewhere are
  // summarized here.
  auto summary = [](const Candidate& c) { return c.summary ? *c.summary : Summarize(c.victims); };
  return {
      [](const Candidate& c) { return -c.victims.num_pdb_violations; },
      [summary](const Candidate& c) {
        return c.victims.pods.empty() ? kMin : -static_cast<int64_t>(summary(c).first_priority);
      },
      [summary](const Candidate& c) {
        return c.victims.pods.empty() ? 0 : -summary(c).shifted_priority_sum;
      },
      [](const Candidate& c) { return -static_cast<int64_t>(c.victims.pods.size()); },
      [summary, now](const Candidate& c) {
        if (c.victims.pods.empty()) return kMin;
        return absl::ToUnixNanos(summary(c).EarliestStart(now));
      },
  };
}

int PickOneCandidate(std::span<const Candidate> candidates, std::span<const Interface::ScoreFunc> score_funcs) {
  if (candidates.empty()) return -1;
  std::vector<int> current(candidates.size());
  for (size_t i = 0; i < candidates.size(); ++i) current[i] = static_cast<int>(i);
  std::vector<int> selected;
  for (const Interface::ScoreFunc& f : score_funcs) {
    selected.clear();
    int64_t best = std::numeric_limits<int64_t>::min();
    for (int i : current) {
      const int64_t score = f(candidates[i]);
      if (score > best) {
        best = score;
        selected.clear();
      }
      if (score == best) selected.push_back(i);
    }
    if (selected.size() == 1) return selected[0];
    current.swap(selected);
  }
  return current[0];
}

std::string AggregateErrors(const std::vector<std::string>& errors) {
  if (errors.empty()) return "";
  if (errors.size() == 1) return errors[0];
  std::vector<std::string_view> seen;
  std::string joined;
  for (const std::string& e : errors) {
    if (std::find(seen.begin(), seen.end(), e) != seen.end()) continue;
    if (!seen.empty()) joined += ", ";
    joined += e;
    seen.push_back(e);
  }
  return seen.size() == 1 ? joined : schedkit::StrCat("[", joined, "]");
}

Evaluator::Evaluator(std::string_view plugin_name, framework::Handle& handle, Interface& policy)
    : plugin_name_(Symbol::Intern(plugin_name)), handle_(handle), policy_(policy) {}

framework::PostFilterPlugin::Result Evaluator::Preempt(framework::CycleState& state, const PodInfo& pod,
                                                       const framework::NodeToStatus& node_statuses,
                                                       int* num_victims) {
  framework::PostFilterPlugin::Result result;
  if (num_victims != nullptr) *num_victims = 0;

  // 1) May the pod preempt at all? (Upstream first re-reads the pod from
  // its informer; schedkit's PodInfo is already the queue's latest.)
  const Status& nominated_status = node_statuses.Get(pod.nominated_node_name());
  if (auto [eligible, reason] = policy_.PodEligibleToPreemptOthers(pod, nominated_status); !eligible) {
    result.status = Status::WithText(Code::kUnschedulable, std::move(reason));
    return result;
  }

  // 2) Dry runs on the nodes a removal of pods may help.
  const framework::Snapshot& snapshot = handle_.snapshot();
  const int num_all_nodes = snapshot.NumNodes();
  if (num_all_nodes == 0) {
    result.status = Status::Error("no nodes available");
    return result;
  }
  DryRunResult dry;
  const std::vector<const NodeInfo*> potential = node_statuses.NodesForStatusCode(snapshot, Code::kUnschedulable);
  if (!potential.empty()) {
    std::vector<PdbInfo> pdbs;
    pdbs = CompilePdbs(handle_.objects().List<api::v1::PodDisruptionBudget>());
    const auto [offset, num_candidates] = policy_.GetOffsetAndNumCandidates(static_cast<int32_t>(potential.size()));
    dry = DryRunPreemption(state, pod, potential, pdbs, offset, num_candidates);
    if (!dry.errors.empty() && dry.candidates.empty()) {
      result.status = Status::Error(AggregateErrors(dry.errors));
      return result;
    }
  }
  if (dry.candidates.empty()) {
    framework::FitError fit_error;
    fit_error.num_all_nodes = num_all_nodes;
    fit_error.diagnosis.node_to_status = std::move(dry.statuses);
    fit_error.diagnosis.node_to_status.SetAbsentNodesStatus(
        Status(Code::kUnschedulableAndUnresolvable, ReasonNotHelpful()));
    // Clears the pod's nomination, if it has one.
    result.nominating_info = {framework::NominatingInfo::Mode::kOverride, Symbol()};
    result.status = Status::WithText(Code::kUnschedulable, fit_error.Message());
    return result;
  }

  // 3) Extenders: schedkit has none.
  // 4) The best candidate.
  const Candidate* best = SelectCandidate(dry.candidates);
  if (best == nullptr || best->node.empty()) {
    result.status = Status::WithText(Code::kUnschedulable, "no candidate node for preemption");
    return result;
  }

  // 5) Evict. With asynchronous preemption (v1.37's default) the outcome of
  // the evictions does not reach the PostFilter result, so errors are not
  // returned here either.
  (void)PrepareCandidate(*best, pod);
  if (num_victims != nullptr) *num_victims = static_cast<int>(best->victims.pods.size());
  result.nominating_info = {framework::NominatingInfo::Mode::kOverride, best->node};
  // Since v1.37 a successful preemption says where and how many (victims
  // already terminating included); the text reaches the FitError.
  result.status = Status::WithText(
      Code::kSuccess, schedkit::StrCat("found a potential placement for pod on node ", best->node.str(),
                                   ", preempting ", best->victims.pods.size(), " victims"));
  return result;
}

Evaluator::DryRunResult Evaluator::DryRunPreemption(const framework::CycleState& state, const PodInfo& pod,
                                                    std::span<const NodeInfo* const> potential_nodes,
                                                    std::span<const PdbInfo> pdbs, int32_t offset,
                                                    int32_t num_candidates) const {
  DryRunResult out;
  const int n = static_cast<int>(potential_nodes.size());
  if (n == 0) return out;
  // Each group keeps at most num_candidates, as upstream's candidateList.
  const size_t cap = static_cast<size_t>(std::max<int32_t>(num_candidates, 0));
  std::vector<Candidate> non_violating;
  std::vector<Candidate> violating;
  // A policy's offset outside [0, n) still walks every node once.
  const int64_t start = ((static_cast<int64_t>(offset) % n) + n) % n;
  auto node_at = [&](int i) -> const NodeInfo& { return *potential_nodes[(start + i) % n]; };

  struct Slot {
    Status status;
    Victims victims;
    std::optional<VictimSummary> summary;
  };
  std::vector<Slot> slots;  // one per node of the stretch walked in a round
  std::vector<int> dry_runs;  // the slots whose node needs a dry run
  const int parallelism = std::max(1, handle_.parallelizer().parallelism());
  bool stop = false;
  int done = 0;
  while (!stop && done < n) {
    // The sequential walk cannot stop before `need` more dry runs; fewer
    // than the thread count would leave threads idle, so take at least that
    // many. Results past the stopping point are discarded.
    const size_t found = non_violating.size() + violating.size();
    const int need = found < cap ? static_cast<int>(std::min<size_t>(cap - found, n)) : 1;
    const size_t want = static_cast<size_t>(std::max(need, parallelism));
    // Walk on until that many nodes need a dry run; the policy settles the
    // others here, from the node's own figures.
    slots.clear();
    dry_runs.clear();
    int span = 0;
    while (done + span < n && dry_runs.size() < want) {
      if (done + span + 8 < n) framework::PrefetchLowestPodPriority(node_at(done + span + 8));
      Slot& slot = slots.emplace_back();
      if (std::optional<Status> status = policy_.StatusWithoutDryRun(pod, node_at(done + span))) {
        slot.status = *std::move(status);
      } else {
        dry_runs.push_back(span);
      }
      ++span;
    }
    const int num_dry_runs = static_cast<int>(dry_runs.size());
    handle_.parallelizer().ForEach(num_dry_runs, [&](int k) {
      // Each dry run waits on memory: its node's lines, then its pods'.
      // Ask for the next node's pods and the node after's lines meanwhile.
      if (k + 2 < num_dry_runs) framework::PrefetchWholeNode(node_at(done + dry_runs[k + 2]));
      if (k + 1 < num_dry_runs) framework::PrefetchPods(node_at(done + dry_runs[k + 1]));
      Slot& slot = slots[dry_runs[k]];
      slot.status = policy_.SelectVictimsOnNode(state, pod, node_at(done + dry_runs[k]), pdbs, slot.victims);
      if (slot.status.IsSuccess() && !slot.victims.pods.empty()) slot.summary = Summarize(slot.victims);
    });
    for (int j = 0; j < span && !stop; ++j) {
      const NodeInfo& node = node_at(done + j);
      Slot& slot = slots[j];
      if (slot.status.IsSuccess() && !slot.victims.pods.empty()) {
        std::vector<Candidate>& group = slot.victims.num_pdb_violations == 0 ? non_violating : violating;
        if (group.size() < cap) group.push_back(Candidate{node.name(), std::move(slot.victims), slot.summary});
        stop = !non_violating.empty() && non_violating.size() + violating.size() >= cap;
        continue;
      }
      Status status = std::move(slot.status);
      if (status.IsSuccess()) {
        status = Status::Error(schedkit::StrCat("expected at least one victim pod on node \"", node.name().str(), "\""));
      }
      if (status.code() == Code::kError) out.errors.push_back(status.Message());
      out.statuses.SetNew(node.name(), std::move(status));  // each node is walked once
    }
    done += span;
  }
  out.candidates = std::move(non_violating);
  out.candidates.reserve(out.candidates.size() + violating.size());
  for (Candidate& c : violating) out.candidates.push_back(std::move(c));
  return out;
}

const Candidate* Evaluator::SelectCandidate(std::span<const Candidate> candidates) const {
  if (candidates.empty()) return nullptr;
  if (candidates.size() == 1) return &candidates[0];
  std::vector<Interface::ScoreFunc> funcs = policy_.OrderedScoreFuncs(candidates);
  if (funcs.empty()) funcs = DefaultScoreFuncs(absl::Now());
  const int i = PickOneCandidate(candidates, funcs);
  return i < 0 ? &candidates[0] : &candidates[i];
}

absl::Status Evaluator::PrepareCandidate(const Candidate& candidate, const PodInfo& preemptor) {
  // Victims whose graceful deletion already started need no further call.
  std::vector<const PodInfo*> to_evict;
  to_evict.reserve(candidate.victims.pods.size());
  for (const PodInfoPtr& v : candidate.victims.pods) {
    if (!v->terminating()) to_evict.push_back(v.get());
  }
  if (to_evict.empty()) return absl::OkStatus();

  {
    absl::MutexLock lock(&mu_);
    preempting_.insert(preemptor.uid());
  }
  // Lower-priority pods nominated to this node may no longer fit there; the
  // cleared nomination sends them back to find another place sooner.
  ClearLowerPriorityNominations(preemptor, candidate.node);

  // Upstream evicts all but the last victim in parallel, stopping at the
  // first error, then the last one regardless; schedkit keeps that order.
  absl::Status first_error;
  for (size_t i = 0; i + 1 < to_evict.size(); ++i) {
    if (absl::Status s = PreemptPod(candidate, preemptor, *to_evict[i]); !s.ok()) {
      first_error = std::move(s);
      break;
    }
  }
  if (absl::Status s = PreemptPod(candidate, preemptor, *to_evict.back()); !s.ok() && first_error.ok()) {
    first_error = std::move(s);
  }

  absl::MutexLock lock(&mu_);
  preempting_.erase(preemptor.uid());
  return first_error;
}

absl::Status Evaluator::PreemptPod(const Candidate& candidate, const PodInfo& preemptor, const PodInfo& victim) {
  bool rejected = false;
  if (handle_.waiting_pods().HasWaitingPod(victim.uid())) {
    // A victim still waiting on Permit has no resources to give back yet:
    // rejecting it is enough. Rejected in this plugin's name, as upstream.
    handle_.waiting_pods().IterateOverWaitingPods([&](framework::WaitingPod& wp) {
      if (!rejected && wp.pod().uid() == victim.uid()) {
        wp.Reject(plugin_name_, "preempted");
        rejected = true;
      }
    });
  }
  if (!rejected) {
    framework::ClusterClient* client = handle_.client();
    if (client == nullptr) {
      return absl::FailedPreconditionError(
          schedkit::StrCat("cannot evict ", victim.key(), ": the framework has no cluster client"));
    }
    absl::Status s = client->Evict(victim, preemptor, candidate.node);
    // Already gone: nothing to do, and no event (as upstream).
    if (absl::IsNotFound(s)) return absl::OkStatus();
    if (!s.ok()) return s;
  }
  if (framework::EventRecorder* events = handle_.events()) {
    events->Event(victim, &preemptor, "Normal", "Preempted", "Preempting",
                  schedkit::StrCat("Preempted by pod ", preemptor.uid(), " on node ", candidate.node.str()));
  }
  return absl::OkStatus();
}

void Evaluator::ClearLowerPriorityNominations(const PodInfo& preemptor, Symbol node) {
  framework::PodNominator* nominator = handle_.nominator();
  if (nominator == nullptr) return;
  framework::ClusterClient* client = handle_.client();
  for (const PodInfoPtr& p : nominator->NominatedPodsForNode(node)) {
    // Without an API cacher (SchedulerAsyncAPICalls is off in v1.37) upstream
    // patches only pods whose status names a node.
    if (p->priority() >= preemptor.priority() || p->nominated_node_name().empty()) continue;
    // Not critical: a failure leaves the nomination to be fixed later.
    if (client != nullptr) (void)client->ClearNominatedNodeName(*p);
    nominator->DeleteNominatedPodIfExists(*p);
  }
}

bool Evaluator::IsPodRunningPreemption(std::string_view uid) const {
  absl::MutexLock lock(&mu_);
  return preempting_.contains(absl::string_view(uid.data(), uid.size()));
}

}  // namespace schedkit::plugins::preemption
