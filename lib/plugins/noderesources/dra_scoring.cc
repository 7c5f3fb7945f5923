#include "plugins/noderesources/dra_scoring.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "dra/allocator.h"
#include "dra/extended_resources.h"
#include "schedkit/api/v1/device_class.h"
#include "schedkit/api/v1/resource_slice.h"
#include "schedkit/framework/resource.h"

namespace schedkit::plugins::noderesources {
namespace {

// Devices of one class among some devices: how many, how many allocated,
// and whether a selector failed on one (the node then counts nothing, as
// upstream gives up on the node at the first error).
struct Tally {
  int64_t capacity = 0;
  int64_t allocated = 0;
  bool failed = false;

  void Add(const Tally& o) {
    capacity += o.capacity;
    allocated += o.allocated;
    failed = failed || o.failed;
  }
};

class ClassMatcher {
 public:
  ClassMatcher(const api::v1::DeviceClass& cls, const dra::AllocatedState& allocated, dra::SelectorCache& selectors)
      : cls_(cls), allocated_(allocated), selectors_(selectors) {}

  // Whether `device` of `slice` is the class's: every CEL selector true.
  Tally Of(const api::v1::ResourceSlice& slice, const api::v1::Device& device) {
    Tally t;
    for (const api::v1::DeviceSelector& selector : cls_.spec().selectors()) {
      if (!selector.has_cel()) continue;
      dra::CompileResult compiled = selectors_.GetOrCompile(selector.cel().expression());
      if (!compiled.error.ok()) return Tally{0, 0, true};
      absl::StatusOr<bool> matches = compiled.selector->Matches(
          {.driver = slice.spec().driver(), .attributes = &device.attributes(), .capacity = &device.capacity()});
      if (!matches.ok()) return Tally{0, 0, true};
      if (!*matches) return t;
    }
    t.capacity = 1;
    const dra::DeviceId id = dra::DeviceId::Make(slice.spec().driver(), slice.spec().pool().name(), device.name());
    t.allocated = dra::IsDeviceAllocated(id, allocated_) ? 1 : 0;
    return t;
  }

