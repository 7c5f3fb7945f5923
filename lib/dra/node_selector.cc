// Node selection: whether a slice or device is available on a node
// (upstream's NodeMatches), and the node selector written into an allocation
// result (upstream's createNodeSelector): where the allocated devices can be
// reached from.
#include <algorithm>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "dra/allocator_internal.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::dra::internal {
namespace {

using Requirements = google::protobuf::RepeatedPtrField<api::v1::NodeSelectorRequirement>;

// Same key, operator and set of values: the selector has it already.
bool SameRequirement(const api::v1::NodeSelectorRequirement& a, const api::v1::NodeSelectorRequirement& b) {
  if (a.key() != b.key() || a.operator_() != b.operator_()) return false;
  absl::flat_hash_set<std::string_view> va(a.values().begin(), a.values().end());
  absl::flat_hash_set<std::string_view> vb(b.values().begin(), b.values().end());
  return va == vb;
}

void AddNewRequirements(const Requirements& from, Requirements& to) {
  for (const api::v1::NodeSelectorRequirement& r : from) {
    if (std::none_of(to.begin(), to.end(), [&](const auto& existing) { return SameRequirement(existing, r); })) {
      *to.Add() = r;
    }
  }
}

}  // namespace

absl::StatusOr<bool> NodeMatches(const NodeContext& node, std::string_view node_name, bool all_nodes,
                                 const absl::StatusOr<api::NodeSelector>* selector) {
  if (!node_name.empty()) return node.node() != nullptr && node.node()->metadata().name() == node_name;
  if (all_nodes) return true;
  if (selector != nullptr) {
    if (!selector->ok()) {
      return absl::InvalidArgumentError(StrCat("failed to parse node selector: ", selector->status().message()));
    }
    return node.node() != nullptr && (*selector)->Matches(node.labels(), node.name());
  }
  return false;
}

absl::StatusOr<std::optional<api::v1::NodeSelector>> CreateNodeSelector(std::span<const ResultDevice> devices,
                                                                        std::string_view node_name) {
  api::v1::NodeSelector selector;
  api::v1::NodeSelectorTerm* term = selector.add_node_selector_terms();
  for (const ResultDevice& result : devices) {
    const api::v1::ResourceSliceSpec& spec = result.slice->spec();
    const api::v1::Device& device = *result.device->device;
    const bool per_device = spec.per_device_node_selection();
    const bool has_node_name = per_device ? device.has_node_name() : spec.has_node_name();
    const api::v1::NodeSelector* node_selector = nullptr;
    if (per_device ? device.has_node_selector() : spec.has_node_selector()) {
      node_selector = per_device ? &device.node_selector() : &spec.node_selector();
    }
    if (has_node_name || device.binds_to_node()) {
      // A device local to one node, or one that binds to the node, pins the
      // whole claim to this node.
      api::v1::NodeSelector pinned;
      api::v1::NodeSelectorRequirement* r = pinned.add_node_selector_terms()->add_match_fields();
      r->set_key("metadata.name");
      r->set_operator_("In");
      r->add_values(std::string(node_name));
      return pinned;
    }
    if (node_selector == nullptr) continue;
    switch (node_selector->node_selector_terms_size()) {
      case 0:
        break;
      case 1:
        AddNewRequirements(node_selector->node_selector_terms(0).match_fields(), *term->mutable_match_fields());
        AddNewRequirements(node_selector->node_selector_terms(0).match_expressions(),
                           *term->mutable_match_expressions());
        break;
      default:
        // Validation keeps such slices out of the API.
        return absl::InvalidArgumentError(StrCat("unsupported ResourceSlice.NodeSelector with ",
                                                 node_selector->node_selector_terms_size(), " terms"));
    }
  }
  if (term->match_fields_size() > 0 || term->match_expressions_size() > 0) return selector;
  return std::nullopt;  // available everywhere
}

}  // namespace schedkit::dra::internal

namespace schedkit::dra {

absl::StatusOr<bool> NodeMatches(const api::v1::Node& node, std::string_view node_name, bool all_nodes,
                                 const api::v1::NodeSelector* selector) {
  internal::NodeContext context(&node);
  std::optional<absl::StatusOr<api::NodeSelector>> compiled;
  if (selector != nullptr) compiled = api::NodeSelector::Compile(*selector);
  return internal::NodeMatches(context, node_name, all_nodes, compiled ? &*compiled : nullptr);
}

}  // namespace schedkit::dra
