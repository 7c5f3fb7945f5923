// PodInfo: a pod parsed once into what the scheduler reads on every cycle —
// requests, labels, tolerations, host ports, compiled affinity and
// anti-affinity terms, spread constraints — so plugins never touch the
// protobuf message or parse text on the hot path.
//
//   SCHEDKIT_ASSIGN_OR_RETURN(PodInfoPtr info, PodInfo::Create(pod));
//   info->requests().milli_cpu;   info->RequiredAntiAffinityTerms();
//
// Immutable after Create and shared (std::shared_ptr<const PodInfo>) between
// the cache, snapshots and the queue. Thread-safe.
#ifndef SCHEDKIT_FRAMEWORK_POD_INFO_H_
#define SCHEDKIT_FRAMEWORK_POD_INFO_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/call_once.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "schedkit/api/selector.h"
#include "schedkit/base/symbol.h"
#include "schedkit/api/v1/pod.h"
#include "schedkit/framework/resource.h"

namespace schedkit::framework {

enum class TaintEffect : uint8_t { kAll = 0, kNoSchedule, kPreferNoSchedule, kNoExecute };

struct Taint {
  Symbol key;
  Symbol value;
  TaintEffect effect = TaintEffect::kNoSchedule;
};

struct Toleration {
  Symbol key;     // empty with `exists` tolerates every key
  bool exists = false;  // operator Exists (else Equal)
  Symbol value;
  TaintEffect effect = TaintEffect::kAll;  // kAll: every effect

  // v1.Toleration.ToleratesTaint.
  bool Tolerates(const Taint& taint) const {
    if (effect != TaintEffect::kAll && effect != taint.effect) return false;
    if (!key.empty() && key != taint.key) return false;
    return exists || value == taint.value;
  }
};

// True if some toleration tolerates `taint`.
bool TolerationsTolerate(const std::vector<Toleration>& tolerations, const Taint& taint);

enum class Protocol : uint8_t { kTCP, kUDP, kSCTP };

// A wanted or used host port; ip "0.0.0.0" (the default) means every address.
struct HostPort {
  Symbol ip;
  Protocol protocol = Protocol::kTCP;
  int32_t port = 0;
  friend bool operator==(const HostPort&, const HostPort&) = default;
};

// A compiled v1.PodAffinityTerm (upstream framework.AffinityTerm).
struct AffinityTerm {
  // Explicit namespaces, or the pod's own when neither namespaces nor a
  // namespaceSelector is given. Sorted by symbol id.
  absl::InlinedVector<Symbol, 1> namespaces;
  api::LabelSelector selector;
  Symbol topology_key;
  // Nothing when unset; Everything for {} (all namespaces).
  api::LabelSelector namespace_selector;

  bool HasNamespace(Symbol ns) const;
  // Whether `pod` is selected by this term, given the labels of `pod`'s
  // namespace (for namespace_selector).
  bool Matches(const class PodInfo& pod, const api::LabelSet& namespace_labels) const;
  friend bool operator==(const AffinityTerm&, const AffinityTerm&) = default;
};

struct WeightedAffinityTerm {
  AffinityTerm term;
  int32_t weight = 0;
  friend bool operator==(const WeightedAffinityTerm&, const WeightedAffinityTerm&) = default;
};

// A compiled v1.TopologySpreadConstraint, before plugin defaulting.
struct SpreadConstraint {
  int32_t max_skew = 1;
  Symbol topology_key;
  bool do_not_schedule = true;  // whenUnsatisfiable
  api::LabelSelector selector;   // nothing when unset
  int32_t min_domains = 1;
  bool min_domains_set = false;
  // nodeAffinityPolicy / nodeTaintsPolicy: unset → -1, Honor → 1, Ignore → 0.
  int8_t node_affinity_policy = -1;
  int8_t node_taints_policy = -1;
  std::vector<Symbol> match_label_keys;
};

class PodInfo;
using PodInfoPtr = std::shared_ptr<const PodInfo>;

// What a pod's outcomes on a node may depend on for the plugins whose
// outcomes are per node (Plugin::OutcomesArePerNode): its namespace and its
// spec, serialized deterministically. The replicas of one template share
// it, whatever their names and UIDs.
struct PodSignature {
  uint64_t hash = 0;
  std::string bytes;
  friend bool operator==(const PodSignature& a, const PodSignature& b) {
    return a.hash == b.hash && a.bytes == b.bytes;
  }
};

// Line-aligned, so that the fields every pass over a node's pods reads share
// exactly two cache lines (see the private part).
class alignas(64) PodInfo {
 public:
  static absl::StatusOr<PodInfoPtr> Create(std::shared_ptr<const api::v1::Pod> pod);
  static absl::StatusOr<PodInfoPtr> Create(const api::v1::Pod& pod);

