#include "schedkit/framework/pod_info.h"

#include <algorithm>
#include <cstddef>
#include <string_view>

#include "absl/hash/hash.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "api/validate.h"
#include "framework/affinity_label_keys.h"
#include "framework/host_ports.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/base/well_known.h"

namespace schedkit::framework {
namespace {

TaintEffect ParseEffect(const std::string& effect) {
  if (effect == "NoSchedule") return TaintEffect::kNoSchedule;
  if (effect == "PreferNoSchedule") return TaintEffect::kPreferNoSchedule;
  if (effect == "NoExecute") return TaintEffect::kNoExecute;
  return TaintEffect::kAll;
}

Protocol ParseProtocol(const std::string& p) {
  if (p == "UDP") return Protocol::kUDP;
  if (p == "SCTP") return Protocol::kSCTP;
  return Protocol::kTCP;
}

absl::StatusOr<AffinityTerm> CompileTerm(const api::v1::PodAffinityTerm& t, Symbol own_namespace) {
  AffinityTerm out;
  SCHEDKIT_ASSIGN_OR_RETURN(out.selector,
                            api::LabelSelector::CompileOptional(t.has_label_selector(), t.label_selector()));
  AffinityLabelKeys::Note(out.selector);
  SCHEDKIT_ASSIGN_OR_RETURN(out.namespace_selector, api::LabelSelector::CompileOptional(
                                                        t.has_namespace_selector(), t.namespace_selector()));
  out.topology_key = Symbol::Intern(t.topology_key());
  if (t.namespaces().empty() && !t.has_namespace_selector()) {
    out.namespaces.push_back(own_namespace);
  } else {
    for (const std::string& ns : t.namespaces()) out.namespaces.push_back(Symbol::Intern(ns));
    std::sort(out.namespaces.begin(), out.namespaces.end());
    out.namespaces.erase(std::unique(out.namespaces.begin(), out.namespaces.end()), out.namespaces.end());
  }
  return out;
}

template <typename Terms>
absl::Status CompileRequired(const Terms& terms, Symbol ns, std::string_view path,
                             std::vector<AffinityTerm>& out) {
  for (int i = 0; i < terms.size(); ++i) {
    auto t = CompileTerm(terms[i], ns);
    if (!t.ok()) return absl::InvalidArgumentError(schedkit::StrCat(path, "[", i, "]: ", t.status().message()));
    out.push_back(*std::move(t));
  }
  return absl::OkStatus();
}

template <typename Terms>
absl::Status CompilePreferred(const Terms& terms, Symbol ns, std::string_view path,
                              std::vector<WeightedAffinityTerm>& out) {
  for (int i = 0; i < terms.size(); ++i) {
    auto t = CompileTerm(terms[i].pod_affinity_term(), ns);
    if (!t.ok()) return absl::InvalidArgumentError(schedkit::StrCat(path, "[", i, "]: ", t.status().message()));
    out.push_back(WeightedAffinityTerm{*std::move(t), terms[i].weight()});
  }
  return absl::OkStatus();
}

std::shared_ptr<const PodSignature> Sign(const api::v1::Pod& pod) {
  auto sig = std::make_shared<PodSignature>();
  const std::string& ns = pod.metadata().namespace_();
  // Sized exactly: a pending pod keeps its signature until it is bound.
  const size_t spec_size = pod.spec().ByteSizeLong();
  sig->bytes.resize(ns.size() + 1 + spec_size);
  std::copy(ns.begin(), ns.end(), sig->bytes.begin());
  sig->bytes[ns.size()] = '\0';
  {
    google::protobuf::io::ArrayOutputStream out(sig->bytes.data() + ns.size() + 1, static_cast<int>(spec_size));
    google::protobuf::io::CodedOutputStream coded(&out);
    // Map fields (nodeSelector) in key order, so equal specs give equal bytes.
    coded.SetSerializationDeterministic(true);
    pod.spec().SerializeWithCachedSizes(&coded);
  }
  sig->hash = absl::Hash<std::string_view>()(sig->bytes);
  return sig;
}

int8_t ParsePolicy(bool set, const std::string& v) {
  if (!set) return -1;
  return v == "Honor" ? 1 : 0;
}

}  // namespace

bool TolerationsTolerate(const std::vector<Toleration>& tolerations, const Taint& taint) {
  for (const Toleration& t : tolerations) {
    if (t.Tolerates(taint)) return true;
  }
  return false;
}

bool AffinityTerm::HasNamespace(Symbol ns) const {
  return std::find(namespaces.begin(), namespaces.end(), ns) != namespaces.end();
}

bool AffinityTerm::Matches(const PodInfo& pod, const api::LabelSet& namespace_labels) const {
  if (HasNamespace(pod.namespace_()) || namespace_selector.Matches(namespace_labels)) {
    return selector.Matches(pod.labels());
  }
  return false;
}

std::string NormalizedImageName(std::string_view image) {
  // No ':' after the last '/' means no tag (a digest always has one).
  const size_t colon = image.rfind(':');
  const size_t slash = image.rfind('/');
  const bool has_tag = colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash);
  return has_tag ? std::string(image) : schedkit::StrCat(image, ":latest");
}

