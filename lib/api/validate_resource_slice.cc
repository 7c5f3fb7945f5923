// Validation of ResourceSlice and DeviceTaintRule as the API server checks
// them: the pool, node selection, devices (attributes, capacity, counters,
// taints, binding conditions) and shared counter sets.
#include <regex>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "api/apimachinery_validation.h"
#include "api/go_format.h"
#include "api/validate_fields.h"
#include "api/validate_resource.h"
#include "schedkit/api/quantity.h"
#include "schedkit/api/v1/device_taint_rule.h"
#include "schedkit/api/v1/resource_slice.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::api {
namespace internal {
namespace {

constexpr int kMaxDevices = 128;
// With taints, counter consumption or list attributes.
constexpr int kMaxDevicesWithAdvancedFeatures = 64;
constexpr int kMaxCounterSets = 8;
constexpr int kMaxCountersPerSet = 32;
constexpr int kMaxConsumptionsPerDevice = 2;
constexpr int kMaxCountersPerConsumption = 32;
constexpr int kMaxAttributesAndCapacities = 32;
constexpr int kMaxAttributeValues = 48;
constexpr int kMaxTaints = 16;
constexpr int kMaxBindingConditions = 4;

// semver.org 2.0.0, as the API server's pattern.
bool IsSemver(const std::string& text) {
  static const std::regex* pattern = new std::regex(
      R"(^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*))"
      R"((-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?)"
      R"((\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$)");
  return std::regex_match(text, *pattern);
}

absl::Status ValidateVersion(std::string_view path, const std::string& value) {
  if (!IsSemver(value)) {
    return FieldError(path, schedkit::StrCat("Invalid value: ", GoQuote(value),
                                             ": must be a string compatible with semver.org spec 2.0.0"));
  }
  if (value.size() > kDeviceAttributeMaxValueLength) {
    return FieldError(path,
                      schedkit::StrCat("Too long: may not be more than ", kDeviceAttributeMaxValueLength, " bytes"));
  }
  return absl::OkStatus();
}

absl::Status ValidateStringValue(std::string_view path, const std::string& value) {
  if (value.size() > kDeviceAttributeMaxValueLength) {
    return FieldError(path,
                      schedkit::StrCat("Too long: may not be more than ", kDeviceAttributeMaxValueLength, " bytes"));
  }
  return absl::OkStatus();
}

absl::Status ValidateAttribute(std::string_view path, const v1::DeviceAttribute& a) {
  int fields = a.has_int_value() + a.has_bool_value() + a.has_string_value() + a.has_version_value() +
               (a.int_values_size() > 0) + (a.bool_values_size() > 0) + (a.string_values_size() > 0) +
               (a.version_values_size() > 0);
  if (fields != 1) return FieldError(path, "Invalid value: exactly one value must be specified");
  if (a.has_string_value()) SCHEDKIT_RETURN_IF_ERROR(ValidateStringValue(schedkit::StrCat(path, ".string"), a.string_value()));
  if (a.has_version_value()) SCHEDKIT_RETURN_IF_ERROR(ValidateVersion(schedkit::StrCat(path, ".version"), a.version_value()));
  for (int i = 0; i < a.string_values_size(); ++i) {
    SCHEDKIT_RETURN_IF_ERROR(ValidateStringValue(schedkit::StrCat(path, ".strings[", i, "]"), a.string_values(i)));
  }
  for (int i = 0; i < a.version_values_size(); ++i) {
    SCHEDKIT_RETURN_IF_ERROR(ValidateVersion(schedkit::StrCat(path, ".versions[", i, "]"), a.version_values(i)));
  }
  return absl::OkStatus();
}

absl::Status ValidateQuantity(std::string_view path, const std::string& text) {
  auto q = Quantity::Parse(text);
  if (!q.ok()) return FieldError(path, std::string(q.status().message()));
  return absl::OkStatus();
}

absl::Status ValidateOptionalQuantity(std::string_view path, bool has, const std::string& text) {
  return has ? ValidateQuantity(path, text) : absl::OkStatus();
}

absl::Status ValidateCapacity(std::string_view path, const v1::DeviceCapacity& capacity, bool multiple_allocations) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateQuantity(schedkit::StrCat(path, ".value"), capacity.value()));
  if (!capacity.has_request_policy()) return absl::OkStatus();
  const std::string policy_path = schedkit::StrCat(path, ".requestPolicy");
  if (!multiple_allocations) return FieldError(policy_path, "Forbidden: allowMultipleAllocations must be true");
  const v1::CapacityRequestPolicy& policy = capacity.request_policy();
  if (policy.valid_values_size() > 0 && policy.has_valid_range()) {
    return FieldError(policy_path,
                      "Forbidden: exactly one policy can be specified, cannot specify \"validValues\" and "
                      "\"validRange\" at the same time");
  }
  SCHEDKIT_RETURN_IF_ERROR(
      ValidateOptionalQuantity(schedkit::StrCat(policy_path, ".default"), policy.has_default_(), policy.default_()));
  for (int i = 0; i < policy.valid_values_size(); ++i) {
    SCHEDKIT_RETURN_IF_ERROR(ValidateQuantity(schedkit::StrCat(policy_path, ".validValues[", i, "]"), policy.valid_values(i)));
  }
  if (policy.has_valid_range()) {
    const v1::CapacityRequestPolicyRange& range = policy.valid_range();
    const std::string range_path = schedkit::StrCat(policy_path, ".validRange");
    SCHEDKIT_RETURN_IF_ERROR(ValidateOptionalQuantity(schedkit::StrCat(range_path, ".min"), range.has_min(), range.min()));
    SCHEDKIT_RETURN_IF_ERROR(ValidateOptionalQuantity(schedkit::StrCat(range_path, ".max"), range.has_max(), range.max()));
    SCHEDKIT_RETURN_IF_ERROR(ValidateOptionalQuantity(schedkit::StrCat(range_path, ".step"), range.has_step(), range.step()));
  }
  return absl::OkStatus();
}

