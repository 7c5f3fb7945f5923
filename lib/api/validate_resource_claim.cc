// Validation and defaults of ResourceClaim and ResourceClaimTemplate: the
// claim spec both hold (requests, constraints, configuration) and the
// claim's status, as the API server checks them.
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_split.h"
#include "api/go_format.h"
#include "api/validate_fields.h"
#include "api/validate_resource.h"
#include "schedkit/api/quantity.h"
#include "schedkit/api/v1/resource_claim.h"
#include "schedkit/api/v1/resource_claim_template.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::api {
namespace internal {
namespace {

constexpr int kDeviceRequestsMaxSize = 32;
constexpr int kDeviceConstraintsMaxSize = 32;
constexpr int kFirstAvailableMaxSize = 8;
constexpr int kReservedForMaxSize = 256;

// Request name → its subrequests' names (none for an `exactly` request).
using RequestNames = absl::flat_hash_map<std::string, absl::flat_hash_set<std::string>>;

RequestNames GatherRequestNames(const v1::DeviceClaim& claim) {
  RequestNames names;
  for (const v1::DeviceRequest& request : claim.requests()) {
    auto& subrequests = names[request.name()];
    for (const v1::DeviceSubRequest& sub : request.first_available()) subrequests.insert(sub.name());
  }
  return names;
}

absl::Status ValidateAllocationMode(std::string_view path, const std::string& mode, int64_t count) {
  if (mode == "All") {
    if (count != 0) {
      return FieldError(schedkit::StrCat(path, ".count"),
                        schedkit::StrCat("Invalid value: ", count, ": must not be specified when allocationMode is 'All'"));
    }
  } else if (mode == "ExactCount") {
    if (count <= 0) {
      return FieldError(schedkit::StrCat(path, ".count"),
                        schedkit::StrCat("Invalid value: ", count, ": must be greater than zero"));
    }
  } else {
    return FieldError(schedkit::StrCat(path, ".allocationMode"),
                      schedkit::StrCat("Unsupported value: ", GoQuote(mode), ": supported values: \"All\", \"ExactCount\""));
  }
  return absl::OkStatus();
}

absl::Status ValidateDeviceClassName(std::string_view path, const std::string& name) {
  if (name.empty()) return FieldError(path, "Required value");
  return ValidateName(path, name);
}

absl::Status ValidateTolerations(std::string_view path,
                                 const google::protobuf::RepeatedPtrField<v1::DeviceToleration>& tolerations) {
  if (tolerations.size() > kDeviceTolerationsMaxLength) {
    return FieldError(path, schedkit::StrCat("Too many: ", tolerations.size(), ": must have at most ",
                                             kDeviceTolerationsMaxLength, " items"));
  }
  for (int i = 0; i < tolerations.size(); ++i) {
    SCHEDKIT_RETURN_IF_ERROR(ValidateDeviceToleration(schedkit::StrCat(path, "[", i, "]"), tolerations[i]));
  }
  return absl::OkStatus();
}

absl::Status ValidateCapacityRequests(std::string_view path, const v1::CapacityRequirements& capacity) {
  for (const auto& [name, text] : capacity.requests()) {
    const std::string field = schedkit::StrCat(path, ".requests[", name, "]");
    SCHEDKIT_RETURN_IF_ERROR(ValidateQualifiedName(field, name));
    auto q = Quantity::Parse(text);
    if (!q.ok()) return FieldError(field, std::string(q.status().message()));
  }
  return absl::OkStatus();
}

// The fields an `exactly` request and a subrequest share.
template <typename Request>
absl::Status ValidateRequestBody(std::string_view path, const Request& request) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateDeviceClassName(schedkit::StrCat(path, ".deviceClassName"),
                                                   request.device_class_name()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateSelectors(schedkit::StrCat(path, ".selectors"), request.selectors()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateAllocationMode(path, request.allocation_mode(), request.count()));
  SCHEDKIT_RETURN_IF_ERROR(ValidateTolerations(schedkit::StrCat(path, ".tolerations"), request.tolerations()));
  if (request.has_capacity()) {
    SCHEDKIT_RETURN_IF_ERROR(ValidateCapacityRequests(schedkit::StrCat(path, ".capacity"), request.capacity()));
  }
  return absl::OkStatus();
}

absl::Status ValidateRequest(std::string_view path, const v1::DeviceRequest& request) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateDns1123Label(schedkit::StrCat(path, ".name"), request.name()));
  const bool exactly = request.has_exactly();
  const bool first_available = request.first_available_size() > 0;
  if (!exactly && !first_available) {
    return FieldError(path, "Required value: exactly one of `exactly` or `firstAvailable` is required");
  }
  if (exactly && first_available) {
    return FieldError(path,
                      "Invalid value: null: exactly one of `exactly` or `firstAvailable` is required, but multiple "
                      "fields are set");
  }
  if (exactly) return ValidateRequestBody(schedkit::StrCat(path, ".exactly"), request.exactly());
  const std::string list = schedkit::StrCat(path, ".firstAvailable");
  if (request.first_available_size() > kFirstAvailableMaxSize) {
    return FieldError(list, schedkit::StrCat("Too many: ", request.first_available_size(), ": must have at most ",
                                             kFirstAvailableMaxSize, " items"));
  }
  absl::flat_hash_set<std::string> seen;
  for (int i = 0; i < request.first_available_size(); ++i) {
    const v1::DeviceSubRequest& sub = request.first_available(i);
    const std::string item = schedkit::StrCat(list, "[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(ValidateDns1123Label(schedkit::StrCat(item, ".name"), sub.name()));
    if (!seen.insert(sub.name()).second) {
      return FieldError(item, schedkit::StrCat("Duplicate value: ", GoQuote(sub.name())));
    }
    SCHEDKIT_RETURN_IF_ERROR(ValidateRequestBody(item, sub));
  }
  return absl::OkStatus();
}

// A reference to a request ("<request>" or "<request>/<subrequest>").
absl::Status ValidateRequestReference(std::string_view path, const std::string& name, const RequestNames& names) {
  const std::vector<std::string> segments = absl::StrSplit(name, '/');
  bool known = false;
  if (segments.size() <= 2) {
    for (const std::string& segment : segments) SCHEDKIT_RETURN_IF_ERROR(ValidateDns1123Label(path, segment));
    auto it = names.find(segments[0]);
    known = it != names.end() && (segments.size() == 1 || it->second.contains(segments[1]));
  }
  if (!known) {
    return FieldError(path, schedkit::StrCat("Invalid value: ", GoQuote(name),
                                             ": must be the name of a request in the claim or the name of a request "
                                             "and a subrequest separated by '/'"));
  }
  return absl::OkStatus();
}

absl::Status ValidateRequestReferences(std::string_view path, const google::protobuf::RepeatedPtrField<std::string>& refs,
                                       const RequestNames& names) {
  absl::flat_hash_set<std::string> seen;
  for (int i = 0; i < refs.size(); ++i) {
    const std::string item = schedkit::StrCat(path, "[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(ValidateRequestReference(item, refs[i], names));
    if (!seen.insert(refs[i]).second) return FieldError(item, schedkit::StrCat("Duplicate value: ", GoQuote(refs[i])));
  }
  return absl::OkStatus();
}

template <typename Request>
void ApplyRequestDefaults(Request& request) {
  if (request.allocation_mode().empty()) request.set_allocation_mode("ExactCount");
  if (request.allocation_mode() == "ExactCount" && request.count() == 0) request.set_count(1);
  for (v1::DeviceToleration& toleration : *request.mutable_tolerations()) {
    if (toleration.operator_().empty()) toleration.set_operator_("Equal");
  }
}

absl::Status ValidateAllocation(std::string_view path, const v1::AllocationResult& allocation,
                                const RequestNames& names) {
  const v1::DeviceAllocationResult& devices = allocation.devices();
  for (int i = 0; i < devices.results_size(); ++i) {
    const v1::DeviceRequestAllocationResult& result = devices.results(i);
    const std::string item = schedkit::StrCat(path, ".devices.results[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(ValidateRequestReference(schedkit::StrCat(item, ".request"), result.request(), names));
    SCHEDKIT_RETURN_IF_ERROR(ValidateDriverName(schedkit::StrCat(item, ".driver"), result.driver()));
    SCHEDKIT_RETURN_IF_ERROR(ValidatePoolName(schedkit::StrCat(item, ".pool"), result.pool()));
    SCHEDKIT_RETURN_IF_ERROR(ValidateDns1123Label(schedkit::StrCat(item, ".device"), result.device()));
    for (const auto& [name, text] : result.consumed_capacity()) {
      const std::string field = schedkit::StrCat(item, ".consumedCapacity[", name, "]");
      auto q = Quantity::Parse(text);
      if (!q.ok()) return FieldError(field, std::string(q.status().message()));
    }
  }
  for (int i = 0; i < devices.config_size(); ++i) {
    const v1::DeviceAllocationConfiguration& config = devices.config(i);
    const std::string item = schedkit::StrCat(path, ".devices.config[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(OneOf(schedkit::StrCat(item, ".source"), config.source(), {"FromClass", "FromClaim"}));
    SCHEDKIT_RETURN_IF_ERROR(ValidateRequestReferences(schedkit::StrCat(item, ".requests"), config.requests(), names));
    if (!config.has_opaque()) return FieldError(schedkit::StrCat(item, ".opaque"), "Required value");
    SCHEDKIT_RETURN_IF_ERROR(ValidateOpaqueConfiguration(schedkit::StrCat(item, ".opaque"), config.opaque()));
  }
  if (allocation.has_node_selector()) {
    for (int i = 0; i < allocation.node_selector().node_selector_terms_size(); ++i) {
      SCHEDKIT_RETURN_IF_ERROR(ValidateNodeSelectorTerm(
          schedkit::StrCat(path, ".nodeSelector.nodeSelectorTerms[", i, "]"), allocation.node_selector().node_selector_terms(i)));
    }
  }
  return ValidateTimestamp(schedkit::StrCat(path, ".allocationTimestamp"), allocation.allocation_timestamp());
}

}  // namespace

absl::Status ValidateDeviceClaim(std::string_view path, const v1::DeviceClaim& claim) {
  const std::string requests = schedkit::StrCat(path, ".requests");
  if (claim.requests_size() > kDeviceRequestsMaxSize) {
    return FieldError(requests, schedkit::StrCat("Too many: ", claim.requests_size(), ": must have at most ",
                                                 kDeviceRequestsMaxSize, " items"));
  }
  absl::flat_hash_set<std::string> seen;
  for (int i = 0; i < claim.requests_size(); ++i) {
    const std::string item = schedkit::StrCat(requests, "[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(ValidateRequest(item, claim.requests(i)));
    if (!seen.insert(claim.requests(i).name()).second) {
      return FieldError(item, schedkit::StrCat("Duplicate value: ", GoQuote(claim.requests(i).name())));
    }
  }
  const RequestNames names = GatherRequestNames(claim);
  const std::string constraints = schedkit::StrCat(path, ".constraints");
  if (claim.constraints_size() > kDeviceConstraintsMaxSize) {
    return FieldError(constraints, schedkit::StrCat("Too many: ", claim.constraints_size(), ": must have at most ",
                                                    kDeviceConstraintsMaxSize, " items"));
  }
  for (int i = 0; i < claim.constraints_size(); ++i) {
    const v1::DeviceConstraint& constraint = claim.constraints(i);
    const std::string item = schedkit::StrCat(constraints, "[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(ValidateRequestReferences(schedkit::StrCat(item, ".requests"), constraint.requests(), names));
    if (constraint.has_match_attribute()) {
      SCHEDKIT_RETURN_IF_ERROR(
          ValidateFullyQualifiedName(schedkit::StrCat(item, ".matchAttribute"), constraint.match_attribute()));
    } else if (constraint.has_distinct_attribute()) {
      SCHEDKIT_RETURN_IF_ERROR(
          ValidateFullyQualifiedName(schedkit::StrCat(item, ".distinctAttribute"), constraint.distinct_attribute()));
    } else {
      return FieldError(item, "Required value: exactly one of \"matchAttribute\" or \"distinctAttribute\" is required, "
                              "but multiple fields are set");
    }
  }
  const std::string configs = schedkit::StrCat(path, ".config");
  if (claim.config_size() > kDeviceConfigMaxSize) {
    return FieldError(configs, schedkit::StrCat("Too many: ", claim.config_size(), ": must have at most ",
                                                kDeviceConfigMaxSize, " items"));
  }
  for (int i = 0; i < claim.config_size(); ++i) {
    const v1::DeviceClaimConfiguration& config = claim.config(i);
    const std::string item = schedkit::StrCat(configs, "[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(ValidateRequestReferences(schedkit::StrCat(item, ".requests"), config.requests(), names));
    if (!config.has_opaque()) return FieldError(schedkit::StrCat(item, ".opaque"), "Required value");
    SCHEDKIT_RETURN_IF_ERROR(ValidateOpaqueConfiguration(schedkit::StrCat(item, ".opaque"), config.opaque()));
  }
  return absl::OkStatus();
}

void ApplyDeviceClaimDefaults(v1::DeviceClaim& claim) {
  for (v1::DeviceRequest& request : *claim.mutable_requests()) {
    if (request.has_exactly()) ApplyRequestDefaults(*request.mutable_exactly());
    for (v1::DeviceSubRequest& sub : *request.mutable_first_available()) ApplyRequestDefaults(sub);
  }
}

}  // namespace internal

using internal::FieldError;

void KindTraits<v1::ResourceClaim>::ApplyDefaults(v1::ResourceClaim& claim) {
  internal::ApplyDeviceClaimDefaults(*claim.mutable_spec()->mutable_devices());
}

absl::Status KindTraits<v1::ResourceClaim>::Validate(const v1::ResourceClaim& claim) {
  SCHEDKIT_RETURN_IF_ERROR(internal::ValidateMeta("metadata", claim.metadata()));
  SCHEDKIT_RETURN_IF_ERROR(internal::ValidateDeviceClaim("spec.devices", claim.spec().devices()));
  const v1::ResourceClaimStatus& status = claim.status();
  if (status.has_allocation()) {
    SCHEDKIT_RETURN_IF_ERROR(internal::ValidateAllocation("status.allocation", status.allocation(),
                                                          internal::GatherRequestNames(claim.spec().devices())));
  }
  if (status.reserved_for_size() > internal::kReservedForMaxSize) {
    return FieldError("status.reservedFor", schedkit::StrCat("Too many: ", status.reserved_for_size(),
                                                             ": must have at most ", internal::kReservedForMaxSize,
                                                             " items"));
  }
  if (status.reserved_for_size() > 0 && !status.has_allocation()) {
    return FieldError("status.reservedFor", "Forbidden: may not be specified when `allocated` is not set");
  }
  absl::flat_hash_set<std::string> uids;
  for (int i = 0; i < status.reserved_for_size(); ++i) {
    const v1::ResourceClaimConsumerReference& ref = status.reserved_for(i);
    const std::string item = schedkit::StrCat("status.reservedFor[", i, "]");
    SCHEDKIT_RETURN_IF_ERROR(internal::Required(schedkit::StrCat(item, ".resource"), ref.resource()));
    SCHEDKIT_RETURN_IF_ERROR(internal::Required(schedkit::StrCat(item, ".name"), ref.name()));
    SCHEDKIT_RETURN_IF_ERROR(internal::Required(schedkit::StrCat(item, ".uid"), ref.uid()));
    if (!uids.insert(ref.uid()).second) {
      return FieldError(item, schedkit::StrCat("Duplicate value: ", schedkit::GoQuote(ref.uid())));
    }
  }
  return absl::OkStatus();
}

void KindTraits<v1::ResourceClaimTemplate>::ApplyDefaults(v1::ResourceClaimTemplate& tmpl) {
  internal::ApplyDeviceClaimDefaults(*tmpl.mutable_spec()->mutable_spec()->mutable_devices());
}

absl::Status KindTraits<v1::ResourceClaimTemplate>::Validate(const v1::ResourceClaimTemplate& tmpl) {
  SCHEDKIT_RETURN_IF_ERROR(internal::ValidateMeta("metadata", tmpl.metadata()));
  return internal::ValidateDeviceClaim("spec.spec.devices", tmpl.spec().spec().devices());
}

}  // namespace schedkit::api
