// InterPodAffinity: args, construction, topology counts and queueing hints.
#include "plugins/interpodaffinity/inter_pod_affinity.h"

#include <algorithm>
#include <string>
#include <vector>

#include "plugins/internal/args.h"
#include "plugins/internal/signers.h"
#include "plugins/interpodaffinity/hit_sums.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using framework::AffinityTerm;
using framework::EventObjects;
using framework::QueueingHint;

constexpr std::string_view kName = names::kInterPodAffinity;
constexpr int64_t kMinHardPodAffinityWeight = 0;
constexpr int64_t kMaxHardPodAffinityWeight = 100;

// Upstream podMatchesAllAffinityTerms on an event's pod object, with the
// terms as compiled from the pod spec and no namespace labels.
// A term matches a pod by its namespace and labels; the incoming pod's
// namespace selector is not merged here, so it matches against no labels (as
// upstream's hints pass none).
bool TermMatches(const AffinityTerm& t, Symbol ns, const api::LabelSet& labels) {
  static const api::LabelSet kNoLabels;
  const bool namespace_ok = t.HasNamespace(ns) || t.namespace_selector.Matches(kNoLabels);
  return namespace_ok && t.selector.Matches(labels);
}

// Upstream's podMatchesAnyAffinityTerms (anti-affinity, since v1.37).
bool MatchesAnyTerm(const std::vector<AffinityTerm>& terms, const api::v1::Pod& pod) {
  const Symbol ns = Symbol::Intern(pod.metadata().namespace_());
  const api::LabelSet labels = api::LabelSet::FromMap(pod.metadata().labels());
  for (const AffinityTerm& t : terms) {
    if (TermMatches(t, ns, labels)) return true;
  }
  return false;
}

bool MatchesAllTerms(const std::vector<AffinityTerm>& terms, const api::v1::Pod& pod) {
  if (terms.empty()) return false;
  const Symbol ns = Symbol::Intern(pod.metadata().namespace_());
  const api::LabelSet labels = api::LabelSet::FromMap(pod.metadata().labels());
  for (const AffinityTerm& t : terms) {
    if (!TermMatches(t, ns, labels)) return false;
  }
  return true;
}

// The value of label `key` on `node`, if present.
const std::string* NodeLabel(const api::v1::Node& node, Symbol key) {
  const auto& labels = node.metadata().labels();
  auto it = labels.find(std::string(key.str()));
  return it == labels.end() ? nullptr : &it->second;
}

}  // namespace

namespace interpodaffinity {

TopologyCounts::Table& TopologyCounts::Mutable() {
  // A count of 1 means no other TopologyCounts can be reading the table:
  // another one would hold a reference of its own.
  if (table_ == nullptr) {
    table_ = std::make_shared<Table>();
  } else if (table_.use_count() > 1) {
    table_ = std::make_shared<Table>(*table_);
  }
  return *table_;
}

const absl::InlinedVector<Symbol, 4>& TopologyCounts::keys() const {
  static const absl::InlinedVector<Symbol, 4> kNone;
  return table_ == nullptr ? kNone : table_->keys;
}

void TopologyCounts::Add(Symbol key, Symbol value, int64_t delta) {
  Table& t = Mutable();
  auto [it, inserted] = t.counts.try_emplace(Pack(key, value), Entry{key, value, 0});
  it->second.count += delta;
  if (!inserted) return;
  if (std::find(t.keys.begin(), t.keys.end(), key) == t.keys.end()) t.keys.push_back(key);
  const size_t word = value.id() / 64;
  if (word >= t.values.size()) t.values.resize(word + 1, 0);
  t.values[word] |= uint64_t{1} << (value.id() % 64);
}

void TopologyCounts::Update(Symbol key, Symbol value, int64_t delta) {
  Add(key, value, delta);
  Table& t = *table_;
  if (auto it = t.counts.find(Pack(key, value)); it->second.count == 0) t.counts.erase(it);
}

std::map<std::pair<std::string, std::string>, int64_t> TopologyCounts::ToMap() const {
  std::map<std::pair<std::string, std::string>, int64_t> out;
  if (table_ == nullptr) return out;
  for (const auto& [packed, e] : table_->counts) {
    out[{std::string(e.key.str()), std::string(e.value.str())}] = e.count;
  }
  return out;
}

bool operator==(const TopologyCounts& a, const TopologyCounts& b) {
  if (a.size() != b.size()) return false;
  if (a.empty()) return true;
  for (const auto& [packed, e] : a.table_->counts) {
    auto it = b.table_->counts.find(packed);
    if (it == b.table_->counts.end() || it->second.count != e.count) return false;
  }
  return true;
}

}  // namespace interpodaffinity

