#include "plugins/volumebinding/pod_volumes.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "plugins/internal/storage_lookup.h"
#include "plugins/volumebinding/assume_cache.h"
#include "schedkit/api/quantity.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::plugins::volumebinding {
namespace {

using framework::Code;
using framework::Status;

// A node name no node has: upstream checks volume node affinity against a
// node object carrying the labels alone.
Symbol NoName() {
  static const Symbol none = Symbol::Intern("");
  return none;
}

// The storage request or capacity in `resources`: exact, and whether it is
// there. Text that does not parse counts as absent (validation refuses it).
std::optional<api::Quantity> StorageOf(const google::protobuf::Map<std::string, std::string>& resources) {
  auto it = resources.find("storage");
  if (it == resources.end()) return std::nullopt;
  auto q = api::Quantity::Parse(it->second);
  if (!q.ok()) return std::nullopt;
  return *q;
}

const std::string& ModeOrFilesystem(bool has, const std::string& mode) {
  static const std::string kFilesystem = "Filesystem";
  return has ? mode : kFilesystem;
}

// The node-independent checks of upstream's FindMatchingVolume.
void AddCandidates(DelayedClaim& dc, const std::vector<std::shared_ptr<const api::v1::PersistentVolume>>& pvs,
                   const std::optional<api::LabelSelector>& selector, const std::string& class_name) {
  const api::v1::PersistentVolumeClaim& claim = *dc.claim;
  const api::v1::PersistentVolumeClaimSpec& cs = claim.spec();
  const std::string& claim_mode = ModeOrFilesystem(cs.has_volume_mode(), cs.volume_mode());
  for (const auto& pv : pvs) {
    const api::v1::PersistentVolumeSpec& ps = pv->spec();
    const bool prebound = BoundToClaim(*pv, claim);
    if (ps.has_claim_ref() && !prebound) continue;
    const std::optional<api::Quantity> size = StorageOf(ps.capacity());
    const __int128 size_nanos = size ? size->NanoValue() : 0;
    if (size_nanos < dc.request_nanos) continue;
    if (ModeOrFilesystem(ps.has_volume_mode(), ps.volume_mode()) != claim_mode) continue;
    // VolumeAttributesClass is GA in v1.37: the names must agree.
    if (cs.volume_attributes_class_name() != ps.volume_attributes_class_name()) continue;
    if (!pv->metadata().deletion_timestamp().empty()) continue;
    if (!prebound) {
      if (pv->status().phase() != "Available") continue;
      if (selector && !selector->Matches(api::LabelSet::FromMap(pv->metadata().labels()))) continue;
      if (VolumeClass(*pv) != class_name) continue;
      bool modes = true;
      for (const std::string& mode : cs.access_modes()) modes = modes && internal::HasAccessMode(ps.access_modes(), mode);
      if (!modes) continue;
    }
    DelayedClaim::Candidate c;
    c.pv = pv;
    c.affinity = VolumeAffinity(*pv);
    c.size_nanos = size_nanos;
    c.capacity_bytes = size ? size->Value() : 0;
    c.prebound = prebound;
    dc.candidates.push_back(std::move(c));
  }
}

// Upstream's checkVolumeProvisions inputs for one claim.
void PrepareProvisioning(DelayedClaim& dc, const std::string& class_name, const api::ObjectLister& objects) {
  const api::v1::PersistentVolumeClaim& claim = *dc.claim;
  if (class_name.empty()) {
    dc.provision_error = Status::Error(schedkit::StrCat("no class for claim \"", claim.metadata().namespace_(), "/",
                                                        claim.metadata().name(), "\""));
    return;
  }
  auto sc = internal::GetClass(objects, class_name);
  if (!sc.ok()) {
    dc.provision_error = Status::Error(schedkit::StrCat("failed to find storage class \"", class_name, "\""));
    return;
  }
  const std::string& provisioner = (*sc)->provisioner();
  dc.provisioner_supported = !provisioner.empty() && provisioner != "kubernetes.io/no-provisioner";
  dc.has_allowed_topologies = (*sc)->allowed_topologies_size() > 0;
  for (const api::v1::TopologySelectorTerm& term : (*sc)->allowed_topologies()) {
    // An empty term, or a requirement without values (upstream cannot build
    // its selector), selects no node.
    if (term.match_label_expressions().empty()) continue;
    std::vector<api::LabelRequirement> reqs;
    bool valid = true;
    for (const api::v1::TopologySelectorLabelRequirement& r : term.match_label_expressions()) {
      if (r.values().empty()) valid = false;
      api::LabelRequirement req;
      req.key = Symbol::Intern(r.key());
      req.op = api::SelectorOp::kIn;
      for (const std::string& v : r.values()) req.values.push_back(Symbol::Intern(v));
      reqs.push_back(std::move(req));
    }
    if (valid) dc.allowed_topologies.push_back(std::move(reqs));
  }
  // Capacity: only with a request, and only for a CSI driver that opts in.
  if (!dc.has_request) return;
  auto driver = objects.Get<api::v1::CSIDriver>(provisioner);
  if (driver == nullptr || !driver->spec().has_storage_capacity() || !driver->spec().storage_capacity()) return;
  dc.check_capacity = true;
  for (const auto& capacity : objects.ListBy<api::v1::CSIStorageCapacity>(
           api::KindTraits<api::v1::CSIStorageCapacity>::kByStorageClass, class_name)) {
    if (!capacity->has_node_topology()) continue;
    const std::optional<int64_t> limit = CapacityLimit(*capacity);
    if (!limit || *limit < dc.request_bytes) continue;
    auto selector = api::LabelSelector::Compile(capacity->node_topology());
    if (!selector.ok()) continue;
    int64_t bytes = 0;
    if (capacity->has_capacity()) {
      if (auto q = api::Quantity::Parse(capacity->capacity()); q.ok()) bytes = q->Value();
    }
    dc.capacities.push_back({*std::move(selector), bytes});
  }
}

bool TopologyAdmits(const DelayedClaim& dc, const api::LabelSet& labels) {
  if (!dc.has_allowed_topologies) return true;
  for (const auto& term : dc.allowed_topologies) {
    bool all = true;
    for (const api::LabelRequirement& r : term) all = all && r.Matches(labels);
    if (all) return true;
  }
  return false;
}

// Whether the claim's capacity admits the node; `chosen` gets the capacity
// that does (nullptr when capacity is not tracked).
bool CapacityAdmits(const DelayedClaim& dc, const api::LabelSet& labels, const DelayedClaim::Capacity** chosen) {
  *chosen = nullptr;
  if (!dc.check_capacity) return true;
  for (const DelayedClaim::Capacity& c : dc.capacities) {
    if (c.node_topology.Matches(labels)) {
      *chosen = &c;
      return true;
    }
  }
  return false;
}

// Go's int64 +=: wraps.
void AddWrapping(int64_t& to, int64_t v) { (void)__builtin_add_overflow(to, v, &to); }

ClassUse& UseOf(ClassUses& uses, std::string_view class_name) {
  for (ClassUse& u : uses) {
    if (u.class_name == class_name) return u;
  }
  return uses.emplace_back(ClassUse{class_name, 0, 0});
}

struct Reasons {
  bool bound_satisfied = true;
  bool unbound_satisfied = true;
  bool sufficient_storage = true;
  bool bound_found = true;

