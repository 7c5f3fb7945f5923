// Internal: the field checks every object validator is built from. Each
// returns InvalidArgument "<field.path>: <problem>", the path relative to
// the object, so that decode can prefix the file, document and object.
#ifndef SCHEDKIT_LIB_API_VALIDATE_FIELDS_H_
#define SCHEDKIT_LIB_API_VALIDATE_FIELDS_H_

#include <initializer_list>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "schedkit/api/quantity.h"
#include "schedkit/base/str_cat.h"
#include "schedkit/api/v1/meta.pb.h"
#include "schedkit/api/v1/pod.h"

namespace schedkit::api::internal {

absl::Status FieldError(std::string_view path, const std::string& problem);
// `value` must be one of `allowed` ("" may be among them).
absl::Status OneOf(std::string_view path, const std::string& value, std::initializer_list<std::string_view> allowed);
absl::Status Required(std::string_view path, const std::string& value);
// RFC 3339, or empty.
absl::Status ValidateTimestamp(std::string_view path, const std::string& text);
// A DNS-1123 subdomain.
absl::Status ValidateName(std::string_view path, const std::string& name);
absl::Status ValidateMeta(std::string_view path, const v1::ObjectMeta& m);
absl::Status ValidateLabelSelector(std::string_view path, const v1::LabelSelector& s);
absl::Status ValidateNodeSelectorTerm(std::string_view path, const v1::NodeSelectorTerm& t);

// Every entry of a resource list (name → quantity text) names a resource
// and holds a non-negative quantity.
template <typename Map>
absl::Status ValidateResourceList(std::string_view path, const Map& list) {
  for (const auto& [name, text] : list) {
    const std::string field = schedkit::StrCat(path, ".", name);
    if (name.empty()) return FieldError(path, "empty resource name");
    auto q = Quantity::Parse(text);
    if (!q.ok()) return FieldError(field, std::string(q.status().message()));
    if (q->IsNegative()) return FieldError(field, schedkit::StrCat("must be non-negative, got \"", text, "\""));
  }
  return absl::OkStatus();
}

}  // namespace schedkit::api::internal

#endif  // SCHEDKIT_LIB_API_VALIDATE_FIELDS_H_