template <typename Map>
absl::Status ValidateCounters(std::string_view path, const Map& counters, int max) {
  if (counters.empty()) return FieldError(path, "Required value");
  if (static_cast<int>(counters.size()) > max) {
    return FieldError(path, schedkit::StrCat("Too many: ", counters.size(), ": must have at most ", max, " items"));
  }
  for (const auto& [name, counter] : counters) {
    const std::string field = schedkit::StrCat(path, "[", name, "]");
    SCHEDKIT_RETURN_IF_ERROR(ValidateDns1123Label(field, name));
    SCHEDKIT_RETURN_IF_ERROR(ValidateQuantity(schedkit::StrCat(field, ".value"), counter.value()));
  }
  return absl::OkStatus();
}

absl::Status ValidateConditionNames(std::string_view path, const google::protobuf::RepeatedPtrField<std::string>& names) {
  if (names.size() > kMaxBindingConditions) {
    return FieldError(path, schedkit::StrCat("Too many: ", names.size(), ": must have at most ", kMaxBindingConditions,
                                             " items"));
  }
  absl::flat_hash_set<std::string> seen;
  for (int i = 0; i < names.size(); ++i) {
    const std::string item = schedkit::StrCat(path, "[", i, "]");
    const std::vector<std::string> errors = LabelKeyErrors(names[i]);
    if (!errors.empty()) {
      return FieldError(item, schedkit::StrCat("Invalid value: ", GoQuote(names[i]), ": ", errors.front()));
    }
    if (!seen.insert(names[i]).second) return FieldError(item, schedkit::StrCat("Duplicate value: ", GoQuote(names[i])));
  }
  return absl::OkStatus();
}

