// Validation of the resource.k8s.io kinds (Dynamic Resource Allocation): the
// checks they share, and DeviceClass. The API server's checks of the fields
// the scheduler reads, with its texts; CEL expressions are checked for
// presence and size here.
#include "api/validate_resource.h"

#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "api/apimachinery_validation.h"
#include "api/go_format.h"
#include "api/validate_fields.h"
#include "schedkit/api/v1/device_class.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::api {
namespace internal {
namespace {

// The first of `errors` as field.Invalid's text, or OK.
absl::Status FirstInvalid(std::string_view path, std::string_view value, const std::vector<std::string>& errors) {
  if (errors.empty()) return absl::OkStatus();
  return FieldError(path, schedkit::StrCat("Invalid value: ", GoQuote(value), ": ", errors.front()));
}

absl::Status ValidateCIdentifier(std::string_view path, const std::string& id) {
  if (id.size() > kDeviceMaxIdLength) {
    return FieldError(path, schedkit::StrCat("Too long: may not be more than ", kDeviceMaxIdLength, " bytes"));
  }
  return FirstInvalid(path, id, CIdentifierErrors(id));
}

absl::Status InvalidLabelValue(std::string_view path, const std::string& value) {
  return FirstInvalid(path, value, LabelValueErrors(value));
}

absl::Status ValidateLabelName(std::string_view path, const std::string& key) {
  return FirstInvalid(path, key, LabelKeyErrors(key));
}

constexpr std::string_view kTaintEffects = R"("NoExecute", "NoSchedule", "None")";

bool IsTaintEffect(const std::string& effect) {
  return effect == "NoSchedule" || effect == "NoExecute" || effect == "None";
}

}  // namespace

absl::Status ValidateDriverName(std::string_view path, const std::string& driver) {
  if (driver.empty()) return FieldError(path, "Required value");
  if (driver.size() > kDriverNameMaxLength) {
    return FieldError(path, schedkit::StrCat("Too long: may not be more than ", kDriverNameMaxLength, " bytes"));
  }
  return FirstInvalid(path, driver, Dns1123SubdomainErrors(driver));
}

absl::Status ValidateDns1123Label(std::string_view path, const std::string& name) {
  if (name.empty()) return FieldError(path, "Required value");
  return FirstInvalid(path, name, Dns1123LabelErrors(name));
}

absl::Status ValidatePoolName(std::string_view path, const std::string& name) {
  if (name.empty()) return FieldError(path, "Required value");
  if (name.size() > kDns1123SubdomainMaxLength) {
    return FieldError(path,
                      schedkit::StrCat("Too long: may not be more than ", kDns1123SubdomainMaxLength, " bytes"));
  }
  for (const std::string& part : std::vector<std::string>(absl::StrSplit(name, '/'))) {
    SCHEDKIT_RETURN_IF_ERROR(FirstInvalid(path, part, Dns1123SubdomainErrors(part)));
  }
  return absl::OkStatus();
}

absl::Status ValidateQualifiedName(std::string_view path, const std::string& name) {
  const std::vector<std::string> parts = absl::StrSplit(name, '/');
  if (parts.size() == 1) return ValidateCIdentifier(path, parts[0]);
  // Like the API server, a name of three or more parts is not checked further.
  if (parts.size() != 2) return absl::OkStatus();
  if (parts[0].empty()) return FieldError(path, "Invalid value: \"\": the domain must not be empty");
  SCHEDKIT_RETURN_IF_ERROR(ValidateDriverName(path, parts[0]));
  if (parts[1].empty()) return FieldError(path, "Invalid value: \"\": the name must not be empty");
  return ValidateCIdentifier(path, parts[1]);
}

absl::Status ValidateFullyQualifiedName(std::string_view path, const std::string& name) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateQualifiedName(path, name));
  if (name.find('/') == std::string::npos) {
    return FieldError(path, schedkit::StrCat("Invalid value: ", GoQuote(name),
                                             ": a fully qualified name must be a domain and a name separated by a "
                                             "slash"));
  }
  return absl::OkStatus();
}

