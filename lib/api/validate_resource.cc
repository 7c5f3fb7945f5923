// Validation of the resource.k8s.io kinds (Dynamic Resource Allocation), as
// the API server validates the fields the scheduler reads. CEL expressions
// are checked for presence and size here; compiling them is the plugin's.
#include <string>

#include "api/apimachinery_validation.h"
#include "api/validate_fields.h"
#include "schedkit/api/v1/device_class.h"
#include "schedkit/base/status_macros.h"
#include "schedkit/base/str_cat.h"

namespace schedkit::api {
namespace {

using internal::FieldError;

// resource.k8s.io's limits (pkg/apis/resource/types.go).
constexpr int kDeviceSelectorsMaxSize = 32;
constexpr int kDeviceConfigMaxSize = 32;
constexpr size_t kCELSelectorExpressionMaxLength = 10 * 1024;
constexpr size_t kDriverNameMaxLength = 63;

absl::Status ValidateDriverName(const std::string& path, const std::string& driver) {
  if (driver.empty()) return FieldError(path, "Required value");
  if (driver.size() > kDriverNameMaxLength) {
    return FieldError(path, schedkit::StrCat("must be no more than ", kDriverNameMaxLength, " bytes"));
  }
  if (!internal::IsDns1123Subdomain(driver)) {
    return FieldError(path, schedkit::StrCat("a lowercase RFC 1123 subdomain is required, got \"", driver, "\""));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status KindTraits<v1::DeviceClass>::Validate(const v1::DeviceClass& dc) {
  SCHEDKIT_RETURN_IF_ERROR(internal::ValidateMeta("metadata", dc.metadata()));
  const v1::DeviceClassSpec& spec = dc.spec();
  if (spec.selectors_size() > kDeviceSelectorsMaxSize) {
    return FieldError("spec.selectors", schedkit::StrCat("must have at most ", kDeviceSelectorsMaxSize, " items"));
  }
  for (int i = 0; i < spec.selectors_size(); ++i) {
    const std::string path = schedkit::StrCat("spec.selectors[", i, "]");
    if (!spec.selectors(i).has_cel()) return FieldError(schedkit::StrCat(path, ".cel"), "Required value");
    const std::string& expression = spec.selectors(i).cel().expression();
    if (expression.empty()) return FieldError(schedkit::StrCat(path, ".cel.expression"), "Required value");
    if (expression.size() > kCELSelectorExpressionMaxLength) {
      return FieldError(schedkit::StrCat(path, ".cel.expression"),
                        schedkit::StrCat("must be no more than ", kCELSelectorExpressionMaxLength, " bytes"));
    }
  }
  if (spec.config_size() > kDeviceConfigMaxSize) {
    return FieldError("spec.config", schedkit::StrCat("must have at most ", kDeviceConfigMaxSize, " items"));
  }
  for (int i = 0; i < spec.config_size(); ++i) {
    const std::string path = schedkit::StrCat("spec.config[", i, "].opaque");
    if (!spec.config(i).has_opaque()) return FieldError(path, "Required value");
    SCHEDKIT_RETURN_IF_ERROR(ValidateDriverName(schedkit::StrCat(path, ".driver"), spec.config(i).opaque().driver()));
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