absl::Status ValidateBindingConditions(std::string_view path, const v1::Device& device) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateConditionNames(schedkit::StrCat(path, ".bindingConditions"), device.binding_conditions()));
  SCHEDKIT_RETURN_IF_ERROR(
      ValidateConditionNames(schedkit::StrCat(path, ".bindingFailureConditions"), device.binding_failure_conditions()));
  for (int i = 0; i < device.binding_failure_conditions_size(); ++i) {
    for (const std::string& condition : device.binding_conditions()) {
      if (condition == device.binding_failure_conditions(i)) {
        return FieldError(schedkit::StrCat(path, ".bindingFailureConditions[", i, "]"),
                          schedkit::StrCat("Invalid value: ", GoQuote(condition),
                                           ": bindingFailureConditions must not overlap with bindingConditions"));
      }
    }
  }
  if (device.binding_conditions_size() == 0 && device.binding_failure_conditions_size() > 0) {
    return FieldError(schedkit::StrCat(path, ".bindingConditions"),
                      "Invalid value: null: bindingConditions are required to use bindingFailureConditions");
  }
  if (device.binding_failure_conditions_size() == 0 && device.binding_conditions_size() > 0) {
    return FieldError(schedkit::StrCat(path, ".bindingFailureConditions"),
                      "Invalid value: null: bindingFailureConditions are required to use bindingConditions");
  }
  return absl::OkStatus();
}

absl::Status ValidateNodeSelector(std::string_view path, const v1::NodeSelector& selector) {
  for (int i = 0; i < selector.node_selector_terms_size(); ++i) {
    SCHEDKIT_RETURN_IF_ERROR(
        ValidateNodeSelectorTerm(schedkit::StrCat(path, ".nodeSelectorTerms[", i, "]"), selector.node_selector_terms(i)));
  }
  return absl::OkStatus();
}

absl::Status ValidateDevice(std::string_view path, const v1::Device& device, bool per_device_node_selection) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateDns1123Label(schedkit::StrCat(path, ".name"), device.name()));
  const int entries = device.attributes_size() + device.capacity_size();
  if (entries > kMaxAttributesAndCapacities) {
    return FieldError(path, schedkit::StrCat("Invalid value: ", entries,
                                             ": the total number of attributes and capacities must not exceed ",
                                             kMaxAttributesAndCapacities));
  }
  int values = 0;
  for (const auto& [name, a] : device.attributes()) {
    const int list = a.int_values_size() + a.bool_values_size() + a.string_values_size() + a.version_values_size();
    values += list == 0 ? 1 : list;
  }
  if (values > kMaxAttributeValues) {
    return FieldError(path, schedkit::StrCat("Invalid value: ", values,
                                             ": the total number of attribute values must not exceed ",
                                             kMaxAttributeValues));
  }
  for (const auto& [name, attribute] : device.attributes()) {
    const std::string field = schedkit::StrCat(path, ".attributes[", name, "]");
    SCHEDKIT_RETURN_IF_ERROR(ValidateQualifiedName(field, name));
    SCHEDKIT_RETURN_IF_ERROR(ValidateAttribute(field, attribute));
  }
  const bool multiple = device.allow_multiple_allocations();
  for (const auto& [name, capacity] : device.capacity()) {
    const std::string field = schedkit::StrCat(path, ".capacity[", name, "]");
    SCHEDKIT_RETURN_IF_ERROR(ValidateQualifiedName(field, name));
    SCHEDKIT_RETURN_IF_ERROR(ValidateCapacity(field, capacity, multiple));
  }
  if (device.taints_size() > kMaxTaints) {
    return FieldError(schedkit::StrCat(path, ".taints"), schedkit::StrCat("Too many: ", device.taints_size(),
                                                                         ": must have at most ", kMaxTaints, " items"));
  }
  for (int i = 0; i < device.taints_size(); ++i) {
    SCHEDKIT_RETURN_IF_ERROR(ValidateDeviceTaint(schedkit::StrCat(path, ".taints[", i, "]"), device.taints(i)));
  }
  const std::string consumes = schedkit::StrCat(path, ".consumesCounters");
  if (device.consumes_counters_size() > kMaxConsumptionsPerDevice) {
    return FieldError(consumes, schedkit::StrCat("Too many: ", device.consumes_counters_size(), ": must have at most ",
                                                 kMaxConsumptionsPerDevice, " items"));
  }
  absl::flat_hash_set<std::string> sets;
  for (int i = 0; i < device.consumes_counters_size(); ++i) {
    const v1::DeviceCounterConsumption& consumption = device.consumes_counters(i);
    const std::string item = schedkit::StrCat(consumes, "[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(ValidateDns1123Label(schedkit::StrCat(item, ".counterSet"), consumption.counter_set()));
    if (!sets.insert(consumption.counter_set()).second) {
      return FieldError(item, schedkit::StrCat("Duplicate value: ", GoQuote(consumption.counter_set())));
    }
    SCHEDKIT_RETURN_IF_ERROR(
        ValidateCounters(schedkit::StrCat(item, ".counters"), consumption.counters(), kMaxCountersPerConsumption));
  }
  const bool node_fields = device.has_node_name() || device.has_node_selector() || device.has_all_nodes();
  if (per_device_node_selection) {
    int set = 0;
    if (device.has_node_name()) {
      if (device.node_name().empty()) {
        return FieldError(schedkit::StrCat(path, ".nodeName"), "Invalid value: \"\": must not be empty");
      }
      SCHEDKIT_RETURN_IF_ERROR(ValidateName(schedkit::StrCat(path, ".nodeName"), device.node_name()));
      ++set;
    }
    if (device.has_node_selector()) {
      SCHEDKIT_RETURN_IF_ERROR(ValidateNodeSelector(schedkit::StrCat(path, ".nodeSelector"), device.node_selector()));
      ++set;
    }
    if (device.has_all_nodes()) {
      if (!device.all_nodes()) {
        return FieldError(schedkit::StrCat(path, ".allNodes"), "Invalid value: false: must be either unset or set to true");
      }
      ++set;
    }
    if (set != 1) {
      return FieldError(path, "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when "
                              "`perDeviceNodeSelection` is set to true in the ResourceSlice spec");
    }
  } else if (node_fields) {
    return FieldError(path, "Invalid value: null: `nodeName`, `nodeSelector` and `allNodes` can only be set if "
                            "`perDeviceNodeSelection` is set to true in the ResourceSlice spec");
  }
  return ValidateBindingConditions(path, device);
}

