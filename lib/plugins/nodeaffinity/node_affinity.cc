#include "plugins/nodeaffinity/node_affinity.h"

#include <cassert>
#include <string>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "plugins/internal/signers.h"
#include "plugins/nodeaffinity/term_errors.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using framework::Code;
using framework::EventObjects;
using framework::QueueingHint;
using nodeaffinity_internal::AggregateMessage;
using nodeaffinity_internal::AppendTermErrors;
using nodeaffinity_internal::IsEmptyTerm;

constexpr std::string_view kPluginName = names::kNodeAffinity;

const framework::StateKey& PreFilterStateKey() {
  static const framework::StateKey key = Symbol::Intern("PreFilterNodeAffinity");
  return key;
}

const framework::StateKey& PreScoreStateKey() {
  static const framework::StateKey key = Symbol::Intern("PreScoreNodeAffinity");
  return key;
}

// Which of the pod's compiled required terms upstream can parse, by position
// in required_node_affinity().terms(); empty when all of them can.
struct TermMask {
  std::vector<bool> parses;
  bool Parses(size_t i) const { return parses.empty() || parses[i]; }
};

// Not changed by other pods; clones copy the (usually empty) mask.
struct PreFilterState final : framework::StateData {
  std::unique_ptr<framework::StateData> Clone() const override {
    return std::make_unique<PreFilterState>(*this);
  }
  TermMask mask;
};

// Written when the pod's preferred terms all parse; Score reads no more.
struct PreScoreState final : framework::StateData {
  std::unique_ptr<framework::StateData> Clone() const override { return std::make_unique<PreScoreState>(); }
};

const api::v1::NodeSelector& RawRequired(const framework::PodInfo& pod) {
  return pod.pod().spec().affinity().node_affinity().required_during_scheduling_ignored_during_execution();
}

// PodInfo compiles the required terms minus the empty ones, in order, as
// upstream's lazy parser keeps them; walk the API terms the same way.
// `errors`, when given, collects the parse errors.
TermMask RequiredTermMask(const framework::PodInfo& pod, std::vector<std::string>* errors) {
  TermMask mask;
  if (!pod.has_required_node_affinity()) return mask;
  const auto& terms = RawRequired(pod).node_selector_terms();
  bool all_parse = true;
  std::vector<std::string> term_errors;
  for (int i = 0; i < terms.size(); ++i) {
    if (IsEmptyTerm(terms[i])) continue;
    term_errors.clear();
    AppendTermErrors(terms[i], schedkit::StrCat("nodeSelectorTerms[", i, "]"), term_errors);
    all_parse = all_parse && term_errors.empty();
    mask.parses.push_back(term_errors.empty());
    if (errors != nullptr) errors->insert(errors->end(), term_errors.begin(), term_errors.end());
  }
  assert(mask.parses.size() == pod.required_node_affinity().terms().size());
  if (all_parse) mask.parses.clear();
  return mask;
}

// Parse errors of the pod's preferred terms that upstream keeps (a weight and
// a non-empty preference), with upstream's "[i]" paths.
std::vector<std::string> PreferredTermErrors(const framework::PodInfo& pod) {
  std::vector<std::string> errors;
  const auto& terms =
      pod.pod().spec().affinity().node_affinity().preferred_during_scheduling_ignored_during_execution();
  for (int i = 0; i < terms.size(); ++i) {
    if (terms[i].weight() == 0 || IsEmptyTerm(terms[i].preference())) continue;
    AppendTermErrors(terms[i].preference(), schedkit::StrCat("[", i, "]"), errors);
  }
  return errors;
}

// A term's label requirements, and its metadata.name fields when the node has
// a name (upstream matches fields only against a non-empty field set).
bool TermMatches(const api::NodeSelector::Term& term, const api::LabelSet& labels, Symbol node_name) {
  for (const api::LabelRequirement& r : term.labels) {
    if (!r.Matches(labels)) return false;
  }
  if (node_name.empty()) return true;
  for (const auto& [op, name] : term.name_fields) {
    if ((op == api::SelectorOp::kIn) != (node_name == name)) return false;
  }
  return true;
}

bool SelectorMatches(const api::NodeSelector& selector, const api::LabelSet& labels, Symbol node_name) {
  for (const api::NodeSelector::Term& t : selector.terms()) {
    if (TermMatches(t, labels, node_name)) return true;
  }
  return false;
}

enum class RequiredMatch { kMatch, kNoMatch, kNoMatchWithParseErrors };

