// Internal: apimachinery's content validation — label keys (qualified
// names), label values and DNS-1123 subdomains — and its field errors, with
// upstream's texts byte for byte, for the messages of plugin args and
// selectors that upstream validates with them.
//
//   for (const std::string& e : LabelKeyErrors("a/b/c"))
//     errs.push_back(FieldInvalid("key", GoQuote("a/b/c"), e));
//
// Pure functions; any thread.
#ifndef SCHEDKIT_LIB_API_APIMACHINERY_VALIDATION_H_
#define SCHEDKIT_LIB_API_APIMACHINERY_VALIDATION_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace schedkit::api::internal {

inline constexpr size_t kLabelValueMaxLength = 63;
inline constexpr size_t kDns1123SubdomainMaxLength = 253;

// validation.IsDNS1123Subdomain's test: at most 253 characters, dot-separated
// labels of lowercase alphanumerics and '-', each starting and ending with an
// alphanumeric.
bool IsDns1123Subdomain(std::string_view s);

// content.IsLabelKey (IsQualifiedName): the errors of a label key, none
// when it is valid.
std::vector<std::string> LabelKeyErrors(std::string_view key);

// content.IsLabelValue: the errors of a label value, none when it is valid.
std::vector<std::string> LabelValueErrors(std::string_view value);

// content.IsDNS1123Subdomain, IsDNS1123Label and IsCIdentifier: the
// errors of a name, none when it is valid.
std::vector<std::string> Dns1123SubdomainErrors(std::string_view value);
std::vector<std::string> Dns1123LabelErrors(std::string_view value);
std::vector<std::string> CIdentifierErrors(std::string_view value);

// field.Invalid's text: "<field>: Invalid value: <value>: <detail>", with the
// value already rendered as upstream renders it (GoQuote for a string).
std::string FieldInvalid(std::string_view field, std::string_view rendered_value, std::string_view detail);

}  // namespace schedkit::api::internal

#endif  // SCHEDKIT_LIB_API_APIMACHINERY_VALIDATION_H_