bool HasAdvancedFeatures(const v1::ResourceSliceSpec& spec) {
  for (const v1::Device& d : spec.devices()) {
    if (d.taints_size() > 0 || d.consumes_counters_size() > 0) return true;
    for (const auto& [name, a] : d.attributes()) {
      if (a.int_values_size() + a.bool_values_size() + a.string_values_size() + a.version_values_size() > 0) return true;
    }
  }
  return false;
}

}  // namespace
}  // namespace internal

using internal::FieldError;

absl::Status KindTraits<v1::ResourceSlice>::Validate(const v1::ResourceSlice& slice) {
  SCHEDKIT_RETURN_IF_ERROR(internal::ValidateMeta("metadata", slice.metadata()));
  const v1::ResourceSliceSpec& spec = slice.spec();
  SCHEDKIT_RETURN_IF_ERROR(internal::ValidateDriverName("spec.driver", spec.driver()));
  SCHEDKIT_RETURN_IF_ERROR(internal::ValidatePoolName("spec.pool.name", spec.pool().name()));
  if (spec.pool().resource_slice_count() <= 0) {
    return FieldError("spec.pool.resourceSliceCount",
                      schedkit::StrCat("Invalid value: ", spec.pool().resource_slice_count(), ": must be greater than zero"));
  }
  if (spec.pool().generation() < 0) {
    return FieldError("spec.pool.generation", schedkit::StrCat("Invalid value: ", spec.pool().generation(),
                                                               ": must be greater than or equal to zero"));
  }
  std::vector<std::string> set;
  if (spec.has_node_name()) {
    if (spec.node_name().empty()) {
      return FieldError("spec.nodeName", "Invalid value: \"\": must be either unset or set to a non-empty string");
    }
    SCHEDKIT_RETURN_IF_ERROR(internal::ValidateName("spec.nodeName", spec.node_name()));
    set.push_back("`nodeName`");
  }
  if (spec.has_node_selector()) {
    SCHEDKIT_RETURN_IF_ERROR(internal::ValidateNodeSelector("spec.nodeSelector", spec.node_selector()));
    if (spec.node_selector().node_selector_terms_size() != 1) {
      return FieldError("spec.nodeSelector.nodeSelectorTerms", "Invalid value: must have exactly one node selector term");
    }
    set.push_back("`nodeSelector`");
  }
  if (spec.has_all_nodes()) {
    if (!spec.all_nodes()) return FieldError("spec.allNodes", "Invalid value: false: must be either unset or set to true");
    set.push_back("`allNodes`");
  }
  if (spec.has_per_device_node_selection()) {
    if (!spec.per_device_node_selection()) {
      return FieldError("spec.perDeviceNodeSelection", "Invalid value: false: must be either unset or set to true");
    }
    set.push_back("`perDeviceNodeSelection`");
  }
  if (set.empty()) {
    return FieldError("spec", "Required value: exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
                              "`perDeviceNodeSelection` is required");
  }
  if (set.size() > 1) {
    std::string fields;
    for (const std::string& f : set) fields += (fields.empty() ? "" : ", ") + f;
    return FieldError("spec", schedkit::StrCat("Invalid value: \"{", fields, "}\": exactly one of `nodeName`, "
                                               "`nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but "
                                               "multiple fields are set"));
  }
  if (spec.shared_counters_size() > 0 && spec.devices_size() > 0) {
    return FieldError("spec", "Invalid value: \"\": only one of `sharedCounters` or `devices` is allowed");
  }
  const int max_devices = internal::HasAdvancedFeatures(spec) ? internal::kMaxDevicesWithAdvancedFeatures
                                                              : internal::kMaxDevices;
  if (spec.devices_size() > max_devices) {
    return FieldError("spec.devices", schedkit::StrCat("Too many: ", spec.devices_size(), ": must have at most ",
                                                       max_devices, " items"));
  }
  absl::flat_hash_set<std::string> names;
  for (int i = 0; i < spec.devices_size(); ++i) {
    const std::string item = schedkit::StrCat("spec.devices[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(internal::ValidateDevice(item, spec.devices(i), spec.per_device_node_selection()));
    if (!names.insert(spec.devices(i).name()).second) {
      return FieldError(item, schedkit::StrCat("Duplicate value: ", GoQuote(spec.devices(i).name())));
    }
  }
  if (spec.shared_counters_size() > internal::kMaxCounterSets) {
    return FieldError("spec.sharedCounters", schedkit::StrCat("Too many: ", spec.shared_counters_size(),
                                                              ": must have at most ", internal::kMaxCounterSets, " items"));
  }
  absl::flat_hash_set<std::string> sets;
  for (int i = 0; i < spec.shared_counters_size(); ++i) {
    const v1::CounterSet& counter_set = spec.shared_counters(i);
    const std::string item = schedkit::StrCat("spec.sharedCounters[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(internal::ValidateDns1123Label(schedkit::StrCat(item, ".name"), counter_set.name()));
    if (!sets.insert(counter_set.name()).second) {
      return FieldError(item, schedkit::StrCat("Duplicate value: ", GoQuote(counter_set.name())));
    }
    SCHEDKIT_RETURN_IF_ERROR(internal::ValidateCounters(schedkit::StrCat(item, ".counters"), counter_set.counters(),
                                                        internal::kMaxCountersPerSet));
  }
  if (spec.has_partition_type_attribute()) {
    SCHEDKIT_RETURN_IF_ERROR(
        internal::ValidateFullyQualifiedName("spec.partitionTypeAttribute", spec.partition_type_attribute()));
  }
  return absl::OkStatus();
}

absl::Status KindTraits<v1::DeviceTaintRule>::Validate(const v1::DeviceTaintRule& rule) {
  SCHEDKIT_RETURN_IF_ERROR(internal::ValidateMeta("metadata", rule.metadata()));
  const v1::DeviceTaintRuleSpec& spec = rule.spec();
  if (spec.has_device_selector()) {
    const v1::DeviceTaintSelector& selector = spec.device_selector();
    if (selector.has_driver()) {
      SCHEDKIT_RETURN_IF_ERROR(internal::ValidateDriverName("spec.deviceSelector.driver", selector.driver()));
    }
    if (selector.has_pool()) {
      SCHEDKIT_RETURN_IF_ERROR(internal::ValidatePoolName("spec.deviceSelector.pool", selector.pool()));
    }
    if (selector.has_device()) {
      SCHEDKIT_RETURN_IF_ERROR(internal::ValidateDns1123Label("spec.deviceSelector.device", selector.device()));
    }
  }
  return internal::ValidateDeviceTaint("spec.taint", spec.taint());
}

}  // namespace schedkit::api
