#include "sim/pv_controller.h"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>

#include "schedkit/api/quantity.h"
#include "schedkit/api/selector.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::sim {
namespace {

constexpr char kSelectedNode[] = "volume.kubernetes.io/selected-node";

std::string Key(std::string_view namespace_name, std::string_view name) {
  return schedkit::StrCat(namespace_name, "/", name);
}

const std::string& ClassOf(const api::v1::PersistentVolumeClaim& claim) {
  const auto& annotations = claim.metadata().annotations();
  if (auto it = annotations.find("volume.beta.kubernetes.io/storage-class"); it != annotations.end()) {
    return it->second;
  }
  return claim.spec().storage_class_name();
}

int64_t StorageBytes(const google::protobuf::Map<std::string, std::string>& resources) {
  auto it = resources.find("storage");
  if (it == resources.end()) return 0;
  auto q = api::Quantity::Parse(it->second);
  return q.ok() ? q->Value() : 0;
}

const std::string& VolumeClassOf(const api::v1::PersistentVolume& pv) {
  const auto& annotations = pv.metadata().annotations();
  if (auto it = annotations.find("volume.beta.kubernetes.io/storage-class"); it != annotations.end()) {
    return it->second;
  }
  return pv.spec().storage_class_name();
}

bool BoundTo(const api::v1::PersistentVolume& pv, const api::v1::PersistentVolumeClaim& claim) {
  if (!pv.spec().has_claim_ref()) return false;
  const auto& ref = pv.spec().claim_ref();
  return ref.name() == claim.metadata().name() && ref.namespace_() == claim.metadata().namespace_() &&
         (ref.uid().empty() || ref.uid() == claim.metadata().uid());
}

// The PV controller's choice for a new claim (FindMatchingVolume without a
// node): the volume pre-bound to it, else the smallest Available one of its
// class that holds it. Access modes are not compared on this path.
api::v1::PersistentVolume* MatchVolume(api::ObjectSet& cluster, const api::v1::PersistentVolumeClaim& claim) {
  const std::string& class_name = ClassOf(claim);
  const int64_t request = StorageBytes(claim.spec().resources().requests());
  std::optional<api::LabelSelector> selector;
  if (claim.spec().has_selector()) {
    auto compiled = api::LabelSelector::Compile(claim.spec().selector());
    if (!compiled.ok()) return nullptr;
    selector = *std::move(compiled);
  }
  auto mode = [](bool has, const std::string& m) { return has ? m : std::string("Filesystem"); };
  std::vector<api::v1::PersistentVolume*> pvs;
  for (api::v1::PersistentVolume* pv : cluster.MutableAll<api::v1::PersistentVolume>()) {
    if (VolumeClassOf(*pv) == class_name) pvs.push_back(pv);
  }
  std::sort(pvs.begin(), pvs.end(), [](auto* a, auto* b) { return a->metadata().name() < b->metadata().name(); });
  api::v1::PersistentVolume* best = nullptr;
  int64_t best_size = 0;
  for (api::v1::PersistentVolume* pv : pvs) {
    const auto& ps = pv->spec();
    const bool bound = BoundTo(*pv, claim);
    if (ps.has_claim_ref() && !bound) continue;
    const int64_t size = StorageBytes(ps.capacity());
    if (size < request) continue;
    if (mode(ps.has_volume_mode(), ps.volume_mode()) !=
        mode(claim.spec().has_volume_mode(), claim.spec().volume_mode())) {
      continue;
    }
    if (ps.volume_attributes_class_name() != claim.spec().volume_attributes_class_name()) continue;
    if (!pv->metadata().deletion_timestamp().empty()) continue;
    if (bound) return pv;
    if (pv->status().phase() != "Available") continue;
    if (selector && !selector->Matches(api::LabelSet::FromMap(pv->metadata().labels()))) continue;
    if (best == nullptr || size < best_size) {
      best = pv;
      best_size = size;
    }
  }
  return best;
}

void SetClaimRef(api::v1::PersistentVolume& pv, const api::v1::PersistentVolumeClaim& claim) {
  api::v1::ObjectReference* ref = pv.mutable_spec()->mutable_claim_ref();
  ref->set_kind("PersistentVolumeClaim");
  ref->set_api_version("v1");
  ref->set_namespace_(claim.metadata().namespace_());
  ref->set_name(claim.metadata().name());
  ref->set_uid(claim.metadata().uid());
}

void MarkBound(api::v1::PersistentVolumeClaim& claim, const api::v1::PersistentVolume& pv) {
  claim.mutable_spec()->set_volume_name(pv.metadata().name());
  auto& annotations = *claim.mutable_metadata()->mutable_annotations();
  annotations["pv.kubernetes.io/bind-completed"] = "yes";
  annotations["pv.kubernetes.io/bound-by-controller"] = "yes";
  api::v1::PersistentVolumeClaimStatus* status = claim.mutable_status();
  status->set_phase("Bound");
  *status->mutable_access_modes() = pv.spec().access_modes();
  *status->mutable_capacity() = pv.spec().capacity();
}

// A provisioned volume's fields that do not depend on a node.
api::v1::PersistentVolume NewVolume(const api::v1::PersistentVolumeClaim& claim, const api::v1::StorageClass& sc) {
  api::v1::PersistentVolume pv;
  pv.set_api_version("v1");
  pv.set_kind("PersistentVolume");
  pv.mutable_metadata()->set_name(schedkit::StrCat("pvc-", claim.metadata().uid()));
  (*pv.mutable_metadata()->mutable_annotations())["pv.kubernetes.io/provisioned-by"] = sc.provisioner();
  api::v1::PersistentVolumeSpec* spec = pv.mutable_spec();
  const auto& requests = claim.spec().resources().requests();
  if (auto it = requests.find("storage"); it != requests.end()) (*spec->mutable_capacity())["storage"] = it->second;
  *spec->mutable_access_modes() = claim.spec().access_modes();
  if (claim.spec().has_volume_mode()) spec->set_volume_mode(claim.spec().volume_mode());
  spec->set_storage_class_name(sc.metadata().name());
  spec->set_persistent_volume_reclaim_policy(sc.has_reclaim_policy() ? sc.reclaim_policy() : "Delete");
  SetClaimRef(pv, claim);
  spec->mutable_csi()->set_driver(sc.provisioner());
  spec->mutable_csi()->set_volume_handle(pv.metadata().name());
  pv.mutable_status()->set_phase("Bound");
  return pv;
}

bool CanProvision(const api::v1::StorageClass& sc) {
  return !sc.provisioner().empty() && sc.provisioner() != "kubernetes.io/no-provisioner";
}

}  // namespace