absl::StatusOr<PodInfoPtr> PodInfo::Create(const api::v1::Pod& pod) {
  return Create(std::make_shared<const api::v1::Pod>(pod));
}

absl::StatusOr<PodInfoPtr> PodInfo::Create(std::shared_ptr<const api::v1::Pod> pod) {
  std::shared_ptr<PodInfo> info(new PodInfo());
  info->pod_ = std::move(pod);
  absl::Status s = info->Init();
  if (!s.ok()) {
    return absl::InvalidArgumentError(schedkit::StrCat("Pod ", info->pod_->metadata().namespace_(), "/",
                                                   info->pod_->metadata().name(), ": ", s.message()));
  }
  return PodInfoPtr(std::move(info));
}

std::vector<HostPort> HostPortsOf(const api::v1::Pod& pod) {
  std::vector<HostPort> out;
  auto add_ports = [&](const api::v1::Container& c) {
    for (const auto& p : c.ports()) {
      if (p.host_port() <= 0) continue;
      out.push_back(HostPort{p.host_ip().empty() ? well_known::IpAny() : Symbol::Intern(p.host_ip()),
                             ParseProtocol(p.protocol()), p.host_port()});
    }
  };
  // Init containers that run to completion have released their ports before
  // the pod's containers start; sidecars keep theirs for the pod's lifetime.
  for (const auto& c : pod.spec().init_containers()) {
    if (c.restart_policy() == "Always") add_ports(c);
  }
  for (const auto& c : pod.spec().containers()) add_ports(c);
  return out;
}

const std::shared_ptr<const PodInfo::Rare>& PodInfo::NoRare() {
  static const auto* const none = new std::shared_ptr<const Rare>(std::make_shared<const Rare>());
  return *none;
}

PodInfoPtr PodInfo::WithNodeName(std::string_view node) const { return WithNodeName(Symbol::Intern(node)); }

PodInfoPtr PodInfo::WithNodeName(Symbol node) const {
  std::shared_ptr<PodInfo> out(new PodInfo(*this));
  out->node_name_ = node;
  out->node_name_deferred_ = true;
  // An assumed pod is not scheduled again (a failed binding requeues the
  // original); its bound life may be long, so it does not keep the bytes.
  out->signature_ = nullptr;
  return out;
}

const std::shared_ptr<const api::v1::Pod>& PodInfo::NodeNamedPod() const {
  absl::call_once(node_named_.once, [this] {
    auto pod = std::make_shared<api::v1::Pod>(*pod_);
    pod->mutable_spec()->set_node_name(std::string(node_name_.str()));
    node_named_.pod = std::move(pod);
  });
  return node_named_.pod;
}

PodInfoPtr PodInfo::WithNominatedNodeName(std::string_view node) const {
  auto pod = std::make_shared<api::v1::Pod>(this->pod());
  pod->mutable_status()->set_nominated_node_name(std::string(node));
  std::shared_ptr<PodInfo> out(new PodInfo(*this));
  out->pod_ = std::move(pod);
  out->node_name_deferred_ = false;
  out->nominated_node_name_ = Symbol::Intern(node);
  return out;
}