  Status ToStatus() const {
    static const Symbol node_conflict = Symbol::Intern("node(s) didn't match PersistentVolume's node affinity");
    static const Symbol bind_conflict = Symbol::Intern("node(s) didn't find available persistent volumes to bind");
    static const Symbol not_enough_space = Symbol::Intern("node(s) did not have enough free storage");
    static const Symbol pv_not_exist =
        Symbol::Intern("node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)");
    Status s;
    auto add = [&](bool ok, Symbol reason) {
      if (ok) return;
      if (s.IsSuccess()) {
        s = Status(Code::kUnschedulableAndUnresolvable, reason);
      } else {
        s.AppendReason(reason);
      }
    };
    add(bound_satisfied, node_conflict);
    add(unbound_satisfied, bind_conflict);
    add(sufficient_storage, not_enough_space);
    add(bound_found, pv_not_exist);
    return s;
  }
};

}  // namespace

bool BoundToClaim(const api::v1::PersistentVolume& pv, const api::v1::PersistentVolumeClaim& claim) {
  if (!pv.spec().has_claim_ref()) return false;
  const api::v1::ObjectReference& ref = pv.spec().claim_ref();
  if (ref.name() != claim.metadata().name() || ref.namespace_() != claim.metadata().namespace_()) return false;
  return ref.uid().empty() || ref.uid() == claim.metadata().uid();
}