 private:
  const api::v1::DeviceClass& cls_;
  const dra::AllocatedState& allocated_;
  dra::SelectorCache& selectors_;
};

// Upstream's choice of the nodes a slice's devices count on (slice-level
// selection): all nodes, the named one, or those its selector matches; a
// slice that names none of them counts everywhere.
void AddSlice(const api::v1::ResourceSlice& slice, const Tally& tally,
              std::span<const framework::NodeInfo* const> nodes, std::vector<Tally>& per_node) {
  const api::v1::ResourceSliceSpec& spec = slice.spec();
  const bool all_nodes = spec.all_nodes();
  const std::string_view name = spec.node_name();
  for (size_t n = 0; n < nodes.size(); ++n) {
    const framework::NodeInfo& node = *nodes[n];
    const std::string_view node_name = node.name().str();
    if (!all_nodes && name != node_name && spec.has_node_selector()) {
      absl::StatusOr<bool> matches = dra::NodeMatches(*node.node(), name, all_nodes, &spec.node_selector());
      if (!matches.ok()) {
        per_node[n].failed = true;
        continue;
      }
      if (!*matches) continue;
    } else if (!all_nodes && !name.empty() && name != node_name) {
      continue;
    }
    per_node[n].Add(tally);
  }
}

// Per-device node selection: each device counts where it is reachable.
void AddDevice(const api::v1::Device& device, const Tally& tally, std::span<const framework::NodeInfo* const> nodes,
               std::vector<Tally>& per_node) {
  const bool all_nodes = device.all_nodes();
  const std::string_view name = device.node_name();
  for (size_t n = 0; n < nodes.size(); ++n) {
    const framework::NodeInfo& node = *nodes[n];
    if (all_nodes || (!name.empty() && name == node.name().str())) {
      per_node[n].Add(tally);
      continue;
    }
    if (!device.has_node_selector()) continue;
    absl::StatusOr<bool> matches = dra::NodeMatches(*node.node(), name, all_nodes, &device.node_selector());
    if (!matches.ok()) {
      per_node[n].failed = true;
    } else if (*matches) {
      per_node[n].Add(tally);
    }
  }
}

}  // namespace

namespace {

bool Candidate(const framework::Resource::Scalar& s) {
  return s.amount != 0 && framework::IsDraExtendedResourceName(s.name.str());
}

}  // namespace

bool AsksForDraExtendedResourceName(const framework::Resource& requests) {
  return std::any_of(requests.scalars.begin(), requests.scalars.end(), Candidate);
}

bool AsksForDraBackedResource(const framework::PodInfo& pod, const api::ObjectLister& objects) {
  const framework::Resource& req = pod.spec_requests();
  // Most pods ask for none: no class is listed for them.
  if (!AsksForDraExtendedResourceName(req)) return false;
  const dra::ExtendedResourceClasses classes(objects.List<api::v1::DeviceClass>());
  return std::any_of(req.scalars.begin(), req.scalars.end(),
                     [&](const auto& s) { return Candidate(s) && classes.Find(s.name.str()) != nullptr; });
}

std::shared_ptr<const DraDeviceCounts> DraDeviceCounts::Compute(const DraScoringSources& sources,
                                                                std::span<const framework::NodeInfo* const> nodes,
                                                                std::span<const ScoredResource> resources) {
  if (sources.objects == nullptr || sources.tracker == nullptr || sources.selectors == nullptr) return nullptr;
  bool candidate = false;
  for (const ScoredResource& r : resources) {
    candidate = candidate || (r.kind == ResourceKind::kScalar && framework::IsDraExtendedResourceName(r.name.str()));
  }
  if (!candidate) return nullptr;
  const dra::ExtendedResourceClasses classes(sources.objects->List<api::v1::DeviceClass>());
  std::vector<const api::v1::DeviceClass*> backing(resources.size(), nullptr);
  bool any = false;
  for (size_t i = 0; i < resources.size(); ++i) {
    if (resources[i].kind != ResourceKind::kScalar) continue;
    backing[i] = classes.Find(resources[i].name.str());
    any = any || backing[i] != nullptr;
  }
  if (!any) return nullptr;

  const dra::AllocatedState allocated = sources.tracker->GatherAllocatedState(sources.consumable_capacity);
  const std::vector<std::shared_ptr<const api::v1::ResourceSlice>> slices = sources.tracker->Slices(true);
  auto counts = std::make_shared<DraDeviceCounts>();
  counts->by_resource_.resize(resources.size());
  for (size_t i = 0; i < resources.size(); ++i) {
    if (backing[i] == nullptr) continue;
    ClassMatcher matcher(*backing[i], allocated, *sources.selectors);
    std::vector<Tally> per_node(nodes.size());
    for (const auto& slice : slices) {
      if (slice->spec().per_device_node_selection()) {
        for (const api::v1::Device& device : slice->spec().devices()) {
          AddDevice(device, matcher.Of(*slice, device), nodes, per_node);
        }
        continue;
      }
      Tally tally;
      for (const api::v1::Device& device : slice->spec().devices()) tally.Add(matcher.Of(*slice, device));
      AddSlice(*slice, tally, nodes, per_node);
    }
    DraCountsByNode& out = counts->by_resource_[i];
    for (size_t n = 0; n < nodes.size(); ++n) {
      if (per_node[n].failed || per_node[n].capacity == 0) continue;
      out[nodes[n]->name()] = {per_node[n].capacity, per_node[n].allocated};
    }
  }
  return counts;
}

void DraDeviceCounts::Attach(std::span<ScoredResource> resources) const {
  for (size_t i = 0; i < resources.size() && i < by_resource_.size(); ++i) {
    if (!by_resource_[i].empty()) resources[i].dra_counts = &by_resource_[i];
  }
}

}  // namespace schedkit::plugins::noderesources
