#include "plugins/podtopologyspread/pod_topology_spread.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "google/protobuf/util/message_differencer.h"
#include "api/apimachinery_validation.h"
#include "plugins/internal/default_selector.h"
#include "plugins/podtopologyspread/common.h"
#include "plugins/podtopologyspread/domain_counts.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/base/well_known.h"
#include "schedkit/plugins/names.h"

namespace schedkit::plugins {
namespace {

using framework::QueueingHint;
using framework::SpreadConstraint;
using podtopologyspread_internal::NodeHasAllTopologyKeys;

constexpr std::string_view kPlugin = names::kPodTopologySpread;

// ---------------------------------------------------------------------------
// Args

// v1.TopologySpreadConstraint as the args write it, before validation.
struct WrittenConstraint {
  int32_t max_skew = 0;
  std::string topology_key;
  std::string when_unsatisfiable;
  std::optional<framework::RawJson> label_selector;
  std::optional<int32_t> min_domains;
  std::optional<std::string> node_affinity_policy;
  std::optional<std::string> node_taints_policy;
  std::vector<std::string> match_label_keys;
};

struct WrittenArgs {
  std::vector<WrittenConstraint> default_constraints;
  std::string defaulting_type;
};

// Upstream ValidatePodTopologySpreadArgs: defaultingType, then each
// constraint in order; every problem is reported.
void ValidateWrittenArgs(const WrittenArgs& a, framework::ArgsErrors& errs) {
  static constexpr std::string_view kDefaultingTypes[] = {"System", "List"};
  static constexpr std::string_view kWhens[] = {"DoNotSchedule", "ScheduleAnyway"};
  if (a.defaulting_type != "System" && a.defaulting_type != "List") {
    errs.NotSupported("defaultingType", a.defaulting_type, kDefaultingTypes);
  } else if (a.defaulting_type == "System" && !a.default_constraints.empty()) {
    errs.Invalid("defaultingType", a.defaulting_type, "when .defaultConstraints are not empty");
  }
  for (size_t i = 0; i < a.default_constraints.size(); ++i) {
    const WrittenConstraint& c = a.default_constraints[i];
    const std::string path = framework::ArgsPath("defaultConstraints", i);
    if (c.max_skew <= 0) {
      errs.Invalid(framework::ArgsPath(path, "maxSkew"), c.max_skew, "not in valid range (0, inf)");
    }
    if (c.topology_key.empty()) {
      errs.Required(framework::ArgsPath(path, "topologyKey"), "can not be empty");
    } else {
      for (const std::string& problem : api::internal::LabelKeyErrors(c.topology_key)) {
        errs.Invalid(framework::ArgsPath(path, "topologyKey"), c.topology_key, problem);
      }
    }
    if (c.when_unsatisfiable.empty()) {
      errs.Required(framework::ArgsPath(path, "whenUnsatisfiable"), "can not be empty");
    } else if (c.when_unsatisfiable != "DoNotSchedule" && c.when_unsatisfiable != "ScheduleAnyway") {
      errs.NotSupported(framework::ArgsPath(path, "whenUnsatisfiable"), c.when_unsatisfiable, kWhens);
    }
    if (c.label_selector.has_value()) {
      errs.Forbidden(framework::ArgsPath(path, "labelSelector"),
                     "constraint must not define a selector, as they deduced for each pod");
    }
    for (size_t j = 0; j < i; ++j) {
      const WrittenConstraint& earlier = a.default_constraints[j];
      if (earlier.topology_key == c.topology_key && earlier.when_unsatisfiable == c.when_unsatisfiable) {
        errs.Add(path, schedkit::StrCat("Duplicate value: \"{", c.topology_key, ", ", c.when_unsatisfiable, "}\""));
        break;
      }
    }
  }
}

const framework::ArgsSpec<WrittenConstraint>& ConstraintSpec() {
  static const auto* spec = framework::ArgsSpec<WrittenConstraint>("TopologySpreadConstraint")
                                .Field("maxSkew", &WrittenConstraint::max_skew)
                                .Field("topologyKey", &WrittenConstraint::topology_key)
                                .Field("whenUnsatisfiable", &WrittenConstraint::when_unsatisfiable)
                                .Field("labelSelector", &WrittenConstraint::label_selector)
                                .OmitEmpty()
                                .Field("minDomains", &WrittenConstraint::min_domains)
                                .OmitEmpty()
                                .Field("nodeAffinityPolicy", &WrittenConstraint::node_affinity_policy)
                                .OmitEmpty()
                                .Field("nodeTaintsPolicy", &WrittenConstraint::node_taints_policy)
                                .OmitEmpty()
                                .Field("matchLabelKeys", &WrittenConstraint::match_label_keys)
                                .OmitEmpty()
                                .Leak();
  return *spec;
}

const framework::ArgsSpec<WrittenArgs>& WrittenArgsSpec() {
  static const auto* spec =
      framework::ArgsSpec<WrittenArgs>(std::string(kPlugin))
          .Field("defaultConstraints", &WrittenArgs::default_constraints, ConstraintSpec())
          .OmitEmpty()
          .Field("defaultingType", &WrittenArgs::defaulting_type)
          .OmitEmpty()
          .Defaults([](WrittenArgs& a) {
            if (a.defaulting_type.empty()) a.defaulting_type = "System";
          })
          .Validate(ValidateWrittenArgs)
          .Leak();
  return *spec;
}

SpreadConstraint Compile(const WrittenConstraint& w) {
  SpreadConstraint c;
  c.max_skew = w.max_skew;
  c.min_domains_set = w.min_domains.has_value();
  c.min_domains = w.min_domains.value_or(1);
  // As decoded from v1: a set policy is kept as given; only "Honor" honors.
  if (w.node_affinity_policy) c.node_affinity_policy = *w.node_affinity_policy == "Honor" ? 1 : 0;
  if (w.node_taints_policy) c.node_taints_policy = *w.node_taints_policy == "Honor" ? 1 : 0;
  for (const std::string& k : w.match_label_keys) c.match_label_keys.push_back(Symbol::Intern(k));
  c.topology_key = Symbol::Intern(w.topology_key);
  c.do_not_schedule = w.when_unsatisfiable == "DoNotSchedule";
  return c;
}

// The built-in defaults of defaultingType System.
const std::vector<SpreadConstraint>& SystemDefaultConstraints() {
  static const std::vector<SpreadConstraint>* const kConstraints = [] {
    auto* v = new std::vector<SpreadConstraint>(2);
    (*v)[0].max_skew = 3;
    (*v)[0].topology_key = schedkit::well_known::LabelHostname();
    (*v)[0].do_not_schedule = false;
    (*v)[1].max_skew = 5;
    (*v)[1].topology_key = schedkit::well_known::LabelTopologyZone();
    (*v)[1].do_not_schedule = false;
    return v;
  }();
  return *kConstraints;
}

// ---------------------------------------------------------------------------
// Queueing hints

// Upstream's involvedInTopologySpreading (v1.37): a bound or nominated pod
// of the same namespace.
bool InvolvedInTopologySpreading(const api::v1::Pod& incoming, const framework::PodInfo& pod_with_spreading) {
  if (incoming.spec().node_name().empty() && incoming.status().nominated_node_name().empty()) return false;
  return incoming.metadata().namespace_() == pod_with_spreading.namespace_().str();
}

// Upstream's isSchedulableAfterPodLabelChange.
QueueingHint AfterLabelChange(const api::v1::Pod& old_pod, const api::v1::Pod& new_pod,
                              const std::vector<PodTopologySpread::Constraint>& constraints) {
  const api::LabelSet old_labels = api::LabelSet::FromMap(old_pod.metadata().labels());
  const api::LabelSet new_labels = api::LabelSet::FromMap(new_pod.metadata().labels());
  if (old_labels == new_labels) return QueueingHint::kSkip;
  for (const auto& c : constraints) {
    if (c.selector.Matches(old_labels) != c.selector.Matches(new_labels)) return QueueingHint::kQueue;
  }
  return QueueingHint::kSkip;
}

template <typename Repeated>
bool RepeatedMessagesEqual(const Repeated& a, const Repeated& b) {
  if (a.size() != b.size()) return false;
  for (int i = 0; i < a.size(); ++i) {
    if (!google::protobuf::util::MessageDifferencer::Equals(a[i], b[i])) return false;
  }
  return true;
}

bool PodLabelsMatchSpreadConstraints(const std::vector<PodTopologySpread::Constraint>& constraints,
                                     const api::LabelSet& labels) {
  for (const auto& c : constraints) {
    if (c.selector.Matches(labels)) return true;
  }
  return false;
}

bool TopologyKeyLabelsChanged(const api::LabelSet& original, const api::LabelSet& modified,
                              const std::vector<PodTopologySpread::Constraint>& constraints) {
  for (const auto& c : constraints) {
    // A missing label reads as "", as a Go map lookup does.
    if (original.Get(c.topology_key).value_or(Symbol()) != modified.Get(c.topology_key).value_or(Symbol())) {
      return true;
    }
  }
  return false;
}

}  // namespace

absl::StatusOr<std::string> DefaultedPodTopologySpreadArgs(const framework::PluginArgs& args) {
  return framework::DefaultedArgs(args, WrittenArgsSpec());
}

absl::StatusOr<PodTopologySpreadArgs> ParsePodTopologySpreadArgs(const framework::PluginArgs& args) {
  SCHEDKIT_ASSIGN_OR_RETURN(WrittenArgs written, framework::DecodeArgs(args, WrittenArgsSpec()));
  PodTopologySpreadArgs out;
  out.system_defaulting = written.defaulting_type == "System";
  for (const WrittenConstraint& w : written.default_constraints) out.default_constraints.push_back(Compile(w));
  return out;
}

// ---------------------------------------------------------------------------
// Plugin

Symbol PodTopologySpread::PreFilterStateKey() {
  static const Symbol kKey = Symbol::Intern("PreFilterPodTopologySpread");
  return kKey;
}

Symbol PodTopologySpread::PreScoreStateKey() {
  static const Symbol kKey = Symbol::Intern("PreScorePodTopologySpread");
  return kKey;
}

PodTopologySpread::PodTopologySpread(PodTopologySpreadArgs args, PodTopologySpreadOptions options,
                                     framework::Handle& handle)
    : handle_(handle),
      domain_counts_(std::make_unique<podtopologyspread_internal::DomainCountsCache>()),
      options_(std::move(options)),
      default_constraints_(std::move(args.default_constraints)) {
  if (args.system_defaulting) {
    default_constraints_ = SystemDefaultConstraints();
    system_defaulted_ = true;
  }
}

PodTopologySpread::~PodTopologySpread() = default;

bool PodTopologySpread::CanUseDomainCounts(const framework::PodInfo& pod,
                                           const std::vector<Constraint>& constraints) const {
  if (!options_.keep_counts_across_cycles) return false;
  if (pod.has_node_selector() || pod.has_required_node_affinity()) return false;
  if (!options_.enable_node_inclusion_policy) return true;
  return std::none_of(constraints.begin(), constraints.end(),
                      [](const Constraint& c) { return c.honor_node_taints; });
}

std::string_view PodTopologySpread::Name() const { return kPlugin; }

std::vector<PodTopologySpread::Constraint> PodTopologySpread::FilterConstraints(
    const std::vector<SpreadConstraint>& constraints, const api::LabelSet& pod_labels,
    bool do_not_schedule) const {
  std::vector<Constraint> out;
  for (const SpreadConstraint& c : constraints) {
    if (c.do_not_schedule != do_not_schedule) continue;
    Constraint tsc;
    tsc.max_skew = c.max_skew;
    tsc.topology_key = c.topology_key;
    tsc.selector = c.selector;
    // matchLabelKeys: the pod's values for those keys are ANDed into the
    // selector; a nil selector stays "nothing".
    if (options_.enable_match_label_keys && !c.match_label_keys.empty() && !c.selector.MatchesNothing()) {
      api::LabelSelector merged = api::LabelSelector::Everything();
      std::vector<Symbol> seen;
      for (Symbol key : c.match_label_keys) {
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
        seen.push_back(key);
        if (std::optional<Symbol> value = pod_labels.Get(key)) {
          merged.AddRequirement(api::LabelRequirement{key, api::SelectorOp::kIn, {*value}, 0});
        }
      }
      if (!merged.requirements().empty()) {
        for (const api::LabelRequirement& r : c.selector.requirements()) merged.AddRequirement(r);
        tsc.selector = std::move(merged);
      }
    }
    tsc.min_domains = c.min_domains_set ? c.min_domains : 1;
    if (options_.enable_node_inclusion_policy) {
      if (c.node_affinity_policy >= 0) tsc.honor_node_affinity = c.node_affinity_policy == 1;
      if (c.node_taints_policy >= 0) tsc.honor_node_taints = c.node_taints_policy == 1;
    }
    out.push_back(std::move(tsc));
  }
  return out;
}

std::vector<PodTopologySpread::Constraint> PodTopologySpread::BuildDefaultConstraints(
    const framework::PodInfo& pod, bool do_not_schedule) const {
  std::vector<Constraint> constraints =
      FilterConstraints(default_constraints_, pod.labels(), do_not_schedule);
  if (constraints.empty()) return constraints;
  api::LabelSelector selector =
      options_.default_selector ? options_.default_selector(pod) : api::LabelSelector::Everything();
  if (selector.IsEverything()) return {};
  for (Constraint& c : constraints) c.selector = selector;
  return constraints;
}

std::vector<PodTopologySpread::Constraint> PodTopologySpread::GetConstraints(const framework::PodInfo& pod,
                                                                             bool do_not_schedule) const {
  std::vector<Constraint> constraints =
      pod.spread_constraints().empty()
          ? BuildDefaultConstraints(pod, do_not_schedule)
          : FilterConstraints(pod.spread_constraints(), pod.labels(), do_not_schedule);
  const Symbol hostname = schedkit::well_known::LabelHostname();
  const Symbol zone = schedkit::well_known::LabelTopologyZone();
  for (Constraint& c : constraints) {
    c.counts_pods = !c.selector.IsEverything();
    c.is_hostname = c.topology_key == hostname;
    c.is_zone = c.topology_key == zone;
    c.pod_matches = c.selector.Matches(pod.labels());
  }
  return constraints;
}

std::vector<framework::ClusterEventWithHint> PodTopologySpread::EventsToRegister() const {
  using framework::EventObjects;
  using framework::PodInfo;
  const framework::ActionType node_actions = framework::kActionAdd | framework::kActionDelete |
                                             framework::kActionUpdateNodeLabel |
                                             framework::kActionUpdateNodeTaint;
  return {
      {{framework::EventResource::AssignedPod(),
        framework::kActionAdd | framework::kActionUpdatePodLabel | framework::kActionDelete, "AssignedPod"},
       [this](const PodInfo& pod, const EventObjects& e) {
         return IsSchedulableAfterAssignedPodChange(pod, e.Old<api::v1::Pod>(), e.New<api::v1::Pod>());
       }},
      // The pod's own new toleration helps a NodeTaintsPolicy: Honor
      // constraint; its own new labels may change what it matches.
      {{framework::EventResource::TargetPod(), framework::kActionUpdatePodToleration | framework::kActionUpdatePodLabel,
        "TargetPod"},
       [this](const PodInfo& pod, const EventObjects& e) -> absl::StatusOr<QueueingHint> {
         if (e.Old<api::v1::Pod>() == nullptr || e.New<api::v1::Pod>() == nullptr) {
           return absl::InvalidArgumentError("PodTopologySpread: target pod event without both pods");
         }
         return IsSchedulableAfterTargetPodChange(pod, *e.Old<api::v1::Pod>(), *e.New<api::v1::Pod>());
       }},
      {{framework::EventResource::Node(), node_actions, "Node"},
       [this](const PodInfo& pod, const EventObjects& e) {
         return IsSchedulableAfterNodeChange(pod, e.Old<api::v1::Node>(), e.New<api::v1::Node>());
       }},
  };
}

absl::StatusOr<QueueingHint> PodTopologySpread::IsSchedulableAfterPodChange(
    const framework::PodInfo& pod, const api::v1::Pod* old_pod, const api::v1::Pod* new_pod) const {
  if (old_pod != nullptr && new_pod != nullptr && new_pod->metadata().uid() == pod.uid()) {
    return IsSchedulableAfterTargetPodChange(pod, *old_pod, *new_pod);
  }
  return IsSchedulableAfterAssignedPodChange(pod, old_pod, new_pod);
}

absl::StatusOr<QueueingHint> PodTopologySpread::IsSchedulableAfterTargetPodChange(
    const framework::PodInfo& pod, const api::v1::Pod& old_pod, const api::v1::Pod& new_pod) const {
  const std::vector<Constraint> constraints = GetConstraints(pod, /*do_not_schedule=*/true);
  if (!RepeatedMessagesEqual(new_pod.spec().tolerations(), old_pod.spec().tolerations())) {
    for (const Constraint& c : constraints) {
      if (c.honor_node_taints) return QueueingHint::kQueue;
    }
  }
  return AfterLabelChange(old_pod, new_pod, constraints);
}

absl::StatusOr<QueueingHint> PodTopologySpread::IsSchedulableAfterAssignedPodChange(
    const framework::PodInfo& pod, const api::v1::Pod* old_pod, const api::v1::Pod* new_pod) const {
  if (old_pod == nullptr && new_pod == nullptr) {
    return absl::InvalidArgumentError("PodTopologySpread: pod event without a pod");
  }
  if ((new_pod != nullptr && !InvolvedInTopologySpreading(*new_pod, pod)) ||
      (old_pod != nullptr && !InvolvedInTopologySpreading(*old_pod, pod))) {
    return QueueingHint::kSkip;
  }
  const std::vector<Constraint> constraints = GetConstraints(pod, /*do_not_schedule=*/true);
  if (new_pod != nullptr && old_pod != nullptr) return AfterLabelChange(*old_pod, *new_pod, constraints);
  const api::v1::Pod& changed = new_pod != nullptr ? *new_pod : *old_pod;
  return PodLabelsMatchSpreadConstraints(constraints, api::LabelSet::FromMap(changed.metadata().labels()))
             ? QueueingHint::kQueue
             : QueueingHint::kSkip;
}

absl::StatusOr<QueueingHint> PodTopologySpread::IsSchedulableAfterNodeChange(
    const framework::PodInfo& pod, const api::v1::Node* old_node, const api::v1::Node* new_node) const {
  if (old_node == nullptr && new_node == nullptr) {
    return absl::InvalidArgumentError("PodTopologySpread: node event without a node");
  }
  const std::vector<Constraint> constraints = GetConstraints(pod, /*do_not_schedule=*/true);
  api::LabelSet old_labels, new_labels;
  bool old_matching = false, new_matching = false;
  if (old_node != nullptr) {
    old_labels = api::LabelSet::FromMap(old_node->metadata().labels());
    old_matching = NodeHasAllTopologyKeys(old_labels, constraints);
  }
  if (new_node != nullptr) {
    new_labels = api::LabelSet::FromMap(new_node->metadata().labels());
    new_matching = NodeHasAllTopologyKeys(new_labels, constraints);
  }
  if (old_node != nullptr && new_node != nullptr) {
    if (old_matching != new_matching) return QueueingHint::kQueue;
    if (new_matching && (TopologyKeyLabelsChanged(old_labels, new_labels, constraints) ||
                         !RepeatedMessagesEqual(old_node->spec().taints(), new_node->spec().taints()))) {
      return QueueingHint::kQueue;
    }
    return QueueingHint::kSkip;
  }
  if (new_node != nullptr) return new_matching ? QueueingHint::kQueue : QueueingHint::kSkip;
  return old_matching ? QueueingHint::kQueue : QueueingHint::kSkip;
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewPodTopologySpreadWithOptions(
    const framework::PluginArgs& args, framework::Handle& handle, PodTopologySpreadOptions options) {
  SCHEDKIT_ASSIGN_OR_RETURN(PodTopologySpreadArgs parsed, ParsePodTopologySpreadArgs(args));
  return std::make_unique<PodTopologySpread>(std::move(parsed), std::move(options), handle);
}

absl::StatusOr<std::unique_ptr<framework::Plugin>> NewPodTopologySpread(const framework::PluginArgs& args,
                                                                        framework::Handle& handle) {
  PodTopologySpreadOptions options;
  // Off, upstream's plugin reads no constraint's matchLabelKeys.
  options.enable_match_label_keys = args.gates().Enabled("MatchLabelKeysInPodTopologySpread");
  // The workloads come from the host through the Handle's object listers, as
  // upstream's listers come from its informers; the Handle outlives the plugin.
  options.default_selector = [&handle](const framework::PodInfo& pod) {
    return internal::DefaultSelector(pod, handle.objects());
  };
  return NewPodTopologySpreadWithOptions(args, handle, std::move(options));
}

namespace podtopologyspread_internal {

// The fdlibm-derived algorithm Go's math.Log uses (its amd64 assembly does
// the same operations in the same order): reduce x to f1 * 2^k with f1 in
// [sqrt(2)/2, sqrt(2)), then a polynomial in s = f / (2 + f), f = f1 - 1.
// Valid for positive finite x, all this plugin needs.
double GoLog(double x) {
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  constexpr double kL1 = 6.666666666666735130e-01;
  constexpr double kL2 = 3.999999999940941908e-01;
  constexpr double kL3 = 2.857142874366239149e-01;
  constexpr double kL4 = 2.222219843214978396e-01;
  constexpr double kL5 = 1.818357216161805012e-01;
  constexpr double kL6 = 1.531383769920937332e-01;
  constexpr double kL7 = 1.479819860511658591e-01;
  constexpr double kHalfSqrt2 = 7.07106781186547524401e-01;

  int exponent = 0;
  double f1 = std::frexp(x, &exponent);
  if (f1 < kHalfSqrt2) {
    f1 *= 2;
    --exponent;
  }
  const double f = f1 - 1;
  const double k = static_cast<double>(exponent);
  const double s = f / (2 + f);
  const double s2 = s * s;
  const double s4 = s2 * s2;
  const double t1 = s2 * (kL1 + s4 * (kL3 + s4 * (kL5 + s4 * kL7)));
  const double t2 = s4 * (kL2 + s4 * (kL4 + s4 * kL6));
  const double r = t1 + t2;
  const double hfsq = 0.5 * f * f;
  return k * kLn2Hi - ((hfsq - (s * (hfsq + r) + k * kLn2Lo)) - f);
}

double TopologyNormalizingWeight(int64_t size) { return GoLog(static_cast<double>(size + 2)); }

}  // namespace podtopologyspread_internal

framework::Status PodTopologySpread::SignPod(const framework::PodInfo& pod,
                                             framework::BatchSignatureBuilder& /*signature*/) const {
  if (pod.pod().spec().topology_spread_constraints_size() > 0) {
    return framework::Status::WithText(framework::Code::kUnschedulable, "pods with topology constraints are not signable");
  }
  // System defaulting counts too: its constraints are default constraints.
  if (!default_constraints_.empty()) {
    return framework::Status::WithText(framework::Code::kUnschedulable,
                                       "pods with default topology constraints are not signable");
  }
  return framework::Status();
}

}  // namespace schedkit::plugins