BoundVolume VolumeAffinity(const api::v1::PersistentVolume& pv) {
  BoundVolume out;
  if (!pv.spec().has_node_affinity() || !pv.spec().node_affinity().has_required()) return out;
  auto selector = api::NodeSelector::Compile(pv.spec().node_affinity().required());
  if (selector.ok()) {
    out.affinity = *std::move(selector);
  } else {
    out.never = true;  // upstream's CheckNodeAffinity fails on it
  }
  return out;
}

std::optional<int64_t> CapacityLimit(const api::v1::CSIStorageCapacity& capacity) {
  const std::string* text = capacity.has_maximum_volume_size() ? &capacity.maximum_volume_size()
                            : capacity.has_capacity()          ? &capacity.capacity()
                                                               : nullptr;
  if (text == nullptr) return std::nullopt;
  auto q = api::Quantity::Parse(*text);
  if (!q.ok()) return std::nullopt;
  return q->Value();
}

bool BoundVolume::Admits(const api::LabelSet& labels) const {
  if (never) return false;
  return !affinity || affinity->Matches(labels, NoName());
}

DelayedClaim PrepareDelayedClaim(std::shared_ptr<const api::v1::PersistentVolumeClaim> claim,
                                 const std::vector<std::shared_ptr<const api::v1::PersistentVolume>>& volumes,
                                 const api::ObjectLister& objects) {
  DelayedClaim dc;
  dc.claim = std::move(claim);
  const api::v1::PersistentVolumeClaim& c = *dc.claim;
  if (auto request = StorageOf(c.spec().resources().requests())) {
    dc.has_request = true;
    dc.request_nanos = request->NanoValue();
    dc.request_bytes = request->Value();
  }
  const auto& annotations = c.metadata().annotations();
  if (auto it = annotations.find("volume.kubernetes.io/selected-node"); it != annotations.end()) {
    dc.selected_node = Symbol::Intern(it->second);
  }
  const std::string& class_name = internal::ClaimClass(c);
  dc.class_name = class_name;
  if (!dc.selected_node) {
    std::optional<api::LabelSelector> selector;
    if (c.spec().has_selector()) {
      auto compiled = api::LabelSelector::Compile(c.spec().selector());
      if (compiled.ok()) {
        selector = *std::move(compiled);
      } else {
        dc.matching_error =
            Status::Error(schedkit::StrCat("error creating internal label selector for claim: ",
                                           c.metadata().namespace_(), "/", c.metadata().name(), ": ",
                                           compiled.status().message()));
      }
    }
    if (dc.matching_error.IsSuccess()) AddCandidates(dc, volumes, selector, class_name);
  }
  PrepareProvisioning(dc, class_name, objects);
  return dc;
}

void FinishPreparing(PodVolumeClaims& claims) {
  absl::flat_hash_map<std::string, int> ids;
  for (DelayedClaim& dc : claims.delayed) {
    for (DelayedClaim::Candidate& c : dc.candidates) {
      c.id = ids.try_emplace(c.pv->metadata().name(), static_cast<int>(ids.size())).first->second;
    }
  }
  claims.matching_order.clear();
  for (int i = 0; i < static_cast<int>(claims.delayed.size()); ++i) {
    if (!claims.delayed[i].selected_node) claims.matching_order.push_back(i);
  }
  std::stable_sort(claims.matching_order.begin(), claims.matching_order.end(), [&](int a, int b) {
    return claims.delayed[a].request_nanos < claims.delayed[b].request_nanos;
  });
}