// component-helpers' RequiredNodeAffinity.Match: the nodeSelector map, then
// the required terms ORed, skipping those that do not parse. Reports whether
// a skipped term could have been the one to match.
RequiredMatch MatchRequired(const framework::PodInfo& pod, const TermMask& mask, const api::LabelSet& labels,
                            Symbol node_name) {
  if (pod.has_node_selector() && !SelectorMatches(pod.node_selector(), labels, node_name)) {
    return RequiredMatch::kNoMatch;
  }
  if (!pod.has_required_node_affinity()) return RequiredMatch::kMatch;
  const auto& terms = pod.required_node_affinity().terms();
  bool skipped = false;
  for (size_t i = 0; i < terms.size(); ++i) {
    if (!mask.Parses(i)) {
      skipped = true;
    } else if (TermMatches(terms[i], labels, node_name)) {
      return RequiredMatch::kMatch;
    }
  }
  return skipped ? RequiredMatch::kNoMatchWithParseErrors : RequiredMatch::kNoMatch;
}

// util.As[*v1.Node]: the event must carry nodes, and a new one.
absl::Status CheckNodeEvent(const EventObjects& e) {
  if (e.New<api::v1::Node>() == nullptr || e.Old<api::v1::Pod>() != nullptr || e.New<api::v1::Pod>() != nullptr) {
    return absl::InvalidArgumentError("expected a Node event");
  }
  return absl::OkStatus();
}

// --- args ---

// Upstream ValidateNodeAffinityArgs: every term must parse. Term errors come
// as "<path>: <problem>"; repeated ones are reported once.
void ValidateAddedAffinity(const NodeAffinityArgs& args, framework::ArgsErrors& errs) {
  if (!args.added_affinity.has_value()) return;
  const api::v1::NodeAffinity& added = *args.added_affinity;
  std::vector<std::string> errors;
  if (added.has_required_during_scheduling_ignored_during_execution()) {
    const auto& terms = added.required_during_scheduling_ignored_during_execution().node_selector_terms();
    for (int i = 0; i < terms.size(); ++i) {
      if (IsEmptyTerm(terms[i])) continue;
      AppendTermErrors(
          terms[i],
          schedkit::StrCat("addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[", i, "]"),
          errors);
    }
  }
  const auto& preferred = added.preferred_during_scheduling_ignored_during_execution();
  for (int i = 0; i < preferred.size(); ++i) {
    if (preferred[i].weight() == 0 || IsEmptyTerm(preferred[i].preference())) continue;
    AppendTermErrors(preferred[i].preference(),
                     schedkit::StrCat("addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[", i, "]"),
                     errors);
  }
  absl::flat_hash_set<std::string> seen;
  for (const std::string& e : errors) {
    if (!seen.insert(e).second) continue;
    const size_t colon = e.find(": ");
    errs.Add(e.substr(0, colon), colon == std::string::npos ? "" : e.substr(colon + 2));
  }
}

}  // namespace

NodeAffinity::NodeAffinity(std::optional<api::NodeSelector> added_required, bool has_added_preferred,
                           std::vector<WeightedTerm> added_preferred)
    : added_required_(std::move(added_required)),
      has_added_preferred_(has_added_preferred),
      added_preferred_(std::move(added_preferred)) {}

std::string_view NodeAffinity::Name() const { return kPluginName; }

NodeAffinity::Result NodeAffinity::PreFilter(framework::CycleState& state, const framework::PodInfo& pod,
                                             std::span<const framework::NodeInfo* const>) {
  static const Symbol kConflict = Symbol::Intern(kErrReasonConflict);
  if (!pod.has_required_node_affinity() && !added_required_ && !pod.has_node_selector()) {
    return {framework::PreFilterResult{}, framework::Status::Skip()};
  }
  auto s = std::make_unique<PreFilterState>();
  s->mask = RequiredTermMask(pod, nullptr);
  state.Write(PreFilterStateKey(), std::move(s));
  if (!pod.has_required_node_affinity()) return {};

  // Node names a required term pins with matchFields metadata.name In (the
  // requirements of a term intersect, the terms unite). Read from the API
  // object: upstream looks at every term, empty ones included, and at every
  // value of an In.
  const auto& terms = RawRequired(pod).node_selector_terms();
  if (terms.empty()) return {};
  absl::flat_hash_set<Symbol> node_names;
  for (const api::v1::NodeSelectorTerm& term : terms) {
    std::optional<absl::flat_hash_set<Symbol>> term_names;
    for (const api::v1::NodeSelectorRequirement& r : term.match_fields()) {
      if (r.key() != "metadata.name" || r.operator_() != "In") continue;
      absl::flat_hash_set<Symbol> values;
      for (const std::string& v : r.values()) values.insert(Symbol::Intern(v));
      if (!term_names) {
        term_names = std::move(values);
      } else {
        absl::erase_if(*term_names, [&](Symbol n) { return !values.contains(n); });
      }
    }
    // A term that does not pin names lets any node through the OR.
    if (!term_names) return {};
    node_names.insert(term_names->begin(), term_names->end());
  }
  if (node_names.empty()) {
    return {framework::PreFilterResult{}, framework::Status(Code::kUnschedulableAndUnresolvable, kConflict)};
  }
  framework::PreFilterResult result;
  result.node_names = std::move(node_names);
  return {std::move(result), framework::Status()};
}