  // Copies with spec.nodeName / status.nominatedNodeName changed, without
  // re-parsing (assume and nomination make these on the hot path).
  // WithNodeName defers the API object's copy to the first pod() call: the
  // assume and bind path reads only node_name(), so a pod that no waiting
  // pod's queueing hint looks at never pays for it.
  PodInfoPtr WithNodeName(std::string_view node) const;
  PodInfoPtr WithNodeName(Symbol node) const;
  PodInfoPtr WithNominatedNodeName(std::string_view node) const;

  // The API object, spec.nodeName included. Safe to call concurrently.
  const api::v1::Pod& pod() const { return *pod_ptr(); }
  const std::shared_ptr<const api::v1::Pod>& pod_ptr() const {
    return node_name_deferred_ ? NodeNamedPod() : pod_;
  }
  // The API object as the host delivered it: for a pod made by WithNodeName,
  // spec.nodeName is still unset. Host::Bind gets this with the node beside
  // it, as upstream's Binding request names the pod and its target apart.
  const api::v1::Pod& received_pod() const { return *pod_; }

  const std::string& uid() const { return pod_->metadata().uid(); }
  // uid() == other.uid(). The cached hashes decide every mismatch, so hot
  // loops read the API objects only for the pod they are looking for.
  bool SameUid(const PodInfo& other) const {
    return this == &other || (uid_hash_ == other.uid_hash_ && uid() == other.uid());
  }
  // A hash of uid(): equal uids hash equally.
  size_t uid_hash() const { return uid_hash_; }
  Symbol name() const { return name_; }
  Symbol namespace_() const { return ns_; }
  // "namespace/name", the key the queue and tests use.
  const std::string& key() const { return key_; }
  const api::LabelSet& labels() const { return labels_; }
  // spec.priority; 0 when unset (upstream corev1helpers.PodPriority).
  int32_t priority() const { return priority_; }
  Symbol node_name() const { return node_name_; }
  Symbol nominated_node_name() const { return nominated_node_name_; }
  Symbol scheduler_name() const { return scheduler_name_; }
  bool terminating() const { return terminating_; }
  bool preempt_never() const { return preempt_never_; }
  // status.startTime; InfiniteFuture for a pod that has not started, which
  // upstream's GetPodStartTime treats as "now", the latest possible.
  absl::Time start_time() const { return start_time_; }

  // What the pod holds on its node: for a resized pod, per resource the
  // largest of its spec's, allocated and actuated requests (ComputePodRequests).
  const Resource& requests() const { return requests_; }
  // The requests from the spec alone, which NodeResourcesFit's PreFilter
  // checks: requests() unless a resize status changes them.
  const Resource& spec_requests() const { return rare_->spec_requests ? *rare_->spec_requests : requests_; }
  int64_t non_zero_milli_cpu() const { return non_zero_milli_cpu_; }
  int64_t non_zero_memory() const { return non_zero_memory_; }

  const std::vector<Toleration>& tolerations() const { return tolerations_; }
  // Host ports (hostPort > 0) of the pod's sidecars and containers.
  const std::vector<HostPort>& host_ports() const { return host_ports_; }
  // !host_ports().empty(), from the pod's first lines.
  bool has_host_ports() const { return has_host_ports_; }
  // Normalized image names of init containers, containers and image
  // volumes, in that order (ImageLocality counts image volumes since v1.37).
  const std::vector<Symbol>& images() const { return images_; }
  int num_images() const { return num_images_; }

  const std::vector<AffinityTerm>& required_affinity_terms() const { return required_affinity_; }
  const std::vector<AffinityTerm>& required_anti_affinity_terms() const { return required_anti_affinity_; }
  const std::vector<WeightedAffinityTerm>& preferred_affinity_terms() const { return rare_->preferred_affinity; }
  const std::vector<WeightedAffinityTerm>& preferred_anti_affinity_terms() const {
    return rare_->preferred_anti_affinity;
  }
  // Upstream podWithAffinity: spec.affinity has podAffinity or podAntiAffinity.
  bool has_pod_affinity() const { return has_pod_affinity_; }
  // !required_anti_affinity_terms().empty(), from the pod's first lines.
  bool has_required_anti_affinity() const { return has_required_anti_affinity_; }