void PvController::BindNewClaims(api::ObjectSet& cluster, const std::vector<std::string>& new_claims) {
  for (const std::string& key : new_claims) {
    api::v1::PersistentVolumeClaim* claim = nullptr;
    for (api::v1::PersistentVolumeClaim* c : cluster.MutableAll<api::v1::PersistentVolumeClaim>()) {
      if (Key(c->metadata().namespace_(), c->metadata().name()) == key) claim = c;
    }
    if (claim == nullptr || !claim->spec().volume_name().empty()) continue;
    const api::v1::StorageClass* sc = nullptr;
    for (const auto& c : cluster.Of<api::v1::StorageClass>()) {
      if (c.metadata().name() == ClassOf(*claim)) sc = &c;
    }
    if (!ClassOf(*claim).empty() && sc == nullptr) continue;
    if (sc != nullptr && sc->volume_binding_mode() == "WaitForFirstConsumer") continue;
    if (api::v1::PersistentVolume* pv = MatchVolume(cluster, *claim)) {
      if (!BoundTo(*pv, *claim)) {
        SetClaimRef(*pv, *claim);
        (*pv->mutable_metadata()->mutable_annotations())["pv.kubernetes.io/bound-by-controller"] = "yes";
      }
      pv->mutable_status()->set_phase("Bound");
      MarkBound(*claim, *pv);
      continue;
    }
    if (sc == nullptr || !CanProvision(*sc)) continue;
    api::v1::PersistentVolume pv = NewVolume(*claim, *sc);
    if (sc->allowed_topologies_size() > 0) {
      api::v1::NodeSelectorTerm term;
      for (const auto& e : sc->allowed_topologies(0).match_label_expressions()) {
        if (e.values().empty()) continue;
        auto* r = term.add_match_expressions();
        r->set_key(e.key());
        r->set_operator_("In");
        r->add_values(e.values(0));
      }
      if (term.match_expressions_size() > 0) {
        *pv.mutable_spec()->mutable_node_affinity()->mutable_required()->add_node_selector_terms() = std::move(term);
      }
    }
    MarkBound(*claim, pv);
    cluster.Add(std::move(pv));
  }
}

PvController::PvController(const api::ObjectSet& cluster, const std::vector<std::string>& new_claims) {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& n : cluster.Of<api::v1::Node>()) nodes_[n.metadata().name()] = &n;
  for (const auto& c : cluster.Of<api::v1::StorageClass>()) classes_[c.metadata().name()] = &c;
  for (const auto& c : cluster.Of<api::v1::CSINode>()) csi_nodes_[c.metadata().name()] = &c;
  for (const auto& c : cluster.Of<api::v1::PersistentVolumeClaim>()) {
    const std::string key = Key(c.metadata().namespace_(), c.metadata().name());
    claims_[key] = std::make_shared<const api::v1::PersistentVolumeClaim>(c);
    unbound_at_start_[key] = c.spec().volume_name().empty();
  }
  for (const std::string& key : new_claims) unbound_at_start_[key] = true;
}