const framework::ArgsSpec<InterPodAffinityArgs>& InterPodAffinityArgsSpec() {
  static const auto* spec =
      framework::ArgsSpec<InterPodAffinityArgs>(std::string(kName))
          .Field("hardPodAffinityWeight", &InterPodAffinityArgs::hard_pod_affinity_weight)
          .Field("ignorePreferredTermsOfExistingPods", &InterPodAffinityArgs::ignore_preferred_terms_of_existing_pods)
          .Validate([](const InterPodAffinityArgs& a, framework::ArgsErrors& errs) {
            if (a.hard_pod_affinity_weight < kMinHardPodAffinityWeight ||
                a.hard_pod_affinity_weight > kMaxHardPodAffinityWeight) {
              errs.Invalid("hardPodAffinityWeight", a.hard_pod_affinity_weight,
                           schedkit::StrCat("not in valid range [", kMinHardPodAffinityWeight, ", ",
                                            kMaxHardPodAffinityWeight, "]"));
            }
          })
          .Leak();
  return *spec;
}

absl::StatusOr<InterPodAffinityArgs> ParseInterPodAffinityArgs(const framework::PluginArgs& args) {
  return framework::DecodeArgs(args, InterPodAffinityArgsSpec());
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewInterPodAffinity(const framework::PluginArgs& args,
                                                                       framework::Handle& handle) {
  SCHEDKIT_ASSIGN_OR_RETURN(InterPodAffinityArgs parsed, ParseInterPodAffinityArgs(args));
  return std::make_unique<InterPodAffinity>(parsed, handle);
}

InterPodAffinity::InterPodAffinity(InterPodAffinityArgs args, framework::Handle& handle)
    : args_(args), handle_(handle), caches_(std::make_unique<Caches>()) {}

InterPodAffinity::~InterPodAffinity() = default;

std::string_view InterPodAffinity::Name() const { return kName; }

std::vector<framework::ClusterEventWithHint> InterPodAffinity::EventsToRegister() const {
  return {
      // An assigned pod added (may satisfy affinity), relabelled, or deleted
      // (may lift anti-affinity).
      {{framework::EventResource::AssignedPod(),
        framework::kActionAdd | framework::kActionUpdatePodLabel | framework::kActionDelete, "AssignedPod"},
       &InterPodAffinity::IsSchedulableAfterPodChange},
      // The pod's own new labels (v1.37): another pod's anti-affinity may no
      // longer select it.
      {{framework::EventResource::TargetPod(), framework::kActionUpdatePodLabel, "TargetPodUpdatePodLabel"},
       [](const framework::PodInfo&, const EventObjects&) -> absl::StatusOr<QueueingHint> {
         return QueueingHint::kQueue;
       }},
      {{framework::EventResource::Node(), framework::kActionAdd | framework::kActionUpdateNodeLabel, "Node"},
       &InterPodAffinity::IsSchedulableAfterNodeChange},
  };
}

absl::StatusOr<QueueingHint> InterPodAffinity::IsSchedulableAfterPodChange(const framework::PodInfo& pod,
                                                                           const EventObjects& event) {
  const api::v1::Pod* original = event.Old<api::v1::Pod>();
  const api::v1::Pod* modified = event.New<api::v1::Pod>();
  if (original == nullptr && modified == nullptr) {
    return absl::InvalidArgumentError("InterPodAffinity: pod event without a pod");
  }
  // A pod neither on a node nor nominated to one cannot change where this
  // one fits.
  auto placed = [](const api::v1::Pod& p) {
    return !p.spec().node_name().empty() || !p.status().nominated_node_name().empty();
  };
  if ((modified != nullptr && !placed(*modified)) || (original != nullptr && !placed(*original))) {
    return QueueingHint::kSkip;
  }
  const auto& terms = pod.required_affinity_terms();
  const auto& anti_terms = pod.required_anti_affinity_terms();

  if (original != nullptr && modified != nullptr) {
    // One existing pod must satisfy all the affinity terms, so an update helps
    // only when the pod starts matching them all, or stops matching the
    // anti-affinity terms.
    if (!MatchesAllTerms(terms, *original) && MatchesAllTerms(terms, *modified)) return QueueingHint::kQueue;
    // Anti-affinity rejects on any one term (v1.37; v1.35 asked for all).
    if (MatchesAnyTerm(anti_terms, *original) && !MatchesAnyTerm(anti_terms, *modified)) {
      return QueueingHint::kQueue;
    }
    return QueueingHint::kSkip;
  }
  if (modified != nullptr) {
    return MatchesAllTerms(terms, *modified) ? QueueingHint::kQueue : QueueingHint::kSkip;
  }
  if (MatchesAnyTerm(anti_terms, *original)) return QueueingHint::kQueue;
  // The deleted pod's own anti-affinity may have kept this one away (v1.37).
  auto deleted = framework::PodInfo::Create(*original);
  if (!deleted.ok()) return deleted.status();
  return MatchesAnyTerm((*deleted)->required_anti_affinity_terms(), pod.pod()) ? QueueingHint::kQueue
                                                                                : QueueingHint::kSkip;
}

absl::StatusOr<QueueingHint> InterPodAffinity::IsSchedulableAfterNodeChange(const framework::PodInfo& pod,
                                                                            const EventObjects& event) {
  const api::v1::Node* original = event.Old<api::v1::Node>();
  const api::v1::Node* modified = event.New<api::v1::Node>();
  if (modified == nullptr)
    return absl::InvalidArgumentError("InterPodAffinity: node event without a new node");

  // Affinity: a node that gains the topology key, or moves to another
  // domain of it, may now be next to a matching pod.
  for (const AffinityTerm& term : pod.required_affinity_terms()) {
    const std::string* modified_value = NodeLabel(*modified, term.topology_key);
    if (original == nullptr) {
      if (modified_value != nullptr) return QueueingHint::kQueue;
      continue;
    }
    const std::string* original_value = NodeLabel(*original, term.topology_key);
    if (original_value == nullptr && modified_value != nullptr) return QueueingHint::kQueue;
    if (original_value != nullptr && modified_value != nullptr && *original_value != *modified_value) {
      return QueueingHint::kQueue;
    }
  }

  // Anti-affinity: any new node may help (a node without the key always
  // accepts); so may a node that loses the key or changes domain.
  for (const AffinityTerm& term : pod.required_anti_affinity_terms()) {
    if (original == nullptr) return QueueingHint::kQueue;
    const std::string* original_value = NodeLabel(*original, term.topology_key);
    const std::string* modified_value = NodeLabel(*modified, term.topology_key);
    if (original_value != nullptr && modified_value == nullptr) return QueueingHint::kQueue;
    if (original_value != nullptr && modified_value != nullptr && *original_value != *modified_value) {
      return QueueingHint::kQueue;
    }
  }
  return QueueingHint::kSkip;
}

framework::Status InterPodAffinity::SignPod(const framework::PodInfo& pod, framework::BatchSignatureBuilder& signature) const {
  const api::v1::PodSpec& spec = pod.pod().spec();
  if (spec.has_affinity() && (spec.affinity().has_pod_affinity() || spec.affinity().has_pod_anti_affinity())) {
    return framework::Status::WithText(framework::Code::kUnschedulable, "pods with InterPodAffinity are not signable");
  }
  // Without the existing pods' preferred terms, only pods with affinity
  // terms of their own (declined above) are matched against others' labels.
  if (!args_.ignore_preferred_terms_of_existing_pods) signature.Add(framework::kLabelsSigner, LabelsSignature(pod));
  return framework::Status();
}

}  // namespace schedkit::plugins