  const std::vector<SpreadConstraint>& spread_constraints() const { return rare_->spread_constraints; }
  // spec.nodeSelector and the required node affinity, compiled.
  bool has_node_selector() const { return has_node_selector_; }
  const api::NodeSelector& node_selector() const { return rare_->node_selector; }
  bool has_required_node_affinity() const { return has_required_node_affinity_; }
  const api::NodeSelector& required_node_affinity() const { return rare_->required_node_affinity; }
  struct PreferredNodeTerm {
    api::NodeSelector::Term term;
    int32_t weight = 0;
  };
  const std::vector<PreferredNodeTerm>& preferred_node_affinity() const { return rare_->preferred_node_affinity; }
  // The pod's node selector and required affinity both hold for the node
  // (component-helpers' RequiredNodeAffinity.Match).
  bool MatchesNodeSelectorAndAffinity(const api::LabelSet& node_labels, Symbol node_name) const;

  const std::vector<Symbol>& scheduling_gates() const { return rare_->scheduling_gates; }

  // The pod as the host delivered it, signed; copies made by
  // WithNominatedNodeName share it. Null for a pod delivered with
  // spec.nodeName and for WithNodeName's copies: they are never scheduled.
  const std::shared_ptr<const PodSignature>& signature() const { return signature_; }

 private:
  PodInfo() = default;
  absl::Status Init();

  // What NodeInfo::AddPod/RemovePod and preemption's dry runs read of every
  // pod on a node fills the first two cache lines: those loops walk many pods
  // and wait on each one's memory. The flags stand in for the lists they
  // describe, which lie further out.
  int32_t priority_ = 0;
  bool terminating_ = false;
  bool preempt_never_ = false;
  bool has_pod_affinity_ = false;
  bool has_host_ports_ = false;
  bool has_required_anti_affinity_ = false;
  size_t uid_hash_ = 0;
  int64_t non_zero_milli_cpu_ = 0;
  int64_t non_zero_memory_ = 0;
  Resource requests_;
  absl::Time start_time_ = absl::InfiniteFuture();
  Symbol name_, ns_, node_name_, nominated_node_name_, scheduler_name_;
  api::LabelSet labels_;
  std::vector<HostPort> host_ports_;
  std::vector<AffinityTerm> required_affinity_, required_anti_affinity_;
  std::shared_ptr<const api::v1::Pod> pod_;
  std::string key_;
  std::vector<Toleration> tolerations_;
  std::vector<Symbol> images_;
  int num_images_ = 0;
  // Set by WithNodeName: pod_ lacks node_name_, and pod() reads node_named_.
  bool node_name_deferred_ = false;
  bool has_node_selector_ = false;
  bool has_required_node_affinity_ = false;

  // What only some pods have and only their scheduling cycle reads, apart:
  // a cluster's million bound pods then fit a smaller allocation. Never
  // null (pods without any share one empty Rare); copies share it.
  struct Rare {
    std::vector<WeightedAffinityTerm> preferred_affinity, preferred_anti_affinity;
    std::vector<SpreadConstraint> spread_constraints;
    api::NodeSelector node_selector;
    api::NodeSelector required_node_affinity;
    std::vector<PreferredNodeTerm> preferred_node_affinity;
    std::vector<Symbol> scheduling_gates;
    std::optional<Resource> spec_requests;  // set only when it differs from requests_
  };
  static const std::shared_ptr<const Rare>& NoRare();
  std::shared_ptr<const Rare> rare_ = NoRare();
  std::shared_ptr<const PodSignature> signature_;

  // pod_ with spec.nodeName set, made once on first use. A copied PodInfo
  // starts without one: it may name another node.
  struct NodeNamedCopy {
    NodeNamedCopy() = default;
    NodeNamedCopy(const NodeNamedCopy& /*other*/) {}
    NodeNamedCopy& operator=(const NodeNamedCopy& /*other*/) { return *this; }
    absl::once_flag once;
    std::shared_ptr<const api::v1::Pod> pod;
  };
  const std::shared_ptr<const api::v1::Pod>& NodeNamedPod() const;
  mutable NodeNamedCopy node_named_;
};

// ImageLocality's normalization: a reference without a tag or digest gets
// ":latest" ("gcr.io:5000/root" → "gcr.io:5000/root:latest").
std::string NormalizedImageName(std::string_view image);

}  // namespace schedkit::framework

#endif  // SCHEDKIT_FRAMEWORK_POD_INFO_H_