std::vector<PvController::Write> PvController::VolumeWritten(const api::v1::PersistentVolume& pv) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Write> writes;
  auto stored = std::make_shared<const api::v1::PersistentVolume>(pv);
  writes.push_back({stored, nullptr});
  if (!pv.spec().has_claim_ref()) return writes;
  const api::v1::ObjectReference& ref = pv.spec().claim_ref();
  auto it = claims_.find(Key(ref.namespace_(), ref.name()));
  if (it == claims_.end()) return writes;
  const api::v1::PersistentVolumeClaim& claim = *it->second;
  if (!ref.uid().empty() && ref.uid() != claim.metadata().uid()) return writes;
  if (!claim.spec().volume_name().empty()) return writes;
  BindClaim(claim, *stored, writes);
  return writes;
}

std::vector<PvController::Write> PvController::ClaimWritten(const api::v1::PersistentVolumeClaim& claim) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Write> writes;
  auto stored = std::make_shared<const api::v1::PersistentVolumeClaim>(claim);
  claims_[Key(claim.metadata().namespace_(), claim.metadata().name())] = stored;
  writes.push_back({nullptr, stored});
  auto node = claim.metadata().annotations().find(kSelectedNode);
  if (node == claim.metadata().annotations().end()) return writes;
  std::optional<api::v1::PersistentVolume> pv = Provision(claim, node->second);
  if (!pv) return writes;
  auto volume = std::make_shared<const api::v1::PersistentVolume>(*std::move(pv));
  writes.push_back({volume, nullptr});
  BindClaim(*stored, *volume, writes);
  return writes;
}

void PvController::BindClaim(const api::v1::PersistentVolumeClaim& claim, const api::v1::PersistentVolume& pv,
                             std::vector<Write>& writes) {
  auto bound = std::make_shared<api::v1::PersistentVolumeClaim>(claim);
  MarkBound(*bound, pv);
  claims_[Key(claim.metadata().namespace_(), claim.metadata().name())] = bound;
  writes.push_back({nullptr, std::move(bound)});
}

std::optional<api::v1::PersistentVolume> PvController::Provision(const api::v1::PersistentVolumeClaim& claim,
                                                                 const std::string& node_name) const {
  auto sc_it = classes_.find(ClassOf(claim));
  auto node_it = nodes_.find(node_name);
  if (sc_it == classes_.end() || node_it == nodes_.end()) return std::nullopt;
  const api::v1::StorageClass& sc = *sc_it->second;
  const api::v1::Node& node = *node_it->second;
  if (!CanProvision(sc)) return std::nullopt;
  api::v1::PersistentVolume pv = NewVolume(claim, sc);
  api::v1::PersistentVolumeSpec* spec = pv.mutable_spec();

  // The topology keys: the driver's on the node, else the class's.
  std::vector<std::string> keys;
  bool from_driver = false;
  if (auto it = csi_nodes_.find(node_name); it != csi_nodes_.end()) {
    for (const auto& d : it->second->spec().drivers()) {
      if (d.name() != sc.provisioner()) continue;
      keys.assign(d.topology_keys().begin(), d.topology_keys().end());
      from_driver = true;
    }
  }
  if (!from_driver) {
    for (const auto& term : sc.allowed_topologies()) {
      for (const auto& r : term.match_label_expressions()) {
        if (std::find(keys.begin(), keys.end(), r.key()) == keys.end()) keys.push_back(r.key());
      }
    }
  }
  api::v1::NodeSelectorTerm term;
  for (const std::string& key : keys) {
    auto label = node.metadata().labels().find(key);
    if (label == node.metadata().labels().end()) continue;
    api::v1::NodeSelectorRequirement* r = term.add_match_expressions();
    r->set_key(key);
    r->set_operator_("In");
    r->add_values(label->second);
  }
  if (term.match_expressions_size() > 0) {
    *spec->mutable_node_affinity()->mutable_required()->add_node_selector_terms() = std::move(term);
  }
  return pv;
}

std::vector<ClaimBinding> PvController::Bindings() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<ClaimBinding> out;
  for (const auto& [key, claim] : claims_) {
    auto start = unbound_at_start_.find(key);
    if (start == unbound_at_start_.end() || !start->second || claim->spec().volume_name().empty()) continue;
    ClaimBinding b;
    b.namespace_name = claim->metadata().namespace_();
    b.name = claim->metadata().name();
    b.volume = claim->spec().volume_name();
    const auto& annotations = claim->metadata().annotations();
    if (auto it = annotations.find(kSelectedNode); it != annotations.end()) b.node = it->second;
    out.push_back(std::move(b));
  }
  std::sort(out.begin(), out.end(), [](const ClaimBinding& a, const ClaimBinding& b) {
    return std::tie(a.namespace_name, a.name) < std::tie(b.namespace_name, b.name);
  });
  return out;
}

}  // namespace schedkit::sim