absl::Status ValidateSelectors(std::string_view path,
                               const google::protobuf::RepeatedPtrField<v1::DeviceSelector>& selectors) {
  if (selectors.size() > kDeviceSelectorsMaxSize) {
    return FieldError(path, schedkit::StrCat("Too many: ", selectors.size(), ": must have at most ",
                                             kDeviceSelectorsMaxSize, " items"));
  }
  for (int i = 0; i < selectors.size(); ++i) {
    const std::string item = schedkit::StrCat(path, "[", i, "]");
    if (!selectors[i].has_cel()) return FieldError(schedkit::StrCat(item, ".cel"), "Required value");
    const std::string& expression = selectors[i].cel().expression();
    const std::string field = schedkit::StrCat(item, ".cel.expression");
    if (expression.empty()) return FieldError(field, "Required value");
    if (expression.size() > kCELSelectorExpressionMaxLength) {
      return FieldError(field, schedkit::StrCat("Too long: may not be more than ", kCELSelectorExpressionMaxLength,
                                                " bytes"));
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateOpaqueConfiguration(std::string_view path, const v1::OpaqueDeviceConfiguration& opaque) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateDriverName(schedkit::StrCat(path, ".driver"), opaque.driver()));
  const std::string field = schedkit::StrCat(path, ".parameters");
  if (!opaque.has_parameters()) return FieldError(field, "Required value");
  const std::string& text = opaque.parameters().json();
  if (text.size() > kOpaqueParametersMaxLength) {
    return FieldError(field,
                      schedkit::StrCat("Too long: may not be more than ", kOpaqueParametersMaxLength, " bytes"));
  }
  if (text.empty() || text.front() != '{') {
    return FieldError(field, "Invalid value: \"<value omitted>\": must be a valid JSON object");
  }
  return absl::OkStatus();
}

absl::Status ValidateDeviceTaint(std::string_view path, const v1::DeviceTaint& taint) {
  SCHEDKIT_RETURN_IF_ERROR(ValidateLabelName(schedkit::StrCat(path, ".key"), taint.key()));
  if (!taint.value().empty()) {
    SCHEDKIT_RETURN_IF_ERROR(InvalidLabelValue(schedkit::StrCat(path, ".value"), taint.value()));
  }
  const std::string effect = schedkit::StrCat(path, ".effect");
  if (taint.effect().empty()) return FieldError(effect, "Required value");
  if (!IsTaintEffect(taint.effect())) {
    return FieldError(effect, schedkit::StrCat("Unsupported value: ", GoQuote(taint.effect()),
                                               ": supported values: ", kTaintEffects));
  }
  return ValidateTimestamp(schedkit::StrCat(path, ".timeAdded"), taint.time_added());
}

absl::Status ValidateDeviceToleration(std::string_view path, const v1::DeviceToleration& toleration) {
  if (!toleration.key().empty()) {
    SCHEDKIT_RETURN_IF_ERROR(ValidateLabelName(schedkit::StrCat(path, ".key"), toleration.key()));
  }
  const std::string& op = toleration.operator_();
  if (op == "Exists") {
    if (!toleration.value().empty()) {
      return FieldError(schedkit::StrCat(path, ".value"),
                        schedkit::StrCat("Invalid value: ", GoQuote(toleration.value()),
                                         ": must be empty for operator `Exists`"));
    }
  } else if (op == "Equal") {
    SCHEDKIT_RETURN_IF_ERROR(InvalidLabelValue(schedkit::StrCat(path, ".value"), toleration.value()));
  } else if (op.empty()) {
    return FieldError(schedkit::StrCat(path, ".operator"), "Required value");
  } else {
    return FieldError(schedkit::StrCat(path, ".operator"),
                      schedkit::StrCat("Unsupported value: ", GoQuote(op), ": supported values: \"Equal\", \"Exists\""));
  }
  if (!toleration.effect().empty() && !IsTaintEffect(toleration.effect())) {
    return FieldError(schedkit::StrCat(path, ".effect"), schedkit::StrCat("Unsupported value: ",
                                                                          GoQuote(toleration.effect()),
                                                                          ": supported values: ", kTaintEffects));
  }
  return absl::OkStatus();
}

}  // namespace internal

using internal::FieldError;

absl::Status KindTraits<v1::DeviceClass>::Validate(const v1::DeviceClass& dc) {
  SCHEDKIT_RETURN_IF_ERROR(internal::ValidateMeta("metadata", dc.metadata()));
  const v1::DeviceClassSpec& spec = dc.spec();
  SCHEDKIT_RETURN_IF_ERROR(internal::ValidateSelectors("spec.selectors", spec.selectors()));
  if (spec.config_size() > internal::kDeviceConfigMaxSize) {
    return FieldError("spec.config",
                      schedkit::StrCat("must have at most ", internal::kDeviceConfigMaxSize, " items"));
  }
  for (int i = 0; i < spec.config_size(); ++i) {
    const std::string path = schedkit::StrCat("spec.config[", i, "].opaque");
    if (!spec.config(i).has_opaque()) return FieldError(path, "Required value");
    SCHEDKIT_RETURN_IF_ERROR(internal::ValidateOpaqueConfiguration(path, spec.config(i).opaque()));
  }
  if (spec.has_extended_resource_name()) {
    const std::string& name = spec.extended_resource_name();
    const std::vector<std::string> errors = internal::LabelKeyErrors(name);
    if (!errors.empty()) return FieldError("spec.extendedResourceName", errors.front());
    if (name.starts_with("kubernetes.io/") || name.find('/') == std::string::npos) {
      return FieldError("spec.extendedResourceName",
                        schedkit::StrCat("must be a fully-qualified name outside the kubernetes.io domain, got \"",
                                         name, "\""));
    }
  }
  return absl::OkStatus();
}

}  // namespace schedkit::api