framework::Status NodeAffinity::Filter(const framework::CycleState& state, const framework::PodInfo& pod,
                                       const framework::NodeInfo& node) const {
  static const Symbol kEnforced = Symbol::Intern(kErrReasonEnforced);
  static const Symbol kPod = Symbol::Intern(kErrReasonPod);
  if (added_required_ && !SelectorMatches(*added_required_, node.labels(), node.name())) {
    return framework::Status(Code::kUnschedulableAndUnresolvable, kEnforced);
  }
  const auto* s = state.Read<PreFilterState>(PreFilterStateKey());
  // Without PreFilter (a profile that disables it) work the mask out here, as
  // upstream re-parses the pod's terms.
  const TermMask mask = s != nullptr ? TermMask{} : RequiredTermMask(pod, nullptr);
  // Parse errors are ignored here, as upstream does: the node just does not match.
  if (MatchRequired(pod, s != nullptr ? s->mask : mask, node.labels(), node.name()) !=
      RequiredMatch::kMatch) {
    return framework::Status(Code::kUnschedulableAndUnresolvable, kPod);
  }
  return framework::Status();
}

framework::Status NodeAffinity::PreScore(framework::CycleState& state, const framework::PodInfo& pod,
                                         std::span<const framework::NodeInfo* const>) {
  const bool pod_has_preferred = !pod.preferred_node_affinity().empty();
  if (pod_has_preferred) {
    if (std::vector<std::string> errors = PreferredTermErrors(pod); !errors.empty()) {
      return framework::Status::Error(AggregateMessage(errors));
    }
  }
  if (!pod_has_preferred && !has_added_preferred_) return framework::Status::Skip();
  state.Write(PreScoreStateKey(), std::make_unique<PreScoreState>());
  return framework::Status();
}

framework::Status NodeAffinity::Score(const framework::CycleState& state, const framework::PodInfo& pod,
                                      const framework::NodeInfo& node, int64_t& score) const {
  int64_t count = 0;
  for (const WeightedTerm& t : added_preferred_) {
    if (TermMatches(t.term, node.labels(), node.name())) count += t.weight;
  }
  if (state.ReadData(PreScoreStateKey()) == nullptr) {
    // PreScore did not run: check the pod's terms here, as upstream re-parses them.
    if (std::vector<std::string> errors = PreferredTermErrors(pod); !errors.empty()) {
      return framework::Status::Error(AggregateMessage(errors));
    }
  }
  for (const framework::PodInfo::PreferredNodeTerm& t : pod.preferred_node_affinity()) {
    // Upstream drops terms without weight and empty preferences (which would
    // otherwise match every node).
    if (t.weight == 0 || (t.term.labels.empty() && t.term.name_fields.empty())) continue;
    if (TermMatches(t.term, node.labels(), node.name())) count += t.weight;
  }
  score = count;
  return framework::Status();
}

framework::Status NodeAffinity::NormalizeScore(const framework::CycleState&, const framework::PodInfo&,
                                               std::span<const framework::NodeInfo* const>,
                                               std::span<int64_t> scores) const {
  kNormalization.Apply(scores);
  return framework::Status();
}