absl::Status PodInfo::Init() {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
  static_assert(alignof(PodInfo) == 64 && offsetof(PodInfo, start_time_) + sizeof(start_time_) <= 128,
                "the fields passes over a node's pods read fill the first two lines");
#pragma GCC diagnostic pop
  const api::v1::Pod& pod = *pod_;
  const api::v1::PodSpec& spec = pod.spec();
  name_ = Symbol::Intern(pod.metadata().name());
  ns_ = Symbol::Intern(pod.metadata().namespace_());
  key_ = schedkit::StrCat(pod.metadata().namespace_(), "/", pod.metadata().name());
  labels_ = api::LabelSet::FromMap(pod.metadata().labels());
  priority_ = spec.has_priority() ? spec.priority() : 0;
  uid_hash_ = absl::Hash<std::string_view>()(pod.metadata().uid());
  node_name_ = Symbol::Intern(spec.node_name());
  nominated_node_name_ = Symbol::Intern(pod.status().nominated_node_name());
  scheduler_name_ = Symbol::Intern(spec.scheduler_name());
  terminating_ = !pod.metadata().deletion_timestamp().empty();
  preempt_never_ = spec.has_preemption_policy() && spec.preemption_policy() == "Never";
  if (!pod.status().start_time().empty()) {
    SCHEDKIT_ASSIGN_OR_RETURN(start_time_, api::internal::ParseTimestamp(pod.status().start_time()));
  }

  SCHEDKIT_ASSIGN_OR_RETURN(PodRequests req, ComputePodRequests(pod));
  const bool resized = !(req.spec_requests == req.requests);
  requests_ = std::move(req.requests);
  non_zero_milli_cpu_ = req.non_zero_milli_cpu;
  non_zero_memory_ = req.non_zero_memory;

  for (const auto& t : spec.tolerations()) {
    tolerations_.push_back(Toleration{Symbol::Intern(t.key()), t.operator_() == "Exists",
                                      Symbol::Intern(t.value()), ParseEffect(t.effect())});
  }
  host_ports_ = HostPortsOf(pod);
  has_host_ports_ = !host_ports_.empty();
  for (const auto& c : spec.init_containers()) images_.push_back(Symbol::Intern(NormalizedImageName(c.image())));
  for (const auto& c : spec.containers()) images_.push_back(Symbol::Intern(NormalizedImageName(c.image())));
  for (const auto& v : spec.volumes()) {
    if (v.has_image()) images_.push_back(Symbol::Intern(NormalizedImageName(v.image().reference())));
  }
  num_images_ = static_cast<int>(images_.size());

  Rare rare;
  if (spec.has_affinity()) {
    const api::v1::Affinity& a = spec.affinity();
    has_pod_affinity_ = a.has_pod_affinity() || a.has_pod_anti_affinity();
    if (a.has_pod_affinity()) {
      const auto& pa = a.pod_affinity();
      SCHEDKIT_RETURN_IF_ERROR(CompileRequired(pa.required_during_scheduling_ignored_during_execution(), ns_,
                                               "requiredAffinityTerms", required_affinity_));
      SCHEDKIT_RETURN_IF_ERROR(CompilePreferred(pa.preferred_during_scheduling_ignored_during_execution(),
                                                ns_, "preferredAffinityTerms", rare.preferred_affinity));
    }
    if (a.has_pod_anti_affinity()) {
      const auto& pa = a.pod_anti_affinity();
      SCHEDKIT_RETURN_IF_ERROR(CompileRequired(pa.required_during_scheduling_ignored_during_execution(), ns_,
                                               "requiredAntiAffinityTerms", required_anti_affinity_));
      has_required_anti_affinity_ = !required_anti_affinity_.empty();
      SCHEDKIT_RETURN_IF_ERROR(CompilePreferred(pa.preferred_during_scheduling_ignored_during_execution(),
                                                ns_, "preferredAntiAffinityTerms",
                                                rare.preferred_anti_affinity));
    }
    if (a.has_node_affinity()) {
      const auto& na = a.node_affinity();
      if (na.has_required_during_scheduling_ignored_during_execution()) {
        has_required_node_affinity_ = true;
        SCHEDKIT_ASSIGN_OR_RETURN(rare.required_node_affinity,
                                  api::NodeSelector::Compile(na.required_during_scheduling_ignored_during_execution()));
      }
      for (const auto& p : na.preferred_during_scheduling_ignored_during_execution()) {
        SCHEDKIT_ASSIGN_OR_RETURN(api::NodeSelector::Term term, api::NodeSelector::CompileTerm(p.preference()));
        rare.preferred_node_affinity.push_back(PreferredNodeTerm{std::move(term), p.weight()});
      }
    }
  }
  if (!spec.node_selector().empty()) {
    has_node_selector_ = true;
    rare.node_selector = api::NodeSelector::FromMap(spec.node_selector());
  }

  for (const auto& c : spec.topology_spread_constraints()) {
    SpreadConstraint sc;
    sc.max_skew = c.max_skew();
    sc.topology_key = Symbol::Intern(c.topology_key());
    sc.do_not_schedule = c.when_unsatisfiable() != "ScheduleAnyway";
    SCHEDKIT_ASSIGN_OR_RETURN(sc.selector, api::LabelSelector::CompileOptional(c.has_label_selector(), c.label_selector()));
    sc.min_domains_set = c.has_min_domains();
    sc.min_domains = c.has_min_domains() ? c.min_domains() : 1;
    sc.node_affinity_policy = ParsePolicy(c.has_node_affinity_policy(), c.node_affinity_policy());
    sc.node_taints_policy = ParsePolicy(c.has_node_taints_policy(), c.node_taints_policy());
    for (const std::string& k : c.match_label_keys()) sc.match_label_keys.push_back(Symbol::Intern(k));
    rare.spread_constraints.push_back(std::move(sc));
  }
  for (const auto& g : spec.scheduling_gates()) rare.scheduling_gates.push_back(Symbol::Intern(g.name()));
  if (resized) rare.spec_requests = std::move(req.spec_requests);
  if (!rare.preferred_affinity.empty() || !rare.preferred_anti_affinity.empty() || !rare.spread_constraints.empty() ||
      has_node_selector_ || has_required_node_affinity_ || !rare.preferred_node_affinity.empty() ||
      !rare.scheduling_gates.empty() || rare.spec_requests.has_value()) {
    rare_ = std::make_shared<const Rare>(std::move(rare));
  }
  // A pod delivered with its node is never scheduled; a cluster's many
  // running pods do not keep bytes only a pending pod uses.
  if (spec.node_name().empty()) signature_ = Sign(pod);
  return absl::OkStatus();
}

bool PodInfo::MatchesNodeSelectorAndAffinity(const api::LabelSet& node_labels, Symbol node_name) const {
  if (has_node_selector_ && !rare_->node_selector.Matches(node_labels, node_name)) return false;
  if (has_required_node_affinity_ && !rare_->required_node_affinity.Matches(node_labels, node_name)) return false;
  return true;
}

}  // namespace schedkit::framework