Status FindPodVolumes(const PodVolumeClaims& claims, const framework::NodeInfo& node, PodVolumes* out,
                      VolumeUse* use) {
  const api::LabelSet& labels = node.labels();
  Reasons r;
  for (const BoundVolume& v : claims.bound) {
    if (v.missing) {
      r.bound_found = false;
      break;
    }
    if (!v.Admits(labels)) {
      r.bound_satisfied = false;
      break;
    }
  }
  if (claims.delayed.empty()) return r.ToStatus();

  // A claim another pod's binding cycle already sent to provisioning on
  // some node admits only that node.
  for (const DelayedClaim& dc : claims.delayed) {
    if (dc.selected_node && *dc.selected_node != node.name()) {
      r.unbound_satisfied = false;
      return r.ToStatus();
    }
  }

  absl::InlinedVector<int, 8> chosen;
  absl::InlinedVector<int, 8> unmatched;
  bool all_matched = true;
  for (int i : claims.matching_order) {
    const DelayedClaim& dc = claims.delayed[i];
    if (!dc.matching_error.IsSuccess()) return dc.matching_error;
    const DelayedClaim::Candidate* best = nullptr;
    for (const DelayedClaim::Candidate& c : dc.candidates) {
      if (std::find(chosen.begin(), chosen.end(), c.id) != chosen.end()) continue;
      const bool admits = c.affinity.Admits(labels);
      if (c.prebound) {
        // The volume pre-bound to the claim is its only choice.
        best = admits ? &c : nullptr;
        break;
      }
      if (admits && (best == nullptr || best->size_nanos > c.size_nanos)) best = &c;
    }
    if (best == nullptr) {
      all_matched = false;
      unmatched.push_back(i);
      continue;
    }
    chosen.push_back(best->id);
    if (out != nullptr) out->static_bindings.push_back({dc.claim, best->pv});
    if (use != nullptr) {
      use->has_static = true;
      ClassUse& u = UseOf(use->static_classes, best->pv->spec().storage_class_name());
      AddWrapping(u.requested, dc.request_bytes);
      AddWrapping(u.capacity, best->capacity_bytes);
    }
  }
  r.unbound_satisfied = all_matched;

  // Claims to provision: those with a selected node (this one), then those
  // no volume matched.
  auto provision = [&](const DelayedClaim& dc) -> std::optional<Status> {
    if (!dc.provision_error.IsSuccess()) return dc.provision_error;
    if (!dc.provisioner_supported || !TopologyAdmits(dc, labels)) {
      r.unbound_satisfied = false;
      return r.ToStatus();
    }
    const DelayedClaim::Capacity* capacity = nullptr;
    if (!CapacityAdmits(dc, labels, &capacity)) {
      r.unbound_satisfied = true;
      r.sufficient_storage = false;
      return r.ToStatus();
    }
    if (out != nullptr) out->provisions.push_back(dc.claim);
    if (use != nullptr && capacity != nullptr) {
      ClassUse& u = UseOf(use->dynamic_classes, dc.class_name);
      u.capacity = capacity->capacity_bytes;
      AddWrapping(u.requested, dc.request_bytes);
    }
    return std::nullopt;
  };
  bool any = !unmatched.empty();
  for (const DelayedClaim& dc : claims.delayed) {
    if (!dc.selected_node) continue;
    any = true;
    if (auto done = provision(dc)) return *done;
  }
  for (int i : unmatched) {
    if (auto done = provision(claims.delayed[i])) return *done;
  }
  if (any) r.unbound_satisfied = true;
  return r.ToStatus();
}

}  // namespace schedkit::plugins::volumebinding