absl::StatusOr<QueueingHint> NodeAffinity::IsSchedulableAfterNodeChange(const framework::PodInfo& pod,
                                                                        const EventObjects& e) const {
  SCHEDKIT_RETURN_IF_ERROR(CheckNodeEvent(e));
  const api::LabelSet new_labels = api::LabelSet::FromMap(e.New<api::v1::Node>()->metadata().labels());
  const Symbol new_name = Symbol::Intern(e.New<api::v1::Node>()->metadata().name());
  if (added_required_ && !SelectorMatches(*added_required_, new_labels, new_name)) return QueueingHint::kSkip;

  std::vector<std::string> errors;
  const TermMask mask = RequiredTermMask(pod, &errors);
  auto match = [&](const api::LabelSet& labels, Symbol name) -> absl::StatusOr<bool> {
    switch (MatchRequired(pod, mask, labels, name)) {
      case RequiredMatch::kMatch:
        return true;
      case RequiredMatch::kNoMatch:
        return false;
      case RequiredMatch::kNoMatchWithParseErrors:
        break;
    }
    return absl::InvalidArgumentError(AggregateMessage(errors));
  };
  SCHEDKIT_ASSIGN_OR_RETURN(const bool matches_now, match(new_labels, new_name));
  if (!matches_now) return QueueingHint::kSkip;
  if (e.Old<api::v1::Node>() == nullptr) return QueueingHint::kQueue;
  // An update helps only if the node did not match before.
  SCHEDKIT_ASSIGN_OR_RETURN(const bool matched_before,
                            match(api::LabelSet::FromMap(e.Old<api::v1::Node>()->metadata().labels()),
                                  Symbol::Intern(e.Old<api::v1::Node>()->metadata().name())));
  return matched_before ? QueueingHint::kSkip : QueueingHint::kQueue;
}

std::vector<framework::ClusterEventWithHint> NodeAffinity::EventsToRegister() const {
  return {
      {{framework::EventResource::Node(), framework::kActionAdd | framework::kActionUpdateNodeLabel, "Node"},
       [this](const framework::PodInfo& pod, const EventObjects& e) {
         return IsSchedulableAfterNodeChange(pod, e);
       }}};
}

const framework::ArgsSpec<NodeAffinityArgs>& NodeAffinityArgsSpec() {
  static const auto* spec = framework::ArgsSpec<NodeAffinityArgs>(std::string(kPluginName))
                                .Field("addedAffinity", &NodeAffinityArgs::added_affinity)
                                .OmitEmpty()
                                .Validate(ValidateAddedAffinity)
                                .Leak();
  return *spec;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewNodeAffinity(const framework::PluginArgs& args,
                                                                   framework::Handle&) {
  SCHEDKIT_ASSIGN_OR_RETURN(NodeAffinityArgs parsed, framework::DecodeArgs(args, NodeAffinityArgsSpec()));
  if (!parsed.added_affinity.has_value()) {
    return std::make_unique<NodeAffinity>(std::nullopt, false, std::vector<NodeAffinity::WeightedTerm>{});
  }
  const api::v1::NodeAffinity& added = *parsed.added_affinity;
  const auto& preferred = added.preferred_during_scheduling_ignored_during_execution();
  framework::ArgsErrors errs;
  std::optional<api::NodeSelector> added_required;
  if (added.has_required_during_scheduling_ignored_during_execution()) {
    auto compiled = api::NodeSelector::Compile(added.required_during_scheduling_ignored_during_execution());
    if (!compiled.ok()) {
      errs.Add("addedAffinity.requiredDuringSchedulingIgnoredDuringExecution", std::string(compiled.status().message()));
      return errs.ToStatus(kPluginName, args);
    }
    added_required = *std::move(compiled);
  }
  std::vector<NodeAffinity::WeightedTerm> added_preferred;
  for (int i = 0; i < preferred.size(); ++i) {
    if (preferred[i].weight() == 0 || IsEmptyTerm(preferred[i].preference())) continue;
    auto term = api::NodeSelector::CompileTerm(preferred[i].preference());
    if (!term.ok()) {
      errs.Add(schedkit::StrCat("addedAffinity.preferredDuringSchedulingIgnoredDuringExecution[", i, "]"),
               std::string(term.status().message()));
      return errs.ToStatus(kPluginName, args);
    }
    added_preferred.push_back({*std::move(term), preferred[i].weight()});
  }
  return std::make_unique<NodeAffinity>(std::move(added_required), !preferred.empty(),
                                        std::move(added_preferred));
}

framework::Status NodeAffinity::SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const {
  signature.Add(framework::kNodeAffinitySigner, NodeAffinitySignature(pod));
  signature.Add(framework::kNodeSelectorSigner, NodeSelectorSignature(pod));
  return framework::Status();
}

}  // namespace schedkit::plugins
